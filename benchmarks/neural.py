"""The ``neural`` player measured beside ``hard`` and ``pimc`` in one run: deals/s, a decision's median
time through ``Bot``, and duplicate edges with 95 % intervals.

    python benchmarks/neural.py                       # speeds and the duplicate ladder, 4,000 deals
    python benchmarks/neural.py --deals 1000 --searching-deals 300 --record

Deals/s: ``simulate(n, players=p, bidders="heuristic", threads=t)`` after a warm-up, every player on
the same deals in one process.  A decision: ``Bot(p).play(state)`` from Python on the decisions with a
choice of deals played by ``hard`` (one thread; the median over the decisions).  Duplicate edges:
``tournament(a, b, n)`` with ``heuristic`` auctions and with random contracts (seed 6); against the
searching players on ``--searching-deals`` deals (they play 10-20 deals/s).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

import numba

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

import belot_sim as bs  # noqa: E402
from helpers import random_deal  # noqa: E402
from belot_sim.engine.registry import SEARCH_PLAYERS  # noqa: E402
from report import Tee, environment, record, timed  # noqa: E402

#: Deals per timed run, by player.
DEALS = {"hard": 200_000, "neural": 100_000, "pimc": 60}
LADDER = (("neural", "hard"), ("pimc", "hard"), ("pimc", "neural"), ("expert", "neural"))


def rates(threads_list, out) -> None:
    out("simulate with heuristic auctions (every seat bids heuristic), all four seats one player, deals/s")
    out(f"{'player':>10} {'threads':>7} {'deals/s':>12}")
    for threads in threads_list:
        for player, n in DEALS.items():
            bs.simulate(4, players=player, bidders="heuristic", threads=threads, seed=99)  # warm-up
            seconds = timed(lambda p=player, n=n, t=threads: bs.simulate(n, players=p, bidders="heuristic",
                                                                         threads=t, seed=1))
            out(f"{player:>10} {threads:>7} {n / seconds:>12,.1f}")


def decision_times(out, n_deals: int = 40) -> None:
    bots = {name: bs.Bot(name, worlds=20) for name in DEALS}
    times = {name: [] for name in DEALS}
    rng = random.Random(3)
    for deal in range(n_deals + 1):  # the first deal warms up
        state = random_deal(rng, bs.Contract(deal % 6), bs.BULGARIAN)
        while not state.is_over:
            legal = state.legal_mask()
            if legal & (legal - 1):
                for name, bot in bots.items():
                    t0 = time.perf_counter()
                    bot.play(state)
                    if deal:
                        times[name].append(time.perf_counter() - t0)
            state.play(bots["hard"].play(state))
    out(f"\none decision with a choice through Bot.play, one thread, {len(times['hard'])} decisions of {n_deals} "
        "deals played by hard (pimc: 20 layouts)")
    out(f"{'player':>10} {'median':>12} {'mean':>12}")
    for name, ts in times.items():
        out(f"{name:>10} {statistics.median(ts) * 1e6:>9.1f} µs {statistics.fmean(ts) * 1e6:>9.1f} µs")


def ladder(n: int, searching_n: int, out) -> None:
    for bidders, what in (("heuristic", "heuristic auctions (void deals count 0)"),
                          (None, "random contract and declarer")):
        out(f"\nduplicate edges, raw points per deal, {what}, seed 6")
        out(f"{'a vs b':>20} {'deals':>6} {'edge':>8} {'95% interval':>18}")
        for a, b in LADDER:
            if bidders is None and "expert" in (a, b):
                continue  # expert reads the auction: without one it is pimc
            deals = searching_n if {a, b} & set(SEARCH_PLAYERS) else n
            row = bs.tournament(a, b, deals, bidders=bidders, seed=6, worlds=20).table.loc["all"]
            out(f"{a + ' vs ' + b:>20} {deals:>6} {row.mean_edge:>+8.2f} [{row.ci_low:+.2f}, {row.ci_high:+.2f}]")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4000, help="deals of each tournament of fast players (4000)")
    parser.add_argument("--searching-deals", type=int, default=1000,
                        help="deals of each tournament with a searching player (1000)")
    parser.add_argument("--no-speed", action="store_true", help="only the tournaments")
    parser.add_argument("--record", action="store_true", help="add the result to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.searching_deals < 1:
        parser.error("--deals and --searching-deals must be at least 1")
    out = Tee()
    out(environment())
    if not args.no_speed:
        rates([1, 2] if numba.config.NUMBA_NUM_THREADS >= 2 else [1], out)
        decision_times(out)
    ladder(args.deals, args.searching_deals, out)
    if args.record:
        record("benchmarks/neural.py", out.text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
