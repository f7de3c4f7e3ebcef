"""One decision of any player, by its player code: the dispatch the play loop and the bots share.

:func:`decide_card` maps a player code to the code that chooses the card: the judging players
(codes below ``DD``) through :func:`.judging.choose_card`, the searching ones through
:func:`search_card`, an overload that imports :mod:`.dd_player` only when a kernel with a searching
player is typed (plain simulations never compile the solver).  The bots call :func:`decide_card`; the
play loop calls its two halves directly, after its inline ``random`` fast path — measured, calling
:func:`decide_card` from the loop (inlined or not) cost 10-14 % of ``hard`` play, its five array
arguments being reference-counted at every decision.  A player added to :mod:`.judging` (and
:data:`belot_sim.engine.registry.PLAYER_CODES`), or a searching player added to :func:`search_card`, plays
in ``simulate``, in the batch kernels and in :class:`belot_sim.Bot` alike.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from .judging import DD, EXPERT, HYBRID, PIMC_EXACT, choose_card


def search_card(player, legal, r32, hands, seat, view, family, ctx, tt, scratch):
    """The card of a searching player (``dd``, ``pimc``, ``pimc-exact``, ``expert``, ``hybrid``); callable from
    kernels only."""
    raise NotImplementedError("search_card is compiled into the kernels (see _search_card_impl)")


def searching_players():
    """``(player, argument types)`` of each searching player as every kernel calls it (all from
    :func:`_search_card_impl`): :func:`belot_sim.engine.searching.search_token` has them compiled in a
    second process while this one compiles the solver (a cold start some 15 s shorter on 2 cores)."""
    from .dd_player import dd_card, pimc_exact_card
    from .hybrid import hybrid_card

    array = types.int64[::1]
    own_hand = (types.int64, types.uint64, types.int64, types.int64, array, types.int64, array, array, array)
    every_hand = (types.int64, types.uint64, array, types.int64, array, types.int64, array, array, array)
    return ((hybrid_card, own_hand), (pimc_exact_card, own_hand), (dd_card, every_hand))


@overload(search_card)
def _search_card_impl(player, legal, r32, hands, seat, view, family, ctx, tt, scratch):
    # Imported here, when a kernel with a searching player is typed: plain simulations never load
    # the searching players (nor, through search_token, the compiled search).
    from .dd_player import dd_card, pimc_card, pimc_exact_card
    from .hybrid import hybrid_card
    from .pimc import MODEL_AUCTION_LAYOUTS, NO_BUDGET, UNIFORM_LAYOUTS

    def impl(player, legal, r32, hands, seat, view, family, ctx, tt, scratch):
        if player == DD:  # perfect information: reads every hand
            return dd_card(legal, r32, hands, seat, view, family, ctx, tt, scratch)
        if player == PIMC_EXACT:
            return pimc_exact_card(legal, r32, hands[seat], seat, view, family, ctx, tt, scratch)
        if player == HYBRID:
            return hybrid_card(legal, r32, hands[seat], seat, view, family, ctx, tt, scratch)
        sampler = MODEL_AUCTION_LAYOUTS if player == EXPERT else UNIFORM_LAYOUTS
        return pimc_card(legal, r32, hands[seat], seat, view, family, ctx, tt, scratch, sampler, np.int64(NO_BUDGET))

    return impl


@njit(cache=True)
def decide_card(player, legal, r32, hands, seat, view, family, ctx, tt, scratch, search):
    """The card ``player`` (a player code) plays for the seat to move.

    ``legal``: its legal cards; ``r32``: this decision's uniform 32-bit value; ``hands``: int64[4]
    holding the seat's own hand at ``hands[seat]`` (only ``dd`` reads the other entries); ``view``:
    the public view (:mod:`.view`); ``ctx``/``tt``/``scratch``: the searching players' work space
    (:func:`belot_sim.kernels.play_loop.play_scratch`).  ``search``: ``None`` when no searching
    player can be asked (Numba prunes that branch and never compiles the solver; a searching code
    then returns -1), else any array.
    """
    if player >= DD:
        if search is None:  # pruned by Numba: the solver is not compiled
            return -1
        return search_card(player, legal, r32, hands, seat, view, family, ctx, tt, scratch)
    return choose_card(player, legal, r32, hands[seat], seat, view, family)
