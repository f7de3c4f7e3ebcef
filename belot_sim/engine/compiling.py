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
    a 2-core machine with an empty cache, the family called first in its process (``python
    benchmarks/compile.py``; for the ``search-`` families after ``solver``, which compiles the
    searching players in a second process meanwhile, :func:`belot_sim.engine.searching.search_token`).
    A family compiled after another that shares its code takes less: ``auctions`` after ``deals``
    about 18 s, a ``search-`` family after another about 10 s."""

    key: str
    what: str
    seconds: int


#: Every kernel family, in the order :func:`belot_sim.warmup` compiles them.
FAMILIES = {f.key: f for f in (
    Family("deals", "the deal kernels (random, easy, normal, hard players)", 10),
    Family("auctions", "the auction kernels (random, heuristic, mc bidders)", 25),
    Family("matches", "the match kernels", 20),
    Family("estimates", "the bid-estimate kernels", 10),
    Family("solver", "the double-dummy search (dd and pimc players, bs.solve)", 20),
    Family("solve", "the bs.solve kernels", 3),
    Family("search-deals", "the deal kernels for dd and pimc players", 18),
    Family("search-auctions", "the auction kernels for dd and pimc players", 25),
    Family("search-matches", "the match kernels for dd and pimc players", 20),
    Family("search-estimates", "the bid-estimate kernels for dd and pimc players", 18),
)}

_state = threading.local()
_announced: set[str] = set()
#: Threads inside an outermost compilation now (any family or none): Ctrl-C then must not unwind
#: through Numba and LLVM, which can swallow the interrupt or leave a half-built library behind.
_compiling: set[int] = set()


def compiling_now() -> bool:
    """Is any thread of this process compiling a kernel at this moment?"""
    return bool(_compiling)


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
        if depth == 0:
            _compiling.add(threading.get_ident())
        key = current()
        if depth == 0 and key is not None and key not in _announced:
            _announced.add(key)
            print(message(FAMILIES[key]), file=sys.stderr, flush=True)

    def on_end(self, ev) -> None:
        _state.depth = max(0, getattr(_state, "depth", 1) - 1)
        if _state.depth == 0:
            _compiling.discard(threading.get_ident())


event.register("numba:compile", _Listener())
