"""What a seat can infer about the cards it cannot see.

``normal`` has no card memory: it only knows its own hand and the trick on the table.
``hard`` remembers every card played and what each seat was shown not to hold
(see :mod:`.view`), and estimates who holds each unseen card: uniform over the seats that
may hold it, weighted by how many cards each still has (a good approximation of "uniform
over all consistent layouts").
"""

from __future__ import annotations

from numba import njit

from ..core.bits import ctz, popcount
from ..core.layouts import V_CONTRACT, V_EXCLUDED, V_LED, V_ON_TABLE, V_PLAYED, V_PLAYED_BY, V_POS
from ..core.tables import BEATS, SUIT, TRUMPS


@njit(cache=True, inline="always")
def unseen(hand, view, memory):
    """Cards that other seats may still hold, as far as this seat knows."""
    gone = view[V_PLAYED] if memory else view[V_ON_TABLE]  # no memory: only the trick on the table
    return 0xFFFFFFFF & ~hand & ~gone


@njit(cache=True, inline="always")
def cards_left(view, seat):
    return 8 - popcount(view[V_PLAYED_BY + seat])


@njit(cache=True)
def holding_probability(card, seat, me, view):
    """P(``seat`` holds ``card``) for an unseen card, seen from seat ``me``."""
    if (view[V_EXCLUDED + seat] >> card) & 1:
        return 0.0
    total = 0
    for s in range(4):
        if s != me and not ((view[V_EXCLUDED + s] >> card) & 1):
            total += cards_left(view, s)
    if total == 0:
        return 0.0
    return cards_left(view, seat) / total


@njit(cache=True)
def p_holds_any(cards, seat, me, view):
    """P(``seat`` holds at least one of ``cards``), treating cards as independent."""
    p_none = 1.0
    while cards:
        card = ctz(cards)
        cards &= cards - 1
        p_none *= 1.0 - holding_probability(card, seat, me, view)
    return 1.0 - p_none


@njit(cache=True)
def risk_of_being_beaten(card, me, hand, view, memory):
    """Chance that an opponent still to play in this trick beats ``card`` (as the winning card).

    Without memory: 1 when any card this seat cannot see beats it, else 0.
    With memory: per opponent after ``me``, P(beats by following) or P(void) × P(trumps).
    """
    contract = view[V_CONTRACT]
    out = unseen(hand, view, memory)
    threats = BEATS[contract, card] & out
    if threats == 0:
        return 0.0
    still_to_play = 3 - view[V_POS]  # seats after me in this trick
    if still_to_play == 0:
        return 0.0
    if not memory:
        return 1.0
    led = view[V_LED] if view[V_POS] > 0 else card >> 3
    p_safe = 1.0
    for k in range(1, still_to_play + 1):
        seat = (me + k) & 3
        if ((seat ^ me) & 1) == 0:
            continue  # partner
        follow_threats = threats & SUIT[led]
        p_follow_beat = p_holds_any(follow_threats, seat, me, view)
        p_void = 1.0 - p_holds_any(out & SUIT[led], seat, me, view)
        p_trump = p_holds_any(threats & TRUMPS[contract] & ~SUIT[led], seat, me, view)
        p_safe *= (1.0 - p_follow_beat) * (1.0 - p_void * p_trump)
    return 1.0 - p_safe
