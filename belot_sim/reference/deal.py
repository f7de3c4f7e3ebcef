"""The play phase of one deal: the step API every faster engine is checked against.

>>> import belot_sim as bs
>>> from belot_sim import reference as ref
>>> hands = ["7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD",
...          "7H 8H 9H TH JH QH KH AH", "7S 8S 9S TS JS QS KS AS"]
>>> st = ref.DealState.from_hands(hands, contract="H", declarer=2, dealer=3)
>>> st.to_move, st.legal_actions()[:3], st.legal_actions()[0] == 0
(0, [7C, 8C, 9C], True)
>>> st.play("7C"); st.legal_cards()
Cards('7D 8D 9D TD JD QD KD AD')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import IllegalActionError
from ..game.card_types import Card, Cards, card_values
from ..game.cards import card_suit, format_card, iter_cards, parse_card, popcount, to_mask
from ..game.notation import Position, format_position, parse_position
from ..game.picture import Picture, result_line
from ..game.rules import BELOT_POINTS, BULGARIAN, LAST_TRICK_BONUS, VALAT_BONUS, Contract, Rules, is_integer
from ..game.scoring import DealScore, check_multiplier, score_deal
from .display import Shown
from .declarations import (Declaration, belot_cards, belot_suits, declarations_shown_now, find_declarations,
                           resolve_declarations, shown_declaration_cards)
from .play import legal_cards, trick_winner
from .unknown import as_position_error, check_shown, fill_places, first_quiet, play_history

CARDS_PER_HAND = 8


@dataclass(frozen=True)
class DealResult:
    """Everything a finished deal produced; fields mirror the ``simulate`` columns.

    Team pairs are ``(team 0, team 1)``.  ``valat`` is the team that took all eight tricks
    (classic: capot), or -1.  A void deal (all passed) has ``outcome == "void"``,
    ``contract is None`` and ``declarer == -1``.
    """

    dealer: int
    contract: Contract | None
    declarer: int
    multiplier: int
    hands: tuple[int, int, int, int]
    trick_points: tuple[int, int] = (0, 0)
    declared: tuple[int, int] = (0, 0)
    belot: tuple[int, int] = (0, 0)
    valat: int = -1
    raw: tuple[int, int] = (0, 0)
    outcome: str = "void"
    score: tuple[int, int] = (0, 0)
    hanging: int = 0

    @property
    def bidding_team(self) -> int | None:
        return None if self.declarer < 0 else self.declarer % 2

    @property
    def deal_score(self) -> DealScore:
        """The score in bidding-team / defenders terms."""
        if self.bidding_team is None:
            return DealScore("void", 0, 0, 0)
        b = self.bidding_team
        return DealScore(self.outcome, self.score[b], self.score[1 - b], self.hanging)

    def as_row(self) -> dict:
        """A dict with the ``simulate`` column names (without ``deal_id``)."""
        row = {"dealer": self.dealer, "contract": None if self.contract is None else str(self.contract),
               "declarer": self.declarer, "multiplier": self.multiplier}
        row.update({f"hand{s}": self.hands[s] for s in range(4)})
        for name in ("trick_points", "declared", "belot"):
            pair = getattr(self, name)
            row.update({f"{name}0": pair[0], f"{name}1": pair[1]})
        row["valat"] = self.valat
        row.update({"raw0": self.raw[0], "raw1": self.raw[1], "outcome": self.outcome,
                    "score0": self.score[0], "score1": self.score[1], "hanging": self.hanging})
        return row


def check_seat(value, name: str) -> int:
    if not is_integer(value) or not 0 <= value <= 3:
        raise ValueError(f"{name} must be a seat 0..3, got {value!r}")
    return int(value)


def check_hands(hands, size: int | None = CARDS_PER_HAND) -> tuple[int, int, int, int]:
    """Four disjoint hands of ``size`` cards each (masks or card strings)."""
    if isinstance(hands, (str, bytes)) or len(hands) != 4:
        raise ValueError("hands must be four hands, one per seat")
    masks = tuple(to_mask(h, f"hand of seat {s}") for s, h in enumerate(hands))
    seen = 0
    for seat, mask in enumerate(masks):
        if size is not None and popcount(mask) != size:
            raise ValueError(f"hand of seat {seat} has {popcount(mask)} cards, expected {size}")
        if seen & mask:
            raise ValueError(f"hands overlap: {format_card(next(iter_cards(seen & mask)))} is in two hands")
        seen |= mask
    return masks


@dataclass
class _Undo:
    """What :meth:`DealState.play` changed, so :meth:`DealState.undo` can restore it."""

    seat: int
    card: int
    trick: list
    leader: int
    belot_decided: dict
    trick_points: list
    tricks_won: list
    last_trick_team: int


@dataclass(repr=False)
class DealState(Shown):
    """Play phase of a deal.  Build with :meth:`from_hands`; step with :meth:`play`.  ``repr`` is the
    position's one-line text (:meth:`to_text`), ``str`` a compact diagram, and in Jupyter it is drawn
    (:meth:`to_svg`)."""

    rules: Rules
    contract: Contract
    declarer: int
    dealer: int
    multiplier: int
    initial_hands: tuple[int, int, int, int]
    #: Seats whose hands a position text left unknown (``?``): their cards are a random stand-in.
    hidden_seats: tuple[int, ...] = ()
    hands: list[int] = field(init=False)
    leader: int = field(init=False)  # seat that led the current trick
    trick: list[tuple[int, int]] = field(init=False)  # (seat, card) of the trick in progress
    plays: list[tuple[int, int]] = field(init=False)  # every (seat, card) so far
    trick_points: list[int] = field(init=False)  # card points won so far, before NT doubling
    tricks_won: list[int] = field(init=False)
    last_trick_team: int = field(init=False)
    belot_decided: dict[tuple[int, int], bool] = field(init=False)  # (seat, suit) → counts?
    _undo: list[_Undo] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.hands = list(self.initial_hands)
        self.leader = (self.dealer + 1) % 4
        self.trick = []
        self.plays = []
        self.trick_points = [0, 0]
        self.tricks_won = [0, 0]
        self.last_trick_team = -1
        self.belot_decided = {}
        self._undo = []
        self._declarations = [find_declarations(h) if self.rules.declarations_allowed(self.contract) else []
                              for h in self.initial_hands]
        self._belots = {(seat, suit) for seat in range(4)
                        for suit in belot_suits(self.initial_hands[seat], self.contract)}

    @classmethod
    def from_hands(cls, hands, *, contract: Contract | str, declarer: int, dealer: int = 3, multiplier: int = 1,
                   rules: Rules | str = BULGARIAN) -> "DealState":
        """A deal about to be played: four 8-card hands (masks or card strings).

        The seat after ``dealer`` leads the first trick.
        """
        rules = Rules.coerce(rules)
        contract = rules.check_contract(contract)
        masks = check_hands(hands)
        declarer, dealer = check_seat(declarer, "declarer"), check_seat(dealer, "dealer")
        multiplier = check_multiplier(multiplier, rules)
        return cls(rules, contract, declarer, dealer, multiplier, masks)

    @classmethod
    def from_text(cls, text: str, *, seed: int = 0) -> "DealState":
        """The state a ``belot deal`` position text describes (``docs/notation.md``).  Hands written
        ``?`` are filled with a random layout (from ``seed``) in which every recorded card stays legal
        and the seats show the cards of the ``shown`` field (without it: the unknown seats announce
        nothing), and listed in :attr:`hidden_seats` (:mod:`.unknown`).  A ``ValueError`` names the
        field that is wrong."""
        position = parse_position(text)
        if position.kind == "full":
            raise ValueError("position text: a 'belot full' text holds the whole deal; read it with "
                             "FullDealState.from_text (its play_state is the DealState)")
        places = [c for h in position.hands for c in cards_or_unknown(h)]
        owners = [s for s in range(4) for _ in range(CARDS_PER_HAND)]
        if position.shown is not None:
            history = play_history(position.plays, position.dealer, position.contract)
            check_shown(places, owners, position.shown, history, position.contract, position.rules)

        def build(rng):
            try:
                filled = fill_places(places, owners, position.plays, position.dealer, position.contract,
                                     position.rules, rng, position.shown)
            except ValueError as error:
                raise as_position_error(error) from None
            hands = [sum(1 << c for c in filled[8 * s:8 * s + 8]) for s in range(4)]
            state = cls.from_hands(hands, contract=position.contract, declarer=position.declarer,
                                   dealer=position.dealer, multiplier=position.multiplier, rules=position.rules)
            state.hidden_seats = tuple(s for s in range(4) if position.hands[s] is None)
            replay(state, position.plays, "play")
            return state

        return first_quiet(build, seed, position.shown)

    def to_text(self) -> str:
        """This position in the text notation (``docs/notation.md``): ``belot deal; ...`` (with the
        ``shown`` field once the play has started)."""
        hands = tuple(None if s in self.hidden_seats else self.initial_hands[s] for s in range(4))
        return format_position(Position("deal", self.rules, self.dealer, hands, tuple(c for _, c in self.plays),
                                        self.contract, self.declarer, self.multiplier, shown=self.shown_field()))

    def __repr__(self) -> str:
        return self.to_text()

    def picture(self, *, tricks: bool = False) -> Picture:
        """What a picture of this position shows (:mod:`belot_sim.game.picture`); ``tricks``: the tricks
        played too."""
        hands = tuple(None if s in self.hidden_seats else self.hands[s] for s in range(4))
        done = tuple((tuple(t), t[trick_winner([c for _, c in t], self.contract)][0]) for t in self.completed_tricks())
        result = self.result() if self.is_over else None
        return Picture(hands, tuple(popcount(h) for h in self.hands), self.dealer, self.contract, self.declarer,
                       self.multiplier, tuple(self.trick), done, None if self.is_over else self.to_move,
                       tuple(self.trick_points), tuple(self.tricks_won), show_tricks=tricks,
                       result="" if result is None else result_line(result.outcome, result.raw, result.score))

    # --- the step API -------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 4

    @property
    def is_over(self) -> bool:
        return len(self.plays) == 4 * CARDS_PER_HAND

    @property
    def trick_number(self) -> int:
        return len(self.plays) // 4

    def legal_mask(self) -> int:
        if self.is_over:
            return 0
        seat = self.to_move
        return legal_cards(self.hands[seat], self.trick, seat, self.contract, self.rules)

    def legal_actions(self) -> list[Card]:
        """Sorted card indices the seat to move may play, as :class:`~belot_sim.Card` values (ints that
        print as names)."""
        return card_values(self.legal_mask())

    def legal_cards(self) -> Cards:
        """The cards the seat to move may play, as a :class:`~belot_sim.Cards` set (prints ``TS 9H JH``)."""
        return Cards(self.legal_mask())

    def play(self, card: int | str) -> None:
        """Play a card (index or text) for the seat to move."""
        if isinstance(card, str):
            card = parse_card(card)
        if self.is_over:
            raise IllegalActionError("the deal is over: no more cards can be played")
        legal = self.legal_mask()
        if not is_integer(card) or not 0 <= card < 32 or not legal >> int(card) & 1:
            shown = format_card(int(card)) if is_integer(card) and 0 <= card < 32 else repr(card)
            options = " ".join(format_card(c) for c in iter_cards(legal))
            raise IllegalActionError(f"seat {self.to_move} cannot play {shown}; legal cards: {options}")
        card = int(card)
        seat = self.to_move
        self._undo.append(_Undo(seat, card, list(self.trick), self.leader, dict(self.belot_decided),
                                list(self.trick_points), list(self.tricks_won), self.last_trick_team))
        self._decide_belot(seat, card)
        self.hands[seat] &= ~(1 << card)
        self.trick.append((seat, card))
        self.plays.append((seat, card))
        if len(self.trick) == 4:
            self._close_trick()

    def undo(self) -> None:
        """Take back the last card."""
        if not self._undo:
            raise IllegalActionError("no card to take back")
        u = self._undo.pop()
        self.plays.pop()
        self.hands[u.seat] |= 1 << u.card
        self.trick, self.leader, self.belot_decided = u.trick, u.leader, u.belot_decided
        self.trick_points, self.tricks_won, self.last_trick_team = u.trick_points, u.tricks_won, u.last_trick_team

    def _decide_belot(self, seat: int, card: int) -> None:
        """A belot is decided by the first of its K/Q played: it counts if played in its own
        suit (led, followed, or trumped); in AT a discard on another suit loses it."""
        suit, rank = card_suit(card), card & 7
        if rank not in (5, 6) or (seat, suit) not in self._belots or (seat, suit) in self.belot_decided:
            return
        led_suit = card_suit(self.trick[0][1]) if self.trick else suit
        self.belot_decided[(seat, suit)] = self.contract.is_suit or led_suit == suit

    def _close_trick(self) -> None:
        cards = [c for _, c in self.trick]
        winner = self.trick[trick_winner(cards, self.contract)][0]
        points = int(sum(self.rules.card_points(self.contract)[c] for c in cards))
        team = winner % 2
        self.trick_points[team] += points
        self.tricks_won[team] += 1
        self.last_trick_team = team
        self.leader = winner
        self.trick = []

    # --- what players may see -----------------------------------------------------------

    def declarations(self, seat: int) -> list[Declaration]:
        """Declarations of ``seat``'s full hand (shown with its first card; [] in NT or when off)."""
        return list(self._declarations[seat])

    def shown_cards(self) -> tuple[int, int, int, int]:
        """Per seat, the cards its announcements have shown everybody so far: its team's scoring
        declarations from the end of the first trick (not with ``declarations_shown="end"``) and
        both cards of a belot it announced (the public view of the kernels)."""
        shown = [0, 0, 0, 0]
        if declarations_shown_now(self.contract, self.rules, len(self.plays)):
            shown = shown_declaration_cards(self._declarations, self.contract, self.rules)
        for (seat, suit), counts in self.belot_decided.items():
            if counts:
                shown[seat] |= belot_cards(suit)
        return tuple(shown)

    def shown_field(self) -> tuple[int, int, int, int] | None:
        """:meth:`shown_cards` as a position text records it: once the play has started (``None``
        before: nothing can have been shown)."""
        return self.shown_cards() if self.plays else None

    def completed_tricks(self) -> list[list[tuple[int, int]]]:
        full = len(self.plays) - len(self.trick)
        return [self.plays[i:i + 4] for i in range(0, full, 4)]

    # --- the result ---------------------------------------------------------------------

    def result(self) -> DealResult:
        """The scored deal; only once all 32 cards are played."""
        if not self.is_over:
            raise IllegalActionError(f"the deal is not over: {32 - len(self.plays)} cards still to play")
        mult = self.rules.trick_multiplier(self.contract)
        trick_points = [(self.trick_points[t] + LAST_TRICK_BONUS * (t == self.last_trick_team)) * mult for t in (0, 1)]
        declared = resolve_declarations(self._declarations, self.contract, self.rules)
        belot = [0, 0]
        for (seat, _suit), counts in self.belot_decided.items():
            belot[seat % 2] += BELOT_POINTS * counts
        valat = 0 if self.tricks_won[0] == 8 else 1 if self.tricks_won[1] == 8 else -1
        raw = [trick_points[t] + declared[t] + belot[t] + VALAT_BONUS * (valat == t) for t in (0, 1)]
        b = self.declarer % 2
        d = 1 - b
        capot = None if valat < 0 else ("bidding" if valat == b else "defenders")
        s = score_deal(self.contract, raw[b], raw[d], self.multiplier, self.rules,
                       belot=(belot[b], belot[d]), declared=(declared[b], declared[d]), capot=capot)
        score = [0, 0]
        score[b], score[d] = s.bidding, s.defenders
        return DealResult(self.dealer, self.contract, self.declarer, self.multiplier, self.initial_hands,
                          tuple(trick_points), tuple(declared), tuple(belot), valat, tuple(raw), s.outcome,
                          tuple(score), s.hanging)


def cards_or_unknown(mask: int | None, size: int = CARDS_PER_HAND) -> list[int | None]:
    """A hand's cards, or ``size`` unknown places."""
    return [None] * size if mask is None else list(iter_cards(mask))


def replay(state, actions, key: str, step=None) -> None:
    """Play the calls or cards of a position text's field ``key`` (with ``step``, by default
    ``state.play``); an illegal one is a ValueError naming it."""
    step = step or state.play
    for k, action in enumerate(actions):
        try:
            step(action)
        except IllegalActionError as error:
            shown = format_card(action) if isinstance(action, int) else action
            raise ValueError(f"position text, field {key!r}: {'card' if key == 'play' else 'call'} {k + 1} "
                             f"({shown}): {error}") from None
