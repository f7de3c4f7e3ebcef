"""Rule presets, the contract type, and per-contract rank/point tables (docs/rules.md §2, §10).

One engine serves every variant: a :class:`Rules` object is a frozen bag of options that
the reference engine and the kernels read.  The tables here are numpy arrays indexed by
card index (``suit * 8 + rank``), ready to be passed to Numba kernels.
"""

from __future__ import annotations

import dataclasses
from enum import IntEnum

import numpy as np

from .cards import SUIT_MASKS

FAMILIES = ("bulgarian", "classic")
#: The largest ``match_target``: the match kernels keep scores in int64 and a match of this many
#: points already lasts thousands of deals.
MAX_MATCH_TARGET = 1_000_000
UNDERTRUMP_OPTIONS = ("free", "required")
DECLARATION_CONTESTS = ("by_category", "single")
DECLARATIONS_SHOWN = ("first_trick", "end")


def is_integer(value) -> bool:
    """A Python or NumPy integer, not a boolean: what every count, seat, seed and score takes."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


class Contract(IntEnum):
    """Contracts in bidding order C < D < H < S < NT < AT; suit contracts equal their suit index."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NO_TRUMPS = 4
    ALL_TRUMPS = 5

    def __str__(self) -> str:
        return CONTRACT_CODES[self]

    @property
    def is_suit(self) -> bool:
        return self <= Contract.SPADES

    @property
    def trump_mask(self) -> int:
        """Mask of the cards that are trumps under this contract."""
        return int(TRUMP_MASKS[self])

    @classmethod
    def from_str(cls, text: str) -> "Contract":
        """Parse ``"H"``, ``"hearts"``, ``"♥"``, ``"NT"``, ``"no_trumps"``, ``"AT"`` … (any case)."""
        if not isinstance(text, str):
            raise TypeError(f"a contract must be given as text such as 'H' or 'AT', got {text!r}")
        key = text.strip().upper().replace("-", "_").replace(" ", "_")
        if key in _CONTRACT_ALIASES:
            return cls(_CONTRACT_ALIASES[key])
        raise ValueError(f"unknown contract {text!r}: expected one of C, D, H, S, NT, AT")

    @classmethod
    def coerce(cls, value: "Contract | str | int") -> "Contract":
        """Accept a Contract, its text, or its integer code 0..5."""
        if isinstance(value, Contract):
            return value
        if isinstance(value, str):
            return cls.from_str(value)
        if is_integer(value) and 0 <= value <= 5:
            return cls(int(value))
        raise ValueError(f"unknown contract {value!r}: expected one of C, D, H, S, NT, AT")


CONTRACT_CODES = ("C", "D", "H", "S", "NT", "AT")
_CONTRACT_ALIASES = {
    **{code: i for i, code in enumerate(CONTRACT_CODES)},
    "CLUBS": 0, "DIAMONDS": 1, "HEARTS": 2, "SPADES": 3,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3,
    "NO_TRUMPS": 4, "NO_TRUMP": 4, "NOTRUMPS": 4, "SA": 4,
    "ALL_TRUMPS": 5, "ALL_TRUMP": 5, "ALLTRUMPS": 5, "TA": 5,
}

#: ``TRUMP_MASKS[contract]``: the cards that are trumps (all of them in AT, none in NT).
TRUMP_MASKS = np.array([*SUIT_MASKS, 0, 0xFFFFFFFF], dtype=np.uint32)

# Ranks are in sequence order 7 8 9 T J Q K A (docs/rules.md §1).  Strength: higher beats lower
# within one suit.  Trump order J 9 A T K Q 8 7; plain order A T K Q J 9 8 7.
TRUMP_STRENGTH_BY_RANK = np.array([0, 1, 6, 4, 7, 2, 3, 5], dtype=np.int8)
PLAIN_STRENGTH_BY_RANK = np.array([0, 1, 2, 6, 3, 4, 5, 7], dtype=np.int8)

TRUMP_POINTS_BY_RANK = np.array([0, 0, 14, 10, 20, 3, 4, 11], dtype=np.int16)
PLAIN_POINTS_BY_RANK = np.array([0, 0, 0, 10, 2, 3, 4, 11], dtype=np.int16)
CLASSIC_AT_POINTS_BY_RANK = np.array([0, 0, 9, 5, 13, 2, 3, 6], dtype=np.int16)
CLASSIC_NT_POINTS_BY_RANK = np.array([0, 0, 0, 10, 2, 3, 4, 19], dtype=np.int16)

LAST_TRICK_BONUS = 10
VALAT_BONUS = 90  # bulgarian valat / classic capot (162 + 90 = 252)
BELOT_POINTS = 20


