"""What a picture of a deal shows — four hands around the table, the trick, the contract, the score —
and its compact text diagram (``str`` of a reference state).  The SVG drawing of the same picture is
:mod:`.svg`; the reference states and the ``simulate`` frames' ``.belot`` accessor build pictures.

>>> p = Picture(hands=(0x1, 0x100, 0x10000, None), counts=(1, 1, 1, 1), dealer=3, contract=Contract.HEARTS,
...             declarer=0, trick=((3, 31),), to_move=0, points=(20, 0), tricks_won=(7, 0))
>>> print(p)
H by seat 0 · dealer 3 · seat 0 to move
     2  ♠—  ♥7  ♦—  ♣—
3  ? (1)          1  ♠—  ♥—  ♦7  ♣—
     0  ♠—  ♥—  ♦—  ♣7
table: AS (seat 3)
team 0: 20 points, 7 tricks · team 1: 0 points, 0 tricks
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import RANKS, SUIT_SYMBOLS, format_card
from .rules import Contract
from .svg import draw

#: The order a hand is written in text: spades first, as in the position notation.
TEXT_SUITS = (3, 2, 1, 0)
MULTIPLIER_WORDS = {1: "", 2: " doubled", 4: " redoubled"}


@dataclass(frozen=True)
class Picture:
    """A deal as a picture shows it.  ``hands``: per seat the cards it holds now (a mask), ``None``
    when unknown (drawn as ``counts[seat]`` card backs); ``trick``: the ``(seat, card)`` pairs on the
    table; ``tricks``: the completed tricks as ``((seat, card) × 4, winner)``, drawn when
    ``show_tricks``; ``points``/``tricks_won``: the teams' card points and tricks so far (``None``: not
    shown); ``calls``: the auction's ``(seat, call)``; ``turned``: the classic turned card during the
    auction (shown to everyone); ``result``: a finished deal's line."""

    hands: tuple
    counts: tuple
    dealer: int
    contract: Contract | None = None
    declarer: int = -1
    multiplier: int = 1
    trick: tuple = ()
    tricks: tuple = ()
    to_move: int | None = None
    points: tuple | None = None
    tricks_won: tuple | None = None
    calls: tuple = ()
    turned: int | None = None
    result: str = ""
    show_tricks: bool = False

    def headline(self) -> str:
        """The contract, declarer, dealer and seat to move, in one line."""
        if self.contract is not None:
            head = f"{self.contract}{MULTIPLIER_WORDS.get(self.multiplier, '')} by seat {self.declarer}"
        elif self.calls and self.to_move is None:
            head = "all passed"
        else:
            head = "auction"
        parts = [head, f"dealer {self.dealer}"]
        if self.to_move is not None:
            parts.append(f"seat {self.to_move} to move")
        return " · ".join(parts)

    def score_line(self) -> str:
        """The teams' points and tricks so far, or ``""`` when the picture shows none."""
        if self.points is None:
            return ""
        won = self.tricks_won
        return " · ".join(f"team {t}: {self.points[t]} points"
                          + ("" if won is None else f", {won[t]} trick{'s' * (won[t] != 1)}") for t in (0, 1))

    def to_svg(self) -> str:
        """The picture as an SVG document (:func:`belot_sim.game.svg.draw`)."""
        return draw(self)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __str__(self) -> str:
        return diagram(self)


def result_line(outcome: str, raw, score) -> str:
    """A finished deal's outcome with the teams' raw points and match points: ``made · raw 192–60 · score 19–6``."""
    return f"{outcome} · raw {raw[0]}–{raw[1]} · score {score[0]}–{score[1]}"


def hand_text(cards: int) -> str:
    """A hand suit by suit, spades first, ranks high to low: ``♠AK  ♥—  ♦T9  ♣87``."""
    suits = []
    for suit in TEXT_SUITS:
        ranks = "".join(RANKS[r] for r in range(7, -1, -1) if cards >> (8 * suit + r) & 1)
        suits.append(SUIT_SYMBOLS[suit] + (ranks or "—"))
    return "  ".join(suits)


def diagram(picture: Picture) -> str:
    """The compact text diagram: the headline, seat 2 above, seats 3 and 1 beside, seat 0 below, then
    the cards on the table, the tricks (when shown), the score and the result."""
    def seat_text(seat: int) -> str:
        hand = picture.hands[seat]
        return f"{seat}  " + (f"? ({picture.counts[seat]})" if hand is None else hand_text(hand))

    left = seat_text(3)
    indent = " " * (len(left) // 2 + 1)
    lines = [picture.headline(), indent + seat_text(2), left + " " * 10 + seat_text(1), indent + seat_text(0)]
    if picture.calls:
        lines.append("auction: " + " ".join(call for _, call in picture.calls))
    if picture.turned is not None:
        lines.append(f"turned card: {format_card(picture.turned)}")
    if picture.trick:
        lines.append("table: " + ", ".join(f"{format_card(card)} (seat {seat})" for seat, card in picture.trick))
    if picture.show_tricks:
        lines += [f"trick {k}: " + " ".join(format_card(card) for _, card in plays) + f", won by seat {winner}"
                  for k, (plays, winner) in enumerate(picture.tricks, 1)]
    lines += [line for line in (picture.score_line(), picture.result) if line]
    return "\n".join(lines)
