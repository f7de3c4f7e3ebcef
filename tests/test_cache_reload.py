"""Numba's on-disk cache: a later process must load the compiled solver and the kernels that call
it.  A recursive function called with literal arguments once compiled and ran in its first
process, then failed to link ("Symbol not found ... Literal[int]") in every process loading it
from the cache; in-process tests cannot see that."""

from __future__ import annotations

import subprocess
import sys

import belot_sim as bs

HANDS = [0x814c8005, 0x7c024400, 0x2911182, 0x202a78]

SCRIPT = """
import belot_sim as bs
hands = %r
print(bs.solve(hands, "NT", 2))
print(sorted(bs.solve_moves(hands, "AT", 1).items()))
print(bs.simulate(8, players="dd", seed=3)["trick_points0"].tolist())
print(bs.simulate(4, players="pimc", seed=3, worlds=4)["trick_points0"].tolist())
print(bs.estimate_bid("JH 9H AH KS 7C", "H", samples=8, seed=1, players="dd").frame["trick_points0"].tolist())
""" % (HANDS,)


def run_script() -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_a_second_process_loads_the_cached_solver_and_its_callers():
    first = run_script()  # compiles what no earlier process cached, and caches it
    second = run_script()  # loads all of it from the cache
    assert second == first
    assert first.splitlines()[0] == str(bs.solve(HANDS, "NT", 2))  # and it is what this process computes
