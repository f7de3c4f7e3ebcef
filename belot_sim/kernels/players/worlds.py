"""The double-dummy value of every legal card over sampled layouts: the sampling half of
:func:`belot_sim.analyze` (``pimc_mean``, ``pimc_se``, ``p_best``).

The layouts are drawn as ``pimc`` draws them (:func:`.sampling.sample_layout`, consistent with the
seat's view and hand) from the world stream a :class:`belot_sim.Bot` would use at this position
(:func:`.position.start_streams`): with the same seed, the first ``worlds`` layouts of an analysis are
the ones a ``pimc`` bot with as many worlds solves.
"""

from __future__ import annotations

from numba import njit

from ..core.layouts import (H_FAMILY, SW_HANDS, V_AT_OVERTAKE_PARTNER, V_CONTRACT, V_LEADER, V_POS, V_TRICK,
                            V_TRICKS_WON, V_TRICK_CARD, V_UNDERTRUMP_REQUIRED)
from ..solver.api import dd_moves
from .position import legal_now, replay_view, seen_hands, start_streams
from .sampling import sample_layout
from .scratch import new_gen


@njit(cache=True)
def layout_values(record, view, ctx, tt, scratch, out):
    """``out[w, card]``: the value of each legal card for the mover's team in layout ``w`` of
    ``out.shape[0]`` layouts; returns the legal mask.  Values count what is still to come, as
    :func:`belot_sim.solve` of a state (valat while the team has won every completed trick)."""
    replay_view(view, record)
    seat = (view[V_LEADER] + view[V_POS]) & 3
    hand = seen_hands(record, view, seat)[seat]
    legal = legal_now(hand, seat, view)
    start_streams(record, view, hand, seat, scratch)
    team = seat & 1
    valat = view[V_TRICKS_WON + team] == view[V_TRICK]
    for w in range(out.shape[0]):
        sample_layout(view, seat, hand, scratch)
        dd_moves(scratch[SW_HANDS:SW_HANDS + 4], view[V_LEADER], view[V_TRICK_CARD:V_TRICK_CARD + 4], view[V_POS],
                 view[V_CONTRACT], team, record[H_FAMILY], view[V_UNDERTRUMP_REQUIRED] == 1,
                 view[V_AT_OVERTAKE_PARTNER] == 1, valat, ctx, tt, new_gen(scratch, tt), out[w])
    return legal
