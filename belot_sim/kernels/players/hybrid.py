"""``hybrid``: the ``neural`` player's card in the early tricks, an exact search over layouts drawn from
the card-ownership model later.

Where ``pimc`` spends its time it loses least: the first two tricks are about 90 % of its CPU time
(docs/players.md), and from the middle of the deal on an exact search over a few layouts costs a
fraction of a millisecond while the heuristic players lose most there.  ``hybrid`` therefore plays
the network's card (:mod:`.neural`, no search) before trick :data:`SEARCH_FROM_TRICK` and from then on
``expert``'s search (:func:`.pimc.pimc_card`: ``worlds`` layouts drawn from the card-ownership model,
:mod:`.owners`, that also replay the auction, successive elimination, the best total).

A decision's work is bounded: the search draws no further layout once its solver nodes pass
:data:`NODE_BUDGET` (at least one layout is always solved), so ``Bot("hybrid")`` answers any position
within a few milliseconds (``benchmarks/hybrid.py``).  The parameters were chosen in duplicate
tournaments (docs/players.md, "hybrid").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.layouts import V_TRICK
from .neural import neural_card
from .pimc import MODEL_AUCTION_LAYOUTS, pimc_card

#: The first trick (0-based) ``hybrid`` searches; before it the network plays.
SEARCH_FROM_TRICK = 3
#: Solver nodes after which a decision draws no further layout.
NODE_BUDGET = 20_000
#: How the search deals its layouts (:mod:`.pimc`'s samplers).
LAYOUTS = MODEL_AUCTION_LAYOUTS


@njit(cache=True)
def hybrid_card(legal, r32, hand, seat, view, family, ctx, tt, scratch):
    """The card of ``hybrid`` (module docstring)."""
    if view[V_TRICK] < SEARCH_FROM_TRICK:
        return neural_card(legal, hand, seat, view)
    # int64, not the constants' literal types: one compiled pimc_card serves hybrid and decide (3 s less cold)
    return pimc_card(legal, r32, hand, seat, view, family, ctx, tt, scratch, np.int64(LAYOUTS), np.int64(NODE_BUDGET))
