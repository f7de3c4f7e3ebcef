"""The card-by-card search: a fail-soft alpha-beta node (:func:`_node`, recursive) with principal
variation search inside its window, quasi-equivalence skips, and the driver that turns it into an
exact value (:func:`_exact`).  Trick starts with few cards left go to :mod:`.endgame`.
"""

from __future__ import annotations

import numpy as np
from numba import cfunc, njit

from ..core.bits import ctz, popcount
from ..core.layouts import (C_AT_OVERTAKE_PARTNER, C_BELOT, C_CONTRACT, C_TT_MID_CARDS, C_NODES, C_POINTS, C_STRUCT_ON,
                            C_TEAM, C_UNDERTRUMP_REQUIRED, C_VALUES)
from ..core.play import beats, cards_between, legal_mask
from ..core.tables import NO_CARD, SUIT
from .bounds import _in_play, _start_bounds
from .context import INF, _belot_gain, _ld, _points_of, _st
from .endgame import ENDGAME_MAX, _endgame
from .ordering import _etc_cutoff, _learn, _order_moves
from .steps import _child
from .table import (_boundary_key, _entry_bounds, _midtrick_key, _settles, _struct_probe, _struct_store, _tt_probe,
                    _tt_store)

_SIG = "int64(int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64)"


@njit(cache=True, inline="always")
def _quasi_bound(ctx, card, p, done, others, belot_cards, contract, vbase, maxnode, alpha, beta):
    """``(skip, bound)``: quasi-equivalence.  A card ``d`` of the same hand and suit already searched
    (in ``done``, its value at ``vbase + d``), with no card of another hand (``others``) or the table
    between them in the contract order, leads to an isomorphic game whose value differs by at most
    ``|points(card) - points(d)|``.  If that bound cannot reach the window, ``card`` is skipped."""
    d_m = done & SUIT[card >> 3] & ~belot_cards
    while d_m:
        d = ctz(d_m)
        d_m &= d_m - 1
        if cards_between(card, d, contract) & others:
            continue
        delta = p - _ld(ctx, C_POINTS + d)
        if delta < 0:
            delta = -delta
        rd = _ld(ctx, vbase + d)
        if maxnode:
            bound = rd + delta
            if bound <= alpha:
                return True, bound
        else:
            bound = rd - delta
            if bound >= beta:
                return True, bound
    return False, np.int64(0)


@njit(cache=True, inline="always")
def _before_two_tricks(ctx, tt, moves, rem, seat, led, win, winner, tpts, rpts, valat, team, contract, belot_cards,
                       maxnode, alpha, beta):
    """The last card before two tricks are left (reached only from a root inside one of the last
    three tricks; from a trick start the trick loops of :func:`.endgame._endgame` play it): every
    child is exact (stored, or by ``_endgame``), so a plain loop with the cutoff replaces the search
    (each child counts as a node)."""
    best = -INF if maxnode else INF
    m = moves
    while m:
        card = ctz(m)
        m &= m - 1
        nwinner = seat if beats(card, win, contract) else winner
        gain = _belot_gain(belot_cards, rem, card, led)
        nvl = 0
        if (nwinner & 1) == team:
            gain += tpts + _ld(ctx, C_POINTS + card)
            nvl = valat
        _st(ctx, C_NODES, _ld(ctx, C_NODES) + 1)
        v = gain + _endgame(ctx, tt, rem ^ (1 << card), nwinner, nvl, np.int64(-1), np.int64(INF),
                            rpts - _ld(ctx, C_POINTS + card))
        if maxnode:
            if v > best:
                best = v
                if best >= beta:
                    break
        elif v < best:
            best = v
            if best <= alpha:
                break
    return best


