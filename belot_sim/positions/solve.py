"""Exact double-dummy values: the points a team takes when all four hands are visible and both
sides play perfectly (a *perfect-information* analysis: it sees every hand).

>>> import belot_sim as bs
>>> bs.solve(["AS", "7S", "TS", "8S"], "H", leader=0)      # A and 10 of spades + last trick
31
>>> bs.solve_moves(["AS 7C", "7S 8C", "TS 9C", "8S TC"], "NT", leader=0)  # doubled in NT; keys are bs.Card
{7C: 62, AS: 42}
>>> bs.solve_moves(["AS 7C", "7S 8C", "TS 9C", "8S TC"], "NT", leader=0, names=True)
{'7C': 62, 'AS': 42}

What is counted (docs/rules.md §2, §6, §7), for team ``team`` from the remaining tricks: card points of
its tricks (the rules family's table for the contract), +10 for the deal's last trick, all doubled
in bulgarian NT; +90 valat when the team takes every trick of a whole deal (8 cards each: the
first trick not started yet, or ``valat=True``); in AT +20 for each
K-Q pair held together by one of the team's seats whose first card is played in its own suit.
Declarations and suit-contract belots do not depend on the play and are not included.

The kernels (:mod:`belot_sim.kernels.solver.api`) can be called from other Numba code with a
preallocated table; these wrappers validate the input and keep one table for the process.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from ..engine.checks import check_bool
from ..engine.compiling import announce
from ..engine.results import warn_deprecated
from ..game.card_types import Card, card_value
from ..game.cards import format_card, iter_cards, parse_card, popcount, to_mask
from ..game.rules import BULGARIAN, Contract, Rules
from ..kernels.core.layouts import C_NODES, MAX_GEN

#: Table slots (entries of two int64) used by the Python wrappers: 2**16 slots = 1 MiB, which stays
#: in a core's L2 cache.  Measured on 480 and 600 full deals, one process, same deals alternating:
#: 2**16 slots take 5-7 % less time than 2**18 (2-4 % more nodes; the slowest 1 % of deals 10 % more
#: nodes, same time); 2**15 and 2**17 less gain, 2**20 6 % more time.
TT_BITS = 16


class _Workspace:
    """The table, context and generation counter shared by the wrappers of this process."""

    def __init__(self, bits: int = TT_BITS):
        with announce("solver"):
            from ..kernels.solver import api  # compiles (or loads) the search on first use

        self.k = api
        self.tt = np.zeros(2 << bits, dtype=np.int64)
        self.ctx = api.new_ctx()
        self.trick = np.zeros(4, dtype=np.int64)
        self.out = np.zeros(32, dtype=np.int64)
        self.gen = 0

    @property
    def nodes(self) -> int:
        """Search nodes of the last solve."""
        return int(self.ctx[C_NODES])

    def next_gen(self) -> int:
        self.gen += 1
        if self.gen > MAX_GEN:  # stamps would repeat: forget everything
            self.tt[:] = 0
            self.gen = 1
        return self.gen


_workspace: _Workspace | None = None


def _ws() -> _Workspace:
    global _workspace
    if _workspace is None:
        _workspace = _Workspace()
    return _workspace


# --- validation ------------------------------------------------------------------------------

def _check_index(value, name: str, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer 0..{high}, got {type(value).__name__} {value!r}")
    if not 0 <= value <= high:
        raise ValueError(f"{name} must be in 0..{high}, got {value}")
    return int(value)


def _check_card(value, what: str) -> int:
    if isinstance(value, str):
        return parse_card(value)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < 32:
        raise ValueError(f"{what}: {value!r} is not a card (an index 0..31 or a text such as 'JH')")
    return int(value)


def _check_hands(hands) -> list[int]:
    if isinstance(hands, (str, bytes, Mapping)) or not isinstance(hands, Iterable):
        raise TypeError("hands must be four hands (masks or card strings) in seat order, one per seat, got "
                        f"{type(hands).__name__}")
    hands = list(hands)
    if len(hands) != 4:
        raise ValueError(f"hands must be four hands, one per seat; got {len(hands)}")
    masks = [to_mask(h, f"hand of seat {s}") for s, h in enumerate(hands)]
    seen = 0
    for mask in masks:
        if seen & mask:
            raise ValueError(f"hands overlap: {format_card(next(iter_cards(seen & mask)))} is in two hands")
        seen |= mask
    return masks


def _check_trick(trick, leader: int, masks: list[int]) -> list[int]:
    """Cards of the trick in progress, in playing order from ``leader``."""
    if trick is None:
        return []
    if isinstance(trick, str):
        trick = trick.replace(",", " ").split()
    if isinstance(trick, (bytes, bytearray, Mapping)) or not isinstance(trick, Iterable):
        raise TypeError(f"trick must be the cards on the table (a text such as 'AS TS' or a list), got "
                        f"{type(trick).__name__}")
    trick = list(trick)
    if len(trick) > 3:
        raise ValueError(f"a trick in progress has at most 3 cards on the table, got {len(trick)}")
    cards = []
    for i, item in enumerate(trick):
        seat = (leader + i) % 4
        if isinstance(item, tuple):
            if len(item) != 2:
                raise ValueError(f"trick entries are (seat, card) pairs or cards, got {item!r}")
            given = _check_index(item[0], "trick seat", 3)
            if given != seat:
                raise ValueError(f"card {i + 1} of the trick must come from seat {seat} (leader {leader} plays "
                                 f"first, then in seat order), got seat {given}")
            item = item[1]
        card = _check_card(item, "trick")
        if any(m >> card & 1 for m in masks) or card in cards:
            raise ValueError(f"card {format_card(card)} on the table is also in a hand or played twice")
        cards.append(card)
    return cards


def _prepare(hands, contract, leader, trick, team, rules, valat):
    """Validate everything; returns (masks, contract, leader, cards on the table, team, rules, valat)."""
    rules = Rules.coerce(rules)
    if not isinstance(contract, (Contract, str, int, np.integer)) or isinstance(contract, bool):
        raise TypeError(f"contract must be a Contract or text such as 'H' or 'AT', got {type(contract).__name__}")
    contract = rules.check_contract(contract)
    masks = _check_hands(hands)
    leader = _check_index(leader, "leader", 3)
    team = _check_index(team, "team", 1)
    cards = _check_trick(trick, leader, masks)
    played = {(leader + i) % 4 for i in range(len(cards))}
    sizes = [popcount(m) + (1 if s in played else 0) for s, m in enumerate(masks)]
    if len(set(sizes)) != 1:
        shown = ", ".join(f"seat {s}: {popcount(m)}" for s, m in enumerate(masks))
        detail = " (the seats that already played to the trick hold one card less)" if cards else ""
        raise ValueError(f"hands must all hold the same number of cards{detail}; got {shown}")
    k = sizes[0]
    if not 1 <= k <= 8:
        raise ValueError(f"each hand must hold 1..8 cards (the last k tricks of a deal), got {k}")
    _check_table_legal(masks, leader, cards, contract, rules)
    if valat is None:
        valat = k == 8
    elif not isinstance(valat, (bool, np.bool_)):
        raise TypeError(f"valat must be True, False or None, got {valat!r}")
    return masks, contract, leader, cards, team, rules, bool(valat)


def _check_table_legal(masks, leader, cards, contract, rules) -> None:
    """Each card on the table must have been a legal play from its seat's hand at that moment."""
    from ..reference.play import legal_cards

    trick = []
    for i, card in enumerate(cards):
        seat = (leader + i) % 4
        if not legal_cards(masks[seat] | 1 << card, trick, seat, contract, rules) >> card & 1:
            raise ValueError(f"seat {seat} could not have played {format_card(card)} to this trick")
        trick.append((seat, card))


