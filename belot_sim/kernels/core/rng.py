"""Counter-based random streams: each deal draws from its own splitmix64 stream.

A deal's stream depends only on ``(seed, deal_id, purpose)``, never on thread or chunk,
so any split of a run gives identical rows.  ``purpose`` separates the draws of the
dealing, the contract choice and the players, so changing the players never changes
the cards dealt.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
S30, S27, S31, S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
LOW32 = np.uint64(0xFFFFFFFF)

DEAL_STREAM, CONTRACT_STREAM, PLAY_STREAM, AUCTION_STREAM, WORLD_STREAM = 1, 2, 3, 4, 5
#: A match's own draws (its first dealer), keyed by the match id rather than a deal id.
MATCH_STREAM = 6
#: An ``mc`` bidder's layouts, keyed by its call's random value and the call number (not a deal
#: id, so sharing the number with MATCH_STREAM cannot make two streams meet).
MC_STREAM = 6


@njit(cache=True, inline="always")
def mix64(z):
    """The splitmix64 finaliser: a bijective scramble of a uint64."""
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@njit(cache=True)
def stream_start(seed, deal_id, purpose):
    """Initial state of the stream of ``deal_id`` for ``purpose`` under ``seed``."""
    key = mix64(np.uint64(seed) * GOLDEN + np.uint64(purpose))
    return mix64(key ^ (np.uint64(deal_id) * GOLDEN))


@njit(cache=True, inline="always")
def next_u64(state):
    """Advance a splitmix64 state: returns ``(new_state, random uint64)``."""
    state = state + GOLDEN
    return state, mix64(state)


@njit(cache=True, inline="always")
def scale32(r32, bound):
    """Map a uniform 32-bit value to ``[0, bound)`` by multiply-shift (bias < bound / 2**32)."""
    return np.int64((r32 * np.uint64(bound)) >> S32)


@njit(cache=True, inline="always")
def shuffle(rng, items, n):
    """Fisher-Yates shuffle of ``items[:n]`` in place from the stream ``rng`` (one draw per swap, its
    high 32 bits); returns the advanced ``rng``."""
    for i in range(n - 1, 0, -1):
        rng, u = next_u64(rng)
        j = scale32(u >> S32, i + 1)
        items[i], items[j] = items[j], items[i]
    return rng


@njit(cache=True, inline="always")
def halves(u):
    """The high and low 32 bits of a uint64, as two uniform 32-bit values."""
    return u >> S32, u & LOW32


@njit(cache=True, inline="always")
def below(state, bound):
    """A random integer in ``[0, bound)`` (multiply-shift of the top 32 bits; bias < bound / 2**32)."""
    state, r = next_u64(state)
    return state, np.int64(((r >> S32) * np.uint64(bound)) >> S32)


@njit(cache=True)
def nth_r32(state, n):
    """The 32-bit value of decision ``n`` (0, 1, ...) of a stream started at ``state`` when one 64-bit
    draw serves two decisions, high half first (as the play loop and the auction loop draw)."""
    u = np.uint64(0)
    for _ in range(n // 2 + 1):
        state, u = next_u64(state)
    high, low = halves(u)
    return high if n % 2 == 0 else low


@njit(cache=True, inline="always")
def fold(key, value):
    """``key`` with ``value`` (any int64) mixed in: a digest built one value at a time."""
    return mix64(key ^ (np.uint64(value) + GOLDEN))
