"""Duplicate matches between two teams, each a ``(bidder, player)`` pair.

Every match is played twice on the same cards: once with team ``a`` in seats 0/2 and team ``b`` in
seats 1/3, once with the seats swapped.  Deal ``k`` of match ``m`` has the same pack and dealer in
both (its deal id is ``m * 2**20 + k``, :mod:`belot_sim.simulation.matches`), so the luck of the cards cancels;
the auctions differ, since each team bids its own way.  The two plays of a match may last a different
number of deals: a deal is *paired* when both plays reached it, and the edge of a paired deal is team
``a``'s match points minus ``b``'s, averaged over the two plays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.checks import check_bool, check_int
from ..engine.progress import Progress, check_progress
from ..engine.registry import BIDDERS, PLAYERS
from ..engine.results import warn_deprecated
from ..engine.searching import DEFAULT_WORLDS
from ..engine.stats import NA_NOTE, duplicate_lines, format_interval, side_names, sums_interval
from ..game.rules import CONTRACT_CODES, Rules
from ..kernels.batch.match import MAX_MATCH_ID
from .matches import DEFAULT_MAX_DEALS, simulate_matches
from .tournament import DuplicateResult

#: Matches per block of a tournament whose deals are not returned (a few MB of frames per block).
BLOCK_MATCHES = 1 << 14

#: Columns of each play in the per-deal frame (suffix ``_1``: team ``a`` in seats 0/2; ``_2``: swapped).
PLAY_COLUMNS = ("contract", "declarer", "multiplier", "auction", "outcome", "score_a", "score_b")


@dataclass(frozen=True, eq=False)
class MatchTournament(DuplicateResult):
    """Duplicate matches (:func:`match_tournament`): ``table`` as a
    :class:`~belot_sim.simulation.tournament.Tournament`'s, in match points, with the match win rate in
    its ``all`` row (the columns: :func:`match_tournament`); the teams ``a``, ``b``
    (``"bidder:player"``), ``n`` the duplicate matches, ``seed``, ``void_plays`` and
    ``unpaired_deals``, and with ``per_deal=True`` the paired ``deals`` (else ``None``).  ``str()``
    prints the report."""

    void_plays: int = 0
    unpaired_deals: int = 0
    deals: pd.DataFrame | None = field(default=None, repr=False)

    @property
    def win_rate(self) -> tuple[float, float, float]:
        """``(rate, low, high)``: the share of matches ``a`` won with its 95 % interval."""
        row = self.table.loc["all"]
        return float(row.match_win_rate), float(row.win_ci_low), float(row.win_ci_high)

    def lines(self) -> list[str]:
        a, b = side_names(self.a, self.b)
        return duplicate_lines(self.table, self.n, a, b, "matches") + self.notes()

    def notes(self) -> list[str]:
        rate, low, high = self.win_rate
        lines = [f"match win rate of {side_names(self.a, self.b)[0]}: {rate:.1%} {format_interval(low, high, '.1%')}"]
        if self.table["ci_low"].isna().any() or np.isnan(low):
            lines.append(NA_NOTE.format(what="deals (an edge) or two matches (the win rate)"))
        return lines

    def __iter__(self):
        # ``table, deals = match_tournament(..., per_deal=True)`` unpacked a tuple before
        if self.deals is None:
            return super().__iter__()
        warn_deprecated("unpacking match_tournament(..., per_deal=True) is deprecated: it returns a "
                        "MatchTournament; read .table and .deals")
        return iter((self, self.deals))


def check_team(team, name: str) -> tuple[str, str]:
    """A team as ``(bidder, player)``: a pair of names or one text ``"bidder:player"``."""
    if isinstance(team, str):
        parts = team.split(":")
        if len(parts) != 2:
            raise ValueError(f"team {name} must be 'bidder:player' such as 'mc:hard', got {team!r}")
        team = parts
    if not isinstance(team, (tuple, list)) or len(team) != 2:
        raise ValueError(f"team {name} must be a (bidder, player) pair such as ('mc', 'hard'), got {team!r}")
    if not all(isinstance(x, str) for x in team):
        raise TypeError(f"team {name} must be a pair of names (one bidder and one player for both of its seats), "
                        f"got {team!r}")
    bidder, player = (x.strip().lower() for x in team)
    if bidder not in BIDDERS:
        raise ValueError(f"team {name}: unknown bidder {bidder!r}: available bidders are {sorted(BIDDERS)}")
    if player not in PLAYERS:
        raise ValueError(f"team {name}: unknown player {player!r}: available players are {sorted(PLAYERS)}")
    return bidder, player


def match_tournament(a, b, n: int, *, rules: Rules | str = "bulgarian", seed: int = 0, start: int = 0,
                     threads: int | None = None, worlds: int = DEFAULT_WORLDS, bidder_options: dict | None = None,
                     max_deals: int = DEFAULT_MAX_DEALS, progress: bool | None = None, per_deal: bool = False
                     ) -> MatchTournament:
    """Play ``n`` duplicate matches (ids ``start .. start+n-1``) between teams ``a`` and ``b``.

    Every match is played twice on the same cards, the seats swapped.  Without ``per_deal`` the matches
    are played in blocks of :data:`BLOCK_MATCHES` and only integer sums are kept, so memory stays
    bounded for any ``n``; the table is the same either way (exact sums, then one division).

    Parameters
    ----------
    a, b : tuple of (str, str) or str
        The teams: ``(bidder, player)`` pairs such as ``("mc", "hard")`` or texts ``"mc:hard"``
        (:data:`belot_sim.BIDDERS`, :data:`belot_sim.PLAYERS`; any case).
    n : int
        The number of duplicate matches, at least 1.
    rules : Rules or str, default "bulgarian"
        As :func:`belot_sim.simulate_matches`.
    seed, start, threads, worlds
        As :func:`belot_sim.simulate_matches`.
    bidder_options : dict, optional
        As :func:`belot_sim.simulate_matches`; they apply to both teams' bidders.
    max_deals, progress
        As :func:`belot_sim.simulate_matches`.
    per_deal : bool, default False
        Also keep the paired deals, one row each (all ``n`` matches then are played as one block).

    Returns
    -------
    MatchTournament
        Its ``table`` is like :func:`belot_sim.tournament`'s, index ``contract``: one row per contract and
        ``"all"``.  ``all``: ``deals`` (paired deals), ``mean_edge`` (match points per deal in ``a``'s
        favour, each deal's own ``score0``/``score1``: hanging points a later deal collects count in
        the matches' totals, not in any deal's edge) with ``ci_low``/``ci_high`` (95 % normal interval
        over the paired deals), and ``match_win_rate`` (matches won by ``a``, both plays of each match
        counted) with ``win_ci_low``/``win_ci_high`` (95 % normal interval over the match pairs,
        clipped to [0, 1]).  A contract's row: the plays of paired deals that ended in it (each play
        its own auction), ``deals`` = plays, the edge of those plays alone (not duplicate-paired); its
        win columns are NaN.  Its fields: the teams (``a``, ``b`` as ``"bidder:player"``), ``n``,
        ``seed``, ``void_plays``, ``unpaired_deals``; ``print(result)`` prints the report.

        With ``per_deal=True`` its ``deals`` has one row per paired deal —
        ``match_id, deal, deal_id, dealer`` and for each play (``_1`` with ``a`` in seats 0/2, ``_2``
        swapped) ``contract, declarer, multiplier, auction, outcome, score_a, score_b``, then ``edge``.

    Raises
    ------
    ValueError
        On a bad team (not a pair, an unknown bidder or player) or another bad argument.
    TypeError
        If a team's names are not text, or an argument has the wrong type.
    """
    team_a, team_b = check_team(a, "a"), check_team(b, "b")
    n = check_int(n, "n", 1, MAX_MATCH_ID + 1)
    per_deal = check_bool(per_deal, "per_deal")
    start = check_int(start, "start", 0, MAX_MATCH_ID + 1 - n)  # every block's ids valid before the first runs
    common = dict(rules=rules, seed=seed, threads=threads, worlds=worlds, bidder_options=bidder_options,
                  max_deals=max_deals)
    block = n if per_deal else BLOCK_MATCHES
    sums = np.zeros((len(SUM_ROWS), len(SUM_COLUMNS)), dtype=object)
    progress = check_progress(progress)
    # one bar: the blocks' (several blocks) or the two simulate_matches calls' (one block)
    with Progress(progress if n > block else False, "duplicate matches", n, "matches") as bar:
        for first in range(start, start + n, block):
            count = min(block, start + n - first)
            both = _play_twice(team_a, team_b, count, first, progress=progress if n <= block else False,
                                **common)
            deals = paired_deals(both[0][1], both[1][1])
            sums += match_sums(deals, *both).astype(object)  # Python ints: no overflow
            bar.advance(count)
    return MatchTournament(_table(sums), ":".join(team_a), ":".join(team_b), n, seed,
                           void_plays=int(sums[SUM_ROWS.index("void_plays"), 0]),
                           unpaired_deals=int(sums[SUM_ROWS.index("unpaired_deals"), 0]),
                           deals=deals if per_deal else None)  # per_deal: one block, its deals are all


def _play_twice(team_a, team_b, n: int, start: int, **common):
    """The ``n`` matches from id ``start`` with ``a`` in seats 0/2, then with the seats swapped."""
    def seats(x, y):
        return (x, y, x, y)

    first = simulate_matches(n, players=seats(team_a[1], team_b[1]), bidders=seats(team_a[0], team_b[0]),
                             start=start, **common)
    second = simulate_matches(n, players=seats(team_b[1], team_a[1]), bidders=seats(team_b[0], team_a[0]),
                              start=start, **common)
    return first, second


def paired_deals(first: pd.DataFrame, second: pd.DataFrame) -> pd.DataFrame:
    """The deals both plays reached, one row each (columns in :func:`match_tournament`)."""
    def play(frame: pd.DataFrame, a_team: int) -> pd.DataFrame:
        out = frame[["match_id", "deal", "deal_id", "dealer", "contract", "declarer", "multiplier", "auction",
                     "outcome"]].copy()
        out["score_a"] = frame[f"score{a_team}"].to_numpy(np.int32)
        out["score_b"] = frame[f"score{1 - a_team}"].to_numpy(np.int32)
        return out

    left, right = play(first, 0), play(second, 1)
    deals = left.merge(right.drop(columns=["deal_id", "dealer"]), on=["match_id", "deal"], suffixes=("_1", "_2"))
    deals["edge"] = ((deals["score_a_1"] - deals["score_b_1"]) + (deals["score_a_2"] - deals["score_b_2"])) / 2.0
    return deals


#: Rows of :func:`match_sums`: each contract's plays (their edges ``score_a - score_b``), the paired
#: deals (twice their edge), the match pairs (twice ``a``'s wins: 0, 1 or 2), and in column 0 alone
#: the void plays and the unpaired deals.
SUM_ROWS = (*CONTRACT_CODES, "all", "matches", "void_plays", "unpaired_deals")
#: Columns of :func:`match_sums`: how many values, their sum, the sum of their squares (integers).
SUM_COLUMNS = ("count", "total", "squares")


def match_sums(deals: pd.DataFrame, first, second) -> np.ndarray:
    """Integer sums of one block of matches (rows :data:`SUM_ROWS`, columns :data:`SUM_COLUMNS`):
    ``deals`` as :func:`paired_deals` gives them, ``first``/``second`` the two plays' ``(matches,
    deals)`` as :func:`belot_sim.simulate_matches` returns them.  Sums of any blocks add up to those
    of all their matches, exactly."""
    out = np.zeros((len(SUM_ROWS), len(SUM_COLUMNS)), dtype=np.int64)
    contracts = np.concatenate([deals["contract_1"].astype(object).to_numpy(),
                                deals["contract_2"].astype(object).to_numpy()])
    plays = np.concatenate([(deals["score_a_1"] - deals["score_b_1"]).to_numpy(np.int64),
                            (deals["score_a_2"] - deals["score_b_2"]).to_numpy(np.int64)])
    for row, code in enumerate(CONTRACT_CODES):
        out[row] = _moments(plays[contracts == code])
    twice_edge = plays[:len(deals)] + plays[len(deals):]
    out[SUM_ROWS.index("all")] = _moments(twice_edge)
    twice_wins = (first[0]["winner"].to_numpy() == 0).astype(np.int64) + (second[0]["winner"].to_numpy() == 1)
    out[SUM_ROWS.index("matches")] = _moments(twice_wins)
    out[SUM_ROWS.index("void_plays"), 0] = int(pd.isna(contracts).sum())
    out[SUM_ROWS.index("unpaired_deals"), 0] = len(first[1]) + len(second[1]) - 2 * len(deals)
    return out


def _moments(values: np.ndarray) -> tuple[int, int, int]:
    return len(values), int(values.sum()), int((values * values).sum())


def _table(sums: np.ndarray) -> pd.DataFrame:
    """The table of :func:`match_tournament` from the sums of all its blocks (Python ints)."""
    rows = {}
    for row, code in enumerate(CONTRACT_CODES):
        if sums[row, 0]:
            rows[code] = _row(*sums[row], scale=1)
    rows["all"] = _row(*sums[SUM_ROWS.index("all")], scale=2, wins=sums[SUM_ROWS.index("matches")])
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "contract"
    return table


def _row(count: int, total: int, squares: int, *, scale: int, wins=None) -> dict:
    """A row from exact sums of values ``x * scale`` (an edge is a whole number of half points)."""
    mean, low, high = sums_interval(count, total, squares, scale)
    win, win_low, win_high = sums_interval(*wins, scale=2) if wins is not None else (np.nan, np.nan, np.nan)
    win_low, win_high = max(win_low, 0.0), min(win_high, 1.0)  # a share's interval stays in [0, 1]
    return {"deals": count, "mean_edge": mean, "ci_low": low, "ci_high": high, "match_win_rate": win,
            "win_ci_low": win_low, "win_ci_high": win_high}


def format_match_tournament(result) -> str:
    """Deprecated: ``str(result)`` of the :class:`MatchTournament` :func:`match_tournament` returns.

    Parameters
    ----------
    result : MatchTournament or pandas.DataFrame
        A match tournament, or a table with the old ``attrs`` (``a``, ``b``, ``n``, ``seed``).

    Returns
    -------
    str
        The tournament's report.
    """
    warn_deprecated("format_match_tournament(result) is deprecated: print(result) or str(result) gives the "
                    "same text")
    return str(MatchTournament.from_former(result))
