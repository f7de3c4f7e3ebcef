"""Train the card-ownership model (``hybrid``'s layouts) from the engine's own deals, in one resumable command.

    pip install torch==2.13.0 && pip install -e ".[train]"
    python scripts/train_owners.py --out runs/owners --seed 1 --ship

Every step is skipped when its output is already there (a stopped run resumes where it stopped):

1. **Data**: ``--shards`` shards of ``--deals`` deals played by ``hard`` and as many by ``neural`` (the
   package's weights), three in four after an auction of ``heuristic`` bidders, the fourth with random
   contracts; every decision with a choice labelled with the seat holding each card the seat to move
   cannot see (belot_sim/training/labels.py, ``owner_deals``).  The last shard of each player validates.
2. **Fit**: ``--epochs`` epochs, a checkpoint after each (belot_sim/training/fit.py, kind ``owners``):
   ``owners.npz``, ``curve.csv`` and ``curve.png``.
3. With ``--ship``: the weights go to ``belot_sim/data/owners.npz`` (the package's), and a fresh process
   (the weights are compiled into its kernels at import) writes ``report.csv``: the log-loss per trick of
   the model and of the layout samplers on ``--report-deals`` new deals of each player
   (belot_sim/training/ownership.py).

The same seed and arguments give the same shards; the fit is deterministic on one machine and thread count.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

from training_runs import digest, run_training
PLAYERS = ("hard", "neural")


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--out", type=Path, default=Path("runs/owners"), help="the run's folder (default runs/owners)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and of the fit (default 0)")
    parser.add_argument("--shards", type=int, default=8, help="shards of each player (default 8)")
    parser.add_argument("--deals", type=int, default=20_000, help="deals per shard (default 20000)")
    parser.add_argument("--epochs", type=int, default=4, help="passes over the training shards (default 4)")
    parser.add_argument("--hidden", type=int, nargs=2, default=(256, 128), metavar=("H1", "H2"),
                        help="the hidden layers' widths (default 256 128; H1 at most 377)")
    parser.add_argument("--threads", type=int, default=2, help="threads for the data and the fit (default 2)")
    parser.add_argument("--report-deals", type=int, default=1000,
                        help="deals of each player for the report (default 1000; 0: none)")
    parser.add_argument("--ship", action="store_true", help="copy the weights to belot_sim/data/owners.npz and report")
    args = parser.parse_args(argv)
    for name in ("shards", "deals", "epochs", "threads"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.shards < 2:
        parser.error("--shards must be at least 2: the last shard of each player validates")
    if args.report_deals < 0:
        parser.error(f"--report-deals must be 0 or more, got {args.report_deals}")
    return args


def make_data(args) -> tuple[list[Path], list[Path]]:
    """Each player's shards: ``(training, validation)`` paths."""
    from belot_sim.kernels.players.neural import LOADED_FROM
    from belot_sim.training.data import ShardPlan, make_shards

    train, valid = [], []
    for i, player in enumerate(PLAYERS):
        plan = ShardPlan(args.out / f"shards-{player}", seed=1000 * args.seed + i, deals=args.deals, players=player,
                         threads=args.threads, kind="owners",
                         note=f"neural weights {digest(LOADED_FROM)}" if player == "neural" else "")
        paths = make_shards(plan, args.shards, lambda k, n, p=player: print(f"data: {p}, shard {k}/{n}", flush=True))
        train += paths[:-1]
        valid += paths[-1:]
    return train, valid


def make_weights(args, train_paths: list[Path], valid_paths: list[Path]) -> Path:
    from belot_sim.training.fit import FitPlan, fit, load, save_weights

    weights = args.out / "owners.npz"
    if weights.is_file():
        return weights
    plan = FitPlan(seed=args.seed, epochs=args.epochs, hidden1=args.hidden[0], hidden2=args.hidden[1],
                   threads=args.threads, kind="owners")
    train, valid = load(train_paths, "owners"), load(valid_paths, "owners")
    print(f"fit: {len(train['bits']):,} training decisions, {len(valid['bits']):,} validation decisions", flush=True)
    net = fit(args.out / "fit", train, valid, plan)
    meta = {"fit": asdict(plan), "shards": [str(p.relative_to(args.out)) for p in train_paths + valid_paths],
            "labels": "the seat holding each card the seat to move cannot see"}
    shutil.copy(args.out / "fit" / "curve.csv", args.out / "curve.csv")
    plot_curve(args.out / "curve.csv", args.out / "curve.png")
    return save_weights(net, weights, meta)


def plot_curve(csv_path: Path, png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    curve = pd.read_csv(csv_path)
    fig, ax = plt.subplots(figsize=(5, 3.4))
    ax.plot(curve["epoch"], curve["train_loss"], marker="o", label="training")
    ax.plot(curve["epoch"], curve["val_loss"], marker="o", label="validation")
    ax.axhline(1.0986, color="grey", linestyle=":", label="ln 3 (no knowledge)")
    ax.set(xlabel="epoch", ylabel="nats per hidden card", title="card ownership: log-loss")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


def report(args) -> None:
    """The log-loss per trick in a fresh process (the shipped weights are compiled into its kernels)."""
    path = args.out / "report.csv"
    if path.is_file() or not args.report_deals:
        return
    code = ("import sys, pandas as pd, belot_sim as bs; from belot_sim.training.ownership import ownership_report\n"
            "n, seed, threads = map(int, sys.argv[1:4]); tables = {}\n"
            "for i, player in enumerate(('hard', 'neural')):\n"
            "    d, p = bs.simulate(n, players=player, bidders='heuristic', plays=True, seed=seed + i,\n"
            "                       threads=threads)\n"
            "    tables[player] = ownership_report(d, p, seed=seed, threads=threads)\n"
            "table = pd.concat(tables, names=['players']); print(table.round(3).to_string())\n"
            "table.to_csv(sys.argv[4])")
    subprocess.run([sys.executable, "-c", code, str(args.report_deals), str(10_000 + args.seed), str(args.threads),
                    str(path)], check=True)


def main(argv=None) -> int:
    return run_training(parse_args(argv), lambda args: make_weights(args, *make_data(args)), "owners.npz",
                        after_ship=report)


if __name__ == "__main__":
    sys.exit(main())
