"""The rules' vocabulary in Python: cards and their text (:mod:`.cards`), the rule options, presets and
contracts (:mod:`.rules`), a deal's score (:mod:`.scoring`), the one-line position notation
(:mod:`.notation`).  The bottom layer: the kernels and the reference engine build on it."""
