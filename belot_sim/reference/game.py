"""A whole deal: dealing, the auction, then the play phase (a :class:`DealState`).

The step API has the feel of :class:`DealState`: ``to_move``, ``legal_actions()`` (calls
during the auction, card indices during play), ``play(action)``, ``undo()``, ``is_over``,
``result()``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from ..errors import IllegalActionError
from ..game.card_types import Cards
from ..game.notation import CALL_TEXT, Position, format_position, parse_position
from ..game.picture import Picture
from ..game.rules import BULGARIAN, Rules
from .auction import AuctionState
from .deal import DealResult, DealState, cards_or_unknown, check_seat, replay
from .display import Shown
from .dealing import check_pack, complete_hands, first_hands, place_seats, seat_of_order, turned_card
from .unknown import as_position_error, check_shown, fill_places, first_quiet, play_history


def shuffled_pack(rng: random.Random) -> list[int]:
    pack = list(range(32))
    rng.shuffle(pack)
    return pack


class FullDealState(Shown):
    """One deal from the shuffled pack to the score.  ``phase`` is "auction", "play" or "over".  ``repr``
    is the position's one-line text (:meth:`to_text`), ``str`` a compact diagram, and in Jupyter it is
    drawn (:meth:`to_svg`)."""

    def __init__(self, pack: Sequence[int], dealer: int, rules: Rules | str = BULGARIAN):
        self.rules = Rules.coerce(rules)
        self.pack = check_pack(pack)
        self.dealer = check_seat(dealer, "dealer")
        turned = turned_card(self.pack) if self.rules.is_classic else None
        self.auction = AuctionState.start(dealer, self.rules, turned)
        self.first_hands = tuple(first_hands(self.pack, dealer))
        self.play_state: DealState | None = None
        #: Pack positions a position text left unknown (``?``): their cards are a random stand-in.
        self.hidden_places: frozenset[int] = frozenset()

    @classmethod
    def from_text(cls, text: str, *, seed: int = 0) -> "FullDealState":
        """The state a ``belot full`` position text describes (``docs/notation.md``): the pack
        rebuilt from the 5-card hands and the stock, then the calls and cards replayed.  Unknown
        cards (``?``) are filled with a random layout (from ``seed``) in which every recorded card
        stays legal and the seats show the cards of the ``shown`` field (without it: the unknown seats
        announce nothing; :attr:`hidden_places`, :mod:`.unknown`).
        A ``ValueError`` names the field that is wrong."""
        position = parse_position(text)
        if position.kind != "full":
            raise ValueError("position text: a 'belot deal' text has no auction; read it with DealState.from_text")
        rules = position.rules
        turned = position.stock[0]
        if rules.is_classic and turned is None:
            raise ValueError("position text, field 'stock': the classic turned card (the stock's first card) is "
                             "shown to everyone and must be known")
        # pack[5j:5j+5] is the hand of the j-th seat after the dealer (reference/dealing.py)
        places = [c for j in range(4) for c in cards_or_unknown(position.hands[seat_of_order(position.dealer, j)], 5)]
        places += list(position.stock)
        auction = AuctionState.start(position.dealer, rules, turned if rules.is_classic else None)
        replay(auction, position.auction, "auction", auction.call)
        taker = auction.declarer if auction.is_over and not auction.is_void else None
        if position.plays and taker is None:
            raise ValueError("position text, field 'play': cards are played only after an auction that ends "
                             "with a contract")
        owners = place_seats(position.dealer, rules.is_classic, taker)
        if position.shown is not None:
            history = play_history(position.plays, position.dealer, auction.contract) if position.plays else []
            check_shown(places, owners, position.shown, history, auction.contract, rules)

        def build(rng):
            try:
                pack = fill_places(places, owners, position.plays, position.dealer, auction.contract, rules, rng,
                                   position.shown)
            except ValueError as error:
                raise as_position_error(error) from None
            state = cls(pack, position.dealer, rules)
            state.hidden_places = frozenset(i for i, c in enumerate(places) if c is None)
            replay(state, position.auction, "auction")
            replay(state, position.plays, "play")
            return state

        return first_quiet(build, seed, position.shown)

    def to_text(self) -> str:
        """This position in the text notation (``docs/notation.md``): ``belot full; ...``."""
        def hidden(seat: int) -> bool:
            j = (seat - self.dealer - 1) % 4
            return any(5 * j + k in self.hidden_places for k in range(5))

        hands = tuple(None if hidden(s) else self.first_hands[s] for s in range(4))
        stock = tuple(None if i in self.hidden_places else self.pack[i] for i in range(20, 32))
        plays = tuple(c for _, c in self.play_state.plays) if self.play_state else ()
        shown = self.play_state.shown_field() if self.play_state else None
        return format_position(Position("full", self.rules, self.dealer, hands, plays, stock=stock,
                                        auction=tuple(c for _, c in self.auction.calls), shown=shown))

    def __repr__(self) -> str:
        return self.to_text()

    def picture(self, *, tricks: bool = False) -> Picture:
        """What a picture of this deal shows (:mod:`belot_sim.game.picture`): the play's position with the
        auction's calls, or during the auction the 5-card hands; ``tricks``: the tricks played too."""
        calls = tuple((seat, CALL_TEXT[call]) for seat, call in self.auction.calls)
        if self.play_state is not None:
            return replace(self.play_state.picture(tricks=tricks), calls=calls)
        hidden = {(self.dealer + 1 + i // 5) % 4 for i in self.hidden_places if i < 20}
        hands = tuple(None if s in hidden else self.first_hands[s] for s in range(4))
        return Picture(hands, (5, 5, 5, 5), self.dealer, to_move=None if self.is_over else self.to_move,
                       calls=calls, turned=self.turned, show_tricks=tricks,
                       result="all passed: a void deal" if self.is_over else "")

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
        """The seat to call or play; once an auction is void, the seat after the last caller (the seat
        after the dealer)."""
        return self.auction.to_move if self.play_state is None else self.play_state.to_move

    def legal_actions(self) -> list:
        """The legal calls during the auction, the legal cards (:class:`~belot_sim.Card` values) during play."""
        if self.phase == "auction":
            return self.auction.legal_calls()
        if self.phase == "play":
            return self.play_state.legal_actions()
        return []

    def legal_cards(self) -> Cards:
        """The cards the seat to move may play (an empty set during the auction and once over)."""
        return self.play_state.legal_cards() if self.phase == "play" else Cards(0)

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

    def undo(self) -> None:
        """Take back the last action: a card, or (before the first card) a call."""
        if self.play_state is not None and self.play_state.plays:
            self.play_state.undo()
            return
        if not self.auction.calls:
            raise IllegalActionError("no action to take back")
        self.play_state = None  # the play starts again when the auction ends again
        self.auction.undo()

    def _start_play(self) -> None:
        a = self.auction
        hands = complete_hands(self.pack, self.dealer, self.rules.is_classic, taker=a.declarer)
        self.play_state = DealState.from_hands(hands, contract=a.contract, declarer=a.declarer, dealer=self.dealer,
                                               multiplier=a.multiplier, rules=self.rules)
        owners = place_seats(self.dealer, self.rules.is_classic, a.declarer)
        self.play_state.hidden_seats = tuple(sorted({owners[i] for i in self.hidden_places}))

    def result(self) -> DealResult:
        if not self.is_over:
            raise IllegalActionError(f"the deal is not over (phase: {self.phase})")
        if self.auction.is_void:
            return DealResult(self.dealer, None, -1, 1, self.first_hands)
        return self.play_state.result()



def state_from_text(text: str, *, seed: int = 0) -> DealState | FullDealState:
    """A ``belot deal`` text as a :class:`DealState`, a ``belot full`` text as a :class:`FullDealState`."""
    kind = parse_position(text).kind
    return FullDealState.from_text(text, seed=seed) if kind == "full" else DealState.from_text(text, seed=seed)
