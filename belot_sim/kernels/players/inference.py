"""``expert``'s layouts: ``pimc``'s, kept only when the auction replays on them.

A layout of the unseen cards (:func:`.sampling.sample_layout`: consistent with the play so far)
gives every other seat its 8 cards: the ones it still holds in the layout and the ones it played.
Which 5 of them it held at auction time is unknown, and every 5 are equally likely (the pack was
shuffled), so 5 are drawn at random.  In classic the taker received the face-up turned card after the
auction: every layout gives it to the taker (the public view shows it, :func:`.view.show_turned`),
and the taker's 5 are drawn from its other 7 cards.  The layout is kept when every call of the
auction is what that seat's bidder model calls with those 5 cards
(:func:`belot_sim.kernels.bid_models.consistent.first_mismatch`, the replay the bid tables use), else
another layout is drawn, up to ``AUCTION_TRIES`` times; then the last one stands.  Keeping the
layouts that replay (rejection sampling) leaves them distributed as ``pimc``'s layouts given the
calls as well: the models are deterministic, so a call either matches or rules the cards out.

The caller fills the auction's slots of the scratch (:func:`start_auction`: the batch kernels
once per deal with an auction, :class:`belot_sim.Bot` before each decision); with no auction
(``SX_N_CALLS`` 0, as allocated) the layouts are ``pimc``'s, one draw each.  Models: ``heuristic``
seats' calls are read; ``random`` bidders' calls say nothing about their cards; ``atlas`` and
``mc`` calls are not read (the atlas table is not in the scratch, and ``mc`` is not a model).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bid_models.codes import HEURISTIC
from ..bid_models.consistent import first_mismatch
from ..core.bits import ctz, popcount
from ..core.layouts import (A_SIZE, BW_SIZE, SS_TURNED_CARD, SW_HANDS, SW_RNG, SX_AUCTION, SX_BID_WEIGHTS, SX_CALLS,
                            SX_DEALER, SX_FIRST_HANDS, SX_FIRST_TRY, SX_INFERRED, SX_MODELS, SX_N_CALLS, SX_RULE_FLAGS,
                            V_DECLARER, V_PLAYED_BY)
from ..core.rng import next_u64, scale32
from .owners import sample_model_layout
from .sampling import sample_layout

#: Layouts drawn for one world before the last one stands (the auction not replayed on it).  At the
#: opening lead about 1 uniform layout in 25 replays the auction for a defender or the declarer's
#: partner, 2 in 5 for the declarer (300 heuristic auctions, 2026-12-02).
AUCTION_TRIES = 100
#: Not a bidder code: a seat whose calls are not read.
UNREAD = -1


@njit(cache=True)
def start_auction(scratch, calls, n_calls, dealer, flags, bidders, hands5, weights):
    """The deal's auction for an ``expert``: ``calls[:n_calls]`` (codes) by seats bidding as
    ``bidders`` (codes) on the 5-card ``hands5``, ``weights`` the models' weights (:data:`BIDDER_WEIGHTS`
    first).  Only ``heuristic`` seats' calls will be read (module docstring).  The classic turned
    card is the deal's ``SS_TURNED_CARD`` (:func:`.scratch.start_deal`, or a bot's record)."""
    scratch[SX_N_CALLS] = n_calls
    for i in range(n_calls):
        scratch[SX_CALLS + i] = calls[i]
    scratch[SX_DEALER] = dealer
    scratch[SX_RULE_FLAGS] = flags
    for s in range(4):
        scratch[SX_MODELS + s] = bidders[s] if bidders[s] == HEURISTIC else UNREAD
        scratch[SX_FIRST_HANDS + s] = hands5[s]
    bits = scratch[SX_BID_WEIGHTS:SX_BID_WEIGHTS + BW_SIZE].view(np.float64)
    for i in range(BW_SIZE):
        bits[i] = weights[i]


@njit(cache=True, inline="always")
def _random_subset(rng, mask, k):
    """``(rng, subset)``: ``k`` of the cards of ``mask``, uniformly (a partial Fisher-Yates)."""
    cards = np.empty(8, dtype=np.int64)
    n = 0
    while mask:
        cards[n] = ctz(mask)
        mask &= mask - 1
        n += 1
    out = 0
    for i in range(k):
        rng, u = next_u64(rng)
        j = i + scale32(u >> np.uint64(32), n - i)
        cards[i], cards[j] = cards[j], cards[i]
        out |= 1 << cards[i]
    return rng, out


@njit(cache=True, inline="always")
def _draw(view, seat, hand, scratch, weighted):
    if weighted:
        sample_model_layout(view, seat, hand, scratch)
    else:
        sample_layout(view, seat, hand, scratch)


@njit(cache=True)
def sample_inferred_layout(view, seat, hand, family, scratch, weighted):
    """A layout for ``seat`` (as :func:`.sampling.sample_layout`, into ``scratch[SW_HANDS:SW_HANDS+4]``)
    on which the deal's auction replays, when one is found in ``AUCTION_TRIES`` draws.  ``weighted``:
    the draws are the card-ownership model's layouts (:func:`.owners.sample_model_layout`; its odds
    filled for this decision).  Returns whether the auction replays on it (always true without an
    auction)."""
    _draw(view, seat, hand, scratch, weighted)
    n_calls = scratch[SX_N_CALLS]
    if n_calls == 0:
        return True
    weights = scratch[SX_BID_WEIGHTS:SX_BID_WEIGHTS + BW_SIZE].view(np.float64)
    calls = scratch[SX_CALLS:SX_CALLS + n_calls]
    models = scratch[SX_MODELS:SX_MODELS + 4]
    hands5 = scratch[SX_FIRST_TRY:SX_FIRST_TRY + 4]
    state = scratch[SX_AUCTION:SX_AUCTION + A_SIZE]
    turned = scratch[SS_TURNED_CARD]
    taker = view[V_DECLARER]  # classic: the turned card went to the taker, after the auction
    for attempt in range(AUCTION_TRIES):
        if attempt > 0:
            _draw(view, seat, hand, scratch, weighted)
        rng = np.uint64(scratch[SW_RNG])
        for s in range(4):
            if s == seat:
                hands5[s] = scratch[SX_FIRST_HANDS + s]
                continue
            full = scratch[SW_HANDS + s] | view[V_PLAYED_BY + s]
            if family == 1 and s == taker and turned >= 0:
                full &= ~(np.int64(1) << turned)
            rng, first = _random_subset(rng, full, min(5, popcount(full)))
            hands5[s] = first
        scratch[SW_RNG] = np.int64(rng)
        if first_mismatch(calls, n_calls, hands5, scratch[SX_DEALER], family, scratch[SX_RULE_FLAGS],
                          turned, models, seat, state, weights) < 0:
            scratch[SX_INFERRED] += 1
            return True
    return False