def _per_card(table_by_suit: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(table_by_suit)


def _strength_table() -> np.ndarray:
    table = np.zeros((6, 32), dtype=np.int8)
    for contract in range(6):
        for suit in range(4):
            trump = contract == 5 or contract == suit
            table[contract, 8 * suit:8 * suit + 8] = TRUMP_STRENGTH_BY_RANK if trump else PLAIN_STRENGTH_BY_RANK
    return table


def _points_table(classic: bool) -> np.ndarray:
    table = np.zeros((6, 32), dtype=np.int16)
    for contract in range(6):
        for suit in range(4):
            if contract == 5:
                by_rank = CLASSIC_AT_POINTS_BY_RANK if classic else TRUMP_POINTS_BY_RANK
            elif contract == 4:
                by_rank = CLASSIC_NT_POINTS_BY_RANK if classic else PLAIN_POINTS_BY_RANK
            else:
                by_rank = TRUMP_POINTS_BY_RANK if contract == suit else PLAIN_POINTS_BY_RANK
            table[contract, 8 * suit:8 * suit + 8] = by_rank
    return table


#: ``STRENGTH[contract, card]``: trick-taking strength of a card within its own suit.
STRENGTH = _strength_table()
#: ``POINTS_BULGARIAN[contract, card]`` / ``POINTS_CLASSIC[contract, card]``: card points.
POINTS_BULGARIAN = _points_table(classic=False)
POINTS_CLASSIC = _points_table(classic=True)
for _table in (STRENGTH, TRUMP_MASKS, POINTS_BULGARIAN, POINTS_CLASSIC):
    _table.flags.writeable = False


@dataclasses.dataclass(frozen=True)
class Rules:
    """The rule options of docs/rules.md §10.  Use a preset and :meth:`replace` what differs.

    >>> Rules.preset("bulgarian").replace(undertrump="required").undertrump
    'required'
    """

    family: str = "bulgarian"
    #: ``"free"``: void, opponent trumped, cannot overtrump → any card; ``"required"``: a lower trump.
    undertrump: str = "free"
    #: In AT, beat the winning card of the led suit even when partner is winning.
    at_overtake_partner: bool = True
    #: Tierce/quarte/quint/carrés (never in NT).
    declarations: bool = True
    #: Classic: a third auction round for AT/NT (classic point tables).  Always on in bulgarian.
    all_no_trumps: bool = True
    #: Points to win a match.
    match_target: int = 151
    #: Bulgarian: ``"by_category"`` (sequences and carrés resolved apart) or ``"single"`` (one contest
    #: over every declaration, docs/rules.md §6).
    declaration_contest: str = "by_category"
    #: Bulgarian: a made, undoubled contract's trailing side that took points but rounds to 0 gets 1.
    trailing_point: bool = False
    #: When the scoring team's declarations are shown: ``"first_trick"`` (at its end) or ``"end"`` (of
    #: the deal, as the Dutch and Russian rule pages say).  Only what the searching players know changes.
    declarations_shown: str = "first_trick"

    def __post_init__(self) -> None:
        for name in ("family", "undertrump", "declaration_contest", "declarations_shown"):
            if not isinstance(getattr(self, name), str):  # an array would compare element-wise and pass
                raise TypeError(f"rule option {name} must be text, got {type(getattr(self, name)).__name__} "
                                f"{getattr(self, name)!r}")
            object.__setattr__(self, name, str(getattr(self, name)))  # a numpy str_ as the plain text
        if self.family not in FAMILIES:
            raise ValueError(f"unknown rule family {self.family!r}: expected one of {FAMILIES}")
        if self.undertrump not in UNDERTRUMP_OPTIONS:
            raise ValueError(f"unknown undertrump option {self.undertrump!r}: expected one of {UNDERTRUMP_OPTIONS}")
        if self.declaration_contest not in DECLARATION_CONTESTS:
            raise ValueError(f"unknown declaration_contest {self.declaration_contest!r}: expected one of "
                             f"{DECLARATION_CONTESTS}")
        if self.declarations_shown not in DECLARATIONS_SHOWN:
            raise ValueError(f"unknown declarations_shown {self.declarations_shown!r}: expected one of "
                             f"{DECLARATIONS_SHOWN}")
        for name in ("at_overtake_partner", "declarations", "all_no_trumps", "trailing_point"):
            if isinstance(getattr(self, name), np.bool_):  # numpy's True/False mean the same
                object.__setattr__(self, name, bool(getattr(self, name)))
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"rule option {name} must be True or False, got {getattr(self, name)!r}")
        if self.family == "bulgarian" and not self.all_no_trumps:
            raise ValueError("bulgarian rules always allow AT and NT: all_no_trumps must be True")
        if self.family == "classic" and self.declaration_contest != "by_category":
            raise ValueError("declaration_contest applies to the bulgarian family: classic declarations are always "
                             "one contest with the classic order (docs/rules.md §6); leave it 'by_category'")
        if self.family == "classic" and self.trailing_point:
            raise ValueError("trailing_point applies to the bulgarian family: classic scores are not rounded")
        target = self.match_target
        if not is_integer(target):  # the type is wrong, as for the True/False options above
            raise TypeError(f"match_target must be an integer from 1 to {MAX_MATCH_TARGET:,}, got {target!r}")
        if not 0 < target <= MAX_MATCH_TARGET:
            raise ValueError(f"match_target must be an integer from 1 to {MAX_MATCH_TARGET:,}, got {target!r}")
        object.__setattr__(self, "match_target", int(target))

    @classmethod
    def preset(cls, name: str) -> "Rules":
        """``"bulgarian"`` (the default everywhere), ``"classic"`` (French Belote) or
        ``"bridge-belot-2001"`` (bulgarian scored as the 2001 Bridge Belot program scores)."""
        if not isinstance(name, str):
            raise TypeError(f"a rule preset is named by text, one of {sorted(PRESETS)}; got {type(name).__name__} "
                            f"{name!r}")
        try:
            return PRESETS[name.lower()]
        except KeyError:
            raise ValueError(f"unknown rule preset {name!r}: expected one of {sorted(PRESETS)}") from None

    @classmethod
    def coerce(cls, value: "Rules | str") -> "Rules":
        """Accept a Rules object or a preset name."""
        if isinstance(value, Rules):
            return value
        if isinstance(value, str):
            return cls.preset(value)
        raise TypeError(f"rules must be a Rules object or a preset name, got {type(value).__name__}")

    def replace(self, **changes) -> "Rules":
        """A copy with some options changed; unknown option names are an error."""
        known = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise TypeError(f"unknown rule option(s) {unknown}: known options are {sorted(known)}")
        return dataclasses.replace(self, **changes)

    @property
    def name(self) -> str:
        """The preset these rules equal (``"bulgarian"``, ``"classic"``, ``"bridge-belot-2001"``), else
        ``"<family> (custom)"``."""
        for preset_name, preset in PRESETS.items():
            if preset == self:
                return preset_name
        return f"{self.family} (custom)"

    def options(self) -> dict:
        """Every option and its value (the ``Rules(**options)`` that rebuilds these rules)."""
        return dataclasses.asdict(self)

    # --- derived facts the engines read -------------------------------------------------

    @property
    def is_classic(self) -> bool:
        return self.family == "classic"

    @property
    def contracts(self) -> tuple[Contract, ...]:
        """Contracts that can be played under these rules."""
        if self.all_no_trumps:
            return tuple(Contract)
        return (Contract.CLUBS, Contract.DIAMONDS, Contract.HEARTS, Contract.SPADES)

    @property
    def points_table(self) -> np.ndarray:
        """``[contract, card]`` card points (classic AT/NT use the classic tables)."""
        return POINTS_CLASSIC if self.is_classic else POINTS_BULGARIAN

    def card_points(self, contract: Contract | str) -> np.ndarray:
        return self.points_table[Contract.coerce(contract)]

    def trick_multiplier(self, contract: Contract | str) -> int:
        """2 in bulgarian NT (all trick points doubled), else 1."""
        return 2 if Contract.coerce(contract) == Contract.NO_TRUMPS and not self.is_classic else 1

    def declarations_allowed(self, contract: Contract | str) -> bool:
        """Tierces, quartes, quints and carrés count (never in NT)."""
        return self.declarations and Contract.coerce(contract) != Contract.NO_TRUMPS

    def total_trick_points(self, contract: Contract | str) -> int:
        """Card points + last trick, NT doubled: 162 / 258 / 260 (classic: always 162)."""
        contract = Contract.coerce(contract)
        return (int(self.card_points(contract).sum()) + LAST_TRICK_BONUS) * self.trick_multiplier(contract)

    def check_contract(self, contract: Contract | str | int) -> Contract:
        """Coerce a contract and check it is playable under these rules."""
        contract = Contract.coerce(contract)
        if contract not in self.contracts:
            raise ValueError(f"contract {contract} is not played under these rules (all_no_trumps=False)")
        return contract


BULGARIAN = Rules()
CLASSIC = Rules(family="classic", declarations=False, all_no_trumps=False, match_target=1000)
#: The 2001 "Bridge Belot" program's scoring: one declaration contest and a trailing point.
BRIDGE_BELOT_2001 = BULGARIAN.replace(declaration_contest="single", trailing_point=True)
PRESETS = {"bulgarian": BULGARIAN, "classic": CLASSIC, "bridge-belot-2001": BRIDGE_BELOT_2001}
