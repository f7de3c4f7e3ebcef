"""The auction (RULES.md §4) as Numba kernels: a small int64 state array, legal calls as a
bitmask, one call applied at a time, and a whole auction played by per-seat bidders.

Mirrors :class:`belot_sim.reference.auction.AuctionState` (the oracle; see
``tests/test_auction_kernel.py``).  Calls are small integer codes:

* ``0`` pass, ``1..6`` the contracts C D H S NT AT (``code = contract + 1``),
  ``7`` double, ``8`` redouble.

A legal-call set is an int64 mask with bit ``code`` set for every legal call.  In classic,
"taking" is the contract code of the chosen trump (round 1: the turned suit; round 2:
another suit; round 3: NT/AT), as in the reference.

State array (``int64[STATE_SIZE]``), slots:

=============  ============================================================================
``CONTRACT``    current (highest) contract 0..5, -1 while nobody has bid / taken
``DECLARER``    seat that made the current contract call, -1 if none
``MULTIPLIER``  1, 2 (doubled) or 4 (redoubled)
``PASSES``      consecutive passes (classic: passes in the current round)
``ROUND``       classic round 1..3 (stays 1 in bulgarian)
``N_CALLS``     calls made so far
``OVER``        1 once the auction has ended (a contract or void)
``VOID``        1 when every player passed (the deal is void)
``DEALER``      the dealer (seat ``(dealer + 1) % 4`` speaks first)
``TO_MOVE``     the seat to call next, ``(dealer + 1 + N_CALLS) % 4``
``FAMILY``      0 bulgarian, 1 classic (as given to :func:`auction_start`)
``TURNED``      classic: suit of the turned card (-1 in bulgarian)
=============  ============================================================================

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

from .rng import halves, next_u64

# --- call codes -----------------------------------------------------------------------
PASS, CALL_C, CALL_D, CALL_H, CALL_S, CALL_NT, CALL_AT, DOUBLE, REDOUBLE = 0, 1, 2, 3, 4, 5, 6, 7, 8
N_CODES = 9
#: Call code → text, as in ``belot_sim.reference.auction.CALLS``.
CALL_NAMES = ("pass", "C", "D", "H", "S", "NT", "AT", "double", "redouble")
CALL_OF_NAME = {name: code for code, name in enumerate(CALL_NAMES)}
#: Upper bound on the number of calls in any auction (derivation in the module docstring).
MAX_CALLS = 58

# --- state slots ----------------------------------------------------------------------
CONTRACT, DECLARER, MULTIPLIER, PASSES, ROUND, N_CALLS, OVER, VOID, DEALER, TO_MOVE, FAMILY, TURNED = range(12)
STATE_SIZE = 12

FAMILY_BULGARIAN, FAMILY_CLASSIC = 0, 1


@njit(cache=True)
def auction_start(state, dealer, family, turned_suit):
    """Reset ``state`` to the start of an auction dealt by ``dealer``.

    ``family`` 0 bulgarian / 1 classic; ``turned_suit`` the classic turned card's suit
    (ignored, stored as -1, in bulgarian)."""
    state[CONTRACT] = -1
    state[DECLARER] = -1
    state[MULTIPLIER] = 1
    state[PASSES] = 0
    state[ROUND] = 1
    state[N_CALLS] = 0
    state[OVER] = 0
    state[VOID] = 0
    state[DEALER] = dealer
    state[TO_MOVE] = (dealer + 1) & 3
    state[FAMILY] = family
    state[TURNED] = turned_suit if family == FAMILY_CLASSIC else -1


@njit(cache=True)
def legal_calls(state, seat, family, all_no_trumps, turned_suit):
    """Bitmask of the call codes ``seat`` may make now (0 once the auction is over).

    Bulgarian (§4.1): pass; any contract above the current one; double by an opponent of
    the contract holder when not yet doubled; redouble by the holder's team after a double.
    Classic (§4.2): pass, or take — round 1 the turned suit, round 2 any other suit,
    round 3 NT/AT (only reached when ``all_no_trumps``).
    """
    if state[OVER]:
        return 0
    mask = np.int64(1) << PASS
    if family == FAMILY_CLASSIC:
        rnd = state[ROUND]
        if rnd == 1:
            mask |= np.int64(1) << (turned_suit + 1)
        elif rnd == 2:
            mask |= (np.int64(0b1111) << CALL_C) & ~(np.int64(1) << (turned_suit + 1))
        elif all_no_trumps:
            mask |= (np.int64(1) << CALL_NT) | (np.int64(1) << CALL_AT)
        return mask
    contract = state[CONTRACT]
    # Contract codes above the current contract: bits contract+2 .. 6 (all six when -1).
    mask |= (np.int64(0b1111110) >> (contract + 2)) << (contract + 2)
    if contract >= 0:
        own_team = ((seat ^ state[DECLARER]) & 1) == 0
        multiplier = state[MULTIPLIER]
        if not own_team and multiplier == 1:
            mask |= np.int64(1) << DOUBLE
        if own_team and multiplier == 2:
            mask |= np.int64(1) << REDOUBLE
    return mask


@njit(cache=True)
def apply_call(state, code, family, all_no_trumps, turned_suit):
    """Make call ``code`` for the seat to move (``state[TO_MOVE]``); returns ``state[OVER]``.

    The caller guarantees the call is legal (check with :func:`legal_calls`): kernels
    only make calls drawn from the legal mask, so no check is repeated here.
    """
    seat = state[TO_MOVE]
    state[N_CALLS] += 1
    state[TO_MOVE] = (seat + 1) & 3
    if family == FAMILY_CLASSIC:
        if code != PASS:  # the first to take ends the auction
            state[CONTRACT] = code - 1
            state[DECLARER] = seat
            state[OVER] = 1
            return 1
        state[PASSES] += 1
        if state[PASSES] < 4:
            return 0
        state[PASSES] = 0
        last_round = 3 if all_no_trumps else 2
        if state[ROUND] == last_round:
            state[VOID] = 1
            state[OVER] = 1
            return 1
        state[ROUND] += 1
        return 0
    if code == PASS:
        state[PASSES] += 1
        if state[CONTRACT] < 0 and state[PASSES] == 4:
            state[VOID] = 1
            state[OVER] = 1
        elif state[CONTRACT] >= 0 and state[PASSES] == 3:
            state[OVER] = 1
        return state[OVER]
    state[PASSES] = 0
    if code == DOUBLE:
        state[MULTIPLIER] = 2
    elif code == REDOUBLE:
        state[MULTIPLIER] = 4
    else:  # a higher contract cancels any double/redouble
        state[CONTRACT] = code - 1
        state[DECLARER] = seat
        state[MULTIPLIER] = 1
    return 0


@njit(cache=True)
def auction_hands(pack, dealer, hands5):
    """The 5-card masks seen at auction time (reference/dealing.py ``first_hands``):
    order ``j`` after the dealer, seat ``(dealer + 1 + j) % 4``, gets ``pack[5j:5j+5]``."""
    for j in range(4):
        mask = 0
        for k in range(5):
            mask |= np.int64(1) << pack[5 * j + k]
        hands5[(dealer + 1 + j) & 3] = mask


@njit(cache=True)
def classic_final_hands(pack, dealer, taker, hands):
    """Classic 8-card hands after ``taker`` took (reference/dealing.py ``complete_hands``):
    the 5-card hands, then the taker gets the turned card ``pack[20]``, and ``pack[21:32]``
    is dealt in order after the dealer — 2 cards to the taker, 3 to every other seat."""
    auction_hands(pack, dealer, hands)
    hands[taker] |= np.int64(1) << pack[20]
    position = 21
    for j in range(4):
        seat = (dealer + 1 + j) & 3
        count = 2 if seat == taker else 3
        for k in range(count):
            hands[seat] |= np.int64(1) << pack[position + k]
        position += count


@njit(cache=True)
def run_auction_params(hands5, dealer, family, all_no_trumps, turned_card, bidders, rng, state, calls_out, params):
    """:func:`run_auction` with an explicit bidder ``params`` array (see
    ``belot_sim.players.bidders.DEFAULT_PARAMS``)."""
    turned_suit = turned_card >> 3 if family == FAMILY_CLASSIC else -1
    auction_start(state, dealer, family, turned_suit)
    spare = np.uint64(0)
    n = 0
    while state[OVER] == 0 and n < MAX_CALLS:
        seat = state[TO_MOVE]
        legal = legal_calls(state, seat, family, all_no_trumps, turned_suit)
        if n & 1 == 0:  # one 64-bit draw serves two calls
            rng, u = next_u64(rng)
            r32, spare = halves(u)
        else:
            r32 = spare
        code = _bidders.choose_call(bidders[seat], legal, r32, hands5[seat], seat, state, family, turned_card,
                                    params)
        if code < 0 or code >= N_CODES or not (legal >> code) & 1:
            code = PASS  # an unknown bidder code or a bad choice must never break the rules
        calls_out[n] = code
        apply_call(state, code, family, all_no_trumps, turned_suit)
        n += 1
    if state[VOID]:
        return rng, -1, -1, 1, n
    return rng, state[CONTRACT], state[DECLARER], state[MULTIPLIER], n


@njit(cache=True)
def run_auction(hands5, dealer, family, all_no_trumps, turned_card, bidders, rng, state, calls_out):
    """Play a whole auction.

    ``hands5`` int64[4]: the 5-card mask of each seat (:func:`auction_hands`); ``family``
    0/1; ``all_no_trumps`` classic round 3; ``turned_card`` the classic turned card
    (``pack[20]``; ignored in bulgarian, pass -1); ``bidders`` int64[4] bidder codes per
    seat (``belot_sim.players.bidders.BIDDER_CODES``); ``rng`` a splitmix64 state
    (e.g. ``stream_start(seed, deal_id, AUCTION_STREAM)``); ``state`` scratch
    int64[STATE_SIZE] (holds the final state afterwards); ``calls_out`` int8[MAX_CALLS]
    receives the call codes in order.

    Returns ``(rng, contract, declarer, multiplier, n_calls)``; contract and declarer are
    -1 (multiplier 1) when the deal is void.  Bidders use the default parameters.
    """
    return run_auction_params(hands5, dealer, family, all_no_trumps, turned_card, bidders, rng, state, calls_out,
                              _bidders.DEFAULT_PARAMS)


# Imported last: the bidders read this module's state layout and call codes, and this
# module calls them; a module (not name) import keeps either import order working.
from ..players import bidders as _bidders  # noqa: E402
