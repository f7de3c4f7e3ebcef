"""The match odds behind the ``neural`` bidder's labels: the winning-chance table against small matches
worked out by hand, and the relabelled calls against the kernels' encoder and the table."""

from __future__ import annotations

import numpy as np
import pytest

from belot_sim.kernels.bid_models import neural_bidder
from belot_sim.kernels.core import layouts as L
from belot_sim.training import match_odds
from belot_sim.training.call_labels import NOT_LEGAL_CALL
from belot_sim.training.data import call_frame
from belot_sim.training.fit import unpack


def test_a_coin_flip_match_to_20():
    """Deals of 10 points to one team or the other, even odds, to 20: worked out by hand."""
    table = match_odds.win_table(np.array([[10, 0], [0, 10]]), target=20)
    assert table[10, 10] == pytest.approx(0.5)
    assert table[10, 0] == pytest.approx(0.75)  # win now, or 10 : 10
    assert table[0, 10] == pytest.approx(0.25)
    assert table[0, 0] == pytest.approx(0.5)
    # void deals (0 : 0) are dealt again: they change no chance
    with_void = match_odds.win_table(np.array([[10, 0], [0, 10], [0, 0], [0, 0]]), target=20)
    assert np.allclose(with_void[::10, ::10], table[::10, ::10])


def test_an_uneven_match_and_a_tie_above_the_target():
    """Team A scores 30 with chance 1/4 and B 10 otherwise, to 30: from 0 : 20, A needs its 30 at once
    (1/4), else B is over; both reaching 30 together cannot happen, but a tie above it counts even."""
    table = match_odds.win_table(np.array([[30, 0], [0, 10], [0, 10], [0, 10]]), target=30)
    assert table[0, 20] == pytest.approx(0.25)
    assert table[0, 10] == pytest.approx(0.25 + 0.75 * 0.25)
    tie = match_odds.win_table(np.array([[20, 20]]), target=30)
    assert tie[10, 10] == pytest.approx(0.5) and tie[15, 10] == pytest.approx(1.0)


def test_the_table_of_real_deals_is_fair_and_rises_with_the_score():
    points = np.array([[16, 0], [0, 16], [8, 10], [26, 0], [0, 0], [4, 22], [44, 0]])
    table = match_odds.win_table(np.concatenate([points, points[:, ::-1]]))
    assert table.shape == (151, 151)
    assert np.allclose(table + table.T, 1.0)
    assert (np.diff(table, axis=0) >= -1e-12).all() and (np.diff(table, axis=1) <= 1e-12).all()


def test_relabelled_calls_are_the_encoders_inputs_and_the_tables_chances():
    data = call_frame(7, 0, 40, players="hard", threads=1)
    table = match_odds.win_table(np.array([[16, 0], [0, 16], [0, 0], [10, 6], [6, 10]]))
    scores = np.array([[0, 0], [140, 100], [100, 140], [149, 149], [55, 20]])
    out = match_odds.relabel(data, table, scores, seed=1)
    assert {tuple(s) for s in out["score"]} > {(0, 0), (140, 100), (100, 140), (149, 149)}
    before, after = unpack(data["bits"], neural_bidder.INPUTS), unpack(out["bits"], neural_bidder.INPUTS)
    assert np.array_equal(before[:, :L.B_SCORE], after[:, :L.B_SCORE]) and not before[:, L.B_SCORE:].any()
    obs = np.zeros(L.B_SIZE, dtype=np.int8)
    rows = np.random.default_rng(2).choice(len(out["bits"]), 60, replace=False)
    for i in rows:
        ours, theirs = out["score"][i]
        neural_bidder.encode_score(obs, ours, theirs)
        assert np.array_equal(after[i, L.B_SCORE:], obs[L.B_SCORE:])
        for code in range(9):
            own, value = int(data["own"][i, code]), int(data["values"][i, code])
            if value == NOT_LEGAL_CALL:
                assert out["values"][i, code] == NOT_LEGAL_CALL
                continue
            a, b = ours + own, theirs + own - value
            chance = table[a, b] if max(a, b) < 151 else (0.5 if a == b else float(a > b))
            assert out["values"][i, code] == pytest.approx(100 * chance, abs=1e-4)
