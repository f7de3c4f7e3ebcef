"""Double-dummy solver benchmark: time per full 8-card deal, and colver side by side.

    python benchmarks/solver.py            # 600 deals (100 per contract), one thread
    python benchmarks/solver.py -n 120 --seed 3 --no-colver

Deals are uniformly random (seeded), contracts cycle C D H S NT AT, the leader is random and the
value is for team 0 under the bulgarian rules.  The kernels are compiled and warmed up first.
Reported: median / p99 / max milliseconds of ``bs.solve`` per contract and overall, the slowest
deal (to reproduce it: ``bs.solve(hands, contract, leader)``), and the search nodes.

When ``colver`` (a Rust Belote Contrée engine, ``pip install -e ".[compare]"``) is importable, the
suit-contract deals are also solved by ``colver.Env.solve_scores`` (the double-dummy card points of
every legal first card, North-South = our team 0) and by ``bs.solve_moves`` with the rules colver
plays (classic, undertrump "free" — its values agree with ours under exactly those rules); the
table shows both times and their ratio, and whether every value agreed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import belot_sim as bs  # noqa: E402
from belot_sim.cli.common import positive_int  # noqa: E402
from report import Tee, environment, record  # noqa: E402

CONTRACTS = ("C", "D", "H", "S", "NT", "AT")
#: colver's card index -> ours: its suits are S H D C, its ranks 7 8 9 J Q K 10 A.
_COLVER_SUIT = (3, 2, 1, 0)
_COLVER_RANK = (0, 1, 2, 4, 5, 6, 3, 7)


def colver_to_ours(i: int) -> int:
    return _COLVER_SUIT[i // 8] * 8 + _COLVER_RANK[i % 8]


def random_deals(n: int, seed: int):
    rng = random.Random(seed)
    deals = []
    for i in range(n):
        pack = list(range(32))
        rng.shuffle(pack)
        hands = [sum(1 << c for c in pack[8 * s:8 * s + 8]) for s in range(4)]
        deals.append((hands, CONTRACTS[i % len(CONTRACTS)], rng.randrange(4)))
    return deals


def percentile(values, q):
    return float(np.percentile(np.asarray(values), q))


def time_call(fn, *args, **kwargs):
    t0 = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, (time.perf_counter() - t0) * 1e3


def bench_solve(deals):
    bs.solve(*deals[0])  # compile / warm up
    bs.solve_moves(*deals[0])
    per_contract = {c: [] for c in CONTRACTS}
    nodes = []
    slowest = (0.0, None)
    from belot_sim.positions.solve import _ws

    for hands, contract, leader in deals:
        value, ms = time_call(bs.solve, hands, contract, leader)
        per_contract[contract].append(ms)
        nodes.append(_ws().nodes)
        if ms > slowest[0]:
            slowest = (ms, (hands, contract, leader, value))
    return per_contract, nodes, slowest


def bench_colver(deals):
    try:
        import colver
    except ImportError:
        return None
    ours_to_colver = {colver_to_ours(i): i for i in range(32)}
    rules = bs.CLASSIC.replace(undertrump="free")
    rows = []
    for hands, contract, leader in deals:
        if contract not in ("C", "D", "H", "S"):
            continue
        cards = [[c for c in range(32) if h >> c & 1] for h in hands]
        env = colver.Env.deal_with_hands((leader - 1) % 4, [sorted(ours_to_colver[c] for c in h) for h in cards])
        env.set_contract(3 - "CDHS".index(contract), 80, 0, 0)
        env.set_phase_playing()
        theirs, ms_colver = time_call(env.solve_scores)
        ours, ms_ours = time_call(bs.solve_moves, hands, contract, leader, 0, rules)
        agree = ours == {colver_to_ours(c): v for c, v in theirs["scores"]}
        rows.append((ms_ours, ms_colver, agree))
    return rows


def compare_colver(out, deals) -> None:
    """Time ``solve_moves`` against colver on the suit-contract deals and check their values agree."""
    rows = bench_colver(deals)
    if rows is None:
        out("\ncolver is not installed (pip install -e \".[compare]\"): no comparison")
        return
    ours = [r[0] for r in rows]
    theirs = [r[1] for r in rows]
    ratios = [t / o for o, t in zip(ours, theirs)]
    out(f"\nall first cards of a full deal, suit contracts ({len(rows)} deals), milliseconds per deal")
    out(f"{'system':>28} {'median':>8} {'p99':>8} {'max':>8}")
    out(f"{'belot_sim solve_moves':>28} {statistics.median(ours):>8.2f} {percentile(ours, 99):>8.2f} {max(ours):>8.2f}")
    out(f"{'colver Env.solve_scores':>28} {statistics.median(theirs):>8.2f} {percentile(theirs, 99):>8.2f} "
          f"{max(theirs):>8.2f}")
    out(f"speed-up: {statistics.median(theirs) / statistics.median(ours):.1f}x on medians, "
          f"{sum(theirs) / sum(ours):.1f}x on totals, per-deal median {statistics.median(ratios):.1f}x")
    agree = sum(r[2] for r in rows)
    out(f"values agree with colver on {agree}/{len(rows)} deals (every first card; classic rules, "
          f"undertrump 'free', card points + 10 for the last trick, 252 for a capot/valat)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=positive_int, default=600, help="deals (cycled over the six contracts)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-colver", action="store_true", help="skip the colver comparison")
    parser.add_argument("--record", action="store_true", help="add the result to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    out = Tee()
    out(environment())
    deals = random_deals(args.n, args.seed)

    per_contract, nodes, slowest = bench_solve(deals)
    out(f"bs.solve, one thread, {args.n} random full deals (team 0, bulgarian rules), milliseconds per deal")
    out(f"{'contract':>8} {'deals':>6} {'median':>8} {'p99':>8} {'max':>8}")
    everything = []
    for contract in CONTRACTS:
        ms = per_contract[contract]
        everything += ms
        if ms:
            out(f"{contract:>8} {len(ms):>6} {statistics.median(ms):>8.2f} {percentile(ms, 99):>8.2f} {max(ms):>8.2f}")
    out(f"{'all':>8} {len(everything):>6} {statistics.median(everything):>8.2f} {percentile(everything, 99):>8.2f} "
          f"{max(everything):>8.2f}")
    out(f"search nodes per deal: median {int(statistics.median(nodes)):,}, p99 {int(percentile(nodes, 99)):,}, "
          f"max {max(nodes):,}")
    ms, (hands, contract, leader, value) = slowest
    out(f"slowest deal ({ms:.1f} ms, value {value}): "
        f"bs.solve([{', '.join(hex(h) for h in hands)}], {contract!r}, {leader})")
    out("   " + " | ".join(bs.format_cards(h) for h in hands))

    if not args.no_colver:
        compare_colver(out, deals)
    if args.record:
        record("benchmarks/solver.py", out.text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
