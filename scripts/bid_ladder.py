"""The bidder ladder: random < heuristic < mc, atlas < neural, by duplicate matches between teams (bidder, player).

Run: ``python scripts/bid_ladder.py [--matches 400] [--seed 1] [--players hard neural] [--csv ladder.csv]``.

Each step is :func:`belot_sim.simulation.match_tournament` between the stronger and the weaker bidder, both
teams playing with the same card player, once for each of ``--players`` (default ``hard`` and ``neural``):
every match is played twice on the same cards with the teams' seats swapped. A step holds when the match
win rate has its 95 % interval above 50 % (a bidder plays for matches: the ``neural`` bidder gives points
away where they do not decide one, so its point edge per deal may be negative). Prints
each step's table; exits 0 when every step holds, 1 when one does not, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import sys
import time

import pandas as pd

import belot_sim as bs
from belot_sim.engine.io import write_csv_atomically

from gallery_common import MAX_MATCHES, at_most, output_file, run, seed_int

LADDER = [("heuristic", "random"), ("mc", "heuristic"), ("neural", "heuristic"), ("neural", "mc"),
          ("neural", "atlas")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=at_most(MAX_MATCHES), default=400,
                        help="duplicate matches per step (default 400)")
    parser.add_argument("--seed", type=seed_int, default=0, help="random seed (default 0)")
    parser.add_argument("--players", nargs="+", default=["hard", "neural"], type=str.lower,
                        choices=sorted(bs.PLAYERS), help="the card players of both teams, one ladder each "
                                                         "(default hard neural)")
    parser.add_argument("--csv", type=output_file, help="write every step's table to this CSV file")
    args = parser.parse_args(argv)
    holds, tables = True, []
    for player in args.players:
        for strong, weak in LADDER:
            started = time.perf_counter()
            result = bs.match_tournament((strong, player), (weak, player), args.matches, seed=args.seed)
            row = result.table.loc["all"]
            step = bool(row.win_ci_low > 0.5)
            holds &= step
            print(result)
            print(f"{int(row.deals):,} paired deals; step {strong} > {weak} ({player} cards) "
                  f"{'holds' if step else 'does NOT hold'} ({time.perf_counter() - started:.0f} s)\n", flush=True)
            tables.append(result.table.assign(a=result.a, b=result.b, player=player).reset_index())
    print("the ladder holds" if holds else "the ladder does NOT hold (see above)")
    if args.csv:
        write_csv_atomically(pd.concat(tables, ignore_index=True), args.csv, index=False)
        print(f"wrote {args.csv}")
    return 0 if holds else 1


if __name__ == "__main__":
    sys.exit(run(main))
