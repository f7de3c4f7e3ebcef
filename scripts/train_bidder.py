"""Train the ``neural`` bidder from the engine's own deals, in one resumable command.

    pip install torch==2.13.0 && pip install -e ".[train]"
    python scripts/train_bidder.py --out runs/bidder --seed 1 --ship

Round 0, then each further round (``--rounds``), every step skipped when its output is already there (a
stopped run resumes where it stopped):

1. **Data**: shards of ``--deals`` bulgarian deals whose auctions are called by the round's bidder models
   with a random call now and then, every call with a choice labelled with the value of each legal call:
   made, the auction finished by the models, the deal played out by ``--player``
   (belot_sim/training/call_labels.py).  Round 0: ``--shards`` shards, every seat ``heuristic``; round
   ``r``: ``--round-shards`` shards, one team the ``neural`` bidder of round ``r - 1`` (recorded by
   digest), the other ``heuristic`` or that bidder too.  One shard in four is dealt without
   declarations; the last shard of each round validates.
2. **Fit**: a fresh network on every round's shards so far, ``--epochs`` epochs, a checkpoint after each
   (belot_sim/training/fit.py, kind ``calls``): ``bidder-<r>.npz``; the last round's is ``bidder.npz``,
   with ``curve.csv`` and ``curve.png``.  Each call is shown at a match score drawn from the scores
   ``--odds-matches`` matches reach, and its points become the chance of winning the match they lead to
   (belot_sim/training/match_odds.py; the table from ``--odds-deals`` deals, kept in ``odds.npz``).
3. **Duplicate check**: each round's weights in ``--eval-matches`` duplicate matches to 151 against
   ``heuristic``, both teams playing ``neural`` cards, then both playing ``hard``
   (:func:`belot_sim.match_tournament`), in a fresh process (the weights are compiled into its kernels):
   ``evaluation-<r>.csv``.

With ``--average K`` the run's weights (``bidder.npz``) are the mean of the last ``K`` rounds' networks, written as
one wider network (belot_sim/training/fit.py ``save_average``) and checked as the rounds are
(``evaluation-average.csv``).  With ``--seeds S`` the rounds run ``S`` times, independently, with the seeds
``--seed``, ``--seed + 1``, ... (each in ``<out>/seed-<s>``, the steps above in each), and the weights are the
mean of the last ``K`` rounds' networks of every run (``S`` × ``K`` networks).

``--ship`` copies ``bidder.npz`` to ``belot_sim/data/bidder.npz`` (the weights the package bids with).
The same seed and arguments give the same shards; the fit is deterministic on one machine and thread count.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

from training_runs import digest, run_training, shards_in_process, weights_env

WEIGHTS_VARIABLE = "BELOT_SIM_BIDDER_WEIGHTS"


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--out", type=Path, default=Path("runs/bidder"), help="the run's folder (default runs/bidder)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and of the fit (default 0)")
    parser.add_argument("--shards", type=int, default=16, help="round 0's shards (default 16)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of data and fit (default 2)")
    parser.add_argument("--round-shards", type=int, default=8, help="shards of each later round (default 8)")
    parser.add_argument("--deals", type=int, default=50_000, help="deals per shard (default 50000)")
    parser.add_argument("--player", default="neural", help="the player of the playouts (default neural)")
    parser.add_argument("--epochs", type=int, default=6, help="passes over the training shards (default 6)")
    parser.add_argument("--hidden", type=int, nargs=2, default=(256, 128), metavar=("H1", "H2"),
                        help="the hidden layers' widths (default 256 128)")
    parser.add_argument("--odds-deals", type=int, default=200_000,
                        help="deals whose points make the match-odds table (default 200000)")
    parser.add_argument("--odds-matches", type=int, default=3000,
                        help="matches whose scores the calls are shown at (default 3000)")
    parser.add_argument("--threads", type=int, default=2, help="threads for the data and the fit (default 2)")
    parser.add_argument("--eval-matches", type=int, default=2000,
                        help="duplicate matches per card player in each round's check (default 2000; 0: none)")
    parser.add_argument("--average", type=int, default=1,
                        help="the weights are the mean of the last K rounds' networks (default 1: the last alone)")
    parser.add_argument("--seeds", type=int, default=1,
                        help="independent runs, seeds --seed, --seed + 1, ..., whose networks are averaged (default 1)")
    parser.add_argument("--ship", action="store_true", help="copy the weights to belot_sim/data/bidder.npz")
    args = parser.parse_args(argv)
    for name in ("shards", "rounds", "round_shards", "deals", "epochs", "threads", "odds_deals", "odds_matches",
                 "seeds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.shards < 2 or (args.rounds > 1 and args.round_shards < 2):
        parser.error("--shards and --round-shards must be at least 2: the last shard of each round validates")
    if not 1 <= args.average <= args.rounds:
        parser.error(f"--average must be between 1 and --rounds ({args.rounds}), got {args.average}")
    if args.eval_matches < 0:
        parser.error(f"--eval-matches must be 0 or more, got {args.eval_matches}")
    return args


def make_data(args, r: int, previous: Path | None) -> list[Path]:
    """Round ``r``'s shards, made in a fresh process that holds the previous round's bidder (its weights
    are compiled into the kernels at import)."""
    from belot_sim.kernels.players.neural import LOADED_FROM
    from belot_sim.training.data import ShardPlan

    note = f"neural weights {digest(LOADED_FROM)}" if args.player == "neural" else ""
    if r == 0:
        plan, count = ShardPlan(args.out / "shards", seed=args.seed, deals=args.deals, players=args.player,
                                threads=args.threads, kind="calls", note=note), args.shards
    else:
        plan, count = ShardPlan(args.out / f"shards-round{r}", seed=1000 * args.seed + r, deals=args.deals,
                                players=args.player, threads=args.threads, kind="calls", round=r,
                                note=f"{note}, bidder weights {digest(previous)}"), args.round_shards
    return shards_in_process(plan, count, f"round {r}", weights_env(WEIGHTS_VARIABLE, previous))


def match_odds(args) -> tuple:
    """``(table, scores)``: the match-winning chances after a deal and the scores matches stand at before
    one (:mod:`belot_sim.training.match_odds`), made once from the seed and kept in ``odds.npz``."""
    import numpy as np
    from belot_sim.engine.io import write_npz_atomically
    from belot_sim.training import match_odds as odds

    path = args.out / "odds.npz"
    if not path.is_file():
        table = odds.win_table(odds.deal_points(args.odds_deals, 2000 + args.seed, args.player))
        scores = odds.start_scores(args.odds_matches, 3000 + args.seed, args.player)
        write_npz_atomically({"table": table, "scores": scores}, path)
    with np.load(path) as data:
        return data["table"], data["scores"]


def make_weights(args, r: int, rounds: list[list[Path]]) -> Path:
    """Round ``r``'s weights: a fresh network on every round's shards so far but each round's last, the
    calls shown at match scores (:func:`match_odds`)."""
    from belot_sim.training.fit import FitPlan, fit, load, save_weights
    from belot_sim.training.match_odds import relabel

    weights = args.out / f"bidder-{r}.npz"
    if weights.is_file():
        return weights
    plan = FitPlan(seed=args.seed + r, epochs=args.epochs, hidden1=args.hidden[0], hidden2=args.hidden[1],
                   threads=args.threads, kind="calls")
    train_paths = [p for paths in rounds for p in paths[:-1]]
    valid_paths = [paths[-1] for paths in rounds]
    table, scores = match_odds(args)
    train = relabel(load(train_paths, "calls"), table, scores, seed=[args.seed, r, 0])
    valid = relabel(load(valid_paths, "calls"), table, scores, seed=[args.seed, r, 1])
    print(f"fit {r}: {len(train['bits']):,} training calls, {len(valid['bits']):,} validation calls", flush=True)
    net = fit(args.out / ("fit" if r == 0 else f"fit-{r}"), train, valid, plan)
    meta = {"fit": asdict(plan), "round": r,
            "shards": [str(p.relative_to(args.out)) for paths in rounds for p in paths],
            "labels": f"each legal call's chance of winning the match (percentage points) at a drawn score, the "
                      f"auction finished by the round's bidder models and the deal played by {args.player}"}
    return save_weights(net, weights, meta)


def evaluate(args, r, weights: Path) -> None:
    """The duplicate matches against ``heuristic`` in a fresh process (the weights are compiled in);
    ``r``: the round, or ``"average"``."""
    path = args.out / f"evaluation-{r}.csv"
    if path.is_file() or not args.eval_matches:
        return
    code = ("import sys, pandas as pd, belot_sim as bs\n"
            "n, seed = map(int, sys.argv[1:3]); rows = []\n"
            "for player in ('neural', 'hard'):\n"
            "    result = bs.match_tournament(('neural', player), ('heuristic', player), n, seed=seed)\n"
            "    print(result, flush=True)\n"
            "    rows.append(result.table.loc[['all']].assign(player=player))\n"
            "pd.concat(rows).to_csv(sys.argv[3])")
    subprocess.run([sys.executable, "-c", code, str(args.eval_matches), str(10_000 + args.seed), str(path)],
                   env=weights_env(WEIGHTS_VARIABLE, weights), check=True)


def train_rounds(args) -> list[Path]:
    """Every round of one seed's run in ``args.out`` (its curve plotted); the networks to average."""
    from belot_sim.training.fit import plot_values_curve

    rounds: list[list[Path]] = []
    weights = None
    for r in range(args.rounds):
        rounds.append(make_data(args, r, weights))
        weights = make_weights(args, r, rounds)
        evaluate(args, r, weights)
    last = args.rounds - 1
    shutil.copy(args.out / ("fit" if last == 0 else f"fit-{last}") / "curve.csv", args.out / "curve.csv")
    plot_values_curve(args.out / "curve.csv", args.out / "curve.png", "match-winning chance per call (%)",
                      "validation: chance lost by the preferred call")
    return [args.out / f"bidder-{r}.npz" for r in range(args.rounds - args.average, args.rounds)]


def run(args) -> Path:
    seeds = range(args.seed, args.seed + args.seeds)
    runs = [args] if args.seeds == 1 else [argparse.Namespace(**{**vars(args), "seed": s,
                                                                 "out": args.out / f"seed-{s}"}) for s in seeds]
    averaged = [path for one in runs for path in train_rounds(one)]
    final = args.out / "bidder.npz"
    if len(averaged) == 1:
        shutil.copy(averaged[0], final)
        return final
    if not final.is_file():  # made once, as every step (a rerun resumes)
        from belot_sim.kernels.bid_models.neural_bidder import INPUTS, OUTPUTS
        from belot_sim.training.fit import save_average

        save_average(averaged, final, {"average of": [str(p.relative_to(args.out)) for p in averaged]}, INPUTS,
                     OUTPUTS)
    evaluate(args, "average", final)
    return final


def main(argv=None) -> int:
    return run_training(parse_args(argv), run, "bidder.npz")


if __name__ == "__main__":
    sys.exit(main())
