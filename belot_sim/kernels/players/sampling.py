"""Layouts of the cards a seat cannot see, consistent with everything it knows (the searching
players' layouts), and small helpers the searching players share.

A layout respects the seat's hand, the cards played, the trick in progress, the voids and "cannot
hold" sets shown by the play (``V_EXCLUDED``), and the cards known to be in a hand (``V_KNOWN``: the
declarations shown after the first trick, the partner card of an announced belot).  The layouts come
from the world stream kept in ``scratch[SW_RNG]``: reproducible and independent of threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.bits import ctz, nth_card, popcount
from ..core.layouts import (SW_HANDS, SW_ODDS, SW_POOL, SW_REJECTED, SW_RNG, V_EXCLUDED, V_KNOWN, V_LEADER, V_PLAYED,
                            V_POS, V_TRICK, V_TRICKS_WON)
from ..core.rng import next_u64, scale32, shuffle

FULL = (1 << 32) - 1
#: Uniform attempts (deal the unseen cards at random, keep the layout if it contradicts nothing)
#: before the constrained fallback.
UNIFORM_TRIES = 16


@njit(cache=True, inline="always")
def _best_card(legal, values, offset, r32):
    """A uniformly random card among the legal ones with the highest ``values[offset + card]``."""
    best = -(1 << 62)
    ties = 0
    m = legal
    while m:
        c = ctz(m)
        m &= m - 1
        v = values[offset + c]
        if v > best:
            best = v
            ties = 1 << c
        elif v == best:
            ties |= 1 << c
    return nth_card(ties, scale32(r32, popcount(ties)))


@njit(cache=True, inline="always")
def _team_may_valat(view, team):
    """The team has won every completed trick (it can still earn the valat bonus)."""
    return view[V_TRICKS_WON + team] == view[V_TRICK]


@njit(cache=True)
def _layout_feasible(count, room):
    """Can the remaining cards still be dealt?  ``count[t]``: cards that may go to exactly the
    seats of bit set ``t`` (3 seats); ``room[i]``: cards seat ``i`` still takes.  Hall's condition
    for every set of seats is necessary and sufficient for such a transportation problem."""
    if count[0] > 0:
        return False
    for seats in range(1, 8):
        demand = 0
        for t in range(1, 8):
            if t & ~seats == 0:
                demand += count[t]
        supply = 0
        for i in range(3):
            if (seats >> i) & 1:
                supply += room[i]
        if demand > supply:
            return False
    return True


@njit(cache=True)
def sample_layout(view, seat, hand, scratch):
    """Deal the cards ``seat`` cannot see into a layout consistent with ``view``; the four hands go
    to ``scratch[SW_HANDS:SW_HANDS+4]``.

    First up to ``UNIFORM_TRIES`` uniform deals are tried (each kept only if it contradicts no
    exclusion): the accepted layout is then uniform among the consistent ones.  When every try
    fails (late in a deal with many shown voids), the cards are placed one by one, each to a
    seat chosen with probability proportional to its free places among the seats that keep the
    rest placeable (Hall's condition) — always consistent, close to uniform.
    """
    others = np.empty(3, dtype=np.int64)
    need = np.empty(3, dtype=np.int64)
    excluded = np.empty(3, dtype=np.int64)
    known = np.empty(3, dtype=np.int64)
    n = unseen_cards(view, seat, hand, scratch[SW_POOL:SW_POOL + 32], others, need, excluded, known)
    rng = np.uint64(scratch[SW_RNG])
    pool_cards = scratch[SW_POOL:SW_POOL + n]
    for _ in range(UNIFORM_TRIES):
        rng = shuffle(rng, pool_cards, n)
        ok = True
        idx = 0
        for i in range(3):
            mask = 0
            for _c in range(need[i]):
                mask |= 1 << scratch[SW_POOL + idx]
                idx += 1
            if mask & excluded[i]:
                ok = False
                break
            scratch[SW_HANDS + others[i]] = known[i] | mask
        if ok:
            scratch[SW_HANDS + seat] = hand
            scratch[SW_RNG] = np.int64(rng)
            return
    scratch[SW_REJECTED] += 1
    scratch[SW_RNG] = np.int64(place_cards(rng, n, seat, hand, others, need, excluded, known, scratch, False))


@njit(cache=True, inline="always")
def unseen_cards(view, seat, hand, pool_out, others, need, excluded, known):
    """Fill, for the three other seats in seat order, ``others`` (the seat), ``need`` (how many unseen
    cards it holds), ``excluded`` (cards it cannot hold) and ``known`` (its cards known to ``seat``);
    the unseen cards go to ``pool_out``, in card order.  Returns their number."""
    played = view[V_PLAYED]
    trick = view[V_TRICK]
    pos = view[V_POS]
    leader = view[V_LEADER]
    k = 0
    known_all = 0
    for s in range(4):
        if s == seat:
            continue
        in_trick = ((s - leader) & 3) < pos
        own = view[V_KNOWN + s] & ~played
        others[k] = s
        known[k] = own
        need[k] = 8 - trick - (1 if in_trick else 0) - popcount(own)
        excluded[k] = view[V_EXCLUDED + s]
        known_all |= own
        k += 1
    pool = FULL & ~hand & ~played & ~known_all
    n = 0
    while pool:
        pool_out[n] = ctz(pool)
        pool &= pool - 1
        n += 1
    return n


@njit(cache=True)
def place_cards(rng, n, seat, hand, others, need, excluded, known, scratch, weighted):
    """Place the ``n`` unseen cards of ``scratch[SW_POOL:]``, in that order, each to a seat that keeps
    the rest placeable, with probability proportional to its free places (``sample_layout``) — times
    the card-ownership model's odds ``scratch[SW_ODDS + 4 * card + seat]`` when ``weighted``
    (:mod:`.owners`); the hands go to ``scratch[SW_HANDS:]``.  Returns the stream state."""
    count = np.zeros(8, dtype=np.int64)
    kinds = np.empty(n, dtype=np.int64)
    room = need.copy()
    for idx in range(n):
        c = scratch[SW_POOL + idx]
        kind = 0
        for i in range(3):
            if not (excluded[i] >> c) & 1:
                kind |= 1 << i
        kinds[idx] = kind
        count[kind] += 1
    placed = known.copy()
    for idx in range(n):
        c = scratch[SW_POOL + idx]
        kind = kinds[idx]
        count[kind] -= 1
        weights = 0
        choice_room = np.zeros(3, dtype=np.int64)
        for i in range(3):
            if (kind >> i) & 1 and room[i] > 0:
                room[i] -= 1
                if _layout_feasible(count, room):
                    choice_room[i] = (room[i] + 1) * (scratch[SW_ODDS + 4 * c + others[i]] if weighted else 1)
                    weights += choice_room[i]
                room[i] += 1
        if weights == 0:  # inconsistent knowledge cannot happen; place anywhere with room
            for i in range(3):
                if room[i] > 0:
                    choice_room[i] = room[i]
                    weights += room[i]
        rng, u = next_u64(rng)
        pick = scale32(u >> np.uint64(32), weights)
        for i in range(3):
            if pick < choice_room[i]:
                placed[i] |= 1 << c
                room[i] -= 1
                break
            pick -= choice_room[i]
    for i in range(3):
        scratch[SW_HANDS + others[i]] = placed[i]
    scratch[SW_HANDS + seat] = hand
    return rng
