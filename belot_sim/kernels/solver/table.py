"""The transposition table and the structure table.

* **Transposition table** (the caller's ``tt``, two-slot buckets of two words: key, entry) at trick
  starts, keyed on (remaining cards, leader, valat flag), and inside the first trick; the stored
  value counts future points only, so it is independent of the path.  Zero-point cards of a suit
  are interchangeable: the key replaces them by a canonical subset (:func:`_canon`).  Entries hold
  a lower and an upper bound, the best card and the solve's generation stamp.
* **Structure table** (in ``ctx``): trick-start positions whose suits' live cards are held by the
  same seats in the same order are isomorphic; their values differ by at most the point gap of
  corresponding cards (:func:`_point_gap`), so one stored position bounds every isomorphic one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.bits import ctz, popcount
from ..core.layouts import (C_BELOT, C_CANONICAL, C_CONTRACT, C_TT_STAMP, C_OWNER_SEQUENCE, C_POINT_SEQUENCE,
                            C_STRUCT_STAMP, C_SIZE, C_STRUCT_TABLE, C_TT_MASK, C_ZERO_RANKS, ENTRY_BOUND_MASK,
                            ENTRY_CARD_SHIFT, ENTRY_GEN_SHIFT, ENTRY_UB_SHIFT, STRUCT_BITS)
from ..core.tables import BELOT, NO_CARD
from .context import _ld, _st

_HASH_MUL = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64
_HASH_MUL2 = -4658895280553007687  # 0xBF58476D1CE4E5B9 as int64


@njit(cache=True, inline="always")
def _canon(ctx, rem):
    """``rem`` with each suit's live zero-point cards replaced by their canonical stand-in
    (same count, same holders in the same order): an isomorphic position, hence the same value."""
    out = rem
    for s in range(4):
        z = (rem >> (8 * s)) & _ld(ctx, C_ZERO_RANKS + s)
        out ^= (z ^ _ld(ctx, C_CANONICAL + 8 * s + z)) << (8 * s)
    return out


@njit(cache=True, inline="always")
def _boundary_key(ctx, rem, leader, valat):
    """Table key of a trick-start position (zero-point cards canonical, see :func:`_canon`)."""
    return _canon(ctx, rem) | (leader << 32) | (valat << 34)


@njit(cache=True, inline="always")
def _midtrick_key(rem, leader, pos, tcards, valat):
    """Table key of a position inside a trick (``pos`` 1..3 cards on the table, ``tcards``)."""
    tc = tcards
    c1 = ctz(tc)
    tc &= tc - 1
    c2 = ctz(tc) & 31
    tc &= tc - 1
    c3 = ctz(tc) & 31
    return rem | (c1 << 32) | (c2 << 37) | (c3 << 42) | (leader << 47) | (pos << 49) | (valat << 51)


@njit(cache=True, inline="always")
def _tt_probe(ctx, tt, key):
    """``(slot, entry)``: the slot of ``key``'s two-slot bucket that holds it (else the first
    one), and its entry word when it is this solve's (generation stamp), else -1."""
    idx = (((key * _HASH_MUL) >> 38) & _ld(ctx, C_TT_MASK)) * 2
    if _ld(tt, idx) != key and _ld(tt, idx ^ 2) == key:
        idx ^= 2
    if _ld(tt, idx) == key:
        e = _ld(tt, idx + 1)
        if (e >> ENTRY_GEN_SHIFT) == _ld(ctx, C_TT_STAMP):
            return idx, e
    return idx, np.int64(-1)


@njit(cache=True, inline="always")
def _entry_bounds(e, lb, ub, alpha, beta):
    """``(best card, lb, ub, settled, value)``: the bounds ``lb``/``ub`` tightened by the table entry
    ``e`` (-1: none; best card ``NO_CARD`` then); ``settled`` when they decide a search of the window
    (``alpha``, ``beta``) without searching, whose fail-soft result is then ``value``."""
    card = np.int64(NO_CARD)
    if e >= 0:
        card = (e >> ENTRY_CARD_SHIFT) & NO_CARD
        lb = max(lb, e & ENTRY_BOUND_MASK)
        ub = min(ub, (e >> ENTRY_UB_SHIFT) & ENTRY_BOUND_MASK)
    settled, value = _settles(lb, ub, alpha, beta)
    return card, lb, ub, settled, value


