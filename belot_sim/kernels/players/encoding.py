"""What a seat knows as 0/1 inputs (layout :data:`belot_sim.kernels.core.layouts.OBSERVATION`).

One encoding serves the environment's observation (:mod:`belot_sim.env`) and the ``neural``
player's input (:mod:`.neural`), so the two cannot drift apart.  It is filled from what the seat
may know only: its own hand, the public view of the deal (:mod:`.view`) and the auction's calls.
Seats are *relative to the observer* (``k`` = the seat ``k`` places after it: 0 itself, 2 its
partner); teams likewise (0 its own).

``swap``: a suit whose cards trade places with the clubs' in every card slot (0: none).  The
``neural`` player names the trump suit of a suit contract clubs this way, so one network serves
the four suit contracts; the environment does not rename suits.
"""

from __future__ import annotations

from numba import njit

from ..core.bits import ctz
from ..core.layouts import (CALL_CODES, O_AUCTION, O_CONTRACT, O_DEALER, O_DECLARER, O_EXCLUDED, O_HAND, O_MULTIPLIER,
                            O_PHASE, O_PLAYED_BY, O_SHOWN, O_SIZE, O_TO_MOVE, O_TRICK, O_TURNED, O_WON, V_CONTRACT,
                            V_DEALER, V_DECLARER, V_EXCLUDED, V_KNOWN, V_LEADER, V_MULTIPLIER, V_PLAYED_BY, V_POS,
                            V_TRICK_CARD, V_TURNED, V_WON)
from ..core.tables import NT

#: ``phase`` values of :func:`encode_header`.
AUCTION_PHASE, PLAY_PHASE = 0, 1


@njit(cache=True, inline="always")
def swap_suit(suit, swap):
    """The suit ``suit`` is named after trading clubs with ``swap``."""
    if suit == swap:
        return 0
    if suit == 0:
        return swap
    return suit


@njit(cache=True, inline="always")
def swap_card(card, swap):
    return 8 * swap_suit(card >> 3, swap) + (card & 7)


@njit(cache=True, inline="always")
def swap_mask(mask, swap):
    if swap == 0:
        return mask
    shift = 8 * swap
    clubs = mask & 0xFF
    other = (mask >> shift) & 0xFF
    return (mask & ~(0xFF | (0xFF << shift))) | other | (clubs << shift)


@njit(cache=True, inline="always")
def set_cards(obs, offset, mask, swap):
    """``obs[offset + card] = 1`` for every card of ``mask``, suits swapped."""
    m = swap_mask(mask, swap)
    while m:
        obs[offset + ctz(m)] = 1
        m &= m - 1


@njit(cache=True)
def encode_header(obs, seat, hand, dealer, to_move, phase, contract, declarer, multiplier, turned, swap):
    """Clear ``obs`` (int8[O_SIZE]) and fill the slots of both phases: the hand, the classic turned card
    (-1: none), the dealer, the seat to move (-1: nobody, the deal is over), the phase, the contract
    (-1: none yet), its declarer and multiplier (1, 2, 4)."""
    for i in range(O_SIZE):
        obs[i] = 0
    set_cards(obs, O_HAND, hand, swap)
    if turned >= 0:
        obs[O_TURNED + swap_card(turned, swap)] = 1
    obs[O_DEALER + ((dealer - seat) & 3)] = 1
    if to_move >= 0:
        obs[O_TO_MOVE + ((to_move - seat) & 3)] = 1
    obs[O_PHASE + phase] = 1
    if contract >= 0:
        obs[O_CONTRACT + (swap_suit(contract, swap) if contract < NT else contract)] = 1
        obs[O_DECLARER + ((declarer - seat) & 3)] = 1
    obs[O_MULTIPLIER + ctz(multiplier)] = 1


@njit(cache=True)
def encode_play_part(obs, seat, view, swap):
    """The slots of the play from the public ``view``: the cards each seat played, the trick in
    progress, the cards of each team's tricks, and the cards each seat is known to hold or not to
    hold (the classic turned card has its own slot, not the declarer's ``SHOWN``)."""
    turned_bit = (1 << view[V_TURNED]) if view[V_TURNED] >= 0 else 0
    for s in range(4):
        r = (s - seat) & 3
        set_cards(obs, O_PLAYED_BY + 32 * r, view[V_PLAYED_BY + s], swap)
        shown = view[V_KNOWN + s]
        if s == view[V_DECLARER]:
            shown &= ~turned_bit
        set_cards(obs, O_SHOWN + 32 * r, shown, swap)
        set_cards(obs, O_EXCLUDED + 32 * r, view[V_EXCLUDED + s], swap)
    for p in range(view[V_POS]):
        s = (view[V_LEADER] + p) & 3
        obs[O_TRICK + 32 * ((s - seat) & 3) + swap_card(view[V_TRICK_CARD + p], swap)] = 1
    for t in range(2):
        set_cards(obs, O_WON + 32 * ((t ^ seat) & 1), view[V_WON + t], swap)


@njit(cache=True)
def encode_calls(obs, calls, n_calls):
    """Call ``k`` of the auction (codes ``calls[:n_calls]``), one-hot by code."""
    for k in range(n_calls):
        obs[O_AUCTION + CALL_CODES * k + calls[k]] = 1


@njit(cache=True)
def encode_play(obs, seat, hand, view, swap):
    """Everything but the auction's calls, for ``seat`` holding ``hand`` during the play (the seat
    to move is read from the view): what the ``neural`` player reads."""
    to_move = (view[V_LEADER] + view[V_POS]) & 3
    encode_header(obs, seat, hand, view[V_DEALER], to_move, PLAY_PHASE, view[V_CONTRACT], view[V_DECLARER],
                  view[V_MULTIPLIER], view[V_TURNED], swap)
    encode_play_part(obs, seat, view, swap)
