"""Layouts consistent with an auction: packs drawn uniformly around the known cards, kept when every
call of the auction so far is what a bidder model would have called with the pack's 5-card hands.

A layout is a whole pack (docs/rules.md §12.1: the 5-card hands at ``pack[5j:5j+5]`` of order ``j``
after the dealer, the classic turned card at ``pack[20]``, the cards dealt after the auction
behind), so the auction-time hands, the turned card and the final hands of whoever becomes the
declarer all follow from it.  :func:`draw_pack` fills the positions not fixed with the free cards in
uniformly random order; :func:`first_mismatch` replays the calls with the model.  Keeping the packs
that replay exactly (rejection sampling) leaves them uniform among the packs consistent with both
the known cards and the calls.

Models: deterministic bidders (``heuristic``, ``atlas``, ``neural``) call one thing for given cards, so a call
either matches or rejects the pack.  A ``random`` bidder's call does not depend on its cards (it
passes with a fixed probability, else picks uniformly among the legal calls), so its calls have the
same likelihood under every pack: they are not checked, which is what exact rejection with its draws
would give (a constant acceptance factor).  ``mc`` is not a model (checking one pack would run its
own simulations).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.auction_rules import FAMILY_CLASSIC, MAX_CALLS, N_CODES, PASS, apply_call, auction_start, legal_calls
from ..core.bits import popcount
from ..core.layouts import A_N_CALLS, A_OVER, A_TO_MOVE
from ..core.rng import shuffle
from ..core.rule_flags import ALL_NO_TRUMPS
from .atlas_bidder import atlas_call
from .codes import ATLAS_BIDDER, HEURISTIC, NEURAL_BIDDER
from .heuristic import heuristic_call
from .neural_bidder import learned_call


@njit(cache=True)
def draw_pack(rng, fixed_pack, free, work, pack):
    """``pack`` (int64[32]): ``fixed_pack[i]`` where it is >= 0, the cards of ``free`` in uniformly
    random order (Fisher-Yates in ``work``, int64[32]) in the other positions.  Returns the advanced
    ``rng``.  The shuffle starts from ``free`` every time, so a pack depends only on the stream."""
    n = len(free)
    for k in range(n):
        work[k] = free[k]
    rng = shuffle(rng, work, n)
    k = 0
    for p in range(32):
        if fixed_pack[p] >= 0:
            pack[p] = fixed_pack[p]
        else:
            pack[p] = work[k]
            k += 1
    return rng


@njit(cache=True)
def model_call(model, legal, hand5, seat, state, family, flags, turned_card, weights):
    """The call a deterministic bidder ``model`` makes (as the auction loop would: an illegal choice
    passes), or -1 for a model whose calls do not depend on the cards (``random``)."""
    if model == HEURISTIC:
        code = heuristic_call(legal, hand5, seat, state, family, flags, turned_card, weights)
    elif model == ATLAS_BIDDER:
        code = atlas_call(legal, hand5, seat, state, family, flags, turned_card, weights)
    elif model == NEURAL_BIDDER:
        code = learned_call(legal, hand5, seat, state, family, flags, turned_card, weights)
    else:
        return -1
    if code < 0 or code >= N_CODES or not (legal >> code) & 1:
        return PASS
    return code


@njit(cache=True)
def first_mismatch(calls, n_calls, hands5, dealer, family, flags, turned_card, models, skip_seat, state, weights):
    """Replay the first ``n_calls`` of ``calls`` (legal call codes) from the start of an auction dealt by
    ``dealer`` in ``state`` (int64[A_SIZE]): the index of the first call that seat's model
    (``models[seat]``) would not have made with ``hands5[seat]``, or -1 when all match.  The calls of
    ``skip_seat`` (-1: none) and of ``random`` models are not checked; ``state`` ends after the calls.
    ``flags``: the deal's rule options (the auction's round 3, the heuristic's declarations)."""
    all_no_trumps = (flags & ALL_NO_TRUMPS) != 0
    turned_suit = turned_card >> 3 if family == FAMILY_CLASSIC else -1
    auction_start(state, dealer, family, turned_suit)
    for i in range(n_calls):
        seat = state[A_TO_MOVE]
        code = calls[i]
        if seat != skip_seat:
            legal = legal_calls(state, seat, family, all_no_trumps, turned_suit)
            expected = model_call(models[seat], legal, hands5[seat], seat, state, family, flags, turned_card, weights)
            if expected >= 0 and expected != code:
                return i
        apply_call(state, code, family, all_no_trumps, turned_suit)
    return -1


@njit(cache=True)
def finish_auction(state, hands5, family, flags, turned_card, models, weights):
    """Complete the auction in ``state`` with every seat calling as its deterministic bidder model
    ``models[seat]`` (``heuristic``, ``atlas``, ``neural``) would with ``hands5`` under the rule options
    ``flags``."""
    all_no_trumps = (flags & ALL_NO_TRUMPS) != 0
    turned_suit = turned_card >> 3 if family == FAMILY_CLASSIC else -1
    while state[A_OVER] == 0 and state[A_N_CALLS] < MAX_CALLS:
        seat = state[A_TO_MOVE]
        legal = legal_calls(state, seat, family, all_no_trumps, turned_suit)
        code = model_call(models[seat], legal, hands5[seat], seat, state, family, flags, turned_card, weights)
        apply_call(state, PASS if code < 0 else code, family, all_no_trumps, turned_suit)


@njit(cache=True)
def own_pack(hand5, seat, dealer, family, turned_card):
    """``(fixed_pack, free)`` for a seat that knows its 5 cards (and the classic turned card): the
    pack positions of its hand hold its cards, ``pack[20]`` the turned card; every other card is free."""
    fixed_pack = np.full(32, -1, dtype=np.int64)
    known = hand5
    position = 5 * ((seat - dealer - 1) & 3)
    for c in range(32):
        if (hand5 >> c) & 1:
            fixed_pack[position] = c
            position += 1
    if family == FAMILY_CLASSIC:
        fixed_pack[20] = turned_card
        known |= np.int64(1) << turned_card
    free = np.empty(32 - popcount(known), dtype=np.int64)
    k = 0
    for c in range(32):
        if not (known >> c) & 1:
            free[k] = c
            k += 1
    return fixed_pack, free
