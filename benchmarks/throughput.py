"""Throughput report: deals/s of ``simulate`` (random play), side by side with colver.

Run: ``python benchmarks/throughput.py [--n 2000000] [--repeat 3]``.  Every configuration is
warmed up (compiled) first, then timed ``--repeat`` times; the best time is reported.  The
timed call includes building the DataFrame.  When the optional ``compare`` extra is
installed (``pip install -e ".[compare]"``), colver's ``Env.rollout`` is timed on one thread
(colver is single-threaded) and the per-thread ratio is printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc

import numba

from belot_sim.simulation.deals import simulate
from belot_sim.cli.common import positive_int
from report import Tee, environment, record


def best_rate(fn, n: int, repeat: int, warm_up: int = 10_000) -> float:
    fn(min(n, warm_up))  # warm-up: compile / load the cache
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - start)
    return n / best


def peak_bytes_per_million(**kwargs) -> float:
    """Peak Python-visible allocation (numpy + pandas) of a 1 M-deal run, in MB."""
    tracemalloc.start()
    result = simulate(1_000_000, **kwargs)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del result
    return peak / 1e6


def colver_rate(n: int, repeat: int) -> float | None:
    try:
        import colver
    except ImportError:
        return None
    per_deal = 1000

    def run(total: int) -> None:
        for i in range(max(1, total // per_deal)):
            env = colver.Env.deal(dealer=0, seed=i)
            env.set_contract(i % 4, 80, i % 2, 0)  # suit contract, value 80, no coinche
            env.set_phase_playing()
            env.rollout(per_deal)

    return best_rate(run, n, repeat)


def compile_times() -> tuple[float, float]:
    """Seconds for ``import belot_sim`` + a first ``simulate`` in a fresh process: with an empty
    Numba cache (cold) and then with the cache that run left (warm)."""
    code = "import belot_sim as bs; bs.simulate(10, players=('hard', 'normal', 'easy', 'random'))"
    times = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for _ in range(2):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], env=env, check=True)
            times.append(time.perf_counter() - start)
    return times[0], times[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=positive_int, default=2_000_000, help="deals per timed run (default 2,000,000)")
    parser.add_argument("--repeat", type=positive_int, default=3, help="timed runs per configuration (best is kept)")
    parser.add_argument("--no-compile", action="store_true", help="skip the cold/warm compile timing")
    parser.add_argument("--record", action="store_true", help="add the result to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    out = Tee()
    out(environment())

    threads_list = [1, 2] if numba.config.NUMBA_NUM_THREADS >= 2 else [1]
    rows = []
    for contract in ("H", "AT", "NT"):
        for plays in (False, True):
            for threads in threads_list:
                rate = best_rate(lambda k, c=contract, t=threads, p=plays: simulate(k, contract=c, threads=t, plays=p),
                                 args.n, args.repeat)
                rows.append((contract, plays, threads, rate))
    rate_random = {t: best_rate(lambda k, t=t: simulate(k, contract="random", threads=t), args.n, args.repeat)
                   for t in threads_list}
    player_rates = {}
    # "dd plays": the same dd deals with their plays recorded, which plays every card (without
    # plays, a deal with four dd seats is usually one minimax solve: kernels/players/all_dd.py).
    for label, n in (("easy", args.n), ("normal", args.n // 2), ("hard", args.n // 4), ("dd", 400),
                     ("dd plays", 400), ("pimc", 24)):
        player, plays = label.split()[0], label.endswith("plays")
        for t in threads_list:
            searching = player in ("dd", "pimc")
            player_rates[label, t] = best_rate(
                lambda k, p=player, t=t, r=plays: simulate(k, players=p, threads=t, plays=r), n,
                1 if searching else args.repeat, 4 if searching else 10_000)

    out(f"belot_sim simulate, random play, {args.n:,} deals per run, best of {args.repeat} "
          f"(includes the DataFrame), {numba.config.NUMBA_NUM_THREADS} cores available")
    out(f"{'contract':>8} {'plays':>6} {'threads':>7} {'deals/s':>14}")
    for contract, plays, threads, rate in rows:
        out(f"{contract:>8} {str(plays):>6} {threads:>7} {rate:>14,.0f}")
    for t, rate in rate_random.items():
        out(f"{'random':>8} {'False':>6} {t:>7} {rate:>14,.0f}")
    out("\nstrategic players (all four seats), random contract, DataFrame included "
          "(dd: perfect information; pimc: 20 layouts per decision; both timed once)")
    out(f"{'player':>8} {'threads':>7} {'deals/s':>14}")
    for (label, t), rate in player_rates.items():
        out(f"{label:>8} {t:>7} {rate:>14,.0f}")
    out(f"peak memory per 1 M deals: {peak_bytes_per_million(contract='H'):.0f} MB (deals only), "
          f"{peak_bytes_per_million(contract='H', plays=True):.0f} MB (with plays); "
          f"process max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3:.0f} MB")

    colver = colver_rate(min(args.n, 500_000), args.repeat)
    if colver is None:
        out("colver not installed (pip install -e '.[compare]'): no side-by-side ratio")
    else:
        ours = next(rate for c, p, t, rate in rows if c == "H" and not p and t == 1)
        out(f"colver Env.rollout (suit contract, 1 thread): {colver:,.0f} deals/s; "
              f"belot_sim H 1 thread / colver = {ours / colver:.2f}x")
    if not args.no_compile:
        cold, warm = compile_times()
        out(f"import + first simulate in a new process: cold (empty cache) {cold:.1f} s, warm {warm:.1f} s")
    if args.record:
        record("benchmarks/throughput.py", out.text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
