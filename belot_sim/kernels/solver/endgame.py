"""The last four tricks searched a whole trick at a time: plain loops over the ways to play a
trick, without the per-card ordering, mid-trick table and quasi-equivalence of the card-by-card
search (near the end of a deal that work costs more than the nodes it saves)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.bits import ctz, popcount
from ..core.layouts import (C_AT_OVERTAKE_PARTNER, C_BELOT, C_CONTRACT, C_NODES, C_POINTS, C_STRUCT_ON, C_TEAM,
                            C_UNDERTRUMP_REQUIRED, ENTRY_BOUND_MASK)
from ..core.play import beats, legal_mask
from ..core.tables import NO_CARD, NT, STRONGER, SUIT
from .bounds import _in_play, _last_trick, _start_bounds
from .context import INF, _belot_gain, _ld, _st
from .table import _boundary_key, _entry_bounds, _settles, _struct_probe, _struct_store, _tt_probe, _tt_put, _tt_store

#: Trick starts with at most this many cards left are searched a trick at a time (:func:`_endgame`).
ENDGAME_MAX = 16


@njit(cache=True, inline="always")
def _fixed_legal(hand, led, contract):
    """The legal cards of ``hand`` following a trick of suit ``led`` when they do not depend on the
    cards already played to it - any card of the suit when it holds one and must not beat (a plain
    suit in a suit contract, any suit in NT), any card when void in NT - else -1."""
    follow = hand & SUIT[led]
    if contract == NT:
        return follow if follow else hand
    if contract < NT and led != contract and follow:
        return follow
    return np.int64(-1)


@njit(cache=True, inline="always")
def _trick_loops(ctx, tt, rem, leader, valat, n_rem, a0, b0, first, rpts):
    """``(value, best lead)``: fail-soft alpha-beta over the ways to play the trick starting at a
    trick start, in plain loops (window ``a0``, ``b0``; ``first``: a lead to try first; ``rpts``:
    points of ``rem``, unused with two tricks left).  Each complete trick leads to the next trick's
    start: the last trick directly, two tricks exactly (stored for every window), more through
    :func:`_endgame` with the window carried down.  Leads and follows are tried in card-index
    order (by suit, then ranks 7, 8, 9, 10, J, Q, K, A), after ``first``, or in NT and AT a master
    when there is no ``first``.  Values are negated when the leader's side minimises, so every
    level alternates max/min the same way."""
    contract = _ld(ctx, C_CONTRACT)
    team = _ld(ctx, C_TEAM)
    belot_cards = _ld(ctx, C_BELOT)
    under = _ld(ctx, C_UNDERTRUMP_REQUIRED) == 1
    atop = _ld(ctx, C_AT_OVERTAKE_PARTNER) == 1
    s1 = (leader + 1) & 3
    s2 = (leader + 2) & 3
    s3 = (leader + 3) & 3
    h1 = _ld(ctx, s1) & rem
    h2 = _ld(ctx, s2) & rem
    h3 = _ld(ctx, s3) & rem
    sign = 1 if (leader & 1) == team else -1
    alpha, beta = (a0, b0) if sign > 0 else (-b0, -a0)
    best0 = -INF
    bestcard = NO_CARD
    m0 = _ld(ctx, leader) & rem
    if first >= 32 or (m0 >> first) & 1 == 0:
        first = NO_CARD
        if contract >= NT:
            # No stored lead: in NT and AT a master (the top live card of its suit) first - it
            # wins its trick (measured, 400 deals each: NT 0.94, AT 0.97 of the time; in a suit
            # contract neither a trump nor a plain master first paid).
            x = m0
            while x:
                c = ctz(x)
                x &= x - 1
                if STRONGER[contract, c] & SUIT[c >> 3] & rem == 0:
                    first = c
                    break
    while m0 and best0 < beta:
        if first < 32:
            a = first
            m0 &= ~(1 << a)
            first = NO_CARD
        else:
            a = ctz(m0)
            m0 &= m0 - 1
        led = a >> 3
        # the trick's points and belot gains so far, one card at a time
        pa = _ld(ctx, C_POINTS + a)
        ga = _belot_gain(belot_cards, rem, a, led)
        best1 = INF
        a1 = max(alpha, best0)
        # a follower's legal cards that do not depend on the cards played before it (-1: they do)
        x2 = _fixed_legal(h2, led, contract)
        x3 = _fixed_legal(h3, led, contract)
        m1 = legal_mask(h1, led, a, False, contract, under, atop)
        while m1 and best1 > a1:
            b = ctz(m1)
            m1 &= m1 - 1
            w1, ws1 = (b, s1) if beats(b, a, contract) else (a, leader)
            pb = pa + _ld(ctx, C_POINTS + b)
            gb = ga + _belot_gain(belot_cards, rem, b, led)
            best2 = -INF
            b2 = min(beta, best1)
            m2 = x2 if x2 >= 0 else legal_mask(h2, led, w1, ws1 == leader, contract, under, atop)
            while m2 and best2 < b2:
                c = ctz(m2)
                m2 &= m2 - 1
                w2, ws2 = (c, s2) if beats(c, w1, contract) else (w1, ws1)
                pc = pb + _ld(ctx, C_POINTS + c)
                gc = gb + _belot_gain(belot_cards, rem, c, led)
                best3 = INF
                a3 = max(a1, best2)
                m3 = x3 if x3 >= 0 else legal_mask(h3, led, w2, ws2 == s1, contract, under, atop)
                while m3 and best3 > a3:
                    d = ctz(m3)
                    m3 &= m3 - 1
                    wt = s3 if beats(d, w2, contract) else ws2
                    tpts = pc + _ld(ctx, C_POINTS + d)
                    gain = gc + _belot_gain(belot_cards, rem, d, led)
                    nvl = 0
                    if (wt & 1) == team:
                        gain += tpts
                        nvl = valat
                    r = rem & ~((1 << a) | (1 << b) | (1 << c) | (1 << d))
                    if n_rem == 8:
                        v = sign * (gain + _last_trick(ctx, r, wt, nvl))
                    elif n_rem == 12:
                        # np.int64, not literals: a recursive call typed with literal arguments
                        # links in its first process but not when loaded from Numba's cache
                        # (tests/test_cache_reload.py)
                        v = sign * (gain + _endgame(ctx, tt, r, wt, nvl, np.int64(-1), np.int64(INF), rpts - tpts))
                    else:
                        b3 = min(b2, best3)
                        if sign > 0:
                            v = gain + _endgame(ctx, tt, r, wt, nvl, a3 - gain, b3 - gain, rpts - tpts)
                        else:
                            v = -(gain + _endgame(ctx, tt, r, wt, nvl, -b3 - gain, -a3 - gain, rpts - tpts))
                    if v < best3:
                        best3 = v
                if best3 > best2:
                    best2 = best3
            if best2 < best1:
                best1 = best2
        if best1 > best0:
            best0 = best1
            bestcard = a
    return sign * best0, bestcard


_ENDGAME_SIG = "int64(int64, int64, int64, int64, int64, int64, int64, int64)"


@njit(_ENDGAME_SIG, cache=True)
def _endgame(ctx, tt, rem, leader, valat, alpha, beta, rpts):
    """Fail-soft alpha-beta value of a trick-start position with at most ``ENDGAME_MAX`` cards
    left, searched a whole trick at a time (:func:`_trick_loops`): near the end of a deal the
    per-card work of :func:`_node` (ordering, quasi-equivalence, mid-trick table) costs more than
    the nodes it saves (measured).  Same bounds, table and structure table as :func:`_node`, the
    stored best lead first.  With two tricks left (two cards in every hand) the value is exact
    whatever the window (measured: cheaper than windows there) and stored as exact.  ``rpts``: the
    points of ``rem`` (unused with two tricks or fewer left)."""
    n_rem = popcount(rem)
    if n_rem == 4:
        return _last_trick(ctx, rem, leader, valat)
    key = _boundary_key(ctx, rem, leader, valat)
    tt_idx, e = _tt_probe(ctx, tt, key)
    sidx = -1  # the structure-table slot (-1: not used in this solve)
    stag = 0
    if n_rem == 8:  # two tricks left: searched with the whole window, stored as exact
        if e >= 0:
            return e & ENTRY_BOUND_MASK
        a0, b0, first, lb, ub = -INF, INF, NO_CARD, np.int64(0), INF
    else:
        _st(ctx, C_NODES, _ld(ctx, C_NODES) + 1)
        hi = _in_play(ctx, rem, rpts, valat)
        if hi <= alpha:
            return hi
        first, lb, ub, settled, value = _entry_bounds(e, 0, hi, alpha, beta)
        if settled:
            return value
        if _ld(ctx, C_STRUCT_ON) == 1:
            sidx, stag, lb, ub = _struct_probe(ctx, rem, leader, valat, lb, ub)
            settled, value = _settles(lb, ub, alpha, beta)
            if settled:
                return value
        if n_rem > 12:  # (measured: not worth computing with three tricks left)
            lb, ub = _start_bounds(ctx, rem, leader, valat, rpts, hi, _ld(ctx, C_CONTRACT), _ld(ctx, C_TEAM),
                                   _ld(ctx, C_BELOT), lb, ub)
            settled, value = _settles(lb, ub, alpha, beta)
            if settled:
                return value
        a0 = max(alpha, lb)
        b0 = min(beta, ub)
    # One call of the trick loops: they are compiled into this function (they recurse into it),
    # once per call site, and were most of the solver's cold compile with two.
    best, bestcard = _trick_loops(ctx, tt, rem, leader, valat, n_rem, a0, b0, first, rpts)
    if n_rem == 8:
        _tt_put(ctx, tt, tt_idx, key, best, best, NO_CARD)
        return best
    _tt_store(ctx, tt, tt_idx, key, best, a0, b0, lb, ub, bestcard)
    if sidx >= 0:
        _struct_store(ctx, sidx, stag, rem, best, a0, b0, lb, ub)
    return best
