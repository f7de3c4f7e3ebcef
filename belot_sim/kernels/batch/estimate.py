"""Bid estimates: play many layouts of the unseen cards around known cards, each under several
contracts (common random numbers), in parallel; with an auction, screen candidate layouts for the
ones consistent with it first (:mod:`belot_sim.kernels.bid_models.consistent`), and value each call
the seat to move may make by finishing the auction and playing its ending (:func:`call_rollout`).

Everything here takes arrays and scalars; :mod:`belot_sim.estimates.bid` is the pandas edge.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..bid_models.consistent import draw_pack, first_mismatch
from ..bidding.choose import choose_call
from ..core.auction_rules import MAX_CALLS, N_CODES, PASS, apply_call, auction_start, legal_calls
from ..core.dealing import TURNED_CARD, auction_hands, classic_final_hands, fill_hands, hands_from_pack
from ..core.layouts import A_N_CALLS, A_OVER, A_SIZE, A_TO_MOVE, SS_TURNED_CARD
from ..core.rng import AUCTION_STREAM, DEAL_STREAM, PLAY_STREAM, WORLD_STREAM, below, next_u64, stream_start
from ..core.rule_flags import ALL_NO_TRUMPS
from ..core.scoring import score_bulgarian
from ..core.work import next_chunk, workers
from ..play_loop import play_deal, play_scratch
from ..players.scratch import start_deal
from .deal import store_auction, store_result
from .endings import ending_value
from .rollout import SEARCH_CHUNK

CHUNK = 64  # layouts a worker takes at a time with plain players (SEARCH_CHUNK with dd/pimc; core/work.py)
SCREEN_CHUNK = 1024  # candidate layouts per parallel work item of screen_layouts (a check takes ~0.3 us)


@njit(cache=True)
def deal_layout(seed, sample, fixed, pool, hands):
    """Layout ``sample``: every seat keeps its ``fixed`` cards and gets uniformly random unseen
    cards up to 8 (:func:`.deal.fill_hands` from the layout's own stream)."""
    return fill_hands(fixed, stream_start(seed, sample, DEAL_STREAM), pool, hands)


@njit(cache=True, parallel=True, nogil=True)
def estimate_rollout(seed, start, n, fixed, contracts, declarer, fixed_dealer, multiplier, turned_card, family, flags,
                     players, worlds, small_out, hands_out, points_out, n_workers, search):
    """Play layouts ``start .. start+n-1`` (see :func:`deal_layout`) once per contract of
    ``contracts``; row ``i * len(contracts) + k`` is layout ``start + i`` under ``contracts[k]``.

    The dealer is ``fixed_dealer``, or drawn per layout when -1.  Every contract of a layout is
    played with the same play and world streams.  With ``dd`` in every seat a layout is usually one
    minimax solve per contract (:mod:`.dd_deal`; AT only when nobody holds a K-Q pair, about a
    third of the layouts, measured 0.82 of the AT time).  ``search``: ``None`` unless a seat plays
    ``dd``/``pimc``, ``n_workers`` as in :func:`.rollout.rollout`.  ``turned_card``: classic, the
    turned card the declarer took (among its ``fixed`` cards), which the sampling players know it
    holds; -1 for none.  Outputs as :func:`.rollout.rollout` (``small_out`` int8[7, rows],
    ``hands_out`` uint32[4, rows], ``points_out`` int16[11, rows]).
    """
    k_contracts = len(contracts)
    # Work items as in rollout: a searched layout costs milliseconds (100x more for a few), so
    # one-layout items taken as threads become free keep both threads busy to the end (with
    # equal shares per thread, measured: dd bid table on 2 threads, 300 layouts 154% CPU with
    # 64-layout items, 197% with 4).
    chunk_size = SEARCH_CHUNK if search is not None else CHUNK
    n_chunks = (n + chunk_size - 1) // chunk_size
    counter = np.zeros(1, dtype=np.int64)
    for _worker in prange(workers(n_workers, n_chunks)):  # each thread takes chunks as it becomes free (core/work.py)
        hands = np.empty(4, dtype=np.int64)
        played = np.empty(4, dtype=np.int64)
        pool = np.empty(32, dtype=np.int64)
        belot_open, view, no_record, ctx, tt, scratch = play_scratch(players, worlds, search)
        chunk = next_chunk(counter)
        while chunk < n_chunks:
            for i in range(chunk * chunk_size, min(n, (chunk + 1) * chunk_size)):
                layout = start + i
                rng = deal_layout(seed, layout, fixed, pool, hands)
                dealer = fixed_dealer
                if dealer < 0:
                    rng, dealer = below(rng, 4)
                for k in range(k_contracts):
                    row = i * k_contracts + k
                    for s in range(4):
                        played[s] = hands[s]
                        hands_out[s, row] = hands[s]
                    scratch[SS_TURNED_CARD] = turned_card  # (or -1) among the declarer's fixed cards; shown in play
                    if search is not None:
                        start_deal(scratch, stream_start(seed, layout, WORLD_STREAM), turned_card)
                    r = play_deal(played, dealer, contracts[k], declarer, multiplier, family, flags, players,
                                  stream_start(seed, layout, PLAY_STREAM), belot_open, view, False, no_record,
                                  no_record, ctx, tt, scratch, search)
                    store_result(small_out, points_out, row, dealer, contracts[k], declarer, multiplier, 0, r)
            chunk = next_chunk(counter)


@njit(cache=True)
def bulgarian_scores(contracts, raw_bidding, raw_defenders, multiplier, trailing_point, out):
    """Match points ``(bidding, defenders, hanging)`` per row under ``multiplier`` into ``out``
    (int64[3, rows]): the doubled/redoubled value of the same play."""
    for i in range(len(contracts)):
        _, b, d, h = score_bulgarian(contracts[i], raw_bidding[i], raw_defenders[i], multiplier, trailing_point)
        out[0, i] = b
        out[1, i] = d
        out[2, i] = h


@njit(cache=True, parallel=True)
def screen_layouts(seed, start, n, fixed_pack, free, calls, dealer, family, flags, models, skip_seat, weights,
                   accept_out):
    """Candidate layouts ``start .. start+n-1``: ``accept_out[i]`` is 1 when the pack of candidate
    ``start + i`` (:func:`auction_pack`) replays ``calls`` under the bidder ``models``
    (:func:`~belot_sim.kernels.bid_models.consistent.first_mismatch`; ``skip_seat``'s calls are not
    checked), else 0."""
    turned_card = fixed_pack[TURNED_CARD] if family == 1 else -1
    n_chunks = (n + SCREEN_CHUNK - 1) // SCREEN_CHUNK
    for chunk in prange(n_chunks):
        pack = np.empty(32, dtype=np.int64)
        work = np.empty(32, dtype=np.int64)
        hands5 = np.empty(4, dtype=np.int64)
        state = np.empty(A_SIZE, dtype=np.int64)
        for i in range(chunk * SCREEN_CHUNK, min(n, (chunk + 1) * SCREEN_CHUNK)):
            auction_pack(seed, start + i, fixed_pack, free, work, pack)
            auction_hands(pack, dealer, hands5)
            accept_out[i] = first_mismatch(calls, len(calls), hands5, dealer, family, flags, turned_card,
                                           models, skip_seat, state, weights) < 0


@njit(cache=True)
def auction_pack(seed, candidate, fixed_pack, free, work, pack):
    """The pack of candidate layout ``candidate``: the ``fixed_pack`` positions, the ``free`` cards
    shuffled into the others from the candidate's own stream."""
    draw_pack(stream_start(seed, candidate, DEAL_STREAM), fixed_pack, free, work, pack)


@njit(cache=True, parallel=True, nogil=True)
def auction_rollout(seed, candidates, fixed_pack, free, contracts, declarer, dealer, multiplier, family, flags,
                    players, worlds, small_out, hands_out, points_out, auction_out, n_workers, search):
    """Play the packs of ``candidates`` (accepted by :func:`screen_layouts`) once per contract, as
    :func:`estimate_rollout` plays its layouts: row ``i * len(contracts) + k`` is candidate
    ``candidates[i]`` under ``contracts[k]``, dealt to the seats as a deal with that dealer and
    declarer is (docs/rules.md §12.1), played with the candidate's own play and world streams.
    ``auction_out`` uint32[AH_SIZE, rows] receives the auction-time cards; ``n_workers`` and the
    work items as in :func:`estimate_rollout` (which thread plays a candidate never changes it)."""
    n = len(candidates)
    k_contracts = len(contracts)
    chunk_size = SEARCH_CHUNK if search is not None else CHUNK
    n_chunks = (n + chunk_size - 1) // chunk_size
    counter = np.zeros(1, dtype=np.int64)
    for _worker in prange(workers(n_workers, n_chunks)):  # each thread takes chunks as it becomes free (core/work.py)
        pack = np.empty(32, dtype=np.int64)
        work = np.empty(32, dtype=np.int64)
        hands5 = np.empty(4, dtype=np.int64)
        hands = np.empty(4, dtype=np.int64)
        played = np.empty(4, dtype=np.int64)
        belot_open, view, no_record, ctx, tt, scratch = play_scratch(players, worlds, search)
        chunk = next_chunk(counter)
        while chunk < n_chunks:
            for i in range(chunk * chunk_size, min(n, (chunk + 1) * chunk_size)):
                layout = candidates[i]
                auction_pack(seed, layout, fixed_pack, free, work, pack)
                auction_hands(pack, dealer, hands5)
                if family == 1:
                    classic_final_hands(pack, dealer, declarer, hands)
                else:
                    hands_from_pack(pack, dealer, hands)
                for k in range(k_contracts):
                    row = i * k_contracts + k
                    for s in range(4):
                        played[s] = hands[s]
                        hands_out[s, row] = hands[s]
                    store_auction(auction_out, row, hands5, pack, family)
                    scratch[SS_TURNED_CARD] = pack[TURNED_CARD] if family == 1 else -1  # shown in play
                    if search is not None:
                        start_deal(scratch, stream_start(seed, layout, WORLD_STREAM), scratch[SS_TURNED_CARD])
                    r = play_deal(played, dealer, contracts[k], declarer, multiplier, family, flags, players,
                                  stream_start(seed, layout, PLAY_STREAM), belot_open, view, False, no_record,
                                  no_record, ctx, tt, scratch, search)
                    store_result(small_out, points_out, row, dealer, contracts[k], declarer, multiplier, 0, r)
            chunk = next_chunk(counter)


@njit(cache=True)
def finish_calls(state, hands5, family, flags, turned_card, bidders, ints, weights, rng):
    """Let every seat call as its bidder (``bidders[seat]``, the auction loop's dispatch) until the auction
    in ``state`` ends; returns the advanced ``rng``."""
    all_no_trumps = (flags & ALL_NO_TRUMPS) != 0
    turned_suit = turned_card >> 3 if family == 1 else -1
    while state[A_OVER] == 0 and state[A_N_CALLS] < MAX_CALLS:
        seat = state[A_TO_MOVE]
        legal = legal_calls(state, seat, family, all_no_trumps, turned_suit)
        rng, u = next_u64(rng)
        code = choose_call(bidders[seat], legal, u >> np.uint64(32), hands5[seat], seat, state, family, turned_card,
                           ints, weights)
        if code < 0 or code >= N_CODES or not (legal >> code) & 1:
            code = PASS  # as the auction loop: a bad choice never breaks the rules
        apply_call(state, code, family, all_no_trumps, turned_suit)
    return rng


@njit(cache=True, parallel=True, nogil=True)
def call_rollout(seed, candidates, fixed_pack, free, calls, dealer, codes, family, flags, bidders, ints, weights,
                 players, worlds, values_out, n_workers, search):
    """The value of each call ``codes[k]`` of the seat to move after ``calls`` on the packs of
    ``candidates`` (accepted by :func:`screen_layouts`): the call made, every seat (the caller too) calling
    as its bidder until the auction ends (the same auction stream for every call of a candidate), the final
    contract played with ``players`` on the candidate's play and world streams (:func:`auction_rollout`'s);
    ``values_out[i, k]`` the caller's team's match points minus the other team's (a void deal 0).  Endings
    shared by several calls are played once (:func:`.endings.ending_value`)."""
    n = len(candidates)
    chunk_size = SEARCH_CHUNK if search is not None else CHUNK
    n_chunks = (n + chunk_size - 1) // chunk_size
    counter = np.zeros(1, dtype=np.int64)
    all_no_trumps = (flags & ALL_NO_TRUMPS) != 0
    for _worker in prange(workers(n_workers, n_chunks)):
        pack = np.empty(32, dtype=np.int64)
        work = np.empty(32, dtype=np.int64)
        hands5 = np.empty(4, dtype=np.int64)
        start = np.empty(A_SIZE, dtype=np.int64)
        after = np.empty(A_SIZE, dtype=np.int64)
        memo = np.empty((len(codes), 3), dtype=np.int64)
        belot_open, view, no_record, ctx, tt, scratch = play_scratch(players, worlds, search)
        play = (belot_open, view, no_record, ctx, tt, scratch, np.empty(4, dtype=np.int64))
        chunk = next_chunk(counter)
        while chunk < n_chunks:
            for i in range(chunk * chunk_size, min(n, (chunk + 1) * chunk_size)):
                layout = candidates[i]
                auction_pack(seed, layout, fixed_pack, free, work, pack)
                auction_hands(pack, dealer, hands5)
                turned_card = pack[TURNED_CARD] if family == 1 else -1
                turned_suit = turned_card >> 3 if family == 1 else -1
                auction_start(start, dealer, family, turned_suit)
                for c in calls:
                    apply_call(start, c, family, all_no_trumps, turned_suit)
                caller = start[A_TO_MOVE]
                memo_n = 0
                for k in range(len(codes)):
                    after[:] = start
                    apply_call(after, codes[k], family, all_no_trumps, turned_suit)
                    finish_calls(after, hands5, family, flags, turned_card, bidders, ints, weights,
                                 stream_start(seed, layout, AUCTION_STREAM))
                    value, memo_n = ending_value(after, pack, dealer, family, flags, players,
                                                 stream_start(seed, layout, PLAY_STREAM),
                                                 stream_start(seed, layout, WORLD_STREAM), memo, memo_n, play, search)
                    values_out[i, k] = value if caller & 1 == 0 else -value
            chunk = next_chunk(counter)
