"""The bidders' codes inside the kernels (Python names them: :data:`belot_sim.engine.registry.BIDDERS`)."""

from __future__ import annotations

RANDOM_BIDDER, HEURISTIC, MC_BIDDER, ATLAS_BIDDER, NEURAL_BIDDER = 0, 1, 2, 3, 4
