"""Position analysis: every legal card of the seat to move, judged exactly and over sampled layouts,
with the card each bot would play.

>>> import belot_sim as bs
>>> from belot_sim import reference as ref
>>> pos = ref.DealState.from_text("belot deal; dealer 2; contract H; declarer 0; hands T.AQT9.T7.J AK98...AQT8 "
...                               ".K.AKQJ9.K9 QJ7.J87.8.7; play 7S TS AS KH | AD 8D 7D 8C | 9D")
>>> result = bs.analyze(pos, worlds=50, players=("normal", "pimc"))
>>> result.table[["name", "dd", "p_best", "bots"]].values.tolist()
[['7H', 64, 0.98, 'pimc'], ['8H', 64, 0.98, ''], ['JH', 53, 0.02, 'normal']]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.checks import check_int, check_seed
from ..engine.registry import PERFECT_INFORMATION, PLAYERS, PLAYER_CODES
from ..engine.results import FormerTable
from ..engine.searching import MAX_WORLDS, search_token
from ..game.cards import format_card
from ..kernels.play_loop import play_scratch
from .bots import Bot, as_state, fill_record, new_record, play_state_of, turned_card_of

#: Layouts over which analyze() averages each card (a judge: more than a player's 20).
ANALYZE_WORLDS = 200


@dataclass(frozen=True, eq=False)
class Analysis(FormerTable):
    """A position's analysis (:func:`analyze`): ``table`` has one row per legal card of the seat to move
    (its columns: :func:`analyze`); ``seat`` to move and its ``team``, ``worlds`` and ``seed`` of the
    layouts, ``choices`` (player → the card its bot plays), and where the position is: ``trick``
    (1..8), ``contract`` (with ``doubled``/``redoubled``) and ``declarer``.  ``str()`` prints the report."""

    table: pd.DataFrame = field(repr=False)
    seat: int
    team: int
    worlds: int
    seed: int
    choices: dict
    trick: int
    contract: str
    declarer: int

    def lines(self) -> list[str]:
        head = (f"seat {self.seat} to move (team {self.team}), trick {self.trick}, {self.contract} by seat "
                f"{self.declarer}; values: the mover's team's points still to come; {self.worlds} layouts, "
                f"seed {self.seed}")
        body = self.table.to_string(index=False, formatters={"pimc_mean": "{:.1f}".format,
                                                             "pimc_se": "{:.1f}".format, "p_best": "{:.2f}".format})
        return [head, *body.splitlines()]


def _players(players) -> tuple[str, ...]:
    if not isinstance(players, Iterable):
        raise TypeError(f"players must be a player name or a list of them, got {players!r}")
    names = (players,) if isinstance(players, str) else tuple(players)
    for name in names:
        if not isinstance(name, str) or name.lower() not in PLAYERS:
            raise ValueError(f"unknown player {name!r}: available players are {sorted(PLAYERS)}")
    return tuple(name.lower() for name in names)


def layout_table(deal, worlds: int, seed: int, turned_card: int = -1) -> tuple[int, np.ndarray]:
    """``(legal mask, values[worlds, 32])``: each legal card's double-dummy value for the mover's team
    in ``worlds`` layouts consistent with what the seat knows, the classic ``turned_card`` in the
    declarer's hand (-1: none; the layouts a ``pimc`` bot with this seed draws first)."""
    from ..kernels.players.worlds import layout_values  # compiles the solver on first use

    record = new_record(deal.rules, seed, False)
    fill_record(record, deal, turned_card)
    players = np.full(4, PLAYER_CODES["pimc"], dtype=np.int64)
    _, view, _, ctx, tt, scratch = play_scratch(players, worlds, search_token())
    out = np.empty((worlds, 32), dtype=np.int64)
    legal = int(layout_values(record, view, ctx, tt, scratch, out))
    return legal, out


def analyze(state, *, worlds: int = ANALYZE_WORLDS, seed: int = 0, players=tuple(PLAYERS)) -> Analysis:
    """Judge every legal card of the seat to move, exactly and over sampled layouts, with the card each bot plays.

    Parameters
    ----------
    state : DealState, FullDealState, MatchState or str
        A reference ``DealState``, ``FullDealState`` in its play or ``MatchState``, or a position text
        as ``belot-sim analyze`` takes (docs/notation.md; its ``?`` hands drawn with ``seed``).
    worlds : int, default 200
        Layouts of the cards the seat cannot see over which each card is averaged (1..100,000).
    seed : int, default 0
        The layouts' and the bots' random streams, and the draw of a position text's ``?`` hands.
    players : str or iterable of str, default every player of :data:`belot_sim.PLAYERS`
        The players whose bots' choices fill ``bots`` (any case).

    Returns
    -------
    Analysis
        Its ``table``: one row per legal card of the seat to move, best first by ``pimc_mean`` (ties by card index).
        Columns: ``card`` (index), ``name``; ``dd``: the exact double-dummy value for the mover's team
        with the actual hands (:func:`belot_sim.solve_moves`: points still to come; missing when a hand
        is unknown, ``?`` in a position text); ``pimc_mean`` and ``pimc_se``: the mean and its standard
        error of that value over ``worlds`` layouts of the cards the seat cannot see, consistent with
        what it knows (the layouts ``pimc`` samples; ``pimc_se`` NaN for one layout); ``p_best``: the
        share of those layouts in which the card is best (ties count for every tied card); ``bots``:
        the names of ``players`` whose bot plays the card (``Bot(name, rules=state.rules, seed=seed)``,
        with its own 20 layouts for ``pimc``; ``dd`` is left out when a hand is unknown).  Its fields:
        ``seat``, ``team``, ``worlds``, ``seed``, ``choices`` (player → card), ``trick``, ``contract``,
        ``declarer``; ``print(result)`` prints the report.

    Raises
    ------
    ValueError
        On a bad ``worlds``, ``seed`` or player name, a text that is no position, or a state with no card
        to play (in its auction, void, over, or the mover's hand unknown).
    TypeError
        If ``state`` or ``players`` is of the wrong type.
    """
    from .solve import solve_moves

    worlds = check_int(worlds, "worlds", 1, MAX_WORLDS)
    seed = check_seed(seed)
    state = as_state(state, seed)
    deal = play_state_of(state)
    names = _players(players)
    legal, values = layout_table(deal, worlds, seed, turned_card_of(state))
    cards = [c for c in range(32) if legal >> c & 1]
    exact = solve_moves(deal) if not deal.hidden_seats else {}
    table = values[:, cards]
    best = table == table.max(axis=1, keepdims=True)
    frame = pd.DataFrame({
        "card": np.array(cards, dtype=np.int8),
        "name": [format_card(c) for c in cards],
        "dd": pd.array([exact.get(c) for c in cards], dtype="Int16"),
        "pimc_mean": table.mean(axis=0),
        "pimc_se": table.std(axis=0, ddof=1) / np.sqrt(worlds) if worlds > 1 else np.nan,
        "p_best": best.mean(axis=0),
    })
    choices = {name: Bot(name, rules=deal.rules, seed=seed).play(state) for name in names
               if not (name in PERFECT_INFORMATION and deal.hidden_seats)}
    frame["bots"] = [" ".join(name for name, card in choices.items() if card == c) for c in cards]
    frame = frame.sort_values(["pimc_mean", "card"], ascending=[False, True], kind="stable").reset_index(drop=True)
    doubled = {1: "", 2: " doubled", 4: " redoubled"}[deal.multiplier]
    return Analysis(frame, deal.to_move, deal.to_move % 2, worlds, seed, choices, deal.trick_number + 1,
                    f"{deal.contract}{doubled}", deal.declarer)
