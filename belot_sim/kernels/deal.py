"""One deal in the fast engine: shuffle and deal a pack, play the 32 cards, score the result.

Array-and-scalar kernels shared by the batch rollouts (:mod:`.rollout`), the bidders that
simulate deals (:mod:`belot_sim.players.mc_bidder`) and the match and bid-estimate kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload

from ..players.dispatch import DD, NORMAL, PIMC, RANDOM, choose_card, random_card
from ..players.search_scratch import S_WORLDS, SCRATCH_SIZE, start_deal
from ..players.view import KNOWN, SIZE as VIEW_SIZE, next_trick, record_card, start_view
from .bits import popcount
from .auction import STATE_SIZE, auction_hands, classic_final_hands, run_auction_params
from .declarations import declared_points, shown_cards
from .play import beats, legal_mask
from .rng import AUCTION_STREAM, DEAL_STREAM, PLAY_STREAM, WORLD_STREAM, halves, next_u64, scale32, stream_start
from .scoring import VOID, score_bulgarian, score_classic
from .solver_layout import CTX_SIZE
from .tables import AT, NT, POINTS, TRICK_MULT

KING, QUEEN = 6, 5
#: Solver table slots per thread for the searching players (2**16 slots = 1 MiB, see solve.TT_BITS).
SEARCH_TT_BITS = 16


@njit(cache=True)
def searching(policies):
    """Does a seat use a searching player (``dd``/``pimc``, which need the solver's table)?"""
    for seat in range(4):
        if policies[seat] >= DD:
            return True
    return False


@njit(cache=True)
def play_scratch(policies, worlds):
    """One thread's work arrays for :func:`play_deal`: ``(belot_open, view, no_record, ctx, tt,
    scratch)``.  The 1 MiB solver table only when a searching player is seated, and then two
    solver contexts back to back (one per team, see :func:`belot_sim.players.search.dd_card`);
    ``worlds``: layouts per ``pimc`` decision."""
    search = searching(policies)
    belot_open = np.empty(4, dtype=np.int64)
    view = np.zeros(VIEW_SIZE, dtype=np.int64)
    no_record = np.empty(32, dtype=np.int8)
    ctx = np.zeros(2 * CTX_SIZE if search else 1, dtype=np.int64)
    tt = np.zeros(2 << SEARCH_TT_BITS if search else 2, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    scratch[S_WORLDS] = worlds
    return belot_open, view, no_record, ctx, tt, scratch


@njit(cache=True)
def deal_scratch():
    """One thread's arrays for dealing a pack and holding its auction (:func:`auction_and_play`):
    ``(pack, hands, hands5, auction_state)``."""
    return (np.empty(32, dtype=np.int64), np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64),
            np.empty(STATE_SIZE, dtype=np.int64))


@njit(cache=True)
def fill_hands(fixed, rng, pool, hands):
    """Deal the cards in no ``fixed`` mask uniformly so that every seat ends with 8: each seat keeps
    ``fixed[s]``; a Fisher-Yates shuffle of the rest (``pool``: int64[32] scratch) is dealt in seat
    order.  Returns the advanced ``rng``."""
    taken = fixed[0] | fixed[1] | fixed[2] | fixed[3]
    n = 0
    for c in range(32):
        if not (taken >> c) & 1:
            pool[n] = c
            n += 1
    for i in range(n - 1, 0, -1):
        rng, u = next_u64(rng)
        j = scale32(u >> np.uint64(32), i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    idx = 0
    for s in range(4):
        mask = fixed[s]
        for _ in range(8 - popcount(fixed[s])):
            mask |= 1 << pool[idx]
            idx += 1
        hands[s] = mask
    return rng


@njit(cache=True)
def deal_pack(seed, deal_id, pack):
    """Shuffle ``pack`` (32 cards) for this deal and draw its dealer (Fisher–Yates)."""
    rng = stream_start(seed, deal_id, DEAL_STREAM)
    for i in range(32):
        pack[i] = i
    for i in range(31, 1, -2):  # two swaps per 64 random bits
        rng, u = next_u64(rng)
        high, low = halves(u)
        j = scale32(high, i + 1)
        pack[i], pack[j] = pack[j], pack[i]
        j = scale32(low, i)
        pack[i - 1], pack[j] = pack[j], pack[i - 1]
    rng, u = next_u64(rng)
    high, low = halves(u)
    j = scale32(high, 2)
    pack[1], pack[j] = pack[j], pack[1]
    return scale32(low, 4)  # the dealer


@njit(cache=True)
def hands_from_pack(pack, dealer, hands):
    """Bulgarian dealing (reference/dealing.py): order j after the dealer gets
    ``pack[5j:5j+5]`` and ``pack[20+3j:23+3j]``."""
    for j in range(4):
        mask = 0
        for k in range(5):
            mask |= 1 << pack[5 * j + k]
        for k in range(3):
            mask |= 1 << pack[20 + 3 * j + k]
        hands[(dealer + 1 + j) & 3] = mask


@njit(cache=True, inline="always")
def belot_cards(hand, contract):
    """Mask of the K and Q of every trump suit whose K and Q are both in ``hand``."""
    cards = 0
    for s in range(4):
        if contract == AT or contract == s:
            pair = (1 << (8 * s + KING)) | (1 << (8 * s + QUEEN))
            if hand & pair == pair:
                cards |= pair
    return cards


def search_card(policy, legal, r32, hands, seat, view, family, ctx, tt, scratch):
    """The card of a searching player (``dd`` or ``pimc``); callable from kernels only."""
    raise NotImplementedError("search_card is compiled into the kernels (see _search_card_impl)")


@overload(search_card)
def _search_card_impl(policy, legal, r32, hands, seat, view, family, ctx, tt, scratch):
    # Imported here, when a kernel with a searching player is typed: importing the solver
    # compiles its search, which plain simulations should not wait for.
    from ..players.search import dd_card, pimc_card

    def impl(policy, legal, r32, hands, seat, view, family, ctx, tt, scratch):
        if policy == DD:  # perfect information: reads every hand
            return dd_card(legal, r32, hands, seat, view, family, ctx, tt, scratch)
        return pimc_card(legal, r32, hands[seat], seat, view, family, ctx, tt, scratch)

    return impl


def dd_deal(hands, dealer, contract, declarer, multiplier, family, undertrump_required, at_overtake_partner,
            declarations_on, ctx, tt, scratch):
    """``(decided, result)``: a deal with every seat ``dd`` from one solve (:func:`.dd_deal.minimax_result`);
    callable from kernels only."""
    raise NotImplementedError("dd_deal is compiled into the kernels (see _dd_deal_impl)")


@overload(dd_deal)
def _dd_deal_impl(hands, dealer, contract, declarer, multiplier, family, undertrump_required, at_overtake_partner,
                  declarations_on, ctx, tt, scratch):
    # Imported when typed, as search_card: only kernels with a searching player compile the solver.
    from .dd_deal import minimax_result

    def impl(hands, dealer, contract, declarer, multiplier, family, undertrump_required, at_overtake_partner,
             declarations_on, ctx, tt, scratch):
        return minimax_result(hands, dealer, contract, declarer, multiplier, family, undertrump_required,
                              at_overtake_partner, declarations_on, ctx, tt, scratch)

    return impl


@njit(cache=True)
def no_at_belot(hands):
    """No seat holds a K and Q of one suit: in AT nobody can score a belot, so every seat's
    objective is its team's trick points and card-by-card double-dummy play reaches the minimax
    value (:mod:`.dd_deal`)."""
    for s in range(4):
        if belot_cards(hands[s], AT):
            return False
    return True


@njit(cache=True)
def play_deal(hands, dealer, contract, declarer, multiplier, family, undertrump_required, at_overtake_partner,
              declarations_on, policies, rng, belot_open, view, record, play_seat, play_card, ctx, tt, scratch,
              search):
    """Play one deal from ``hands`` (modified).

    ``search``: ``None`` when no seat uses a searching player (``dd``/``pimc``), else any array.
    Numba prunes the searching players for ``None`` before typing and never compiles the solver
    into such a kernel, which keeps the first compilation of plain simulations short.

    Scratch: ``belot_open`` (int64[4], each seat's undecided belot K/Q cards), ``view``
    (the public view the strategic players read; kept card by card only when a seat needs it)
    and, for the searching players (``dd``, ``pimc``), the solver's ``ctx``/``tt`` and their
    ``scratch`` (:mod:`belot_sim.players.search`; the caller starts its world stream per deal).

    Returns ``(rng, trick_points0, trick_points1, declared0, declared1, belot0, belot1, valat,
    raw0, raw1, outcome, score0, score1, hanging)``.  When ``record``, the 32 plays go to
    ``play_seat`` / ``play_card``.  With ``dd`` in every seat and no plays to record, the deal is
    usually one minimax solve (:mod:`.dd_deal`; ``hands`` and ``rng`` are then left as they are).
    """
    if search is not None:  # (pruned by Numba when no seat searches)
        all_dd = policies[0] == DD and policies[1] == DD and policies[2] == DD and policies[3] == DD
        if all_dd and not record and (contract != AT or no_at_belot(hands)):
            # Every seat double-dummy: one minimax solve gives the same result as playing the
            # cards one by one, whenever that is exact (kernels/dd_deal.py).
            decided, result = dd_deal(hands, dealer, contract, declarer, multiplier, family, undertrump_required,
                                      at_overtake_partner, declarations_on, ctx, tt, scratch)
            if decided:
                return (rng,) + result
    initial0, initial1, initial2, initial3 = hands[0], hands[1], hands[2], hands[3]
    for seat in range(4):
        belot_open[seat] = belot_cards(hands[seat], contract) if contract != NT else 0
    points = POINTS[family, contract]
    # The view is started every deal (easy reads the contract from it) but only kept up to
    # date card by card when a judging player (normal, hard) needs the history.
    start_view(view, contract, declarer, (dealer + 1) & 3, undertrump_required, at_overtake_partner)
    needs_view = False
    needs_known = False  # pimc also reads what the declarations and belots showed
    for seat in range(4):
        needs_view = needs_view or policies[seat] >= NORMAL
        needs_known = needs_known or policies[seat] == PIMC
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
            policy = policies[seat]
            if policy == RANDOM:  # the common case, kept inline
                card = random_card(legal, r32)
            elif policy >= DD:
                if search is None:  # pruned by Numba when no seat searches: the solver is not compiled
                    card = -1
                else:
                    card = search_card(policy, legal, r32, hands, seat, view, family, ctx, tt, scratch)
            else:
                card = choose_card(policy, legal, r32, hands[seat], seat, view, family)
            if needs_view:
                record_card(view, seat, card, points[card])
            suit = card >> 3
            if (belot_open[seat] >> card) & 1:
                # The first of K/Q decides the belot: own suit (led, followed, trumped) keeps it.
                belot_open[seat] &= ~(0xFF << (8 * suit))
                if contract < NT or pos == 0 or suit == led_suit:
                    if seat & 1:
                        belot1 += 20
                    else:
                        belot0 += 20
                    if needs_known:  # announcing the belot shows where its other card is
                        view[KNOWN + seat] |= (1 << (8 * suit + KING)) | (1 << (8 * suit + QUEEN))
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
        if needs_known and trick == 0 and declarations_on and contract != NT:
            # The declarations the scoring team announced are shown during the first trick.
            initial = np.empty(4, dtype=np.int64)
            initial[0], initial[1], initial[2], initial[3] = initial0, initial1, initial2, initial3
            shown = np.empty(4, dtype=np.int64)
            shown_cards(initial, contract, family == 1, shown)
            for s in range(4):
                view[KNOWN + s] |= shown[s]
    if leader & 1:  # the last trick's winner leads "next"
        points1 += 10
    else:
        points0 += 10
    mult = TRICK_MULT[family, contract]
    valat = 0 if tricks0 == 8 else 1 if tricks0 == 0 else -1
    return (rng,) + score_play(initial0, initial1, initial2, initial3, contract, declarer, multiplier, family,
                               declarations_on, points0 * mult, points1 * mult, belot0, belot1, valat)


@njit(cache=True)
def score_play(initial0, initial1, initial2, initial3, contract, declarer, multiplier, family, declarations_on,
               points0, points1, belot0, belot1, valat):
    """Score a played deal (RULES.md §7/§8) from its trick points (last trick and NT doubling
    included), belots and valat team (-1 none), adding the declarations of the initial hands.

    Returns ``(trick_points0, trick_points1, declared0, declared1, belot0, belot1, valat, raw0, raw1,
    outcome, score0, score1, hanging)``.
    """
    declared0 = 0
    declared1 = 0
    if declarations_on and contract != NT:
        declared0, declared1 = declared_points(initial0, initial1, initial2, initial3, contract, family == 1)
    raw0 = points0 + declared0 + belot0 + (90 if valat == 0 else 0)
    raw1 = points1 + declared1 + belot1 + (90 if valat == 1 else 0)
    bidding_team = declarer & 1
    if bidding_team == 0:
        raw_b, raw_d, belot_b, belot_d = raw0, raw1, belot0, belot1
    else:
        raw_b, raw_d, belot_b, belot_d = raw1, raw0, belot1, belot0
    if family == 0:
        outcome, score_b, score_d, hanging = score_bulgarian(contract, raw_b, raw_d, multiplier)
    else:
        defenders_capot = valat >= 0 and valat != bidding_team
        outcome, score_b, score_d, hanging = score_classic(raw_b, raw_d, belot_b, belot_d, declared0 + declared1,
                                                           defenders_capot)
    score0 = score_b if bidding_team == 0 else score_d
    score1 = score_d if bidding_team == 0 else score_b
    return (points0, points1, declared0, declared1, belot0, belot1, valat, raw0, raw1, outcome,
            score0, score1, hanging)


@njit(cache=True, inline="always")
def store_result(small_out, points_out, i, dealer, contract, declarer, multiplier, n_calls, r):
    """Column ``i`` of the batch outputs from a :func:`play_deal` result ``r``: ``small_out``
    int8[7, n] (dealer, contract, declarer, valat, outcome, multiplier, calls) and ``points_out``
    int16[11, n] (trick_points0/1, declared0/1, belot0/1, raw0/1, score0/1, hanging)."""
    small_out[0, i] = dealer
    small_out[1, i] = contract
    small_out[2, i] = declarer
    small_out[3, i] = r[7]
    small_out[4, i] = r[10]
    small_out[5, i] = multiplier
    small_out[6, i] = n_calls
    points_out[0, i] = r[1]
    points_out[1, i] = r[2]
    points_out[2, i] = r[3]
    points_out[3, i] = r[4]
    points_out[4, i] = r[5]
    points_out[5, i] = r[6]
    points_out[6, i] = r[8]
    points_out[7, i] = r[9]
    points_out[8, i] = r[11]
    points_out[9, i] = r[12]
    points_out[10, i] = r[13]


@njit(cache=True)
def auction_and_play(seed, deal_id, dealer, pack, family, all_no_trumps, undertrump_required, at_overtake_partner,
                     declarations_on, bidders, bid_params, policies, hands5, hands, auction_state, calls,
                     belot_open, view, record, play_seat, play_card, ctx, tt, scratch, search):
    """A whole deal from a shuffled ``pack``: the auction on the 5-card hands (RULES.md §3, §4),
    then, unless everybody passed, the 8-card hands and the play.

    The auction draws from the deal's ``AUCTION_STREAM``, the play from its ``PLAY_STREAM`` and a
    ``pimc`` player's layouts from its ``WORLD_STREAM``.  ``hands`` receives the final hands (the
    5-card hands of a void deal); ``calls`` (int8[MAX_CALLS]) the call codes.

    Returns ``(contract, declarer, multiplier, n_calls, result)``: ``result`` as :func:`play_deal`
    returns it; a void deal has contract -1 and a zero result with outcome ``VOID``.
    """
    auction_hands(pack, dealer, hands5)
    turned = pack[20] if family == 1 else -1
    arng = stream_start(seed, deal_id, AUCTION_STREAM)
    arng, contract, declarer, multiplier, n_calls = run_auction_params(
        hands5, dealer, family, all_no_trumps, turned, bidders, arng, auction_state, calls, bid_params)
    rng = stream_start(seed, deal_id, PLAY_STREAM)
    if contract < 0:
        for s in range(4):
            hands[s] = hands5[s]
        return contract, declarer, multiplier, n_calls, (rng, 0, 0, 0, 0, 0, 0, -1, 0, 0, VOID, 0, 0, 0)
    if family == 1:
        classic_final_hands(pack, dealer, declarer, hands)
    else:
        hands_from_pack(pack, dealer, hands)
    if search is not None:
        start_deal(scratch, stream_start(seed, deal_id, WORLD_STREAM))
    played = hands.copy()
    r = play_deal(played, dealer, contract, declarer, multiplier, family, undertrump_required, at_overtake_partner,
                  declarations_on, policies, rng, belot_open, view, record, play_seat, play_card, ctx, tt, scratch,
                  search)
    return contract, declarer, multiplier, n_calls, r
