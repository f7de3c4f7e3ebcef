"""Precomputed tables the kernels read, derived from :mod:`belot_sim.game.rules`.

All are ``int64``/``int16`` numpy arrays indexed by contract (0..5) and card (0..31).
"""

from __future__ import annotations

import numpy as np

from ...game.cards import SUIT_MASKS
from ...game.rules import (BELOT_POINTS, LAST_TRICK_BONUS, POINTS_BULGARIAN, POINTS_CLASSIC, STRENGTH, TRUMP_MASKS,
                           VALAT_BONUS)

NT, AT = 4, 5
FAMILY_BULGARIAN, FAMILY_CLASSIC = 0, 1

#: Ranks in sequence order (the bit of a card within its suit's byte, docs/rules.md §1).
RANK_7, RANK_8, RANK_9, RANK_T, RANK_J, RANK_Q, RANK_K, RANK_A = range(8)
#: "No card" in an 8-bit card field (a table entry's best card, a player's empty choice).
NO_CARD = 0xFF
#: The queens of the four suits (the low card of each K-Q belot pair: ``pair = 3 << (8 * s + RANK_Q)``).
QUEENS = 0x20202020
#: The points the kernels add: a belot, the last trick (before NT doubling), a valat.
BELOT = BELOT_POINTS
LAST_TRICK = LAST_TRICK_BONUS
VALAT = VALAT_BONUS

SUIT = np.array(SUIT_MASKS, dtype=np.int64)
TRUMPS = TRUMP_MASKS.astype(np.int64)

#: ``STRENGTH64[contract, card]``: :data:`belot_sim.game.rules.STRENGTH` as int64 (no mixed-type arithmetic).
STRENGTH64 = STRENGTH.astype(np.int64)

#: ``STRONGER[contract, card]``: cards of the same suit that beat ``card``.
STRONGER = np.zeros((6, 32), dtype=np.int64)
#: ``BEATS[contract, card]``: every card that beats ``card`` when it is winning a trick
#: (stronger cards of its suit, plus all trumps when it is not a trump).
BEATS = np.zeros((6, 32), dtype=np.int64)
for _k in range(6):
    for _c in range(32):
        _suit = _c >> 3
        _stronger = 0
        for _x in range(8 * _suit, 8 * _suit + 8):
            if STRENGTH[_k, _x] > STRENGTH[_k, _c]:
                _stronger |= 1 << _x
        STRONGER[_k, _c] = _stronger
        _is_trump = (int(TRUMPS[_k]) >> _c) & 1
        BEATS[_k, _c] = _stronger | (0 if _is_trump else int(TRUMPS[_k]) & ~int(SUIT[_suit]))

#: ``POINTS[family, contract, card]``: card points (classic AT/NT use the classic tables).
POINTS = np.stack([POINTS_BULGARIAN, POINTS_CLASSIC]).astype(np.int64)
#: ``TRICK_MULT[family, contract]``: trick points count double in bulgarian NT (docs/rules.md §7).
TRICK_MULT = np.ones((2, 6), dtype=np.int64)
TRICK_MULT[0, NT] = 2
#: ``DEAL_POINTS[family, contract]``: all the trick points of a deal, the last trick's 10 included
#: and doubled with the rest in bulgarian NT (162, 260 and 258 in bulgarian H, NT and AT).
DEAL_POINTS = (POINTS.sum(axis=2) + LAST_TRICK) * TRICK_MULT
#: The trick points of every classic deal (a capot adds :data:`VALAT`: 252).
CLASSIC_TOTAL = int(DEAL_POINTS[FAMILY_CLASSIC, 0])

#: Carré masks by rank and their points (four 7s / 8s score nothing).
CARRE_MASK = np.array([0x01010101 << r for r in range(8)], dtype=np.int64)
CARRE_POINTS = np.array([0, 0, 150, 100, 200, 100, 100, 100], dtype=np.int64)
#: Carré comparison strength: J > 9 > A > T > K > Q (the trump order).
CARRE_STRENGTH = np.array([0, 1, 6, 4, 7, 2, 3, 5], dtype=np.int64)
SEQUENCE_POINTS = np.array([0, 0, 0, 20, 50, 100, 100, 100, 100], dtype=np.int64)



#: Bulgarian single contest (``declaration_contest="single"``, docs/rules.md §6): declarations compare by
#: points, then kind (tierce < quarte < quint < carré), then the top card: a carré's rank in the order
#: Q < K < 10 < A (J and 9 are decided by points), a sequence's top rank in 7 .. A order.
SINGLE_KIND_CARRE = 3
SINGLE_CARRE_RANK = np.array([0, 0, 0, 2, 0, 0, 1, 3], dtype=np.int64)  # 7 8 9 T J Q K A


