"""``neural``: the legal card a small network values most, from what the seat knows.

The network reads the seat's observation (:mod:`.encoding`, every slot but the auction's calls:
:data:`INPUTS` entries) with the trump suit of a suit contract named clubs, and gives each of the 32
cards a value: its estimate of the card's double-dummy value for the seat's team, as the labels it was
trained on measured it (``scripts/train_neural.py``, docs/players.md).  The player plays the legal card
of the highest value (the lowest card index among equal values), so it draws no random numbers.

The weights ship in the package (``belot_sim/data/neural.npz``; ``$BELOT_SIM_NEURAL_WEIGHTS``, set
before belot_sim is imported, names another file, e.g. a training run's) and are read once, when this
module is imported.  Numba compiles them into the kernels as constants (:mod:`..core.mlp`, the forward pass),
so no run needs torch, and :mod:`belot_sim._cache` keys the compiled kernels on the weights file too.

The network: ``INPUTS`` → ``H1`` → ``H2`` → 32, ReLU after each hidden layer; the file holds ``w1``
(INPUTS × H1), ``b1``, ``w2``, ``b2``, ``w3``, ``b3`` (``float32``, ``x @ w + b``).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from numba import njit

from ..core.bits import ctz
from ..core.layouts import O_AUCTION, O_SIZE, V_CONTRACT
from ..core.tables import NT
from .encoding import encode_play, swap_card
from ..core.mlp import forward, load_network, startup_network

#: The shipped weights; ``$BELOT_SIM_NEURAL_WEIGHTS`` overrides (:func:`weights_path`).
PACKAGE_WEIGHTS = Path(__file__).resolve().parents[2] / "data" / "neural.npz"
#: Observation entries the network reads: every slot before the auction's calls.
INPUTS = O_AUCTION


def weights_path() -> Path:
    """The weights file this process plays with."""
    return Path(os.environ.get("BELOT_SIM_NEURAL_WEIGHTS") or PACKAGE_WEIGHTS)


def load_weights(path) -> tuple[np.ndarray, ...]:
    """``(w1, b1, w2, b2, w3, b3)`` of a ``neural`` weights file (:func:`..core.mlp.load_network`)."""
    return load_network(path, INPUTS, 32, "neural")


#: The file whose weights were read at import (``None``: there was none, a stand-in of zeros is compiled in
#: and :func:`belot_sim.engine.registry.require_neural_weights` refuses the player).
LOADED_FROM, (W1, B1, W2, B2, W3, B3) = startup_network(weights_path(), INPUTS, 32, "neural")


@njit(cache=True)
def network_values(obs, out):
    """The network's 32 card values (``out``, float32[32]) for an observation ``obs`` (int8[O_SIZE])."""
    forward(obs, INPUTS, W1, B1, W2, B2, W3, B3, out)


@njit(cache=True)
def neural_card(legal, hand, seat, view):
    """The legal card of the highest network value (module docstring); one legal card is just played."""
    if legal & (legal - 1) == 0:
        return ctz(legal)
    contract = view[V_CONTRACT]
    swap = contract if contract < NT else 0  # trump named clubs
    obs = np.empty(O_SIZE, dtype=np.int8)
    encode_play(obs, seat, hand, view, swap)
    values = np.empty(32, dtype=np.float32)
    network_values(obs, values)
    best = -1
    best_value = np.float32(0)
    m = legal
    while m:
        card = ctz(m)
        m &= m - 1
        v = values[swap_card(card, swap)]
        if best < 0 or v > best_value:
            best, best_value = card, v
    return best
