"""The ``.belot`` accessor of DataFrames: cards by name and the bidding side's points, on ``simulate``
frames, without hand-written bit arithmetic (registered when ``belot_sim`` is imported).

>>> import belot_sim as bs
>>> deals, plays = bs.simulate(1000, contract="H", plays=True, seed=1)
>>> deals.belot.hand("declarer").head(2).tolist()
['7S 9S 9H QH KH AH TD AD', '9S TS QH TD QD KD AD KC']
>>> int(deals.belot.holds(seat="declarer", cards="JH 9H").sum())   # the two top trumps
58
>>> deals.belot.bidding_side("raw").head(2).tolist(), deals.belot.defenders("raw").head(2).tolist()
([192, 59], [60, 123])
>>> plays.belot.card_names().head(4).tolist()
['KD', '9D', 'AD', 'QD']
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..game.cards import format_card, format_cards, to_mask
from ..game.picture import Picture
from .pictures import deal_picture

#: The text of each card index, by index (a look-up table for whole columns).
CARD_NAMES = np.array([format_card(c) for c in range(32)], dtype=object)
#: The seats a hand can be asked for by name: the declarer and the declarer's partner.
NAMED_SEATS = ("declarer", "partner")


@pd.api.extensions.register_dataframe_accessor("belot")
class BelotAccessor:
    """``frame.belot``: operations on a ``simulate`` deals frame (``hand0..3``, ``declarer``, the team
    columns ``<name>0/1``) or a plays frame (``card``).  A seat is 0..3, ``"declarer"`` or
    ``"partner"`` (the declarer's partner); a void deal (all passed, ``declarer == -1``) has neither: its
    hand is missing (NA), it holds nothing and its sides' points are ``<NA>``.  Every result
    keeps the frame's index."""

    def __init__(self, frame: pd.DataFrame):
        self._frame = frame

    def _column(self, name: str) -> pd.Series:
        if name not in self._frame.columns:
            raise ValueError(f"the frame has no column {name!r}: this needs a simulate frame with it (columns: "
                             f"{', '.join(map(str, self._frame.columns[:12]))}{' ...' * (self._frame.shape[1] > 12)})")
        return self._frame[name]

    def _played(self) -> np.ndarray:
        """Per row, whether the deal was played (not void)."""
        return self._column("declarer").to_numpy(np.int64) >= 0

    def mask(self, seat: int | str) -> pd.Series:
        """The dealt 8-card hand of ``seat`` as masks (``uint32``; 0 for the declarer of a void deal)."""
        if isinstance(seat, str) and seat.lower() in NAMED_SEATS:
            declarer = self._column("declarer").to_numpy(np.int64)
            seats = (declarer + 2 * (seat.lower() == "partner")) % 4
            hands = np.stack([self._column(f"hand{s}").to_numpy(np.uint32) for s in range(4)])
            picked = np.where(declarer >= 0, hands[seats, np.arange(len(seats))], 0).astype(np.uint32)
            return pd.Series(picked, index=self._frame.index, name=f"{seat.lower()}_hand")
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat <= 3:
            raise ValueError(f"seat must be 0..3, 'declarer' or 'partner', got {seat!r}")
        return self._column(f"hand{int(seat)}").astype(np.uint32)

    def hand(self, seat: int | str) -> pd.Series:
        """The dealt hand of ``seat`` as card text (``"TS 9H JH"``, :func:`belot_sim.format_cards`'s order)."""
        text = format_cards(self.mask(seat))
        if isinstance(seat, str):
            text[~self._played()] = None
        return text

    def hands(self) -> pd.DataFrame:
        """The four dealt hands as card text, columns ``hand0..hand3``."""
        return pd.DataFrame({f"hand{s}": self.hand(s) for s in range(4)}, index=self._frame.index)

    def holds(self, seat: int | str = "declarer", cards: int | str = "", *, any: bool = False) -> pd.Series:
        """Per row, whether ``seat`` was dealt every card of ``cards`` (a card text such as ``"JH 9H"``, a
        mask or a list of cards); ``any=True``: at least one of them.  A filter:
        ``deals[deals.belot.holds("declarer", "JH 9H")]``."""
        wanted = to_mask(cards, "cards")
        if not wanted:
            raise ValueError("cards: name at least one card, such as 'JH 9H'")
        common = self.mask(seat).to_numpy(np.int64) & wanted
        held = common != 0 if any else common == wanted
        if isinstance(seat, str):
            held &= self._played()
        return pd.Series(held, index=self._frame.index, name="holds")

    def bidding_team(self) -> pd.Series:
        """The declarer's team (0/1; -1 for a void deal)."""
        declarer = self._column("declarer").to_numpy(np.int64)
        return pd.Series(np.where(declarer >= 0, declarer % 2, -1).astype(np.int8), index=self._frame.index,
                         name="bidding_team")

    def _side(self, column: str, bidding: bool) -> pd.Series:
        zero, one = (self._column(f"{column}{t}").to_numpy(np.int64) for t in (0, 1))
        team = self.bidding_team().to_numpy()
        values = np.where((team == 0) == bidding, zero, one)
        return pd.Series(pd.array(values, dtype="Int64"), index=self._frame.index,
                         name=f"{column}_{'bidding' if bidding else 'defenders'}").mask(team < 0)

    def bidding_side(self, column: str = "score") -> pd.Series:
        """The bidding team's value of a team column pair ``<column>0/1`` (``score``, ``raw``, ``trick_points``,
        ``declared``, ``belot``), ``<NA>`` for void deals (``Int64``; ``.to_numpy(np.int64)`` once they are
        dropped)."""
        return self._side(column, True)

    def defenders(self, column: str = "score") -> pd.Series:
        """The defending team's value of ``<column>0/1``, as :meth:`bidding_side`."""
        return self._side(column, False)

    def card_names(self, column: str = "card") -> pd.Series:
        """A column of card indices (a plays frame's ``card``, a classic ``turned_card``) as card text
        (missing where there is no card, -1)."""
        cards = self._column(column).to_numpy(np.int64)
        if cards.size and cards.max() > 31:
            raise ValueError(f"column {column!r} holds {cards.max()}, which is no card index (0..31)")
        names = np.where(cards >= 0, CARD_NAMES[np.clip(cards, 0, 31)], None)
        return pd.Series(names, index=self._frame.index, name=f"{column}_name")

    def picture(self, label, plays: pd.DataFrame | None = None) -> Picture:
        """The picture of the deal at index ``label`` (:func:`belot_sim.simulation.pictures.deal_picture`):
        shown in Jupyter, ``str`` a text diagram, ``.to_svg()`` the SVG; ``plays``: the tricks too."""
        return deal_picture(self._frame.loc[label], plays)
