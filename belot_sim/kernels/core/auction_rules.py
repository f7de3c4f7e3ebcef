"""The auction's rules (docs/rules.md §4) as Numba kernels: a small int64 state array, legal calls as
a bitmask, one call applied at a time.  The auction loop with its bidders is
:mod:`belot_sim.kernels.bidding.auction_loop`.

Mirrors :class:`belot_sim.reference.auction.AuctionState` (the oracle; see
``tests/test_auction_kernel.py``).  Calls are small integer codes:

* ``0`` pass, ``1..6`` the contracts C D H S NT AT (``code = contract + 1``),
  ``7`` double, ``8`` redouble.

A legal-call set is an int64 mask with bit ``code`` set for every legal call.  In classic,
"taking" is the contract code of the chosen trump (round 1: the turned suit; round 2:
another suit; round 3: NT/AT), as in the reference.  The state array's slots are
:data:`belot_sim.kernels.core.layouts.AUCTION` (``A_CONTRACT``, ``A_DECLARER``, ...).

``MAX_CALLS`` — an upper bound on the length of any auction (proof):

* bulgarian: every non-pass call is a contract, a double or a redouble.  Contract calls
  strictly increase, so there are at most 6 of them; after each contract at most one
  double and one redouble (a new contract resets the multiplier, and nothing else does),
  so at most 6 * 3 = 18 non-pass calls.  Before the first non-pass call at most 3 passes
  (a 4th voids the deal); between two non-pass calls at most 2 passes (a 3rd ends the
  auction); after the last one exactly 3.  Total <= 3 + 18 + 17 * 2 + 3 = 58 (and 58 is
  reached: e.g. pass x3, then C, pass, pass, double, pass, pass, redouble, pass, pass, D,
  … alternating teams — each double/redouble lands on a legal seat because two passes move
  the turn by 3 seats, i.e. to the other team).
* classic: at most 3 rounds of 4 calls (a take ends the auction) = 12.

So ``MAX_CALLS = 58`` bounds both families.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .layouts import (A_CALLS, A_CONTRACT, A_DEALER, A_DECLARER, A_FAMILY, A_MULTIPLIER, A_N_CALLS, A_OVER, A_PASSES,
                      A_ROUND, A_SCORE, A_TO_MOVE, A_TURNED, A_VOID, CALL_CODES, MAX_AUCTION_CALLS)

# --- call codes -----------------------------------------------------------------------
PASS, CALL_C, CALL_D, CALL_H, CALL_S, CALL_NT, CALL_AT, DOUBLE, REDOUBLE = 0, 1, 2, 3, 4, 5, 6, 7, 8
N_CODES = CALL_CODES
#: Call code → text, as in ``belot_sim.reference.auction.CALLS``.
CALL_NAMES = ("pass", "C", "D", "H", "S", "NT", "AT", "double", "redouble")
CALL_OF_NAME = {name: code for code, name in enumerate(CALL_NAMES)}
#: Upper bound on the number of calls in any auction (derivation in the module docstring).
MAX_CALLS = MAX_AUCTION_CALLS

FAMILY_BULGARIAN, FAMILY_CLASSIC = 0, 1


@njit(cache=True)
def auction_start(state, dealer, family, turned_suit):
    """Reset ``state`` to the start of an auction dealt by ``dealer``.

    ``family`` 0 bulgarian / 1 classic; ``turned_suit`` the classic turned card's suit
    (ignored, stored as -1, in bulgarian)."""
    state[A_CONTRACT] = -1
    state[A_DECLARER] = -1
    state[A_MULTIPLIER] = 1
    state[A_PASSES] = 0
    state[A_ROUND] = 1
    state[A_N_CALLS] = 0
    state[A_OVER] = 0
    state[A_VOID] = 0
    state[A_DEALER] = dealer
    state[A_TO_MOVE] = (dealer + 1) & 3
    state[A_FAMILY] = family
    state[A_TURNED] = turned_suit if family == FAMILY_CLASSIC else -1
    state[A_SCORE] = 0  # outside a match: run_auction_params sets a match's
    state[A_SCORE + 1] = 0


@njit(cache=True)
def legal_calls(state, seat, family, all_no_trumps, turned_suit):
    """Bitmask of the call codes ``seat`` may make now (0 once the auction is over).

    Bulgarian (§4.1): pass; any contract above the current one; double by an opponent of
    the contract holder when not yet doubled; redouble by the holder's team after a double.
    Classic (§4.2): pass, or take — round 1 the turned suit, round 2 any other suit,
    round 3 NT/AT (only reached when ``all_no_trumps``).
    """
    if state[A_OVER]:
        return 0
    mask = np.int64(1) << PASS
    if family == FAMILY_CLASSIC:
        rnd = state[A_ROUND]
        if rnd == 1:
            mask |= np.int64(1) << (turned_suit + 1)
        elif rnd == 2:
            mask |= (np.int64(0b1111) << CALL_C) & ~(np.int64(1) << (turned_suit + 1))
        elif all_no_trumps:
            mask |= (np.int64(1) << CALL_NT) | (np.int64(1) << CALL_AT)
        return mask
    contract = state[A_CONTRACT]
    # Contract codes above the current contract: bits contract+2 .. 6 (all six when -1).
    mask |= (np.int64(0b1111110) >> (contract + 2)) << (contract + 2)
    if contract >= 0:
        own_team = ((seat ^ state[A_DECLARER]) & 1) == 0
        multiplier = state[A_MULTIPLIER]
        if not own_team and multiplier == 1:
            mask |= np.int64(1) << DOUBLE
        if own_team and multiplier == 2:
            mask |= np.int64(1) << REDOUBLE
    return mask


@njit(cache=True)
def apply_call(state, code, family, all_no_trumps, turned_suit):
    """Make call ``code`` for the seat to move (``state[A_TO_MOVE]``); returns ``state[A_OVER]``.

    The caller guarantees the call is legal (check with :func:`legal_calls`): kernels
    only make calls drawn from the legal mask, so no check is repeated here.
    """
    seat = state[A_TO_MOVE]
    state[A_CALLS + state[A_N_CALLS]] = code  # the history the mc bidder replays
    state[A_N_CALLS] += 1
    state[A_TO_MOVE] = (seat + 1) & 3
    if family == FAMILY_CLASSIC:
        if code != PASS:  # the first to take ends the auction
            state[A_CONTRACT] = code - 1
            state[A_DECLARER] = seat
            state[A_OVER] = 1
            return 1
        state[A_PASSES] += 1
        if state[A_PASSES] < 4:
            return 0
        state[A_PASSES] = 0
        last_round = 3 if all_no_trumps else 2
        if state[A_ROUND] == last_round:
            state[A_VOID] = 1
            state[A_OVER] = 1
            return 1
        state[A_ROUND] += 1
        return 0
    if code == PASS:
        state[A_PASSES] += 1
        if state[A_CONTRACT] < 0 and state[A_PASSES] == 4:
            state[A_VOID] = 1
            state[A_OVER] = 1
        elif state[A_CONTRACT] >= 0 and state[A_PASSES] == 3:
            state[A_OVER] = 1
        return state[A_OVER]
    state[A_PASSES] = 0
    if code == DOUBLE:
        state[A_MULTIPLIER] = 2
    elif code == REDOUBLE:
        state[A_MULTIPLIER] = 4
    else:  # a higher contract cancels any double/redouble
        state[A_CONTRACT] = code - 1
        state[A_DECLARER] = seat
        state[A_MULTIPLIER] = 1
    return 0
