"""Deal and match scoring in plain Python (docs/rules.md §7, §8, §9).

The kernels mirror these functions; tests check them against the worked examples.

Choices where the rule pages leave a gap (docs/rules.md §12):

* A single total ("ordinary rounding") rounds the tie digit up, like hanging points.  In
  real play it never matters: both teams' raw points add up to a number ending in 2 (suit),
  8 (AT) or 0 (NT), so a lone total never ends in the tie digit.
* The *winner of a deal* (who collects hanging points carried into it) is the team that
  scored more match points in it; when both scored the same (e.g. AT 134–124 → 13–13)
  it is the team with more raw points, i.e. the bidding team of a made contract.
* The valat rule of §9 only ever raises the target: ``target = max(target, leader + 1)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import BULGARIAN, VALAT_BONUS, Contract, Rules, is_integer

OUTCOMES = ("made", "hanging", "inside", "void")
MULTIPLIERS = (1, 2, 4)


@dataclass(frozen=True)
class DealScore:
    """Match points of one deal: ``outcome`` is "made", "hanging", "inside" or "void"."""

    outcome: str
    bidding: int
    defenders: int
    hanging: int


VOID_DEAL = DealScore("void", 0, 0, 0)


def _tie_digit(contract: Contract) -> int | None:
    if contract.is_suit:
        return 6
    if contract == Contract.ALL_TRUMPS:
        return 4
    return None


def round_total(points: int, contract: Contract | str) -> int:
    """Ordinary rounding of one total to match points (divide by 10).

    Suit contracts: last digit 0–5 down, 6–9 up; AT: 0–3 down, 4–9 up; NT: half up.
    """
    contract = Contract.coerce(contract)
    tie = _tie_digit(contract)
    round_up_from = 5 if tie is None else tie
    tens, digit = divmod(int(points), 10)
    return tens + (digit >= round_up_from)


def round_pair(points: int, other: int, contract: Contract | str) -> int:
    """Round ``points`` of one team when the other team has ``other`` raw points.

    On the tie digit (6 in suits, 4 in AT) the team with fewer raw points rounds up and
    the team with more rounds down, so the two results sum to the rounded total.
    """
    contract = Contract.coerce(contract)
    tie = _tie_digit(contract)
    tens, digit = divmod(int(points), 10)
    if tie is not None and digit == tie:
        return tens + (points < other)
    return round_total(points, contract)


def check_multiplier(multiplier, rules: Rules) -> int:
    """1, 2 (doubled) or 4 (redoubled); classic has no doubling."""
    allowed = (1,) if rules.is_classic else MULTIPLIERS
    if not is_integer(multiplier) or multiplier not in allowed:
        text = "1 (classic has no doubling)" if rules.is_classic else "1, 2 (doubled) or 4 (redoubled)"
        raise ValueError(f"multiplier must be {text}, got {multiplier!r}")
    return int(multiplier)


def _check_raw(bidding_raw: int, defenders_raw: int) -> tuple[int, int]:
    for name, value in (("bidding_raw", bidding_raw), ("defenders_raw", defenders_raw)):
        if not is_integer(value) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return int(bidding_raw), int(defenders_raw)


def score_deal(
    contract: Contract | str,
    bidding_raw: int,
    defenders_raw: int,
    multiplier: int = 1,
    rules: Rules | str = BULGARIAN,
    *,
    belot: tuple[int, int] = (0, 0),
    declared: tuple[int, int] = (0, 0),
    capot: str | None = None,
) -> DealScore:
    """Score one deal: the match points of both teams from their raw totals.

    Bulgarian (docs/rules.md §7): raw totals include trick points, declarations, belots and
    valat; with ``rules.trailing_point`` a made, undoubled contract's defenders who took points but
    round to 0 get 1 match point from the bidders.  Classic (§8): raw totals include trick points
    (capot: 252), declarations and belote; ``belot``, ``declared`` and ``capot`` give what an inside or
    litige deal needs.  Those three keywords are
    checked in both families; bulgarian scores do not read them: its raw totals hold them already.

    Parameters
    ----------
    contract : Contract or str
        The contract played (a :class:`Contract`, its text such as ``"H"``/``"NT"``/``"AT"``, or its
        code 0..5).  Classic scores do not depend on it.
    bidding_raw : int
        The bidding team's raw points, a non-negative integer.
    defenders_raw : int
        The defending team's raw points, a non-negative integer.
    multiplier : int, default 1
        1, 2 (doubled) or 4 (redoubled); classic only 1.
    rules : Rules or str, default ``BULGARIAN``
        A :class:`Rules` or preset name.
    belot : tuple of (int, int), default (0, 0)
        Belote points ``(bidding, defenders)``, non-negative multiples of 20 (classic).
    declared : tuple of (int, int), default (0, 0)
        Declaration points ``(bidding, defenders)``, non-negative integers (classic).
    capot : {None, "bidding", "defenders"}, default None
        Which team took every trick (classic).

    Returns
    -------
    DealScore
        ``outcome`` ("made", "hanging" or "inside"), the match points ``bidding`` and ``defenders`` the
        two teams score now, and ``hanging``: the points carried to the next deal's winner.

    Raises
    ------
    ValueError
        On an unknown contract or preset name, a negative or non-integer raw total, a multiplier the
        rules do not allow, or a bad ``belot``, ``declared`` or ``capot``.
    TypeError
        If ``rules`` is neither a :class:`Rules` nor a ``str``.
    """
    rules = Rules.coerce(rules)
    contract = Contract.coerce(contract)
    bidding_raw, defenders_raw = _check_raw(bidding_raw, defenders_raw)
    multiplier = check_multiplier(multiplier, rules)
    belot, declared = _check_extras(belot, declared, capot)
    if rules.is_classic:
        return _score_classic(bidding_raw, defenders_raw, belot, declared, capot)
    return _score_bulgarian(contract, bidding_raw, defenders_raw, multiplier, rules.trailing_point)


def _check_extras(belot, declared, capot) -> tuple[tuple[int, int], tuple[int, int]]:
    """``belot`` and ``declared`` as pairs of non-negative integers (belots are 20 points each) and
    ``capot`` one of its three values; a clear error names a bad one."""
    pairs = []
    for name, pair in (("belot", belot), ("declared", declared)):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2 or any(not is_integer(v) or v < 0 for v in pair):
            raise ValueError(f"{name} must be a pair (bidding, defenders) of non-negative integers, got {pair!r}")
        pairs.append((int(pair[0]), int(pair[1])))
    if any(v % 20 for v in pairs[0]):
        raise ValueError(f"belot points come in 20s, got {belot!r}")
    if capot not in (None, "bidding", "defenders"):
        raise ValueError(f"capot must be None, 'bidding' or 'defenders', got {capot!r}")
    return pairs[0], pairs[1]


def _score_bulgarian(contract: Contract, bidding: int, defenders: int, multiplier: int,
                     trailing_point: bool = False) -> DealScore:
    if multiplier > 1:
        whole = round_total(bidding + defenders, contract) * multiplier
        if bidding > defenders:
            return DealScore("made", whole, 0, 0)
        if bidding < defenders:
            return DealScore("inside", 0, whole, 0)
        return DealScore("hanging", 0, 0, whole)
    if bidding > defenders:
        made, trailing = round_pair(bidding, defenders, contract), round_pair(defenders, bidding, contract)
        if trailing_point and defenders > 0 and trailing == 0 and made > 0:
            # the trailing point: the side that took points but rounds to 0 gets one of the other's
            made, trailing = made - 1, 1
        return DealScore("made", made, trailing, 0)
    if bidding < defenders:
        return DealScore("inside", 0, round_total(bidding + defenders, contract), 0)
    # Hanging: on the tie digit the defenders round down and the hanging points round up.
    tie = _tie_digit(contract)
    tens, digit = divmod(defenders, 10)
    if tie is not None and digit == tie:
        return DealScore("hanging", 0, tens, tens + 1)
    points = round_total(defenders, contract)
    return DealScore("hanging", 0, points, round_total(bidding, contract))


def _score_classic(bidding: int, defenders: int, belot: tuple[int, int], declared: tuple[int, int],
                   capot: str | None) -> DealScore:
    belot_b, belot_d = belot
    if bidding > defenders:
        return DealScore("made", bidding, defenders, 0)
    if bidding < defenders:
        card_points = 162 + (VALAT_BONUS if capot == "defenders" else 0)
        return DealScore("inside", belot_b, card_points + sum(declared) + belot_d, 0)
    # Litige: the defenders score now; the attackers' points less belote wait for the
    # next deal's winner; the attackers' belote is scored at once.
    return DealScore("hanging", belot_b, defenders, bidding - belot_b)


def deal_winner(score: DealScore, bidding_team: int) -> int | None:
    """The team that won a deal (collects hanging points carried into it), or None."""
    if score.outcome in ("hanging", "void"):
        return None
    if score.outcome == "made":
        # Bidders have more raw points; equal match points (AT 134-124) still count as theirs.
        return bidding_team if score.bidding >= score.defenders else 1 - bidding_team
    return 1 - bidding_team if score.defenders >= score.bidding else bidding_team


@dataclass(frozen=True)
class MatchProgress:
    """Where a match stands after some deals (docs/rules.md §9)."""

    scores: tuple[int, int] = (0, 0)
    target: int = 151
    carried: int = 0  # hanging points waiting for the next deal's winner
    deals: int = 0
    winner: int | None = None

    @classmethod
    def start(cls, rules: Rules | str = BULGARIAN) -> "MatchProgress":
        return cls(target=Rules.coerce(rules).match_target)

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def after_deal(self, score: DealScore, bidding_team: int | None, valat_team: int | None = None,
                   rules: Rules | str = BULGARIAN) -> "MatchProgress":
        """The match after one more deal (``score`` in bidding/defender terms)."""
        rules = Rules.coerce(rules)
        if self.is_over:
            raise ValueError("the match is already over")
        if score.outcome == "void":
            return MatchProgress(self.scores, self.target, self.carried, self.deals + 1, None)
        if bidding_team not in (0, 1):
            raise ValueError(f"bidding_team must be 0 or 1, got {bidding_team!r}")
        points = [0, 0]
        points[bidding_team] = score.bidding
        points[1 - bidding_team] = score.defenders
        winner = deal_winner(score, bidding_team)
        carried = self.carried + score.hanging
        if winner is not None:
            points[winner] += self.carried
            carried = score.hanging
        scores = (self.scores[0] + points[0], self.scores[1] + points[1])
        target = self.target
        match_winner = None
        if valat_team is not None and valat_team >= 0 and not rules.is_classic:
            # A match cannot be won on a valat deal: the bar rises above the leader.
            target = max(target, max(scores) + 1)
        elif max(scores) >= target and scores[0] != scores[1]:
            match_winner = 0 if scores[0] > scores[1] else 1
        return MatchProgress(scores, target, carried, self.deals + 1, match_winner)
