"""Deal scoring on scalars (RULES.md §7, §8); mirrors belot_sim/scoring.py."""

from __future__ import annotations

from numba import njit

from .tables import AT, NT

MADE, HANGING, INSIDE, VOID = 0, 1, 2, 3
OUTCOME_NAMES = ("made", "hanging", "inside", "void")


@njit(cache=True, inline="always")
def _tie_digit(contract):
    if contract < NT:
        return 6
    if contract == AT:
        return 4
    return -1


@njit(cache=True, inline="always")
def round_total(points, contract):
    tie = _tie_digit(contract)
    up_from = 5 if tie < 0 else tie
    return points // 10 + (1 if points % 10 >= up_from else 0)


@njit(cache=True, inline="always")
def round_pair(points, other, contract):
    if points % 10 == _tie_digit(contract):
        return points // 10 + (1 if points < other else 0)
    return round_total(points, contract)


@njit(cache=True)
def score_bulgarian(contract, bidding, defenders, multiplier):
    """``(outcome, bidding_points, defenders_points, hanging)`` in match points."""
    if multiplier > 1:
        whole = round_total(bidding + defenders, contract) * multiplier
        if bidding > defenders:
            return MADE, whole, 0, 0
        if bidding < defenders:
            return INSIDE, 0, whole, 0
        return HANGING, 0, 0, whole
    if bidding > defenders:
        return MADE, round_pair(bidding, defenders, contract), round_pair(defenders, bidding, contract), 0
    if bidding < defenders:
        return INSIDE, 0, round_total(bidding + defenders, contract), 0
    if defenders % 10 == _tie_digit(contract):  # defenders round down, hanging points up
        return HANGING, 0, defenders // 10, defenders // 10 + 1
    return HANGING, 0, round_total(defenders, contract), round_total(bidding, contract)


@njit(cache=True)
def score_classic(bidding, defenders, belot_b, belot_d, declared_both, defenders_capot):
    """Classic: no rounding; inside gives the defenders 162 (252 on their capot) + all declarations."""
    if bidding > defenders:
        return MADE, bidding, defenders, 0
    if bidding < defenders:
        return INSIDE, belot_b, (252 if defenders_capot else 162) + declared_both + belot_d, 0
    return HANGING, belot_b, defenders, bidding - belot_b
