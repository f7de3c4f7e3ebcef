"""The scripts outside the gallery (tests/test_gallery.py runs those): each runs end to end with a
tiny size, in this process, and writes or prints what its docstring says."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pandas as pd

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
#: Run here; bid_atlas.py and calibration.py have their own tests (test_atlas, test_calibration).
RUN_HERE = ("tournament", "bid_ladder", "bid_table", "tune_heuristic", "pimc_regret")
TESTED_ELSEWHERE = ("bid_atlas", "calibration", "gallery_common")


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"script_{name}", SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(SCRIPTS))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPTS))
    return module


def test_every_script_is_tested():
    gallery = {p.stem for p in SCRIPTS.glob("*.py") if "import gallery_common" in p.read_text()}
    assert {p.stem for p in SCRIPTS.glob("*.py")} - gallery == set(RUN_HERE) | set(TESTED_ELSEWHERE)


def test_tournament_writes_every_step(tmp_path, capsys):
    out = tmp_path / "ladder.csv"
    code = load("tournament").main(["--n", "400", "--csv", str(out)])
    table = pd.read_csv(out)
    assert code in (0, 1) and len(table) == 3 * 7
    assert set(table["contract"]) == {"C", "D", "H", "S", "NT", "AT", "all"}
    assert (table["deals"][table["contract"] == "all"] == 400).all()
    assert "hard" in capsys.readouterr().out


def test_bid_ladder_writes_every_step(tmp_path):
    out = tmp_path / "bids.csv"
    code = load("bid_ladder").main(["--matches", "4", "--csv", str(out)])
    table = pd.read_csv(out)
    assert code in (0, 1) and {"mean_edge", "match_win_rate", "a", "b"} <= set(table.columns)
    assert "heuristic:hard" in set(table["a"]) and (table["deals"] > 0).all()


def test_bid_table_writes_one_row_per_contract(tmp_path):
    out = tmp_path / "table.csv"
    assert load("bid_table").main(["--hand", "JH 9H AH KS 7C", "--samples", "40", "--players", "hard",
                                   "--out", str(out)]) == 0
    table = pd.read_csv(out)
    assert len(table) == 6 and table["p_made"].between(0, 1).all()


def test_tune_heuristic_prints_fitted_weights(capsys):
    assert load("tune_heuristic").main(["--deals", "300"]) == 0
    assert "fitted BIDDER_WEIGHTS defaults" in capsys.readouterr().out


def test_pimc_regret_reports_each_player(capsys):
    assert load("pimc_regret").main(["--deals", "3", "--players", "pimc,hard", "--judge-worlds", "4"]) == 0
    out = capsys.readouterr().out
    assert "decisions with a choice" in out
    assert all(line.split()[0] in ("pimc", "hard") for line in out.splitlines()[2:4])
