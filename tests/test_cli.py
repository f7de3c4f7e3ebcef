"""The command line: ``simulate`` saves its rows (datasets, CSV, Parquet), takes rule options, a
declarer and names in any case; usage errors exit with 2 and failed runs with 1; ``--version``;
``warmup``; help texts that say what they mean."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import belot_sim as bs
import belot_sim.engine.checks as checks
import belot_sim.simulation.deals as simulation
from belot_sim.cli import SUBCOMMANDS, build_parser, main
from belot_sim.cli.common import FAILED, INTERRUPTED, USAGE
from helpers import assert_same_frames


def run(argv, capsys) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exit_:  # argparse: --help, --version, bad arguments
        code = exit_.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_version(capsys):
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out.strip() == f"belot-sim {bs.__version__}"


@pytest.mark.parametrize("text, value", [("1000", 1000), ("1_000", 1000), ("1,000,000", 1_000_000),
                                         ("1,5", None), ("1,,0", None), (",5", None), ("1_000,000", None),
                                         ("0", None), ("-3", None), ("ten", None)])
def test_counts_may_group_their_digits_by_thousands(text, value):
    import argparse

    from belot_sim.cli.common import positive_int

    if value is None:
        with pytest.raises(argparse.ArgumentTypeError, match="must be a positive integer"):
            positive_int(text)
    else:
        assert positive_int(text) == value


def test_help_texts_have_no_doubled_percent_signs():
    parser = build_parser()
    texts = [parser.format_help()]
    sub = next(a for a in parser._actions if a.dest == "command")
    texts += [sub.choices[name].format_help() for name in sub.choices]
    assert len(texts) == len(SUBCOMMANDS) + 1
    assert not [t for t in texts if "%%" in t]
    assert "(%)" in sub.choices["simulate"].format_help().replace("\n", " ")


def test_player_help_lists_every_player():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for command, option in (("simulate", "--players"), ("tournament", "a"), ("bid", "--players")):
        action = next(a for a in sub.choices[command]._actions if option in (a.dest, *a.option_strings))
        words = set(re.findall(r"[a-z]+(?:-[a-z]+)*", action.help))
        assert [name for name in bs.PLAYERS if name not in words] == [], command


def test_a_dataset_folder_resumes_and_equals_simulate(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["simulate", "-n", 2500, "--out", out, "--partition-size", 1000, "--bidders", "Heuristic", "--plays",
            "--calls", "--no-progress", "--seed", 4]
    code, text, err = run(args, capsys)
    assert code == 0, err
    assert f"wrote 2,500 deals to the dataset folder {out}" in text  # a folder, whatever its suffix
    expected = bs.simulate(2500, bidders="heuristic", plays=True, calls=True, seed=4)
    assert_same_frames(tuple(bs.read_parquet(out, frame=f) for f in ("deals", "plays", "calls")), expected)
    (out / "deals" / "part-00001.parquet").unlink()
    code, _, err = run(args, capsys)  # no --resume: refused, exit 2
    assert code == USAGE and "resume" in err
    code, _, err = run([*args, "--resume"], capsys)
    assert code == 0, err
    assert_same_frames(bs.read_parquet(out), expected[0])
    code, _, err = run([*args[:-1], 5, "--resume"], capsys)
    assert code == USAGE and "seed=4" in err and "seed=5" in err


def test_a_resume_without_n_keeps_the_datasets_and_a_larger_n_grows_it(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["simulate", "--out", out, "--partition-size", 1000, "--no-progress", "--seed", 4]
    code, _, err = run([*args, "-n", 2500], capsys)
    assert code == 0, err
    before = {p.name: p.read_bytes() for p in (out / "deals").iterdir()}
    code, text, err = run([*args, "--resume"], capsys)  # no -n: the dataset's 2,500, not the default 1,000,000
    assert code == 0 and "wrote 2,500 deals" in text, err
    assert {p.name: p.read_bytes() for p in (out / "deals").iterdir()} == before
    code, text, err = run([*args, "--resume", "-n", 4200], capsys)
    assert code == 0 and "wrote 4,200 deals" in text, err
    pd.testing.assert_frame_equal(bs.read_parquet(out), bs.simulate(4200, seed=4))
    code, _, err = run([*args, "--resume", "-n", 3000], capsys)
    assert code == USAGE and "n=4200, this call has n=3000" in err


def test_a_resume_takes_every_argument_it_is_not_given_from_the_dataset(tmp_path, capsys):
    """``--out DIR --resume`` alone grows a dataset made with other players, bidders, rules and frames: the
    defaults of the flags not given (``--players random``, ``--seed 0``, ...) are not the dataset's."""
    out = tmp_path / "run"
    made = ["--players", "hard", "--bidders", "heuristic,random,heuristic,random", "--rules", "classic",
            "--rule", "declarations=false", "--seed", 3, "--plays", "--calls"]
    code, _, err = run(["simulate", "-n", 700, "--out", out, "--partition-size", 500, "--no-progress", *made], capsys)
    assert code == 0, err
    code, text, err = run(["simulate", "--out", out, "--resume", "-n", 1200, "--no-progress"], capsys)
    assert code == 0, err
    assert "wrote 1,200 deals" in text and "deals, plays, calls" in text
    rules = bs.CLASSIC.replace(declarations=False)
    expected = bs.simulate(1200, players="hard", bidders=("heuristic", "random") * 2, rules=rules, seed=3,
                           plays=True, calls=True)
    assert_same_frames(tuple(bs.read_parquet(out, frame=f) for f in ("deals", "plays", "calls")), expected)
    code, _, err = run(["simulate", "--out", out, "--resume", "--players", "random", "--no-progress"], capsys)
    assert code == USAGE and "players" in err  # a flag given must still agree


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_small_runs_go_to_one_file(tmp_path, capsys, suffix):
    out = tmp_path / f"deals{suffix}"
    code, text, err = run(["simulate", "-n", 300, "--out", out, "--plays", "--contract", "h", "--declarer", 1,
                           "--players", "HARD,random,hard,Random", "--rule", "undertrump=required",
                           "--rule", "declarations=false", "--no-progress"], capsys)
    assert code == 0, err
    rules = bs.BULGARIAN.replace(undertrump="required", declarations=False)
    deals, plays = bs.simulate(300, contract="H", declarer=1, players=("hard", "random") * 2, rules=rules, plays=True)
    if suffix == ".csv":
        got = pd.read_csv(out)
        assert got["contract"].tolist() == ["H"] * 300 and got["raw0"].tolist() == deals["raw0"].tolist()
        assert pd.read_csv(tmp_path / "deals.plays.csv")["card"].tolist() == plays["card"].tolist()
    else:
        pd.testing.assert_frame_equal(pd.read_parquet(out), deals)
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "deals.plays.parquet"), plays)
    assert "contract H" in text and "declarer 1" in text


