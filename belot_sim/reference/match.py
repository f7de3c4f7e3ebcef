"""A whole match (docs/rules.md §9): deals with a rotating dealer until a team wins."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from ..errors import IllegalActionError
from ..game.card_types import Cards
from ..game.picture import Picture
from ..game.rules import BULGARIAN, Rules, is_integer
from ..game.scoring import MatchProgress
from .deal import DealResult, check_seat
from .display import Shown
from .game import FullDealState, shuffled_pack


class MatchState(Shown):
    """Deals one after another (dealer rotating) until :attr:`winner` is set.  ``str`` and the picture
    (Jupyter, :meth:`to_svg`) are the current deal's, with the match score.

    ``packs`` gives the shuffled pack of each deal; by default they come from
    ``random.Random(seed)``.  The step API delegates to the current :class:`FullDealState`;
    :meth:`undo` also steps back over the end of a deal.
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
        self._finished: list[FullDealState] = []  # the deals before the current one
        self._dealt_again: list = []  # packs taken back by undo, dealt again before new ones
        self.deal = self._next_deal()

    def _next_deal(self) -> FullDealState:
        if len(self.results) >= self.max_deals:
            raise RuntimeError(f"match not decided after {self.max_deals} deals")
        try:
            pack = self._dealt_again.pop() if self._dealt_again else next(self._packs)
        except StopIteration:
            raise ValueError("the supplied packs ran out before the match ended") from None
        return FullDealState(pack, (self.first_dealer + len(self.results)) % 4, self.rules)

    @property
    def is_over(self) -> bool:
        """A team has reached the target (docs/rules.md §9)."""
        return self.progress.is_over

    @property
    def winner(self) -> int | None:
        """The winning team (0/1), None while the match goes on."""
        return self.progress.winner

    @property
    def scores(self) -> tuple[int, int]:
        """The two teams' match points so far."""
        return self.progress.scores

    @property
    def to_move(self) -> int:
        """The seat to call or play in the current deal."""
        return self.deal.to_move

    def legal_actions(self) -> list:
        """The current deal's legal calls or cards (none once the match is over)."""
        return [] if self.is_over else self.deal.legal_actions()

    def legal_cards(self) -> Cards:
        """The current deal's legal cards (an empty set in an auction and once the match is over)."""
        return Cards(0) if self.is_over else self.deal.legal_cards()

    def picture(self, *, tricks: bool = False) -> Picture:
        """The current deal's picture, its last line the match score."""
        shown = self.deal.picture(tricks=tricks)
        match = f"match: {self.scores[0]}–{self.scores[1]}" + (f", team {self.winner} won" if self.is_over else "")
        return replace(shown, result=f"{shown.result} · {match}" if shown.result else match)

    def play(self, action) -> None:
        """A call or a card in the current deal; a deal that ends is scored and the next one dealt."""
        if self.is_over:
            raise IllegalActionError(f"the match is over: team {self.winner} won")
        self.deal.play(action)
        if self.deal.is_over:
            self._record(self.deal.result())

    def undo(self) -> None:
        """Take back the last action.  The one that ended a deal takes back the deal's score too, and
        :attr:`deal` is that deal again (the object it was); the deal after it is dealt again, as a new
        object, from the same pack when play reaches it."""
        if not self.is_over and not self.deal.auction.calls:  # nothing done yet in this deal
            if not self._finished:
                raise IllegalActionError("no action to take back")
            self._dealt_again.append(self.deal.pack)
            self.deal = self._finished.pop()
        if self.deal.is_over:
            self.results.pop()
            self.history.pop()
            self.progress = self.history[-1] if self.history else MatchProgress.start(self.rules)
        self.deal.undo()

    def _record(self, result: DealResult) -> None:
        self.results.append(result)
        self.progress = self.progress.after_deal(result.deal_score, result.bidding_team, result.valat, self.rules)
        self.history.append(self.progress)
        if not self.is_over:
            following = self._next_deal()  # first: if the packs ran out, the finished deal stays current
            self._finished.append(self.deal)
            self.deal = following
