"""The ``heuristic`` bidder: a point count of its own cards per contract (docs/rules.md §4).

It bids the best contract whose value clears that contract's threshold, doubles an opponents'
contract its hand is strong in, redoubles its team's contract when strong.  It ignores the random
value, so it is deterministic.

**Heuristic evaluation** (all weights are slots ``BW_*`` of the weights array,
:data:`belot_sim.kernels.core.layouts.BIDDER_WEIGHTS`; in brackets the hand-set values the fit
started from — the defaults there are fitted, docs/bidding.md).  The hand
evaluated is the 5 auction cards — in classic plus the turned card, since whoever takes receives
it.  Each weight is roughly "how much this card helps the bidding team reach more than half the
points", scaled so that one sure trick-taker ~ 2.5–5:

* suit contract ``s``: trump J [5] (20 points, the top trump), trump 9 [4] (14 points,
  second trump), trump A [2.5], trump 10 [1.5], trump K/Q [0.5 each]; every trump [1]
  (length is control); side ace [2.5] (a sure trick of 11); side ten [1] with its ace
  (then it usually wins too), [0.5] bare (it often falls to the ace); belot K+Q of trump
  [1.5] (20 points); declarations [2 per 100 declared points] (when the rules count them:
  the ``declarations`` option, on by default in bulgarian, off in classic; a tierce in 5 cards
  is a likely 20).  Threshold [10]: e.g. J + 9 + a small trump, or J + a small
  trump + two side aces (J + a small trump + one ace, 9.5, passes).
* NT: ace [4] (the top card; NT points are doubled), ten [2] with its ace, [1] bare;
  [1] per card beyond two in an ace-headed suit (long suits run).  Threshold [12]
  (~three aces: NT is worth the most and has no trumps to stop runs).
* AT: jack [5], nine [3] with its jack of the same suit (a sure second trick), [2] without;
  ace [1]; belot [1.5] per K+Q pair; declarations as above.  Threshold [13] (~two
  jacks and a nine).

Decisions (bulgarian): (1) double when the opponents hold an undoubled contract whose
value for *this* hand is at least its threshold + ``BW_DOUBLE_MARGIN`` [2] (holding their
trumps means they are weak); (2) redouble when the own team's contract, doubled, values
at least threshold + ``BW_REDOUBLE_MARGIN`` [4]; (3) otherwise bid the legal contract with
the largest margin ``value - threshold`` if that margin is >= 0 (>= ``BW_OVER_PARTNER``
[3] when the own team already holds the contract: do not overbid partner lightly);
(4) otherwise pass.  Classic: the same choice among the legal takes of the round.

With the defaults, on uniform random bulgarian deals (4 heuristic bidders): ~18% void,
contracts S 25%, H 20%, D 16%, C 13%, AT 7%, NT 1.3%; ~0.4% doubled.  Suits are not
symmetric because a higher suit can overcall a lower one with the same strength.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.auction_rules import DOUBLE, PASS, REDOUBLE
from ..core.bits import popcount
from ..core.layouts import (A_CONTRACT, A_DECLARER, BW_AT_9, BW_AT_9_BARE, BW_AT_A, BW_AT_BELOT, BW_AT_DECL, BW_AT_J,
                            BW_BELOT, BW_DECL, BW_DOUBLE_MARGIN, BW_NT_A, BW_NT_LONG, BW_NT_T, BW_NT_T_BARE,
                            BW_OVER_PARTNER, BW_REDOUBLE_MARGIN, BW_SIDE_A, BW_SIDE_T, BW_SIDE_T_BARE, BW_THR_AT,
                            BW_THR_NT, BW_THR_SUIT, BW_TRUMP_9, BW_TRUMP_A, BW_TRUMP_J, BW_TRUMP_KQ, BW_TRUMP_LEN,
                            BW_TRUMP_T)
from ..core.rule_flags import DECLARATIONS
from ..core.tables import CARRE_RANKS, CARRE_SET_POINTS, NT, RANK_9, RANK_A, RANK_J, RANK_K, RANK_Q, RANK_T, RUN_POINTS


@njit(cache=True, inline="always")
def _bit(byte, rank):
    return (byte >> rank) & 1


@njit(cache=True)
def declaration_points(hand):
    """Points of the sequences and carrés within ``hand`` (carrés first, as in §6)."""
    carres = hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & CARRE_RANKS
    points = CARRE_SET_POINTS[carres]
    for suit in range(4):
        points += RUN_POINTS[(hand >> (8 * suit)) & 0xFF & ~carres]
    return points


@njit(cache=True)
def suit_value(hand, trump, with_declarations, weights):
    """Heuristic value of ``hand`` for the suit contract ``trump`` (module docstring)."""
    value = 0.0
    for suit in range(4):
        byte = (hand >> (8 * suit)) & 0xFF
        if suit == trump:
            value += (weights[BW_TRUMP_J] * _bit(byte, RANK_J) + weights[BW_TRUMP_9] * _bit(byte, RANK_9)
                      + weights[BW_TRUMP_A] * _bit(byte, RANK_A) + weights[BW_TRUMP_T] * _bit(byte, RANK_T)
                      + weights[BW_TRUMP_KQ] * (_bit(byte, RANK_K) + _bit(byte, RANK_Q))
                      + weights[BW_TRUMP_LEN] * popcount(byte))
            if _bit(byte, RANK_K) and _bit(byte, RANK_Q):
                value += weights[BW_BELOT]
        else:
            value += weights[BW_SIDE_A] * _bit(byte, RANK_A)
            if _bit(byte, RANK_T):
                value += weights[BW_SIDE_T] if _bit(byte, RANK_A) else weights[BW_SIDE_T_BARE]
    if with_declarations:
        value += weights[BW_DECL] * declaration_points(hand) / 100.0
    return value


@njit(cache=True)
def nt_value(hand, weights):
    """Heuristic value of ``hand`` for no trumps: aces, tens, long ace-headed suits."""
    value = 0.0
    for suit in range(4):
        byte = (hand >> (8 * suit)) & 0xFF
        ace = _bit(byte, RANK_A)
        value += weights[BW_NT_A] * ace
        if _bit(byte, RANK_T):
            value += weights[BW_NT_T] if ace else weights[BW_NT_T_BARE]
        length = popcount(byte)
        if ace and length > 2:
            value += weights[BW_NT_LONG] * (length - 2)
    return value


@njit(cache=True)
def at_value(hand, with_declarations, weights):
    """Heuristic value of ``hand`` for all trumps: jacks, nines, aces, belots, declarations."""
    value = 0.0
    for suit in range(4):
        byte = (hand >> (8 * suit)) & 0xFF
        jack = _bit(byte, RANK_J)
        value += weights[BW_AT_J] * jack + weights[BW_AT_A] * _bit(byte, RANK_A)
        if _bit(byte, RANK_9):
            value += weights[BW_AT_9] if jack else weights[BW_AT_9_BARE]
        if _bit(byte, RANK_K) and _bit(byte, RANK_Q):
            value += weights[BW_AT_BELOT]
    if with_declarations:
        value += weights[BW_AT_DECL] * declaration_points(hand) / 100.0
    return value


@njit(cache=True)
def contract_margin(hand, contract, with_declarations, weights):
    """``value - threshold`` of ``hand`` for ``contract`` 0..5 (>= 0: worth bidding)."""
    if contract < NT:
        return suit_value(hand, contract, with_declarations, weights) - weights[BW_THR_SUIT]
    if contract == NT:
        return nt_value(hand, weights) - weights[BW_THR_NT]
    return at_value(hand, with_declarations, weights) - weights[BW_THR_AT]


@njit(cache=True)
def heuristic_call(legal, hand5, seat, state, family, flags, turned_card, weights):
    """The heuristic bidder's call (module docstring): double / redouble / best bid / pass.  ``flags``:
    the deal's rule options (declarations are counted when they score)."""
    hand = hand5
    classic = family == 1
    if classic and turned_card >= 0:
        hand |= np.int64(1) << turned_card  # the taker receives the turned card
    with_declarations = (flags & DECLARATIONS) != 0
    contract = state[A_CONTRACT]
    own_team = contract >= 0 and ((seat ^ state[A_DECLARER]) & 1) == 0
    if (legal >> DOUBLE) & 1:
        if contract_margin(hand, contract, with_declarations, weights) >= weights[BW_DOUBLE_MARGIN]:
            return DOUBLE
    if (legal >> REDOUBLE) & 1:
        if contract_margin(hand, contract, with_declarations, weights) >= weights[BW_REDOUBLE_MARGIN]:
            return REDOUBLE
    need = weights[BW_OVER_PARTNER] if own_team else 0.0
    best = PASS
    best_margin = 0.0
    for c in range(6):
        if (legal >> (c + 1)) & 1:
            margin = contract_margin(hand, c, with_declarations, weights)
            if margin >= need and (best == PASS or margin > best_margin):
                best = c + 1
                best_margin = margin
    return best
