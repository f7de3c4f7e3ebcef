"""The searching players' per-thread ``scratch`` array (layout and per-deal reset), importable
without compiling the solver: plain play kernels need these names, not the search."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.solver_layout import MAX_GEN

S_GEN = 0  # last table stamp handed out
S_WORLD_RNG = 1  # the pimc world stream state (uint64 bits)
S_WORLDS = 2  # layouts sampled per pimc decision
S_DD_GEN = 3  # 3..4: stamp of the current deal's dd solves, per team (0 = none yet)
S_REJECTED = 5  # layouts that needed the constrained fallback (statistics)
S_DD_FINAL = 6  # 6..7: per team, the points its last dd decision expects it to end the deal with (-1: none)
S_OUT = 8  # 8..39: dd_moves output
S_SUM = 40  # 40..71: pimc totals per card
S_HANDS = 72  # 72..75: a sampled layout
S_POOL = 76  # 76..107: the unseen cards to deal
SCRATCH_SIZE = 108


@njit(cache=True)
def start_deal(scratch, world_rng):
    """Reset the per-deal state: new dd stamps on first use, no dd expectations, the deal's world
    stream."""
    scratch[S_DD_GEN] = 0
    scratch[S_DD_GEN + 1] = 0
    scratch[S_DD_FINAL] = -1
    scratch[S_DD_FINAL + 1] = -1
    scratch[S_WORLD_RNG] = np.int64(world_rng)


@njit(cache=True)
def new_gen(scratch, tt):
    """A fresh table stamp (the table is cleared when the stamps wrap)."""
    gen = scratch[S_GEN] + 1
    if gen > MAX_GEN:
        tt[:] = 0
        gen = 1
        scratch[S_DD_GEN] = 0
        scratch[S_DD_GEN + 1] = 0
    scratch[S_GEN] = gen
    return gen