# An explicit signature (compiled at import): Numba's cache cannot reload a recursive function
# compiled from an inferred signature (a second process crashed calling it from another kernel).
@njit(_SIG, cache=True)
def _node(ctx, tt, rem, leader, pos, led, win, winner, tcards, tpts, rpts, alpha, beta, valat):
    """Fail-soft alpha-beta: future points of team ``ctx[C_TEAM]`` from this node.

    ``rem``: cards still in the hands; ``leader``: seat that led the trick in progress; ``pos``:
    cards already on the table (0..3); ``led``/``win``/``winner``: led suit, winning card and its
    seat (ignored when ``pos == 0``); ``tcards``/``tpts``: the table's cards and points; ``rpts``:
    points of ``rem``; ``valat``: 1 while the team has won every trick of the deal.
    ``ctx``/``tt``: addresses of the context and table arrays.
    """
    _st(ctx, C_NODES, _ld(ctx, C_NODES) + 1)
    contract = _ld(ctx, C_CONTRACT)
    team = _ld(ctx, C_TEAM)
    belot_cards = _ld(ctx, C_BELOT)
    n_rem = popcount(rem)
    tt_idx = -1
    key = 0
    lb = 0
    ub = INF
    ttmove = -1
    hi = _in_play(ctx, rem, rpts + tpts, valat)
    if pos == 0:
        if n_rem <= ENDGAME_MAX:
            return _endgame(ctx, tt, rem, leader, valat, alpha, beta, rpts)
        if hi <= alpha:
            return hi
        ub = hi
        key = _boundary_key(ctx, rem, leader, valat)
        tt_idx = 0  # a stored position (its slot is found below)
    else:
        if hi <= alpha:
            return hi
        if beta <= 0:
            return 0
        if n_rem >= _ld(ctx, C_TT_MID_CARDS):
            ub = hi
            key = _midtrick_key(rem, leader, pos, tcards, valat)
            tt_idx = 0  # stored too
    sidx = -1  # the structure-table slot (-1: not used here)
    stag = 0
    if tt_idx >= 0:
        tt_idx, e = _tt_probe(ctx, tt, key)
        ttmove, lb, ub, settled, value = _entry_bounds(e, lb, ub, alpha, beta)
        if settled:
            return value
        if pos == 0 and _ld(ctx, C_STRUCT_ON) == 1:
            sidx, stag, lb, ub = _struct_probe(ctx, rem, leader, valat, lb, ub)
            settled, value = _settles(lb, ub, alpha, beta)
            if settled:
                return value
        if pos == 0:
            lb, ub = _start_bounds(ctx, rem, leader, valat, rpts, hi, contract, team, belot_cards, lb, ub)
            settled, value = _settles(lb, ub, alpha, beta)
            if settled:
                return value
        if lb > alpha:
            alpha = lb
        if ub < beta:
            beta = ub
    a0 = alpha
    b0 = beta
    seat = (leader + pos) & 3
    hand = _ld(ctx, seat) & rem
    under = _ld(ctx, C_UNDERTRUMP_REQUIRED) == 1
    atop = _ld(ctx, C_AT_OVERTAKE_PARTNER) == 1
    if pos == 0:
        moves = hand
    else:
        moves = legal_mask(hand, led, win, ((winner ^ seat) & 1) == 0, contract, under, atop)
    maxnode = (seat & 1) == team
    if n_rem == 9:
        return _before_two_tricks(ctx, tt, moves, rem, seat, led, win, winner, tpts, rpts, valat, team, contract,
                                  belot_cards, maxnode, alpha, beta)
    base, n = _order_moves(ctx, moves, ttmove, rem, tcards, hand, leader, seat, pos, led, win, winner, tpts, n_rem,
                           contract, under, atop)
    if pos == 3 and n_rem > 5:
        cut, value = _etc_cutoff(ctx, tt, base, n, rem, seat, led, win, winner, tpts, valat, team, contract,
                                 belot_cards, maxnode, alpha, beta)
        if cut:
            return value
    # --- search the children ----------------------------------------------------------------
    best = -INF if maxnode else INF
    bestcard = NO_CARD
    vbase = C_VALUES + (32 - n_rem) * 32
    done = 0  # cards searched (or skipped) so far, their values at vbase + card
    searched = False
    others = (rem | tcards) & ~hand
    for i in range(n):
        card = _ld(ctx, base + i)
        bit = 1 << card
        p = _ld(ctx, C_POINTS + card)
        if not (belot_cards >> card) & 1:
            skip, bound = _quasi_bound(ctx, card, p, done, others, belot_cards, contract, vbase, maxnode, alpha, beta)
            if skip:  # its bound still enters the fail-soft result
                if maxnode:
                    if bound > best:
                        best = bound
                elif bound < best:
                    best = bound
                _st(ctx, vbase + card, bound)
                done |= bit
                continue
        gain, nrem, nleader, npos, nled, nwin, nwinner, ntcards, ntpts, nvl = _child(
            ctx, card, rem, leader, pos, led, win, winner, tcards, tpts, valat, contract, team, belot_cards)
        if nrem == 0:
            v = gain
        else:
            # Principal variation search inside a window: after the first card a null-window
            # scout, and the window only when the scout finds the card improves on the best so far.
            scout = searched and beta - alpha > 1
            lo_w, hi_w = alpha, beta
            if scout:
                lo_w, hi_w = (alpha, alpha + 1) if maxnode else (beta - 1, beta)
            v = gain + _node(ctx, tt, nrem, nleader, npos, nled, nwin, nwinner, ntcards, ntpts, rpts - p,
                             lo_w - gain, hi_w - gain, nvl)
            if scout and alpha < v < beta:
                lo_w, hi_w = (v - 1, beta) if maxnode else (alpha, v + 1)
                v = gain + _node(ctx, tt, nrem, nleader, npos, nled, nwin, nwinner, ntcards, ntpts, rpts - p,
                                 lo_w - gain, hi_w - gain, nvl)
        searched = True
        _st(ctx, vbase + card, v)
        done |= bit
        if maxnode:
            if v > best:
                best = v
                bestcard = card
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                bestcard = card
                if v < beta:
                    beta = v
        if alpha >= beta:
            if i > 0:
                _learn(ctx, base, i, pos, led, n_rem)
            break
    if tt_idx >= 0:
        _tt_store(ctx, tt, tt_idx, key, best, a0, b0, lb, ub, bestcard)
    if sidx >= 0:
        _struct_store(ctx, sidx, stag, rem, best, a0, b0, lb, ub)
    return best


