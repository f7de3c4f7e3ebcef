"""``hybrid``: the ``neural`` player's card in the early tricks, ``pimc``'s exact search later.

Where ``pimc`` spends its time it loses least: the first two tricks are about 90 % of its CPU time
(docs/players.md), and from the middle of the deal on an exact search over a few layouts costs a
fraction of a millisecond while the heuristic players lose most there.  ``hybrid`` therefore plays
the network's card (:mod:`.neural`, no search) before trick :data:`SEARCH_FROM_TRICK` and ``pimc``'s
card (:func:`.pimc.pimc_card`: ``worlds`` layouts, successive elimination) from then on.

A decision's work is bounded: the search stops drawing layouts once its solver nodes pass
:data:`NODE_BUDGET` (it keeps the layouts solved so far; at least one is always solved), so
``Bot("hybrid")`` answers any position within a few milliseconds (``benchmarks/players.py``).
Both parameters were chosen by measurement (docs/players.md, "hybrid").
"""

from __future__ import annotations

from numba import njit

from ..core.layouts import V_TRICK
from .neural import neural_card
from .pimc import UNIFORM_LAYOUTS, pimc_card

#: The first trick (0-based) ``hybrid`` searches; before it the network plays.
SEARCH_FROM_TRICK = 3
#: Solver nodes after which a decision draws no further layout.
NODE_BUDGET = 20_000
#: How the search deals its layouts (:mod:`.pimc`'s samplers).
LAYOUTS = UNIFORM_LAYOUTS


@njit(cache=True)
def hybrid_card(legal, r32, hand, seat, view, family, ctx, tt, scratch):
    """The card of ``hybrid`` (module docstring)."""
    if view[V_TRICK] < SEARCH_FROM_TRICK:
        return neural_card(legal, hand, seat, view)
    return pimc_card(legal, r32, hand, seat, view, family, ctx, tt, scratch, LAYOUTS, NODE_BUDGET)
