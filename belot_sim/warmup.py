"""``warmup()``: compile every kernel family now (a few minutes once per version), so no later call
waits for the compiler; each family is cached on disk for later processes."""

from __future__ import annotations

import json
import subprocess
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

    quiet = {"progress": False}  # a compile is long, but the one-deal run is not worth a bar
    calls = {
        "deals": lambda: simulate(1, **quiet),
        "auctions": lambda: simulate(1, bidders="heuristic", **quiet),
        "matches": lambda: simulate_matches(1, bidders="heuristic", **quiet),
        "estimates": lambda: estimate_bid(_HAND, "H", samples=1, players="hard", **quiet),
        "solver": search_token,
        "solve": lambda: (solve(_ENDING, "NT", leader=0), solve_moves(_ENDING, "NT", leader=0)),  # two kernels
        "search-deals": lambda: simulate(1, players="dd", **quiet),
        "search-auctions": lambda: simulate(1, players="dd", bidders="heuristic", **quiet),
        "search-matches": lambda: simulate_matches(1, players="dd", bidders="random",
                                                   bidder_options={"pass_prob": 0.0}, **quiet),
        "search-estimates": lambda: estimate_bid(_HAND, "H", samples=1, players="dd", **quiet),
    }
    calls[key]()


#: Families that share compiled code, so one process compiles them one after the other: the plain
#: players' and the searching players' (the solver under them).  The chains share nothing, so
#: :func:`warmup` compiles them side by side in two processes: Numba's cache is files, and what one
#: process writes the other, and every later process, loads.
CHAINS = (("deals", "auctions", "matches", "estimates"),
          ("solver", "solve", "search-deals", "search-auctions", "search-matches", "search-estimates"))

_CHILD = """
import json, sys
from belot_sim.warmup import _compile
print(json.dumps(_compile(json.loads(sys.argv[1]), sys.argv[2] == "verbose")))
"""


def warmup(families=None, *, verbose: bool = False, parallel: bool = True) -> dict[str, float]:
    """Compile (or load from Numba's cache) the kernels of ``families``, so no later call waits for them.

    Each family runs its smallest call, which compiles (or loads) that family only.

    Parameters
    ----------
    families : str or iterable of str, optional
        One kernel family name or several; ``None`` (default): all of them: ``"deals"``,
        ``"auctions"``, ``"matches"``, ``"estimates"``, ``"solver"``, ``"solve"`` and the
        ``"search-..."`` variants with ``dd``/``pimc`` players.
    verbose : bool, default False
        Print a line per family on stderr.
    parallel : bool, default True
        The plain families compile in a second Python process while this one compiles the searching
        ones (:data:`CHAINS`; about 80 s instead of 120 s cold on 2 cores), when both kinds are asked
        for; a failure of that process is a RuntimeError.

    Returns
    -------
    dict of str to float
        The seconds each family took (about zero when already cached), in the order asked.

    Raises
    ------
    TypeError
        If ``families`` is neither ``None``, a name nor an iterable of names.
    ValueError
        On an unknown family name.
    """
    if families is not None and not isinstance(families, Iterable):
        raise TypeError(f"families must be a kernel family name or a list of them, got {families!r}")
    keys = list(FAMILIES) if families is None else [families] if isinstance(families, str) else list(families)
    unknown = [k for k in keys if k not in FAMILIES]
    if unknown:
        raise ValueError(f"unknown kernel famil{'y' if len(unknown) == 1 else 'ies'} {unknown}: "
                         f"choose from {list(FAMILIES)}")
    chains = [[key for key in chain if key in keys] for chain in CHAINS]
    if not (parallel and all(chains)):
        return _compile(keys, verbose)
    child = subprocess.Popen([sys.executable, "-c", _CHILD, json.dumps(chains[0]), "verbose" if verbose else "-"],
                             stdout=subprocess.PIPE, text=True)
    try:
        times = _compile(chains[1], verbose)
        out, _ = child.communicate()
    finally:
        if child.poll() is None:  # Ctrl-C or an error here: the other process is not left compiling
            child.kill()
            child.wait()
    if child.returncode != 0:
        raise RuntimeError(f"warmup: the process compiling {', '.join(chains[0])} failed with exit code "
                           f"{child.returncode} (its error is above)")
    times.update(json.loads(out.splitlines()[-1]))
    return {key: times[key] for key in keys}


def _compile(keys: list[str], verbose: bool) -> dict[str, float]:
    """The families ``keys``, one after the other in this process: the seconds each took."""
    times = {}
    for key in keys:
        started = time.perf_counter()
        _run(key)
        times[key] = time.perf_counter() - started
        if verbose:
            print(f"{key:>16}: {times[key]:6.1f} s  {FAMILIES[key].what}", file=sys.stderr, flush=True)
    return times
