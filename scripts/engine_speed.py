"""How fast is the engine on this machine?

Question: deals per second of ``bs.simulate`` for every card player against the number of
threads, and how long the exact solver takes on a whole deal.

Method: each player is warmed up first (compiled or loaded from Numba's cache, not timed), then
``--n`` deals (a share of them for the searching players, ``--search-share``) are timed
``--repeat`` times at each thread count from 1 to ``--threads`` (default: all cores); the best
time counts, DataFrame building included.  The solver: ``bs.solve`` of the first trick's
position of ``--solves`` random deals (random contract and declarer), each call timed on its
own.  The date, commit, CPU and versions are printed and written to ``environment.csv``
(the line ``benchmarks/report.py`` prints); on a machine shared with other work the figures
are lower bounds.

Figures: ``throughput`` — deals/s per player (log scale) against threads; ``solver_times`` —
the distribution of the solver's time per deal on a log scale, with the median and the 99th
percentile marked.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import numba
import numpy as np
import pandas as pd

import belot_sim as bs
import gallery_common as gallery

PLAYERS = ("random", "easy", "normal", "hard", "dd", "pimc")
SEARCHING = {"dd": 1 / 500, "pimc": 1 / 20_000}  # default share of --n: each takes about as long as hard's n
REPORT = Path(__file__).resolve().parent.parent / "benchmarks" / "report.py"


def environment() -> str:
    """The benchmarks' environment line (date, commit, CPU, versions) when the repository has it."""
    if REPORT.exists():
        spec = importlib.util.spec_from_file_location("belot_benchmark_report", REPORT)
        report = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(report)
        return report.environment()
    return f"belot_sim {bs.__version__}, numba {numba.__version__}"  # pragma: no cover - installed copy


def best_time(n: int, repeat: int, **kwargs) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        bs.simulate(n, **kwargs)
        best = min(best, time.perf_counter() - start)
    return best


def throughput(args) -> pd.DataFrame:
    rows = []
    most = args.threads or numba.config.NUMBA_NUM_THREADS
    for player in PLAYERS:
        share = args.search_share if player in SEARCHING and args.search_share else SEARCHING.get(player, 1)
        n = max(2, round(args.n * share))
        common = dict(players=player, rules=args.rules, seed=args.seed)
        bs.simulate(min(n, 64), **common)  # warm-up: compile or load the kernels
        for threads in range(1, most + 1):
            seconds = best_time(n, args.repeat, threads=threads, **common)
            rows.append({"player": player, "threads": threads, "deals": n, "seconds": seconds,
                         "deals_per_s": n / seconds})
            print(f"  {player:>6} {threads} thread(s): {n / seconds:,.0f} deals/s", flush=True)
    return pd.DataFrame(rows)


def solver_times(args) -> pd.DataFrame:
    deals = bs.simulate(args.solves, rules=args.rules, seed=args.seed + 1)
    first = deals.iloc[0]
    bs.solve([first[f"hand{s}"] for s in range(4)], first["contract"], leader=0, rules=args.rules)  # warm-up
    rows = []
    for row in deals.itertuples(index=False):
        hands = [row.hand0, row.hand1, row.hand2, row.hand3]
        leader = (row.dealer + 1) % 4  # the first speaker leads the first trick
        start = time.perf_counter()
        value = bs.solve(hands, row.contract, leader=leader, rules=args.rules)
        rows.append({"deal_id": row.deal_id, "contract": row.contract, "value": value,
                     "ms": 1000 * (time.perf_counter() - start)})
    return pd.DataFrame(rows)


def draw_throughput(plt, table: pd.DataFrame, title: str):
    fig, ax = plt.subplots(figsize=gallery.FIGSIZE, layout="constrained")
    for player, part in table.groupby("player", sort=False):
        ax.plot(part["threads"], part["deals_per_s"], "o-", label=player)
    ax.set_yscale("log")
    ax.set_xticks(sorted(set(table["threads"])))
    ax.set_xlabel("threads")
    ax.set_ylabel("deals per second")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8, ncols=3)
    ax.grid(which="both", alpha=0.3)
    return fig


def draw_solver(plt, times: pd.DataFrame, title: str):
    fig, ax = plt.subplots(figsize=gallery.FIGSIZE, layout="constrained")
    ms = times["ms"].to_numpy()
    bins = np.logspace(np.log10(ms.min()) - 0.05, np.log10(ms.max()) + 0.05, 40)
    ax.hist(ms, bins=bins, color="#8fb3d9")
    for q, style in ((0.5, "--"), (0.99, ":")):
        value = float(np.quantile(ms, q))
        ax.axvline(value, color="black", linestyle=style, label=f"{'median' if q == 0.5 else 'p99'} {value:.2f} ms")
    ax.set_xscale("log")
    ax.set_xlabel("time to solve a whole deal (ms, log scale)")
    ax.set_ylabel("deals")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = gallery.make_parser(__file__, __doc__, n=1_000_000, n_help="deals per timing of the fast players")
    parser.add_argument("--search-share", type=float, default=None,
                        help="deals of dd and pimc as a share of --n (default 1/500 and 1/20,000)")
    parser.add_argument("--repeat", type=gallery.positive_int, default=2,
                        help="timings per point, the best kept (default 2)")
    parser.add_argument("--solves", type=gallery.positive_int, default=600, help="deals solved exactly (default 600)")
    args = parser.parse_args(argv)
    if args.search_share is not None and not 0 < args.search_share <= 1:
        parser.error("--search-share must be in (0, 1]")
    out = gallery.Output(args)
    command = " ".join(["python scripts/engine_speed.py", *(sys.argv[1:] if argv is None else argv)])
    env = environment()
    print(env, flush=True)
    speed = throughput(args)
    times = solver_times(args)
    out.table(pd.DataFrame([{"environment": env, "rules": args.rules, "command": command}]), "environment")
    out.table(speed, "throughput")
    out.table(times, "solver_times")
    where = ", ".join(env.split(", ")[:3])  # date, commit, CPU
    out.figure("throughput", lambda plt: draw_throughput(plt, speed, f"bs.simulate, {args.rules}\n{where}"))
    out.figure("solver_times", lambda plt: draw_solver(plt, times, f"bs.solve, {len(times):,} deals, {args.rules}\n"
                                                                    f"{where}"))
    rates = speed.pivot(index="player", columns="threads", values="deals_per_s").reindex(list(PLAYERS))
    rates.columns = [f"{t} thread(s), deals/s" for t in rates.columns]
    q = times["ms"].quantile([0.5, 0.9, 0.99]).to_numpy()
    return out.finish(gallery.show(rates.reset_index(), "throughput", 0)
                      + f"\nsolver, {len(times):,} deals: median {q[0]:.2f} ms, p90 {q[1]:.2f} ms, p99 {q[2]:.2f} ms\n")


if __name__ == "__main__":
    sys.exit(gallery.run(main))
