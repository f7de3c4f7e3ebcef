"""Deal scoring on scalars (docs/rules.md §7, §8); mirrors :mod:`belot_sim.game.scoring`."""

from __future__ import annotations

from numba import njit

from .declarations import declared_points
from .rule_flags import DECLARATIONS, SINGLE_CONTEST, TRAILING_POINT
from .tables import AT, CLASSIC_TOTAL, NT, VALAT

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
def score_bulgarian(contract, bidding, defenders, multiplier, trailing_point):
    """``(outcome, bidding_points, defenders_points, hanging)`` in match points (``trailing_point``:
    the option of that name, docs/rules.md §7)."""
    if multiplier > 1:
        whole = round_total(bidding + defenders, contract) * multiplier
        if bidding > defenders:
            return MADE, whole, 0, 0
        if bidding < defenders:
            return INSIDE, 0, whole, 0
        return HANGING, 0, 0, whole
    if bidding > defenders:
        made = round_pair(bidding, defenders, contract)
        trailing = round_pair(defenders, bidding, contract)
        if trailing_point and defenders > 0 and trailing == 0 and made > 0:
            return MADE, made - 1, 1, 0
        return MADE, made, trailing, 0
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
        return INSIDE, belot_b, CLASSIC_TOTAL + (VALAT if defenders_capot else 0) + declared_both + belot_d, 0
    return HANGING, belot_b, defenders, bidding - belot_b


@njit(cache=True)
def score_play(initial0, initial1, initial2, initial3, contract, declarer, multiplier, family, flags,
               points0, points1, belot0, belot1, valat):
    """Score a played deal (docs/rules.md §7/§8) from its trick points (last trick and NT doubling
    included), belots and valat team (-1 none), adding the declarations of the initial hands;
    ``flags``: the rule options (:mod:`.rule_flags`).

    Returns ``(trick_points0, trick_points1, declared0, declared1, belot0, belot1, valat, raw0, raw1,
    outcome, score0, score1, hanging)``.
    """
    declared0 = 0
    declared1 = 0
    if flags & DECLARATIONS and contract != NT:
        declared0, declared1 = declared_points(initial0, initial1, initial2, initial3, contract, family == 1,
                                               (flags & SINGLE_CONTEST) != 0)
    raw0 = points0 + declared0 + belot0 + (VALAT if valat == 0 else 0)
    raw1 = points1 + declared1 + belot1 + (VALAT if valat == 1 else 0)
    bidding_team = declarer & 1
    if bidding_team == 0:
        raw_b, raw_d, belot_b, belot_d = raw0, raw1, belot0, belot1
    else:
        raw_b, raw_d, belot_b, belot_d = raw1, raw0, belot1, belot0
    if family == 0:
        outcome, score_b, score_d, hanging = score_bulgarian(contract, raw_b, raw_d, multiplier,
                                                             (flags & TRAILING_POINT) != 0)
    else:
        defenders_capot = valat >= 0 and valat != bidding_team
        outcome, score_b, score_d, hanging = score_classic(raw_b, raw_d, belot_b, belot_d, declared0 + declared1,
                                                           defenders_capot)
    score0 = score_b if bidding_team == 0 else score_d
    score1 = score_d if bidding_team == 0 else score_b
    return (points0, points1, declared0, declared1, belot0, belot1, valat, raw0, raw1, outcome,
            score0, score1, hanging)
