"""Players that search with the double-dummy solver: ``dd`` here, ``pimc`` in :mod:`.pimc`.

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

``scratch`` (int64[SCRATCH_SIZE]; :data:`belot_sim.kernels.core.layouts.SCRATCH`, in sections by owner:
this player's is ``SD_``) holds the table stamp, the world stream, the worlds per decision and per-decision
work space; ``ctx``/``tt`` are the solver's context and table (one per
thread, reused across deals: stamps keep solves apart).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.bits import ctz, popcount
from ..core.layouts import (C_SIZE, SD_FINAL, SD_GEN, V_AT_OVERTAKE_PARTNER, V_CONTRACT, V_LEADER, V_PLAYED_BY,
                            V_POINTS_WON, V_POS, V_TRICK_CARD, V_UNDERTRUMP_REQUIRED)
from ..core.play import belot_cards
from ..core.tables import AT, BELOT, DEAL_POINTS, TRICK_MULT
from ..solver.api import dd_best
from .pimc import pimc_card, pimc_exact_card  # noqa: F401  (the searching players, reached from here)
from .sampling import _team_may_valat
from .scratch import new_gen


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
    (``SD_FINAL``: banked + value); a team's own expectation rarely changes - the other side's
    replies usually keep it - and before a team's first decision the other team's expectation
    gives it by complement: card points are zero-sum, belots are taken as all scored, a valat as
    leaving nothing."""
    own = scratch[SD_FINAL + team]
    if own >= 0:
        return max(own - realized, 0)
    other = scratch[SD_FINAL + 1 - team]
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
    gen = scratch[SD_GEN + team]
    if gen == 0:
        gen = new_gen(scratch, tt)
        scratch[SD_GEN + team] = gen
    realized = _realized(hands, view, team, family)
    guess = _expected_value(hands, view, team, family, realized, scratch)
    card, value = dd_best(hands, view[V_LEADER], view[V_TRICK_CARD:V_TRICK_CARD + 4], view[V_POS], view[V_CONTRACT],
                          team, family, view[V_UNDERTRUMP_REQUIRED] == 1, view[V_AT_OVERTAKE_PARTNER] == 1,
                          _team_may_valat(view, team), ctx[team * C_SIZE:(team + 1) * C_SIZE], tt, gen, guess)
    scratch[SD_FINAL + team] = realized + value
    return card