def _run(masks, contract, leader, cards, team, rules, valat, moves: bool, names: bool = False):
    ws = _ws()
    hands = np.array(masks, dtype=np.int64)
    for i, card in enumerate(cards):
        ws.trick[i] = card
    args = (hands, leader, ws.trick, len(cards), int(contract), team, 1 if rules.is_classic else 0,
            rules.undertrump == "required", rules.at_overtake_partner, valat, ws.ctx, ws.tt, ws.next_gen())
    with announce("solve"):
        if not moves:
            return int(ws.k.dd_value(*args))
        legal = int(ws.k.dd_moves(*args, ws.out))
    key = format_card if check_bool(names, "names") else card_value
    return {key(card): int(ws.out[card]) for card in iter_cards(legal)}


# --- public API --------------------------------------------------------------------------------

def solve(position, contract: Contract | str | None = None, leader: int | None = None, team: int | None = None,
          rules: Rules | str = BULGARIAN, *, trick: Iterable = (), valat: bool | None = None) -> int:
    """Compute the exact points team ``team`` takes from the remaining tricks with perfect play by both sides.

    The position is four hands with the contract and the seat that leads (from the middle of a trick:
    with the cards on the table, ``trick``), or a reference :class:`~belot_sim.reference.DealState` in
    its play.  With 8 cards each the team also earns the 90 valat points if it can take every trick.
    See the module docstring for what is counted.

    Parameters
    ----------
    position : sequence of int or str, or DealState
        Four masks or card strings indexed by seat — the cards still held (a seat that already played to
        the trick holds one card less than the others; k = 1..8 tricks are left) — or a reference
        ``DealState`` with every hand known (only what is still to come is counted; valat counts while
        ``team`` has won every completed trick; ``contract``, ``leader``, ``rules``, ``trick`` and
        ``valat`` come from the state).
    contract : Contract or str
        The contract (``"H"``, ``"NT"``, ``"AT"``...), one the rules allow; with hands.
    leader : int
        The seat 0..3 that led the trick in progress (or leads the next one when ``trick`` is empty);
        with hands.
    team : int, optional
        0 (seats 0, 2) or 1 (seats 1, 3), the side that maximises (the other side minimises); default
        team 0 with hands, the team of the seat to move with a state.
    rules : Rules or str, default ``BULGARIAN``
        A :class:`Rules` or preset name; with hands.
    trick : iterable, default ()
        The cards already on the table (at most 3, each a legal play), in playing order from
        ``leader``, as cards (indices or text; also one text such as ``"7S 8S"``) or ``(seat, card)``
        pairs; their points go to whoever wins the trick and are part of the value.
    valat : bool, optional
        Whether the team can still earn the 90 valat points (it has won every earlier trick of the
        deal); ``None`` (default): only within the deal's first trick.

    Returns
    -------
    int
        The points of ``team``.

    Raises
    ------
    ValueError
        On bad input (sizes, overlaps, seats, contract, a card on the table that was not a legal
        play), a state whose deal is over or whose hands are not all known.
    TypeError
        On an argument of the wrong type, or hands without ``contract`` and ``leader``.

    Examples
    --------
    >>> solve(["AS", "", "TS", "8S"], "H", leader=1, trick=["7S"])
    31
    """
    return _solve(position, contract, leader, team, rules, trick, valat, moves=False)


