"""Whole matches (docs/rules.md §9) in the fast engine: deals with a rotating dealer until a team wins.

Match ``m`` (an id) draws its first dealer from its own ``MATCH_STREAM``; its deal ``k`` has the
dealer ``(first dealer + k) % 4`` and the deal id ``m * DEAL_ID_STRIDE + k``, which names the
pack (:func:`.deal.deal_pack`; the dealer that function draws is ignored) and the auction, play
and world streams of :func:`.deal.auction_and_play`.  Since ``k < DEAL_ID_STRIDE`` no two deals
of a run share an id, and every match depends only on ``(seed, m)``: rows are independent of
threads, chunking and which other matches run alongside.

The match progress mirrors :meth:`belot_sim.game.scoring.MatchProgress.after_deal` exactly
(:func:`match_after_deal`).  ``belot_sim.simulation.matches`` wraps all this into DataFrames.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.dealing import deal_pack
from ..core.layouts import (MT_CARRIED, MT_TOTAL0, MT_TOTAL1, M_DEALER, M_DEALS, M_SCORE0, M_SCORE1, M_TARGET,
                            M_WINNER, R_HANGING, R_OUTCOME, R_SCORE0, R_SCORE1, R_VALAT, SCORE_TARGET)
from ..core.rng import MATCH_STREAM, below, stream_start
from ..core.scoring import HANGING, MADE, VOID
from ..core.work import next_chunk, stopped, workers
from ..play_loop import play_scratch
from .deal import auction_and_play, deal_scratch, store_auction, store_result

#: Deal ids of match ``m`` are ``m * DEAL_ID_STRIDE + k`` (``k`` = deal number, below the stride).
DEAL_ID_STRIDE = 1 << 20
#: Largest match id (so that every deal id stays below 2**62).
MAX_MATCH_ID = (1 << 62) // DEAL_ID_STRIDE - 1
MATCH_CHUNK = 16  # matches per parallel work item (a match is some 10-30 deals)


@njit(cache=True)
def first_dealer(seed, match_id):
    """The dealer of deal 0 of match ``match_id``: uniform over the four seats."""
    _, dealer = below(stream_start(seed, match_id, MATCH_STREAM), 4)
    return dealer


@njit(cache=True)
def bidder_score(total, target):
    """A team's match points as the bidders read them (``A_SCORE``): counted towards a 151 target, so
    that a match to another target, or one whose target a valat raised, reads by the points still needed."""
    return total + SCORE_TARGET - target


@njit(cache=True)
def deal_winner(outcome, bidding_team, score_b, score_d):
    """The team that won a deal (it collects the carried hanging points), or -1 (hanging, void).

    As :func:`belot_sim.game.scoring.deal_winner`: a made deal is the bidders' unless the defenders
    scored more match points, an inside deal the defenders' unless the bidders scored more.
    """
    if outcome == HANGING or outcome == VOID:
        return -1
    if outcome == MADE:
        return bidding_team if score_b >= score_d else 1 - bidding_team
    return 1 - bidding_team if score_d >= score_b else bidding_team


@njit(cache=True)
def match_after_deal(total0, total1, target, carried, outcome, declarer, score0, score1, hanging, valat, family):
    """The match after one more deal (docs/rules.md §9; :meth:`MatchProgress.after_deal`).

    ``score0/1`` are the deal's match points by team, ``hanging`` the points it leaves hanging,
    ``valat`` the team that took all eight tricks or -1.  Returns
    ``(total0, total1, target, carried, winner)``, ``winner`` -1 while the match goes on.
    """
    if outcome == VOID:  # nobody bid: only the deal count moves on
        return total0, total1, target, carried, -1
    bidding_team = declarer & 1
    score_b = score1 if bidding_team else score0
    score_d = score0 if bidding_team else score1
    won = deal_winner(outcome, bidding_team, score_b, score_d)
    if won == 0:
        score0 += carried
        carried = hanging
    elif won == 1:
        score1 += carried
        carried = hanging
    else:  # hanging points pile up until a deal has a winner
        carried += hanging
    total0 += score0
    total1 += score1
    winner = -1
    if valat >= 0 and family == 0:
        # Bulgarian: no match is won on a valat deal; the bar rises above the leader.
        target = max(target, max(total0, total1) + 1)
    elif max(total0, total1) >= target and total0 != total1:
        winner = 0 if total0 > total1 else 1
    return total0, total1, target, carried, winner


@njit(cache=True, parallel=True, nogil=True)
def play_matches(seed, match_ids, cap, chunk_size, target, family, flags, bidders, bid_ints, bid_weights, players,
                 worlds, record,
                 match_out, small_out, hands_out, points_out, totals_out, calls_out, play_seat_out, play_card_out,
                 n_workers, search, auction_out, stop):
    """Play the matches ``match_ids`` (int64[n]); each gets ``cap`` deal slots in the outputs.
    ``search``: ``None`` unless a seat plays ``dd``/``pimc``; ``n_workers`` as in :func:`.rollout.rollout`.

    Deal ``k`` of the ``i``-th match goes to slot ``i * cap + k`` of the column-major outputs,
    laid out as in :func:`.rollout.rollout`: ``small_out`` int8[D_SIZE, slots], ``hands_out``
    uint32[4, slots], ``points_out`` int16[P_SIZE, slots], ``calls_out`` int8[slots, MAX_CALLS],
    ``play_*_out`` int8[slots, 32] when ``record``; ``totals_out`` int32[MT_SIZE, slots] the match
    after the deal (``MATCH_TOTALS``); ``match_out`` int64[M_SIZE, n] (``MATCH_OUT``).  A match
    still undecided after ``cap`` deals stops there with winner -1 (the caller plays it again with
    more room).  ``chunk_size``: matches a worker takes at a time (``MATCH_CHUNK``; 1 when deals are
    slow, to keep every thread busy to the end; core/work.py).  ``auction_out`` uint32[AH_SIZE, slots]:
    each deal's auction-time cards (:func:`.deal.store_auction`).  ``stop`` int64[1]: once another
    thread sets ``stop[0]`` (Ctrl-C, belot_sim/engine/runs.py ``interruptible``), every match stops after its
    current deal, undecided (the caller drops the block).
    """
    n = len(match_ids)
    n_chunks = (n + chunk_size - 1) // chunk_size
    counter = np.zeros(1, dtype=np.int64)
    for _worker in prange(workers(n_workers, n_chunks)):  # each thread takes chunks as it becomes free (core/work.py)
        pack, hands, hands5, auction_state = deal_scratch()
        belot_open, view, no_record, ctx, tt, scratch = play_scratch(players, worlds, search)
        chunk = next_chunk(counter)
        while chunk < n_chunks:
            for i in range(chunk * chunk_size, min(n, (chunk + 1) * chunk_size)):
                match_id = match_ids[i]
                dealer0 = first_dealer(seed, match_id)
                total0 = 0
                total1 = 0
                match_target = target
                carried = 0
                winner = -1
                k = 0
                while winner < 0 and k < cap and not stopped(stop):
                    deal_id = match_id * DEAL_ID_STRIDE + k
                    deal_pack(seed, deal_id, pack)  # its drawn dealer is not used: the dealer rotates
                    dealer = (dealer0 + k) & 3
                    slot = i * cap + k
                    seats = play_seat_out[slot] if record else no_record
                    cards = play_card_out[slot] if record else no_record
                    contract, declarer, multiplier, n_calls, r = auction_and_play(
                        seed, deal_id, dealer, pack, family, flags, bidders, bid_ints, bid_weights, players, hands5,
                        hands, auction_state, calls_out[slot], belot_open, view, record, seats, cards, ctx, tt, scratch,
                        search, bidder_score(total0, match_target), bidder_score(total1, match_target))
                    total0, total1, match_target, carried, winner = match_after_deal(
                        total0, total1, match_target, carried, r[R_OUTCOME], declarer, r[R_SCORE0], r[R_SCORE1],
                        r[R_HANGING], r[R_VALAT], family)
                    for s in range(4):
                        hands_out[s, slot] = hands[s]
                    store_auction(auction_out, slot, hands5, pack, family)
                    store_result(small_out, points_out, slot, dealer, contract, declarer, multiplier, n_calls, r)
                    totals_out[MT_TOTAL0, slot] = total0
                    totals_out[MT_TOTAL1, slot] = total1
                    totals_out[MT_CARRIED, slot] = carried
                    k += 1
                match_out[M_DEALER, i] = dealer0
                match_out[M_WINNER, i] = winner
                match_out[M_SCORE0, i] = total0
                match_out[M_SCORE1, i] = total1
                match_out[M_DEALS, i] = k
                match_out[M_TARGET, i] = match_target
            chunk = next_chunk(counter)
