"""Duplicate tournaments between two players (docs/rules.md §11 ladder checks).

Every deal is played twice on the same cards, contract and declarer: once with player
``a`` in seats 0/2 and ``b`` in seats 1/3, once with the seats swapped, so the luck of the
cards cancels.  The edge of a deal is ``a``'s raw points minus ``b``'s, averaged over the
two plays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.checks import check_int, check_threads, numba_threads
from ..engine.progress import Progress, check_progress
from ..engine.results import FormerTable, warn_deprecated
from ..engine.searching import DEFAULT_WORLDS
from ..engine.stats import NA_NOTE, duplicate_lines, side_names, sums_interval
from ..game.rules import CONTRACT_CODES
from .dask import check_partition_size
from .deals import MAX_DEALS, DealPlan, deal_blocks, plan_deals, run_deals

#: Duplicate deals per task on a Dask client.
CLIENT_PARTITION = 100_000


@dataclass(frozen=True, eq=False)
class DuplicateResult(FormerTable):
    """What both duplicate comparisons return (:class:`Tournament`, and
    :class:`~belot_sim.simulation.match_tournament.MatchTournament`): a ``table`` by contract with its
    ``"all"`` row, the sides ``a`` and ``b``, ``n`` duplicate deals or matches and the ``seed``."""

    table: pd.DataFrame = field(repr=False)
    a: str
    b: str
    n: int
    seed: int

    @property
    def edge(self) -> float:
        """The mean edge per deal of ``a`` (paired deals, match points, for matches; ``table.loc["all",
        "mean_edge"]``)."""
        return float(self.table.loc["all", "mean_edge"])

    @classmethod
    def from_former(cls, result) -> DuplicateResult:
        """``result`` itself, or a result of this class made from a bare table of the release before, whose
        ``attrs`` held ``a``, ``b``, ``n`` and ``seed`` (what the deprecated ``format_*`` functions accept)."""
        if isinstance(result, cls):
            return result
        attrs = result.attrs
        return cls(result, attrs.get("a", "a"), attrs.get("b", "b"), attrs.get("n"), attrs.get("seed"))


@dataclass(frozen=True, eq=False)
class Tournament(DuplicateResult):
    """A duplicate tournament (:func:`tournament`): ``table`` has one row per contract played plus
    ``"all"`` (index ``contract``), columns ``deals``, ``mean_edge`` (raw points per deal in ``a``'s
    favour), ``ci_low``/``ci_high`` (its 95 % normal interval; NaN for a row of one deal),
    ``a_better``/``b_better``/``equal`` (fractions of deals); ``a`` and ``b`` the players, ``n`` the
    duplicate deals, ``seed``.  ``str()`` prints the report."""

    def lines(self) -> list[str]:
        a, b = side_names(self.a, self.b)
        a_better, b_better = a + " better", b + " better"
        width = max(14, len(a_better), len(b_better))
        return duplicate_lines(self.table, self.n, a, b, "deals", f" {a_better:>{width}} {b_better:>{width}}",
                               lambda row: f" {row.a_better:>{width}.1%} {row.b_better:>{width}.1%}") + self.notes()

    def notes(self) -> list[str]:
        return [NA_NOTE.format(what="deals")] if self.table["ci_low"].isna().any() else []


def tournament(a: str, b: str, n: int, *, rules="bulgarian", contract=None, declarer: int | None = None,
               bidders=None, seed: int = 0, start: int = 0, threads: int | None = None, progress: bool | None = None,
               worlds: int = DEFAULT_WORLDS, bidder_options: dict | None = None, client=None,
               partition_size: int = CLIENT_PARTITION) -> Tournament:
    """Play ``n`` duplicate deals (ids ``start .. start+n-1``) between players ``a`` and ``b``.

    Every deal is played twice on the same cards, contract and declarer (undoubled): once with ``a``
    in seats 0/2, once with the seats swapped; its edge is ``a``'s raw points minus ``b``'s, averaged
    over the two plays.  Memory does not grow with ``n``: each block's edges are summed by contract as
    integers (:func:`duplicate_sums`), so the table is exact and the same for any blocks, threads or
    client.

    Parameters
    ----------
    a, b : str
        The two players' names (:data:`belot_sim.PLAYERS`); they may be the same.
    n : int
        The number of duplicate deals, at least 1.
    rules : Rules or str, default "bulgarian"
        A :class:`Rules` or preset name.
    contract : str or sequence of str, optional
        As in :func:`belot_sim.simulate` (default: a random contract per deal).
    declarer : int, optional
        Seat 0..3, as in :func:`belot_sim.simulate` (default: a random declarer per deal).
    bidders : str or sequence of str, optional
        As in :func:`belot_sim.simulate`: with ``bidders`` the auction decides, the same in both plays
        since it does not depend on the players; void deals count as an edge of 0 in ``all``.
    seed, start, threads, progress, worlds, bidder_options
        As in :func:`belot_sim.simulate` (``seed`` 0, ``start`` 0, ``threads``: Numba's current
        setting, ``progress``: a bar once the run is long).
    client : distributed.Client, optional
        A Dask client whose workers play partitions of ``partition_size`` deals
        (:mod:`belot_sim.simulation.dask`); the table is the same.
    partition_size : int, default 100_000
        Duplicate deals per task on a client (checked also without one).

    Returns
    -------
    Tournament
        Its ``table``: one row per contract played plus ``"all"`` (index ``contract``), columns
        ``deals``, ``mean_edge`` (raw points per deal in ``a``'s favour), ``ci_low``/``ci_high`` (95%
        normal interval of the mean; NaN for a row of one deal, printed ``n/a``),
        ``a_better``/``b_better``/``equal`` (fractions of deals); the players ``a``, ``b``, ``n`` and
        ``seed``.  ``print(result)`` prints the report.
    """
    first, second = duplicate_plans(a, b, rules=rules, contract=contract, declarer=declarer, bidders=bidders,
                                    seed=seed, worlds=worlds, bidder_options=bidder_options)
    n = check_int(n, "n", 1, MAX_DEALS)
    start = check_int(start, "start", 0, 2**62 - n)
    threads = check_threads(threads)
    progress = check_progress(progress)
    partition_size = check_partition_size(partition_size)  # also without a client
    with Progress(progress, "tournament", n, "duplicate deals") as bar:
        if client is not None:
            from ..engine.distributed import check_client, partitions, run_partitions

            client = check_client(client, "tournament")
            tasks = [(first, second, start + offset, size, threads)
                     for offset, size in partitions(n, partition_size)]
            parts = run_partitions(client, _sums_on_worker, tasks, progress=bar, weights=[t[3] for t in tasks])
        else:
            with numba_threads(threads):
                parts = [duplicate_sums(first, second, start + offset, size)
                         for offset, size in deal_blocks(first, n, bar)]
    totals = sum((p.astype(object) for p in parts), np.zeros_like(parts[0], dtype=object))  # exact: Python ints
    rows = {code: _summary(*totals[c]) for c, code in enumerate(CONTRACT_CODES) if totals[c, 0]}
    rows["all"] = _summary(*totals.sum(axis=0))
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "contract"
    return Tournament(table, a, b, n, seed)


def duplicate_plans(a: str, b: str, *, rules, contract, declarer, bidders, seed, worlds,
                    bidder_options) -> tuple[DealPlan, DealPlan]:
    """The two seatings of a duplicate match, checked: ``a`` in seats 0/2, then in seats 1/3 (the
    deal arguments as :func:`tournament`'s)."""
    common = dict(rules=rules, contract=contract, declarer=declarer, bidders=bidders, seed=seed, plays=False,
                  multiplier=1, worlds=worlds, calls=False, bidder_options=bidder_options)
    return plan_deals(players=(a, b, a, b), **common), plan_deals(players=(b, a, b, a), **common)


def duplicate_edges(first: DealPlan, second: DealPlan, start: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(edge, contract)`` of deals ``start .. start+n-1`` played by both seatings: ``a``'s raw points
    minus ``b``'s, averaged over the two plays, and the contract (text, ``None`` when void)."""
    twice, contract = _twice_edges(first, second, start, n)
    return twice / 2.0, contract.astype(object).to_numpy()


def duplicate_sums(first: DealPlan, second: DealPlan, start: int, n: int) -> np.ndarray:
    """The edges of deals ``start .. start+n-1`` (as :func:`duplicate_edges`) summed by contract: one
    row per contract of :data:`~belot_sim.game.rules.CONTRACT_CODES`, then one of the void deals; columns
    :data:`SUM_COLUMNS`.  Integers (an edge is a whole number of half points), so the sums of any
    blocks add up exactly in any order, and a tournament's memory does not grow with its deals."""
    twice, contract = _twice_edges(first, second, start, n)
    code = contract.cat.codes.to_numpy()
    out = np.zeros((len(CONTRACT_CODES) + 1, len(SUM_COLUMNS)), dtype=np.int64)
    for row in range(len(CONTRACT_CODES) + 1):
        chosen = twice[code == (row if row < len(CONTRACT_CODES) else -1)]
        out[row] = (len(chosen), chosen.sum(), (chosen * chosen).sum(), (chosen > 0).sum(), (chosen < 0).sum())
    return out


#: The columns of :func:`duplicate_sums`: deals, the sums of twice the edge and of its square, the
#: deals ``a`` won and the deals ``b`` won.
SUM_COLUMNS = ("deals", "twice_edge", "twice_edge_squared", "a_better", "b_better")


def _twice_edges(first: DealPlan, second: DealPlan, start: int, n: int):
    """``(twice the edge as int64, the contract column)`` of deals ``start .. start+n-1``."""
    one = run_deals(first, start, n)[0]
    two = run_deals(second, start, n)[0]
    twice = ((one["raw0"].to_numpy(np.int64) - one["raw1"].to_numpy(np.int64))
             + (two["raw1"].to_numpy(np.int64) - two["raw0"].to_numpy(np.int64)))
    return twice, one["contract"]


def _sums_on_worker(first, second, start, n, threads):
    with numba_threads(threads if threads is not None else 1):
        return duplicate_sums(first, second, start, n)


def _summary(deals: int, twice: int, squares: int, a_better: int, b_better: int) -> dict:
    """A row of the table from exact sums (Python ints) of twice each deal's edge."""
    mean, low, high = sums_interval(deals, twice, squares, scale=2)
    return {"deals": deals, "mean_edge": mean, "ci_low": low, "ci_high": high, "a_better": a_better / deals,
            "b_better": b_better / deals, "equal": (deals - a_better - b_better) / deals}


def format_tournament(result) -> str:
    """Deprecated: ``str(result)`` of the :class:`Tournament` :func:`tournament` returns.

    Parameters
    ----------
    result : Tournament or pandas.DataFrame
        A tournament, or a table with the old ``attrs`` (``a``, ``b``, ``n``, ``seed``).

    Returns
    -------
    str
        The tournament's report.
    """
    warn_deprecated("format_tournament(result) is deprecated: print(result) or str(result) gives the same text")
    return str(Tournament.from_former(result))
