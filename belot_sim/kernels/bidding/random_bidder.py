"""The ``random`` bidder: passes with probability ``BW_PASS_PROB`` (default 0.6, so auctions end
quickly), otherwise a uniform choice among the other legal calls."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.auction_rules import PASS
from ..core.bits import nth_card, popcount
from ..core.layouts import BW_PASS_PROB


@njit(cache=True)
def random_call(legal, r32, weights):
    """Pass with probability ``weights[BW_PASS_PROB]``, else uniform over the other legal calls.

    One 32-bit value serves both draws: below the pass cut it means pass, above it is
    rescaled to pick among the non-pass calls."""
    others = legal & ~np.int64(1)
    if others == 0:
        return PASS
    r = np.int64(r32)
    cut = np.int64(weights[BW_PASS_PROB] * 4294967296.0)
    if cut < 0:
        cut = 0
    span = np.int64(4294967296) - cut
    if r < cut or span <= 0:
        return PASS
    return nth_card(others, ((r - cut) * popcount(others)) // span)
