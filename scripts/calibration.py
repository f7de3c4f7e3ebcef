"""Calibration of the bid estimates: reliability tables, Brier scores and a reliability diagram.

Run: ``python scripts/calibration.py [--n 3000] [--samples 200] [--player neural] [--dd-n 600]
[--dd-samples 60] [--seed 1] [--png docs/calibration.png] [--csv calibration.csv]``.

Plays ``--n`` bulgarian deals (``heuristic`` auctions, ``--player`` play: by default ``neural``, the bid
estimates' default player) and asks :func:`belot_sim.estimates.calibration` for the contract played on each,
four ways: the auction-aware estimate (layouts consistent with the whole auction under the ``heuristic``
model) and the uniform one (the auction ignored), each with ``--player`` estimate players (the players of the
deals: the calibration that matters) and with ``dd`` (double-dummy: perfect information, so it is expected to
be optimistic for whoever holds the stronger combined hands). ``dd`` estimates cost about 0.5 ms per layout,
so they run on the first ``--dd-n`` deals with ``--dd-samples`` layouts each. Prints each reliability table
and Brier score, the difference of the auction-aware and uniform Brier scores on the same deals with its 95 %
interval (paired over the deals), and draws the four runs in one diagram (``--png``; needs matplotlib, the
``plot`` extra); ``--csv`` keeps every deal's predictions (written first).
"""

from __future__ import annotations

import argparse
import sys
import time

import pandas as pd

import belot_sim as bs
from belot_sim.estimates.calibration import MAX_CALIBRATION_SAMPLES, reliability_diagram
from belot_sim.engine.io import write_csv_atomically
from belot_sim.engine.registry import DEFAULT_BID_PLAYERS
from belot_sim.simulation.deals import MAX_DEALS
from belot_sim.engine.stats import mean_interval

from gallery_common import at_most, output_file, run, seed_int


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=at_most(MAX_DEALS), default=3000,
                        help="deals for the --player estimates (default 3,000)")
    parser.add_argument("--samples", type=at_most(MAX_CALIBRATION_SAMPLES), default=200,
                        help="layouts per --player estimate (default 200)")
    parser.add_argument("--player", default=DEFAULT_BID_PLAYERS, type=str.lower, choices=sorted(bs.PLAYERS),
                        help=f"the player of the deals and of their estimates (default {DEFAULT_BID_PLAYERS})")
    parser.add_argument("--dd-n", type=at_most(MAX_DEALS), default=600, help="deals for the dd estimates (default 600)")
    parser.add_argument("--dd-samples", type=at_most(MAX_CALIBRATION_SAMPLES), default=60,
                        help="layouts per dd estimate (default 60)")
    parser.add_argument("--seed", type=seed_int, default=0, help="random seed (default 0)")
    parser.add_argument("--png", type=output_file, help="write the reliability diagram to this PNG file")
    parser.add_argument("--csv", type=output_file, help="write each deal's predictions of the four runs to this CSV")
    args = parser.parse_args(argv)
    runs = []
    for players, n, samples in ((args.player, args.n, args.samples), ("dd", args.dd_n, args.dd_samples)):
        for method in ("auction", "uniform"):
            started = time.perf_counter()
            result = bs.calibration(n, bidders="heuristic", players=args.player, estimate_players=players,
                                    samples=samples, seed=args.seed, method=method)
            print(f"{result}\n({time.perf_counter() - started:.0f} s; mean acceptance "
                  f"{(result.deals['accepted'] / result.deals['tried']).mean():.1%})\n", flush=True)
            runs.append(result)
        both = runs[-2].deals.merge(runs[-1].deals, on="deal_id", suffixes=("_a", "_u"))  # deals both kept
        made = both["made_a"].to_numpy(float)
        gap = (both["p_made_a"].to_numpy() - made) ** 2 - (both["p_made_u"].to_numpy() - made) ** 2
        mean, low, high = mean_interval(gap)
        print(f"{players} estimates: Brier(auction) - Brier(uniform) = {mean:+.4f} [{low:+.4f}, {high:+.4f}] "
              f"over the same {len(gap):,} deals\n", flush=True)
    if args.csv:
        frames = [r.deals.assign(method=r.method, estimate_players=r.settings["estimate_players"]) for r in runs]
        write_csv_atomically(pd.concat(frames, ignore_index=True), args.csv, index=False)
        print(f"wrote {args.csv}")
    if args.png:
        path = reliability_diagram(runs, args.png, title=f"bid estimates vs outcomes, heuristic auctions, "
                                                         f"{args.player} play (seed {args.seed})")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
