"""Long runs a person can live with: blocks sized to about half a second, a progress bar with rate
and time left, a line when kernels compile, and every long call stopping promptly on Ctrl-C."""

from __future__ import annotations

import importlib
import io
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from numba import njit

import belot_sim as bs
from belot_sim.engine import compiling
from belot_sim.engine import progress as progress_module
from belot_sim.engine import runs
from belot_sim.engine.progress import Progress

warmup_module = importlib.import_module("belot_sim.warmup")  # bs.warmup is the function


def sizes(total, **kwargs):
    return [size for _, size in runs.blocks(total, **kwargs)]


def test_blocks_cover_the_range_in_order():
    ranges = list(runs.blocks(1000, first=7, cap=100))
    assert ranges[0] == (0, 7)
    assert [o for o, _ in ranges] == [sum(s for _, s in ranges[:k]) for k in range(len(ranges))]
    assert sum(s for _, s in ranges) == 1000
    assert max(s for _, s in ranges) <= 100


def test_zero_items_is_one_empty_block():
    assert list(runs.blocks(0, first=10, cap=10)) == [(0, 0)]


def test_blocks_follow_the_measured_rate(monkeypatch):
    clock = iter(range(0, 10**6, 1))  # every block "takes" one second, whatever its size
    monkeypatch.setattr(runs.time, "perf_counter", lambda: float(next(clock)))
    got = sizes(10_000, first=10, cap=1000, target=0.5)
    assert got[:3] == [10, 5, 2]  # half a second at 10 / s, 5 / s, ...
    assert all(s >= 1 for s in got)


def test_growth_is_bounded_and_sizes_are_whole_work_items(monkeypatch):
    clock = iter(x * 1e-6 for x in range(10**6))  # blocks take a microsecond: the rate says "huge"
    monkeypatch.setattr(runs.time, "perf_counter", lambda: next(clock))
    got = sizes(100_000, first=8, cap=4096, multiple=8)
    assert got[:4] == [8, 32, 128, 512]  # at most 4x a step
    assert all(s % 8 == 0 for s in got[:-1]) and max(got) == 4096


def test_the_cap_wins_over_the_work_item_size():
    assert set(sizes(10, first=8, cap=3, multiple=8)) <= {1, 2, 3}


def test_progress_bar_shows_count_rate_and_time_left(capsys):
    with Progress(True, "simulate", 40, "deals") as bar:
        for _ in range(4):
            bar.advance(10)
    err = capsys.readouterr().err
    assert "simulate" in err and "40/40" in err and "deals/s" in err and "<" in err  # elapsed<left
    with Progress(False, "simulate", 40, "deals") as bar:
        bar.advance(40)
    assert capsys.readouterr().err == ""


