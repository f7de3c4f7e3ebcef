"""Dealing (docs/rules.md §3) in the kernels: shuffle a pack from a deal's stream and map its positions to
the seats as :mod:`belot_sim.reference.dealing` does, and deal the unseen cards of a layout.

Hands are named by *order after the dealer*: order ``j`` is seat ``(dealer + 1 + j) % 4``.  The
first five cards of order ``j`` are ``pack[5j:5j+5]``; bulgarian completes them with
``pack[20+3j:23+3j]``; classic turns ``pack[20]`` and deals ``pack[21:]`` after the auction.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import popcount
from .rng import DEAL_STREAM, halves, next_u64, scale32, shuffle, stream_start

#: Classic: the pack position of the turned card (after the four 5-card hands).
TURNED_CARD = 20


@njit(cache=True)
def fill_hands(fixed, rng, pool, hands):
    """Deal the cards in no ``fixed`` mask uniformly so that every seat ends with 8: each seat keeps
    ``fixed[s]``; a Fisher-Yates shuffle of the rest (``pool``: int64[32] scratch) is dealt in seat
    order.  Returns the advanced ``rng``."""
    taken = fixed[0] | fixed[1] | fixed[2] | fixed[3]
    n = 0
    for c in range(32):
        if not (taken >> c) & 1:
            pool[n] = c
            n += 1
    rng = shuffle(rng, pool, n)
    idx = 0
    for s in range(4):
        mask = fixed[s]
        for _ in range(8 - popcount(fixed[s])):
            mask |= 1 << pool[idx]
            idx += 1
        hands[s] = mask
    return rng


@njit(cache=True)
def deal_pack(seed, deal_id, pack):
    """Shuffle ``pack`` (32 cards) for this deal and draw its dealer (Fisher–Yates)."""
    rng = stream_start(seed, deal_id, DEAL_STREAM)
    for i in range(32):
        pack[i] = i
    for i in range(31, 1, -2):  # two swaps per 64 random bits
        rng, u = next_u64(rng)
        high, low = halves(u)
        j = scale32(high, i + 1)
        pack[i], pack[j] = pack[j], pack[i]
        j = scale32(low, i)
        pack[i - 1], pack[j] = pack[j], pack[i - 1]
    rng, u = next_u64(rng)
    high, low = halves(u)
    j = scale32(high, 2)
    pack[1], pack[j] = pack[j], pack[1]
    return scale32(low, 4)  # the dealer


@njit(cache=True)
def hands_from_pack(pack, dealer, hands):
    """Bulgarian dealing (reference/dealing.py): order j after the dealer gets
    ``pack[5j:5j+5]`` and ``pack[20+3j:23+3j]``."""
    for j in range(4):
        mask = 0
        for k in range(5):
            mask |= 1 << pack[5 * j + k]
        for k in range(3):
            mask |= 1 << pack[20 + 3 * j + k]
        hands[(dealer + 1 + j) & 3] = mask


@njit(cache=True)
def auction_hands(pack, dealer, hands5):
    """The 5-card masks seen at auction time (reference/dealing.py ``first_hands``):
    order ``j`` after the dealer, seat ``(dealer + 1 + j) % 4``, gets ``pack[5j:5j+5]``."""
    for j in range(4):
        mask = 0
        for k in range(5):
            mask |= np.int64(1) << pack[5 * j + k]
        hands5[(dealer + 1 + j) & 3] = mask


@njit(cache=True)
def classic_final_hands(pack, dealer, taker, hands):
    """Classic 8-card hands after ``taker`` took (reference/dealing.py ``complete_hands``):
    the 5-card hands, then the taker gets the turned card ``pack[20]``, and ``pack[21:32]``
    is dealt in order after the dealer — 2 cards to the taker, 3 to every other seat."""
    auction_hands(pack, dealer, hands)
    hands[taker] |= np.int64(1) << pack[TURNED_CARD]
    position = 21
    for j in range(4):
        seat = (dealer + 1 + j) & 3
        count = 2 if seat == taker else 3
        for k in range(count):
            hands[seat] |= np.int64(1) << pack[position + k]
        position += count
