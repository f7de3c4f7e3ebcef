"""Labelled decisions: every decision with a choice in recorded deals, as the seat to move saw it
(its observation, :mod:`belot_sim.kernels.players.encoding`), with

* the exact double-dummy value of each of its legal cards in the true deal
  (:func:`belot_sim.kernels.solver.api.dd_moves`, :func:`label_deals`) — the labels the ``neural``
  network learns to predict from the observation alone;
* the seat that holds each card it cannot see (:func:`owner_deals`) — the card-ownership model's
  labels (:mod:`belot_sim.kernels.players.owners`), free in the engine's own deals.

Over many deals the best predictor of a card's value from what the seat knows is its mean
double-dummy value over the layouts the seat cannot tell apart, which is what ``pimc`` estimates by
sampling; the network learns it once instead of searching at every decision.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..kernels.core.bits import ctz, popcount
from ..kernels.core.layouts import (C_SEARCH_FN, C_SIZE, H_CARDS, H_CONTRACT, H_DEALER, H_DECLARER, H_FAMILY, H_FLAGS,
                                    H_INITIAL, H_MULTIPLIER, H_N_PLAYED, H_SIZE, H_TURNED, O_SIZE, SCRATCH_SIZE,
                                    V_AT_OVERTAKE_PARTNER, V_LEADER, V_PLAYED, V_POS, V_SIZE, V_TRICK_CARD,
                                    V_UNDERTRUMP_REQUIRED)
from ..kernels.core.tables import NT
from ..kernels.players.encoding import encode_play, swap_card, swap_mask
from ..kernels.players.neural import INPUTS
from ..kernels.players.position import legal_now, replay_view
from ..kernels.players.sampling import _team_may_valat
from ..kernels.players.scratch import new_gen
from ..kernels.solver.api import dd_moves

#: 64-bit words of one packed observation (its first :data:`INPUTS` entries, bit ``i % 64`` of word ``i // 64``).
WORDS = (INPUTS + 63) // 64
#: Solver table bits per thread (1 MiB, as the searching players use).
TT_BITS = 16
#: ``values`` entry of a card that is not legal.
NOT_LEGAL = -1
#: ``owners`` entry of a card the seat can see (its own, or played).
SEEN = 0


@njit(cache=True)
def pack_bits(obs, inputs, words):
    """``words`` (uint64) = the 0/1 entries ``obs[:inputs]``, entry ``i`` as bit ``i % 64`` of word ``i // 64``."""
    for w in range(len(words)):
        words[w] = 0
    for i in range(inputs):
        if obs[i]:
            words[i >> 6] |= np.uint64(1) << np.uint64(i & 63)


@njit(cache=True, inline="always")
def decision_at(record, hands, view, k):
    """Replay the finished deal in ``record`` to its ``k``-th card (``view`` holds the position):
    ``(seat to move, its hand, its legal cards)``."""
    record[H_N_PLAYED] = k
    replay_view(view, record)
    seat = (view[V_LEADER] + view[V_POS]) & 3
    hand = hands[seat] & ~view[V_PLAYED]
    return seat, hand, legal_now(hand, seat, view)


@njit(cache=True)
def label_deal(record, hands, ctx, tt, scratch, view, obs, bits_out, values_out, legal_out, played_out, row):
    """Label the decisions with a choice of the deal in ``record`` (layout HISTORY, every card
    played); rows from ``row`` on; returns the next free row."""
    contract = record[H_CONTRACT]
    family = record[H_FAMILY]
    swap = contract if contract < NT else 0
    gens = (new_gen(scratch, tt), new_gen(scratch, tt))
    out = np.empty(32, dtype=np.int64)
    current = np.empty(4, dtype=np.int64)
    for k in range(32):
        seat, hand, legal = decision_at(record, hands, view, k)
        if popcount(legal) < 2:
            continue
        for s in range(4):
            current[s] = hands[s] & ~view[V_PLAYED]
        team = seat & 1
        dd_moves(current, view[V_LEADER], view[V_TRICK_CARD:V_TRICK_CARD + 4], view[V_POS], contract, team, family,
                 view[V_UNDERTRUMP_REQUIRED] == 1, view[V_AT_OVERTAKE_PARTNER] == 1, _team_may_valat(view, team),
                 ctx, tt, gens[team], out)
        encode_play(obs, seat, hand, view, swap)
        pack_bits(obs, INPUTS, bits_out[row])
        for c in range(32):
            values_out[row, c] = NOT_LEGAL
        m = legal
        while m:
            c = ctz(m)
            m &= m - 1
            values_out[row, swap_card(c, swap)] = out[c]
        legal_out[row] = swap_mask(legal, swap)
        played_out[row] = swap_card(record[H_CARDS + k], swap)
        row += 1
    return row


