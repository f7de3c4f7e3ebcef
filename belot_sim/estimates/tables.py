"""What :func:`belot_sim.bid_table` returns: the table of a hand's calls and what it was measured on."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.results import FormerTable, warn_deprecated


@dataclass(frozen=True, eq=False)
class BidTable(FormerTable):
    """A hand's bid table (:func:`belot_sim.bid_table`): ``table`` has one row per contract (with an
    auction, per legal call; its columns: :func:`belot_sim.bid_table`); ``recommended`` the call to make
    (``"pass"`` or a contract), ``best_call`` the call of the highest ``ev_call`` (``None`` without that
    column), and what was measured: ``hand`` (as text), ``seat``, ``samples`` (the layouts played),
    ``rules`` (the family), ``players``, ``auction`` (``None`` without one), ``tried`` and ``acceptance``
    (the layouts drawn and the share consistent with the auction; the samples and 1.0 without one).
    ``str()`` prints the report."""

    table: pd.DataFrame = field(repr=False)
    recommended: str
    hand: str
    seat: int
    samples: int
    rules: str
    players: str | tuple  # as given to bid_table
    auction: str | None = None
    tried: int = 0
    acceptance: float = 1.0
    best_call: str | None = None

    def lines(self) -> list[str]:
        table = self.table
        doubled = bool(table[["ev_doubled", "ev_redoubled"]].notna().any(axis=None))
        calls = "ev_call" in table.columns
        lines = [f"hand {self.hand} (seat {self.seat}), {self.samples:,} layouts, players {self.players}, "
                 f"{self.rules} rules",
                 f"{'call':>8} {'P(made)':>8} {'95% CI':>16} {'hanging':>8} {'inside':>8} {'EV':>7}"
                 + (f" {'EV x2':>7} {'EV x4':>7}" if doubled else "") + (f" {'EV call':>8}" if calls else "")]
        for call, row in table.iterrows():
            lines.append(_row_text(call, row, doubled) + (f" {row.ev_call:>+8.2f}" if calls else "")
                         + ("  <- bid" if row.recommended else ""))
        return lines + self.notes()

    def notes(self) -> list[str]:
        lines = [f"recommended call: {self.recommended}"]
        if self.best_call is not None:
            lines.append(f"best call by EV call (each call made, the auction finished by the bidder model, the "
                         f"ending played): {self.best_call}")
        if self.auction is not None:
            lines.append(f"after {self.auction!r}: {self.samples:,} of {self.tried:,} layouts consistent "
                         f"({self.acceptance:.1%})")
        return lines


def _row_text(call: str, row, doubled: bool) -> str:
    """One call's line of the report, without ``ev_call`` and the mark."""
    if np.isnan(row.p_made):  # pass, double, redouble: only the continuation's value
        return f"{call:>8} {'':>8} {'':>16} {'':>8} {'':>8} {'':>7}" + (f" {'':>7} {'':>7}" if doubled else "")
    interval = f"[{row.p_made_low:.1%}, {row.p_made_high:.1%}]"
    evs = f" {row.ev_doubled:>+7.2f} {row.ev_redoubled:>+7.2f}" if doubled else ""
    return (f"{call:>8} {row.p_made:>8.1%} {interval:>16} {row.p_hanging:>8.1%} {row.p_inside:>8.1%} "
            f"{row.ev:>+7.2f}{evs}")


def format_bid_table(result) -> str:
    """Deprecated: ``str(result)`` of the :class:`BidTable` :func:`belot_sim.bid_table` returns.

    Parameters
    ----------
    result : BidTable or pandas.DataFrame
        A bid table, or a frame with the old ``attrs`` (``recommended``, ``hand``, ``seat``...).

    Returns
    -------
    str
        The table's report: the hand, seat, layouts, players and rules, a line per call, the
        recommended call (and the best call by ``ev_call``).
    """
    warn_deprecated("format_bid_table(result) is deprecated: print(result) or str(result) gives the same text")
    if not isinstance(result, BidTable):
        attrs = result.attrs
        result = BidTable(result, attrs.get("recommended", "?"), attrs.get("hand", "?"), attrs.get("seat", 0),
                          attrs.get("samples", 0), attrs.get("rules"), attrs.get("players"),
                          best_call=attrs.get("best_call"))
    return str(result)