def solve_moves(position, contract: Contract | str | None = None, leader: int | None = None,
                team: int | None = None, rules: Rules | str = BULGARIAN, *, trick: Iterable = (),
                valat: bool | None = None, names: bool = False) -> dict[Card, int] | dict[str, int]:
    """Value every card the seat to move may play: the exact points of team ``team`` after it, with perfect play.

    ``max`` of the values is :func:`solve` when ``team`` is the mover's team, ``min`` otherwise.

    Parameters
    ----------
    position, contract, leader, team, rules, trick, valat
        As in :func:`solve` (the seat to move: ``leader`` with an empty ``trick``, the seat after the
        trick's last card otherwise).
    names : bool, default False
        Key the result by the cards' texts (``"JH"``) instead of :class:`~belot_sim.Card` values.

    Returns
    -------
    dict of Card to int, or dict of str to int
        ``{card: value}`` for every legal card of the seat to move: the exact points of team ``team``
        after that card and perfect play by both sides.  The keys are :class:`~belot_sim.Card` values
        (card indices that print as names), or texts with ``names=True``.

    Raises
    ------
    ValueError
        As :func:`solve`.
    TypeError
        As :func:`solve`.
    """
    return _solve(position, contract, leader, team, rules, trick, valat, moves=True, names=names)


