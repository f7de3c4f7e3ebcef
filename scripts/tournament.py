"""The player ladder: random < easy < normal < hard, by duplicate tournaments.

Run: ``python scripts/tournament.py [--n 30000] [--rules bulgarian] [--csv ladder.csv]``.
Prints each step of the ladder per contract with 95% intervals, and whether it holds
(every interval above zero). Exits 0 when it holds, 1 when a step does not, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import sys

import pandas as pd

import belot_sim as bs
from belot_sim.engine.io import write_csv_atomically
from belot_sim.simulation.deals import MAX_DEALS

from gallery_common import PRESETS, at_most, output_file, run, seed_int

LADDER = [("easy", "random"), ("normal", "easy"), ("hard", "normal")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=at_most(MAX_DEALS), default=30_000,
                        help="duplicate deals per pair (default 30,000)")
    parser.add_argument("--rules", default="bulgarian", choices=PRESETS, help="rule preset (default bulgarian)")
    parser.add_argument("--seed", type=seed_int, default=0, help="random seed (default 0)")
    parser.add_argument("--csv", type=output_file, help="write all steps to this CSV file")
    args = parser.parse_args(argv)

    tables = []
    holds = True
    for a, b in LADDER:
        result = bs.tournament(a, b, args.n, rules=args.rules, seed=args.seed)
        print(result, end="\n\n")
        table = result.table
        holds &= bool((table["ci_low"] > 0).all())
        tables.append(table.assign(a=a, b=b).reset_index())
    print("ladder holds in every contract" if holds else "ladder does NOT hold everywhere (see intervals above)")
    if args.csv:
        write_csv_atomically(pd.concat(tables, ignore_index=True), args.csv, index=False)
        print(f"wrote {args.csv}")
    return 0 if holds else 1


if __name__ == "__main__":
    sys.exit(run(main))
