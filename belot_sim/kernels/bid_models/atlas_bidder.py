"""The ``atlas`` bidder: for its 5 cards and position, the contract with the best expected match
points in the bid atlas (belot_sim/estimates/atlas.py: ``hard`` play, no auction), looked up in the table that
follows the bidder weights (:data:`belot_sim.kernels.core.layouts.ATLAS_ENTRIES`).

It bids the legal contract with the highest expected match-point difference if that is at least
``BW_ATLAS_MIN_EV`` (``BW_ATLAS_OVER_PARTNER`` when its own team holds the contract), doubles and
redoubles as the ``heuristic`` does, else passes.  Deterministic.  Without the table (or in classic,
which the atlas does not cover) it calls as the ``heuristic``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.auction_rules import DOUBLE, PASS, REDOUBLE
from ..core.layouts import (A_CONTRACT, A_DEALER, A_DECLARER, ATLAS_ENTRIES, BW_ATLAS_MIN_EV, BW_ATLAS_OVER_PARTNER,
                            BW_SIZE)
from .heuristic import heuristic_call

#: ``BINOMIAL[n, k]`` = n choose k, for the rank of a 5-card hand.
BINOMIAL = np.zeros((33, 6), dtype=np.int64)
for _n in range(33):
    BINOMIAL[_n, 0] = 1
    for _k in range(1, 6):
        BINOMIAL[_n, _k] = BINOMIAL[_n - 1, _k - 1] + BINOMIAL[_n - 1, _k] if _n else 0


@njit(cache=True)
def hand_rank(hand5):
    """The rank 0..201375 of a 5-card mask in the combinatorial number system (cards ascending
    ``c1 < ... < c5``: the sum of ``C(c_i, i)``)."""
    rank = 0
    k = 1
    for c in range(32):
        if (hand5 >> c) & 1:
            rank += BINOMIAL[c, k]
            k += 1
    return rank


@njit(cache=True)
def atlas_call(legal, hand5, seat, state, family, flags, turned_card, weights):
    """The atlas bidder's call (module docstring); arguments as :func:`.choose.choose_call`."""
    fallback = heuristic_call(legal, hand5, seat, state, family, flags, turned_card, weights)
    if family == 1 or len(weights) < BW_SIZE + ATLAS_ENTRIES:
        return fallback
    if fallback == DOUBLE or fallback == REDOUBLE:
        return fallback
    contract = state[A_CONTRACT]
    own_team = contract >= 0 and ((seat ^ state[A_DECLARER]) & 1) == 0
    need = weights[BW_ATLAS_OVER_PARTNER] if own_team else weights[BW_ATLAS_MIN_EV]
    base = BW_SIZE + hand_rank(hand5) * 24 + ((seat - state[A_DEALER] - 1) & 3)
    best = PASS
    best_ev = need
    for c in range(6):
        if (legal >> (c + 1)) & 1:
            ev = weights[base + c * 4]
            if ev >= best_ev and (best == PASS or ev > best_ev):
                best = c + 1
                best_ev = ev
    return best
