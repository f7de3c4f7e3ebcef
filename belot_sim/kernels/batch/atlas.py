"""The bid atlas's playouts: many (5-card hand class, contract, position) rows, each played out on
``samples`` uniform layouts around a uniformly drawn member of the class with no auction, reduced to
counts and sums in parallel (belot_sim/estimates/atlas.py builds the table from them).

A class is a hand up to a permutation of the suits (the trump suit going with its cards).  ``hard``
breaks its ties by card index (clubs first), so the members of a class do not all play alike
(docs/bidding.md, "The bid atlas"): every layout relabels the suits by a permutation drawn from its
own stream, and a row is the mean over the class's members."""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit, prange

from ..bid_models.consistent import draw_pack, own_pack
from ..core.dealing import hands_from_pack
from ..core.layouts import R_OUTCOME, R_RAW0, R_RAW1, R_SCORE0, R_SCORE1
from ..core.rng import DEAL_STREAM, PLAY_STREAM, below, stream_start
from ..core.scoring import HANGING, MADE
from ..play_loop import play_deal, play_scratch

#: Columns of :func:`atlas_rollout`'s output.
A_MADE, A_HANGING, A_SCORE_B, A_SCORE_D, A_RAW_B, A_RAW_D = range(6)
ATLAS_COLUMNS = 6
#: Layout ``k`` of row ``r`` uses the streams of id ``r * ROW_STRIDE + k``.
ROW_STRIDE = 1 << 20
#: The dealer of every atlas layout (position ``p`` is then seat ``p``).
ATLAS_DEALER = 3
#: The 24 permutations of the suits: layout ``k`` moves suit ``s`` to ``SUIT_PERMUTATIONS[j, s]``.
SUIT_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
SUIT_PERMUTATIONS.flags.writeable = False


@njit(cache=True, inline="always")
def permute_suits(mask, perm):
    """``mask`` with the cards of suit ``s`` moved to suit ``perm[s]`` (ranks kept)."""
    out = 0
    for s in range(4):
        out |= ((mask >> (8 * s)) & 0xFF) << (8 * perm[s])
    return out


@njit(cache=True, parallel=True)
def atlas_rollout(seed, row_ids, hands5, contracts, positions, samples, flags, players, out):
    """Row ``i``: the class of the 5-card hand ``hands5[i]`` declares ``contracts[i]`` from position
    ``positions[i]`` after the dealer (bulgarian rules ``flags``); ``samples`` layouts, layout ``k``
    from the streams of id ``row_ids[i] * ROW_STRIDE + k``: the other 27 cards shuffled, then every
    card's suit (and a suit contract's trump) relabelled by a uniformly drawn permutation of the suits,
    so the hand played is a uniformly drawn member of its class; each layout played by ``players``
    and scored.  ``out[i]`` (int64[ATLAS_COLUMNS]): deals made, deals hanging, and the
    sums of the bidding and defending teams' match points and raw points."""
    for i in prange(len(row_ids)):
        seat = (ATLAS_DEALER + 1 + positions[i]) & 3
        fixed_pack, free = own_pack(hands5[i], seat, ATLAS_DEALER, 0, -1)
        pack = np.empty(32, dtype=np.int64)
        work = np.empty(32, dtype=np.int64)
        hands = np.empty(4, dtype=np.int64)
        belot_open, view, no_record, ctx, tt, scratch = play_scratch(players, 1, None)
        totals = np.zeros(ATLAS_COLUMNS, dtype=np.int64)
        team = seat & 1
        for k in range(samples):
            layout = row_ids[i] * ROW_STRIDE + k
            rng = draw_pack(stream_start(seed, layout, DEAL_STREAM), fixed_pack, free, work, pack)
            hands_from_pack(pack, ATLAS_DEALER, hands)
            _, j = below(rng, 24)
            perm = SUIT_PERMUTATIONS[j]
            for s in range(4):
                hands[s] = permute_suits(hands[s], perm)
            contract = perm[contracts[i]] if contracts[i] < 4 else contracts[i]
            r = play_deal(hands, ATLAS_DEALER, contract, seat, 1, 0, flags, players,
                          stream_start(seed, layout, PLAY_STREAM), belot_open, view, False, no_record, no_record, ctx,
                          tt, scratch, None)
            totals[A_MADE] += 1 if r[R_OUTCOME] == MADE else 0
            totals[A_HANGING] += 1 if r[R_OUTCOME] == HANGING else 0
            totals[A_SCORE_B] += r[R_SCORE1] if team else r[R_SCORE0]
            totals[A_SCORE_D] += r[R_SCORE0] if team else r[R_SCORE1]
            totals[A_RAW_B] += r[R_RAW1] if team else r[R_RAW0]
            totals[A_RAW_D] += r[R_RAW0] if team else r[R_RAW1]
        out[i] = totals
