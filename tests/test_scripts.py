"""The scripts outside the gallery (tests/test_gallery.py runs those): each runs end to end with a
tiny size, as a user runs it (a process of its own: tune_heuristic's Numba cache is keyed on the
module it runs as), and writes or prints what its docstring says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import belot_sim as bs

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
#: Run here; bid_atlas.py, calibration.py and train_neural.py have their own tests (test_atlas, test_calibration,
#: test_neural).
RUN_HERE = ("tournament", "bid_ladder", "bid_table", "tune_heuristic", "pimc_regret")
TESTED_ELSEWHERE = ("bid_atlas", "calibration", "gallery_common", "train_bidder", "train_neural", "train_owners",
                    "training_runs")


def run(name: str, *args: str) -> tuple[int, str]:
    """``python scripts/<name>.py args``: its exit code and what it printed."""
    done = subprocess.run([sys.executable, str(SCRIPTS / f"{name}.py"), *args], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    return done.returncode, done.stdout


def test_every_script_is_tested():
    gallery = {p.stem for p in SCRIPTS.glob("*.py") if "import gallery_common" in p.read_text()}
    assert {p.stem for p in SCRIPTS.glob("*.py")} - gallery == set(RUN_HERE) | set(TESTED_ELSEWHERE)


def test_tournament_writes_every_step(tmp_path):
    out = tmp_path / "ladder.csv"
    _code, printed = run("tournament", "--n", "400", "--csv", str(out))
    table = pd.read_csv(out)
    assert len(table) == 3 * 7 and set(table["contract"]) == {"C", "D", "H", "S", "NT", "AT", "all"}
    assert (table["deals"][table["contract"] == "all"] == 400).all()
    assert "hard" in printed


def test_bid_ladder_writes_every_step(tmp_path):
    out = tmp_path / "bids.csv"
    run("bid_ladder", "--matches", "4", "--csv", str(out))
    table = pd.read_csv(out)
    assert {"mean_edge", "match_win_rate", "a", "b", "player"} <= set(table.columns)
    assert {"heuristic:hard", "neural:hard", "neural:neural"} <= set(table["a"]) and (table["deals"] > 0).all()
    steps = table[table["contract"] == "all"]
    assert len(steps) == 10 and set(steps["b"]) == {"random:hard", "heuristic:hard", "mc:hard", "atlas:hard",
                                                    "random:neural", "heuristic:neural", "mc:neural", "atlas:neural"}


def test_bid_table_writes_one_row_per_contract(tmp_path):
    out = tmp_path / "table.csv"
    hands = ["JH 9H AH KS 7C", "7S 8S 9S TS JS", "JH 9H AH KS 7C"]  # a hand twice: rows are per position
    code, printed = run("bid_table", *[a for h in hands for a in ("--hand", h)], "--samples", "40", "--players",
                        "hard", "--out", str(out))
    table = pd.read_csv(out)
    assert code == 0 and len(table) == 3 * 6 and table["p_made"].between(0, 1).all()
    lines = printed.splitlines()
    for k, hand in enumerate(hands):
        rows = table.iloc[6 * k:6 * (k + 1)]
        chosen = rows.loc[rows["recommended"], "contract"]
        call = chosen.iloc[0] if len(chosen) else "pass"
        assert (rows["hand"] == bs.format_cards(bs.parse_cards(hand))).all()
        assert lines[k] == f"[{k + 1}/3] {rows['hand'].iloc[0]}: recommended {call}"
    assert table.iloc[:6].drop(columns="hand").equals(table.iloc[12:].drop(columns="hand").reset_index(drop=True))


def test_bid_table_checks_every_hand_and_its_players_before_the_first(tmp_path):
    first, bad = ["--hand", "JH 9H AH KS 7C"], ["--hand", "7S 8S XX"]
    for args, says in [([*first, *bad], "hands[1] ('7S 8S XX'): unknown card 'XX'"),
                       ([*first, "--players", "wizard"], "usage: bid_table.py")]:
        done = subprocess.run([sys.executable, str(SCRIPTS / "bid_table.py"), *args, "--samples", "20", "--out",
                               str(tmp_path / "t.csv")], capture_output=True, text=True, timeout=600)
        assert done.returncode == 2 and says in done.stderr and done.stdout == "", done.stderr
    assert list(tmp_path.iterdir()) == []


def test_tune_heuristic_prints_fitted_weights():
    code, printed = run("tune_heuristic", "--deals", "300")
    assert code == 0 and "fitted BIDDER_WEIGHTS defaults" in printed


def test_pimc_regret_reports_each_player():
    code, printed = run("pimc_regret", "--deals", "3", "--players", "pimc,hard", "--judge-worlds", "4")
    lines = printed.splitlines()
    assert code == 0 and "decisions with a choice" in lines[0]
    assert [line.split()[0] for line in lines[2:4]] == ["pimc", "hard"]


@pytest.mark.parametrize("name, args, says", [
    ("tournament", ["--n", "0"], "--n: must be a positive integer, got 0"),
    ("bid_ladder", ["--players", "nope"], "--players: invalid choice: 'nope'"),
    ("calibration", ["--png", "{tmp}/missing/r.png"], "missing does not exist"),
    ("bid_table", ["{tmp}/hands.txt", "--out", "{tmp}/t.csv"], "cannot read the hands file"),
    ("pimc_regret", ["--players", "pimc:abc"], "the layouts after ':' must be an integer in 1..100,000"),
    ("pimc_regret", ["--players", "pimc:200000"], "the layouts after ':' must be an integer in 1..100,000"),
    ("pimc_regret", ["--judge-worlds", "200000"], "--judge-worlds: must be at most 100,000, got 200,000"),
    ("tournament", ["--n", "99999999999999"], "--n: must be at most 1,099,511,627,776"),
    ("calibration", ["--dd-samples", "2000000"], "--dd-samples: must be at most 1,000,000"),
    ("bid_atlas", ["--out", "{tmp}/atlas", "--table", "{tmp}/no/atlas.npz"], "--table: cannot write"),
    ("tune_heuristic", ["--deals", "0"], "--deals: must be a positive integer"),
    ("bid_atlas", ["--out", "{tmp}/atlas", "--threads", "0"], "--threads: must be a positive integer"),
])
def test_bad_arguments_are_refused_before_any_work(tmp_path, name, args, says):
    args = [a.format(tmp=tmp_path) for a in args]
    done = subprocess.run([sys.executable, str(SCRIPTS / f"{name}.py"), *args], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written, not even the atlas job's manifest


def test_every_benchmark_module_is_collected_as_pytest_imports_it():
    """``pytest benchmarks/ --benchmark-only`` (the usage line of benchmarks/test_bench_simulate.py)
    imports every module of ``benchmarks/`` in importlib mode, which does not put the folder on
    ``sys.path``: benchmarks/conftest.py adds it, so the modules find their neighbours (report.py,
    baseline.py)."""
    bench = SCRIPTS.parent / "benchmarks"
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           str(bench)], capture_output=True, text=True, timeout=600, cwd=SCRIPTS.parent)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "test_bench_simulate.py::test_simulate" in done.stdout


@pytest.mark.parametrize("name, args, says", [
    ("solver", ["-n", "0", "--no-colver"], "argument -n: must be a positive integer, got 0"),
    ("throughput", ["--n", "-5"], "argument --n: must be a positive integer, got -5"),
    ("throughput", ["--n", "1000", "--repeat", "0"], "argument --repeat: must be a positive integer, got 0"),
    ("players", ["--tournaments", "-1"], "argument --tournaments: must be an integer >= 0, got -1"),
    ("bots", ["--pimc", "many"], "argument --pimc: must be a positive integer, got 'many'"),
    ("atlas", ["--checks", "0"], "argument --checks: must be a positive integer, got 0"),
    ("atlas", ["--table", "no-such-atlas.npz"], "argument --table: no such file"),
])
def test_benchmark_counts_are_checked_before_any_warm_up(name, args, says):
    done = subprocess.run([sys.executable, str(SCRIPTS.parent / "benchmarks" / f"{name}.py"), *args],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr
