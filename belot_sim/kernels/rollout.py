"""Batch rollouts: deal, play and score many deals in parallel (fixed or random contracts).

Everything here takes arrays and scalars.  ``belot_sim.sim`` wraps it into DataFrames.
Deal ``deal_id`` uses only its own random streams (see :mod:`.rng`), so the output rows are
independent of threads and chunking.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..players.dispatch import DD, NORMAL, PIMC, RANDOM, choose_card, random_card
from ..players.search import S_WORLDS, SCRATCH_SIZE, dd_card, pimc_card, start_deal
from ..players.view import KNOWN, SIZE as VIEW_SIZE, next_trick, record_card, start_view
from .declarations import declared_points, shown_cards
from .play import beats, legal_mask
from .rng import (CONTRACT_STREAM, DEAL_STREAM, PLAY_STREAM, WORLD_STREAM, below, halves, next_u64, scale32,
                  stream_start)
from .solver import CTX_SIZE
from .scoring import score_bulgarian, score_classic
from .tables import AT, NT, POINTS

CHUNK = 512  # deals per parallel work item (scratch arrays are allocated once per chunk)
SEARCH_CHUNK = 4  # the same with a searching player (a deal costs milliseconds: keep both threads busy)
#: Solver table slots per thread for the searching players (2**18 slots = 4 MiB, see solve.TT_BITS).
SEARCH_TT_BITS = 18
KING, QUEEN = 6, 5


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


@njit(cache=True)
def play_deal(hands, dealer, contract, declarer, multiplier, family, undertrump_required, at_overtake_partner,
              declarations_on, policies, rng, belot_open, view, record, play_seat, play_card, ctx, tt, scratch):
    """Play one deal from ``hands`` (modified).

    Scratch: ``belot_open`` (int64[4], each seat's undecided belot K/Q cards), ``view``
    (the public view the strategic players read; kept card by card only when a seat needs it)
    and, for the searching players (``dd``, ``pimc``), the solver's ``ctx``/``tt`` and their
    ``scratch`` (:mod:`belot_sim.players.search`; the caller starts its world stream per deal).

    Returns ``(rng, trick_points0, trick_points1, declared0, declared1, belot0, belot1, valat,
    raw0, raw1, outcome, score0, score1, hanging)``.  When ``record``, the 32 plays go to
    ``play_seat`` / ``play_card``.
    """
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
            elif policy == DD:  # perfect information: reads every hand
                card = dd_card(legal, r32, hands, seat, view, family, ctx, tt, scratch)
            elif policy == PIMC:
                card = pimc_card(legal, r32, hands[seat], seat, view, family, ctx, tt, scratch)
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
    mult = 2 if contract == NT and family == 0 else 1
    points0 *= mult
    points1 *= mult
    declared0 = 0
    declared1 = 0
    if declarations_on and contract != NT:
        declared0, declared1 = declared_points(initial0, initial1, initial2, initial3, contract, family == 1)
    valat = 0 if tricks0 == 8 else 1 if tricks0 == 0 else -1
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
    return (rng, points0, points1, declared0, declared1, belot0, belot1, valat, raw0, raw1, outcome,
            score0, score1, hanging)


@njit(cache=True, parallel=True)
def rollout(seed, start, n, contracts, random_contract, n_contracts, fixed_declarer, multiplier, family,
            undertrump_required, at_overtake_partner, declarations_on, policies, worlds, record,
            small_out, hands_out, points_out, play_seat_out, play_card_out):
    """Play deals ``start .. start+n-1`` into column-major outputs.

    Contract of deal ``d``: ``contracts[d % len(contracts)]``, or uniform over the first
    ``n_contracts`` when ``random_contract``; declarer ``fixed_declarer``, or uniform when -1.
    ``small_out`` int8[5, n]: dealer, contract, declarer, valat, outcome.
    ``hands_out`` uint32[4, n].  ``points_out`` int16[11, n]: trick_points0/1, declared0/1,
    belot0/1, raw0/1, score0/1, hanging.  ``play_*_out`` int8[n, 32] when ``record``.
    ``worlds``: layouts per ``pimc`` decision.
    """
    searching = False
    for seat in range(4):
        searching = searching or policies[seat] >= DD
    chunk_size = SEARCH_CHUNK if searching else CHUNK
    n_chunks = (n + chunk_size - 1) // chunk_size
    for chunk in prange(n_chunks):
        pack = np.empty(32, dtype=np.int64)
        hands = np.empty(4, dtype=np.int64)
        belot_open = np.empty(4, dtype=np.int64)
        view = np.zeros(VIEW_SIZE, dtype=np.int64)
        no_record = np.empty(32, dtype=np.int8)
        ctx = np.zeros(CTX_SIZE, dtype=np.int64)
        tt = np.zeros(2 << SEARCH_TT_BITS if searching else 2, dtype=np.int64)
        scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
        scratch[S_WORLDS] = worlds
        for i in range(chunk * chunk_size, min(n, (chunk + 1) * chunk_size)):
            deal_id = start + i
            dealer = deal_pack(seed, deal_id, pack)
            hands_from_pack(pack, dealer, hands)
            crng = stream_start(seed, deal_id, CONTRACT_STREAM)
            if random_contract:
                crng, contract = below(crng, n_contracts)
            else:
                contract = contracts[deal_id % len(contracts)]
            declarer = fixed_declarer
            if declarer < 0:
                crng, declarer = below(crng, 4)
            for s in range(4):
                hands_out[s, i] = hands[s]
            rng = stream_start(seed, deal_id, PLAY_STREAM)
            if searching:
                start_deal(scratch, stream_start(seed, deal_id, WORLD_STREAM))
            if record:
                r = play_deal(hands, dealer, contract, declarer, multiplier, family, undertrump_required,
                              at_overtake_partner, declarations_on, policies, rng, belot_open, view, True,
                              play_seat_out[i], play_card_out[i], ctx, tt, scratch)
            else:
                r = play_deal(hands, dealer, contract, declarer, multiplier, family, undertrump_required,
                              at_overtake_partner, declarations_on, policies, rng, belot_open, view, False,
                              no_record, no_record, ctx, tt, scratch)
            small_out[0, i] = dealer
            small_out[1, i] = contract
            small_out[2, i] = declarer
            small_out[3, i] = r[7]
            small_out[4, i] = r[10]
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
