"""One convention for results (belot_sim/engine/results.py): a measured result is a small object with a
``table`` and fields, ``str()`` its report; the old ways (bare tables with ``attrs``, the ``format_*``
functions, ``solve_position``/``solve_state``, unpacking ``per_deal``) still work for one release and say so
with a DeprecationWarning."""

from __future__ import annotations

import pickle
import warnings

import pandas as pd
import pytest

import belot_sim as bs
from belot_sim import reference as ref


@pytest.fixture(scope="module")
def duel():
    return bs.tournament("hard", "normal", 300, seed=4)


def test_a_tournament_is_a_table_with_fields_and_a_report(duel):
    assert isinstance(duel, bs.Tournament) and isinstance(duel.table, pd.DataFrame)
    assert (duel.a, duel.b, duel.n, duel.seed) == ("hard", "normal", 300, 4)
    assert duel.edge == duel.table.loc["all", "mean_edge"]
    text = str(duel)
    assert text.startswith("hard vs normal: 300 duplicate deals") and "hard better" in text
    assert repr(duel) == "Tournament(a='hard', b='normal', n=300, seed=4)"  # the table is not in the repr
    html = duel._repr_html_()
    assert "hard vs normal: 300 duplicate deals" in html and duel.table._repr_html_() in html
    copy = pickle.loads(pickle.dumps(duel))
    assert copy.table.equals(duel.table) and copy.metadata() == duel.metadata()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none of the above warns
        str(duel), bool(duel), duel.table.loc["all"]


def test_the_old_table_behaviour_works_with_a_deprecation_warning(duel):
    with pytest.deprecated_call(match=r"\(\[\.\.\.\]\) is deprecated: read its \.table"):
        assert duel["mean_edge"].equals(duel.table["mean_edge"])
    with pytest.deprecated_call(match=r"\.loc"):
        assert duel.loc["all", "deals"] == 300
    with pytest.deprecated_call(match=r"\.mean_edge"):  # a column as an attribute, as on the frame
        assert duel.mean_edge.equals(duel.table["mean_edge"])
    with pytest.deprecated_call(match="len"):
        assert len(duel) == len(duel.table)
    with pytest.deprecated_call(match="metadata are its fields"):
        assert duel.attrs == {"a": "hard", "b": "normal", "n": 300, "seed": 4}
    with pytest.deprecated_call(match="format_tournament"):
        assert bs.format_tournament(duel) == str(duel)
    old = duel.table.copy()
    old.attrs.update(duel.metadata())  # a table saved from an earlier release
    with pytest.deprecated_call():
        assert bs.format_tournament(old) == str(duel)
    with pytest.raises(AttributeError, match="'Tournament' object has no attribute 'no_such_thing'"):
        duel.no_such_thing  # noqa: B018 (the lookup is the test)


def test_a_match_tournament_keeps_its_deals_by_name_and_unpacks_as_before():
    result = bs.match_tournament(("heuristic", "hard"), ("random", "hard"), 4, seed=2, per_deal=True)
    assert isinstance(result, bs.MatchTournament) and len(result.deals) == result.table.loc["all", "deals"]
    assert str(result).splitlines()[-1].startswith("match win rate of heuristic:hard: ")
    assert result.edge == result.table.loc["all", "mean_edge"] and result.win_rate[0] == result.table.loc[
        "all", "match_win_rate"]
    with pytest.deprecated_call(match="per_deal=True"):
        table, deals = result
    assert deals is result.deals
    with pytest.deprecated_call():
        assert table.loc["all", "deals"] == len(deals)  # the unpacked table still reads as the frame did
    with pytest.deprecated_call(match="format_match_tournament"):
        assert bs.format_match_tournament(result) == str(result)


def test_a_bid_table_reports_what_the_command_prints(capsys):
    from belot_sim.cli import main

    result = bs.bid_table("JH 9H AH KS 7C", seat=1, auction="P", players="hard", samples=60, seed=3)
    assert isinstance(result, bs.BidTable) and result.recommended in {*result.table.index, "pass"}
    assert result.auction == "P" and result.samples == 60 and result.tried >= 60
    assert main(["bid", "JH 9H AH KS 7C", "--seat", "1", "--auction", "P", "--players", "hard", "--samples", "60",
                 "--seed", "3", "--no-progress"]) == 0
    assert str(result) in capsys.readouterr().out
    assert str(result).splitlines()[-1].startswith("after 'P': 60 of ")
    with pytest.deprecated_call(match="format_bid_table"):
        assert bs.format_bid_table(result) == str(result)


def test_an_analysis_prints_the_report_of_the_command(capsys):
    from belot_sim.cli import main

    text = ("belot deal; rules bulgarian; dealer 2; contract H; declarer 0; multiplier 2; hands T.AQT9.T7.J "
            "AK98...AQT8 .K.AKQJ9.K9 QJ7.J87.8.7; play 7S TS AS KH | AD 8D 7D 8C | 9D")
    result = bs.analyze(text, worlds=20, players=("hard",))
    assert isinstance(result, bs.Analysis) and (result.seat, result.trick, result.contract) == (3, 3, "H doubled")
    assert result.choices["hard"] in set(result.table["card"])
    assert main(["analyze", text, "--worlds", "20", "--players", "hard"]) == 0
    assert capsys.readouterr().out == str(result) + "\n"


def test_a_simulation_names_its_frames_and_unpacks_as_the_tuple_it_was():
    both = bs.simulate(20, bidders="heuristic", plays=True, calls=True, seed=5)
    assert isinstance(both, bs.Simulation) and isinstance(both, tuple) and len(both) == 3
    deals, plays, calls = both
    assert deals is both.deals and plays is both.plays and calls is both.calls
    plays_only = bs.simulate(20, plays=True, seed=5)
    assert len(plays_only) == 2 and plays_only[1] is plays_only.plays
    with pytest.raises(AttributeError, match=r"no calls frame: simulate\(\.\.\., calls=True\)"):
        plays_only.calls  # noqa: B018 (the lookup is the test)
    copy = pickle.loads(pickle.dumps(both))
    assert copy.plays.equals(both.plays) and copy.calls.equals(both.calls) and len(copy) == 3
    assert repr(plays_only) == "Simulation(deals: 20 rows, plays: 640 rows)"
    assert isinstance(bs.simulate(5, seed=5), pd.DataFrame)  # nothing asked: the deals frame itself


def test_solve_takes_positions_and_states_and_the_old_names_warn():
    state = ref.DealState.from_hands(["JH 9H AH TC 7D 8D 9D TD", "7H 8H AC KC JD QD KD AD", "QH KH 9C QC 7S 8S 9S TS",
                                      "TH 7C 8C JC JS QS KS AS"], contract="H", declarer=0, dealer=3)
    state.play("JH")
    hands, on_table = state.hands, [c for _, c in state.trick]
    value = bs.solve(hands, "H", 0, 1, trick=on_table)  # valat counts within the first trick
    assert bs.solve(state) == value  # seat 1 to move: team 1 by default
    assert bs.solve_moves(state, team=1) == bs.solve_moves(hands, "H", 0, 1, trick=on_table)
    with pytest.deprecated_call(match=r"use solve_moves\(state, team\)"):
        assert bs.solve_state(state, moves=True) == bs.solve_moves(state)
    with pytest.deprecated_call(match="solve_position is deprecated"):
        assert bs.solve_position(hands, "H", 0, on_table, 1) == value
    with pytest.raises(TypeError, match="a DealState carries its own leader"):
        bs.solve(state, leader=0)
