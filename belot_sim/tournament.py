"""Duplicate tournaments between two players (docs/rules.md §11 ladder checks).

Every deal is played twice on the same cards, contract and declarer: once with player
``a`` in seats 0/2 and ``b`` in seats 1/3, once with the seats swapped, so the luck of the
cards cancels.  The edge of a deal is ``a``'s raw points minus ``b``'s, averaged over the
two plays.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .rules import CONTRACT_CODES, Rules
from .simulation import DEFAULT_WORLDS, simulate
from .stats import mean_interval


def tournament(a: str, b: str, n: int, *, rules: Rules | str = "bulgarian", contract=None,
               declarer: int | None = None, bidders=None, seed: int = 0, start: int = 0, threads: int | None = None,
               progress: bool = False, worlds: int = DEFAULT_WORLDS, bidder_options: dict | None = None
               ) -> pd.DataFrame:
    """Play ``n`` duplicate deals (ids ``start .. start+n-1``) between players ``a`` and ``b``.

    ``contract``, ``declarer``, ``bidders``, ``seed``, ``start``, ``threads``, ``progress``,
    ``worlds``, ``bidder_options`` as in :func:`belot_sim.simulate` (default: a random contract
    and declarer per deal; with ``bidders`` the auction decides, the same in both plays since it
    does not depend on the players; void deals count as an edge of 0 in ``all``).

    Returns one row per contract played plus ``"all"`` (index ``contract``), columns: ``deals``,
    ``mean_edge`` (raw points per deal in ``a``'s favour), ``ci_low``/``ci_high`` (95% normal
    interval of the mean), ``a_better``/``b_better``/``equal`` (fractions of deals).
    """
    common = dict(rules=rules, contract=contract, declarer=declarer, bidders=bidders, seed=seed, start=start,
                  threads=threads, progress=progress, worlds=worlds, bidder_options=bidder_options)
    first = simulate(n, players=(a, b, a, b), **common)
    second = simulate(n, players=(b, a, b, a), **common)
    edge = ((first["raw0"].to_numpy(np.int64) - first["raw1"].to_numpy(np.int64))
            + (second["raw1"].to_numpy(np.int64) - second["raw0"].to_numpy(np.int64))) / 2.0
    contracts = first["contract"].astype(object).to_numpy()
    rows = {}
    for code in CONTRACT_CODES:
        chosen = contracts == code
        if chosen.any():
            rows[code] = _summary(edge[chosen])
    rows["all"] = _summary(edge)
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "contract"
    table.attrs.update({"a": a, "b": b, "n": n, "seed": seed})
    return table


def _summary(edge: np.ndarray) -> dict:
    mean, low, high = mean_interval(edge)
    return {"deals": len(edge), "mean_edge": mean, "ci_low": low, "ci_high": high,
            "a_better": float((edge > 0).mean()), "b_better": float((edge < 0).mean()),
            "equal": float((edge == 0).mean())}


def format_tournament(table: pd.DataFrame) -> str:
    """A printable table: edges with their 95% intervals and the win fractions."""
    a, b = table.attrs.get("a", "a"), table.attrs.get("b", "b")
    lines = [f"{a} vs {b}: {table.attrs.get('n', '?'):,} duplicate deals (each played twice, seats swapped)",
             f"{'contract':>8} {'deals':>8} {'edge':>8} {'95% CI':>18} {a + ' better':>14} {b + ' better':>14}"]
    for contract, row in table.iterrows():
        interval = f"[{row.ci_low:+.2f}, {row.ci_high:+.2f}]"
        lines.append(f"{contract:>8} {int(row.deals):>8,} {row.mean_edge:>+8.2f} {interval:>18} "
                     f"{row.a_better:>14.1%} {row.b_better:>14.1%}")
    return "\n".join(lines)
