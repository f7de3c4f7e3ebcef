"""Bounds from the points still available: what a team can still get, what it surely takes.

A trick-start node whose window lies above every point still in play minus what the opponents
surely take, or below the points the team surely takes, is cut at once (:func:`_start_bounds`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.bits import ctz, popcount
from ..core.layouts import C_BELOT, C_CONTRACT, C_LAST, C_POINTS, C_TEAM, C_TEAM_CARDS, C_ZERO_CARDS
from ..core.play import beats
from ..core.tables import AT, BELOT, NT, QUEENS, SUIT, VALAT
from .context import STRONGEST_RANK, TOP_RUN, WEAKEST_RANK, _ld, _points_of


@njit(cache=True, inline="always")
def _cheapest_points(ctx, mask, m):
    """Sum of the points of the ``m`` cheapest cards of ``mask`` (all of them when it has fewer)."""
    # its zero-point cards first (most hands have some): only the rest needs sorting
    m -= popcount(mask & _ld(ctx, C_ZERO_CARDS))
    mask &= ~_ld(ctx, C_ZERO_CARDS)
    total = 0
    for _ in range(m):
        if mask == 0:
            break
        best = ctz(mask)
        x = mask & (mask - 1)
        while x:
            c = ctz(x)
            x &= x - 1
            if _ld(ctx, C_POINTS + c) < _ld(ctx, C_POINTS + best):
                best = c
        total += _ld(ctx, C_POINTS + best)
        mask ^= 1 << best
    return total


@njit(cache=True, inline="always")
def _suit_extreme(ctx, pattern, sh, m, pick):
    """Points of the ``m`` weakest (``pick`` = WEAKEST_RANK[order]) or strongest cards of the 8-bit
    suit ``pattern`` at bit ``sh`` (all of them when it has fewer): card points never decrease
    with strength within a suit, so these are the cheapest / dearest ones."""
    total = 0
    for _ in range(m):
        if pattern == 0:
            break
        r = pick[pattern]
        total += _ld(ctx, C_POINTS + sh + r)
        pattern ^= 1 << r
    return total


@njit(cache=True, inline="always")
def _weakest(pattern, m, pick):
    """The ``m`` weakest cards of the 8-bit suit ``pattern`` (``pick`` = WEAKEST_RANK[order])."""
    pattern &= 0xFF
    out = 0
    for _ in range(m):
        if pattern == 0:
            break
        r = pick[pattern]
        out |= 1 << r
        pattern ^= 1 << r
    return out


@njit(cache=True, inline="always")
def _last_trick(ctx, rem, leader, valat):
    """Value of the last trick (one card in every hand)."""
    contract = _ld(ctx, C_CONTRACT)
    win = ctz(_ld(ctx, leader) & rem)
    winner = leader
    pts = _ld(ctx, C_POINTS + win)
    for i in range(1, 4):
        s = (leader + i) & 3
        c = ctz(_ld(ctx, s) & rem)
        pts += _ld(ctx, C_POINTS + c)
        if beats(c, win, contract):
            win = c
            winner = s
    if (winner & 1) == _ld(ctx, C_TEAM):
        return pts + _ld(ctx, C_LAST) + (VALAT if valat else 0)
    return 0


@njit(cache=True, inline="always")
def _in_play(ctx, rem, pts, valat):
    """Everything team ``ctx[C_TEAM]`` can still get: ``pts`` (the points of the cards in the hands
    and on the table), the last trick, its open AT belots and the valat while it is alive."""
    return pts + _ld(ctx, C_LAST) + BELOT * popcount(_ld(ctx, C_BELOT) & rem & (rem >> 1) & QUEENS) + VALAT * valat


@njit(cache=True, inline="always")
def _cash_points(ctx, rem, casher, mate, opp1, opp2, contract, free, order, trun):
    """Points surely taken when ``casher`` (a hand, holding the lead) cashes its masters one after
    the other: in each plain suit the run of top cards it holds — all of it when ``free`` (nobody
    can ruff), else as many rounds as each opponent holding trumps can still follow — plus the
    cards the three others must give to those rounds: their cheapest of the suit, and when void
    their cheapest other cards (``trun``, top trumps counted elsewhere, left out: they may be the
    ones discarded).  Returns ``(points, the run cards, the suits cashed)``."""
    sure = 0
    rounds = 0
    runs = 0
    suits = 0
    u0 = 0  # the others' cheapest cards of the cashed suits, one per round
    u1 = 0
    u2 = 0
    for s in range(4):
        if s == contract:
            continue
        sh = 8 * s
        run = np.int64(TOP_RUN[order, (rem >> sh) & 0xFF, (casher >> sh) & 0xFF]) << sh
        if run == 0:
            continue
        runs |= run
        m = popcount(run)
        if not free:
            if opp1 & SUIT[contract]:  # an opponent without trumps cannot ruff
                m = min(m, popcount(opp1 & SUIT[s]))
            if opp2 & SUIT[contract]:
                m = min(m, popcount(opp2 & SUIT[s]))
            if m == 0:
                continue
        sure += _suit_extreme(ctx, (run >> sh) & 0xFF, sh, m, STRONGEST_RANK[order])
        rounds += m
        suits |= SUIT[s]
        u0 |= _weakest(opp1 >> sh, m, WEAKEST_RANK[order]) << sh
        u1 |= _weakest(mate >> sh, m, WEAKEST_RANK[order]) << sh
        u2 |= _weakest(opp2 >> sh, m, WEAKEST_RANK[order]) << sh
    if rounds:
        # A hand void in a cashed suit still gives a card to each round: at least its cheapest
        # cards beyond those counted.
        sure += _points_of(ctx, u0 | u1 | u2)
        r = rounds - popcount(u0)
        if r > 0:
            sure += _cheapest_points(ctx, opp1 & ~u0 & ~trun, r)
        r = rounds - popcount(u1)
        if r > 0:
            sure += _cheapest_points(ctx, mate & ~u1 & ~trun, r)
        r = rounds - popcount(u2)
        if r > 0:
            sure += _cheapest_points(ctx, opp2 & ~u2 & ~trun, r)
    return sure, runs, suits


@njit(cache=True)
def _start_bounds(ctx, rem, leader, valat, rpts, hi, contract, team, belot_cards, lb, ub):
    """``(lb, ub)``: the bounds ``lb``/``ub`` of a trick-start position's value tightened by its
    sure-point bounds (see the module docstring), ``hi`` coming in as the points still in play."""
    lo = 0
    valat_dead = valat == 0
    trun = 0
    owner = -1
    if contract < NT:
        # The run of top trumps held by one team: each wins its trick whenever it is played.
        sh = 8 * contract
        live = (rem >> sh) & 0xFF
        tm = (_ld(ctx, C_TEAM_CARDS) >> sh) & 0xFF
        trun = np.int64(TOP_RUN[1, live, tm]) << sh
        if trun:
            owner = 1
            lo += _points_of(ctx, trun)
        else:
            trun = np.int64(TOP_RUN[1, live, live & ~tm]) << sh
            if trun:
                owner = 0
                hi -= _points_of(ctx, trun)
                if not valat_dead:
                    hi -= VALAT
                    valat_dead = True
    # The leader's masters, cashed one after the other: nobody can ruff them in NT and AT, nor
    # in a suit contract once the other side has no trump left; otherwise, in each plain suit,
    # as many rounds as each opponent holding trumps can still follow.  The followers must give
    # at least their cheapest cards of the suit (discards only go to the same tricks).
    lhand = _ld(ctx, leader) & rem
    f1 = _ld(ctx, (leader + 1) & 3) & rem
    f2 = _ld(ctx, (leader + 2) & 3) & rem
    f3 = _ld(ctx, (leader + 3) & 3) & rem
    free = contract >= NT or ((f1 | f3) & SUIT[contract]) == 0
    order = 1 if contract == AT else 0
    sure, runs, _suits = _cash_points(ctx, rem, lhand, f2, f1, f3, contract, free, order, trun)
    cash = runs if free else 0  # the leader's masters when nobody can ruff them
    if cash != lhand:
        # Or the leader leads a suit whose top card its partner holds: the partner wins that
        # trick and then cashes its masters the same way.  The larger of the two lines counts.
        psure, _runs, suits = _cash_points(ctx, rem, f2, lhand, f1, f3, contract, free, order, trun)
        if lhand & suits and psure > sure:
            sure = psure
    if sure or cash:
        if (leader & 1) == team:
            if cash == lhand:  # the leader takes every remaining trick
                lo = rpts + _ld(ctx, C_LAST)
            else:
                lo += sure
        else:
            if cash == lhand:  # the team takes no trick: at most its belots
                hi = BELOT * popcount(belot_cards & rem & (rem >> 1) & QUEENS)
            else:
                hi -= sure
                if not valat_dead:
                    hi -= VALAT
    if contract < NT and trun != 0 and cash != lhand and not (sure != 0 and ((leader & 1) == team) == (owner == 1)):
        # The seat holding most of that run wins that many separate tricks, and every other
        # seat gives one card to each: at least its cheapest ones (the run's other holder
        # excepted: its run cards are counted already).  Not added on top of the cashing
        # bound of the same side (the followers' cards could be the same).
        t = 0
        for q in range(4):
            k = popcount(_ld(ctx, q) & trun)
            if k > t:
                t = k
        extra = 0
        for q in range(4):
            h = _ld(ctx, q) & rem
            if h & trun == 0:
                extra += _cheapest_points(ctx, h, t)
        if owner == 1:
            lo += extra
        else:
            hi -= extra
    return max(lb, lo), min(ub, hi)
