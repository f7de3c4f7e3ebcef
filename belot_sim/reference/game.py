"""A whole deal: dealing, the auction, then the play phase (a :class:`DealState`).

The step API has the feel of :class:`DealState`: ``to_move``, ``legal_actions()`` (calls
during the auction, card indices during play), ``play(action)``, ``is_over``, ``result()``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..errors import IllegalActionError
from ..rules import BULGARIAN, Rules
from .auction import AuctionState
from .deal import DealResult, DealState, check_seat
from .dealing import check_pack, complete_hands, first_hands, turned_card


def shuffled_pack(rng: random.Random) -> list[int]:
    pack = list(range(32))
    rng.shuffle(pack)
    return pack


class FullDealState:
    """One deal from the shuffled pack to the score.  ``phase`` is "auction", "play" or "over"."""

    def __init__(self, pack: Sequence[int], dealer: int, rules: Rules | str = BULGARIAN):
        self.rules = Rules.coerce(rules)
        self.pack = check_pack(pack)
        self.dealer = check_seat(dealer, "dealer")
        turned = turned_card(self.pack) if self.rules.is_classic else None
        self.auction = AuctionState.start(dealer, self.rules, turned)
        self.first_hands = tuple(first_hands(self.pack, dealer))
        self.play_state: DealState | None = None

    @classmethod
    def random(cls, seed: int | None = None, dealer: int = 0, rules: Rules | str = BULGARIAN) -> "FullDealState":
        return cls(shuffled_pack(random.Random(seed)), dealer, rules)

    @property
    def turned(self) -> int | None:
        return self.auction.turned

    @property
    def phase(self) -> str:
        if not self.auction.is_over:
            return "auction"
        if self.play_state is None or self.play_state.is_over:
            return "over"
        return "play"

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def to_move(self) -> int:
        return self.auction.to_move if self.phase == "auction" else self.play_state.to_move

    def legal_actions(self) -> list:
        if self.phase == "auction":
            return self.auction.legal_calls()
        if self.phase == "play":
            return self.play_state.legal_actions()
        return []

    def play(self, action) -> None:
        """A call during the auction, a card (index or text) during play."""
        if self.phase == "auction":
            self.auction.call(action)
            if self.auction.is_over and not self.auction.is_void:
                self._start_play()
        elif self.phase == "play":
            self.play_state.play(action)
        else:
            raise IllegalActionError("the deal is over")

    def _start_play(self) -> None:
        a = self.auction
        hands = complete_hands(self.pack, self.dealer, self.rules.is_classic, taker=a.declarer)
        self.play_state = DealState.from_hands(hands, contract=a.contract, declarer=a.declarer, dealer=self.dealer,
                                               multiplier=a.multiplier, rules=self.rules)

    def result(self) -> DealResult:
        if not self.is_over:
            raise IllegalActionError(f"the deal is not over (phase: {self.phase})")
        if self.auction.is_void:
            return DealResult(self.dealer, None, -1, 1, self.first_hands)
        return self.play_state.result()

