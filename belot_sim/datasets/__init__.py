"""Partitioned, resumable Parquet datasets of deals and of matches.

A dataset is a folder::

    run/_belot_sim.json            the manifest (belot_sim/datasets/manifest.py)
    run/_belot_sim.lock            while a writer writes (local folders; a killed one leaves it, harmless)
    run/deals/part-00000.parquet   deals 0 .. P-1 (P = partition_size), then part-00001 ...
    run/plays/part-00000.parquet   with plays=True: the plays of the same deals
    run/calls/part-00000.parquet   with calls=True: their calls

(a match dataset has ``matches/`` first, then ``deals/``, ``plays/``, ``calls/``, partitioned by
match id). Every part file is written under a temporary name beginning with a dot and renamed when
complete, and the manifest records it as done with each file's rows, size and CRC-32, so an
interrupted run — Ctrl-C, a crash, a killed process — leaves only complete parts; ``resume=True``
computes the rest, after checking each listed part's row counts and id range against the manifest
and every byte against its CRC-32 (a part copied from elsewhere or changed on disk is recomputed;
:func:`read_parquet`, which checks the same before it decodes a file, refuses it). A failed write (a
full disk, a file system gone) raises :class:`~belot_sim.DatasetWriteError` naming the part: that
part is not recorded and its temporary files are removed. Each part file also records the arguments
that wrote it and its index and frame (:mod:`belot_sim.datasets.parts`), so a resume keeps finished parts the
manifest does not list: the manifest was deleted (a resume with the same arguments writes it again),
or cluster tasks ran to their end after Ctrl-C. A listed part that records another run is recomputed
(and refused by :func:`read_parquet`); a folder without a manifest is refused, untouched, when one
of its parts records other arguments or none. Part ``k`` holds its ids played as
:func:`belot_sim.simulation.deals.run_deals` (or :func:`belot_sim.simulation.matches.run_matches`) plays them, a pure
function of the ids, so the rows do not depend on the partition size, the resume history or the
threads: row ``i`` of the deals is row ``i`` of ``simulate(n, ...)``. Each frame is an ordinary
Parquet dataset (``pd.read_parquet``, ``pyarrow.dataset``, DuckDB ``'run/deals/*.parquet'``,
``dask.dataframe.read_parquet``); :func:`read_parquet` gives it back with the ``simulate`` dtypes.
Needs ``pyarrow``.
"""

from .reading import read_parquet
from .writing import simulate_matches_to_parquet, simulate_to_parquet

__all__ = ["simulate_to_parquet", "simulate_matches_to_parquet", "read_parquet"]
