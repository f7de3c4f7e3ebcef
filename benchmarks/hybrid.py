"""``hybrid`` measured against the targets of its design, beside ``pimc`` in one run: deals/s on the same
deals, a decision's time through ``Bot`` (median, 99th percentile, worst, the opening lead's), the
search's solver nodes, and duplicate edges with 95 % intervals.

    python benchmarks/hybrid.py                         # speeds, decision times, 4,000-deal tournaments
    python benchmarks/hybrid.py --deals 1000 --record

Deals/s: ``simulate(n, players=p, bidders="heuristic", threads=t)`` after a warm-up, ``hybrid`` and ``pimc``
alternating on the same deals (seed 1), one thread and two.  A decision: ``Bot(p).play(state)`` on the
decisions with a choice of deals played by ``hard`` (random contracts; one thread; 20 layouts).  Duplicate
edges: ``tournament("hybrid", b, n, bidders="heuristic")`` (seed 0, as the design's target states it).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numba
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

import belot_sim as bs  # noqa: E402
from helpers import random_deal  # noqa: E402
from belot_sim.kernels.core.layouts import SP_NODES  # noqa: E402
from belot_sim.kernels.players.hybrid import NODE_BUDGET, SEARCH_FROM_TRICK  # noqa: E402
from report import Tee, environment, record, timed  # noqa: E402

#: Deals per timed run.
DEALS = {"hybrid": 2_000, "pimc": 100}
OPPONENTS = ("pimc", "expert", "neural")


def rates(threads_list, out) -> None:
    out("simulate with heuristic auctions (every seat bids heuristic), all four seats one player, deals/s; "
        "pimc's deals are the first of hybrid's")
    out(f"{'player':>8} {'threads':>7} {'deals/s':>10}")
    for threads in threads_list:
        speed = {}
        for player, n in DEALS.items():
            bs.simulate(4, players=player, bidders="heuristic", threads=threads, seed=99)  # warm-up
            seconds = timed(lambda p=player, n=n, t=threads: bs.simulate(n, players=p, bidders="heuristic",
                                                                         threads=t, seed=1))
            speed[player] = n / seconds
            out(f"{player:>8} {threads:>7} {speed[player]:>10,.1f}")
        out(f"{'':>8} {threads:>7} hybrid is {speed['hybrid'] / speed['pimc']:.1f}x as fast as pimc")


def decision_times(out, n_deals: int) -> None:
    bots = {name: bs.Bot(name, worlds=20) for name in ("hybrid", "pimc")}
    hard = bs.Bot("hard")
    times = {name: {"all": [], "lead": []} for name in bots}
    nodes = []
    rng = random.Random(3)
    for deal in range(n_deals + 1):  # the first deal warms up
        state = random_deal(rng, bs.Contract(deal % 6), bs.BULGARIAN)
        while not state.is_over:
            legal = state.legal_mask()
            if legal & (legal - 1):
                for name, bot in bots.items():
                    t0 = time.perf_counter()
                    bot.play(state)
                    seconds = time.perf_counter() - t0
                    if deal:
                        times[name]["all"].append(seconds)
                        if not state.plays:
                            times[name]["lead"].append(seconds)
                if deal and state.trick_number >= SEARCH_FROM_TRICK:
                    nodes.append(int(bots["hybrid"]._scratch[SP_NODES]))
            state.play(hard.play(state))
    out(f"\none decision with a choice through Bot.play, one thread, {len(times['pimc']['all'])} decisions of "
        f"{n_deals} deals played by hard (random contracts, 20 layouts), milliseconds")
    out(f"{'player':>8} {'median':>8} {'p99':>8} {'worst':>8} {'lead median':>12}")
    for name, t in times.items():
        ms = np.array(t["all"]) * 1e3
        out(f"{name:>8} {np.median(ms):>8.3f} {np.percentile(ms, 99):>8.3f} {ms.max():>8.3f} "
            f"{np.median(t['lead']) * 1e3:>12.3f}")
    nodes = np.array(nodes)
    out(f"hybrid's searches (trick {SEARCH_FROM_TRICK + 1} on): solver nodes median {np.median(nodes):,.0f}, "
        f"p99 {np.percentile(nodes, 99):,.0f}, worst {nodes.max():,} (budget {NODE_BUDGET:,})")


def tournaments(n: int, out) -> None:
    out(f"\nduplicate tournaments with heuristic auctions, {n:,} deals each (seed 0, 20 layouts; void deals count 0)")
    out(f"{'a vs b':>18} {'edge':>8} {'95% interval':>18} {'seconds':>8}")
    for b in OPPONENTS:
        t0 = time.perf_counter()
        row = bs.tournament("hybrid", b, n, bidders="heuristic", seed=0).table.loc["all"]
        out(f"{'hybrid vs ' + b:>18} {row.mean_edge:>+8.2f} [{row.ci_low:+.2f}, {row.ci_high:+.2f}] "
            f"{time.perf_counter() - t0:>8.0f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4000, help="deals of each tournament (default 4000; 0: none)")
    parser.add_argument("--decision-deals", type=int, default=40, help="deals of the decision times (default 40)")
    parser.add_argument("--record", action="store_true", help="add the result to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    if args.deals < 0 or args.decision_deals < 1:
        parser.error("--deals must be 0 or more and --decision-deals at least 1")
    out = Tee()
    out(environment())
    rates([1, 2] if numba.config.NUMBA_NUM_THREADS >= 2 else [1], out)
    decision_times(out, args.decision_deals)
    if args.deals:
        tournaments(args.deals, out)
    if args.record:
        record("benchmarks/hybrid.py", out.text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
