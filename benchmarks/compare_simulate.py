"""``simulate`` against its code at another commit, in one process: identical rows, and the ratio of
the times.

    python benchmarks/compare_simulate.py 6f5fb94                       # random play, 2 M deals x 5
    python benchmarks/compare_simulate.py 6f5fb94 --players hard --n 500000 --threads 1
    python benchmarks/compare_simulate.py 6f5fb94 --players pimc --n 24
    python benchmarks/compare_simulate.py 7bf0a4d --players hard --bidders heuristic --n 500000
    python benchmarks/compare_simulate.py 537f22b --estimate --players dd --n 300

``--estimate`` times the auction-aware ``estimate_bid`` of ``benchmarks/bidding.py`` instead (``JH 9H
AH KS 7C``, hearts by seat 2 after the auction ``"PC"``, dealer 3, heuristic bidders; ``--n``
accepted layouts, played by ``--players``).

Both packages are loaded side by side (``benchmarks/baseline.py``) and called alternately
(``--rounds`` times each, which goes first alternating), after a warm-up; the frames must be
equal.  Reported: the best and the total time of each, and current / baseline.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time

import pandas as pd

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import belot_sim as bs  # noqa: E402
from baseline import load_baseline  # noqa: E402
from belot_sim.cli.common import positive_int  # noqa: E402
from report import Tee, environment, record  # noqa: E402


HAND = "JH 9H AH KS 7C"


def _estimate(package):
    """``package``'s auction-aware estimate of ``--estimate``, called as ``fn(n, **kwargs)``."""
    return lambda n, **kwargs: package.estimate_bid(HAND, "H", seat=2, dealer=3, auction="PC", samples=n, **kwargs)


def _check_estimates(a, b):
    """Equal estimates: every field and the rows of their layouts (the two packages' classes differ, so
    ``==`` would not do)."""
    names = [f.name for f in dataclasses.fields(a) if f.compare]
    assert [getattr(a, n) for n in names] == [getattr(b, n) for n in names], (a, b)
    pd.testing.assert_frame_equal(a.frame, b.frame)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the commit to compare with (e.g. 6f5fb94)")
    parser.add_argument("--n", type=positive_int, default=2_000_000, help="deals per call (default 2,000,000)")
    parser.add_argument("--players", default="random", help="player of every seat (default random)")
    parser.add_argument("--contract", default="random", help="contract (default random per deal)")
    parser.add_argument("--bidders", default=None,
                        help="bidder of every seat: the contract comes from an auction (default none)")
    parser.add_argument("--threads", type=int, default=None, help="Numba threads (default all)")
    parser.add_argument("--rounds", type=positive_int, default=5, help="timed calls of each package (default 5)")
    parser.add_argument("--estimate", action="store_true",
                        help="time the auction-aware estimate_bid of benchmarks/bidding.py instead")
    parser.add_argument("--record", action="store_true", help="add the result to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    out = Tee()
    out(environment())
    old = load_baseline(args.base)
    if args.estimate:
        kwargs = dict(players=args.players, threads=args.threads, seed=7)
        runs = {"current": _estimate(bs), args.base: _estimate(old)}
        call = f"estimate_bid({HAND!r}, 'H', seat=2, dealer=3, auction='PC', samples={args.n:,}"
        check = _check_estimates
    else:
        kwargs = dict(players=args.players, threads=args.threads, seed=7,
                      **({"bidders": args.bidders} if args.bidders else {"contract": args.contract}))
        runs = {"current": bs.simulate, args.base: old.simulate}
        source = f"bidders={args.bidders!r}" if args.bidders else f"contract={args.contract!r}"
        call = f"simulate({args.n:,}, {source}"
        check = pd.testing.assert_frame_equal
    for fn in runs.values():
        fn(min(args.n, 1000), **kwargs)  # compile / load the caches
    times = {name: [] for name in runs}
    frames = {}
    for r in range(args.rounds):
        order = list(runs) if r % 2 == 0 else list(runs)[::-1]
        for name in order:
            t0 = time.perf_counter()
            frames[name] = runs[name](args.n, **kwargs)
            times[name].append(time.perf_counter() - t0)
        check(frames["current"], frames[args.base])
    out(f"{call}, players={args.players!r}, threads={args.threads}), {args.rounds} alternating calls each, "
        f"one process; results identical")
    out(f"{'code':>12} {'best s':>9} {'total s':>9} {'deals/s (best)':>15}")
    for name, ts in times.items():
        out(f"{name:>12} {min(ts):>9.3f} {sum(ts):>9.3f} {args.n / min(ts):>15,.0f}")
    base = args.base
    out(f"current / {base}: best {min(times['current']) / min(times[base]):.3f}, "
        f"total {sum(times['current']) / sum(times[base]):.3f}")
    if args.record:
        record("benchmarks/compare_simulate.py", out.text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
