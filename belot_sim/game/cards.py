"""Card encoding, parsing and formatting, and small helpers on card masks.

A card's index is ``suit * 8 + rank`` (docs/rules.md §1): suits C, D, H, S are 0..3 and
ranks 7, 8, 9, T, J, Q, K, A are 0..7 in *sequence order*, so consecutive ranks of a suit
are adjacent bits of a mask.  A set of cards is a ``uint32`` mask (a plain Python ``int``
outside the kernels) with bit ``index`` set.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # format_cards takes a Series without this module importing pandas
    import pandas as pd

NUM_CARDS = 32
SUITS = "CDHS"
RANKS = "789TJQKA"
FULL_DECK = (1 << NUM_CARDS) - 1

#: Bits of each suit: ``SUIT_MASKS[s]`` covers cards ``8s .. 8s+7``.
SUIT_MASKS = tuple(0xFF << (8 * s) for s in range(4))
SUIT_MASKS_ARRAY = np.array(SUIT_MASKS, dtype=np.uint32)

#: The suit symbols by suit index (C D H S), and the symbols read as suits.
SUIT_SYMBOLS = "♣♦♥♠"
_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}


def card_index(suit: int, rank: int) -> int:
    """Index of the card of ``suit`` (0..3) and sequence-order ``rank`` (0..7)."""
    return suit * 8 + rank


def card_suit(card: int) -> int:
    return card >> 3


def card_rank(card: int) -> int:
    return card & 7


def card_bit(card: int) -> int:
    return 1 << card


def parse_card(text: str) -> int:
    """Parse one card such as ``"JH"``, ``"10h"``, ``"TH"`` or ``"J♥"`` into its index.

    Ranks and suits are ASCII letters and digits in either case, or the suit symbols: no other
    character stands for one (``"ſ".upper()`` is ``"S"``, yet ``"Kſ"`` is no card).

    Parameters
    ----------
    text : str
        The card: a rank (``7 8 9 T J Q K A``, or ``10`` for ``T``) then a suit (``C D H S``, or
        one of ``♣ ♦ ♥ ♠ ♧ ♢ ♡ ♤``); surrounding whitespace is ignored.

    Returns
    -------
    int
        The card's index ``suit * 8 + rank``, 0..31.

    Raises
    ------
    TypeError
        If ``text`` is not a ``str``.
    ValueError
        If ``text`` is not a card.
    """
    if not isinstance(text, str):
        raise TypeError(f"a card must be given as text such as 'JH', got {text!r}")
    token = text.strip()
    for symbol, letter in _SUIT_SYMBOLS.items():
        token = token.replace(symbol, letter)
    if not token.isascii():
        raise ValueError(f"unknown card {text!r}: expected a rank (7 8 9 T J Q K A) then a suit (C D H S or "
                         f"♣ ♦ ♥ ♠), in ASCII letters")
    token = token.upper()
    if len(token) < 2:
        raise ValueError(f"unknown card {text!r}: expected a rank (7 8 9 T J Q K A) then a suit (C D H S)")
    rank_text, suit_text = token[:-1], token[-1]
    if rank_text == "10":
        rank_text = "T"
    if suit_text not in SUITS:
        raise ValueError(f"unknown card {text!r}: suit must be one of C D H S (or ♣ ♦ ♥ ♠)")
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise ValueError(f"unknown card {text!r}: rank must be one of 7 8 9 10/T J Q K A")
    return card_index(SUITS.index(suit_text), RANKS.index(rank_text))


def parse_cards(text: str | Iterable[str]) -> int:
    """Parse cards separated by spaces and/or commas (or an iterable of card texts) into a mask.

    Parameters
    ----------
    text : str or iterable of str
        The cards: one text separated by spaces and/or commas, or an iterable of card texts, each
        read by :func:`parse_card`.  An empty text or iterable gives the empty mask ``0``.

    Returns
    -------
    int
        The mask with bit ``index`` set for each card.

    Raises
    ------
    TypeError
        If ``text`` is neither a ``str`` nor an iterable, or one of its items is not a ``str``.
    ValueError
        On unknown cards or a card given twice.

    Examples
    --------
    >>> format_cards(parse_cards("JH, 9h 10S"))
    'TS 9H JH'
    """
    if isinstance(text, str):
        tokens = text.replace(",", " ").split()
    else:
        try:
            tokens = list(text)
        except TypeError:
            raise TypeError(f"cards must be a text such as 'JH 9H' or a list of card texts, got "
                            f"{type(text).__name__} {text!r}") from None
    mask = 0
    for token in tokens:
        card = parse_card(token)
        if mask >> card & 1:
            raise ValueError(f"duplicate card {format_card(card)} in {text!r}")
        mask |= 1 << card
    return mask


def format_card(card: int) -> str:
    """Format one card index as its text, e.g. ``20`` → ``"JH"``.

    Parameters
    ----------
    card : int
        The card index 0..31 (a Python or numpy integer, not a ``bool``).

    Returns
    -------
    str
        Its rank then its suit in ASCII letters, e.g. ``"TS"``.

    Raises
    ------
    TypeError
        If ``card`` is not an integer.
    ValueError
        If ``card`` is not in 0..31.
    """
    if isinstance(card, (bool, np.bool_)) or not isinstance(card, (int, np.integer)):
        raise TypeError(f"card index must be an integer 0..31, got {type(card).__name__} {card!r}")
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"card index must be an integer 0..31, got {card!r}")
    return RANKS[card & 7] + SUITS[card >> 3]


def format_cards(mask: int | np.ndarray | pd.Series) -> str | np.ndarray | pd.Series:
    """Format a card mask as text: suits from spades down to clubs, ranks upwards within a suit.

    This is the order of the example in the README (``"JH 9H TS"`` → ``"TS 9H JH"``).  The cards are
    separated by single spaces; the empty mask gives ``""``.

    Parameters
    ----------
    mask : int, numpy.ndarray or pandas.Series
        One 32-bit card mask, or a numpy array or a pandas Series of integer masks (a ``hand0``
        column).

    Returns
    -------
    str, numpy.ndarray or pandas.Series
        The text of one mask; for an array, the texts as an array of ``str`` objects of the same
        shape; for a Series, a Series of text with the same index and name.

    Raises
    ------
    TypeError
        If a mask is not an integer (a ``bool`` is refused), or an array is not of an integer dtype.
    ValueError
        If a mask is outside ``0 .. 2**32 - 1``.

    Examples
    --------
    >>> format_cards(np.array([0x08140000, 0], dtype=np.uint32)).tolist()
    ['TS 9H JH', '']
    """
    if isinstance(mask, np.ndarray):
        return _format_masks(mask)
    pandas = sys.modules.get("pandas")  # a Series comes from a pandas already imported: none is imported here
    if pandas is not None and isinstance(mask, pandas.Series):
        return type(mask)(_format_masks(mask.to_numpy()), index=mask.index, name=mask.name)
    mask = validate_mask(mask)
    return " ".join(format_card(c) for s in (3, 2, 1, 0) for c in iter_cards(mask & SUIT_MASKS[s]))


#: Per suit (spades first), the text of each of its 256 byte values, with a space after each card.
_SUIT_TEXTS = tuple(np.array([" ".join(format_card(8 * s + r) for r in range(8) if b >> r & 1) + " " * (b > 0)
                              for b in range(256)], dtype=object) for s in (3, 2, 1, 0))


def _format_masks(masks: np.ndarray) -> np.ndarray:
    """:func:`format_cards` of every mask of an array, by table look-ups per suit."""
    if masks.dtype.kind not in "iu":
        raise TypeError(f"card masks must be integers, got an array of {masks.dtype}")
    values = masks.astype(np.int64)
    if values.size and (values.min() < 0 or values.max() > FULL_DECK):
        bad = values[(values < 0) | (values > FULL_DECK)][0]
        raise ValueError(f"card mask {int(bad):#x} is not a 32-bit card mask")
    text = sum((table[(values >> 8 * (3 - k)) & 0xFF] for k, table in enumerate(_SUIT_TEXTS)),
               np.full(values.shape, "", dtype=object))
    return np.array([t[:-1] for t in text.ravel()], dtype=object).reshape(values.shape)


def validate_mask(mask: int, what: str = "card mask") -> int:
    if isinstance(mask, bool) or not isinstance(mask, (int, np.integer)):
        raise TypeError(f"{what} must be an integer bit mask, got {type(mask).__name__}")
    mask = int(mask)
    if not 0 <= mask <= FULL_DECK:
        raise ValueError(f"{what} {mask:#x} is not a 32-bit card mask")
    return mask


def to_mask(cards: int | str | Iterable, what: str = "cards") -> int:
    """Accept a mask, a card text such as ``"JH 9H"``, or an iterable of card indices/texts."""
    if isinstance(cards, (int, np.integer)) and not isinstance(cards, bool):
        return validate_mask(cards, what)
    if isinstance(cards, str):
        return parse_cards(cards)
    if isinstance(cards, Iterable) and not isinstance(cards, (bytes, bytearray)):  # bytes iterate as ints
        mask = 0
        for item in cards:
            card = parse_card(item) if isinstance(item, str) else item
            if isinstance(card, bool) or not isinstance(card, (int, np.integer)) or not 0 <= card < NUM_CARDS:
                raise ValueError(f"{what}: {item!r} is not a card")
            if mask >> int(card) & 1:
                raise ValueError(f"{what}: duplicate card {format_card(int(card))}")
            mask |= 1 << int(card)
        return mask
    raise TypeError(f"{what} must be a mask, a card string or an iterable of cards, got {type(cards).__name__}")


def popcount(mask: int) -> int:
    return int(mask).bit_count()


def lowest_card(mask: int) -> int:
    """Index of the lowest set bit; ``mask`` must not be empty."""
    if mask == 0:
        raise ValueError("lowest_card of an empty mask")
    return (mask & -mask).bit_length() - 1


def iter_cards(mask: int) -> Iterator[int]:
    """Card indices of ``mask`` in increasing order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> list[int]:
    return list(iter_cards(mask))


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def suit_mask(suit: int) -> int:
    return SUIT_MASKS[suit]
