"""The card-ownership model: for each card a seat cannot see, the probability that each other seat
holds it, from what the seat knows — and layouts of the unseen cards drawn with it.

The model is a small network (:mod:`..core.mlp`) reading the ``neural`` player's inputs (:mod:`.encoding`,
trump named clubs) and giving, for each other seat ``r`` (1..3 places after the seat) and card ``c``,
a logit at output ``32 * (r - 1) + c``.  A card's probabilities are the softmax of its logits over the
seats that may hold it (not excluded by the play, with room left).  It was trained on the engine's own
deals, where the true hands are free labels (``scripts/train_owners.py``, docs/players.md); the
weights ship in ``belot_sim/data/owners.npz`` and are compiled into the kernels like ``neural``'s.

**Layouts from the model** (:func:`sample_model_layout`, the ``hybrid`` player's searches).  The
uniform sampler (:mod:`.sampling`) deals the unseen cards one at a time, each to a seat with
probability proportional to the places it has left, among the seats that keep the rest placeable
(Hall's condition).  The model sampler does the same in a random order of the cards, with each seat's
places weighted by the model's *odds* that it holds the card: its probability over the one the seat's
share of the unseen cards gives (``p / (need / unseen)``), so a model that knows nothing deals as
the uniform sampler does.  Every layout stays consistent with what the seat knows, and odds are kept
at least :data:`MIN_ODDS` of even, so no consistent layout is ruled out.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from numba import njit

from ..core.layouts import O_SIZE, SW_ODDS, SW_POOL, SW_RNG, V_CONTRACT
from ..core.rng import shuffle
from ..core.tables import NT
from .encoding import encode_play, swap_card
from ..core.mlp import forward, load_network, startup_network
from .neural import INPUTS
from .sampling import place_cards, unseen_cards

#: The shipped weights.
PACKAGE_WEIGHTS = Path(__file__).resolve().parents[2] / "data" / "owners.npz"
#: Outputs: a logit per other seat (relative 1..3) and card.
OUTPUTS = 3 * 32
#: Fixed-point scale of the odds in ``scratch[SW_ODDS:]`` (the sampler's weights are integers).
ODDS_ONE = 1 << 12
#: The smallest odds a seat that may hold a card gets, as a fraction of even.
MIN_ODDS = 1.0 / ODDS_ONE
#: The largest (a seat holding every unseen card is 32 times its share at most).
MAX_ODDS = 32 * ODDS_ONE


def load_weights(path) -> tuple[np.ndarray, ...]:
    """``(w1, b1, w2, b2, w3, b3)`` of an ownership weights file (:func:`..core.mlp.load_network`)."""
    return load_network(path, INPUTS, OUTPUTS, "card-ownership")


#: The file read at import (``None``: none, a stand-in of zeros is compiled in: even odds, uniform layouts).
LOADED_FROM, (W1, B1, W2, B2, W3, B3) = startup_network(PACKAGE_WEIGHTS, INPUTS, OUTPUTS, "card-ownership")


@njit(cache=True)
def owner_logits(obs, out):
    """The model's logits (``out``, float32[OUTPUTS]) for an observation ``obs`` (int8[O_SIZE])."""
    forward(obs, INPUTS, W1, B1, W2, B2, W3, B3, out)


@njit(cache=True, inline="always")
def may_hold(need, excluded, i, card):
    """Can the ``i``-th other seat (of :func:`.sampling.unseen_cards`) hold ``card``: it has room and the view
    does not exclude it."""
    return need[i] > 0 and not (excluded[i] >> card) & 1