def _single_key(points: int, kind: int, rank: int) -> int:
    return (points * 4 + kind) * 8 + rank


def _sequence_kind(length: int) -> int:
    """0 tierce, 1 quarte, 2 quint (5 to 8 cards)."""
    return min(length, 5) - 3


def _classic_key(points: int, is_carre: int, length: int, rank: int) -> int:
    """Classic declaration order without the trump bit: points, carré over sequence, longer,
    higher rank (carré: J 9 A T K Q; sequence: top card).  The kernels append the trump bit."""
    return ((points * 2 + is_carre) * 16 + length) * 8 + rank


def _run_tables():
    """Per 8-bit rank pattern of one suit: sequence points, bulgarian best key, classic best key,
    single-contest best key, and the ranks that are part of a sequence."""
    points = np.zeros(256, dtype=np.int64)
    key = np.full(256, -1, dtype=np.int64)
    classic = np.full(256, -1, dtype=np.int64)
    single = np.full(256, -1, dtype=np.int64)
    cards = np.zeros(256, dtype=np.int64)
    for pattern in range(256):
        rank = 0
        while rank < 8:
            if not pattern >> rank & 1:
                rank += 1
                continue
            length = 0
            while rank + length < 8 and pattern >> (rank + length) & 1:
                length += 1
            if length >= 3:
                top = rank + length - 1
                points[pattern] += SEQUENCE_POINTS[length]
                key[pattern] = max(key[pattern], length * 8 + top)
                classic[pattern] = max(classic[pattern], _classic_key(int(SEQUENCE_POINTS[length]), 0, length, top))
                single[pattern] = max(single[pattern], _single_key(int(SEQUENCE_POINTS[length]), _sequence_kind(length),
                                                                   top))
                cards[pattern] |= ((1 << length) - 1) << rank
            rank += length
    return points, key, classic, single, cards


def _carre_tables():
    """Per 8-bit pattern of ranks held in all four suits: carré points, best strength, classic key,
    single-contest key."""
    points = np.zeros(256, dtype=np.int64)
    key = np.full(256, -1, dtype=np.int64)
    classic = np.full(256, -1, dtype=np.int64)
    single = np.full(256, -1, dtype=np.int64)
    for pattern in range(256):
        for rank in range(2, 8):  # four 7s / 8s are no declaration
            if pattern >> rank & 1:
                points[pattern] += CARRE_POINTS[rank]
                key[pattern] = max(key[pattern], CARRE_STRENGTH[rank])
                classic[pattern] = max(classic[pattern], _classic_key(int(CARRE_POINTS[rank]), 1, 0,
                                                                      int(CARRE_STRENGTH[rank])))
                single[pattern] = max(single[pattern], _single_key(int(CARRE_POINTS[rank]), SINGLE_KIND_CARRE,
                                                                   int(SINGLE_CARRE_RANK[rank])))
    return points, key, classic, single


#: ``RUN_*[pattern]`` for one suit's 8-bit rank pattern (sequences only; -1 = no key);
#: ``RUN_CARDS[pattern]``: the ranks of the pattern that belong to a sequence.
RUN_POINTS, RUN_KEY, RUN_CLASSIC_KEY, RUN_SINGLE_KEY, RUN_CARDS = _run_tables()
#: ``CARRE_*[pattern]`` for the ranks held in all four suits.
CARRE_SET_POINTS, CARRE_SET_KEY, CARRE_SET_CLASSIC_KEY, CARRE_SET_SINGLE_KEY = _carre_tables()
#: Ranks that form a scoring carré (9 .. A).
CARRE_RANKS = 0b11111100

for _table in (STRENGTH64, SUIT, TRUMPS, STRONGER, BEATS, POINTS, TRICK_MULT, DEAL_POINTS, CARRE_MASK, CARRE_POINTS,
               CARRE_STRENGTH, SEQUENCE_POINTS, RUN_POINTS, RUN_KEY, RUN_CLASSIC_KEY, RUN_CARDS, CARRE_SET_POINTS,
               CARRE_SET_KEY, CARRE_SET_CLASSIC_KEY, RUN_SINGLE_KEY, CARRE_SET_SINGLE_KEY, SINGLE_CARRE_RANK):
    _table.flags.writeable = False
