"""Work shared out to the threads of a parallel kernel as they become free.

``prange`` hands each thread an equal share of the iterations up front, so a call ends when its
slowest share does; with deals that take 5 ms to 200 ms (``pimc``) and calls cut into blocks of
about half a second, one thread often waited for the other.  Instead each thread runs one worker
that takes the next chunk of work from a shared counter (:func:`next_chunk`, an atomic add) until
none is left: a call ends at most one chunk after its last thread became idle.  Which thread plays
a deal never changes the deal.
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def _fetch_add(typingctx, counter, value):
    """``counter[0] += value`` atomically; returns the value before."""
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64 and isinstance(value, types.Integer)):
        return None
    signature = types.int64(counter, types.int64)

    def codegen(context, builder, sig, args):
        array = context.make_array(sig.args[0])(context, builder, args[0])
        pointer = builder.bitcast(array.data, ir.IntType(64).as_pointer())
        return builder.atomic_rmw("add", pointer, args[1], "seq_cst")

    return signature, codegen


@njit(cache=True, inline="always")
def next_chunk(counter):
    """The next chunk of work to do (``>=`` the number of chunks: none left).  ``counter``:
    ``np.zeros(1, np.int64)``, shared by the workers of one call."""
    return _fetch_add(counter, 1)


@njit(cache=True, inline="always")
def stopped(flag):
    """``flag[0] != 0`` (``flag``: int64[1]), read afresh each time: another thread sets it while the
    kernel runs (Ctrl-C, belot_sim/engine/runs.py), and a plain load could be hoisted out of the loop
    (measured: the match kernel ignored a plain ``stop[0]`` for the rest of its block)."""
    return _fetch_add(flag, 0) != 0


@njit(cache=True)
def workers(n_workers, n_chunks):
    """``prange(workers(n_workers, n_chunks))``: ``n_workers`` (the caller's Numba threads: a kernel
    asking Numba itself could not be cached), none without work from the start."""
    return max(1, min(n_workers, n_chunks))
