"""Legal-move masks and trick winners on card masks (docs/rules.md §5); mirrors reference/play.py."""

from __future__ import annotations

from numba import njit

from .tables import AT, BEATS, RANK_Q, STRENGTH64, STRONGER, SUIT, TRUMPS


@njit(cache=True, inline="always")
def cards_between(a, b, contract):
    """The cards strictly between ``a`` and ``b``, two cards of one suit, in ``contract``'s order: when
    no other hand can play one of them, ``a`` and ``b`` are the same play (the solver's and ``pimc``'s
    equivalent cards, docs/solver.md)."""
    if STRENGTH64[contract, b] > STRENGTH64[contract, a]:
        return STRONGER[contract, a] & ~STRONGER[contract, b] & ~(1 << b)
    return STRONGER[contract, b] & ~STRONGER[contract, a] & ~(1 << a)


@njit(cache=True, inline="always")
def beats(card, winning, contract):
    """Does ``card`` beat ``winning``, the card currently winning the trick?"""
    return (BEATS[contract, winning] >> card) & 1 == 1


@njit(cache=True, inline="always")
def legal_mask(hand, led_suit, winning, partner_winning, contract, undertrump_required, at_overtake_partner):
    """Cards of ``hand`` that may be played.

    ``led_suit`` is -1 when leading (then ``winning`` and ``partner_winning`` are ignored);
    ``winning`` is the card winning the trick so far.

    Written as selections rather than nested branches (random play makes every branch a coin
    flip for the CPU).  ``BEATS[contract, winning]`` holds the cards that beat the winning
    card, so "cards of X that beat W" is one AND for every contract:

    * following suit: any card of the led suit, but a beating one when one is required — trump
      led in a suit contract, or AT (unless partner wins and ``at_overtake_partner`` is off);
    * void, partner winning: any card;
    * void, opponent winning: a trump that beats (any trump over a plain card); failing that,
      with ``undertrump="required"`` and an opponent's trump winning, any trump; else any card.
      (NT has no trumps; in AT no card of another suit beats, so both end at "any card".)
    """
    if led_suit < 0:
        return hand
    follow = hand & SUIT[led_suit]
    beat = BEATS[contract, winning]
    if contract == AT:
        must_beat = at_overtake_partner or not partner_winning
    else:
        must_beat = contract == led_suit  # trump led in a suit contract (never in NT: led_suit < 4)
    follow_beating = follow & beat
    on_follow = follow_beating if (must_beat and follow_beating != 0) else follow
    trumps = hand & TRUMPS[contract]
    trump_beating = trumps & beat
    opponent_trumped = (TRUMPS[contract] >> winning) & 1 == 1
    under = trumps if (undertrump_required and opponent_trumped and trumps != 0) else hand
    on_void = hand if partner_winning else (trump_beating if trump_beating != 0 else under)
    return on_follow if follow != 0 else on_void


@njit(cache=True, inline="always")
def after_card(pos, card, seat, led_suit, winning, winner, contract):
    """``(led_suit, winning card, winning seat)`` of a trick after ``seat`` plays ``card`` at
    position ``pos`` (0 = the lead, when the incoming values are ignored)."""
    if pos == 0:
        return card >> 3, card, seat
    if beats(card, winning, contract):
        return led_suit, card, seat
    return led_suit, winning, winner


@njit(cache=True)
def trick_winner(cards, contract):
    """Position (0 = lead) of the winning card among ``cards[0..len)``."""
    best = 0
    for pos in range(1, len(cards)):
        if beats(cards[pos], cards[best], contract):
            best = pos
    return best


@njit(cache=True, inline="always")
def belot_cards(hand, contract):
    """Mask of the K and Q of every trump suit whose K and Q are both in ``hand``."""
    cards = 0
    for s in range(4):
        if contract == AT or contract == s:
            pair = 3 << (8 * s + RANK_Q)  # the Q and the K above it
            if hand & pair == pair:
                cards |= pair
    return cards
