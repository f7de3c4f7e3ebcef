"""``belot-sim tournament``: a duplicate tournament between two players."""

from __future__ import annotations

import argparse
import time

from .common import (add_contract, add_rules, add_run_options, player_name, positive_int, progress_of, rules_of,
                     write_csv)


def add_parser(sub) -> None:
    tour = sub.add_parser("tournament", help="duplicate tournament between two players",
                          description="Every deal is played twice on the same cards with the teams' seats "
                                      "swapped; prints the mean raw-point edge of A over B per contract with a "
                                      "95% confidence interval.")
    tour.add_argument("a", type=player_name, help="player A (seats 0/2 in the first play): random, easy, normal, "
                                                   "hard, pimc or dd")
    tour.add_argument("b", type=player_name, help="player B")
    tour.add_argument("-n", type=positive_int, default=30_000, help="duplicate deals (default 30,000)")
    add_rules(tour)
    add_contract(tour)
    tour.add_argument("--csv", help="also write the table to this CSV file")
    add_run_options(tour)
    tour.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..simulation import simulate
    from ..tournament import format_tournament, tournament

    rules = rules_of(args)
    simulate(1, rules=rules, players=(args.a, args.b, args.a, args.b))  # compile or load the cache first
    start = time.perf_counter()
    table = tournament(args.a, args.b, args.n, rules=rules, contract=args.contract, seed=args.seed,
                       threads=args.threads, progress=progress_of(args), worlds=args.worlds)
    elapsed = time.perf_counter() - start
    print(format_tournament(table))
    print(f"{2 * args.n / elapsed:,.0f} deals/s ({elapsed:.2f} s for {2 * args.n:,} deals)")
    write_csv(table, args.csv)
    return 0
