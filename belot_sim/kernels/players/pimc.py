"""``pimc``: perfect-information Monte Carlo, as bridge programs play.

At a decision with a choice the seat deals the cards it cannot see into layouts consistent with
what it knows (:mod:`.worlds`), solves each layout exactly with the double-dummy solver and plays
the card with the best total value over the layouts.  It never reads another hand.

What ``pimc`` computes (:func:`pimc_card`):

1. **Choices.** Cards that are the same play in every layout — same suit, equal points, and no card
   between them in the contract's order that another seat or the table could hold — count as one
   choice; every legal card being the same play needs no search.
2. **Successive elimination** (the expensive decisions of the first ``EXACT_FROM_TRICK`` tricks).
   Layouts are drawn one at a time, up to ``worlds``; each is solved for the choices still in
   contention (exact values, :func:`~belot_sim.kernels.solver.api.dd_values`).  From ``MIN_WORLDS``
   layouts on, a choice whose paired deficit against the leading choice (the best total so far) is
   significant — mean deficit above ``Z_ELIMINATE`` standard errors — drops out; sampling stops when
   one choice is left, or when the remaining ones have had equal values in every layout so far.
   From trick ``EXACT_FROM_TRICK`` on a decision costs little and every choice is solved in all
   ``worlds`` layouts.  The layouts of one decision share the solver's history bonuses (they are
   alike: the same cards, the same trick).
3. **The card.** The best total among the choices left; ties (equal totals, or cards that are the
   same play) are broken uniformly with the decision's ``r32``.

``expert`` is :func:`pimc_card` with :data:`MODEL_AUCTION_LAYOUTS`: its layouts are drawn from the
card-ownership model (:mod:`.owners`) and also replay the deal's auction (:mod:`.inference`); without an
auction they are the model's layouts.

``pimc_exact_card`` is the plain rule the elimination shortcuts: exact values of every legal card in
all ``worlds`` layouts (the ``pimc-exact`` player).  Without elimination (``worlds`` below
``MIN_WORLDS``, or from trick ``EXACT_FROM_TRICK`` on) both play the same card from the same layouts.
"""

from __future__ import annotations

from numba import njit

from ..core.bits import ctz, nth_card, popcount
from ..core.layouts import (C_KEEP_HISTORY, C_NODES, MAX_CHOICES, SP_CLASS, SP_CROSS, SP_DROPPED, SP_NODES, SP_OUT,
                            SP_SEARCHES, SP_SOLVED, SP_SUM, SP_WORLDS, SW_HANDS, SX_INFERRED, V_AT_OVERTAKE_PARTNER,
                            V_CONTRACT, V_LEADER, V_ON_TABLE, V_PLAYED, V_POS, V_TRICK, V_TRICK_CARD,
                            V_UNDERTRUMP_REQUIRED)
from ..core.play import cards_between
from ..core.rng import scale32
from ..core.tables import POINTS, SUIT
from ..solver.api import dd_moves, dd_values
from .inference import sample_inferred_layout
from .owners import model_odds, sample_model_layout
from .sampling import _best_card, _team_may_valat, sample_layout
from .scratch import new_gen

#: Layouts solved before a choice may be eliminated.
MIN_WORLDS = 4
#: A choice drops out when its mean paired deficit exceeds this many standard errors.
Z_ELIMINATE = 2.0
#: From this trick on (0-based) decisions are cheap and every choice is solved in every layout: the
#: elimination's shortcut cost most there (``scripts/pimc_regret.py``, docs/players.md: +0.079 raw
#: points of regret per decision over pimc-exact with it in every trick, +0.021 in the first four
#: only, for the same CPU time).
EXACT_FROM_TRICK = 4
#: Below every total: marks cards out of contention.
OUT = -(1 << 40)
#: How a search deals its layouts (``sampler``): uniform among the consistent ones (``pimc``), also
#: replaying the auction (:mod:`.inference`), weighted by the card-ownership model (:mod:`.owners`), or
#: both: the model's layouts on which the auction replays.
UNIFORM_LAYOUTS, AUCTION_LAYOUTS, MODEL_LAYOUTS, MODEL_AUCTION_LAYOUTS = 0, 1, 2, 3
#: ``node_budget`` of a search without one.
NO_BUDGET = 1 << 62