USAGE_ERRORS = [
    ["simulate", "-n", 10, "--contract", "xx"],
    ["simulate", "-n", 0],
    ["simulate", "--players", "genius"],
    ["simulate", "--rule", "nope=1"],
    ["simulate", "--rule", "undertrump=sometimes"],
    ["simulate", "--rule", "declarations=maybe"],
    ["simulate", "--bidders", "heuristic", "--contract", "H"],
    ["simulate", "--calls", "--out", "x"],
    ["simulate", "--plays"],
    ["simulate", "--resume"],
    ["simulate", "--out", "x.csv", "--partition-size", 10],
    ["simulate", "--declarer", 4],
    ["simulate", "--engine", "reference", "--players", "hard"],
    ["tournament", "hard", "genius"],
    ["bid", "JH 9H", "--players", "hard"],
    ["bid", "JH 9H AH KS 7C", "--known", "nonsense"],
    ["bid", "JH 9H AH KS 7C", "--bidders", "genius"],
    ["bid", "JH 9H AH KS 7C", "--max-tries", 100],
    ["warmup", "everything"],
    ["simulate", "--out", ""],
    ["simulate", "--out", "a_folder", "--overwrite"],
    ["simulate", "--rule", "match_target=" + "1" * 31],
    ["simulate", "--rule", "undertrump=required", "--rule", "Undertrump=free"],
    ["bid", "JH 9H AH KS 7C", "--csv", "no_such_folder/table.csv"],
    ["tournament", "hard", "normal", "--csv", "no_such_folder/table.csv"],
]


