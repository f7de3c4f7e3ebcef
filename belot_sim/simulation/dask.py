"""``simulate`` as a lazy Dask frame (:func:`simulate_dask`), and the partition size the runs on a
cluster share (:mod:`belot_sim.engine.distributed` runs their pieces).  Needs the ``dask`` extra."""

from __future__ import annotations

import pandas as pd

from ..engine.checks import check_int, numba_threads
from ..engine.distributed import partitions, require
from ..engine.frames import empty_deals
from .deals import MAX_DEALS, DealPlan, plan_deals, run_deals, simulate_arguments

#: Deals per partition of :func:`simulate_dask` (and of deal datasets) by default; match datasets have
#: their own (10,000 matches, ``matches.CLIENT_PARTITION``).
DEFAULT_PARTITION = 1_000_000


def check_partition_size(partition_size) -> int:
    return check_int(partition_size, "partition_size", 1, MAX_DEALS)


def deal_partition(start: int, n: int, threads: int | None, plan: DealPlan, columns=None) -> pd.DataFrame:
    """Deals ``start .. start+n-1`` of ``plan`` indexed by ``deal_id`` (a partition of
    :func:`simulate_dask`; only ``columns`` when given)."""
    with numba_threads(threads if threads is not None else 1):
        frame = run_deals(plan, start, n)[0]
    frame = frame.set_index("deal_id")
    return frame if columns is None else frame[list(columns)]


def simulate_dask(n: int, *, partition_size: int = DEFAULT_PARTITION, start: int = 0, threads: int | None = None,
                  **simulate_kwargs) -> dask.dataframe.DataFrame:  # noqa: F821 (dask: an optional extra)
    """Build ``simulate(n, ...)`` as a lazy ``dask.dataframe.DataFrame``, one task per partition.

    Each partition holds ``partition_size`` consecutive deal ids; the frame is indexed by ``deal_id``
    with known divisions.  ``simulate_dask(n, **kw).compute().reset_index()`` equals ``simulate(n, **kw)``
    row for row; any ``partition_size`` gives the same rows (text, the ``auction`` column, in the string
    dtype of Dask's ``dataframe.convert-string`` setting).  ``plays`` and ``calls`` are not offered: write
    a dataset with ``simulate_to_parquet(..., client=)`` for them; nor is ``progress``: Dask's own progress
    bar or dashboard shows a computation.  Nothing is computed until asked (``.compute()``, ``.persist()``,
    an aggregate...), on the default or the current ``distributed`` client.

    From 15 partitions on, Dask's default ``split_out`` makes a ``groupby`` aggregate a shuffle; with few
    groups (contracts, seats) ``.mean(split_out=1)`` keeps it a plain reduction (never slower in the rounds
    of ``benchmarks/datasets.py``, up to 0.14 of ``simulate(threads=2)``'s rate faster;
    ``benchmarks/RESULTS.md``).  With bidders, void deals (everybody passed) have no contract: pandas'
    ``groupby("contract")`` leaves them out, Dask's keeps them as a ``NaN`` group unless
    ``groupby("contract", dropna=True)``.

    Parameters
    ----------
    n : int
        The number of deals (ids ``start .. start+n-1``).
    partition_size : int, default 1_000_000
        Deals per partition (one task each).
    start : int, default 0
        The first deal id.
    threads : int, optional
        Numba threads per task (default 1).
    **simulate_kwargs
        The other keywords of :func:`belot_sim.simulate` that choose the deals, with its defaults:
        ``rules``, ``contract``, ``declarer``, ``players``, ``bidders``, ``seed``, ``multiplier``,
        ``worlds``, ``bidder_options`` (``plays`` and ``calls`` only false).

    Returns
    -------
    dask.dataframe.DataFrame
        The deals frame of :func:`belot_sim.simulate`, indexed by ``deal_id``, not yet computed.

    Raises
    ------
    ImportError
        If Dask (the ``dask`` extra: ``dask[dataframe]`` and ``distributed``) is not installed.
    ValueError
        With ``plays=True`` or ``calls=True``, or a bad argument.
    TypeError
        On an unknown keyword (``progress`` included).
    """
    require("simulate_dask")
    import dask.dataframe as dd

    if simulate_kwargs.get("plays") or simulate_kwargs.get("calls"):
        raise ValueError("simulate_dask gives the deals frame only: for plays= or calls= write a dataset with "
                         "simulate_to_parquet(path, n, plays=True, client=client)")
    plan = plan_deals(**simulate_arguments(simulate_kwargs))
    n = check_int(n, "n", 0, MAX_DEALS)
    start = check_int(start, "start", 0, 2**62 - n)
    size = check_partition_size(partition_size)
    threads = None if threads is None else check_int(threads, "threads", 1, 1 << 10)
    parts = partitions(n, size)
    starts = [start + offset for offset, _ in parts]
    lengths = [length for _, length in parts]
    divisions = (*starts, start + max(n - 1, 0))
    meta = empty_deals(plan.bidders is not None, plan.rules.is_classic).set_index("deal_id")
    return dd.from_map(deal_partition, starts, lengths, args=(threads, plan), meta=meta, divisions=divisions,
                       label="belot-sim-deals", enforce_metadata=False)