def _solve(position, contract, leader, team, rules, trick, valat, moves: bool, names: bool = False):
    """:func:`solve` or :func:`solve_moves` of hands or of a state."""
    if _is_state(position):
        no_trick = trick is None or (isinstance(trick, (tuple, list, str)) and not trick)
        given = {"contract": contract, "leader": leader, "trick": None if no_trick else trick, "valat": valat,
                 "rules": None if rules is BULGARIAN else rules}
        extra = [name for name, value in given.items() if value is not None]
        if extra:
            raise TypeError(f"a DealState carries its own {', '.join(extra)}: give the state alone (and team)")
        return _solve_state(position, team, moves, names)
    if contract is None or leader is None:
        raise TypeError("solve(hands, contract, leader, ...) needs the contract and the seat that leads (or give a "
                        "reference DealState alone)")
    return _run(*_prepare(position, contract, leader, trick, 0 if team is None else team, rules, valat),
                moves=moves, names=names)


def _is_state(position) -> bool:
    from ..reference.deal import DealState

    return isinstance(position, DealState)


def _solve_state(state, team, moves: bool, names: bool):
    """The double-dummy value (or card values) of a reference ``DealState`` from where it is."""
    if state.is_over:
        raise ValueError("the deal is over: nothing is left to solve")
    if state.hidden_seats:
        raise ValueError(f"the hands of seats {list(state.hidden_seats)} are unknown (filled in at random from the "
                         "position's '?'): a double-dummy value needs every hand; bs.analyze values the cards over "
                         "layouts consistent with what the mover knows")
    if team is None:
        team = state.to_move % 2
    team = _check_index(team, "team", 1)
    valat = state.tricks_won[1 - team] == 0
    return _run(*_prepare(state.hands, state.contract, state.leader, [c for _, c in state.trick], team,
                          state.rules, valat), moves=moves, names=names)


# --- the names before solve and solve_moves took positions and states, for one release --------------

def solve_position(hands: Sequence, contract: Contract | str, leader: int, trick: Iterable = (), team: int = 0,
                   rules: Rules | str = BULGARIAN, *, valat: bool | None = None, moves: bool = False,
                   names: bool = False) -> int | dict[Card, int] | dict[str, int]:
    """Deprecated: :func:`solve` (or :func:`solve_moves` with ``moves=True``), which take ``trick=``.

    Parameters
    ----------
    hands, contract, leader, trick, team, rules, valat
        As in :func:`solve`.
    moves : bool, default False
        Return :func:`solve_moves`'s ``{card: value}`` instead of the value.
    names : bool, default False
        As in :func:`solve_moves`.

    Returns
    -------
    int or dict
        As :func:`solve`, or :func:`solve_moves` with ``moves=True``.
    """
    moves = check_bool(moves, "moves")
    warn_deprecated(f"solve_position is deprecated: use {'solve_moves' if moves else 'solve'}(hands, contract, "
                    "leader, team, rules, trick=..., valat=...)")
    return _solve(hands, contract, leader, team, rules, trick, valat, moves=moves, names=names)


def solve_state(state, team: int | None = None, *, moves: bool = False, names: bool = False
                ) -> int | dict[Card, int] | dict[str, int]:
    """Deprecated: :func:`solve` (or :func:`solve_moves` with ``moves=True``), which take a state.

    Parameters
    ----------
    state : DealState
        As in :func:`solve`.
    team : int, optional
        As in :func:`solve`.
    moves : bool, default False
        Return :func:`solve_moves`'s ``{card: value}`` instead of the value.
    names : bool, default False
        As in :func:`solve_moves`.

    Returns
    -------
    int or dict
        As :func:`solve`, or :func:`solve_moves` with ``moves=True``.
    """
    moves = check_bool(moves, "moves")
    warn_deprecated(f"solve_state is deprecated: use {'solve_moves' if moves else 'solve'}(state, team)")
    if not _is_state(state):
        raise TypeError(f"state must be a reference DealState, got {type(state).__name__}")
    return _solve_state(state, team, moves, names)
