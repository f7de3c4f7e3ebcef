"""Legal-move masks and trick winners on card masks (RULES.md §5); mirrors reference/play.py."""

from __future__ import annotations

from numba import njit

from .tables import AT, BEATS, NT, STRONGER, SUIT, TRUMPS


@njit(cache=True, inline="always")
def beats(card, winning, contract):
    """Does ``card`` beat ``winning``, the card currently winning the trick?"""
    return (BEATS[contract, winning] >> card) & 1 == 1


@njit(cache=True, inline="always")
def legal_mask(hand, led_suit, winning, partner_winning, contract, undertrump_required, at_overtake_partner):
    """Cards of ``hand`` that may be played.

    ``led_suit`` is -1 when leading (then ``winning`` and ``partner_winning`` are ignored);
    ``winning`` is the card winning the trick so far.
    """
    if led_suit < 0:
        return hand
    follow = hand & SUIT[led_suit]
    if contract == NT:
        return follow if follow else hand
    if contract == AT:
        if follow == 0:
            return hand
        if partner_winning and not at_overtake_partner:
            return follow
        higher = follow & STRONGER[AT, winning]
        return higher if higher else follow
    trumps = hand & SUIT[contract]
    if follow:
        if led_suit == contract:  # trump led: overtrump if you can, even over partner
            higher = follow & STRONGER[contract, winning]
            return higher if higher else follow
        return follow
    if partner_winning:
        return hand
    if (TRUMPS[contract] >> winning) & 1:  # an opponent trumped
        higher = trumps & STRONGER[contract, winning]
        if higher:
            return higher
        if undertrump_required and trumps:
            return trumps
        return hand
    return trumps if trumps else hand


@njit(cache=True)
def trick_winner(cards, contract):
    """Position (0 = lead) of the winning card among ``cards[0..len)``."""
    best = 0
    for pos in range(1, len(cards)):
        if beats(cards[pos], cards[best], contract):
            best = pos
    return best
