"""Choose a card for a seat by its policy code (see ``POLICY_CODES``)."""

from __future__ import annotations

from numba import njit

from ..kernels.bits import nth_card, popcount
from ..kernels.rng import scale32

RANDOM = 0


@njit(cache=True, inline="always")
def random_card(legal, r32):
    """Uniform over the legal cards."""
    return nth_card(legal, scale32(r32, popcount(legal)))


@njit(cache=True, inline="always")
def choose_card(policy, legal, r32):
    """The card the seat to move plays.  ``r32`` is this decision's uniform 32-bit random value
    (from the deal's play stream).  Only ``random`` exists so far."""
    return random_card(legal, r32)