@njit(cache=True)
def fill_finished_record(record, dealer, contract, declarer, multiplier, family, flags, hands, cards):
    """A finished deal's HISTORY record (the 32 cards in the order played; no turned card)."""
    record[H_DEALER] = dealer
    record[H_CONTRACT] = contract
    record[H_DECLARER] = declarer
    record[H_MULTIPLIER] = multiplier
    record[H_FAMILY] = family
    record[H_FLAGS] = flags
    record[H_TURNED] = -1
    for s in range(4):
        record[H_INITIAL + s] = hands[s]
    for k in range(32):
        record[H_CARDS + k] = cards[k]


@njit(cache=True, parallel=True)
def label_deals(dealer, contract, declarer, multiplier, hands, cards, family, flags, search, n_threads,
                bits_out, values_out, legal_out, played_out, counts):
    """Label every deal ``i`` (its dealt ``hands[i]``, its 32 ``cards[i]`` in the order played); deal
    ``i``'s rows are ``32 * i .. 32 * i + counts[i] - 1`` of the outputs (``bits_out`` uint64[32n, WORDS],
    ``values_out`` int16[32n, 32], ``legal_out`` int64[32n], ``played_out`` int8[32n]: the card the
    deal's player chose).  Cards are indexed with the trump of a suit
    contract named clubs, as the network reads them.  ``search``: the solver's addresses."""
    n = len(dealer)
    for t in prange(n_threads):
        record = np.zeros(H_SIZE, dtype=np.int64)
        ctx = np.zeros(C_SIZE, dtype=np.int64)
        ctx[C_SEARCH_FN] = search[0]
        ctx[C_SEARCH_FN + 1] = search[1]
        tt = np.zeros(2 << TT_BITS, dtype=np.int64)
        scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
        view = np.zeros(V_SIZE, dtype=np.int64)
        obs = np.zeros(O_SIZE, dtype=np.int8)
        deal_hands = record[H_INITIAL:H_INITIAL + 4]  # the dealt hands, as each record is filled
        for i in range(t * n // n_threads, (t + 1) * n // n_threads):
            fill_finished_record(record, dealer[i], contract[i], declarer[i], multiplier[i], family, flags, hands[i],
                                 cards[i])
            counts[i] = label_deal(record, deal_hands, ctx, tt, scratch, view, obs, bits_out, values_out, legal_out,
                                   played_out, 32 * i) - 32 * i


@njit(cache=True)
def owner_deal(record, hands, view, obs, bits_out, owners_out, trick_out, row):
    """The ownership rows of the deal in ``record`` (layout HISTORY, every card played), from ``row`` on:
    per decision with a choice, the packed observation, for each card (indexed as the network reads
    them) the holder relative to the seat to move (1..3; :data:`SEEN`: none hidden) and the trick.
    Returns the next free row."""
    contract = record[H_CONTRACT]
    swap = contract if contract < NT else 0
    for k in range(32):
        seat, hand, legal = decision_at(record, hands, view, k)
        if popcount(legal) < 2:
            continue
        encode_play(obs, seat, hand, view, swap)
        pack_bits(obs, INPUTS, bits_out[row])
        for c in range(32):
            owners_out[row, c] = SEEN
        for s in range(4):
            if s != seat:
                m = hands[s] & ~view[V_PLAYED]
                while m:
                    c = ctz(m)
                    m &= m - 1
                    owners_out[row, swap_card(c, swap)] = (s - seat) & 3
        trick_out[row] = k >> 2
        row += 1
    return row


@njit(cache=True, parallel=True)
def owner_deals(dealer, contract, declarer, multiplier, hands, cards, family, flags, n_threads, bits_out, owners_out,
                trick_out, counts):
    """:func:`owner_deal` for every deal ``i`` (arguments as :func:`label_deals`'); deal ``i``'s rows are
    ``32 * i .. 32 * i + counts[i] - 1`` of ``bits_out`` (uint64[32n, WORDS]), ``owners_out`` (int8[32n, 32])
    and ``trick_out`` (int8[32n])."""
    n = len(dealer)
    for t in prange(n_threads):
        record = np.zeros(H_SIZE, dtype=np.int64)
        view = np.zeros(V_SIZE, dtype=np.int64)
        obs = np.zeros(O_SIZE, dtype=np.int8)
        deal_hands = record[H_INITIAL:H_INITIAL + 4]  # the dealt hands, as each record is filled
        for i in range(t * n // n_threads, (t + 1) * n // n_threads):
            fill_finished_record(record, dealer[i], contract[i], declarer[i], multiplier[i], family, flags, hands[i],
                                 cards[i])
            counts[i] = owner_deal(record, deal_hands, view, obs, bits_out, owners_out, trick_out, 32 * i) - 32 * i
