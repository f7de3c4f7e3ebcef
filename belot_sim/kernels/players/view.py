"""The public view of a deal: what every seat may know, kept in one small int64 array.

The play loop updates it after each card; players read it together with their own hand.
Nothing here holds another seat's hidden cards, so a player cannot peek:

* cards played so far (all, and per seat), the trick in progress and who is winning it;
* the dealer, the contract, its declarer and multiplier, and the rule options;
* ``V_WON + t``: the cards of the completed tricks team ``t`` won;
* ``V_EXCLUDED + s``: cards seat ``s`` is known *not* to hold, inferred from the rules of play
  (did not follow → void in the led suit; did not trump or overtrump when obliged → no such
  trumps; followed without beating when obliged → no beating card of the suit);
* ``V_KNOWN + s``: cards seat ``s`` is known to hold (or held: played cards stay in the mask) —
  the classic turned card in the declarer's hand, the declarations shown after the first trick and
  the partner card of an announced belot.  The play loop fills these (:func:`show_turned`,
  :func:`announce_belot`, :func:`show_declarations`) only when a sampling player (``pimc``) needs
  them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.declarations import shown_cards
from ..core.layouts import (V_AT_OVERTAKE_PARTNER, V_CONTRACT, V_DEALER, V_DECLARER, V_EXCLUDED, V_KNOWN, V_LEADER,
                            V_LED, V_MULTIPLIER, V_ON_TABLE, V_PLAYED, V_PLAYED_BY, V_POINTS_WON, V_POS, V_SIZE,
                            V_TABLE_POINTS, V_TRICK, V_TRICK_CARD, V_TRICKS_WON, V_TURNED, V_UNDERTRUMP_REQUIRED,
                            V_WINNER, V_WINNING, V_WON)
from ..core.play import after_card
from ..core.rule_flags import SHOWN_AT_END, SINGLE_CONTEST
from ..core.tables import AT, BEATS, RANK_Q, SUIT, TRUMPS


def new_view() -> np.ndarray:
    return np.zeros(V_SIZE, dtype=np.int64)


@njit(cache=True)
def start_view(view, contract, declarer, multiplier, leader, undertrump_required, at_overtake_partner):
    """Reset ``view`` for a new deal whose first trick is led by ``leader`` (the seat after the dealer)."""
    for i in range(V_SIZE):
        view[i] = 0
    view[V_CONTRACT] = contract
    view[V_DECLARER] = declarer
    view[V_MULTIPLIER] = multiplier
    view[V_DEALER] = (leader - 1) & 3
    view[V_TURNED] = -1
    view[V_LEADER] = leader
    view[V_WINNER] = leader
    view[V_LED] = -1
    view[V_UNDERTRUMP_REQUIRED] = 1 if undertrump_required else 0
    view[V_AT_OVERTAKE_PARTNER] = 1 if at_overtake_partner else 0


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
    pos = view[V_POS]
    partner_winning = pos > 0 and ((view[V_WINNER] ^ seat) & 1) == 0
    view[V_EXCLUDED + seat] |= inferred_exclusions(card, view[V_LED] if pos > 0 else -1, view[V_WINNING],
                                                 partner_winning, view[V_CONTRACT], view[V_UNDERTRUMP_REQUIRED] == 1,
                                                 view[V_AT_OVERTAKE_PARTNER] == 1)
    view[V_PLAYED] |= 1 << card
    view[V_ON_TABLE] |= 1 << card
    view[V_TRICK_CARD + pos] = card
    view[V_PLAYED_BY + seat] |= 1 << card
    view[V_TABLE_POINTS] += points
    view[V_LED], view[V_WINNING], view[V_WINNER] = after_card(pos, card, seat, view[V_LED], view[V_WINNING],
                                                              view[V_WINNER], view[V_CONTRACT])
    view[V_POS] = pos + 1
    return pos == 3


@njit(cache=True, inline="always")
def next_trick(view):
    """Start the next trick, led by the winner of the one just completed."""
    view[V_LEADER] = view[V_WINNER]
    view[V_TRICKS_WON + (view[V_WINNER] & 1)] += 1
    view[V_POINTS_WON + (view[V_WINNER] & 1)] += view[V_TABLE_POINTS]
    view[V_WON + (view[V_WINNER] & 1)] |= view[V_ON_TABLE]
    view[V_TRICK] += 1
    view[V_POS] = 0
    view[V_LED] = -1
    view[V_TABLE_POINTS] = 0
    view[V_ON_TABLE] = 0


@njit(cache=True, inline="always")
def show_turned(view, turned_card):
    """Classic: the turned card lay face up and went to the declarer (the taker) after the auction;
    ``turned_card`` -1: there is none (bulgarian, a deal without an auction)."""
    if turned_card >= 0:
        view[V_KNOWN + view[V_DECLARER]] |= np.int64(1) << turned_card
        view[V_TURNED] = turned_card


@njit(cache=True, inline="always")
def announce_belot(view, seat, suit):
    """``seat`` announced a belot with the first of its K/Q of ``suit``: the other card is in its hand."""
    view[V_KNOWN + seat] |= np.int64(3) << (8 * suit + RANK_Q)  # its Q and K


@njit(cache=True)
def show_declarations(view, h0, h1, h2, h3, contract, family, flags):
    """The declarations the scoring team announced (dealt hands ``h0..h3``), shown at the end of the
    first trick — unless the rules show them at the end of the deal (``declarations_shown="end"``)."""
    if flags & SHOWN_AT_END:
        return
    initial = np.empty(4, dtype=np.int64)
    initial[0], initial[1], initial[2], initial[3] = h0, h1, h2, h3
    shown = np.empty(4, dtype=np.int64)
    shown_cards(initial, contract, family == 1, (flags & SINGLE_CONTEST) != 0, shown)
    for s in range(4):
        view[V_KNOWN + s] |= shown[s]