@pytest.mark.parametrize("argv", USAGE_ERRORS, ids=[" ".join(map(str, a)) for a in USAGE_ERRORS])
def test_usage_errors_exit_with_2_and_one_line(capsys, argv):
    code, _, err = run(argv, capsys)
    assert code == USAGE, err
    assert "Traceback" not in err and err.strip()


def test_a_missing_output_folder_is_a_usage_error_and_a_failed_write_a_run_failure(tmp_path, capsys, monkeypatch):
    code, _, err = run(["simulate", "-n", 10, "--out", tmp_path / "missing" / "x.csv"], capsys)
    assert code == USAGE and "does not exist" in err
    import belot_sim.engine.io as io

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(io, "write_csv_atomically", disk_full)
    code, _, err = run(["simulate", "-n", 10, "--out", tmp_path / "x.csv", "--no-progress"], capsys)
    assert code == FAILED and "No space left" in err


def test_output_files_are_checked_before_the_run_and_never_silently_replaced(tmp_path, capsys, monkeypatch):
    def no_work(*args, **kwargs):
        raise AssertionError("the run started before its output was checked")

    out = tmp_path / "deals.csv"
    out.write_text("mine")
    monkeypatch.setattr(simulation, "run_deals", no_work)
    code, _, err = run(["simulate", "-n", 10, "--out", out, "--no-progress"], capsys)
    assert code == USAGE and "already exists" in err and "--overwrite" in err and out.read_text() == "mine"
    sibling = tmp_path / "run.plays.csv"  # a file --plays writes beside --out, never named by the user
    sibling.write_text("mine too")
    code, _, err = run(["simulate", "-n", 10, "--out", tmp_path / "run.csv", "--plays", "--no-progress"], capsys)
    assert code == USAGE and str(sibling) in err and sibling.read_text() == "mine too"
    monkeypatch.undo()
    code, _, err = run(["simulate", "-n", 10, "--out", out, "--overwrite", "--no-progress"], capsys)
    assert code == 0, err
    assert len(pd.read_csv(out)) == 10
    table = tmp_path / "table.csv"
    table.write_text("mine")
    for argv in (["bid", "JH 9H AH KS 7C", "--players", "hard", "--samples", 10],
                 ["tournament", "easy", "random", "-n", 10]):
        code, text, err = run([*argv, "--csv", table], capsys)
        assert code == USAGE and "already exists" in err and text == "" and table.read_text() == "mine"


def test_siblings_of_another_run_are_refused_or_removed_never_left_beside_the_new_files(tmp_path, capsys):
    out = tmp_path / "run.csv"
    code, _, err = run(["simulate", "-n", 20, "--out", out, "--bidders", "heuristic", "--plays", "--calls",
                        "--no-progress"], capsys)
    assert code == 0, err
    plays, calls = tmp_path / "run.plays.csv", tmp_path / "run.calls.csv"
    assert plays.exists() and calls.exists()
    out.unlink()  # an earlier run's calls stay: a run without --calls would look like one with them
    code, _, err = run(["simulate", "-n", 10, "--out", out, "--no-progress"], capsys)
    assert code == USAGE and str(calls) in err and str(plays) in err and not out.exists()
    code, text, err = run(["simulate", "-n", 10, "--out", out, "--plays", "--overwrite", "--no-progress"], capsys)
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.csv", "run.plays.csv"]
    assert f"removed {calls}" in text and len(pd.read_csv(plays)) == 10 * 32


