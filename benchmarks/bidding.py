"""Speed of auctions, bid estimates and whole matches (issue targets in brackets).

Run: ``python benchmarks/bidding.py [--repeat 3] [--samples 1000]``.  Each workload is run once to
compile (or load the cache), then timed ``--repeat`` times; the best time is reported.

* ``simulate`` with ``heuristic`` bidders and ``hard`` players, deals/s [>= 50 k on 2 threads];
* ``simulate`` with ``mc`` bidders (default options: 32 consistent layouts per judged call, played
  by ``hard``) and ``hard`` players, deals/s [>= 2,000 on 2 threads];
* ``simulate`` with ``heuristic`` and with ``neural`` bidders, ``neural`` players, deals/s side by side
  [the neural bidder >= 10,000 on 2 threads];
* ``bid_table`` of a 5-card hand, all six bulgarian contracts x ``--samples`` layouts, seconds,
  with ``hard`` play [<= 1 s], ``neural`` play (the estimates' default) [<= 1 s] and ``dd`` play [<= 5 s];
* ``estimate_bid`` (hearts) and ``bid_table`` after the auction ``"PC"`` (seat 2, dealer 3: a pass,
  then clubs), ``--samples`` accepted layouts under the ``heuristic`` model, ``hard`` play, seconds
  [<= 0.5 s and <= 1 s], with the acceptance rate (about 6 %: a typical auction; docs/bidding.md
  gives the spread over the auctions of played deals);
* ``simulate_matches``: 10 000 matches to 151, heuristic bidders, random players, seconds [< 60 s].
"""

from __future__ import annotations

import argparse
import sys
import time

import numba

import belot_sim as bs
from belot_sim.cli.common import positive_int
from report import Tee, environment, record

HAND = "JH 9H AH KS 7C"


def best_seconds(fn, repeat: int) -> float:
    fn()  # warm-up: compile / load the cache
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=positive_int, default=3, help="timed runs per workload (best is kept)")
    parser.add_argument("--samples", type=positive_int, default=1000,
                        help="layouts per bid-table contract (default 1000)")
    parser.add_argument("--deals", type=positive_int, default=400_000, help="deals for the heuristic auction run")
    parser.add_argument("--matches", type=positive_int, default=10_000, help="matches for the match run")
    parser.add_argument("--record", action="store_true", help="add the result to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    out = Tee()
    out(environment())

    out(f"{numba.config.NUMBA_NUM_THREADS} threads, best of {args.repeat}")
    rows = []
    n = args.deals
    t = best_seconds(lambda: bs.simulate(n, bidders="heuristic", players="hard", seed=1), args.repeat)
    rows.append(("simulate, heuristic bidders + hard players", f"{n / t:,.0f} deals/s", ">= 50,000 deals/s"))
    n_mc = max(1, n // 100)
    t = best_seconds(lambda: bs.simulate(n_mc, bidders="mc", players="hard", seed=1), args.repeat)
    rows.append(("simulate, mc bidders (32 layouts, hard) + hard players", f"{n_mc / t:,.0f} deals/s",
                 ">= 2,000 deals/s"))
    n_neural = max(1, n // 10)
    for bidders in ("heuristic", "neural"):
        t = best_seconds(lambda b=bidders: bs.simulate(n_neural, bidders=b, players="neural", seed=1), args.repeat)
        rows.append((f"simulate, {bidders} bidders + neural players", f"{n_neural / t:,.0f} deals/s",
                     ">= 10,000 deals/s" if bidders == "neural" else "(the same deals' play alone)"))
    for players, target in (("hard", "<= 1 s"), ("neural", "<= 1 s"), ("dd", "<= 5 s")):
        t = best_seconds(lambda p=players: bs.bid_table(HAND, samples=args.samples, players=p, seed=1),
                         args.repeat if players == "hard" else 1)
        rows.append((f"bid_table {HAND!r}, 6 contracts x {args.samples:,}, {players} play", f"{t:.2f} s", target))
    auction = dict(seat=2, dealer=3, auction="PC", players="hard", samples=args.samples, seed=1)
    t = best_seconds(lambda: bs.estimate_bid(HAND, "H", **auction), args.repeat)
    rate = bs.estimate_bid(HAND, "H", **auction).acceptance
    rows.append((f"estimate_bid {HAND!r} H after 'PC', {args.samples:,} layouts (acceptance {rate:.1%}), hard",
                 f"{t:.3f} s", "<= 0.5 s"))
    t = best_seconds(lambda: bs.bid_table(HAND, **auction), args.repeat)
    rows.append((f"bid_table {HAND!r} after 'PC', 5 contracts x {args.samples:,} and every call valued, hard",
                 f"{t:.3f} s", "<= 1 s"))
    m = args.matches
    t = best_seconds(lambda: bs.simulate_matches(m, bidders="heuristic", players="random", seed=1), args.repeat)
    rows.append((f"simulate_matches {m:,} matches to 151, heuristic bidders, random play", f"{t:.2f} s", "< 60 s"))

    width = max(len(r[0]) for r in rows)
    out(f"{'workload':<{width}}  {'measured':>16}  target")
    for name, value, target in rows:
        out(f"{name:<{width}}  {value:>16}  {target}")
    if args.record:
        record("benchmarks/bidding.py", out.text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
