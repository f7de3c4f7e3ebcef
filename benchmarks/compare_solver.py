"""The solver against its code at another commit, in one process: values identical deal by deal,
and the ratio of the times.

    python benchmarks/compare_solver.py 6f5fb94              # 600 deals, bs.solve
    python benchmarks/compare_solver.py 6f5fb94 -n 300 --moves --seed 2

Both packages are loaded side by side (``benchmarks/baseline.py``); each deal is solved by both,
alternating which goes first, and the times are summed.  The ratio is current / baseline (below 1:
the current code is faster).  Blind spot: the two copies' tables evict each other from the cache,
which favours smaller tables; table sizes are compared in separate processes instead.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import belot_sim as bs  # noqa: E402
from baseline import load_baseline  # noqa: E402
from solver import CONTRACTS, random_deals  # noqa: E402
from belot_sim.cli.common import positive_int  # noqa: E402
from report import Tee, environment, record  # noqa: E402


def timed(fn, *args):
    t0 = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - t0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the commit to compare with (e.g. 6f5fb94)")
    parser.add_argument("-n", type=positive_int, default=600, help="deals, cycled over the six contracts (default 600)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", action="store_true", help="time solve_moves (every first card) instead of solve")
    parser.add_argument("--record", action="store_true", help="add the result to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    out = Tee()
    out(environment())
    old = load_baseline(args.base)
    deals = random_deals(args.n, args.seed)
    fn_new = bs.solve_moves if args.moves else bs.solve
    fn_old = old.solve_moves if args.moves else old.solve
    for fn in (fn_new, fn_old):  # compile / load the caches
        fn(*deals[0])
    totals = {c: [0.0, 0.0] for c in CONTRACTS}
    for i, (hands, contract, leader) in enumerate(deals):
        order = ((fn_new, 0), (fn_old, 1)) if i % 2 == 0 else ((fn_old, 1), (fn_new, 0))
        values = [None, None]
        for fn, k in order:
            values[k], seconds = timed(fn, hands, contract, leader)
            totals[contract][k] += seconds
        if values[0] != values[1]:
            raise SystemExit(f"deal {i} differs: {values[0]} (current) != {values[1]} ({args.base}): "
                             f"solve({[hex(h) for h in hands]}, {contract!r}, {leader})")
    what = "solve_moves" if args.moves else "solve"
    out(f"{what}: current / {args.base}, {args.n} deals (seed {args.seed}), one process, alternating")
    out(f"{'contract':>8} {'current s':>10} {'base s':>10} {'ratio':>7}")
    for contract, (new, base) in totals.items():
        out(f"{contract:>8} {new:>10.3f} {base:>10.3f} {new / base:>7.3f}")
    new = sum(t[0] for t in totals.values())
    base = sum(t[1] for t in totals.values())
    out(f"{'all':>8} {new:>10.3f} {base:>10.3f} {new / base:>7.3f}")
    out("values identical on every deal")
    if args.record:
        record("benchmarks/compare_solver.py", out.text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
