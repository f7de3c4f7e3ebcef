"""Long runs cut into blocks of about half a second: Ctrl-C stops them promptly, a bar shows how far.

The kernels hold the interpreter while they run, so Python sees a ``SIGINT`` (Ctrl-C) only when a
kernel call returns; one call over millions of deals, or a few hundred ``pimc`` deals, would keep
it waiting for minutes.  :func:`blocks` hands out ranges of work sized from the rate measured on
the blocks before, so that each call takes about ``target`` seconds, and the pending
``KeyboardInterrupt`` is raised between two blocks.  Where one work item alone is long (a whole
match of searching players), :func:`interruptible` runs the kernel in a helper thread and stops it
between two deals.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import nullcontext

import numba
import numpy as np

from .compiling import announce, current
from .progress import Progress

#: Seconds of work per block: short enough that Ctrl-C stops a run within about a second, long
#: enough that the per-call overhead and the wait for a block's slowest item stay small.
TARGET_SECONDS = 0.5
#: A block is at most this many times bigger than the one before (a first block's time includes
#: loading or compiling its kernel, and one fast block says little about the next).
MAX_GROWTH = 4


def blocks(total: int, *, first: int, cap: int, multiple: int = 1, progress: Progress | None = None,
           target: float = TARGET_SECONDS) -> Iterator[tuple[int, int]]:
    """``(offset, size)`` ranges covering ``0 .. total-1`` in order; the caller does the work of
    each range before asking for the next, and the time it took sizes the next one: about
    ``target`` seconds at the measured rate, between ``multiple`` (a size that keeps every thread
    busy) and ``cap`` (what memory allows; it wins over ``multiple``), rounded down to a multiple of
    ``multiple``.  ``first`` is the first block's size.  ``total == 0`` gives one empty range (a caller always has a
    block to build its empty result from).  ``progress`` advances by each finished block."""
    if total == 0:
        yield 0, 0
        return
    multiple = max(1, min(multiple, cap))
    size = max(multiple, min(first, cap))
    done = 0
    while done < total:
        size = min(size, total - done)
        started = time.perf_counter()
        yield done, size
        elapsed = time.perf_counter() - started
        done += size
        if progress is not None:
            progress.advance(size)
        wanted = size * target / elapsed if elapsed > 0 else cap
        size = int(min(wanted, MAX_GROWTH * size, cap)) // multiple * multiple
        size = max(size, multiple)


def interruptible(call: Callable, stop: np.ndarray, poll: float = 0.05):
    """``call()`` in a helper thread, for a kernel that releases the interpreter and returns soon
    after ``stop[0]`` is set (the match kernel checks it between deals).  A block of matches can be
    many seconds of work (a match is at least one whole work item, belot_sim/simulation/matches.py): waiting
    here instead of inside the kernel lets Ctrl-C through at once; it sets ``stop[0]``, waits for the
    kernel to return and raises ``KeyboardInterrupt``.  Returns what ``call`` returns."""
    threads = numba.get_num_threads()
    family = current()  # a compile in the helper thread is announced as the caller's family
    outcome: dict = {}
    done = threading.Event()

    def run():
        numba.set_num_threads(threads)  # Numba's setting is per thread
        try:
            with announce(family) if family is not None else nullcontext():
                outcome["value"] = call()
        except BaseException as error:  # handed to the calling thread
            outcome["error"] = error
        finally:
            done.set()

    # an Event, not Thread.join: a join interrupted by Ctrl-C may report the thread ended (CPython 3.11)
    threading.Thread(target=run, name="belot-sim-kernel", daemon=True).start()
    try:
        while not done.wait(poll):
            pass
    except KeyboardInterrupt:
        stop[0] = 1
        done.wait()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")