@njit(cache=True)
def classify(legal, hand, view, family, scratch):
    """Group the legal cards that are the same play in every layout; ``scratch[SP_CLASS + c]`` is the
    card standing for ``c``.  Returns the mask of the standing cards (the choices).

    Two cards of one suit are the same play when they have equal points and every card between them
    in the contract's order is in the seat's hand or in a completed trick: no other seat can hold it
    and it is not on the table, so whichever is played, every layout continues the same way."""
    contract = view[V_CONTRACT]
    gone = (view[V_PLAYED] & ~view[V_ON_TABLE]) | hand  # cards nobody else can hold or play here
    choices = 0
    m = legal
    while m:
        card = ctz(m)
        m &= m - 1
        stand = card
        c_m = choices & SUIT[card >> 3]
        while c_m:
            d = ctz(c_m)
            c_m &= c_m - 1
            if POINTS[family, contract, d] != POINTS[family, contract, card]:
                continue
            if cards_between(card, d, contract) & ~gone == 0:
                stand = d
                break
        scratch[SP_CLASS + card] = stand
        if stand == card:
            choices |= 1 << card
    return choices


@njit(cache=True, inline="always")
def _slot(choices, card):
    """The index of ``card`` among the choices (0..7), for the cross sums."""
    return popcount(choices & ((1 << card) - 1))


@njit(cache=True)
def _survivors(contenders, choices, k, scratch):
    """The contenders left after ``k`` layouts: each drops out when its paired deficit against the
    leader is significant (module docstring).  Returns ``(contenders, settled)``: settled when one is
    left or every pair left had equal values in every layout."""
    leader = -1
    best = OUT
    m = contenders
    while m:
        c = ctz(m)
        m &= m - 1
        if scratch[SP_SUM + c] > best:
            best = scratch[SP_SUM + c]
            leader = c
    li = _slot(choices, leader)
    lsq = scratch[SP_CROSS + li * MAX_CHOICES + li]
    left = 1 << leader
    tied = True
    m = contenders & ~left
    while m:
        c = ctz(m)
        m &= m - 1
        ci = _slot(choices, c)
        diff = scratch[SP_SUM + leader] - scratch[SP_SUM + c]
        sq = lsq - 2 * scratch[SP_CROSS + li * MAX_CHOICES + ci] + scratch[SP_CROSS + ci * MAX_CHOICES + ci]
        if diff == 0 and sq == 0:  # equal in every layout so far
            left |= 1 << c
            continue
        tied = False
        mean = diff / k
        variance = (sq / k - mean * mean) * k / (k - 1)
        if mean <= 0 or mean * mean * k <= Z_ELIMINATE * Z_ELIMINATE * max(variance, 0.0):
            left |= 1 << c
    return left, left & (left - 1) == 0 or tied


@njit(cache=True, inline="always")
def _record(contenders, choices, scratch):
    """Add the values of the layout just solved (``scratch[SP_OUT + c]``) to the sums."""
    m = contenders
    while m:
        a = ctz(m)
        m &= m - 1
        va = scratch[SP_OUT + a]
        scratch[SP_SUM + a] += va
        ai = _slot(choices, a)
        n = contenders
        while n:
            b = ctz(n)
            n &= n - 1
            scratch[SP_CROSS + ai * MAX_CHOICES + _slot(choices, b)] += va * scratch[SP_OUT + b]


@njit(cache=True)
def pimc_card(legal, r32, hand, seat, view, family, ctx, tt, scratch, sampler, node_budget):
    """Sampling choice (module docstring): the card with the best total double-dummy value over up
    to ``scratch[SP_WORLDS]`` layouts of the unseen cards, with successive elimination.  ``sampler``:
    how the layouts are dealt (:func:`draw_layout`; :data:`MODEL_AUCTION_LAYOUTS` for ``expert``).
    No layout is drawn once the decision's solver nodes exceed ``node_budget`` (``hybrid``)."""
    scratch[SP_NODES] = 0
    scratch[SP_SEARCHES] = 0
    scratch[SX_INFERRED] = 0
    if legal & (legal - 1) == 0:
        return ctz(legal)
    choices = classify(legal, hand, view, family, scratch)
    if choices & (choices - 1) == 0:  # every legal card is the same play
        return nth_card(legal, scale32(r32, popcount(legal)))
    if sampler >= MODEL_LAYOUTS:  # the model's odds, once per decision
        model_odds(view, seat, hand, scratch)
    contenders, k = _eliminate(choices, hand, seat, view, family, ctx, tt, scratch, sampler, node_budget)
    scratch[SP_SOLVED] = k
    scratch[SP_DROPPED] = choices & ~contenders
    m = legal  # every card takes the total of the choice it stands for; eliminated ones are out
    while m:
        c = ctz(m)
        m &= m - 1
        stand = scratch[SP_CLASS + c]
        scratch[SP_OUT + c] = scratch[SP_SUM + stand] if (contenders >> stand) & 1 else OUT
    return _best_card(legal, scratch, SP_OUT, r32)


