"""Move ordering: the stored best card first, then a greedy one-trick lookahead (many cards
left) or static scores, plus history bonuses learnt from cutoffs; and the enhanced transposition
cutoff of a trick's last card."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.bits import ctz
from ..core.layouts import C_HISTORY, C_MOVES, C_POINTS, C_SCORES, ENTRY_BOUND_MASK, ENTRY_UB_SHIFT, MAX_MOVES
from ..core.play import beats, legal_mask
from ..core.tables import BEATS, STRENGTH64, STRONGER, SUIT, TRUMPS
from .context import _belot_gain, _ld, _st
from .table import _boundary_key, _tt_probe

#: Greedy one-trick lookahead orders moves at nodes with more than this many cards left.
GREEDY_MIN = 16


@njit(cache=True, inline="always")
def _greedy_card(ctx, hand, s, led, win, winner, contract, under, atop):
    """The greedy card of seat ``s`` following a trick: partner winning, the card with most
    points; else the cheapest card that beats; else the card with fewest points (weakest first)."""
    pw = ((winner ^ s) & 1) == 0
    legal = legal_mask(hand, led, win, pw, contract, under, atop)
    beat = legal & BEATS[contract, win]
    best = ctz(legal)
    bkey = 1 << 40  # above every key
    if pw:
        m = legal
        sign = -64
    elif beat:
        m = beat
        sign = 0
    else:
        m = legal
        sign = 64
    while m:
        c = ctz(m)
        m &= m - 1
        k = sign * _ld(ctx, C_POINTS + c) + STRENGTH64[contract, c] + 8 * ((TRUMPS[contract] >> c) & 1)
        if k < bkey:
            bkey = k
            best = c
    return best


@njit(cache=True, inline="always")
def _greedy_rest(ctx, rem, leader, pos, led, win, winner, tpts, contract, under, atop):
    """Finish the trick greedily (:func:`_greedy_card`) from position ``pos``: returns (winning
    seat, trick points, cards left).  Used to order moves."""
    for q in range(pos, 4):
        s = (leader + q) & 3
        best = _greedy_card(ctx, _ld(ctx, s) & rem, s, led, win, winner, contract, under, atop)
        rem ^= 1 << best
        tpts += _ld(ctx, C_POINTS + best)
        if beats(best, win, contract):
            win = best
            winner = s
    return winner, tpts, rem


@njit(cache=True, inline="always")
def _hist_slot(pos, led, card):
    """The ctx slot of ``card``'s history bonus when played at position ``pos`` of a trick of suit
    ``led``: leads, follows in the led suit and other cards (discards, ruffs) learn apart - a good
    lead says little about the same card as a follow (measured against one bonus per card: leads
    apart 0.92-0.94 of the time, the other cards apart too another 0.93-0.95).  The card tells the
    seat, so no team index is needed."""
    if pos == 0:
        return C_HISTORY + card
    if (card >> 3) == led:
        return C_HISTORY + 32 + card
    return C_HISTORY + 64 + card


@njit(cache=True, inline="always")
def _learn(ctx, base, i, pos, led, n_rem):
    """History update after a cutoff by move ``i`` (> 0) of the ordered list at ``base``: a bonus for
    the card that cut and the same malus for each card tried before it, ``2 * tricks_left**2``.
    A cutoff by the first card teaches nothing (rewarding it measured 1.6 times the time); the
    malus took 0.90-0.92 of the time, twice the step another 0.94-0.96."""
    d = n_rem >> 2
    step = 2 * d * d
    slot = _hist_slot(pos, led, _ld(ctx, base + i))
    _st(ctx, slot, _ld(ctx, slot) + step)
    for j in range(i):
        slot = _hist_slot(pos, led, _ld(ctx, base + j))
        _st(ctx, slot, _ld(ctx, slot) - step)


#: The ordering score of the table's stored best card: above any other card's.
TT_MOVE_SCORE = 1 << 40


@njit(cache=True, inline="always")
def _order_moves(ctx, moves, ttmove, rem, tcards, hand, leader, seat, pos, led, win, winner, tpts, n_rem, contract,
                 under, atop):
    """Write ``moves`` into this depth's scratch row, best first: ``(base, n)`` (the row's address
    in ``ctx`` and the number of moves).  The table's best card ``ttmove`` first; then by a greedy
    playout of the trick with more than ``GREEDY_MIN`` cards left, else a static score (masters
    first when leading, the trick's points for or against the mover when following), each plus
    the card's history bonus (:func:`_hist_slot`)."""
    base = C_MOVES + (32 - n_rem) * MAX_MOVES
    sbase = base + (C_SCORES - C_MOVES)
    n = 0
    if ttmove >= 0 and ttmove < 32 and (moves >> ttmove) & 1:
        _st(ctx, base, ttmove)
        _st(ctx, sbase, TT_MOVE_SCORE)
        n = 1
        moves &= ~(1 << ttmove)
    live = rem | tcards
    greedy = n_rem > GREEDY_MIN
    while moves:
        c = ctz(moves)
        moves &= moves - 1
        p = _ld(ctx, C_POINTS + c)
        st = STRENGTH64[contract, c]
        if pos == 3:
            mine = beats(c, win, contract) or ((winner ^ seat) & 1) == 0
            sc = ((tpts + p) if mine else -(tpts + p)) * 16 - st
        elif greedy:
            if pos == 0:
                gw, gp, _r = _greedy_rest(ctx, rem ^ (1 << c), leader, 1, c >> 3, c, seat, p, contract, under, atop)
            elif beats(c, win, contract):
                gw, gp, _r = _greedy_rest(ctx, rem ^ (1 << c), leader, pos + 1, led, c, seat, tpts + p, contract,
                                          under, atop)
            else:
                gw, gp, _r = _greedy_rest(ctx, rem ^ (1 << c), leader, pos + 1, led, win, winner, tpts + p, contract,
                                          under, atop)
            sc = (gp if ((gw ^ seat) & 1) == 0 else -gp) * 16 - st
        elif pos == 0:
            others = live & ~hand & SUIT[c >> 3]
            if (STRONGER[contract, c] & others) == 0:
                sc = 1000 + p * 8 + st
            else:
                sc = -p * 8 - st
        else:
            mine = beats(c, win, contract) or ((winner ^ seat) & 1) == 0
            sc = (p if mine else -p) * 16 - st
        sc += _ld(ctx, _hist_slot(pos, led, c))
        j = n
        while j > 0 and _ld(ctx, sbase + j - 1) < sc:  # insertion sort, best first
            _st(ctx, base + j, _ld(ctx, base + j - 1))
            _st(ctx, sbase + j, _ld(ctx, sbase + j - 1))
            j -= 1
        _st(ctx, base + j, c)
        _st(ctx, sbase + j, sc)
        n += 1
    return base, n


@njit(cache=True, inline="always")
def _etc_cutoff(ctx, tt, base, n, rem, seat, led, win, winner, tpts, valat, team, contract, belot_cards, maxnode,
                alpha, beta):
    """Enhanced transposition cutoff at a trick's last card: each move completes the trick, so its
    child is a trick-start position whose stored bound may already cut this node.  Returns
    ``(cut, value)``."""
    for i in range(n):
        card = _ld(ctx, base + i)
        nwinner = seat if beats(card, win, contract) else winner
        wteam = nwinner & 1
        nvl = valat if wteam == team else 0
        gain = tpts + _ld(ctx, C_POINTS + card) if wteam == team else 0
        gain += _belot_gain(belot_cards, rem, card, led)
        _cidx, e = _tt_probe(ctx, tt, _boundary_key(ctx, rem ^ (1 << card), nwinner, nvl))
        if e >= 0:
            if maxnode:
                v = gain + (e & ENTRY_BOUND_MASK)
                if v >= beta:
                    return True, v
            else:
                v = gain + ((e >> ENTRY_UB_SHIFT) & ENTRY_BOUND_MASK)
                if v <= alpha:
                    return True, v
    return False, np.int64(0)