@njit(cache=True, inline="always")
def _settles(lb, ub, alpha, beta):
    """``(settled, value)``: whether the bounds ``lb``/``ub`` decide a search of the window
    (``alpha``, ``beta``) without searching, and its fail-soft result then."""
    if lb >= beta or lb == ub:
        return True, lb
    return ub <= alpha, ub


@njit(cache=True, inline="always")
def _tt_put(ctx, tt, tt_idx, key, lb, ub, card):
    """Write the entry ``key``: bounds ``lb``/``ub`` (0 .. ENTRY_BOUND_MASK), best card (``NO_CARD``:
    none), this solve's generation stamp (the bit fields are in :mod:`belot_sim.kernels.core.layouts`)."""
    _st(tt, tt_idx, key)
    stamp = _ld(ctx, C_TT_STAMP)
    _st(tt, tt_idx + 1, lb | (ub << ENTRY_UB_SHIFT) | (card << ENTRY_CARD_SHIFT) | (stamp << ENTRY_GEN_SHIFT))


@njit(cache=True, inline="always")
def _proved_bounds(best, a0, b0, lb, ub):
    """``(lb, ub)``: the bounds ``lb``/``ub`` known before a search of window (``a0``, ``b0``),
    tightened by its fail-soft result ``best``."""
    if best <= a0:
        return lb, min(ub, best)
    if best >= b0:
        return max(lb, best), ub
    return best, best


@njit(cache=True, inline="always")
def _tt_store(ctx, tt, tt_idx, key, best, a0, b0, lb, ub, bestcard):
    """Store what a search of window (``a0``, ``b0``) returning the fail-soft ``best`` proved, on top
    of the bounds ``lb``/``ub`` known before it, in the slot ``tt_idx`` found by :func:`_tt_probe`."""
    lb, ub = _proved_bounds(best, a0, b0, lb, ub)
    if _ld(tt, tt_idx) != key:
        # two slots per bucket: keep the entry of the bigger position of this solve
        gen = _ld(ctx, C_TT_STAMP)
        other = tt_idx ^ 2
        if (_ld(tt, tt_idx + 1) >> ENTRY_GEN_SHIFT) == gen and (
                (_ld(tt, other + 1) >> ENTRY_GEN_SHIFT) != gen
                or popcount(_ld(tt, other) & 0xFFFFFFFF) < popcount(_ld(tt, tt_idx) & 0xFFFFFFFF)):
            tt_idx = other
    _tt_put(ctx, tt, tt_idx, key, max(lb, 0), ub, bestcard)


@njit(cache=True, inline="always")
def _struct_hash(ctx, rem, leader, valat):
    """Hash of a trick-start position's structure — per suit the seats holding its live cards,
    weakest first — with the leader and the valat flag: isomorphic positions share it."""
    # Each suit's sequence takes 20 bits: three suits packed side by side and the fourth with the
    # leader and the valat flag, hashed by two independent multiplications.
    x = (_ld(ctx, C_OWNER_SEQUENCE + (rem & 0xFF)) | (_ld(ctx, C_OWNER_SEQUENCE + 256 + ((rem >> 8) & 0xFF)) << 20)
         | (_ld(ctx, C_OWNER_SEQUENCE + 512 + ((rem >> 16) & 0xFF)) << 40))
    y = _ld(ctx, C_OWNER_SEQUENCE + 768 + ((rem >> 24) & 0xFF)) | (leader << 20) | (valat << 22)
    h = x * _HASH_MUL ^ y * _HASH_MUL2
    h ^= (h >> 29) & 0x7FFFFFFFF
    return h


