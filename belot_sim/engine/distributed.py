"""Independent pieces of a long call run on the workers of a Dask ``distributed`` client (``client=``
of the dataset writers, ``tournament``, ``simulate_matches`` and ``bid_tables``).

Needs the ``dask`` extra (``pip install -e ".[dask]"``: ``dask[dataframe]`` and ``distributed``).
Every piece is a pure function of its arguments and ids, so where it runs changes nothing in the
results.  On a worker a piece runs on one Numba thread unless ``threads=`` says otherwise: give
workers one thread per core (``dask worker --nthreads 1 --nworkers <cores>``, or
``LocalCluster(n_workers=<cores>, threads_per_worker=1)``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .progress import Progress


def require(what: str):
    """The ``distributed`` module, or an ImportError saying which extra ``what`` needs."""
    try:
        import dask.dataframe  # noqa: F401
        import distributed
    except ImportError as error:
        raise ImportError(f"{what} needs Dask: pip install 'belot-sim[dask]' (dask[dataframe] and distributed); "
                          f"{error}") from None
    return distributed


def check_client(client, what: str):
    """``client`` if it is a ``distributed.Client`` (``None`` passes through)."""
    if client is None:
        return None
    distributed = require(f"{what}(client=...)")
    if not isinstance(client, distributed.Client):
        raise TypeError(f"client must be a distributed.Client (e.g. Client('tcp://scheduler:8786')), "
                        f"got {type(client).__name__}")
    return client


def partitions(n: int, size: int) -> list[tuple[int, int]]:
    """``(offset, length)`` of consecutive partitions of ``n`` items, ``size`` each (the last one
    shorter); one empty partition when ``n == 0``."""
    if n == 0:
        return [(0, 0)]
    return [(offset, min(size, n - offset)) for offset in range(0, n, size)]


def run_partitions(client, fn: Callable, tasks: Sequence[tuple], *, progress: Progress | None = None,
                   weights: Sequence[int] | None = None, on_result: Callable | None = None) -> list:
    """``fn(*task)`` for every task on ``client``'s workers; the results in task order.  As each
    finishes, ``progress`` advances by its weight and ``on_result(index, result)`` is called.
    Ctrl-C (or any error) cancels what has not run yet and re-raises; tasks already running on a
    worker run to their end (Dask does not stop a running task): a dataset's parts written so are
    in its folder but not in its manifest, and a resume keeps them (each records the arguments that
    wrote it: :mod:`belot_sim.datasets.parts`)."""
    distributed = require("running on a client")
    futures = [client.submit(fn, *task, pure=False) for task in tasks]
    index = {future.key: k for k, future in enumerate(futures)}
    try:
        for future in distributed.as_completed(futures):
            k = index[future.key]
            result = future.result()
            if on_result is not None:
                on_result(k, result)
            if progress is not None:
                progress.advance(weights[k] if weights is not None else 1)
        return [future.result() for future in futures]
    except BaseException:
        client.cancel(futures)
        raise
