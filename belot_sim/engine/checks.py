"""Argument checks shared by the Python edge: a clear ``TypeError``/``ValueError`` naming the
argument, before any work starts."""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterator
from contextlib import contextmanager

import numba
import numpy as np

from ..game.rules import is_integer


def check_int(value, name: str, low: int, high: int) -> int:
    """``value`` as an ``int`` in ``low..high`` (booleans refused)."""
    if not is_integer(value):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {value}")
    return int(value)


def check_seed(seed, name: str = "seed") -> int:
    """A seed: an integer in 0 .. 2**64 - 1 (the streams are splitmix64 of it)."""
    return check_int(seed, name, 0, 2**64 - 1)


def check_bool(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_threads(threads: int | None) -> int | None:
    """``None`` (all cores) or a thread count Numba can run."""
    return None if threads is None else check_int(threads, "threads", 1, numba.config.NUMBA_NUM_THREADS)


def check_probability(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or not 0 <= value <= 1:
        raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
    return float(value)


def physical_memory() -> int | None:
    """This machine's memory in bytes, or ``None`` where the system does not tell."""
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows), or no such name
        return None
    return pages * size if pages > 0 and size > 0 else None  # -1: indeterminate


def check_fits_in_memory(rows: int, bytes_per_row: int, what: str, advice: str) -> None:
    """Refuse a result that cannot fit: ``rows`` of at least ``bytes_per_row`` bytes each against the
    machine's memory.  A mistyped ``n`` would otherwise swap for minutes, or be killed, instead of
    failing at once (Linux lets a big array be allocated and fails only as it fills)."""
    memory = physical_memory()
    need = rows * bytes_per_row
    if memory is not None and need > memory:
        raise ValueError(f"{what} need at least {_size(need)} of memory, more than this machine's {_size(memory)}: "
                         f"{advice}")


def _size(n_bytes: int) -> str:
    return f"{n_bytes / 2**30:,.1f} GiB" if n_bytes >= 2**30 else f"{n_bytes / 2**20:,.1f} MiB"


@contextmanager
def numba_threads(threads: int | None) -> Iterator[None]:
    """Run the block with ``threads`` Numba threads (None: as set), then restore the setting."""
    previous = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def planned_arguments(kwargs: dict, plan, call, what: str) -> dict:
    """The arguments of the planner ``plan`` from keywords of the public function ``call``, with
    ``call``'s defaults for those not given (one source of defaults: the public signature); an unknown
    keyword is a TypeError naming it and listing the ``what`` arguments."""
    names = inspect.signature(plan).parameters
    unknown = sorted(set(kwargs) - set(names))
    if unknown:
        raise TypeError(f"unknown argument(s) {unknown}: the {what} arguments are {sorted(names)}")
    defaults = inspect.signature(call).parameters
    return {name: kwargs[name] if name in kwargs else defaults[name].default for name in names}
