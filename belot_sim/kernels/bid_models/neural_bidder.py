"""``neural`` (the bidder): the legal call a small network values most, from what the seat knows.

The network reads the caller's 5 cards, its place in the calling order, the current contract, its declarer
and multiplier, the passes just made, every call each seat has made and the match score (layout
:data:`belot_sim.kernels.core.layouts.CALL_OBSERVATION`, :func:`encode_call`), and gives each of the 9
call codes a value: its estimate, in percentage points, of the caller's team's chance of winning the match
after making that call and letting every seat finish the auction as its bidder model would (``heuristic``,
and from the second training round on this bidder for one team), the deal then played by the ``neural``
player — the labels it was trained on (``scripts/train_bidder.py``, :mod:`belot_sim.training.match_odds`,
docs/bidding.md).  Outside a match (``simulate``'s deals, the estimates) the score is 0 : 0.  It makes the
legal call of the highest value (the lowest code among equal values), so it draws no random numbers and,
being a function of the cards, the auction and the score only, can also be the model of an auction that layouts replay
(:mod:`.consistent`).

Trained on bulgarian auctions: the Python edge refuses it in classic, where the kernels call as the
``heuristic``.
The weights ship in the package (``belot_sim/data/bidder.npz``; ``$BELOT_SIM_BIDDER_WEIGHTS``, set before
belot_sim is imported, names another file) and are compiled into the kernels as constants
(:mod:`..core.mlp`), keyed in :mod:`belot_sim._cache` like the players'.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from numba import njit

from ..core.auction_rules import FAMILY_CLASSIC, N_CODES, PASS
from ..core.layouts import (A_CALLS, A_CONTRACT, A_DEALER, A_DECLARER, A_MULTIPLIER, A_N_CALLS, A_PASSES, A_SCORE,
                            B_CALLED, B_CONTRACT, B_DECLARATIONS, B_DECLARER, B_HAND, B_MULTIPLIER, B_PASSES,
                            B_POSITION, B_SCORE, B_SIZE, BID_CODES, MATCH_SCORE_STEPS)
from ..core.mlp import forward_blocks, load_network, startup_network
from ..core.rule_flags import DECLARATIONS
from .heuristic import heuristic_call

#: The shipped weights; ``$BELOT_SIM_BIDDER_WEIGHTS`` overrides (:func:`weights_path`).
PACKAGE_WEIGHTS = Path(__file__).resolve().parents[2] / "data" / "bidder.npz"
#: The network's inputs and outputs (one value per call code).
INPUTS, OUTPUTS = B_SIZE, N_CODES
#: A team's score is read as the steps it has reached (a "thermometer"): every 10 points up to 100, then
#: every 5, where a deal's points decide more often whether a team reaches 151.
SCORE_STEPS = np.array([10 * k for k in range(1, 11)] + [100 + 5 * k for k in range(1, 11)], dtype=np.int64)
assert len(SCORE_STEPS) == MATCH_SCORE_STEPS


def weights_path() -> Path:
    """The weights file this process bids with."""
    return Path(os.environ.get("BELOT_SIM_BIDDER_WEIGHTS") or PACKAGE_WEIGHTS)


def load_weights(path) -> tuple[np.ndarray, ...]:
    """``(w1, b1, w2, b2, w3, b3)`` of a bidder weights file, ``w2`` as blocks: one network, or the mean of
    several side by side (:func:`..core.mlp.load_network`)."""
    return load_network(path, INPUTS, OUTPUTS, "neural bidder", blocks=True)


#: The file read at import (``None``: there was none; a stand-in of zeros is compiled in and the Python
#: edge refuses the bidder).
LOADED_FROM, (W1, B1, W2, B2, W3, B3) = startup_network(weights_path(), INPUTS, OUTPUTS, "neural bidder",
                                                                blocks=True)


@njit(cache=True)
def encode_call(obs, hand5, seat, state, flags):
    """``obs`` (int8[B_SIZE]) = what ``seat`` knows when it calls in the auction ``state`` (bulgarian)."""
    obs[:] = 0
    for c in range(32):
        if (hand5 >> c) & 1:
            obs[B_HAND + c] = 1
    obs[B_POSITION + ((seat - state[A_DEALER] - 1) & 3)] = 1
    contract = state[A_CONTRACT]
    obs[B_CONTRACT + contract + 1] = 1
    if contract >= 0:
        obs[B_DECLARER + ((state[A_DECLARER] - seat) & 3)] = 1
    if state[A_MULTIPLIER] >= 2:
        obs[B_MULTIPLIER + (1 if state[A_MULTIPLIER] >= 4 else 0)] = 1
    passes = state[A_PASSES]
    if passes > 0:
        obs[B_PASSES + min(passes, 3) - 1] = 1
    caller = (state[A_DEALER] + 1) & 3
    for k in range(state[A_N_CALLS]):
        code = state[A_CALLS + k]
        if code != PASS:
            obs[B_CALLED + ((caller - seat) & 3) * BID_CODES + code - 1] = 1
        caller = (caller + 1) & 3
    if flags & DECLARATIONS:
        obs[B_DECLARATIONS] = 1
    encode_score(obs, state[A_SCORE + (seat & 1)], state[A_SCORE + 1 - (seat & 1)])


@njit(cache=True)
def encode_score(obs, ours, theirs):
    """The ``SCORE`` inputs of ``obs``: the steps (:data:`SCORE_STEPS`) the caller's team's match points
    ``ours`` and the other team's ``theirs`` have reached (``A_SCORE``: towards a 151 target)."""
    for k in range(MATCH_SCORE_STEPS):
        obs[B_SCORE + k] = 1 if ours >= SCORE_STEPS[k] else 0
        obs[B_SCORE + MATCH_SCORE_STEPS + k] = 1 if theirs >= SCORE_STEPS[k] else 0


@njit(cache=True)
def call_values(obs, out):
    """The network's 9 call values (``out``, float32[9]) for ``obs`` (int8[B_SIZE])."""
    forward_blocks(obs, INPUTS, W1, B1, W2, B2, W3, B3, out)


@njit(cache=True)
def neural_call(legal, hand5, seat, state, flags):
    """The legal call code of the highest value (module docstring) for ``seat``, the seat to call."""
    obs = np.empty(B_SIZE, dtype=np.int8)
    out = np.empty(OUTPUTS, dtype=np.float32)
    encode_call(obs, hand5, seat, state, flags)
    call_values(obs, out)
    best = PASS
    for code in range(1, OUTPUTS):
        if (legal >> code) & 1 and out[code] > out[best]:
            best = code
    return best


@njit(cache=True)
def learned_call(legal, hand5, seat, state, family, flags, turned_card, weights):
    """The ``neural`` bidder's call as the bidders' dispatch asks it (arguments as
    :func:`.heuristic.heuristic_call`): :func:`neural_call`, the ``heuristic``'s in classic."""
    if family == FAMILY_CLASSIC:
        return heuristic_call(legal, hand5, seat, state, family, flags, turned_card, weights)
    return neural_call(legal, hand5, seat, state, flags)