def test_a_failed_write_names_the_file_asked_for_not_its_temporary(tmp_path, monkeypatch):
    import belot_sim.engine.io as io

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(io.os, "replace", refused)
    frame = pd.DataFrame({"a": [1]})
    for write, name in ((io.write_csv_atomically, "x.csv"), (io.write_parquet_atomically, "x.parquet")):
        with pytest.raises(PermissionError) as error:
            write(frame, tmp_path / name)
        assert str(error.value) == f"[Errno 13] cannot write {tmp_path / name}: Permission denied"
    assert list(tmp_path.iterdir()) == []  # no temporary file left


def test_contract_and_player_names_in_any_case(capsys):
    code, text, err = run(["simulate", "-n", 200, "--contract", "nt", "--players", "Normal", "--no-progress"], capsys)
    assert code == 0, err
    assert "contract NT" in text
    code, text, err = run(["tournament", "HARD", "Normal", "-n", 100, "--contract", "hearts", "--no-progress"], capsys)
    assert code == 0, err
    assert "hard vs normal" in text


def test_a_tournament_of_one_deal_prints_no_nan_and_a_player_against_itself_two_columns(capsys):
    code, text, err = run(["tournament", "hard", "normal", "-n", 1, "--no-progress"], capsys)
    assert code == 0, err
    assert "nan" not in text.lower()
    assert "n/a" in text and "n/a: an interval needs at least two deals" in text
    code, text, err = run(["tournament", "hard", "hard", "-n", 20, "--no-progress"], capsys)
    assert code == 0, err
    header = text.splitlines()[1]
    assert "hard (A) vs hard (B)" in text
    assert "hard (A) better" in header and "hard (B) better" in header


@pytest.mark.parametrize("argv, said", [
    (["--seed", -1], "--seed must be in 0..18446744073709551615, got -1"),
    (["--seed", 99999999999999999999999], "--seed must be in"),
    (["-n", 99999999999999999999], "-n must be in 1..1099511627776"),
    (["-n", 10**11], "need at least"),  # in range, but the rows cannot fit in memory
])
@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_both_engines_check_n_and_seed_before_any_work(argv, said, engine, capsys, monkeypatch):
    from belot_sim.cli import simulate as simulate_command

    def no_work(*args, **kwargs):
        raise AssertionError("a deal was played before the arguments were checked")

    monkeypatch.setattr(simulate_command, "simulate_reference", no_work)
    monkeypatch.setattr(simulation, "simulate", no_work)
    monkeypatch.setattr(checks, "physical_memory", lambda: 2**34)
    code, _, err = run(["simulate", "--engine", engine, *argv], capsys)
    assert code == USAGE and said in err, err


def test_bidders_take_four_names_and_options_as_the_api_does(tmp_path, capsys):
    out = tmp_path / "deals.parquet"
    code, text, err = run(["simulate", "-n", 300, "--bidders", "Heuristic,random,heuristic,RANDOM", "--bidder-option",
                           "pass_prob=0.9", "--bidder-option", "thr_suit=11", "--calls", "--out", out, "--seed", 3,
                           "--no-progress"], capsys)
    assert code == 0, err
    assert "auctions by heuristic,random,heuristic,random bidders" in text
    deals, calls = bs.simulate(300, bidders=("heuristic", "random") * 2, bidder_options={"pass_prob": 0.9,
                               "thr_suit": 11}, calls=True, seed=3)
    pd.testing.assert_frame_equal(pd.read_parquet(out), deals)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "deals.calls.parquet"), calls)


def test_bid_takes_four_bidder_models_and_their_options(capsys):
    models = ("heuristic", "random", "heuristic", "heuristic")
    code, text, err = run(["bid", "JH 9H AH KS 7C", "--auction", "P", "--seat", 1, "--bidders", ",".join(models),
                           "--bidder-option", "thr_suit=12", "--players", "hard", "--samples", 200, "--seed", 2,
                           "--no-progress"], capsys)
    assert code == 0, err
    table = bs.bid_table("JH 9H AH KS 7C", auction="P", seat=1, bidders=models, bidder_options={"thr_suit": 12},
                         players="hard", samples=200, seed=2)
    assert str(table) in text


