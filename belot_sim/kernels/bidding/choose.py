"""Which bidder calls: the kernels' dispatch by bidder code, the entry point of the auction loop.

A bidder sees only: the legal-call mask, its 5-card hand, its seat, the auction state (contract,
declarer, multiplier, round, the calls so far — all public), the family, the classic turned card (public), the
bidder parameters (with the deal's rule options, ``BI_FLAGS``) and one uniform 32-bit random value (``mc``
seeds its layouts with it).
Python names bidders by string (:data:`belot_sim.engine.registry.BIDDERS`).
"""

from __future__ import annotations

from numba import njit

from ..bid_models.atlas_bidder import atlas_call
from ..bid_models.codes import ATLAS_BIDDER, HEURISTIC, MC_BIDDER, NEURAL_BIDDER, RANDOM_BIDDER
from ..bid_models.heuristic import heuristic_call
from ..bid_models.neural_bidder import learned_call
from ..core.auction_rules import PASS
from ..core.layouts import BI_FLAGS
from .mc import mc_call
from .random_bidder import random_call

__all__ = ["ATLAS_BIDDER", "HEURISTIC", "MC_BIDDER", "NEURAL_BIDDER", "RANDOM_BIDDER", "choose_call"]


@njit(cache=True)
def choose_call(bidder, legal, r32, hand5, seat, state, family, turned_card, ints, weights):
    """The call code the seat to move makes.

    ``legal`` bitmask of legal call codes; ``r32`` this call's uniform 32-bit value; ``hand5`` the
    seat's 5-card mask; ``state`` the auction state array (``A_*`` slots); ``turned_card`` the
    classic turned card (-1 in bulgarian); ``ints``/``weights`` the bidder parameters (``BI_*`` /
    ``BW_*`` slots of :mod:`belot_sim.kernels.core.layouts`).  Unknown codes pass (Python
    validates names first).
    """
    if bidder == RANDOM_BIDDER:
        return random_call(legal, r32, weights)
    if bidder == HEURISTIC:
        return heuristic_call(legal, hand5, seat, state, family, ints[BI_FLAGS], turned_card, weights)
    if bidder == MC_BIDDER:
        return mc_call(legal, r32, hand5, seat, state, family, turned_card, ints, weights)
    if bidder == ATLAS_BIDDER:
        return atlas_call(legal, hand5, seat, state, family, ints[BI_FLAGS], turned_card, weights)
    if bidder == NEURAL_BIDDER:
        return learned_call(legal, hand5, seat, state, family, ints[BI_FLAGS], turned_card, weights)
    return PASS