@njit(cache=True)
def probabilities_of(view, seat, hand, pool, n, others, need, excluded, out):
    """``out[4 * card + s]`` (float64[128]): the model's probability that seat ``s`` holds ``card``, for the
    ``n`` cards of ``pool`` (the unseen cards and the other seats as :func:`.sampling.unseen_cards` gave
    them); 0 for the other cards and for seats that cannot hold a card (:func:`may_hold`)."""
    contract = view[V_CONTRACT]
    swap = contract if contract < NT else 0
    obs = np.empty(O_SIZE, dtype=np.int8)
    encode_play(obs, seat, hand, view, swap)
    logits = np.empty(OUTPUTS, dtype=np.float32)
    owner_logits(obs, logits)
    for i in range(128):
        out[i] = 0.0
    for idx in range(n):
        card = pool[idx]
        slot = swap_card(card, swap)
        top = -1e30
        for i in range(3):
            if may_hold(need, excluded, i, card):
                top = max(top, logits[32 * ((others[i] - seat - 1) & 3) + slot])
        total = 0.0
        for i in range(3):
            if may_hold(need, excluded, i, card):
                e = math.exp(logits[32 * ((others[i] - seat - 1) & 3) + slot] - top)
                out[4 * card + others[i]] = e
                total += e
        for i in range(3):
            out[4 * card + others[i]] /= total


@njit(cache=True)
def unseen_of(view, seat, hand):
    """``(pool, n, others, need, excluded)``: the ``n`` cards ``seat`` cannot see and the other seats'
    needs (:func:`.sampling.unseen_cards`), in new arrays."""
    others = np.empty(3, dtype=np.int64)
    need = np.empty(3, dtype=np.int64)
    excluded = np.empty(3, dtype=np.int64)
    known = np.empty(3, dtype=np.int64)
    pool = np.empty(32, dtype=np.int64)
    n = unseen_cards(view, seat, hand, pool, others, need, excluded, known)
    return pool, n, others, need, excluded


@njit(cache=True)
def owner_probabilities(view, seat, hand, out):
    """:func:`probabilities_of` for the cards ``seat`` cannot see; returns their number."""
    pool, n, others, need, excluded = unseen_of(view, seat, hand)
    probabilities_of(view, seat, hand, pool, n, others, need, excluded, out)
    return n


@njit(cache=True)
def odds_of(p, pool, n, others, need, scratch):
    """Fill ``scratch[SW_ODDS + 4 * card + s]`` from the probabilities ``p`` (:func:`probabilities_of`): the
    odds over the seat's share of the unseen cards (module docstring; fixed point, :data:`ODDS_ONE` is even)."""
    for idx in range(n):
        card = pool[idx]
        for i in range(3):
            share = need[i] / n
            odds = p[4 * card + others[i]] / share if share > 0 else 0.0
            scratch[SW_ODDS + 4 * card + others[i]] = min(MAX_ODDS, max(1, int(odds * ODDS_ONE + 0.5)))


@njit(cache=True)
def model_odds(view, seat, hand, scratch):
    """Fill ``scratch[SW_ODDS:]`` with the model's odds for this decision (:func:`odds_of`): once per decision,
    before its layouts."""
    pool, n, others, need, excluded = unseen_of(view, seat, hand)
    p = np.empty(128, dtype=np.float64)
    probabilities_of(view, seat, hand, pool, n, others, need, excluded, p)
    odds_of(p, pool, n, others, need, scratch)


@njit(cache=True)
def sample_model_layout(view, seat, hand, scratch):
    """Deal the cards ``seat`` cannot see into a layout weighted by the model's odds (module docstring;
    :func:`model_odds` filled them for this decision); the hands go to ``scratch[SW_HANDS:SW_HANDS+4]``."""
    others = np.empty(3, dtype=np.int64)
    need = np.empty(3, dtype=np.int64)
    excluded = np.empty(3, dtype=np.int64)
    known = np.empty(3, dtype=np.int64)
    pool = scratch[SW_POOL:SW_POOL + 32]
    n = unseen_cards(view, seat, hand, pool, others, need, excluded, known)
    rng = shuffle(np.uint64(scratch[SW_RNG]), pool, n)  # the cards' order: no card always placed first
    scratch[SW_RNG] = np.int64(place_cards(rng, n, seat, hand, others, need, excluded, known, scratch, True))
