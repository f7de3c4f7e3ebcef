"""Declarations (tierce, quarte, quint, carrés) and belots (docs/rules.md §6).

Choices where the rule pages are silent (docs/rules.md §12):

* Four 7s or four 8s are not a declaration at all, so those cards stay free for sequences.
* Bulgarian sequences compare by length (a 6-card run beats a 5-card run although both
  score 100 as one quint), then by top card; classic compares points first.
* Classic, two carrés of equal points: the higher rank in the order J 9 A T K Q wins.

With ``declaration_contest="single"`` (bulgarian) all declarations of both teams meet in one
contest: points first, then kind (carré > quint > quarte > tierce), then the top card (carrés
A > 10 > K > Q, sequences by their top rank; length does not count among quints).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game.cards import RANKS, SUITS, card_index
from ..game.rules import TRUMP_STRENGTH_BY_RANK, Contract, Rules

CARRE_POINTS_BY_RANK = (0, 0, 150, 100, 200, 100, 100, 100)  # 7 8 9 T J Q K A; 7s/8s score nothing
SEQUENCE_POINTS = {3: 20, 4: 50}  # 5 to 8 cards: one quint, 100
QUINT_POINTS = 100


@dataclass(frozen=True)
class Declaration:
    """One declaration of one seat's hand.  ``rank`` is the carré's rank or the run's top rank."""

    kind: str  # "carre" or "sequence"
    rank: int
    suit: int | None  # None for a carré
    length: int
    points: int
    cards: int  # mask

    def __str__(self) -> str:
        if self.kind == "carre":
            return f"carré of {RANKS[self.rank]} ({self.points})"
        low = self.rank - self.length + 1
        return f"{RANKS[low]}..{RANKS[self.rank]}{SUITS[self.suit]} ({self.points})"


def find_declarations(hand: int) -> list[Declaration]:
    """Carrés first, then sequences from the remaining cards (each run of 3+ is one declaration)."""
    found = []
    remaining = hand
    for rank in range(8):
        carre = sum(1 << card_index(suit, rank) for suit in range(4))
        if hand & carre == carre and CARRE_POINTS_BY_RANK[rank]:
            found.append(Declaration("carre", rank, None, 4, CARRE_POINTS_BY_RANK[rank], carre))
            remaining &= ~carre
    for suit in range(4):
        run: list[int] = []
        for rank in range(9):  # rank 8 is a sentinel that closes the last run
            if rank < 8 and remaining >> card_index(suit, rank) & 1:
                run.append(rank)
                continue
            if len(run) >= 3:
                points = SEQUENCE_POINTS.get(len(run), QUINT_POINTS)
                cards = sum(1 << card_index(suit, r) for r in run)
                found.append(Declaration("sequence", run[-1], suit, len(run), points, cards))
            run = []
    return found


def _bulgarian_sequence_key(d: Declaration) -> tuple:
    return (d.length, d.rank)


def _carre_key(d: Declaration) -> int:
    return int(TRUMP_STRENGTH_BY_RANK[d.rank])


#: The single contest's order of carré ranks of equal points (J and 9 differ in points).
_SINGLE_CARRE_ORDER = {"Q": 0, "K": 1, "T": 2, "A": 3}


def _single_key(d: Declaration) -> tuple:
    """Points, then kind (tierce 0, quarte 1, quint 2, carré 3), then the top card."""
    if d.kind == "carre":
        return (d.points, 3, _SINGLE_CARRE_ORDER.get(RANKS[d.rank], 0))
    return (d.points, min(d.length, 5) - 3, d.rank)


def _best_team(keys: list[tuple | None]) -> int | None:
    """Team (0/1) whose best key is strictly higher, or None when absent on both sides or equal."""
    k0, k1 = keys
    if k0 is None and k1 is None:
        return None
    if k1 is None or (k0 is not None and k0 > k1):
        return 0
    if k0 is None or k1 > k0:
        return 1
    return None


def _category_winner(per_seat: list[list[Declaration]], key) -> int | None:
    """The team whose best declaration of the category is better (``None``: neither scores)."""
    best: list[tuple | None] = [None, None]
    for seat, decls in enumerate(per_seat):
        for d in decls:
            if best[seat % 2] is None or key(d) > best[seat % 2]:
                best[seat % 2] = key(d)
    return _best_team(best)


def _contests(per_seat: list[list[Declaration]], contract: Contract, rules: Rules) -> list[tuple[list, object]]:
    """The separate contests of a deal's declarations: ``(per-seat declarations, key)`` each; the
    better team of a contest scores (and shows) all of its declarations in it."""
    if rules.declaration_contest == "single":
        return [(per_seat, _single_key)]
    if rules.is_classic:
        def classic_key(d: Declaration) -> tuple:
            if d.kind == "carre":
                return (d.points, 1, 0, _carre_key(d), 0)
            trump_sequence = int(contract == Contract.ALL_TRUMPS or d.suit == contract)
            return (d.points, 0, d.length, d.rank, trump_sequence)
        return [(per_seat, classic_key)]
    sequences = [[d for d in decls if d.kind == "sequence"] for decls in per_seat]
    carres = [[d for d in decls if d.kind == "carre"] for decls in per_seat]
    return [(sequences, _bulgarian_sequence_key), (carres, lambda d: (_carre_key(d),))]


def resolve_declarations(per_seat: list[list[Declaration]], contract: Contract | str,
                         rules: Rules | str) -> tuple[int, int]:
    """Declared points of each team after comparing the teams' declarations."""
    contract, rules = Contract.coerce(contract), Rules.coerce(rules)
    if not rules.declarations_allowed(contract):
        return (0, 0)
    totals = [0, 0]
    for decls, key in _contests(per_seat, contract, rules):
        winner = _category_winner(decls, key)
        for seat, seat_decls in enumerate(decls):
            totals[seat % 2] += sum(d.points for d in seat_decls) if seat % 2 == winner else 0
    return (totals[0], totals[1])


def shown_declaration_cards(per_seat: list[list[Declaration]], contract: Contract | str,
                            rules: Rules | str) -> list[int]:
    """Per seat, the cards of the declarations its team scores: what the seat shows at the end of
    the first trick (docs/rules.md §6; the kernels' view, ``show_declarations``)."""
    contract, rules = Contract.coerce(contract), Rules.coerce(rules)
    shown = [0, 0, 0, 0]
    if not rules.declarations_allowed(contract):
        return shown
    for decls, key in _contests(per_seat, contract, rules):
        winner = _category_winner(decls, key)
        for seat, seat_decls in enumerate(decls):
            for d in seat_decls if seat % 2 == winner else ():
                shown[seat] |= d.cards
    return shown


def declarations_shown_now(contract: Contract, rules: Rules, n_played: int) -> bool:
    """Are the scoring declarations shown once ``n_played`` cards are played?  From the end of the
    first trick, unless the rules show them at the end of the deal (or allow none here)."""
    return n_played >= 4 and rules.declarations_shown != "end" and rules.declarations_allowed(contract)


def belot_cards(suit: int) -> int:
    """The K-Q pair of ``suit``: what an announced belot shows."""
    return 1 << card_index(suit, 6) | 1 << card_index(suit, 5)


def belot_suits(hand: int, contract: Contract | str) -> list[int]:
    """Trump suits whose K and Q are both in ``hand`` (every suit in AT, none in NT)."""
    contract = Contract.coerce(contract)
    if contract == Contract.NO_TRUMPS:
        return []
    suits = range(4) if contract == Contract.ALL_TRUMPS else [int(contract)]
    return [s for s in suits if hand & belot_cards(s) == belot_cards(s)]

