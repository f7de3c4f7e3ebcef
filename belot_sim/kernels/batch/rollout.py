"""Batch rollouts: deal, play and score many deals in parallel (fixed or random contracts).

Everything here takes arrays and scalars.  :mod:`belot_sim.simulation.deals` wraps it into DataFrames.
Deal ``deal_id`` uses only its own random streams (:mod:`belot_sim.kernels.core.rng`), so the output
rows are independent of threads and chunking.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..bidding.choose import MC_BIDDER
from ..core.auction_rules import MAX_CALLS
from ..core.dealing import deal_pack, hands_from_pack
from ..core.rng import CONTRACT_STREAM, PLAY_STREAM, WORLD_STREAM, below, stream_start
from ..core.work import next_chunk, workers
from ..play_loop import play_deal, play_scratch
from ..players.scratch import start_deal
from .deal import auction_and_play, deal_scratch, store_auction, store_result

CHUNK = 512  # deals a worker takes at a time (core/work.py)
#: The same when a deal costs milliseconds (a searching player, an mc bidder): one deal at a time,
#: so the short calls of a run cut into blocks (belot_sim/engine/runs.py) keep every thread busy to the end.
SEARCH_CHUNK = 1


@njit(cache=True)
def slow_bidders(bidders):
    """Does a seat bid with ``mc`` (which plays layouts for each call)?  ``None``: no auction."""
    if bidders is None:
        return False
    for seat in range(4):
        if bidders[seat] == MC_BIDDER:
            return True
    return False


@njit(cache=True, parallel=True, nogil=True)
def rollout(seed, start, first, n, contracts, random_contract, n_contracts, fixed_declarer, multiplier, family, flags,
            players, worlds, record, bidders, bid_ints, bid_weights, small_out, hands_out, points_out, play_seat_out,
            play_card_out, calls_out, n_workers, search, auction_out):
    """Play deals ``start + first .. start + n - 1`` into columns ``first .. n - 1`` of column-major
    outputs (of at least ``n`` columns: a run in blocks fills one set of outputs).

    With ``bidders`` (int64[4]) the contract, declarer and multiplier come from an auction between the
    per-seat ``bidders`` (:func:`.deal.auction_and_play`; void deals are rows with contract -1 and
    outcome ``VOID``) and ``calls_out[i]`` (int8[MAX_CALLS]) receives deal ``i``'s calls.  Without
    it the contract of deal ``d`` is ``contracts[d % len(contracts)]``, or uniform over the first
    ``n_contracts`` when ``random_contract``; declarer ``fixed_declarer``, or uniform when -1.
    ``flags``: the rule options (:mod:`belot_sim.kernels.core.rule_flags`).
    ``small_out`` int8[D_SIZE, n] and ``points_out`` int16[P_SIZE, n]: rows as
    :data:`~belot_sim.kernels.core.layouts.DEAL_SMALL` / ``DEAL_POINTS``; ``hands_out`` uint32[4, n];
    ``play_*_out`` int8[n, 32] when ``record``.
    ``worlds``: layouts per ``pimc`` decision.

    ``n_workers``: parallel workers, one per Numba thread of the caller; each takes chunks of deals
    as it becomes free (:mod:`..core.work`).  The kernel releases the GIL (the caller may write the
    previous block to disk meanwhile, belot_sim/datasets/writing.py).
    ``bidders`` is ``None`` without an auction; ``search`` is ``None`` unless a seat plays
    ``dd``/``pimc`` (then the search's addresses, :func:`belot_sim.kernels.solver.api.search_entries`).
    Numba compiles one kernel per combination of these types and prunes the branches for ``None``
    before typing, so a plain simulation never compiles the bidders or the solver (a cold start
    stays short).

    ``auction_out`` uint32[AH_SIZE, n] (rows :data:`~belot_sim.kernels.core.layouts.DEAL_AUCTION`)
    receives, with ``bidders``, the 5-card hands of the auction and the classic turned card.
    """
    searching = search is not None
    chunk_size = SEARCH_CHUNK if searching or slow_bidders(bidders) else CHUNK
    n_chunks = (n - first + chunk_size - 1) // chunk_size
    counter = np.zeros(1, dtype=np.int64)
    for _worker in prange(workers(n_workers, n_chunks)):  # each thread takes chunks as it becomes free (core/work.py)
        pack, hands, hands5, auction_state = deal_scratch()
        no_calls = np.empty(MAX_CALLS, dtype=np.int8)
        belot_open, view, no_record, ctx, tt, scratch = play_scratch(players, worlds, search)
        chunk = next_chunk(counter)
        while chunk < n_chunks:
            for i in range(first + chunk * chunk_size, min(n, first + (chunk + 1) * chunk_size)):
                deal_id = start + i
                dealer = deal_pack(seed, deal_id, pack)
                seats = play_seat_out[i] if record else no_record
                cards = play_card_out[i] if record else no_record
                if bidders is None:
                    hands_from_pack(pack, dealer, hands)
                    crng = stream_start(seed, deal_id, CONTRACT_STREAM)
                    if random_contract:
                        crng, contract = below(crng, n_contracts)
                    else:
                        contract = contracts[deal_id % len(contracts)]
                    declarer = fixed_declarer
                    if declarer < 0:
                        crng, declarer = below(crng, 4)
                    deal_multiplier = multiplier
                    n_calls = 0
                    for s in range(4):
                        hands_out[s, i] = hands[s]
                    if searching:
                        start_deal(scratch, stream_start(seed, deal_id, WORLD_STREAM))
                    r = play_deal(hands, dealer, contract, declarer, multiplier, family, flags, players,
                                  stream_start(seed, deal_id, PLAY_STREAM), belot_open, view, record, seats, cards, ctx,
                                  tt, scratch, search)
                else:
                    contract, declarer, deal_multiplier, n_calls, r = auction_and_play(
                        seed, deal_id, dealer, pack, family, flags, bidders, bid_ints, bid_weights, players, hands5,
                        hands, auction_state, calls_out[i] if len(calls_out) else no_calls, belot_open, view, record,
                        seats, cards, ctx, tt, scratch, search, 0, 0)
                    for s in range(4):
                        hands_out[s, i] = hands[s]
                    store_auction(auction_out, i, hands5, pack, family)
                store_result(small_out, points_out, i, dealer, contract, declarer, deal_multiplier, n_calls, r)
            chunk = next_chunk(counter)
