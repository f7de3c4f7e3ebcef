"""A whole deal from a shuffled pack: the auction on the 5-card hands, then the play; and the
per-thread arrays and output columns the batch kernels share."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bidding.auction_loop import run_auction_params
from ..core.dealing import TURNED_CARD, auction_hands, classic_final_hands, hands_from_pack
from ..core.layouts import (AH_HAND, AH_TURNED, A_SIZE, D_CALLS, D_CONTRACT, D_DEALER, D_DECLARER, D_MULTIPLIER,
                            D_OUTCOME, D_VALAT, NO_TURNED_CARD, P_BELOT0, P_BELOT1, P_DECLARED0, P_DECLARED1, P_HANGING,
                            P_RAW0, P_RAW1, P_SCORE0, P_SCORE1, P_TRICK_POINTS0, P_TRICK_POINTS1, R_BELOT0, R_BELOT1,
                            R_DECLARED0, R_DECLARED1, R_HANGING, R_OUTCOME, R_RAW0, R_RAW1, R_SCORE0, R_SCORE1,
                            R_TRICK_POINTS0, R_TRICK_POINTS1, R_VALAT, SS_TURNED_CARD)
from ..core.rng import AUCTION_STREAM, PLAY_STREAM, WORLD_STREAM, stream_start
from ..core.rule_flags import ALL_NO_TRUMPS
from ..core.scoring import VOID
from ..play_loop import play_deal
from ..players.inference import start_auction
from ..players.scratch import start_deal


@njit(cache=True)
def deal_scratch():
    """One thread's arrays for dealing a pack and holding its auction (:func:`auction_and_play`):
    ``(pack, hands, hands5, auction_state)``."""
    return (np.empty(32, dtype=np.int64), np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64),
            np.empty(A_SIZE, dtype=np.int64))


@njit(cache=True, inline="always")
def store_result(small_out, points_out, i, dealer, contract, declarer, multiplier, n_calls, r):
    """Column ``i`` of the batch outputs from a :func:`~belot_sim.kernels.play_loop.play_deal`
    result ``r``: ``small_out`` int8[D_SIZE, n] and ``points_out`` int16[P_SIZE, n], rows as
    :data:`~belot_sim.kernels.core.layouts.DEAL_SMALL` / :data:`~belot_sim.kernels.core.layouts.DEAL_POINTS`."""
    small_out[D_DEALER, i] = dealer
    small_out[D_CONTRACT, i] = contract
    small_out[D_DECLARER, i] = declarer
    small_out[D_VALAT, i] = r[R_VALAT]
    small_out[D_OUTCOME, i] = r[R_OUTCOME]
    small_out[D_MULTIPLIER, i] = multiplier
    small_out[D_CALLS, i] = n_calls
    points_out[P_TRICK_POINTS0, i] = r[R_TRICK_POINTS0]
    points_out[P_TRICK_POINTS1, i] = r[R_TRICK_POINTS1]
    points_out[P_DECLARED0, i] = r[R_DECLARED0]
    points_out[P_DECLARED1, i] = r[R_DECLARED1]
    points_out[P_BELOT0, i] = r[R_BELOT0]
    points_out[P_BELOT1, i] = r[R_BELOT1]
    points_out[P_RAW0, i] = r[R_RAW0]
    points_out[P_RAW1, i] = r[R_RAW1]
    points_out[P_SCORE0, i] = r[R_SCORE0]
    points_out[P_SCORE1, i] = r[R_SCORE1]
    points_out[P_HANGING, i] = r[R_HANGING]


@njit(cache=True, inline="always")
def store_auction(auction_out, i, hands5, pack, family):
    """Column ``i`` of ``auction_out`` (uint32[AH_SIZE, n], rows as
    :data:`~belot_sim.kernels.core.layouts.DEAL_AUCTION`): the 5-card hands the auction was held on
    and, in classic, the turned card."""
    for s in range(4):
        auction_out[AH_HAND + s, i] = hands5[s]
    auction_out[AH_TURNED, i] = pack[TURNED_CARD] if family == 1 else NO_TURNED_CARD


@njit(cache=True)
def auction_and_play(seed, deal_id, dealer, pack, family, flags, bidders, bid_ints, bid_weights, players, hands5,
                     hands, auction_state, calls, belot_open, view, record, play_seat, play_card, ctx, tt, scratch,
                     search, score0=0, score1=0):
    """A whole deal from a shuffled ``pack``: the auction on the 5-card hands (docs/rules.md §3, §4),
    then, unless everybody passed, the 8-card hands and the play.

    The auction draws from the deal's ``AUCTION_STREAM``, the play from its ``PLAY_STREAM`` and a
    ``pimc`` player's layouts from its ``WORLD_STREAM``.  ``score0``/``score1``: in a match, the points
    each team holds towards a 151 target (:func:`.match.bidder_score`).  ``hands`` receives the final hands (the
    5-card hands of a void deal); ``calls`` (int8[MAX_CALLS]) the call codes.

    Returns ``(contract, declarer, multiplier, n_calls, result)``: ``result`` as
    :func:`~belot_sim.kernels.play_loop.play_deal`
    returns it; a void deal has contract -1 and a zero result with outcome ``VOID``.
    """
    auction_hands(pack, dealer, hands5)
    turned = pack[TURNED_CARD] if family == 1 else -1
    arng = stream_start(seed, deal_id, AUCTION_STREAM)
    arng, contract, declarer, multiplier, n_calls = run_auction_params(
        hands5, dealer, family, (flags & ALL_NO_TRUMPS) != 0, turned, bidders, arng, auction_state, calls, bid_ints,
        bid_weights, score0, score1)
    rng = stream_start(seed, deal_id, PLAY_STREAM)
    if contract < 0:
        for s in range(4):
            hands[s] = hands5[s]
        return contract, declarer, multiplier, n_calls, (rng, 0, 0, 0, 0, 0, 0, -1, 0, 0, VOID, 0, 0, 0)
    if family == 1:
        classic_final_hands(pack, dealer, declarer, hands)
    else:
        hands_from_pack(pack, dealer, hands)
    scratch[SS_TURNED_CARD] = turned  # shown to the players who read it (sampling players, neural)
    if search is not None:
        start_deal(scratch, stream_start(seed, deal_id, WORLD_STREAM), turned)
        start_auction(scratch, calls, n_calls, dealer, flags, bidders, hands5, bid_weights)
    played = hands.copy()
    r = play_deal(played, dealer, contract, declarer, multiplier, family, flags, players, rng, belot_open, view,
                  record, play_seat, play_card, ctx, tt, scratch, search)
    return contract, declarer, multiplier, n_calls, r
