"""The ``mc`` bidder: every legal call judged by its expected match points on layouts consistent
with the auction so far.

For the seat to call, with its 5 cards (and the classic turned card):

1. the candidates: pass, the heuristic's own call, and the legal calls the heuristic would nearly
   make — contracts whose heuristic margin is within ``mc_window`` of what the heuristic needs to
   bid them, a double or redouble within ``mc_window`` of its margin.  With one candidate, that is
   the call (most passes of weak hands cost nothing);
2. draw packs around its cards (:func:`.consistent.draw_pack`) and keep those on which every other
   seat's calls so far are what the ``heuristic`` would have called (:func:`.consistent.first_mismatch`;
   exact rejection), until ``mc_samples`` are kept or ``mc_samples * mc_tries`` were drawn;
3. on each kept pack, for every candidate: make it, let every seat — itself included — finish the
   auction as the ``heuristic`` would, deal the final hands to the declarer that auction ends with,
   play them with ``mc_player`` (default ``hard``) and score the deal (doubles and redoubles
   multiply, a hanging deal gives the bidders nothing now, an inside one gives the defenders
   everything; a void deal is worth 0).  The value of the call is its team's match points minus the
   other team's.  Calls that end in the same contract, declarer and multiplier share one playout;
   all calls share the pack and its play stream (common random numbers), so differences between
   calls are not sampling noise of the layouts;
4. keep the heuristic's call unless another candidate gains on it, per pack, a mean of more than
   ``mc_z`` standard errors of that gain plus ``mc_margin`` match points; then make the call that
   gains most so.  With no consistent pack it calls as the heuristic.  It stops drawing packs early
   once no candidate's mean gain plus two standard errors reaches that bar.  (Picking the best of noisy
   means would favour calls whose few playouts were lucky: the high-variance NT and AT above all.)

The packs and playouts draw from a stream seeded by the call's 32-bit random value (itself from the
deal's auction stream), so runs stay reproducible.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bid_models.codes import HEURISTIC
from ..bid_models.consistent import draw_pack, finish_auction, first_mismatch, model_call, own_pack
from ..bid_models.heuristic import contract_margin
from ..core.auction_rules import DOUBLE, N_CODES, PASS, REDOUBLE, apply_call
from ..core.dealing import auction_hands, classic_final_hands, hands_from_pack
from ..core.layouts import (A_CALLS, A_CONTRACT, A_DEALER, A_DECLARER, A_MULTIPLIER, A_N_CALLS, A_SIZE, A_VOID,
                            BI_FLAGS, BI_MC_PLAYER, BI_MC_SAMPLES, BI_MC_TRIES, BW_DOUBLE_MARGIN, BW_MC_MARGIN,
                            BW_MC_WINDOW, BW_MC_Z, BW_OVER_PARTNER, BW_REDOUBLE_MARGIN, R_SCORE0, R_SCORE1,
                            SS_TURNED_CARD)
from ..core.rng import MC_STREAM, next_u64, stream_start
from ..core.rule_flags import ALL_NO_TRUMPS, DECLARATIONS
from ..play_loop import play_deal, play_scratch

#: Distinct (contract, declarer, multiplier) playouts kept per pack.
MEMO = 16
#: Every CHECK_EVERY kept packs, stop early when no candidate's mean gain plus STOP_Z standard
#: errors reaches the bar (it would keep the heuristic's call anyway).
CHECK_EVERY = 8
STOP_Z = 2.0


@njit(cache=True)
def mc_call(legal, r32, hand5, seat, state, family, turned_card, ints, weights):
    """The ``mc`` bidder's call (see the module docstring); arguments as :func:`.choose.choose_call`."""
    flags = ints[BI_FLAGS]
    base = model_call(HEURISTIC, legal, hand5, seat, state, family, flags, turned_card, weights)
    judged = candidates(legal, base, hand5, seat, state, family, flags, turned_card, weights)
    if judged == np.int64(1) << base:
        return base
    samples = ints[BI_MC_SAMPLES]
    max_tries = samples * ints[BI_MC_TRIES]
    players = np.full(4, ints[BI_MC_PLAYER], dtype=np.int64)
    dealer = state[A_DEALER]
    n_calls = state[A_N_CALLS]
    calls = state[A_CALLS:A_CALLS + n_calls]
    fixed_pack, free = own_pack(hand5, seat, dealer, family, turned_card)
    models = np.full(4, HEURISTIC, dtype=np.int64)
    pack = np.empty(32, dtype=np.int64)
    work = np.empty(32, dtype=np.int64)
    hands5 = np.empty(4, dtype=np.int64)
    hands = np.empty(4, dtype=np.int64)
    played = np.empty(4, dtype=np.int64)
    replay = np.empty(A_SIZE, dtype=np.int64)
    after = np.empty(A_SIZE, dtype=np.int64)
    memo_key = np.empty(MEMO, dtype=np.int64)
    memo_value = np.empty(MEMO, dtype=np.int64)
    value = np.zeros(N_CODES, dtype=np.int64)
    gain = np.zeros(N_CODES, dtype=np.float64)
    gain_sq = np.zeros(N_CODES, dtype=np.float64)
    belot_open, view, no_record, ctx, tt, scratch = play_scratch(players, 1, None)
    rng = stream_start(r32, seat * 64 + n_calls, MC_STREAM)
    kept = 0
    tries = 0
    while kept < samples and tries < max_tries:
        rng = draw_pack(rng, fixed_pack, free, work, pack)
        tries += 1
        auction_hands(pack, dealer, hands5)
        if first_mismatch(calls, n_calls, hands5, dealer, family, flags, turned_card, models, seat, replay,
                          weights) >= 0:
            continue
        kept += 1
        rng, play_seed = next_u64(rng)
        memo_n = 0
        for code in range(N_CODES):
            value[code] = 0
            if not (judged >> code) & 1:
                continue
            after[:] = state
            apply_and_finish(after, code, hands5, family, flags, turned_card, models, weights)
            if after[A_VOID]:
                continue  # nobody plays: worth 0 to both teams
            contract, declarer, multiplier = after[A_CONTRACT], after[A_DECLARER], after[A_MULTIPLIER]
            key = (contract * 4 + declarer) * 8 + multiplier
            v = np.int64(0)
            found = False
            for m in range(memo_n):
                if memo_key[m] == key:
                    v = memo_value[m]
                    found = True
                    break
            if not found:
                if family == 1:
                    classic_final_hands(pack, dealer, declarer, hands)
                else:
                    hands_from_pack(pack, dealer, hands)
                for s in range(4):
                    played[s] = hands[s]
                scratch[SS_TURNED_CARD] = turned_card  # the classic turned card is shown in play (-1: none)
                r = play_deal(played, dealer, contract, declarer, multiplier, family, flags, players, play_seed,
                              belot_open, view, False, no_record, no_record, ctx, tt, scratch, None)
                v = r[R_SCORE0] - r[R_SCORE1] if seat & 1 == 0 else r[R_SCORE1] - r[R_SCORE0]
                if memo_n < MEMO:
                    memo_key[memo_n] = key
                    memo_value[memo_n] = v
                    memo_n += 1
            value[code] = v
        for code in range(N_CODES):
            if (judged >> code) & 1:
                d = value[code] - value[base]
                gain[code] += d
                gain_sq[code] += d * d
        if kept % CHECK_EVERY == 0 and kept < samples and hopeless(judged, base, gain, gain_sq, kept, weights):
            break
    return best_call(judged, base, gain, gain_sq, kept, weights)


