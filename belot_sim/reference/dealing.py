"""Dealing a shuffled pack (docs/rules.md §3).

The pack is a permutation of the 32 card indices.  Hands are named by *order after the
dealer*: ``j = 0..3`` is seat ``(dealer + 1 + j) % 4`` (``j = 0`` speaks and leads first).

* First five cards: order ``j`` gets ``pack[5j : 5j + 5]``.
* Bulgarian, after a contract: order ``j`` gets ``pack[20 + 3j : 23 + 3j]``.
* Classic: ``pack[20]`` is the turned card.  After someone takes, ``pack[21:32]`` is dealt
  in order ``j = 0..3``: the taker gets the turned card and 2 cards, every other seat 3.

Every 5-card hand is therefore a uniformly random part of its 8-card hand, as required.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..game.cards import FULL_DECK, mask_of
from ..game.rules import is_integer


def check_pack(pack: Sequence[int]) -> list[int]:
    """``pack`` as a list of ints, checked: a permutation of the card indices 0..31 (integers only: a
    float would be truncated into another card)."""
    if isinstance(pack, (str, bytes, bytearray)) or not isinstance(pack, Iterable):
        raise TypeError(f"pack must be a sequence of the 32 card indices 0..31, got {type(pack).__name__}")
    pack = list(pack)
    bad = [c for c in pack if not is_integer(c)]
    if bad:
        raise TypeError(f"pack must hold card indices (integers 0..31), got {type(bad[0]).__name__} {bad[0]!r}")
    outside = [c for c in pack if not 0 <= c < 32]
    if outside:
        raise ValueError(f"pack must hold card indices 0..31, got {outside[0]}")
    pack = [int(c) for c in pack]
    if len(pack) != 32 or mask_of(pack) != FULL_DECK:
        raise ValueError("pack must be a permutation of the 32 card indices 0..31")
    return pack


def seat_of_order(dealer: int, order: int) -> int:
    return (dealer + 1 + order) % 4


def first_hands(pack: Sequence[int], dealer: int) -> list[int]:
    """The four 5-card hands (masks, indexed by seat) dealt before the auction."""
    hands = [0] * 4
    for j in range(4):
        hands[seat_of_order(dealer, j)] = mask_of(pack[5 * j:5 * j + 5])
    return hands


def turned_card(pack: Sequence[int]) -> int:
    """Classic: the card turned face up after the first five cards."""
    return pack[20]


def complete_hands(pack: Sequence[int], dealer: int, classic: bool = False, taker: int | None = None) -> list[int]:
    """The four 8-card hands after the auction (``taker`` is needed in classic)."""
    hands = first_hands(pack, dealer)
    if not classic:
        for j in range(4):
            hands[seat_of_order(dealer, j)] |= mask_of(pack[20 + 3 * j:23 + 3 * j])
        return hands
    if taker is None:
        raise ValueError("classic dealing needs the taker to complete the hands")
    hands[taker] |= 1 << turned_card(pack)
    position = 21
    for j in range(4):
        seat = seat_of_order(dealer, j)
        count = 2 if seat == taker else 3
        hands[seat] |= mask_of(pack[position:position + count])
        position += count
    return hands


def place_seats(dealer: int, classic: bool = False, taker: int | None = None) -> list[int | None]:
    """The seat each pack position goes to (``None``: a classic stock card while nobody has taken)."""
    seats: list[int | None] = [seat_of_order(dealer, i // 5) for i in range(20)]
    if not classic:
        return seats + [seat_of_order(dealer, i // 3) for i in range(12)]
    if taker is None:
        return seats + [None] * 12
    seats.append(taker)
    for j in range(4):
        seat = seat_of_order(dealer, j)
        seats += [seat] * (2 if seat == taker else 3)
    return seats