@njit(cache=True, inline="always")
def _point_gap(ctx, rem, rem2, contract):
    """``(up, down)``: how much higher and how much lower the value of the trick-start position
    ``rem`` can be than that of ``rem2`` (same leader and valat flag); ``up`` is -1 when they are
    not isomorphic.

    Isomorphic: in every suit the same seats hold the live cards in the same strength order.
    Corresponding cards (same suit, same place in that order) then win and lose the same tricks
    in every line of play, so whatever the team wins in one position it wins the corresponding
    cards of in the other: its points there differ by the sum of the point differences of those
    cards - at most the sum of the positive differences above, at most the sum of the negative
    ones below (measured against the sum of all the differences either way: docs/solver.md).  Plus,
    for each suit that differs, 20 up when an AT belot of the team is still open in ``rem`` and 20
    down when it is open in ``rem2`` (its K and Q need not correspond)."""
    up = 0
    down = 0
    belot = _ld(ctx, C_BELOT)
    for s in range(4):
        sh = 8 * s
        a = (rem >> sh) & 0xFF
        b = (rem2 >> sh) & 0xFF
        if a == b:
            continue
        if _ld(ctx, C_OWNER_SEQUENCE + s * 256 + a) != _ld(ctx, C_OWNER_SEQUENCE + s * 256 + b):
            return np.int64(-1), np.int64(0)
        pa = _ld(ctx, C_POINT_SEQUENCE + s * 256 + a)
        pb = _ld(ctx, C_POINT_SEQUENCE + s * 256 + b)
        while pa | pb:
            d = (pa & 63) - (pb & 63)
            if d > 0:
                up += d
            else:
                down -= d
            pa >>= 6
            pb >>= 6
        pair = (belot >> sh) & 0xFF
        if pair:
            if (a & pair) == pair:  # the belot may still score from rem: up to 20 more
                up += BELOT
            if (b & pair) == pair:  # or from rem2: up to 20 less
                down += BELOT
    return up, down


@njit(cache=True)
def _struct_probe(ctx, rem, leader, valat, lb, ub):
    """``(slot, tag, lb, ub)``: the structure-table slot and tag of a trick-start position, and the
    bounds ``lb``/``ub`` tightened by the entry there when it holds an isomorphic position (its
    bounds widened by :func:`_point_gap`).

    The table keeps one position per structure hash.  The tag holds 48 bits of the hash, the
    leader, the valat flag and the ctx's stamp; a matching tag still has its structure checked
    (:func:`_point_gap`), so a hash collision costs nothing but the check."""
    sh = _struct_hash(ctx, rem, leader, valat)
    sidx = C_STRUCT_TABLE + 2 * ((sh >> 40) & ((1 << STRUCT_BITS) - 1))
    stag = (sh & 0xFFFFFFFFFFFF) | (leader << 48) | (valat << 50) | (_ld(ctx, C_STRUCT_STAMP) << 51)
    if _ld(ctx, sidx) == stag:
        w1 = _ld(ctx, sidx + 1)
        up, down = _point_gap(ctx, rem, w1 & 0xFFFFFFFF, _ld(ctx, C_CONTRACT))
        if up >= 0:
            lb = max(lb, ((w1 >> 32) & ENTRY_BOUND_MASK) - down)
            ub = min(ub, ((w1 >> 48) & ENTRY_BOUND_MASK) + up)
    return sidx, stag, lb, ub


@njit(cache=True, inline="always")
def _struct_store(ctx, sidx, stag, rem, best, a0, b0, lb, ub):
    """Store in the structure table what a search of window (``a0``, ``b0``) returning ``best``
    proved, on top of the bounds ``lb``/``ub`` known before it: the tag, then the position's
    cards (32 bits) | lb << 32 | ub << 48.  The newest position of a slot is kept."""
    lb, ub = _proved_bounds(best, a0, b0, lb, ub)
    _st(ctx, sidx, stag)
    _st(ctx, sidx + 1, rem | (max(lb, 0) << 32) | (min(ub, ENTRY_BOUND_MASK) << 48))


@njit(cache=True)
def point_gap(ctx, rem, rem2, contract):
    """:func:`_point_gap` on a filled context array (``make_ctx``), for tests and tools: the array's
    size is checked, no raw address leaves this module."""
    if ctx.shape[0] < C_SIZE:
        raise ValueError("ctx is smaller than the solver context layout (C_SIZE)")
    return _point_gap(ctx.ctypes.data, rem, rem2, contract)
