"""``neural``: the legal card a small network values most, from what the seat knows.

The network reads the seat's observation (:mod:`.encoding`, every slot but the auction's calls:
:data:`INPUTS` entries) with the trump suit of a suit contract named clubs, and gives each of the 32
cards a value: its estimate of the card's double-dummy value for the seat's team, as the labels it was
trained on measured it (``scripts/train_neural.py``, docs/players.md).  The player plays the legal card
of the highest value (the lowest card index among equal values), so it draws no random numbers.

The weights ship in the package (``belot_sim/data/neural.npz``; ``$BELOT_SIM_NEURAL_WEIGHTS``, set
before belot_sim is imported, names another file, e.g. a training run's) and are read once, when this
module is imported.  Numba compiles them into the kernels as constants — the forward pass is plain loops
over ``float32`` rows, its first layer summing the rows of the inputs that are 1 — so no run needs torch,
and :mod:`belot_sim._cache` keys the compiled kernels on the weights file too.

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

#: The shipped weights; ``$BELOT_SIM_NEURAL_WEIGHTS`` overrides (:func:`weights_path`).
PACKAGE_WEIGHTS = Path(__file__).resolve().parents[2] / "data" / "neural.npz"
#: Observation entries the network reads: every slot before the auction's calls.
INPUTS = O_AUCTION
WEIGHT_NAMES = ("w1", "b1", "w2", "b2", "w3", "b3")
#: Numba compiles a global array into a kernel only up to this size; a larger one is read through a
#: pointer, and a kernel holding a pointer cannot be cached (every process would compile afresh).
MAX_ARRAY_BYTES = 10**6


def weights_path() -> Path:
    """The weights file this process plays with."""
    return Path(os.environ.get("BELOT_SIM_NEURAL_WEIGHTS") or PACKAGE_WEIGHTS)


def load_weights(path) -> tuple[np.ndarray, ...]:
    """``(w1, b1, w2, b2, w3, b3)`` from an ``.npz`` file, checked against the network's shape; a
    ValueError names what does not fit."""
    with np.load(path) as data:
        missing = [n for n in WEIGHT_NAMES if n not in data]
        if missing:
            raise ValueError(f"{path}: not neural weights (missing {', '.join(missing)})")
        arrays = tuple(np.ascontiguousarray(data[n], dtype=np.float32) for n in WEIGHT_NAMES)
    w1, b1, w2, b2, w3, b3 = arrays
    shapes_fit = (w1.ndim == 2 and w1.shape[0] == INPUTS and b1.shape == (w1.shape[1],) and w2.ndim == 2
                  and w2.shape[0] == w1.shape[1] and b2.shape == (w2.shape[1],) and w3.ndim == 2
                  and w3.shape == (w2.shape[1], 32) and b3.shape == (32,))
    if not shapes_fit:
        raise ValueError(f"{path}: weights of shapes {[a.shape for a in arrays]} do not make a network "
                         f"{INPUTS} -> H1 -> H2 -> 32")
    if max(a.nbytes for a in arrays) > MAX_ARRAY_BYTES:
        raise ValueError(f"{path}: an array of {max(a.nbytes for a in arrays):,} bytes is larger than Numba "
                         f"compiles into cached kernels ({MAX_ARRAY_BYTES:,}): make the first hidden layer smaller")
    if not all(np.isfinite(a).all() for a in arrays):
        raise ValueError(f"{path}: the weights hold a NaN or an infinity")
    return arrays


def _startup_weights():
    """``(file, weights)`` compiled into the kernels; when the file is missing, ``None`` and a stand-in of
    zeros (every card valued alike), so the kernels still compile — the Python edge then refuses the
    player (:func:`belot_sim.engine.registry.require_neural_weights`)."""
    path = weights_path()
    if path.is_file():
        return path.resolve(), load_weights(path)
    return None, (np.zeros((INPUTS, 1), np.float32), np.zeros(1, np.float32), np.zeros((1, 1), np.float32),
                  np.zeros(1, np.float32), np.zeros((1, 32), np.float32), np.zeros(32, np.float32))


#: The file whose weights were read at import (``None``: there was none, the stand-in is compiled in).
LOADED_FROM, (W1, B1, W2, B2, W3, B3) = _startup_weights()
H1, H2 = W1.shape[1], W2.shape[1]


@njit(cache=True, fastmath=True)
def network_values(obs, out):
    """The network's 32 card values (``out``, float32[32]) for an observation ``obs`` (int8[O_SIZE])."""
    h1 = B1.copy()
    for i in range(INPUTS):
        if obs[i]:
            row = W1[i]
            for j in range(H1):
                h1[j] += row[j]
    h2 = B2.copy()
    for i in range(H1):
        a = h1[i]
        if a > 0:  # ReLU: only the active units contribute
            row = W2[i]
            for j in range(H2):
                h2[j] += a * row[j]
    for j in range(32):
        out[j] = B3[j]
    for i in range(H2):
        a = h2[i]
        if a > 0:
            row = W3[i]
            for j in range(32):
                out[j] += a * row[j]


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
