"""A call at any recorded point of an auction: what :meth:`belot_sim.Bot.bid` asks.

The auction comes as its state array (layout :data:`belot_sim.kernels.core.layouts.AUCTION`), the
seat to call sees its 5 cards and, in classic, the turned card; :func:`bot_call` hands it to the
bidders' dispatch (:func:`.choose.choose_call`) exactly as the auction loop does.  Random values:
with ``deal_id >= 0`` the call draws from that deal's auction stream (call ``n`` = calls made so far,
as :func:`.auction_loop.run_auction_params` draws); with ``deal_id = -1`` from a stream keyed by a
digest of what the seat knows (the auction, its cards, the turned card).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.auction_rules import FAMILY_CLASSIC, N_CODES, PASS, legal_calls
from ..core.layouts import A_CALLS, A_N_CALLS, A_TO_MOVE
from ..core.rng import AUCTION_STREAM, GOLDEN, fold, next_u64, nth_r32, stream_start
from .choose import choose_call


@njit(cache=True)
def bot_call(bidder, state, hand5, turned_card, family, all_no_trumps, ints, weights, seed, deal_id):
    """The call code ``bidder`` makes for the seat to move in the auction ``state``."""
    seat = state[A_TO_MOVE]
    turned_suit = turned_card >> 3 if family == FAMILY_CLASSIC else -1
    legal = legal_calls(state, seat, family, all_no_trumps, turned_suit)
    if deal_id >= 0:
        r32 = nth_r32(stream_start(seed, deal_id, AUCTION_STREAM), state[A_N_CALLS])
    else:
        key = fold(fold(GOLDEN * np.uint64(seat + 1), hand5), turned_card)
        for i in range(A_CALLS):  # the state without its history (the calls only led to it)
            key = fold(key, state[i])
        _, u = next_u64(stream_start(seed, key, AUCTION_STREAM))
        r32 = u >> np.uint64(32)
    code = choose_call(bidder, legal, r32, hand5, seat, state, family, turned_card, ints, weights)
    if code < 0 or code >= N_CODES or not (legal >> code) & 1:
        code = PASS  # as the auction loop: a bad choice never breaks the rules
    return code
