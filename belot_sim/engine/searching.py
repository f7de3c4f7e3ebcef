"""What every caller of a searching player shares: the compiled search the kernels are handed, and
the layouts a ``pimc``-like player deals per decision (``worlds=``)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from .compiling import announce

#: Layouts per decision of the searching players (``worlds=``) unless a call says otherwise.
DEFAULT_WORLDS = 20
#: The most layouts a call may ask for.
MAX_WORLDS = 100_000


def search_token() -> np.ndarray:
    """What the kernels get as ``search`` when a seat searches: the addresses of the compiled search
    (``None`` in its place compiles a kernel without the solver).  Loads the solver on first use; when
    it must be compiled, the searching players compile meanwhile in a second process
    (:func:`_players_meanwhile`)."""
    with announce("solver"):
        from ..kernels.solver.api import search_entries

        helper = _players_meanwhile()
        try:
            entries = search_entries()
        except BaseException:  # Ctrl-C or an error: the second process is not left compiling
            if helper is not None:
                helper.kill()
                helper.wait()
            raise
        if helper is not None:  # its outcome is not checked: see _players_meanwhile
            helper.wait()
        return entries


#: The second process of :func:`_players_meanwhile`.
_PLAYERS = """
from belot_sim.kernels.players.decide import searching_players
for player, argument_types in searching_players():
    player.compile(argument_types)
"""


def _players_meanwhile() -> subprocess.Popen | None:
    """A first use of the solver in a process whose cache lacks the searching players: a second process
    compiles them into the cache (about 17 s on 2 cores) while this one compiles the search (about 16 s),
    and the kernel compiled next loads them instead of compiling them after it.  ``None`` when the
    search is loaded already or the players are cached.  The second process only fills the cache
    early: a player it did not compile (it failed, it was killed) is compiled here when a kernel needs
    it, where any error is raised.  Ctrl-C in the command line's compile exits at once
    (:mod:`belot_sim.cli`); the second process then finishes its players and ends."""
    if "belot_sim.kernels.solver.search" in sys.modules:
        return None
    from ..kernels.players.decide import searching_players

    players = searching_players()
    # Numba's cache lookup (a private method, stable since Numba 0.49): loads the code if it is there
    if all(p._cache.load_overload(argument_types, p.targetctx) is not None for p, argument_types in players):
        return None
    return subprocess.Popen([sys.executable, "-c", _PLAYERS], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
