"""Labelled calls: every call with a choice in bulgarian auctions, with the value of each legal call in the true deal —
the ``neural`` bidder's labels (:mod:`belot_sim.kernels.bid_models.neural_bidder`).

Deal ``i`` of a seed is :func:`simulate`'s deal ``i`` (the same pack and dealer).  Its seats call as their
bidder models (:func:`deal_models`: every seat ``heuristic`` in round 0; from round 1 on, one team the
``neural`` bidder whose weights the process holds, the other ``heuristic`` or ``neural`` too), except
that at each call of the learning team (seat ``deal_id % 2`` and its partner: the team the bidder sits in
from round 1 on), with probability ``explore``, the seat makes a uniformly random legal call instead (so the
data also holds the positions a bidder that differs from the models leads to).  The other team never calls
at random: its calls are evidence about its cards exactly as a model's are in play.  At every call, for
each legal call: make it, let every seat — the caller included — finish the auction as its model would,
and play the final contract out with ``players`` (the same play stream for every call: common random
numbers); the call's value is the caller's team's match points minus the other team's (a void deal is
worth 0; doubles and redoubles multiply; a hanging deal gives the bidders nothing now).  Calls that end
in the same contract, declarer and multiplier share one playout.

Over many deals the best predictor of a call's value from what the caller knows is its expectation over
the layouts the caller cannot tell apart: the ``mc`` bidder estimates it by sampling at every call, the
network learns it once.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..kernels.bid_models.codes import HEURISTIC, NEURAL_BIDDER
from ..kernels.bid_models.consistent import finish_auction, model_call
from ..kernels.bid_models.neural_bidder import INPUTS, OUTPUTS, encode_call
from ..kernels.core.auction_rules import MAX_CALLS, apply_call, auction_start, legal_calls
from ..kernels.core.bits import popcount
from ..kernels.batch.endings import MEMO, ending_scores
from ..kernels.core.dealing import auction_hands, deal_pack
from ..kernels.core.layouts import A_OVER, A_SIZE, A_TO_MOVE, B_SIZE
from ..kernels.core.rng import AUCTION_STREAM, PLAY_STREAM, next_u64, scale32, stream_start
from ..kernels.play_loop import play_scratch
from .labels import pack_bits

#: 64-bit words of one packed bidder observation.
CALL_WORDS = (INPUTS + 63) // 64
#: ``values`` entry of a call that is not legal.
NOT_LEGAL_CALL = -32768
@njit(cache=True)
def deal_models(deal_id, round_, models):
    """The bidder models of deal ``deal_id``'s seats (``models``, int64[4]): all ``heuristic`` in round 0;
    later, the team of seat ``deal_id % 2`` the ``neural`` bidder, the other team ``neural`` in every
    other pair of deals, else ``heuristic`` (so the labels value calls both against and beside it)."""
    for s in range(4):
        models[s] = HEURISTIC
    if round_ > 0:
        other = NEURAL_BIDDER if (deal_id >> 1) & 1 else HEURISTIC
        for s in range(4):
            models[s] = NEURAL_BIDDER if (s & 1) == (deal_id & 1) else other


@njit(cache=True)
def label_auction(seed, deal_id, round_, flags, explore, players, weights, work, bits_out, values_out, own_out,
                  heuristic_out, row):
    """The rows of deal ``deal_id``'s calls with a choice, from ``row`` on (module docstring); returns the next
    free row."""
    pack = np.empty(32, dtype=np.int64)
    dealer = deal_pack(seed, deal_id, pack)
    hands5 = np.empty(4, dtype=np.int64)
    auction_hands(pack, dealer, hands5)
    state = np.empty(A_SIZE, dtype=np.int64)
    after = np.empty(A_SIZE, dtype=np.int64)
    obs = np.empty(B_SIZE, dtype=np.int8)
    memo = np.empty((MEMO, 3), dtype=np.int64)  # one deal's endings: every call of every position
    memo_n = 0
    models = np.empty(4, dtype=np.int64)
    deal_models(deal_id, round_, models)
    rng = stream_start(seed, deal_id, AUCTION_STREAM)
    play_seed = stream_start(seed, deal_id, PLAY_STREAM)
    auction_start(state, dealer, 0, -1)
    while state[A_OVER] == 0 and row < len(bits_out):
        seat = state[A_TO_MOVE]
        legal = legal_calls(state, seat, 0, False, -1)
        base = model_call(models[seat], legal, hands5[seat], seat, state, 0, flags, -1, weights)
        if popcount(legal) > 1:  # a call without a choice teaches nothing
            encode_call(obs, hands5[seat], seat, state, flags)
            pack_bits(obs, INPUTS, bits_out[row])
            for code in range(OUTPUTS):
                values_out[row, code] = NOT_LEGAL_CALL
                own_out[row, code] = NOT_LEGAL_CALL
                if (legal >> code) & 1:
                    after[:] = state
                    apply_call(after, code, 0, False, -1)
                    finish_auction(after, hands5, 0, flags, -1, models, weights)
                    score0, score1, memo_n = ending_scores(after, pack, dealer, 0, flags, players, play_seed, 0, memo,
                                                           memo_n, work, None)
                    ours, theirs = (score0, score1) if seat & 1 == 0 else (score1, score0)
                    values_out[row, code] = ours - theirs
                    own_out[row, code] = ours
            heuristic_out[row] = base if models[seat] == HEURISTIC else \
                model_call(HEURISTIC, legal, hands5[seat], seat, state, 0, flags, -1, weights)
            row += 1
        rng, u = next_u64(rng)
        if (seat & 1) == (deal_id & 1) and (u >> np.uint64(11)) * (1.0 / 9007199254740992.0) < explore:
            rng, u = next_u64(rng)
            k = scale32(u >> np.uint64(32), popcount(legal))
            code = 0
            while k > 0 or not (legal >> code) & 1:  # the k-th legal call
                if (legal >> code) & 1:
                    k -= 1
                code += 1
            base = code
        apply_call(state, base, 0, False, -1)
    return row


@njit(cache=True, parallel=True)
def label_calls(seed, start, n, round_, flags, explore, players, weights, n_threads, bits_out, values_out, own_out,
                heuristic_out, counts):
    """:func:`label_auction` for deals ``start .. start + n - 1``: deal ``start + i``'s rows are
    ``MAX_CALLS * i .. MAX_CALLS * i + counts[i] - 1`` of ``bits_out`` (uint64[MAX_CALLS * n, CALL_WORDS]),
    ``values_out`` (int16[MAX_CALLS * n, 9]), ``own_out`` (the same: the caller's team's points alone) and
    ``heuristic_out`` (int8[MAX_CALLS * n]: the heuristic's call)."""
    for t in prange(n_threads):
        belot_open, view, no_record, ctx, tt, scratch = play_scratch(players, 1, None)
        work = (belot_open, view, no_record, ctx, tt, scratch, np.empty(4, dtype=np.int64))
        for i in range(t * n // n_threads, (t + 1) * n // n_threads):
            row = MAX_CALLS * i
            counts[i] = label_auction(seed, start + i, round_, flags, explore, players, weights, work,
                                      bits_out[row:row + MAX_CALLS], values_out[row:row + MAX_CALLS],
                                      own_out[row:row + MAX_CALLS], heuristic_out[row:row + MAX_CALLS], 0)
