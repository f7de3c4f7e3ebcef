"""The searching players' per-thread ``scratch`` array (:data:`belot_sim.kernels.core.layouts.SCRATCH`, in
sections by owner; this module owns ``SS_``, the deal's shared state): its per-deal reset and table stamps,
importable without compiling the solver."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.layouts import MAX_GEN, SD_FINAL, SD_GEN, SS_GEN, SS_TURNED_CARD, SW_RNG


@njit(cache=True)
def start_deal(scratch, world_rng, turned_card=-1):
    """Reset the per-deal state: new dd stamps on first use, no dd expectations, the deal's world
    stream and its classic ``turned_card``, which the declarer took (-1: none; the play loop shows
    it to the sampling players, :func:`.view.show_turned`)."""
    scratch[SD_GEN] = 0
    scratch[SD_GEN + 1] = 0
    scratch[SD_FINAL] = -1
    scratch[SD_FINAL + 1] = -1
    scratch[SS_TURNED_CARD] = turned_card
    scratch[SW_RNG] = np.int64(world_rng)


@njit(cache=True)
def new_gen(scratch, tt):
    """A fresh table stamp (the table is cleared when the stamps wrap)."""
    gen = scratch[SS_GEN] + 1
    if gen > MAX_GEN:
        tt[:] = 0
        gen = 1
        scratch[SD_GEN] = 0
        scratch[SD_GEN + 1] = 0
    scratch[SS_GEN] = gen
    return gen