@pytest.mark.parametrize("argv, said", [
    (["simulate", "--bidders", "heuristic,random"], "four comma-separated bidders"),
    (["simulate", "--bidders", "heuristic,random,genius,random"], "unknown bidder 'genius'"),
    (["simulate", "--bidder-option", "pass_prob=0.5"], "--bidder-option tunes the bidders: give --bidders"),
    (["simulate", "--bidders", "random", "--bidder-option", "pass_prob"], "--bidder-option takes NAME=VALUE"),
    (["simulate", "--bidders", "random", "--bidder-option", "nope=1"], "unknown bidder option 'nope'"),
    (["simulate", "--bidders", "random", "--bidder-option", "pass_prob=2"], "pass_prob is a probability"),
    (["simulate", "--bidders", "random", "--bidder-option", "pass_prob=0.5", "--bidder-option", "Pass_prob=0.6"],
     "--bidder-option pass_prob= given twice"),
    (["bid", "JH 9H AH KS 7C", "--bidder-option", "pass_prob=0.5"], "--bidder-option are the options"),
    (["simulate", "--rule", "family=classic"], "choose a preset with --rules"),
    (["simulate", "--rules", "classic", "--rule", "family=classic"], "choose a preset with --rules"),
])
def test_bidder_options_and_rule_families_are_refused_with_the_flag_named(argv, said, capsys, monkeypatch):
    def no_work(*args, **kwargs):
        raise AssertionError("a deal was played before the arguments were checked")

    monkeypatch.setattr(simulation, "simulate", no_work)
    code, _, err = run(argv, capsys)
    assert code == USAGE and said in err, err


def test_warmup_compiles_named_families(capsys):
    code, text, err = run(["warmup", "deals", "estimates"], capsys)
    assert code == 0, err
    assert "2 kernel families ready" in text and "deals" in err and "estimates" in err


