"""Players that search with the double-dummy solver: ``dd`` and ``pimc``.

* ``dd`` is a **perfect-information** player: it sees all four hands and plays the card with the
  best exact double-dummy value for its team (:func:`dd_card`).  It is a yardstick, not a fair
  opponent.
* ``pimc`` (perfect-information Monte Carlo, as bridge programs play): at each decision it deals
  the cards it cannot see into ``worlds`` layouts consistent with everything the seat knows — its
  hand, the cards played, the trick in progress, the voids and "cannot hold" sets shown by the
  play (``V_EXCLUDED``), the declarations shown after the first trick and the partner card of an
  announced belot (``V_KNOWN``) — solves each layout with :func:`~belot_sim.kernels.solver.api.dd_moves`
  and plays the card with the best total (:func:`pimc_card`).  It never reads another hand.

Both only search when the seat has a choice (one legal card is simply played).  ``dd`` is
deterministic (ties go to the lowest card index), so a deal with every seat ``dd`` has a single
outcome; ``pimc`` breaks ties uniformly with the decision's ``r32`` (the play stream).  The
layouts come from the deal's own world stream (``rng.WORLD_STREAM``), kept in ``scratch``:
reproducible and independent of threads.

``scratch`` (int64[SCRATCH_SIZE]) holds the table stamp, the world stream, the worlds per
decision and per-decision work space; ``ctx``/``tt`` are the solver's context and table (one per
thread, reused across deals: stamps keep solves apart).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.bits import ctz, nth_card, popcount
from ..core.layouts import (C_SIZE, S_DD_FINAL, S_DD_GEN, S_HANDS, S_OUT, S_POOL, S_REJECTED, S_SUM, S_WORLD_RNG,
                            S_WORLDS, V_AT_OVERTAKE_PARTNER, V_CONTRACT, V_EXCLUDED, V_KNOWN, V_LEADER, V_PLAYED,
                            V_PLAYED_BY, V_POINTS_WON, V_POS, V_TRICK, V_TRICK_CARD, V_TRICKS_WON,
                            V_UNDERTRUMP_REQUIRED)
from ..core.play import belot_cards
from ..core.rng import next_u64, scale32
from ..core.tables import AT, BELOT, DEAL_POINTS, TRICK_MULT
from ..solver.api import dd_best, dd_moves
from .scratch import new_gen

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


@njit(cache=True, inline="always")
def _at_pairs(hands, view, seat):
    """``(dealt, whole)``: the K-Q pairs seat ``seat`` was dealt, and those still in its hand."""
    dealt = popcount(belot_cards(hands[seat] | view[V_PLAYED_BY + seat], AT)) // 2
    return dealt, popcount(belot_cards(hands[seat], AT)) // 2


@njit(cache=True, inline="always")
def _realized(hands, view, team, family):
    """What team ``team`` has already banked of what the solver's value counts: the card points
    of the tricks it won (solver units: doubled in bulgarian NT) and, in AT, 20 for each K-Q pair
    it was dealt that is no longer whole (its belot scored, or lost by a discard - either way it
    left the value)."""
    contract = view[V_CONTRACT]
    banked = view[V_POINTS_WON + team] * TRICK_MULT[family, contract]
    if contract == AT:
        for s in (team, team + 2):
            dealt, whole = _at_pairs(hands, view, s)
            banked += BELOT * (dealt - whole)
    return banked


@njit(cache=True, inline="always")
def _expected_value(hands, view, team, family, realized, scratch):
    """The value the search for a dd decision's value checks first (-1: no idea, the first
    decision of the deal).  Each dd decision stores the points its team should end the deal with
    (``S_DD_FINAL``: banked + value); a team's own expectation rarely changes - the other side's
    replies usually keep it - and before a team's first decision the other team's expectation
    gives it by complement: card points are zero-sum, belots are taken as all scored, a valat as
    leaving nothing."""
    own = scratch[S_DD_FINAL + team]
    if own >= 0:
        return max(own - realized, 0)
    other = scratch[S_DD_FINAL + 1 - team]
    if other < 0:
        return -1
    contract = view[V_CONTRACT]
    belots = np.zeros(2, dtype=np.int64)
    if contract == AT:
        for s in range(4):
            belots[s & 1] += BELOT * _at_pairs(hands, view, s)[0]
    cards = DEAL_POINTS[family, contract]
    other_cards = other - belots[1 - team]
    final = belots[team] if other_cards > cards else cards - other_cards + belots[team]
    return max(final - realized, 0)


@njit(cache=True)
def dd_card(legal, r32, hands, seat, view, family, ctx, tt, scratch):
    """Perfect-information choice: the best exact double-dummy card for the seat's team (the
    lowest-index one among equals; :func:`~belot_sim.kernels.solver.api.dd_best`).

    Every decision of a deal for one team shares a table stamp: the hands are fixed for the
    whole deal, so what was learnt for earlier positions stays exact.  Each team also has its own
    half of ``ctx`` (two solver contexts, :func:`belot_sim.kernels.play_loop.play_scratch`): a context
    keeps its structure table only while its solves share a stamp, and the seats to move alternate
    teams (measured: 5-6 % less time for dd play, same cards).  The value's search starts at the
    value the team's previous decision expects (:func:`_expected_value`).
    """
    if legal & (legal - 1) == 0:
        return ctz(legal)
    team = seat & 1
    gen = scratch[S_DD_GEN + team]
    if gen == 0:
        gen = new_gen(scratch, tt)
        scratch[S_DD_GEN + team] = gen
    realized = _realized(hands, view, team, family)
    guess = _expected_value(hands, view, team, family, realized, scratch)
    card, value = dd_best(hands, view[V_LEADER], view[V_TRICK_CARD:V_TRICK_CARD + 4], view[V_POS], view[V_CONTRACT],
                          team, family, view[V_UNDERTRUMP_REQUIRED] == 1, view[V_AT_OVERTAKE_PARTNER] == 1,
                          _team_may_valat(view, team), ctx[team * C_SIZE:(team + 1) * C_SIZE], tt, gen, guess)
    scratch[S_DD_FINAL + team] = realized + value
    return card


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
    to ``scratch[S_HANDS:S_HANDS+4]``.

    First up to ``UNIFORM_TRIES`` uniform deals are tried (each kept only if it contradicts no
    exclusion): the accepted layout is then uniform among the consistent ones.  When every try
    fails (late in a deal with many shown voids), the cards are placed one by one, each to a
    seat chosen with probability proportional to its free places among the seats that keep the
    rest placeable (Hall's condition) — always consistent, close to uniform.
    """
    played = view[V_PLAYED]
    trick = view[V_TRICK]
    pos = view[V_POS]
    leader = view[V_LEADER]
    others = np.empty(3, dtype=np.int64)
    need = np.empty(3, dtype=np.int64)
    excluded = np.empty(3, dtype=np.int64)
    known = np.empty(3, dtype=np.int64)
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
    m = pool
    while m:
        scratch[S_POOL + n] = ctz(m)
        m &= m - 1
        n += 1
    scratch[S_HANDS + seat] = hand
    rng = np.uint64(scratch[S_WORLD_RNG])
    for _ in range(UNIFORM_TRIES):
        for i in range(n - 1, 0, -1):  # Fisher-Yates
            rng, u = next_u64(rng)
            j = scale32(u >> np.uint64(32), i + 1)
            scratch[S_POOL + i], scratch[S_POOL + j] = scratch[S_POOL + j], scratch[S_POOL + i]
        ok = True
        idx = 0
        for i in range(3):
            mask = 0
            for _c in range(need[i]):
                mask |= 1 << scratch[S_POOL + idx]
                idx += 1
            if mask & excluded[i]:
                ok = False
                break
            scratch[S_HANDS + others[i]] = known[i] | mask
        if ok:
            scratch[S_WORLD_RNG] = np.int64(rng)
            return
    # Constrained placement in the order of the last shuffle.
    scratch[S_REJECTED] += 1
    count = np.zeros(8, dtype=np.int64)
    kinds = np.empty(n, dtype=np.int64)
    room = need.copy()
    for idx in range(n):
        c = scratch[S_POOL + idx]
        kind = 0
        for i in range(3):
            if not (excluded[i] >> c) & 1:
                kind |= 1 << i
        kinds[idx] = kind
        count[kind] += 1
    placed = known.copy()
    for idx in range(n):
        c = scratch[S_POOL + idx]
        kind = kinds[idx]
        count[kind] -= 1
        weights = 0
        choice_room = np.zeros(3, dtype=np.int64)
        for i in range(3):
            if (kind >> i) & 1 and room[i] > 0:
                room[i] -= 1
                if _layout_feasible(count, room):
                    choice_room[i] = room[i] + 1
                    weights += room[i] + 1
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
        scratch[S_HANDS + others[i]] = placed[i]
    scratch[S_WORLD_RNG] = np.int64(rng)


@njit(cache=True)
def pimc_card(legal, r32, hand, seat, view, family, ctx, tt, scratch):
    """Sampling choice: the card with the best total double-dummy value over
    ``scratch[S_WORLDS]`` layouts of the unseen cards (see the module docstring)."""
    if legal & (legal - 1) == 0:
        return ctz(legal)
    team = seat & 1
    for c in range(32):
        scratch[S_SUM + c] = 0
    for _ in range(scratch[S_WORLDS]):
        sample_layout(view, seat, hand, scratch)
        dd_moves(scratch[S_HANDS:S_HANDS + 4], view[V_LEADER], view[V_TRICK_CARD:V_TRICK_CARD + 4], view[V_POS],
                 view[V_CONTRACT], team, family, view[V_UNDERTRUMP_REQUIRED] == 1, view[V_AT_OVERTAKE_PARTNER] == 1,
                 _team_may_valat(view, team), ctx, tt, new_gen(scratch, tt), scratch[S_OUT:S_OUT + 32])
        m = legal
        while m:
            c = ctz(m)
            m &= m - 1
            scratch[S_SUM + c] += scratch[S_OUT + c]
    return _best_card(legal, scratch, S_SUM, r32)
