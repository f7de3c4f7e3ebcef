"""Speed of every player, side by side with ``pimc`` as it was at another commit, and (optionally) the
duplicate tournaments of the ladder.

    python benchmarks/players.py                          # deals/s and decision times, base 6f5fb94
    python benchmarks/players.py --tournaments 2000       # also the ladder's duplicate matches
    python benchmarks/players.py --base 6f5fb94 --record

Deals/s: ``simulate(n, players=p, threads=t)`` with the same seat in all four places and a random
contract and declarer per deal, timed once after a warm-up, the baseline's ``pimc`` on the same deals
alternating with the current players.  Decision time: the median time of one decision from Python
(the kernels called directly on positions of deals played by ``hard``, one thread, after a warm-up),
with its 99th percentile; ``benchmarks/hybrid.py`` measures ``hybrid`` against its targets.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

import numba
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

import belot_sim as bs  # noqa: E402
from baseline import load_baseline  # noqa: E402
from helpers import fresh_view, play_card, random_deal  # noqa: E402
from report import Tee, environment, record, timed  # noqa: E402

from belot_sim.kernels.core.layouts import SCRATCH_SIZE, SP_WORLDS, SW_RNG  # noqa: E402
from belot_sim.kernels.solver.api import new_ctx  # noqa: E402
from belot_sim.kernels.players.judging import choose_card  # noqa: E402
from belot_sim.kernels.players.dd_player import pimc_card, pimc_exact_card  # noqa: E402
from belot_sim.kernels.players.hybrid import hybrid_card  # noqa: E402
from belot_sim.kernels.players.pimc import NO_BUDGET, UNIFORM_LAYOUTS  # noqa: E402
from belot_sim.engine.registry import PLAYER_CODES  # noqa: E402
from belot_sim.simulation.deals import deal_blocks  # noqa: E402
from belot_sim.engine.stats import mean_interval  # noqa: E402
from belot_sim.simulation.tournament import duplicate_edges, duplicate_plans  # noqa: E402

#: Deals per timed run, by player (the searching players cost milliseconds to a tenth of a second a deal).
DEALS = {"random": 1_000_000, "easy": 500_000, "normal": 250_000, "hard": 250_000, "dd": 400, "pimc": 60,
         "pimc-exact": 24, "hybrid": 1_000}
LADDER = (("pimc", "pimc-exact"), ("pimc", "hard"), ("pimc-exact", "hard"), ("hard", "normal"), ("normal", "easy"),
          ("easy", "random"), ("dd", "hard"))
#: With auctions (every seat bids as ``heuristic``): ``expert`` reads them, the others do not.
AUCTION_LADDER = (("expert", "pimc"), ("expert", "hard"), ("pimc", "hard"))
AUCTION_DEALS = 60


def rates(old, threads_list, out) -> None:
    out(f"{'player':>14} {'threads':>7} {'deals/s':>12}")
    for player, n in DEALS.items():
        for threads in threads_list:
            bs.simulate(4, players=player, threads=threads, seed=99)  # warm-up
            seconds = timed(lambda p=player, n=n, t=threads: bs.simulate(n, players=p, threads=t, seed=1))
            out(f"{player:>14} {threads:>7} {n / seconds:>12,.1f}")
            if player == "pimc":
                old.simulate(4, players="pimc", threads=threads, seed=99)
                base = timed(lambda t=threads, n=n: old.simulate(n, players="pimc", threads=t, seed=1))
                out(f"{'pimc (base)':>14} {threads:>7} {n / base:>12,.1f}   (the same deals) -> pimc is "
                    f"{base / seconds:.2f}x as fast")
    out("with heuristic auctions (void deals are not played), deals/s")
    for player in ("pimc", "expert"):
        for threads in threads_list:
            bs.simulate(4, players=player, bidders="heuristic", threads=threads, seed=99)  # warm-up
            seconds = timed(lambda p=player, t=threads: bs.simulate(AUCTION_DEALS, players=p, bidders="heuristic",
                                                                    threads=t, seed=1))
            out(f"{player:>14} {threads:>7} {AUCTION_DEALS / seconds:>12,.1f}")


def decision_times(out, n_deals: int = 30) -> None:
    """Median time of one decision from Python, on positions of deals played by ``hard``."""
    ctx = new_ctx(2)
    tt = np.zeros(2 << 16, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    scratch[SP_WORLDS] = 20
    scratch[SW_RNG] = 7
    kernels = {"pimc": lambda *args: pimc_card(*args, UNIFORM_LAYOUTS, NO_BUDGET), "pimc-exact": pimc_exact_card,
               "hybrid": hybrid_card}
    times = {name: [] for name in ("hard", *kernels)}
    rng = random.Random(3)
    for deal in range(n_deals + 1):  # the first deal warms up
        state = random_deal(rng, bs.Contract(deal % 6), bs.BULGARIAN)
        view = fresh_view(state)
        while not state.is_over:
            seat, legal = state.to_move, np.int64(state.legal_mask())
            hand = np.int64(state.hands[seat])
            if legal & (legal - 1):
                t0 = time.perf_counter()
                card = int(choose_card(PLAYER_CODES["hard"], legal, np.uint64(0), hand, seat, view, 0))
                hard = time.perf_counter() - t0
                if deal:
                    times["hard"].append(hard)
                for name, kernel in kernels.items():
                    t0 = time.perf_counter()
                    kernel(legal, np.uint64(deal), hand, seat, view, 0, ctx, tt, scratch)
                    if deal:
                        times[name].append(time.perf_counter() - t0)
            else:
                card = int(np.log2(int(legal)))
            play_card(state, view, card)
    out(f"\none decision with a choice, from Python, one thread, {len(times['hard'])} decisions of {n_deals} deals "
        "played by hard (20 layouts)")
    out(f"{'player':>14} {'median':>10} {'mean':>10} {'p99':>10}")
    for name, ts in times.items():
        out(f"{name:>14} {statistics.median(ts) * 1e3:>8.3f} ms {statistics.fmean(ts) * 1e3:>8.3f} ms "
            f"{np.percentile(ts, 99) * 1e3:>8.3f} ms")


def tournaments(n: int, out) -> None:
    out(f"\nduplicate tournaments, {n:,} deals each (random contract and declarer, seed 6, 20 layouts)")
    out(f"{'a vs b':>24} {'edge':>8} {'95% interval':>18}")
    for a, b in LADDER:
        row = bs.tournament(a, b, n, seed=6).table.loc["all"]
        out(f"{a + ' vs ' + b:>24} {row.mean_edge:>+8.2f} [{row.ci_low:+.2f}, {row.ci_high:+.2f}]")
    auction_tournaments(n, out)


def auction_tournaments(n: int, out, start: int = 0, ladder=AUCTION_LADDER) -> None:
    """The ladder steps with auctions, and ``expert``'s and ``pimc``'s edges over ``hard`` compared
    deal by deal (the same deals)."""
    out(f"with heuristic auctions (every seat bids as heuristic; void deals count as 0), seed 6, {n:,} deals "
        f"each from deal {start:,}")
    edges = {}
    for a, b in ladder:
        first, second = duplicate_plans(a, b, rules="bulgarian", contract=None, declarer=None, bidders="heuristic",
                                        seed=6, worlds=20, bidder_options=None)
        edge = np.concatenate([duplicate_edges(first, second, start + offset, size)[0]
                               for offset, size in deal_blocks(first, n)])
        edges[a, b] = edge
        mean, low, high = mean_interval(edge)
        out(f"{a + ' vs ' + b:>24} {mean:>+8.2f} [{low:+.2f}, {high:+.2f}]")
    mean, low, high = mean_interval(edges["expert", "hard"] - edges["pimc", "hard"])
    out(f"{'expert - pimc, vs hard':>24} {mean:>+8.2f} [{low:+.2f}, {high:+.2f}]   (paired by deal)")


def count_or_zero(text: str) -> int:
    """``--tournaments``: an integer >= 0 (0: no ladder), else a usage error before any warm-up."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {value}")
    return value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="6f5fb94", help="the commit whose pimc is timed alongside (6f5fb94)")
    parser.add_argument("--tournaments", type=count_or_zero, default=0,
                        help="also play the ladder with this many deals")
    parser.add_argument("--record", action="store_true", help="add the result to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    out = Tee()
    out(environment())
    old = load_baseline(args.base)
    threads_list = [1, 2] if numba.config.NUMBA_NUM_THREADS >= 2 else [1]
    out(f"simulate, all four seats one player, random contract and declarer, deals/s (base: {args.base})")
    rates(old, threads_list, out)
    decision_times(out)
    if args.tournaments:
        tournaments(args.tournaments, out)
    if args.record:
        record("benchmarks/players.py", out.text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