def test_the_installed_script_runs():
    script = Path(sys.executable).with_name("belot-sim")  # pip install -e . puts it beside the interpreter
    done = subprocess.run([script, "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and bs.__version__ in done.stdout
    done = subprocess.run([script, "simulate", "--contract", "x"], capture_output=True, text=True)
    assert done.returncode == USAGE and "unknown contract" in done.stderr


def test_simulate_takes_every_bidder_and_the_expert(capsys):
    code, out, _ = run(["simulate", "-n", 40, "--bidders", "atlas", "--players", "expert", "--no-progress"], capsys)
    assert code == 0 and "auctions by atlas bidders, players expert" in out


def test_a_rare_auction_takes_max_tries_and_min_samples(capsys):
    args = ["bid", "JH 9H AH KS 7C", "--seat", 2, "--auction", "P H", "--players", "random", "--samples", 50,
            "--max-tries", 20000, "--min-samples", 1, "--no-progress"]
    code, text, err = run(args, capsys)
    assert code == 0, err
    assert "of 20,000 layouts consistent" in text and "after 'PH'" in text


def test_a_reader_that_goes_away_ends_the_command_quietly():
    """``belot-sim simulate | head``: the closed pipe ends it with 141, as a shell's own tools end, not
    with an error message or a traceback."""
    child = subprocess.Popen([sys.executable, "-c", "import sys; from belot_sim.cli import main; "
                              "sys.exit(main(['simulate', '-n', '1000', '--no-progress']))"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()  # before it prints anything: it loads its kernels first
    err = child.stderr.read().decode()
    assert child.wait(timeout=600) == 141, err
    assert "Broken pipe" not in err and "Traceback" not in err and "Exception ignored" not in err


@pytest.mark.parametrize("argv, said", [
    (["bid", "JH 9H AH KS 7C", "--rules", "classic", "--auction", "P"], "give --turned"),
    (["bid", "JH 9H AH KS 7C", "--auction", "P", "--known", "1:AS"], "--known cannot be combined with --auction"),
    (["bid", "JH 9H AH KS 7C", "--min-samples", "10"], "--min-samples limits the screen"),
])
def test_bid_errors_name_the_flags_not_the_library_keywords(argv, said, capsys):
    code, _, err = run(argv, capsys)
    assert code == USAGE and said in err and "=" not in err.split(":", 1)[1], err


def test_a_broken_pipe_that_is_not_stdout_is_a_failure_with_its_message(monkeypatch, capsys):
    import belot_sim.cli.simulate as simulate_command

    def share_gone(args):
        raise BrokenPipeError(32, "Broken pipe", "/mnt/share/run.csv")

    monkeypatch.setattr(simulate_command, "run", share_gone)
    code, _, err = run(["simulate", "-n", 10], capsys)
    assert code == FAILED and "Broken pipe: '/mnt/share/run.csv'" in err



def test_unwritable_output_paths_are_refused_before_any_work(capsys, monkeypatch):
    """A folder that looks writable can still refuse files (/proc here): found by a probe, before the run."""
    monkeypatch.setattr(simulation, "run_deals", lambda *a, **k: pytest.fail("a deal was played"))
    for argv in (["simulate", "-n", 5, "--out", "/proc/x.csv"],
                 ["tournament", "hard", "normal", "-n", 10, "--csv", "/proc/x.csv"],
                 ["bid", "JH 9H AH KS 7C", "--samples", 10, "--players", "hard", "--csv", "/proc/x.csv"]):
        code, _, err = run(argv, capsys)
        assert code == USAGE and "cannot create a file in /proc" in err, (argv, err)


def test_a_missing_extra_is_named_with_its_install_line_before_any_work(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if not installed
    monkeypatch.setattr(simulation, "run_deals", lambda *a, **k: pytest.fail("a deal was played"))
    for out in (tmp_path / "x.parquet", tmp_path / "run"):
        code, _, err = run(["simulate", "-n", 5, "--out", out], capsys)
        assert code == USAGE and "needs pyarrow: pip install 'belot-sim[parquet]'" in err, err
        assert not out.exists()


@pytest.mark.parametrize("after_message", [0.5, 3.0])
def test_ctrl_c_during_the_first_compile_ends_with_interrupted(tmp_path, after_message):
    """SIGINT while Numba compiles (an empty cache: the compile takes some 10 s) ends the command within
    seconds with ``interrupted`` and exit code 130 — not an LLVM error, not a run that goes on."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    child = subprocess.Popen([sys.executable, "-c", "import signal, sys; from belot_sim.cli import main; "
                              "signal.signal(signal.SIGINT, signal.default_int_handler); "
                              "sys.exit(main(['simulate', '-n', '300', '--players', 'hard', '--no-progress']))"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = child.stderr.readline()
        assert "compiling" in line, line
        time.sleep(after_message)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        code = child.wait(timeout=60)
        waited = time.monotonic() - sent
        rest = child.stderr.read()
    finally:
        child.kill()
    assert code == INTERRUPTED, rest
    assert rest.strip().splitlines()[-1] == "belot-sim simulate: interrupted", rest
    assert "Traceback" not in rest and child.stdout.read() == ""
    assert waited < 10, f"the compile went on for {waited:.1f} s after SIGINT"


def test_the_default_n_is_smaller_when_a_seat_searches():
    from belot_sim.cli.common import default_n
    from belot_sim.cli.simulate import DEFAULT_N
    from belot_sim.cli.tournament import DEALS

    assert default_n(None, "hard", DEFAULT_N) == 1_000_000
    assert default_n(None, ("hard", "random", "pimc", "hard"), DEFAULT_N) == 1_000
    assert default_n(None, ("normal", "hybrid"), DEALS) == 300 and default_n(None, ("normal", "hard"), DEALS) == 30_000
    assert default_n(7, "pimc", DEFAULT_N) == 7  # given: kept
