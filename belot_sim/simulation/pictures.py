"""Pictures of deals: a row of a ``simulate`` frame as a :class:`~belot_sim.game.picture.Picture` (its
four hands around the table, contract, declarer and result, the tricks from the plays frame), and
:func:`write_svg`, which writes the picture of a row, a reference state or a position text to a file.

>>> import belot_sim as bs
>>> deals, plays = bs.simulate(2, contract="H", plays=True, seed=1)
>>> picture = deal_picture(deals.iloc[0], plays)
>>> picture.headline(), picture.result, len(picture.tricks)
('H by seat 2 · dealer 3', 'made · raw 192–60 · score 19–6', 8)
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ..engine.io import write_atomically
from ..game.picture import Picture, result_line
from ..game.rules import Contract
from ..reference import state_from_text
from ..reference.play import trick_winner

#: The columns a deal row needs to be drawn.
ROW_COLUMNS = ("dealer", "contract", "declarer", "multiplier", "hand0", "hand1", "hand2", "hand3", "trick_points0",
               "trick_points1", "raw0", "raw1", "outcome", "score0", "score1")


def deal_picture(row: pd.Series, plays: pd.DataFrame | None = None, *, tricks: bool = True) -> Picture:
    """The picture of one deal row of a ``simulate`` frame: the four dealt hands, the contract and
    declarer, the trick points and the result; with ``plays`` (``simulate(..., plays=True)``'s second
    frame) the tricks played too, in a column (``tricks=False``: counted, not drawn)."""
    if not isinstance(row, pd.Series):
        raise TypeError(f"a deal row must be a pandas Series (frame.iloc[i] or frame.loc[label]), got "
                        f"{type(row).__name__}")
    missing = [c for c in ROW_COLUMNS if c not in row.index]
    if missing:
        raise ValueError(f"the row is no simulate deal row: it lacks the column(s) {', '.join(missing)}")
    hands = tuple(int(row[f"hand{s}"]) for s in range(4))
    contract = None if pd.isna(row["contract"]) else Contract.from_str(str(row["contract"]))
    done = () if plays is None or contract is None else deal_tricks(plays, row, contract)
    won = (sum(w % 2 == 0 for _, w in done), sum(w % 2 == 1 for _, w in done)) if done else None
    return Picture(hands, tuple(bin(h).count("1") for h in hands), int(row["dealer"]), contract, int(row["declarer"]),
                   int(row["multiplier"]), tricks=done, points=(int(row["trick_points0"]), int(row["trick_points1"])),
                   tricks_won=won, show_tricks=bool(done) and tricks,
                   result=result_line(row["outcome"], (row["raw0"], row["raw1"]), (row["score0"], row["score1"])))


def deal_tricks(plays: pd.DataFrame, row: pd.Series, contract: Contract) -> tuple:
    """The tricks of the row's deal in a plays frame: ``((seat, card) × 4, winner)`` each."""
    if "deal_id" not in row.index:
        raise ValueError("the row has no deal_id column: its plays cannot be found")
    missing = [c for c in ("deal_id", "trick", "pos", "seat", "card") if c not in plays.columns]
    if missing:
        raise ValueError(f"plays must be simulate's plays frame; it lacks the column(s) {', '.join(missing)}")
    mine = plays[plays["deal_id"] == row["deal_id"]].sort_values(["trick", "pos"])
    if len(mine) != 32:
        raise ValueError(f"plays holds {len(mine)} cards of deal {row['deal_id']}, expected 32")
    pairs = list(zip(mine["seat"].astype(int), mine["card"].astype(int)))
    tricks = [tuple(pairs[k:k + 4]) for k in range(0, 32, 4)]
    return tuple((t, t[trick_winner([c for _, c in t], contract)][0]) for t in tricks)


def picture_of(obj, *, plays: pd.DataFrame | None = None, tricks: bool = False) -> Picture:
    """The picture of a deal row, a reference state (``DealState``, ``FullDealState``, ``MatchState``), a
    position text (docs/notation.md; ``?`` hands are drawn as card backs) or a picture."""
    if isinstance(obj, Picture):
        return obj
    if isinstance(obj, pd.Series):
        return deal_picture(obj, plays, tricks=tricks or plays is not None)
    if isinstance(obj, str):
        obj = state_from_text(obj)
    if not callable(getattr(obj, "picture", None)):
        raise TypeError(f"cannot draw a {type(obj).__name__}: give a simulate deal row, a reference state, a "
                        "position text or a Picture")
    return obj.picture(tricks=tricks)


def write_svg(obj, path: str | os.PathLike, *, plays: pd.DataFrame | None = None, tricks: bool = False) -> Path:
    """Write the picture of a deal row, a reference state, a position text or a picture as an SVG file.

    The file is written whole or not at all (a temporary file beside ``path``, then renamed).

    Parameters
    ----------
    obj : pandas.Series, DealState, FullDealState, MatchState, str or Picture
        A ``simulate`` deal row (``deals.iloc[i]``), a reference state, a position text
        (docs/notation.md; ``?`` hands are drawn as card backs) or a
        :class:`~belot_sim.game.picture.Picture` (written as it is).
    path : str or os.PathLike
        The SVG file to write; its folder must exist.
    plays : pandas.DataFrame, optional
        With a deal row: ``simulate(..., plays=True)``'s plays frame, whose tricks of that deal are
        then drawn.
    tricks : bool, default False
        Draw the tricks played (a reference state's; a deal row's are drawn whenever ``plays`` is
        given).

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    TypeError
        If ``obj`` is none of these.
    ValueError
        If a position text is not valid, a deal row or ``plays`` lacks columns, or ``plays`` does not
        hold the deal's 32 cards.
    FileNotFoundError
        If the folder of ``path`` does not exist.
    """
    text = picture_of(obj, plays=plays, tricks=tricks).to_svg()
    return write_atomically(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
