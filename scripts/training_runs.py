"""What the training scripts (train_neural.py, train_owners.py, train_bidder.py) share: a run's folder with
its arguments, weights named by digest, steps run in a fresh process that holds given weights (they are
compiled into the kernels at import), and a Ctrl-C that says how to resume."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DATA = ROOT / "belot_sim" / "data"


def digest(path) -> str:
    """A weights file's name in records: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def weights_env(variable: str, weights: Path | None) -> dict:
    """The environment of a fresh process whose kernels hold ``weights`` (``$variable``: the model's)."""
    env = dict(os.environ)
    if weights is not None:
        env[variable] = str(Path(weights).resolve())
    return env


def shards_in_process(plan, count: int, label: str, env: dict | None = None) -> list[Path]:
    """Shards ``0 .. count - 1`` of ``plan`` (:func:`belot_sim.training.data.make_shards`), made in a fresh
    process with the environment ``env``; progress lines start with ``data: {label}``."""
    code = ("import sys, time, pickle; from belot_sim.training.data import make_shards\n"
            "plan, count = pickle.loads(bytes.fromhex(sys.argv[1])); t = time.perf_counter()\n"
            "make_shards(plan, count, lambda k, n: print(f'data: {sys.argv[2]}, shard {k}/{n} '\n"
            "            f'({time.perf_counter() - t:.0f} s)', flush=True))")
    subprocess.run([sys.executable, "-c", code, pickle.dumps((plan, count)).hex(), label], env=env, check=True)
    return [plan.path(k) for k in range(count)]


def run_training(args, work, shipped_name: str, after_ship=None) -> int:
    """A training script's main: the run's folder and its ``arguments.json``, then ``work(args)`` (the
    weights file it made); with ``args.ship`` the weights are copied to ``belot_sim/data/<shipped_name>``
    and ``after_ship(args)`` runs.  Ctrl-C exits 130 and says the same command resumes."""
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "arguments.json").write_text(json.dumps({k: str(v) if isinstance(v, Path) else v
                                                         for k, v in vars(args).items()}, indent=1))
    try:
        weights = work(args)
        if args.ship:
            shutil.copy(weights, PACKAGE_DATA / shipped_name)
            print(f"shipped {weights} to belot_sim/data/{shipped_name}")
            if after_ship is not None:
                after_ship(args)
    except KeyboardInterrupt:
        print("stopped: rerun the same command to resume", file=sys.stderr)
        return 130
    return 0
