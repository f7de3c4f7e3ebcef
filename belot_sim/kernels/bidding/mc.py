"""The ``mc`` bidder: estimates each candidate call by playing sampled layouts.

For the seat to call, with its 5 cards: deal the unseen cards ``mc_samples`` times at random
(bulgarian: 3 more cards to itself and 8 to each other seat; classic, when taking: the turned
card and 2 more), and play each layout out with ``mc_player`` (default ``hard``) once per
candidate — every legal contract with itself as declarer, and the current contract when a
double or redouble is legal.  The same layouts serve every candidate (common random numbers),
so the comparison between contracts is not noise.  Then:

1. double when the opponents make their contract in at most ``mc_double`` of the layouts;
2. redouble when the own team makes its contract in at least ``mc_redouble`` of them;
3. otherwise bid, among the contracts made in at least ``mc_threshold`` of the layouts, the one
   with the best mean match-point difference for its team; partner's contract is not overbid;
4. otherwise pass.

The layouts are consistent with the bidder's own cards (and the classic turned card), not with
what the other calls suggest: a pass or a bid by another seat does not reweight them.
The layouts and playouts draw from a stream seeded by the call's 32-bit random value (itself from
the deal's auction stream), so runs stay reproducible.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.auction_rules import DOUBLE, PASS, REDOUBLE
from ..core.dealing import fill_hands
from ..core.layouts import (A_CONTRACT, A_DEALER, A_DECLARER, A_MULTIPLIER, A_N_CALLS, BI_FLAGS,
                            BI_MC_PLAYER, BI_MC_SAMPLES, BW_MC_DOUBLE, BW_MC_REDOUBLE, BW_MC_THRESHOLD,
                            R_OUTCOME, R_SCORE0, R_SCORE1)
from ..core.rng import MC_STREAM, next_u64, stream_start
from ..core.scoring import MADE
from ..play_loop import play_deal, play_scratch

CURRENT = 6  # evaluation slot of the contract already called


@njit(cache=True)
def mc_call(legal, r32, hand5, seat, state, family, turned_card, ints, weights):
    """The ``mc`` bidder's call (see the module docstring); arguments as :func:`.choose.choose_call`."""
    samples = ints[BI_MC_SAMPLES]
    policy = ints[BI_MC_PLAYER]
    flags = ints[BI_FLAGS]
    holder = state[A_DECLARER]
    partner_holds = holder >= 0 and ((holder ^ seat) & 1) == 0
    candidates = 0  # contracts to evaluate with this seat as declarer
    if not partner_holds:
        for c in range(6):
            if (legal >> (c + 1)) & 1:
                candidates |= 1 << c
    judge_current = ((legal >> DOUBLE) & 1) == 1 or ((legal >> REDOUBLE) & 1) == 1
    if candidates == 0 and not judge_current:
        return PASS
    policies = np.full(4, policy, dtype=np.int64)
    pool = np.empty(32, dtype=np.int64)
    hands = np.empty(4, dtype=np.int64)
    played = np.empty(4, dtype=np.int64)
    belot_open, view, no_record, ctx, tt, scratch = play_scratch(policies, 1, None)
    # Its own cards, and in classic the turned card it would take (it only evaluates its takes).
    fixed = np.zeros(4, dtype=np.int64)
    fixed[seat] = hand5 | ((1 << turned_card) if family == 1 else 0)
    made = np.zeros(7, dtype=np.int64)
    value = np.zeros(7, dtype=np.int64)
    dealer = state[A_DEALER]
    rng = stream_start(r32, seat * 64 + state[A_N_CALLS], MC_STREAM)
    for _ in range(samples):
        rng = fill_hands(fixed, rng, pool, hands)
        rng, play_seed = next_u64(rng)
        for k in range(7):
            if k < 6:
                if not (candidates >> k) & 1:
                    continue
                contract, declarer, multiplier = k, seat, 1
            else:
                if not judge_current:
                    continue
                contract, declarer, multiplier = state[A_CONTRACT], holder, state[A_MULTIPLIER]
            for s in range(4):
                played[s] = hands[s]
            r = play_deal(played, dealer, contract, declarer, multiplier, family, flags,
                                policies, play_seed, belot_open, view, False, no_record, no_record, ctx, tt,
                                scratch, None)  # mc plays with non-searching players only
            if r[R_OUTCOME] == MADE:
                made[k] += 1
            mine, theirs = (r[R_SCORE0], r[R_SCORE1]) if seat & 1 == 0 else (r[R_SCORE1], r[R_SCORE0])
            value[k] += mine - theirs if k < 6 else 0
    if (legal >> DOUBLE) & 1 and made[CURRENT] <= weights[BW_MC_DOUBLE] * samples:
        return DOUBLE
    if (legal >> REDOUBLE) & 1 and made[CURRENT] >= weights[BW_MC_REDOUBLE] * samples:
        return REDOUBLE
    best = PASS
    best_value = 0
    for k in range(6):
        if (candidates >> k) & 1 and made[k] >= weights[BW_MC_THRESHOLD] * samples:
            if best == PASS or value[k] > best_value:
                best = k + 1
                best_value = value[k]
    return best
