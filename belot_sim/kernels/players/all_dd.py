"""A whole deal with every seat double-dummy, from one minimax solve instead of card-by-card play.

When every seat plays ``dd`` (:func:`belot_sim.kernels.players.dd_player.dd_card`), each seat keeps its own
team's exact value.  In a suit contract or NT, and in AT when nobody holds a K-Q pair, a team's
objective is its trick points (plus a valat), one team's gain is the other's loss, and the deal
ends at the minimax value of the first solve: the trick points, the valat and (not depending on
the play) the declarations and suit belots follow from it.  :func:`play_deal
<belot_sim.kernels.play_loop.play_deal>` takes this path when no plays are recorded; the rows are the
same as card-by-card play (tests/test_search_players.py compares them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.layouts import C_SIZE
from ..core.play import belot_cards
from ..core.rule_flags import AT_OVERTAKE, UNDERTRUMP
from ..core.scoring import score_play
from ..core.tables import BELOT, DEAL_POINTS, NT, VALAT
from ..solver.api import dd_value
from .scratch import new_gen


@njit(cache=True)
def minimax_result(hands, dealer, contract, declarer, multiplier, family, flags, ctx, tt, scratch):
    """``(decided, result)``: the deal with every seat double-dummy, scored as
    :func:`~belot_sim.kernels.core.scoring.score_play` scores it - the bidding team takes its exact
    minimax value.  Not for AT with a K-Q pair in some hand (its belots depend on the play of both teams, see
    :func:`~belot_sim.kernels.play_loop.no_at_belot`).

    The value ``V`` of the bidding team holds its trick points and +90 when it takes every trick
    (``V`` above all points in play).  When ``V == 0`` a second solve tells whether the defenders
    take every trick; if they cannot force it, the bidders' seats are indifferent between losing
    every trick and winning a pointless one, and only card-by-card play (its tie-breaks) decides
    the valat: ``decided`` is False then (a rare case) and the caller plays the deal.
    ``ctx``: at least ``C_SIZE`` entries; ``tt``/``scratch`` as the dd player's.
    """
    leader = (dealer + 1) & 3
    team = declarer & 1
    trick = np.zeros(4, dtype=np.int64)
    c = ctx[:C_SIZE]
    total = DEAL_POINTS[family, contract]
    under = (flags & UNDERTRUMP) != 0
    atop = (flags & AT_OVERTAKE) != 0
    value = dd_value(hands, leader, trick, 0, contract, team, family, under, atop, True, c, tt, new_gen(scratch, tt))
    valat = -1
    taken = value
    if value > total:
        valat = team
        taken = value - VALAT
    elif value == 0:
        other = dd_value(hands, leader, trick, 0, contract, 1 - team, family, under, atop, True, c, tt,
                         new_gen(scratch, tt))
        if other <= total:
            return False, score_play(hands[0], hands[1], hands[2], hands[3], contract, declarer, multiplier, family,
                                     flags, 0, 0, 0, 0, -1)
        valat = 1 - team
    points = np.zeros(2, dtype=np.int64)
    points[team] = taken
    points[1 - team] = total - taken
    belots = np.zeros(2, dtype=np.int64)
    if contract < NT:  # a suit contract's belot is always scored: its first card is a trump
        for s in range(4):
            if belot_cards(hands[s], contract):
                belots[s & 1] += BELOT
    return True, score_play(hands[0], hands[1], hands[2], hands[3], contract, declarer, multiplier, family, flags,
                            points[0], points[1], belots[0], belots[1], valat)
