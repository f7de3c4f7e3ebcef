"""A whole auction: per-seat bidders call in turn until the auction's rules end it (docs/rules.md §4)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.auction_rules import FAMILY_CLASSIC, MAX_CALLS, N_CODES, PASS, apply_call, auction_start, legal_calls
from ..core.layouts import (A_CONTRACT, A_DECLARER, A_MULTIPLIER, A_OVER, A_SCORE, A_TO_MOVE, A_VOID, BIDDER_INTS,
                            BIDDER_WEIGHTS)
from ..core.rng import halves, next_u64
from ..core.rule_flags import ALL_NO_TRUMPS, DECLARATIONS
from .choose import choose_call

#: The default bidder parameters (read-only), with the bulgarian preset's rule options; in classic
#: those of the classic preset (declarations and round 3 off: ``flags_of(CLASSIC)``, tested).
DEFAULT_INTS = BIDDER_INTS.defaults()
DEFAULT_WEIGHTS = BIDDER_WEIGHTS.defaults()
CLASSIC_INTS = BIDDER_INTS.defaults()
CLASSIC_INTS[BIDDER_INTS["FLAGS"].offset] &= ~(DECLARATIONS | ALL_NO_TRUMPS)
for _array in (DEFAULT_INTS, DEFAULT_WEIGHTS, CLASSIC_INTS):
    _array.flags.writeable = False


@njit(cache=True)
def run_auction_params(hands5, dealer, family, all_no_trumps, turned_card, bidders, rng, state, calls_out, ints,
                       weights, score0=0, score1=0):
    """:func:`run_auction` with explicit bidder parameters ``ints``/``weights`` (``BI_*``/``BW_*``
    slots of :mod:`belot_sim.kernels.core.layouts`) and, in a match, the match points ``score0``/``score1``
    the teams hold towards a 151 target (``A_SCORE``; the ``neural`` bidder reads them)."""
    turned_suit = turned_card >> 3 if family == FAMILY_CLASSIC else -1
    auction_start(state, dealer, family, turned_suit)
    state[A_SCORE] = score0
    state[A_SCORE + 1] = score1
    spare = np.uint64(0)
    n = 0
    while state[A_OVER] == 0 and n < MAX_CALLS:
        seat = state[A_TO_MOVE]
        legal = legal_calls(state, seat, family, all_no_trumps, turned_suit)
        if n & 1 == 0:  # one 64-bit draw serves two calls
            rng, u = next_u64(rng)
            r32, spare = halves(u)
        else:
            r32 = spare
        code = choose_call(bidders[seat], legal, r32, hands5[seat], seat, state, family, turned_card, ints, weights)
        if code < 0 or code >= N_CODES or not (legal >> code) & 1:
            code = PASS  # an unknown bidder code or a bad choice must never break the rules
        calls_out[n] = code
        apply_call(state, code, family, all_no_trumps, turned_suit)
        n += 1
    if state[A_VOID]:
        return rng, -1, -1, 1, n
    return rng, state[A_CONTRACT], state[A_DECLARER], state[A_MULTIPLIER], n


@njit(cache=True)
def run_auction(hands5, dealer, family, all_no_trumps, turned_card, bidders, rng, state, calls_out):
    """Play a whole auction.

    ``hands5`` int64[4]: the 5-card mask of each seat (:func:`auction_hands`); ``family``
    0/1; ``all_no_trumps`` classic round 3; ``turned_card`` the classic turned card
    (``pack[20]``; ignored in bulgarian, pass -1); ``bidders`` int64[4] bidder codes per
    seat (:data:`belot_sim.engine.registry.BIDDERS`); ``rng`` a splitmix64 state
    (e.g. ``stream_start(seed, deal_id, AUCTION_STREAM)``); ``state`` scratch
    int64[A_SIZE] (holds the final state afterwards); ``calls_out`` int8[MAX_CALLS]
    receives the call codes in order.

    Returns ``(rng, contract, declarer, multiplier, n_calls)``; contract and declarer are
    -1 (multiplier 1) when the deal is void.  Bidders use the default parameters and the family's
    default rule options (:data:`DEFAULT_INTS`, :data:`CLASSIC_INTS`).
    """
    ints = CLASSIC_INTS if family == FAMILY_CLASSIC else DEFAULT_INTS
    return run_auction_params(hands5, dealer, family, all_no_trumps, turned_card, bidders, rng, state, calls_out,
                              ints, DEFAULT_WEIGHTS)
