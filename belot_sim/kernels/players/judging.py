"""Choose a card for a seat by its player code (see ``PLAYER_CODES``).

Every player sees only: its legal cards, its own hand, its seat, the public view
(:mod:`.view`) and one uniform random 32-bit value for this decision.  The searching players
(``dd``: :mod:`.dd_player`, ``pimc``: :mod:`.pimc`) are reached through :mod:`.decide` (the dispatch of every player,
:func:`.decide.decide_card`), which hands them the solver's work space (and, for the
perfect-information ``dd`` only, every hand).
"""

from __future__ import annotations

from numba import njit

from ..core.bits import nth_card, popcount
from ..core.layouts import V_CONTRACT
from ..core.rng import scale32
from .judge import judged_card
from .neural import neural_card
from .tactics import cheapest

#: Player codes; the searching players (DD and above) are reached through the play loop's ``search_card``.
RANDOM, EASY, NORMAL, HARD, NEURAL, DD, PIMC, PIMC_EXACT, EXPERT, HYBRID = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9


@njit(cache=True, inline="always")
def random_card(legal, r32):
    """Uniform over the legal cards."""
    return nth_card(legal, scale32(r32, popcount(legal)))


@njit(cache=True)
def choose_card(player, legal, r32, hand, seat, view, family):
    """The card the seat to move plays.  ``r32`` is this decision's uniform 32-bit random
    value (from the deal's play stream); ``view`` is the public view of the deal."""
    if player == RANDOM:
        return random_card(legal, r32)
    if player == EASY:
        return cheapest(legal, view[V_CONTRACT], family)  # the weakest legal card
    if player == NEURAL:
        return neural_card(legal, hand, seat, view)
    return judged_card(legal, hand, seat, view, family, player == HARD)
