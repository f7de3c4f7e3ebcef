"""An auction's ending played out from its pack: what a call is worth once the auction after it is over.

Both :func:`belot_sim.kernels.batch.estimate.call_rollout` (a bid table's call values) and the ``neural``
bidder's labels (:mod:`belot_sim.training.call_labels`) make several calls on one pack, finish each
auction and play its ending; calls that end in the same contract, declarer and multiplier share one
playout through a small memo.
"""

from __future__ import annotations

from numba import njit

from ..core.dealing import TURNED_CARD, classic_final_hands, hands_from_pack
from ..core.layouts import A_CONTRACT, A_DECLARER, A_MULTIPLIER, A_VOID, R_SCORE0, R_SCORE1, SS_TURNED_CARD
from ..play_loop import play_deal
from ..players.scratch import start_deal

#: Rows of a memo (int64[MEMO, 3]: an ending's key and each team's points); endings past it are played each time.
MEMO = 32


@njit(cache=True)
def ending_value(after, pack, dealer, family, flags, players, play_seed, world_seed, memo, memo_n, work, search):
    """Team 0's match points minus team 1's (:func:`ending_scores`); returns ``(value, memo_n)``."""
    score0, score1, memo_n = ending_scores(after, pack, dealer, family, flags, players, play_seed, world_seed, memo,
                                           memo_n, work, search)
    return score0 - score1, memo_n


@njit(cache=True)
def ending_scores(after, pack, dealer, family, flags, players, play_seed, world_seed, memo, memo_n, work, search):
    """Each team's match points for the auction that ended in ``after`` (0 and 0 when void), its
    final hands dealt from ``pack`` to the declarer it ended with (docs/rules.md §12.1; the classic turned
    card shown), played with ``players`` from the streams ``play_seed`` and ``world_seed`` (searching
    players; ``search`` as :func:`belot_sim.kernels.play_loop.play_deal`'s).  An ending already in ``memo``
    (its first ``memo_n`` rows) is not played again.  ``work``: :func:`belot_sim.kernels.play_loop.play_scratch`'s
    arrays and an int64[4] for the hands.  Returns ``(score0, score1, memo_n)``."""
    if after[A_VOID]:
        return 0, 0, memo_n
    contract, declarer, multiplier = after[A_CONTRACT], after[A_DECLARER], after[A_MULTIPLIER]
    key = (contract * 4 + declarer) * 8 + multiplier
    for m in range(memo_n):
        if memo[m, 0] == key:
            return memo[m, 1], memo[m, 2], memo_n
    belot_open, view, no_record, ctx, tt, scratch, hands = work
    if family == 1:
        classic_final_hands(pack, dealer, declarer, hands)
    else:
        hands_from_pack(pack, dealer, hands)
    turned_card = pack[TURNED_CARD] if family == 1 else -1
    scratch[SS_TURNED_CARD] = turned_card  # shown in play
    if search is not None:
        start_deal(scratch, world_seed, turned_card)
    r = play_deal(hands, dealer, contract, declarer, multiplier, family, flags, players, play_seed, belot_open, view,
                  False, no_record, no_record, ctx, tt, scratch, search)
    if memo_n < len(memo):
        memo[memo_n, 0] = key
        memo[memo_n, 1] = r[R_SCORE0]
        memo[memo_n, 2] = r[R_SCORE1]
        memo_n += 1
    return r[R_SCORE0], r[R_SCORE1], memo_n
