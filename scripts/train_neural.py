"""Train the ``neural`` player from the engine's own deals, in one resumable command.

    pip install torch==2.13.0 && pip install -e ".[train]"
    python scripts/train_neural.py --out runs/neural --seed 1 --ship

Round 0, then each further round (``--rounds``), every step skipped when its output is already there
(a stopped run resumes where it stopped):

1. **Data**: shards of ``--deals`` deals each (three in four after an auction of ``heuristic`` bidders,
   the fourth with random contracts), every decision with a choice labelled with the exact
   double-dummy value of each legal card in the true deal (belot_sim/training/data.py).  Round 0:
   ``--shards`` shards played by ``hard``; round ``r``: ``--round-shards`` shards of ``neural`` (the
   weights of round ``r - 1``) against ``hard``, so the network also learns the positions its own play
   leads to.
2. **Fit**: a fresh network, ``--epochs`` epochs over every round's shards so far but the validation
   ones (``k % 20`` in 18, 19), a checkpoint after each epoch (belot_sim/training/fit.py).
3. **Weights**: ``neural-<r>.npz``; the last round's is ``neural.npz``, with ``curve.csv`` and
   ``curve.png`` (``--ship`` copies ``neural.npz`` to ``belot_sim/data/neural.npz``, the weights the
   package plays with).
4. **Duplicate check**: each round's weights against ``hard`` over ``--eval-deals`` deals with
   ``heuristic`` auctions, in a fresh process (the weights are compiled into its kernels):
   ``evaluation-<r>.csv``.

The shipped weights came from the defaults on a 2-core machine (docs/players.md gives the time and
the figures).  The same seed and arguments give the same shards; the fit is deterministic on one
machine and thread count (PyTorch's CPU kernels may round differently elsewhere).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

from training_runs import digest, run_training, shards_in_process, weights_env

WEIGHTS_VARIABLE = "BELOT_SIM_NEURAL_WEIGHTS"
VALIDATION = (18, 19)  # shards k with k % 20 in VALIDATION


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--out", type=Path, default=Path("runs/neural"), help="the run's folder (default runs/neural)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and of the fit (default 0)")
    parser.add_argument("--shards", type=int, default=40, help="round 0's shards, played by hard (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of data and fit (default 3)")
    parser.add_argument("--round-shards", type=int, default=20,
                        help="shards of each later round, neural against hard (default 20)")
    parser.add_argument("--deals", type=int, default=20_000, help="deals per shard (default 20000)")
    parser.add_argument("--epochs", type=int, default=6, help="passes over the training shards (default 6)")
    parser.add_argument("--hidden", type=int, nargs=2, default=(320, 160), metavar=("H1", "H2"),
                        help="the hidden layers' widths (default 320 160; H1 at most 377: each weight array must "
                             "stay under 1 MB to be compiled into cached kernels)")
    parser.add_argument("--threads", type=int, default=2, help="threads for the data and the fit (default 2)")
    parser.add_argument("--eval-deals", type=int, default=4000,
                        help="deals of the duplicate check against hard (default 4000; 0: none)")
    parser.add_argument("--ship", action="store_true", help="copy the weights to belot_sim/data/neural.npz")
    args = parser.parse_args(argv)
    for name in ("shards", "rounds", "round_shards", "deals", "epochs", "threads"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.shards < 3:
        parser.error("--shards must be at least 3: shards 18, 19 (mod 20) validate, the rest train")
    if args.eval_deals < 0:
        parser.error(f"--eval-deals must be 0 or more, got {args.eval_deals}")
    return args


def split(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """Training and validation shards; with fewer than 20 shards the last one validates."""
    valid = [p for k, p in enumerate(paths) if k % 20 in VALIDATION] if len(paths) >= 20 else paths[-1:]
    return [p for p in paths if p not in valid], valid


def round_plan(args, r: int, previous: Path | None):
    """The shards of round ``r``: ``hard`` in every seat first, then ``neural`` (the previous round's
    weights, recorded by digest) against ``hard``."""
    from belot_sim.training.data import ShardPlan

    if r == 0:
        return ShardPlan(args.out / "shards-hard", seed=args.seed, deals=args.deals, players="hard",
                         threads=args.threads), args.shards
    return ShardPlan(args.out / f"shards-round{r}", seed=1000 * args.seed + r, deals=args.deals,
                     players=("neural", "hard", "neural", "hard"), threads=args.threads,
                     note=f"neural weights {digest(previous)}"), args.round_shards


def make_data(args, r: int, previous: Path | None) -> list[Path]:
    """Round ``r``'s shards, made in a fresh process when a ``neural`` seat plays (its weights are
    compiled into the kernels at import)."""
    plan, count = round_plan(args, r, previous)
    return shards_in_process(plan, count, f"round {r}", weights_env(WEIGHTS_VARIABLE, previous))


def make_weights(args, r: int, paths: list[Path]) -> Path:
    from belot_sim.training.fit import FitPlan, fit, load, save_weights

    weights = args.out / f"neural-{r}.npz"
    if weights.is_file():
        return weights
    plan = FitPlan(seed=args.seed + r, epochs=args.epochs, hidden1=args.hidden[0], hidden2=args.hidden[1],
                   threads=args.threads)
    train_paths, valid_paths = split(paths)
    train, valid = load(train_paths), load(valid_paths)
    print(f"fit {r}: {len(train['legal']):,} training decisions, {len(valid['legal']):,} validation decisions",
          flush=True)
    net = fit(args.out / f"fit-{r}", train, valid, plan)
    meta = {"fit": asdict(plan), "round": r, "shards": [str(p.relative_to(args.out)) for p in paths],
            "labels": "double-dummy value of each legal card in the true deal"}
    return save_weights(net, weights, meta)


def evaluate(args, r: int, weights: Path) -> None:
    """The duplicate check in a fresh process: the weights are compiled into the kernels at import."""
    path = args.out / f"evaluation-{r}.csv"
    if path.is_file():
        print(path.read_text())
        return
    code = ("import belot_sim as bs, sys; t = bs.tournament('neural', 'hard', int(sys.argv[1]), bidders='heuristic', "
            "seed=int(sys.argv[2]), threads=int(sys.argv[3])); print(t); t.table.to_csv(sys.argv[4])")
    subprocess.run([sys.executable, "-c", code, str(args.eval_deals), str(args.seed + 1000), str(args.threads),
                    str(path)], env=weights_env(WEIGHTS_VARIABLE, weights), check=True)


def run(args) -> Path:
    paths: list[Path] = []
    weights = None
    for r in range(args.rounds):
        paths += make_data(args, r, weights)
        weights = make_weights(args, r, paths)
        if args.eval_deals:
            evaluate(args, r, weights)
    final = args.out / "neural.npz"
    shutil.copy(weights, final)
    last = args.rounds - 1
    shutil.copy(args.out / f"fit-{last}" / "curve.csv", args.out / "curve.csv")
    from belot_sim.training.fit import plot_values_curve

    plot_values_curve(args.out / "curve.csv", args.out / "curve.png", "points per decision",
                      "validation: dd points lost by the preferred card")
    return final


def main(argv=None) -> int:
    return run_training(parse_args(argv), run, "neural.npz")


if __name__ == "__main__":
    sys.exit(main())
