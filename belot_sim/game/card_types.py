"""Cards as values that print as names: :class:`Card`, one card, and :class:`Cards`, a set of cards.

Both are ``int`` subclasses (python-chess's ``SquareSet`` is the model): a ``Card`` *is* its index
0..31 and a ``Cards`` *is* its 32-bit mask, so agents, numpy indexing, ``1 << card``, ``mask & other``
and every comparison with plain ints keep working (``np.array`` of them is ``int64``), while ``str``
and ``repr`` show names.  They cost nothing in the kernels, which never see them: the reference
states, :class:`belot_sim.Bot` and the solver wrap their results on the way out.

>>> card = Card("JH")
>>> card, card == 20, 1 << card == 1 << 20, card.suit, card.rank
(JH, True, True, 'H', 'J')
>>> hand = Cards("JH 9H 10S")
>>> hand, str(hand), len(hand), "9H" in hand, list(hand)
(Cards('TS 9H JH'), 'TS 9H JH', 3, True, [9H, JH, TS])
>>> hand | Cards("7C"), hand == 0x08140000
(Cards('TS 9H JH 7C'), True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .cards import NUM_CARDS, RANKS, SUITS, format_card, iter_cards, parse_card, popcount, to_mask


class Card(int):
    """One card: equal to its index 0..31 (``suit * 8 + rank``, docs/rules.md §1), shown as its name
    (``JH``).  ``Card(20)``, ``Card("JH")``, ``Card("J♥")`` and ``Card("10h")`` all make one; a bad
    index or text is a ``ValueError``/``TypeError`` naming it."""

    __slots__ = ()

    def __new__(cls, card: int | str) -> Card:
        if isinstance(card, Card):
            return card
        if isinstance(card, str):
            return _CARDS[parse_card(card)]
        format_card(card)  # the same checks and messages as everywhere: an integer 0..31
        return _CARDS[int(card)]

    def __str__(self) -> str:
        return RANKS[self & 7] + SUITS[self >> 3]

    __repr__ = __str__  # a list or dict of cards reads as names: [7C, 8C], {JH: 64}

    def __format__(self, spec: str) -> str:
        # "{:>3}" pads the name; a numeric spec ("{:d}") formats the index
        return format(str(self), spec) if not spec or spec[-1] not in "bcdoxXn" else format(int(self), spec)

    @property
    def suit(self) -> str:
        """The suit's letter: ``C``, ``D``, ``H`` or ``S``."""
        return SUITS[self >> 3]

    @property
    def rank(self) -> str:
        """The rank's letter: ``7 8 9 T J Q K A``."""
        return RANKS[self & 7]


#: The 32 cards, made once: ``card_value(i)`` hands out these objects instead of new ones.
_CARDS = tuple(int.__new__(Card, index) for index in range(NUM_CARDS))


def card_value(index: int) -> Card:
    """The :class:`Card` of an index already known to be valid (no checks: the engine's own results)."""
    return _CARDS[index]


def card_values(mask: int) -> list[Card]:
    """The cards of a valid mask in increasing index order, as :class:`Card` values."""
    return [_CARDS[c] for c in iter_cards(mask)]


class Cards(int):
    """A set of cards: equal to its 32-bit mask, shown as the cards' names (``TS 9H JH``, the order of
    :func:`belot_sim.format_cards`).  Made from a mask, a card text (``"JH 9H"``) or an iterable of
    cards; iterates over its cards as :class:`Card` values in increasing index order; ``len`` counts
    them, ``in`` takes a card index or text; ``|``, ``&`` and ``^`` of two sets are a set (other
    arithmetic is the int's)."""

    __slots__ = ()

    def __new__(cls, cards: int | str | Iterable = 0) -> Cards:
        return int.__new__(cls, to_mask(cards))

    def __str__(self) -> str:
        return " ".join(str(_CARDS[c]) for s in (3, 2, 1, 0) for c in iter_cards(self & (0xFF << 8 * s)))

    def __repr__(self) -> str:
        return f"Cards({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec) if not spec or spec[-1] not in "bcdoxXn" else format(int(self), spec)

    def __iter__(self) -> Iterator[Card]:
        return iter(card_values(self))

    def __len__(self) -> int:
        return popcount(self)

    def __contains__(self, card) -> bool:
        index = parse_card(card) if isinstance(card, str) else int(Card(card))
        return bool(self >> index & 1)

    def __or__(self, other):
        return Cards(int(self) | other) if isinstance(other, int) else NotImplemented

    def __and__(self, other):
        return Cards(int(self) & other) if isinstance(other, int) else NotImplemented

    def __xor__(self, other):
        return Cards(int(self) ^ other) if isinstance(other, int) else NotImplemented

    __ror__, __rand__, __rxor__ = __or__, __and__, __xor__
