"""Choose a card for a seat by its policy code (see ``POLICY_CODES``)."""

from __future__ import annotations

from numba import njit

from ..kernels.bits import nth_card, popcount
from ..kernels.rng import below

RANDOM = 0


@njit(cache=True, inline="always")
def random_card(legal, rng):
    """Uniform over the legal cards."""
    rng, pick = below(rng, popcount(legal))
    return nth_card(legal, pick), rng


@njit(cache=True)
def choose_card(policy, legal, rng):
    """``(card, new_rng_state)`` for the seat to move.  Only ``random`` exists so far."""
    return random_card(legal, rng)