@njit(cache=True)
def draw_layout(sampler, view, seat, hand, family, scratch):
    """One layout of ``sampler`` (:data:`UNIFORM_LAYOUTS` ...) into ``scratch[SW_HANDS:SW_HANDS+4]``; the model's
    samplers need :func:`.owners.model_odds` filled for this decision."""
    if sampler == AUCTION_LAYOUTS or sampler == MODEL_AUCTION_LAYOUTS:
        sample_inferred_layout(view, seat, hand, family, scratch, sampler == MODEL_AUCTION_LAYOUTS)
    elif sampler == MODEL_LAYOUTS:
        sample_model_layout(view, seat, hand, scratch)
    else:
        sample_layout(view, seat, hand, scratch)


@njit(cache=True)
def _eliminate(choices, hand, seat, view, family, ctx, tt, scratch, sampler, node_budget):
    """Successive elimination over up to ``scratch[SP_WORLDS]`` layouts, sampled one at a time, until
    the solver nodes pass ``node_budget``: the totals of the choices go to ``scratch[SP_SUM + c]``.
    Returns ``(contenders left, layouts)``."""
    team = seat & 1
    for c in range(32):
        scratch[SP_SUM + c] = 0
    for i in range(MAX_CHOICES * MAX_CHOICES):
        scratch[SP_CROSS + i] = 0
    contenders = choices
    worlds = scratch[SP_WORLDS]
    eliminate = view[V_TRICK] < EXACT_FROM_TRICK
    k = 0
    while k < worlds:
        draw_layout(sampler, view, seat, hand, family, scratch)
        ctx[C_KEEP_HISTORY] = 1 if k > 0 else 0
        dd_values(scratch[SW_HANDS:SW_HANDS + 4], view[V_LEADER], view[V_TRICK_CARD:V_TRICK_CARD + 4], view[V_POS],
                  view[V_CONTRACT], team, family, view[V_UNDERTRUMP_REQUIRED] == 1, view[V_AT_OVERTAKE_PARTNER] == 1,
                  _team_may_valat(view, team), ctx, tt, new_gen(scratch, tt), contenders, scratch[SP_OUT:SP_OUT + 32])
        scratch[SP_NODES] += ctx[C_NODES]
        scratch[SP_SEARCHES] += popcount(contenders)
        _record(contenders, choices, scratch)
        k += 1
        if scratch[SP_NODES] > node_budget:
            break
        if eliminate and k >= MIN_WORLDS and k < worlds:
            contenders, settled = _survivors(contenders, choices, k, scratch)
            if settled:
                break
    ctx[C_KEEP_HISTORY] = 0
    return contenders, k


@njit(cache=True)
def pimc_exact_card(legal, r32, hand, seat, view, family, ctx, tt, scratch):
    """The plain rule (``pimc-exact``): exact values of every legal card in all ``scratch[SP_WORLDS]``
    layouts, the best total, ties broken uniformly with ``r32``."""
    scratch[SP_NODES] = 0
    scratch[SP_SEARCHES] = 0
    if legal & (legal - 1) == 0:
        return ctz(legal)
    team = seat & 1
    for c in range(32):
        scratch[SP_SUM + c] = 0
    for _ in range(scratch[SP_WORLDS]):
        sample_layout(view, seat, hand, scratch)
        dd_moves(scratch[SW_HANDS:SW_HANDS + 4], view[V_LEADER], view[V_TRICK_CARD:V_TRICK_CARD + 4], view[V_POS],
                 view[V_CONTRACT], team, family, view[V_UNDERTRUMP_REQUIRED] == 1, view[V_AT_OVERTAKE_PARTNER] == 1,
                 _team_may_valat(view, team), ctx, tt, new_gen(scratch, tt), scratch[SP_OUT:SP_OUT + 32])
        scratch[SP_NODES] += ctx[C_NODES]
        scratch[SP_SEARCHES] += popcount(legal)
        m = legal
        while m:
            c = ctz(m)
            m &= m - 1
            scratch[SP_SUM + c] += scratch[SP_OUT + c]
    return _best_card(legal, scratch, SP_SUM, r32)
