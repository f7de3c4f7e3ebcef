"""The small networks the learned players read (``neural``'s card values, the card-ownership model):
their weights files and their forward pass, plain Numba loops over ``float32`` rows.

A network is ``inputs`` → ``H1`` → ``H2`` → ``outputs``, ReLU after each hidden layer, its file an
``.npz`` of ``w1`` (inputs × H1), ``b1``, ``w2``, ``b2``, ``w3``, ``b3`` (``x @ w + b``).  The weights
are read when the module that plays them is imported and compiled into the kernels as constants, so no
run needs torch.

The mean of K networks of one shape is one network of K blocks (:func:`forward_blocks`): their hidden
units side by side, ``w2`` the K second layers (K × H1 × H2) — the block-diagonal matrix without its
zeros, which would cost K times the arithmetic and the memory — and ``w3`` their last layers stacked and
divided by K.  One network is one block.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

WEIGHT_NAMES = ("w1", "b1", "w2", "b2", "w3", "b3")
#: Numba compiles a global array into a kernel only up to this size; a larger one is read through a
#: pointer, and a kernel holding a pointer cannot be cached (every process would compile afresh).
MAX_ARRAY_BYTES = 10**6


def load_network(path, inputs: int, outputs: int, what: str, blocks: bool = False) -> tuple[np.ndarray, ...]:
    """``(w1, b1, w2, b2, w3, b3)`` from an ``.npz`` file, checked against the shape ``inputs`` → H1 → H2 →
    ``outputs``; a ValueError names what does not fit (``what``: the network's name).  With ``blocks``
    ``w2`` is K blocks (K × H1/K × H2/K; a file's one network is one block, :func:`forward_blocks`)."""
    with np.load(path) as data:
        missing = [n for n in WEIGHT_NAMES if n not in data]
        if missing:
            raise ValueError(f"{path}: not {what} weights (missing {', '.join(missing)})")
        arrays = tuple(np.ascontiguousarray(data[n], dtype=np.float32) for n in WEIGHT_NAMES)
    w1, b1, w2, b2, w3, b3 = arrays
    if blocks and w2.ndim == 2:
        w2 = w2[None]
        arrays = (w1, b1, w2, b2, w3, b3)
    k, h1, h2 = (w2.shape if w2.ndim == 3 else (1, *w2.shape)) if w2.ndim in (2, 3) else (0, 0, 0)
    shapes_fit = (w1.ndim == 2 and w1.shape[0] == inputs and b1.shape == (w1.shape[1],)
                  and w2.ndim == (3 if blocks else 2) and k * h1 == w1.shape[1] and b2.shape == (k * h2,)
                  and w3.ndim == 2 and w3.shape == (k * h2, outputs) and b3.shape == (outputs,))
    if not shapes_fit:
        raise ValueError(f"{path}: weights of shapes {[a.shape for a in arrays]} do not make a network "
                         f"{inputs} -> H1 -> H2 -> {outputs}" + (" (w2: K blocks)" if blocks else ""))
    if max(a.nbytes for a in arrays) > MAX_ARRAY_BYTES:
        raise ValueError(f"{path}: an array of {max(a.nbytes for a in arrays):,} bytes is larger than Numba "
                         f"compiles into cached kernels ({MAX_ARRAY_BYTES:,}): make the first hidden layer smaller")
    if not all(np.isfinite(a).all() for a in arrays):
        raise ValueError(f"{path}: the weights hold a NaN or an infinity")
    return arrays


def startup_network(path: Path, inputs: int, outputs: int, what: str, blocks: bool = False):
    """``(file, weights)`` a module compiles into its kernels at import: the file's, or when it is missing
    ``None`` and a stand-in of zeros (every output 0) so the kernels still compile — the Python edge then
    refuses the players that need the weights.  ``blocks``: as :func:`load_network`."""
    if path.is_file():
        return path.resolve(), load_network(path, inputs, outputs, what, blocks)
    return None, (np.zeros((inputs, 1), np.float32), np.zeros(1, np.float32),
                  np.zeros((1, 1, 1) if blocks else (1, 1), np.float32), np.zeros(1, np.float32),
                  np.zeros((1, outputs), np.float32), np.zeros(outputs, np.float32))


@njit(cache=True, fastmath=True, inline="always")
def _first_layer(obs, inputs, w1, b1):
    """The first hidden layer before its ReLU: ``b1`` plus the rows of ``w1`` whose 0/1 input is 1."""
    h1 = b1.copy()
    n1 = h1.size
    for i in range(inputs):
        if obs[i]:
            row = w1[i]
            for j in range(n1):
                h1[j] += row[j]
    return h1


@njit(cache=True, fastmath=True, inline="always")
def _relu_layer(h, w, b, out):
    """``out`` = ``b`` plus ``relu(h) @ w``, skipping the inactive units of ``h``."""
    n = out.size
    for j in range(n):
        out[j] = b[j]
    for i in range(h.size):
        a = h[i]
        if a > 0:  # ReLU: only the active units contribute
            row = w[i]
            for j in range(n):
                out[j] += a * row[j]


@njit(cache=True, fastmath=True, inline="always")
def forward(obs, inputs, w1, b1, w2, b2, w3, b3, out):
    """``out`` = the network's outputs for the 0/1 inputs ``obs[:inputs]``; the first layer sums the rows
    of the inputs that are 1, the others skip the inactive units."""
    h1 = _first_layer(obs, inputs, w1, b1)
    h2 = np.empty(b2.size, dtype=b2.dtype)
    _relu_layer(h1, w2, b2, h2)
    _relu_layer(h2, w3, b3, out)


@njit(cache=True, fastmath=True, inline="always")
def forward_blocks(obs, inputs, w1, b1, w2, b2, w3, b3, out):
    """:func:`forward` of K networks side by side (``w2``: K × H1 × H2, one second layer per network): each
    block's second layer reads its own first-layer units only."""
    h1 = _first_layer(obs, inputs, w1, b1)
    h2 = np.empty(b2.size, dtype=b2.dtype)
    blocks, rows, cols = w2.shape
    for k in range(blocks):
        _relu_layer(h1[k * rows:(k + 1) * rows], w2[k], b2[k * cols:(k + 1) * cols], h2[k * cols:(k + 1) * cols])
    _relu_layer(h2, w3, b3, out)
