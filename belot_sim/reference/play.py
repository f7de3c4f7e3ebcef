"""Legal cards and trick winners (docs/rules.md §5), written for reading, not for speed."""

from __future__ import annotations

from collections.abc import Sequence

from ..game.cards import SUIT_MASKS, card_suit, iter_cards
from ..game.rules import STRENGTH, TRUMP_MASKS, Contract, Rules


def is_trump(card: int, contract: Contract | str) -> bool:
    return bool(int(TRUMP_MASKS[Contract.coerce(contract)]) >> card & 1)


def beats(card: int, winning: int, contract: Contract | str) -> bool:
    """Does ``card`` beat the card ``winning`` the trick so far?

    A trump beats any non-trump; otherwise only a stronger card of the same suit wins
    (in AT every suit is "trump", so only the led suit can win; in NT nothing is trump).
    """
    contract = Contract.coerce(contract)
    if is_trump(card, contract) and not is_trump(winning, contract):
        return True
    return card_suit(card) == card_suit(winning) and STRENGTH[contract, card] > STRENGTH[contract, winning]


def trick_winner(cards: Sequence[int], contract: Contract | str) -> int:
    """Position (0 = the lead) of the card winning the (possibly unfinished) trick."""
    contract = Contract.coerce(contract)
    best = 0
    for pos in range(1, len(cards)):
        if beats(cards[pos], cards[best], contract):
            best = pos
    return best


def _stronger_than(hand: int, winning: int, contract: Contract) -> int:
    """Cards of ``hand`` that beat ``winning``."""
    mask = 0
    for card in iter_cards(hand):
        if beats(card, winning, contract):
            mask |= 1 << card
    return mask


def legal_cards(hand: int, trick: Sequence[tuple[int, int]], seat: int, contract: Contract | str,
                rules: Rules | str) -> int:
    """Mask of the cards ``seat`` may play from ``hand`` onto ``trick`` ((seat, card) pairs)."""
    contract, rules = Contract.coerce(contract), Rules.coerce(rules)
    if not trick:
        return hand
    led_suit = card_suit(trick[0][1])
    cards = [card for _, card in trick]
    winning_seat, winning_card = trick[trick_winner(cards, contract)]
    partner_winning = winning_seat % 2 == seat % 2
    follow = hand & SUIT_MASKS[led_suit]

    if contract == Contract.NO_TRUMPS:
        return follow or hand

    if contract == Contract.ALL_TRUMPS:
        if not follow:
            return hand
        if partner_winning and not rules.at_overtake_partner:
            return follow
        return _stronger_than(follow, winning_card, contract) or follow

    trumps = hand & SUIT_MASKS[contract]
    if follow:
        if led_suit == contract:  # trump led: overtrump if you can, even over partner
            return _stronger_than(follow, winning_card, contract) or follow
        return follow
    if partner_winning:
        return hand
    if is_trump(winning_card, contract):  # an opponent trumped
        higher = _stronger_than(trumps, winning_card, contract)
        if higher:
            return higher
        if rules.undertrump == "required" and trumps:
            return trumps
        return hand
    return trumps or hand