@njit(cache=True)
def _exact(ctx, tt, rem, leader, pos, led, win, winner, tcards, tpts, valat, lo, hi, guess):
    """Exact value of a node known to lie in [lo, hi]: one fail-soft search with the whole interval
    as its window, principal variation search inside (measured: 0.80-0.85 of the time of the
    null-window probes, bisection and final window this replaced, for whole deals; 0.84-0.90 for
    positions inside a deal).  A ``guess`` (>= 0) in the interval is first checked with a window
    of that one value, which returns it at once when it is right (a dd player's value rarely
    changes from one decision to the next)."""
    rpts = _points_of(ctx, rem)
    top = _in_play(ctx, rem, rpts + tpts, valat)
    if hi > top:
        hi = top
    if lo < 0:
        lo = 0
    if lo <= guess <= hi:
        g = _node(ctx, tt, rem, leader, pos, led, win, winner, tcards, tpts, rpts, guess - 1, guess + 1, valat)
        if g == guess:
            return g
        if g > guess:
            lo = g
        else:
            hi = g
    if lo >= hi:
        return lo
    return _node(ctx, tt, rem, leader, pos, led, win, winner, tcards, tpts, rpts, lo - 1, hi + 1, valat)


# The search as two C functions, compiled once: the solver's callers call them through their
# addresses (``ctx[C_SEARCH_FN]``, :func:`.context._call`), so no caller compiles the search again.
@cfunc(_SIG, cache=True)
def exact_entry(ctx, tt, rem, leader, pos, led, win, winner, tcards, tpts, valat, lo, hi, guess):
    """:func:`_exact`, callable through its address."""
    return _exact(ctx, tt, rem, leader, pos, led, win, winner, tcards, tpts, valat, lo, hi, guess)


@cfunc(_SIG, cache=True)
def node_entry(ctx, tt, rem, leader, pos, led, win, winner, tcards, tpts, rpts, alpha, beta, valat):
    """:func:`_node`, callable through its address."""
    return _node(ctx, tt, rem, leader, pos, led, win, winner, tcards, tpts, rpts, alpha, beta, valat)
