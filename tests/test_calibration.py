"""``bs.calibration``: the reliability table, the Brier score and the diagram.

* the reliability table of given predictions: bins, counts, observed frequencies, Wilson intervals;
* a small run: one estimate per played deal, from the declarer's auction cards and whole auction;
  the auction-aware estimate scores a lower Brier score than the uniform one on the same deals;
* the diagram is a PNG (matplotlib, the ``plot`` extra, installed in CI with the test extras);
* bad arguments -> clear errors before any deal is played.
"""

from __future__ import annotations

import importlib

import numpy as np
import pandas as pd
import pytest

import belot_sim as bs
from belot_sim.estimates.calibration import Calibration, reliability, reliability_diagram


def test_the_reliability_table_of_given_predictions():
    p = np.array([0.05, 0.07, 0.55, 0.58, 0.52, 1.0, 0.95])
    made = np.array([0, 0, 1, 0, 1, 1, 1], dtype=float)
    table = reliability(p, made, bins=10)
    assert list(table.index) == ["[0.0, 0.1)", "[0.5, 0.6)", "[0.9, 1.0]"]
    assert table["deals"].tolist() == [2, 3, 2]
    assert table.loc["[0.5, 0.6)", "observed"] == pytest.approx(2 / 3)
    assert table.loc["[0.5, 0.6)", "predicted"] == pytest.approx((0.55 + 0.58 + 0.52) / 3)
    low, high = bs.wilson_interval(2, 3)
    assert (table.loc["[0.5, 0.6)", "observed_low"], table.loc["[0.5, 0.6)", "observed_high"]) == (low, high)
    assert table["within"].all()
    assert not reliability(np.array([0.9, 0.9, 0.9, 0.9, 0.9, 0.9]), np.zeros(6), 10)["within"].any()


@pytest.fixture(scope="module")
def runs():
    common = dict(bidders="heuristic", players="hard", samples=100, seed=3)
    return {method: bs.calibration(300, method=method, **common) for method in ("auction", "uniform")}


def test_a_calibration_run_estimates_every_played_deal(runs):
    aware = runs["auction"]
    deals = bs.simulate(300, bidders="heuristic", players="hard", seed=3)
    played = deals[deals["bidding_team"] >= 0]
    assert aware.deals["deal_id"].tolist() == played["deal_id"].tolist()
    assert aware.deals["made"].tolist() == (played["outcome"] == "made").tolist()
    assert (aware.deals["accepted"] == 100).all() and (aware.deals["tried"] >= 100).all()
    assert (runs["uniform"].deals["tried"] == 100).all()
    assert aware.table["deals"].sum() == len(played)
    brier = np.mean((aware.deals["p_made"] - aware.deals["made"]) ** 2)
    assert aware.brier == pytest.approx(brier)
    assert "Brier" in str(aware) and aware.settings["estimate_players"] == "hard"
    # the auction says something about the other hands: the estimates differ, and only the
    # auction-aware ones screen layouts (which Brier score is lower is measured on thousands of
    # deals by scripts/calibration.py, docs/bidding.md)
    uniform = runs["uniform"].deals
    assert (aware.deals["tried"] > 100).mean() > 0.5
    assert (aware.deals["p_made"] - uniform["p_made"]).abs().mean() > 0.01


def test_the_diagram_takes_bins_never_or_always_made(tmp_path):
    p = np.array([0.15, 0.17, 0.95, 0.97, 0.55])
    table = reliability(p, np.array([0, 0, 1, 1, 1], dtype=float), bins=10)
    run = Calibration(table, 0.1, pd.DataFrame(), "auction", {"estimate_players": "hard"})
    assert run.plot(tmp_path / "edges.png").read_bytes()[:4] == b"\x89PNG"


def test_the_reliability_diagram_is_a_png(runs, tmp_path):
    path = reliability_diagram(list(runs.values()), tmp_path / "reliability.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert runs["auction"].plot(tmp_path / "one.png").stat().st_size > 1000
    assert not list(tmp_path.glob("*.tmp*"))


@pytest.mark.parametrize("kwargs, pattern", [
    (dict(method="guess"), "method"),
    (dict(bidders="mc"), "mc cannot be the bidder model"),
    (dict(model="genius"), "genius"),
    (dict(bins=0), "bins"),
    (dict(estimate_players="genius"), "genius"),
    (dict(method="atlas", rules="classic"), "bulgarian preset only"),
    (dict(method="atlas", estimate_players="dd"), "computed with hard play"),
    (dict(method="atlas"), "needs deals played by hard"),  # the deals' default player is neural
    (dict(samples=10, min_samples=11), "min_samples"),
])
def test_bad_arguments_are_refused_before_any_deal(kwargs, pattern, rejected_before_kernel):
    module = importlib.import_module("belot_sim.estimates.calibration")  # bs.calibration is the function
    rejected_before_kernel(module, "simulate", bs.calibration, kwargs, pattern)


def test_classic_runs_read_the_turned_card_as_a_card_and_few_samples_need_no_min_samples():
    run = bs.calibration(40, samples=8, players="hard", rules="classic", seed=5)
    assert len(run.deals) > 0 and run.settings["samples"] == 8
    assert run.deals["accepted"].min() >= 8 or run.settings["skipped"] > 0


def test_an_atlas_run_reports_the_tables_play_and_layouts():
    run = bs.calibration(60, method="atlas", players="hard", estimate_players="HARD", seed=2)
    assert (run.settings["estimate_players"], run.settings["samples"]) == ("hard", 1000)
    assert "atlas estimate (hard play, 1000 layouts)" in str(run)
