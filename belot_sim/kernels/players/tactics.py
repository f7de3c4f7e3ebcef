"""Small card-choosing helpers shared by the strategic players (Numba, masks in and out).

Strength across suits: a trump beats any plain card, so the *power* of a card is its
strength in its own suit, plus 8 when it is a trump.  "Cheapest" means least power, then
fewest points; "richest" means most points, then least power.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...game.rules import STRENGTH
from ..core.bits import ctz, popcount
from ..core.tables import BEATS, POINTS, STRONGER, SUIT, TRUMPS


def _power_table() -> np.ndarray:
    table = np.zeros((6, 32), dtype=np.int64)
    for contract in range(6):
        for card in range(32):
            table[contract, card] = int(STRENGTH[contract, card]) + (8 if int(TRUMPS[contract]) >> card & 1 else 0)
    return table


def _power_levels(power: np.ndarray) -> np.ndarray:
    levels = np.zeros((6, 16), dtype=np.int64)
    for contract in range(6):
        for card in range(32):
            levels[contract, power[contract, card]] |= 1 << card
    return levels


#: ``POWER[contract, card]``: trick-taking power comparable across suits (trumps on top).
POWER = _power_table()
#: ``POWER_LEVELS[contract, p]``: the cards of power ``p``.  Cards of equal power have equal
#: rank and trump-ness, hence equal points.
POWER_LEVELS = _power_levels(POWER)
POWER.flags.writeable = False
POWER_LEVELS.flags.writeable = False


@njit(cache=True)
def cheapest(mask, contract, family):
    """The weakest card of ``mask``: least power, then fewest points (then lowest index).

    Walks the power levels upwards; cards of one level tie on points too, so the first
    non-empty level's lowest card is the answer.  (``family`` is unused: kept so every
    chooser has the same arguments.)
    """
    for level in range(16):
        cards = mask & POWER_LEVELS[contract, level]
        if cards:
            return ctz(cards)
    return -1


@njit(cache=True)
def richest(mask, contract, family):
    """The card of ``mask`` worth most points, then with least power (to keep strength)."""
    best = -1
    best_key = -(1 << 30)
    while mask:
        card = ctz(mask)
        mask &= mask - 1
        key = POINTS[family, contract, card] * 64 - POWER[contract, card]
        if key > best_key:
            best_key = key
            best = card
    return best


@njit(cache=True, inline="always")
def beating(mask, winning, contract):
    """Cards of ``mask`` that beat ``winning``."""
    return mask & BEATS[contract, winning]


@njit(cache=True)
def masters(hand, out, contract):
    """Cards of ``hand`` that no card in ``out`` (cards that others may hold) beats in their suit."""
    result = 0
    mask = hand
    while mask:
        card = ctz(mask)
        mask &= mask - 1
        if STRONGER[contract, card] & out == 0:
            result |= 1 << card
    return result


@njit(cache=True, inline="always")
def trumps_of(mask, contract):
    return mask & TRUMPS[contract]


@njit(cache=True, inline="always")
def plain_of(mask, contract):
    return mask & ~TRUMPS[contract]


@njit(cache=True)
def longest_suit_cards(mask):
    """Cards of ``mask`` in its longest suit (the lowest suit on ties)."""
    best = 0
    best_len = 0
    for suit in range(4):
        cards = mask & SUIT[suit]
        n = popcount(cards)
        if n > best_len:
            best_len = n
            best = cards
    return best
