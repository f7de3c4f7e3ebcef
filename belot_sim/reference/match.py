"""A whole match (docs/rules.md §9): deals with a rotating dealer until a team wins."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..errors import IllegalActionError
from ..rules import BULGARIAN, Rules, is_integer
from ..scoring import MatchProgress
from .deal import DealResult, check_seat
from .game import FullDealState, shuffled_pack


class MatchState:
    """Deals one after another (dealer rotating) until :attr:`winner` is set.

    ``packs`` gives the shuffled pack of each deal; by default they come from
    ``random.Random(seed)``.  The step API delegates to the current :class:`FullDealState`.
    """

    def __init__(self, rules: Rules | str = BULGARIAN, *, dealer: int = 0, seed: int | None = None,
                 packs: Iterator | None = None, max_deals: int = 10_000):
        self.rules = Rules.coerce(rules)
        self.first_dealer = check_seat(dealer, "dealer")
        rng = random.Random(seed)
        self._packs = iter(packs) if packs is not None else (shuffled_pack(rng) for _ in iter(int, 1))
        if not is_integer(max_deals):
            raise TypeError(f"max_deals must be a positive integer, got {max_deals!r}")
        if max_deals < 1:  # a match needs one deal at least
            raise ValueError(f"max_deals must be a positive integer, got {max_deals!r}")
        self.max_deals = int(max_deals)
        self.progress = MatchProgress.start(self.rules)
        self.results: list[DealResult] = []
        self.history: list[MatchProgress] = []  # progress after each deal
        self.deal = self._next_deal()

    def _next_deal(self) -> FullDealState:
        if len(self.results) >= self.max_deals:
            raise RuntimeError(f"match not decided after {self.max_deals} deals")
        try:
            pack = next(self._packs)
        except StopIteration:
            raise ValueError("the supplied packs ran out before the match ended") from None
        return FullDealState(pack, (self.first_dealer + len(self.results)) % 4, self.rules)

    @property
    def is_over(self) -> bool:
        return self.progress.is_over

    @property
    def winner(self) -> int | None:
        return self.progress.winner

    @property
    def scores(self) -> tuple[int, int]:
        return self.progress.scores

    @property
    def to_move(self) -> int:
        return self.deal.to_move

    def legal_actions(self) -> list:
        return [] if self.is_over else self.deal.legal_actions()

    def play(self, action) -> None:
        if self.is_over:
            raise IllegalActionError(f"the match is over: team {self.winner} won")
        self.deal.play(action)
        if self.deal.is_over:
            self._record(self.deal.result())

    def _record(self, result: DealResult) -> None:
        self.results.append(result)
        self.progress = self.progress.after_deal(result.deal_score, result.bidding_team, result.valat, self.rules)
        self.history.append(self.progress)
        if not self.is_over:
            self.deal = self._next_deal()