class _Stream(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_progress_is_whole_lines_when_stderr_is_not_a_terminal(monkeypatch):
    """A log file or a pipe gets one line per refresh (every LOG_INTERVAL seconds) and one at the end,
    no carriage returns; a terminal gets the bar redrawn in place."""
    for tty in (False, True):
        stream = _Stream(tty)
        monkeypatch.setattr(sys, "stderr", stream)
        monkeypatch.setattr(progress_module, "LOG_INTERVAL", 0.0 if not tty else progress_module.LOG_INTERVAL)
        with Progress(True, "simulate", 40, "deals") as bar:
            for _ in range(4):
                bar.advance(10)
        text = stream.getvalue()
        if tty:
            assert "\r" in text
        else:
            lines = text.splitlines()
            assert "\r" not in text and text.endswith("\n") and len(lines) >= 3
            assert all(line.startswith("simulate:") for line in lines) and "40/40" in lines[-1]


def test_large_totals_are_shown_in_k_and_m(capsys):
    with Progress(True, "simulate", 2_000_000, "deals") as bar:
        bar.advance(2_000_000)
    assert "2.00M/2.00M" in capsys.readouterr().err


def test_a_compiling_kernel_family_is_announced_once(monkeypatch, capsys):
    monkeypatch.setattr(compiling, "_announced", set())

    @njit  # not cached: compiles in this process
    def fresh(x):
        return x + 1

    @njit
    def fresh_again(x):
        return x * 2

    with compiling.announce("deals"):
        fresh(1)
        fresh_again(1)  # the same family: no second line
    with compiling.announce("deals"):
        fresh(2)  # compiled already: nothing
    fresh_again(2.5)  # outside any family: nothing
    lines = [line for line in capsys.readouterr().err.splitlines() if line]
    assert lines == [compiling.message(compiling.FAMILIES["deals"])]
    assert "about 10 s" in lines[0] and "compiling the deal kernels" in lines[0]


def test_loading_from_the_cache_prints_nothing(capsys):
    bs.simulate(3)  # compiled (or loaded) before
    capsys.readouterr()
    bs.simulate(3, seed=5)
    assert capsys.readouterr().err == ""


def test_warmup_names_every_family_and_refuses_unknown_ones():
    assert bs.warmup("deals") .keys() == {"deals"}
    with pytest.raises(ValueError, match="unknown kernel family"):
        bs.warmup(["deals", "everything"])
    assert list(compiling.FAMILIES)[:2] == ["deals", "auctions"]


WARM_SOLVE = """
import belot_sim as bs
from numba.core.registry import CPUDispatcher
from belot_sim.kernels.solver import api
from belot_sim import reference as ref
bs.warmup(["solve"])
kernels = {name: k for name, k in vars(api).items() if isinstance(k, CPUDispatcher)}
before = {name: len(k.overloads) for name, k in kernels.items()}
hands = ["JH 9H AH TC", "7H 8H AC KC", "QH KH 9C QC", "TH 7C 8C JC"]
bs.solve(hands, "H", leader=0)
bs.solve_moves(hands, "S", leader=1, team=1, rules="classic")
bs.solve_moves(["AS", "", "TS", "8S"], "H", leader=1, trick=["7S"])
bs.solve_moves(ref.DealState.from_hands(["7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD",
                                         "7H 8H 9H TH JH QH KH AH", "7S 8S 9S TS JS QS KS AS"],
                                        contract="H", declarer=0, dealer=3))
print(sorted(name for name, k in kernels.items() if len(k.overloads) != before[name]))
"""


def test_warmup_leaves_nothing_for_the_solve_calls_to_compile():
    """``warmup(["solve"])`` in a new process readies every kernel ``bs.solve`` and its siblings call:
    none of the solver's entry points gains a compiled version afterwards (``bs.solve`` once did)."""
    done = subprocess.run([sys.executable, "-c", WARM_SOLVE], capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["[]"]


# --- Ctrl-C ------------------------------------------------------------------------------------

#: Each long call, after a small call that compiles (or loads) its kernels.
LONG_CALLS = {
    "simulate pimc": ("bs.simulate(8, players='pimc')", "bs.simulate(10**6, players='pimc')"),
    "simulate dd": ("bs.simulate(8, players='dd', plays=True)", "bs.simulate(10**7, players='dd', plays=True)"),
    "simulate random": ("bs.simulate(8)", "bs.simulate(3 * 10**7)"),  # 1.3 GiB of arrays, about 6 s of work
    "dataset pimc": ("bs.simulate(8, players='pimc')",
                     "bs.simulate_to_parquet(OUT, 10**5, partition_size=40, players='pimc', progress=False)"),
    "tournament": ("bs.tournament('pimc', 'hard', 2)", "bs.tournament('pimc', 'hard', 10**6)"),
    "estimate_bid": ("bs.estimate_bid(HAND, 'H', samples=8, players='pimc')",
                     "bs.estimate_bid(HAND, 'H', samples=10**6, players='pimc')"),
    "bid_table": ("bs.bid_table(HAND, samples=8)", "bs.bid_table(HAND, samples=10**7)"),
    "atlas partition": ("__import__('os').makedirs(OUT + '-atlas') or ATLAS_BUILD.compute_part(OUT + '-atlas', 0, "
                        "239680, 2, 1)", "ATLAS_BUILD.compute_part(OUT + '-atlas', 1, 4, 1000, 1)"),  # 60,000 rows
    "estimate_bid auction": ("bs.estimate_bid(HAND, 'H', seat=2, dealer=3, auction='PC', samples=8)",
                             "bs.estimate_bid(HAND, 'H', seat=2, dealer=3, auction='PC', samples=10**5)"),
    # a match is the smallest block (some 10-20 deals): with 60 layouts a pimc decision it takes about 4 s,
    # so these stop in time only because a block is stopped between two deals (runs.interruptible)
    "simulate_matches": ("bs.simulate_matches(2, players='pimc', worlds=5)",
                         "bs.simulate_matches(10**6, players='pimc', worlds=60)"),
    "match dataset": ("bs.simulate_matches(2, players='pimc', worlds=5)",
                      "bs.simulate_matches_to_parquet(OUT + '-matches', 10**5, partition_size=4, players='pimc', "
                      "worlds=60, progress=False)"),
}

CHILD = """
import signal, sys
import belot_sim as bs
from belot_sim.estimates import atlas_build as ATLAS_BUILD
# Ctrl-C raises KeyboardInterrupt, as in a terminal (a shell's background job starts with SIGINT ignored)
signal.signal(signal.SIGINT, signal.default_int_handler)
HAND, OUT = "JH 9H AH KS 7C", sys.argv[1]
CALLS = {{
{calls}
}}
for name, (warm, long) in CALLS.items():
    warm()
    print("started", name, flush=True)
    try:
        long()
        print("finished", name, flush=True)
    except KeyboardInterrupt:
        print("stopped", name, flush=True)
"""


def child_script() -> str:
    # functions, not eval(): a KeyboardInterrupt leaving eval() makes Python exit by SIGINT at the end
    calls = "\n".join(f"    {name!r}: (lambda: {warm}, lambda: {long})," for name, (warm, long) in LONG_CALLS.items())
    return textwrap.dedent(CHILD).format(calls=calls)


def test_every_long_call_stops_within_a_second_of_ctrl_c(tmp_path):
    """A child process runs each long call; SIGINT arrives while it runs (after 1.5 s), and the call
    must end with KeyboardInterrupt soon after, whatever the players (the kernels run in blocks of
    about half a second)."""
    child = subprocess.Popen([sys.executable, "-u", "-c", child_script(), str(tmp_path / "ds")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    latencies = {}
    try:
        for name in LONG_CALLS:
            line = child.stdout.readline().strip()
            assert line == f"started {name}", (line, child.stderr.read() if not line else "")
            time.sleep(1.5)
            sent = time.monotonic()
            child.send_signal(signal.SIGINT)
            line = child.stdout.readline().strip()
            latencies[name] = time.monotonic() - sent
            assert line == f"stopped {name}", line
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
    slow = {name: round(t, 2) for name, t in latencies.items() if t > 1.5}
    assert not slow, f"stopped later than 1.5 s after SIGINT: {slow} (all: {latencies})"
    assert [p.name for p in (tmp_path / "ds-atlas").iterdir()] == ["part-00000.npy"]  # the warm-up's, no other
    for folder in (tmp_path / "ds" / "deals", tmp_path / "ds-matches" / "matches", tmp_path / "ds-matches" / "deals"):
        assert all(not p.name.endswith(".tmp") for p in folder.iterdir())  # only complete parts are left


def test_warmup_chains_hold_every_family_once():
    assert sorted(family for chain in warmup_module.CHAINS for family in chain) == sorted(compiling.FAMILIES)


def test_warmup_compiles_the_two_chains_in_two_processes(monkeypatch):
    """A family of each chain: one compiles here, the other in a second process, whose times come back."""
    times = bs.warmup(["solve", "deals"])
    assert list(times) == ["solve", "deals"] and all(t >= 0 for t in times.values())
    monkeypatch.setattr(warmup_module, "_CHILD", "import sys; sys.exit(3)")  # the second process fails
    with pytest.raises(RuntimeError, match="compiling deals failed with exit code 3"):
        bs.warmup(["deals", "solve"])
    assert bs.warmup(["deals", "solve"], parallel=False).keys() == {"deals", "solve"}  # in this process only
