"""One line on stderr when a call compiles a kernel family: no silent minute-long first call.

Numba compiles a kernel the first time it is called with a new kind of arguments, and caches it
on disk for later processes (:mod:`belot_sim._cache`).  The Python edge runs each kernel call
inside :func:`announce` naming its family; if Numba starts compiling while it runs, the first
compilation of that family in the process prints what is being compiled and roughly how long it
takes.  Loading a cached kernel prints nothing.  :func:`belot_sim.warmup` compiles them all.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from numba.core import event


@dataclass(frozen=True)
class Family:
    """Kernels compiled together: what they serve and their cold compile time in seconds, measured on
    a 2-core machine (``bs.warmup(verbose=True)`` with an empty cache; for the ``search-`` families the
    time when none of them was compiled before: they share the players' code, the second one
    compiles in about a third of it)."""

    key: str
    what: str
    seconds: int


#: Every kernel family, in the order :func:`belot_sim.warmup` compiles them.
FAMILIES = {f.key: f for f in (
    Family("deals", "the deal kernels (random, easy, normal, hard players)", 8),
    Family("auctions", "the auction kernels (random, heuristic, mc bidders)", 10),
    Family("matches", "the match kernels", 4),
    Family("estimates", "the bid-estimate kernels", 3),
    Family("solver", "the double-dummy search (dd and pimc players, bs.solve)", 15),
    Family("solve", "the bs.solve kernels", 2),
    Family("search-deals", "the deal kernels for dd and pimc players", 15),
    Family("search-auctions", "the auction kernels for dd and pimc players", 15),
    Family("search-matches", "the match kernels for dd and pimc players", 15),
    Family("search-estimates", "the bid-estimate kernels for dd and pimc players", 15),
)}

_state = threading.local()
_announced: set[str] = set()


def current() -> str | None:
    """The family of the kernel call running in this thread, if any."""
    return getattr(_state, "family", None)


@contextmanager
def announce(key: str) -> Iterator[None]:
    """Run a kernel call of family ``key``: a compilation starting inside prints one line (once
    per family and process)."""
    if key not in FAMILIES:
        raise KeyError(f"unknown kernel family {key!r}")
    outer = current()
    _state.family = key
    try:
        yield
    finally:
        _state.family = outer


def message(family: Family) -> str:
    return (f"belot_sim: compiling {family.what}, about {family.seconds} s on 2 cores "
            "(first use of this version; cached for later runs)")


class _Listener(event.Listener):
    """Prints :func:`message` when an outermost compilation starts inside :func:`announce`."""

    def on_start(self, ev) -> None:
        depth = getattr(_state, "depth", 0)
        _state.depth = depth + 1
        key = current()
        if depth == 0 and key is not None and key not in _announced:
            _announced.add(key)
            print(message(FAMILIES[key]), file=sys.stderr, flush=True)

    def on_end(self, ev) -> None:
        _state.depth = max(0, getattr(_state, "depth", 1) - 1)


event.register("numba:compile", _Listener())
