"""``bs.match_tournament``: duplicate matches between teams (bidder, player), and ``belot-sim
tournament A B`` with teams as ``BIDDER:PLAYER``.

* the pairing: deal k of match m has the same cards and dealer in both plays (teams' seats swapped);
* the edge and the win rate are the documented means over the paired deals and the match pairs;
* the same teams on both sides are even (every paired deal's edge is 0);
* bad teams -> clear errors before any match is played.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import belot_sim as bs
from belot_sim.simulation import matches as matches_module
from belot_sim.cli import main as cli_main
from belot_sim.engine.frames import AUCTION_HAND_COLUMNS

# bs.match_tournament is the function: the module by its name
match_tournament_module = importlib.import_module("belot_sim.simulation.match_tournament")


def test_each_match_is_played_twice_on_the_same_cards_with_the_seats_swapped():
    kwargs = dict(seed=4, max_deals=200)
    result = bs.match_tournament(("heuristic", "hard"), ("random", "easy"), 12, per_deal=True, **kwargs)
    table, deals = result.table, result.deals
    first = bs.simulate_matches(12, bidders=("heuristic", "random") * 2, players=("hard", "easy") * 2, **kwargs)[1]
    second = bs.simulate_matches(12, bidders=("random", "heuristic") * 2, players=("easy", "hard") * 2, **kwargs)[1]
    both = first.merge(second, on=["match_id", "deal"], suffixes=("_1", "_2"))
    assert len(both) == len(deals) == table.loc["all", "deals"] > 50
    for column in (*AUCTION_HAND_COLUMNS, "deal_id", "dealer"):
        assert (both[f"{column}_1"] == both[f"{column}_2"]).all(), column  # the same cards both ways
    assert (both["auction_1"] != both["auction_2"]).any()  # each team bids its own way
    edge = ((both["score0_1"] - both["score1_1"]) + (both["score1_2"] - both["score0_2"])) / 2
    assert np.allclose(deals["edge"].to_numpy(), edge.to_numpy())
    assert table.loc["all", "mean_edge"] == pytest.approx(edge.mean())
    assert table.loc["all", "ci_low"] < table.loc["all", "mean_edge"] < table.loc["all", "ci_high"]
    assert table.loc["all", "mean_edge"] > 0  # a point count beats random bids
    assert set(table.index) <= {"C", "D", "H", "S", "NT", "AT", "all"} and table.index[-1] == "all"
    plays = sum(int(table.loc[c, "deals"]) for c in table.index if c != "all")
    assert plays + result.void_plays == 2 * len(deals)
    assert table.loc["C":"AT", "match_win_rate"].isna().all() if "C" in table.index else True


def test_the_win_rate_counts_both_plays_of_every_match():
    result = bs.match_tournament("heuristic:hard", "random:hard", 30, seed=9)
    first = bs.simulate_matches(30, bidders=("heuristic", "random") * 2, players="hard", seed=9)[0]
    second = bs.simulate_matches(30, bidders=("random", "heuristic") * 2, players="hard", seed=9)[0]
    wins = ((first["winner"] == 0).to_numpy(float) + (second["winner"] == 1).to_numpy(float)) / 2
    rate, low, high = result.win_rate
    assert rate == result.table.loc["all", "match_win_rate"] == pytest.approx(wins.mean())
    assert low <= rate <= high
    assert result.a == "heuristic:hard" and result.n == 30 and result.deals is None


def test_blocks_of_matches_give_the_table_of_one_block_exactly(monkeypatch):
    """Without ``per_deal`` only integer sums of each block are kept: any block size, and the
    per-deal run, give the same table to the last bit (and the same deals as one run)."""
    teams = (("heuristic", "hard"), ("random", "easy"))
    whole = bs.match_tournament(*teams, 11, seed=3, start=5, per_deal=True)
    deals = whole.deals
    for block in (1, 4, 11):
        monkeypatch.setattr(match_tournament_module, "BLOCK_MATCHES", block)
        result = bs.match_tournament(*teams, 11, seed=3, start=5)
        assert result.table.equals(whole.table), block
        assert {**result.metadata(), "deals": None} == {**whole.metadata(), "deals": None}, block
    table = result.table
    assert table.loc["all", "mean_edge"] == pytest.approx(deals["edge"].mean(), rel=1e-12)
    assert table.loc["all", "deals"] == len(deals) and set(deals["match_id"]) == set(range(5, 16))


def test_the_sums_of_two_blocks_add_up_to_those_of_both():
    teams = (("heuristic", "hard"), ("random", "hard"))

    def sums(n, start):
        first, second = match_tournament_module._play_twice(teams[0], teams[1], n, start, seed=8,
                                                            rules="bulgarian", threads=1, worlds=20,
                                                            bidder_options=None, max_deals=200)
        return match_tournament_module.match_sums(
            match_tournament_module.paired_deals(first[1], second[1]), first, second)

    both = sums(9, 0)
    assert (sums(4, 0) + sums(5, 4) == both).all()
    rows = match_tournament_module.SUM_ROWS
    assert both[rows.index("matches"), 0] == 9 and both[rows.index("all"), 0] > 9


def test_the_win_rate_interval_stays_within_zero_and_one():
    row = bs.match_tournament(("heuristic", "hard"), ("random", "hard"), 5, seed=2).table.loc["all"]
    assert 0.0 <= row.win_ci_low <= row.match_win_rate <= row.win_ci_high <= 1.0


@pytest.mark.parametrize("n", [0, -1, 2.5, True])
def test_a_tournament_needs_one_deal_or_match_at_least(n):
    with pytest.raises((ValueError, TypeError), match="n must be"):
        bs.match_tournament(("heuristic", "hard"), ("random", "hard"), n)
    with pytest.raises((ValueError, TypeError), match="n must be"):
        bs.tournament("hard", "normal", n)


def test_a_team_against_itself_is_even():
    result = bs.match_tournament(("heuristic", "normal"), ("heuristic", "normal"), 6, seed=2, per_deal=True)
    assert (result.deals["edge"] == 0).all() and result.table.loc["all", "mean_edge"] == 0
    assert result.win_rate[0] == pytest.approx(0.5)


@pytest.mark.parametrize("a, b, pattern", [
    ("mc", "heuristic:hard", "bidder:player"),
    (("mc", "hard", "x"), ("heuristic", "hard"), "pair"),
    (("genius", "hard"), ("heuristic", "hard"), "unknown bidder 'genius'"),
    (("mc", "hard"), ("heuristic", "wizard"), "unknown player 'wizard'"),
])
def test_bad_teams_are_refused_before_any_match(a, b, pattern, rejected_before_kernel):
    rejected_before_kernel(matches_module, "play_matches", lambda n, **kw: bs.match_tournament(a, b, n, **kw), {},
                           pattern)


def test_cli_tournament_takes_teams_and_players_the_same_way(capsys):
    assert cli_main(["tournament", "heuristic:Hard", "random:hard", "-n", "4"]) == 0
    out = capsys.readouterr().out
    assert "heuristic:hard vs random:hard" in out and "match win rate" in out
    assert cli_main(["tournament", "hard", "normal", "-n", "50"]) == 0
    assert "hard vs normal" in capsys.readouterr().out
    assert cli_main(["tournament", "hard", "heuristic:hard"]) == 2
    assert "not one of each" in capsys.readouterr().err
    assert cli_main(["tournament", "mc:hard", "heuristic:hard:x"]) == 2
    assert "team B must be 'bidder:player'" in capsys.readouterr().err
    assert cli_main(["tournament", "mc:hard"]) == 2
    assert "give two players" in capsys.readouterr().err
    assert cli_main(["tournament", "--a", "mc:hard", "--b", "heuristic:hard"]) == 2  # the flags of earlier versions
    assert "teams are given as A B like players now" in capsys.readouterr().err


def test_a_printed_table_of_one_match_says_n_a_and_tells_equal_teams_apart():
    text = str(bs.match_tournament(("heuristic", "normal"), ("heuristic", "normal"), 1, seed=2))
    assert "nan" not in text.lower() and "n/a: an interval needs at least two" in text
    assert "heuristic:normal (A) vs heuristic:normal (B)" in text
    assert "match win rate of heuristic:normal (A): 50.0% n/a" in text
