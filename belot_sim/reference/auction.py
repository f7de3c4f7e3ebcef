"""The auction (docs/rules.md §4): bulgarian calls with doubles, and classic rounds.

Calls are strings: ``"pass"``, a contract code (``"C" "D" "H" "S" "NT" "AT"``),
``"double"`` and ``"redouble"``.  In classic, taking is the contract code of the trump
suit chosen (round 1: the turned card's suit; round 2: another suit; round 3: NT/AT).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import IllegalActionError
from ..game.cards import card_suit
from ..game.rules import BULGARIAN, CONTRACT_CODES, Contract, Rules, is_integer
from .deal import check_seat

PASS, DOUBLE, REDOUBLE = "pass", "double", "redouble"
CALLS = (PASS, *CONTRACT_CODES, DOUBLE, REDOUBLE)
#: The fields of :class:`AuctionState` a call may change besides ``calls``: what ``undo`` restores.
STEP_FIELDS = ("contract", "declarer", "multiplier", "passes", "round", "is_void", "is_over")


def normalize_call(call) -> str:
    """``"Pass"``, ``Contract.HEARTS``, ``"hearts"``, ``"x"``… → the canonical call string."""
    if isinstance(call, Contract):
        return str(call)
    if not isinstance(call, str):
        raise IllegalActionError(f"unknown call {call!r}: expected one of {', '.join(CALLS)}")
    text = call.strip().lower()
    aliases = {"p": PASS, "x": DOUBLE, "xx": REDOUBLE, "dbl": DOUBLE, "rdbl": REDOUBLE}
    if text in (PASS, DOUBLE, REDOUBLE) or text in aliases:
        return aliases.get(text, text)
    try:
        return str(Contract.from_str(call))
    except ValueError:
        raise IllegalActionError(f"unknown call {call!r}: expected one of {', '.join(CALLS)}") from None


@dataclass
class AuctionState:
    """An auction in progress.  ``first`` speaks first (the seat after the dealer)."""

    rules: Rules
    dealer: int
    turned: int | None = None  # classic turned card
    calls: list[tuple[int, str]] = field(default_factory=list)
    contract: Contract | None = None
    declarer: int = -1
    multiplier: int = 1
    passes: int = 0  # consecutive passes
    round: int = 1  # classic round 1..3
    is_void: bool = False
    is_over: bool = False
    #: Per call, its STEP_FIELDS as they were before it, so :meth:`undo` can restore them.
    _undo: list[tuple] = field(default_factory=list, init=False, repr=False, compare=False)

    @classmethod
    def start(cls, dealer: int, rules: Rules | str = BULGARIAN, turned: int | None = None) -> "AuctionState":
        rules = Rules.coerce(rules)
        dealer = check_seat(dealer, "dealer")
        if rules.is_classic and turned is None:
            raise ValueError("a classic auction needs the turned card")
        if turned is not None and not is_integer(turned):
            raise TypeError(f"turned must be a card index 0..31, got {turned!r}")
        if turned is not None and not 0 <= turned < 32:
            raise ValueError(f"turned must be a card index 0..31, got {turned!r}")
        return cls(rules, dealer, turned)

    @property
    def to_move(self) -> int:
        return (self.dealer + 1 + len(self.calls)) % 4

    def legal_calls(self) -> list[str]:
        """The calls the seat to move may make (none once the auction is over)."""
        if self.is_over:
            return []
        if self.rules.is_classic:
            return [PASS, *self._classic_takes()]
        seat = self.to_move
        calls = [PASS]
        lowest = 0 if self.contract is None else self.contract + 1
        calls += [str(Contract(c)) for c in range(lowest, 6)]
        if self.contract is not None:
            own_team = seat % 2 == self.declarer % 2
            if not own_team and self.multiplier == 1:
                calls.append(DOUBLE)
            if own_team and self.multiplier == 2:
                calls.append(REDOUBLE)
        return calls

    def _classic_takes(self) -> list[str]:
        turned_suit = card_suit(self.turned)
        if self.round == 1:
            return [str(Contract(turned_suit))]
        if self.round == 2:
            return [str(Contract(s)) for s in range(4) if s != turned_suit]
        return [str(Contract.NO_TRUMPS), str(Contract.ALL_TRUMPS)]

    def call(self, call) -> None:
        """Make a call for the seat to move (IllegalActionError lists the legal calls)."""
        if self.is_over:
            raise IllegalActionError("the auction is over")
        call = normalize_call(call)
        legal = self.legal_calls()
        if call not in legal:
            raise IllegalActionError(f"seat {self.to_move} cannot call {call}; legal calls: {', '.join(legal)}")
        seat = self.to_move
        self._undo.append(self._fields())
        self.calls.append((seat, call))
        if self.rules.is_classic:
            self._classic_step(seat, call)
        else:
            self._bulgarian_step(seat, call)

    def undo(self) -> None:
        """Take back the last call."""
        if not self._undo:  # no call made through call(): nothing recorded to restore
            raise IllegalActionError("no call to take back")
        self.calls.pop()
        for name, value in zip(STEP_FIELDS, self._undo.pop()):
            setattr(self, name, value)

    # The step API of the other states (DealState, FullDealState, MatchState): actions are calls here.
    def legal_actions(self) -> list[str]:
        """:meth:`legal_calls`, under the name every state's step API uses."""
        return self.legal_calls()

    def play(self, action) -> None:
        """:meth:`call`, under the name every state's step API uses."""
        self.call(action)

    def _fields(self) -> tuple:
        return tuple(getattr(self, name) for name in STEP_FIELDS)

    def _bulgarian_step(self, seat: int, call: str) -> None:
        if call == PASS:
            self.passes += 1
            if self.contract is None and self.passes == 4:
                self.is_void = self.is_over = True
            elif self.contract is not None and self.passes == 3:
                self.is_over = True
            return
        self.passes = 0
        if call == DOUBLE:
            self.multiplier = 2
        elif call == REDOUBLE:
            self.multiplier = 4
        else:  # a higher contract cancels any double/redouble
            self.contract = Contract.from_str(call)
            self.declarer = seat
            self.multiplier = 1

    def _classic_step(self, seat: int, call: str) -> None:
        if call != PASS:
            self.contract = Contract.from_str(call)
            self.declarer = seat
            self.is_over = True
            return
        self.passes += 1
        if self.passes < 4:
            return
        self.passes = 0
        last_round = 3 if self.rules.all_no_trumps else 2
        if self.round == last_round:
            self.is_void = self.is_over = True
        else:
            self.round += 1
