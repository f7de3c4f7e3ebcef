"""A decision at any recorded position of a deal: what :class:`belot_sim.Bot` asks.

The position comes as a record (layout :data:`belot_sim.kernels.core.layouts.HISTORY`): the rules,
dealer, contract and declarer, the dealt hands and the cards played so far.  :func:`replay_view`
rebuilds from it the public view (:mod:`.view`) exactly as :func:`belot_sim.kernels.play_loop.play_deal`
keeps it — every card recorded, the partner card of an announced belot, the declarations shown
after the first trick — and :func:`bot_card` hands the seat to move to the shared dispatch
(:func:`.decide.decide_card`) with only its own hand (every hand for a perfect-information player).
The dealt hands are read only for what the play announces to everyone.

Random values: with ``H_DEAL_ID >= 0`` the decision draws from that deal's play stream (decision
``n`` = cards played so far, as the play loop draws) and ``pimc`` continues the world stream the
caller keeps in ``scratch`` (started per deal as the batch kernels start it), so a bot replays
``simulate``'s choices; with
``H_DEAL_ID = -1`` both streams are keyed by a digest of what the seat knows (its view and hand), so
a decision is a pure function of the seed and the seat's knowledge.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.layouts import (H_CARDS, H_CONTRACT, H_DEALER, H_DEAL_ID, H_DECLARER, H_FAMILY, H_FLAGS, H_INITIAL,
                            H_MULTIPLIER, H_N_PLAYED, H_SEED, H_SEES_ALL, H_TURNED, SD_FINAL, SD_GEN, SS_TURNED_CARD,
                            V_AT_OVERTAKE_PARTNER, V_CONTRACT, V_LEADER, V_LED, V_PLAYED, V_POS, V_SIZE, V_TRICK,
                            V_UNDERTRUMP_REQUIRED, V_WINNER, V_WINNING)
from ..core.play import belot_cards, legal_mask
from ..core.rng import GOLDEN, PLAY_STREAM, WORLD_STREAM, fold, next_u64, nth_r32, stream_start
from ..core.rule_flags import AT_OVERTAKE, DECLARATIONS, UNDERTRUMP
from ..core.tables import NT, POINTS
from .decide import decide_card
from .scratch import start_deal
from .view import announce_belot, next_trick, record_card, show_declarations, show_turned, start_view


@njit(cache=True)
def replay_view(view, record):
    """Fill ``view`` with the public view after the cards of ``record``, as the play loop keeps it."""
    contract = record[H_CONTRACT]
    family = record[H_FAMILY]
    flags = record[H_FLAGS]
    start_view(view, contract, record[H_DECLARER], record[H_MULTIPLIER], (record[H_DEALER] + 1) & 3,
               (flags & UNDERTRUMP) != 0, (flags & AT_OVERTAKE) != 0)
    if family == 1:
        show_turned(view, record[H_TURNED])
    points = POINTS[family, contract]
    belot_open = np.zeros(4, dtype=np.int64)
    if contract != NT:
        for s in range(4):
            belot_open[s] = belot_cards(record[H_INITIAL + s], contract)
    for k in range(record[H_N_PLAYED]):
        card = record[H_CARDS + k]
        pos = view[V_POS]
        seat = (view[V_LEADER] + pos) & 3
        led_suit = view[V_LED]
        record_card(view, seat, card, points[card])
        suit = card >> 3
        if (belot_open[seat] >> card) & 1:  # the first of K/Q decides the belot, as in the play loop
            belot_open[seat] &= ~(0xFF << (8 * suit))
            if contract < NT or pos == 0 or suit == led_suit:
                announce_belot(view, seat, suit)
        if pos == 3:
            next_trick(view)
            if view[V_TRICK] == 1 and flags & DECLARATIONS and contract != NT:
                show_declarations(view, record[H_INITIAL], record[H_INITIAL + 1], record[H_INITIAL + 2],
                                  record[H_INITIAL + 3], contract, family, flags)


@njit(cache=True)
def public_view(record, view):
    """:func:`replay_view` for callers outside the kernels; returns the seat to move."""
    replay_view(view, record)
    return (view[V_LEADER] + view[V_POS]) & 3


@njit(cache=True)
def legal_now(hand, seat, view):
    """The legal cards of ``seat`` holding ``hand`` at the view's point of the trick."""
    pos = view[V_POS]
    partner_winning = pos > 0 and ((view[V_WINNER] ^ seat) & 1) == 0
    return legal_mask(hand, view[V_LED] if pos > 0 else -1, view[V_WINNING] if pos > 0 else 0, partner_winning,
                      view[V_CONTRACT], view[V_UNDERTRUMP_REQUIRED] == 1, view[V_AT_OVERTAKE_PARTNER] == 1)


@njit(cache=True)
def knowledge_key(view, hand, seat):
    """A digest of everything ``seat`` knows: its view and its hand."""
    key = GOLDEN * np.uint64(seat + 1)
    for i in range(V_SIZE):
        key = fold(key, view[i])
    return fold(key, hand)


@njit(cache=True)
def seen_hands(record, view, seat):
    """``(hands, seat)``: the current hands the player is shown — its own, or every one with
    ``H_SEES_ALL`` — and zeros for the rest."""
    hands = np.zeros(4, dtype=np.int64)
    played = view[V_PLAYED]
    for s in range(4):
        if s == seat or record[H_SEES_ALL]:
            hands[s] = record[H_INITIAL + s] & ~played
    return hands


@njit(cache=True)
def start_streams(record, view, hand, seat, scratch):
    """This decision's ``r32``, with the world stream in ``scratch`` set (module docstring)."""
    seed = np.uint64(record[H_SEED])
    deal_id = record[H_DEAL_ID]
    if deal_id >= 0:
        r32 = nth_r32(stream_start(seed, deal_id, PLAY_STREAM), record[H_N_PLAYED])
    else:
        key = knowledge_key(view, hand, seat)
        start_deal(scratch, stream_start(seed, key, WORLD_STREAM))
        _, u = next_u64(stream_start(seed, key, PLAY_STREAM))
        r32 = u >> np.uint64(32)
    scratch[SS_TURNED_CARD] = record[H_TURNED] if record[H_FAMILY] == 1 else -1  # an expert's replay reads it
    # Each dd decision is searched on its own (fresh table stamps, no expected value): the
    # record may come from any deal, so nothing learnt for another position is trusted.
    scratch[SD_GEN] = 0
    scratch[SD_GEN + 1] = 0
    scratch[SD_FINAL] = -1
    scratch[SD_FINAL + 1] = -1
    return r32


@njit(cache=True)
def bot_card(player, record, view, ctx, tt, scratch, search):
    """The card ``player`` plays for the seat to move at the position ``record`` (module docstring).

    ``view`` is work space (it holds the position's public view afterwards); ``ctx``/``tt``/
    ``scratch``/``search`` as :func:`belot_sim.kernels.play_loop.play_scratch` allocates them.
    """
    replay_view(view, record)
    seat = (view[V_LEADER] + view[V_POS]) & 3
    hands = seen_hands(record, view, seat)
    legal = legal_now(hands[seat], seat, view)
    r32 = start_streams(record, view, hands[seat], seat, scratch)
    return decide_card(player, legal, r32, hands, seat, view, record[H_FAMILY], ctx, tt, scratch, search)