@njit(cache=True, inline="always")
def gain_bound(code, gain, gain_sq, kept, z):
    """The mean gain of ``code`` on the heuristic's call plus ``z`` standard errors."""
    mean = gain[code] / kept
    variance = max(0.0, (gain_sq[code] - kept * mean * mean) / (kept - 1))
    return mean + z * np.sqrt(variance / kept)


@njit(cache=True)
def hopeless(judged, base, gain, gain_sq, kept, weights):
    """No candidate's gain could plausibly clear the bar (its mean plus ``STOP_Z`` standard errors is
    below ``mc_margin``): the rest of the packs would not change the call."""
    for code in range(N_CODES):
        if code != base and (judged >> code) & 1 and gain_bound(code, gain, gain_sq, kept, STOP_Z) > \
                weights[BW_MC_MARGIN]:
            return False
    return True


@njit(cache=True)
def best_call(judged, base, gain, gain_sq, kept, weights):
    """Step 4 of the module docstring: ``gain``/``gain_sq`` are the sums over ``kept`` packs of each
    candidate's gain on the heuristic's call ``base`` and of its square."""
    if kept < 2:
        return base
    best = base
    best_score = 0.0
    for code in range(N_CODES):
        if code == base or not (judged >> code) & 1:
            continue
        score = gain_bound(code, gain, gain_sq, kept, -weights[BW_MC_Z]) - weights[BW_MC_MARGIN]
        if score > best_score:
            best = code
            best_score = score
    return best


@njit(cache=True)
def candidates(legal, base, hand5, seat, state, family, flags, turned_card, weights):
    """The calls judged (step 1 of the module docstring), as a mask of call codes."""
    hand = hand5
    if family == 1 and turned_card >= 0:
        hand |= np.int64(1) << turned_card  # as the heuristic sees it: the taker receives it
    declarations = (flags & DECLARATIONS) != 0
    window = weights[BW_MC_WINDOW]
    contract = state[A_CONTRACT]
    own_team = contract >= 0 and ((seat ^ state[A_DECLARER]) & 1) == 0
    need = weights[BW_OVER_PARTNER] if own_team else 0.0
    judged = (np.int64(1) << PASS) | (np.int64(1) << base)
    for c in range(6):
        if (legal >> (c + 1)) & 1 and contract_margin(hand, c, declarations, weights) >= need - window:
            judged |= np.int64(1) << (c + 1)
    if contract >= 0:
        margin = contract_margin(hand, contract, declarations, weights)
        if (legal >> DOUBLE) & 1 and margin >= weights[BW_DOUBLE_MARGIN] - window:
            judged |= np.int64(1) << DOUBLE
        if (legal >> REDOUBLE) & 1 and margin >= weights[BW_REDOUBLE_MARGIN] - window:
            judged |= np.int64(1) << REDOUBLE
    return judged


@njit(cache=True)
def apply_and_finish(state, code, hands5, family, flags, turned_card, models, weights):
    """Make ``code`` for the seat to move, then finish the auction as the seats' ``models`` would."""
    apply_call(state, code, family, (flags & ALL_NO_TRUMPS) != 0, turned_card >> 3 if family == 1 else -1)
    finish_auction(state, hands5, family, flags, turned_card, models, weights)
