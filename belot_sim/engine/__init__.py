"""The Python edge over the kernels, which every room above shares: player and bidder names
(:mod:`.registry`), bidder options (:mod:`.bidder_options`), argument checks (:mod:`.checks`), result
frames (:mod:`.frames`), work in blocks of about half a second with a progress bar (:mod:`.runs`,
:mod:`.progress`), compile messages (:mod:`.compiling`) and the compiled search with the layouts
per decision (:mod:`.searching`), intervals (:mod:`.stats`), results with a table and a report
(:mod:`.results`), files written whole (:mod:`.io`),
pieces of work on a Dask cluster (:mod:`.distributed`) and the bid atlas's table, which the
``atlas`` bidder reads (:mod:`.atlas_table`)."""
