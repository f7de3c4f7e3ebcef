"""One deal's play in the fast engine: the 32 cards played by per-seat players, then scored.

Array-and-scalar kernels shared by the batch kernels (:mod:`belot_sim.kernels.batch`), the ``mc``
bidder (which plays sampled layouts) and the bid-estimate kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload

from .core.layouts import C_SEARCH_FN, C_SIZE, SCRATCH_SIZE, SP_WORLDS, SS_TURNED_CARD, V_SIZE
from .core.play import beats, belot_cards, legal_mask
from .core.rng import halves, next_u64
from .core.rule_flags import AT_OVERTAKE, DECLARATIONS, UNDERTRUMP
from .core.scoring import score_play
from .core.tables import AT, BELOT, LAST_TRICK, NT, POINTS, TRICK_MULT
from .players.decide import search_card
from .players.judging import DD, NEURAL, NORMAL, PIMC, RANDOM, choose_card, random_card
from .players.view import announce_belot, next_trick, record_card, show_declarations, show_turned, start_view

#: Solver table slots per thread for the searching players (2**16 slots = 1 MiB, see solve.TT_BITS).
SEARCH_TT_BITS = 16


@njit(cache=True)
def searching(players):
    """Does a seat use a searching player (``dd``/``pimc``, which need the solver's table)?"""
    for seat in range(4):
        if players[seat] >= DD:
            return True
    return False


@njit(cache=True)
def play_scratch(players, worlds, search):
    """One thread's work arrays for :func:`play_deal`: ``(belot_open, view, no_record, ctx, tt,
    scratch)``.  The 1 MiB solver table only when a searching player is seated, and then two
    solver contexts back to back (one per team, see :func:`.players.dd_player.dd_card`), each given
    the search's addresses from ``search`` (:func:`belot_sim.kernels.solver.api.search_entries`;
    ``None`` when no seat searches); ``worlds``: layouts per ``pimc`` decision."""
    search_players = searching(players)
    belot_open = np.empty(4, dtype=np.int64)
    view = np.zeros(V_SIZE, dtype=np.int64)
    no_record = np.empty(32, dtype=np.int8)
    ctx = np.zeros(2 * C_SIZE if search_players else 1, dtype=np.int64)
    if search is not None and search_players:
        for k in range(2):
            ctx[k * C_SIZE + C_SEARCH_FN] = search[0]
            ctx[k * C_SIZE + C_SEARCH_FN + 1] = search[1]
    tt = np.zeros(2 << SEARCH_TT_BITS if search_players else 2, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    scratch[SP_WORLDS] = worlds
    scratch[SS_TURNED_CARD] = -1  # none until a deal with one starts (0 would be a card)
    return belot_open, view, no_record, ctx, tt, scratch


def dd_deal(hands, dealer, contract, declarer, multiplier, family, flags, ctx, tt, scratch):
    """``(decided, result)``: a deal with every seat ``dd`` from one solve (:func:`.players.all_dd.minimax_result`);
    callable from kernels only."""
    raise NotImplementedError("dd_deal is compiled into the kernels (see _dd_deal_impl)")


@overload(dd_deal)
def _dd_deal_impl(hands, dealer, contract, declarer, multiplier, family, flags, ctx, tt, scratch):
    # Imported when typed, as players.decide.search_card: only kernels with a searching player compile the solver.
    from .players.all_dd import minimax_result

    def impl(hands, dealer, contract, declarer, multiplier, family, flags, ctx, tt, scratch):
        return minimax_result(hands, dealer, contract, declarer, multiplier, family, flags, ctx, tt, scratch)

    return impl


@njit(cache=True)
def no_at_belot(hands):
    """No seat holds a K and Q of one suit: in AT nobody can score a belot, so every seat's
    objective is its team's trick points and card-by-card double-dummy play reaches the minimax
    value (:mod:`.players.all_dd`)."""
    for s in range(4):
        if belot_cards(hands[s], AT):
            return False
    return True


@njit(cache=True)
def play_deal(hands, dealer, contract, declarer, multiplier, family, flags, players, rng, belot_open, view, record,
              play_seat, play_card, ctx, tt, scratch, search):
    """Play one deal from ``hands`` (modified) under the rule options ``flags`` (:mod:`.core.rule_flags`).

    ``search``: ``None`` when no seat uses a searching player (``dd``/``pimc``), else any array.
    Numba prunes the searching players for ``None`` before typing and never compiles the solver
    into such a kernel, which keeps the first compilation of plain simulations short.

    Scratch: ``belot_open`` (int64[4], each seat's undecided belot K/Q cards), ``view``
    (the public view the strategic players read; kept card by card only when a seat needs it)
    and, for the searching players (``dd``, ``pimc``), the solver's ``ctx``/``tt`` and their
    ``scratch`` (:data:`.core.layouts.SCRATCH`; the caller starts its world stream per deal).

    Returns ``(rng, trick_points0, trick_points1, declared0, declared1, belot0, belot1, valat,
    raw0, raw1, outcome, score0, score1, hanging)`` (positions ``R_*`` of
    :data:`belot_sim.kernels.core.layouts.PLAYED_DEAL`).  When ``record``, the 32 plays go to
    ``play_seat`` / ``play_card``.  With ``dd`` in every seat and no plays to record, the deal is
    usually one minimax solve (:mod:`.players.all_dd`; ``hands`` and ``rng`` are then left as they are).
    """
    if search is not None:  # (pruned by Numba when no seat searches)
        all_dd = players[0] == DD and players[1] == DD and players[2] == DD and players[3] == DD
        if all_dd and not record and (contract != AT or no_at_belot(hands)):
            # Every seat double-dummy: one minimax solve gives the same result as playing the
            # cards one by one, whenever that is exact (players/all_dd.py).
            decided, result = dd_deal(hands, dealer, contract, declarer, multiplier, family, flags, ctx, tt, scratch)
            if decided:
                return (rng,) + result
    undertrump_required = (flags & UNDERTRUMP) != 0
    at_overtake_partner = (flags & AT_OVERTAKE) != 0
    initial0, initial1, initial2, initial3 = hands[0], hands[1], hands[2], hands[3]
    for seat in range(4):
        belot_open[seat] = belot_cards(hands[seat], contract) if contract != NT else 0
    points = POINTS[family, contract]
    # The view is started every deal (easy reads the contract from it) but only kept up to
    # date card by card when a judging player (normal, hard) needs the history.
    start_view(view, contract, declarer, multiplier, (dealer + 1) & 3, undertrump_required, at_overtake_partner)
    needs_view = False
    needs_known = False
    for seat in range(4):
        needs_view = needs_view or players[seat] >= NORMAL
        # the sampling players and neural also read what the declarations and belots showed
        needs_known = needs_known or players[seat] >= PIMC or players[seat] == NEURAL
    if needs_known:
        show_turned(view, scratch[SS_TURNED_CARD])
    belot0 = 0
    belot1 = 0
    points0 = 0
    points1 = 0
    tricks0 = 0
    leader = (dealer + 1) & 3
    n = 0
    spare = np.uint64(0)
    for trick in range(8):
        led_suit = -1
        winning = 0
        winner = leader
        trick_points = 0
        for pos in range(4):
            seat = (leader + pos) & 3
            partner_winning = pos > 0 and ((winner ^ seat) & 1) == 0
            legal = legal_mask(hands[seat], led_suit, winning, partner_winning, contract,
                               undertrump_required, at_overtake_partner)
            if n & 1 == 0:  # one 64-bit draw serves two decisions
                rng, u = next_u64(rng)
                r32, spare = halves(u)
            else:
                r32 = spare
            player = players[seat]
            if player == RANDOM:  # the common case, kept inline
                card = random_card(legal, r32)
            # The two halves of players.decide.decide_card, called directly: calling decide_card
            # here costs 10-14 % of hard play (its five array arguments get reference-counted).
            elif player >= DD:
                if search is None:  # pruned by Numba when no seat searches: the solver is not compiled
                    card = -1
                else:
                    card = search_card(player, legal, r32, hands, seat, view, family, ctx, tt, scratch)
            else:
                card = choose_card(player, legal, r32, hands[seat], seat, view, family)
            if needs_view:
                record_card(view, seat, card, points[card])
            suit = card >> 3
            if (belot_open[seat] >> card) & 1:
                # The first of K/Q decides the belot: own suit (led, followed, trumped) keeps it.
                belot_open[seat] &= ~(0xFF << (8 * suit))
                if contract < NT or pos == 0 or suit == led_suit:
                    if seat & 1:
                        belot1 += BELOT
                    else:
                        belot0 += BELOT
                    if needs_known:  # announcing the belot shows where its other card is
                        announce_belot(view, seat, suit)
            hands[seat] &= ~(1 << card)
            trick_points += points[card]
            if pos == 0:
                led_suit = suit
                winning = card
            else:
                better = beats(card, winning, contract)
                winning = card if better else winning
                winner = seat if better else winner
            if record:
                play_seat[n] = seat
                play_card[n] = card
            n += 1
        if winner & 1:
            points1 += trick_points
        else:
            points0 += trick_points
            tricks0 += 1
        leader = winner
        if needs_view:
            next_trick(view)
        if needs_known and trick == 0 and flags & DECLARATIONS and contract != NT:
            # The declarations the scoring team announced are shown at the end of the first trick.
            show_declarations(view, initial0, initial1, initial2, initial3, contract, family, flags)
    if leader & 1:  # the last trick's winner leads "next"
        points1 += LAST_TRICK
    else:
        points0 += LAST_TRICK
    mult = TRICK_MULT[family, contract]
    valat = 0 if tricks0 == 8 else 1 if tricks0 == 0 else -1
    return (rng,) + score_play(initial0, initial1, initial2, initial3, contract, declarer, multiplier, family, flags,
                               points0 * mult, points1 * mult, belot0, belot1, valat)
