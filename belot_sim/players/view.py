"""The public view of a deal: what every seat may know, kept in one small int64 array.

The play loop updates it after each card; policies read it together with their own hand.
Nothing here holds another seat's hidden cards, so a policy cannot peek:

* cards played so far (all, and per seat), the trick in progress and who is winning it;
* the contract, the declarer and the rule options;
* ``EXCLUDED + s``: cards seat ``s`` is known *not* to hold, inferred from the rules of play
  (did not follow → void in the led suit; did not trump or overtrump when obliged → no such
  trumps; followed without beating when obliged → no beating card of the suit);
* ``KNOWN + s``: cards seat ``s`` is known to hold (or held: played cards stay in the mask) —
  the declarations shown after the first trick and the partner card of an announced belot.
  The play loop fills these only when a sampling player (``pimc``) needs them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.play import after_card
from ..kernels.tables import AT, BEATS, SUIT, TRUMPS

PLAYED = 0  # mask of every card played so far (current trick included)
TRICK = 1  # trick number 0..7
POS = 2  # cards already in the current trick (0 = leading)
LED = 3  # suit led, -1 when leading
WINNING = 4  # card winning the current trick
WINNER = 5  # seat winning the current trick
TABLE_POINTS = 6  # card points already in the current trick
CONTRACT = 7
DECLARER = 8
LEADER = 9  # seat that led the current trick
UNDERTRUMP_REQUIRED = 10
AT_OVERTAKE_PARTNER = 11
PLAYED_BY = 12  # 12..15: cards each seat has played
EXCLUDED = 16  # 16..19: cards each seat cannot hold
ON_TABLE = 20  # mask of the cards of the trick in progress
KNOWN = 21  # 21..24: cards each seat is known to hold (shown declarations, announced belot partners)
TRICK_CARD = 25  # 25..28: the cards of the trick in progress, in the order played
TRICKS_WON = 29  # 29..30: completed tricks won by each team
POINTS_WON = 31  # 31..32: card points (the points argument of record_card) of the tricks each team won
SIZE = 33


def new_view() -> np.ndarray:
    return np.zeros(SIZE, dtype=np.int64)


@njit(cache=True)
def start_view(view, contract, declarer, leader, undertrump_required, at_overtake_partner):
    """Reset ``view`` for a new deal whose first trick is led by ``leader``."""
    for i in range(SIZE):
        view[i] = 0
    view[CONTRACT] = contract
    view[DECLARER] = declarer
    view[LEADER] = leader
    view[WINNER] = leader
    view[LED] = -1
    view[UNDERTRUMP_REQUIRED] = 1 if undertrump_required else 0
    view[AT_OVERTAKE_PARTNER] = 1 if at_overtake_partner else 0


@njit(cache=True, inline="always")
def inferred_exclusions(card, led_suit, winning, partner_winning, contract, undertrump_required,
                        at_overtake_partner):
    """Cards the player of ``card`` cannot hold, given that ``card`` was legal.

    Mirrors ``legal_mask``: whenever a rule would have forced a card from a set S and the
    card played is not in S, the player holds nothing of S.
    """
    if led_suit < 0:
        return 0
    follow = SUIT[led_suit]
    beat = BEATS[contract, winning]
    bit = 1 << card
    if follow & bit:
        if contract == AT:
            must_beat = at_overtake_partner or not partner_winning
        else:
            must_beat = contract == led_suit
        if must_beat and not (beat & bit):
            return follow & beat
        return 0
    excluded = follow
    if not partner_winning:
        trump_beating = TRUMPS[contract] & beat
        if not (trump_beating & bit):
            excluded |= trump_beating
            opponent_trumped = (TRUMPS[contract] >> winning) & 1 == 1
            if undertrump_required and opponent_trumped and not ((TRUMPS[contract] >> card) & 1):
                excluded |= TRUMPS[contract]
    return excluded


@njit(cache=True, inline="always")
def record_card(view, seat, card, points):
    """Update ``view`` after ``seat`` played ``card`` (worth ``points``); returns True when the
    trick is complete (then the caller reads the winner and calls :func:`next_trick`)."""
    pos = view[POS]
    partner_winning = pos > 0 and ((view[WINNER] ^ seat) & 1) == 0
    view[EXCLUDED + seat] |= inferred_exclusions(card, view[LED] if pos > 0 else -1, view[WINNING],
                                                 partner_winning, view[CONTRACT], view[UNDERTRUMP_REQUIRED] == 1,
                                                 view[AT_OVERTAKE_PARTNER] == 1)
    view[PLAYED] |= 1 << card
    view[ON_TABLE] |= 1 << card
    view[TRICK_CARD + pos] = card
    view[PLAYED_BY + seat] |= 1 << card
    view[TABLE_POINTS] += points
    view[LED], view[WINNING], view[WINNER] = after_card(pos, card, seat, view[LED], view[WINNING], view[WINNER],
                                                        view[CONTRACT])
    view[POS] = pos + 1
    return pos == 3


@njit(cache=True, inline="always")
def next_trick(view):
    """Start the next trick, led by the winner of the one just completed."""
    view[LEADER] = view[WINNER]
    view[TRICKS_WON + (view[WINNER] & 1)] += 1
    view[POINTS_WON + (view[WINNER] & 1)] += view[TABLE_POINTS]
    view[TRICK] += 1
    view[POS] = 0
    view[LED] = -1
    view[TABLE_POINTS] = 0
    view[ON_TABLE] = 0
