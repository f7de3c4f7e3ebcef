"""``warmup()``: compile every kernel family now (a few minutes once per version), so no later call
waits for the compiler; each family is cached on disk for later processes."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable

from .engine.compiling import FAMILIES

_HAND = "JH 9H AH KS 7C"
_ENDING = ["AS 7C", "7S 8C", "TS 9C", "8S TC"]  # the smallest deal end bs.solve accepts


def _run(key: str) -> None:
    """The smallest call of each family (it compiles, or loads from the cache, that family only)."""
    from .estimates.bid import estimate_bid
    from .simulation.matches import simulate_matches
    from .engine.searching import search_token
    from .simulation.deals import simulate
    from .positions.solve import solve, solve_moves

    calls = {
        "deals": lambda: simulate(1),
        "auctions": lambda: simulate(1, bidders="heuristic"),
        "matches": lambda: simulate_matches(1, bidders="heuristic"),
        "estimates": lambda: estimate_bid(_HAND, "H", samples=1, players="hard"),
        "solver": search_token,
        "solve": lambda: (solve(_ENDING, "NT", leader=0), solve_moves(_ENDING, "NT", leader=0)),  # two kernels
        "search-deals": lambda: simulate(1, players="dd"),
        "search-auctions": lambda: simulate(1, players="dd", bidders="heuristic"),
        "search-matches": lambda: simulate_matches(1, players="dd", bidders="random",
                                                   bidder_options={"pass_prob": 0.0}),
        "search-estimates": lambda: estimate_bid(_HAND, "H", samples=1, players="dd"),
    }
    calls[key]()


def warmup(families=None, *, verbose: bool = False) -> dict[str, float]:
    """Compile (or load from Numba's cache) the kernels of ``families`` — all of them by default:
    ``"deals"``, ``"auctions"``, ``"matches"``, ``"estimates"``, ``"solver"``, ``"solve"`` and the
    ``"search-..."`` variants with ``dd``/``pimc`` players.  Returns the seconds each took (about
    zero when already cached); ``verbose`` prints a line per family on stderr."""
    if families is not None and not isinstance(families, Iterable):
        raise TypeError(f"families must be a kernel family name or a list of them, got {families!r}")
    keys = list(FAMILIES) if families is None else [families] if isinstance(families, str) else list(families)
    unknown = [k for k in keys if k not in FAMILIES]
    if unknown:
        raise ValueError(f"unknown kernel famil{'y' if len(unknown) == 1 else 'ies'} {unknown}: "
                         f"choose from {list(FAMILIES)}")
    times = {}
    for key in keys:
        started = time.perf_counter()
        _run(key)
        times[key] = time.perf_counter() - started
        if verbose:
            print(f"{key:>16}: {times[key]:6.1f} s  {FAMILIES[key].what}", file=sys.stderr, flush=True)
    return times
