"""Perft on the kernels: count legal play sequences, to compare with ``reference.perft``."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.bits import ctz
from ..core.play import after_card, legal_mask


@njit(cache=True)
def _perft(hands, leader, n_in_trick, led_suit, winning, winner, contract, undertrump_required,
           at_overtake_partner, depth, cards_left):
    """Depth-first count with an explicit stack (level = cards played since the start)."""
    levels = min(depth, cards_left)
    if levels <= 0:
        return 1
    lead_seat = np.empty(levels, dtype=np.int64)
    in_trick = np.empty(levels, dtype=np.int64)
    led = np.empty(levels, dtype=np.int64)
    best = np.empty(levels, dtype=np.int64)
    best_seat = np.empty(levels, dtype=np.int64)
    to_try = np.empty(levels, dtype=np.int64)
    played = np.empty(levels, dtype=np.int64)
    lead_seat[0], in_trick[0], led[0], best[0], best_seat[0] = leader, n_in_trick, led_suit, winning, winner
    level = 0
    to_try[0] = _legal_at(hands, lead_seat, in_trick, led, best, best_seat, 0, contract, undertrump_required,
                          at_overtake_partner)
    total = 0
    while level >= 0:
        seat = (lead_seat[level] + in_trick[level]) & 3
        if to_try[level] == 0:
            level -= 1
            if level >= 0:
                hands[(lead_seat[level] + in_trick[level]) & 3] ^= 1 << played[level]
            continue
        card = ctz(to_try[level])
        to_try[level] &= to_try[level] - 1
        if level + 1 == levels:
            total += 1
            continue
        hands[seat] ^= 1 << card
        played[level] = card
        n = in_trick[level]
        new_led, new_best, new_seat = after_card(n, card, seat, led[level], best[level], best_seat[level], contract)
        nxt = level + 1
        if n == 3:
            lead_seat[nxt], in_trick[nxt], led[nxt], best[nxt], best_seat[nxt] = new_seat, 0, -1, 0, new_seat
        else:
            lead_seat[nxt], in_trick[nxt], led[nxt], best[nxt], best_seat[nxt] = \
                lead_seat[level], n + 1, new_led, new_best, new_seat
        to_try[nxt] = _legal_at(hands, lead_seat, in_trick, led, best, best_seat, nxt, contract,
                                undertrump_required, at_overtake_partner)
        level = nxt
    return total


@njit(cache=True, inline="always")
def _legal_at(hands, lead_seat, in_trick, led, best, best_seat, level, contract, undertrump_required,
              at_overtake_partner):
    seat = (lead_seat[level] + in_trick[level]) & 3
    partner_winning = in_trick[level] > 0 and ((best_seat[level] ^ seat) & 1) == 0
    return legal_mask(hands[seat], led[level] if in_trick[level] > 0 else -1, best[level], partner_winning,
                      contract, undertrump_required, at_overtake_partner)


def perft(state, depth: int) -> int:
    """Perft of a reference :class:`~belot_sim.reference.DealState` computed by the kernels."""
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    hands = np.array(state.hands, dtype=np.int64)
    trick = state.trick
    leader = state.leader
    led_suit, winning, winner = -1, 0, leader
    for pos, (seat, card) in enumerate(trick):
        led_suit, winning, winner = after_card(pos, card, seat, led_suit, winning, winner, int(state.contract))
    cards_left = 32 - len(state.plays)
    return int(_perft(hands, leader, len(trick), led_suit, winning, winner, int(state.contract),
                      state.rules.undertrump == "required", state.rules.at_overtake_partner, depth, cards_left))
