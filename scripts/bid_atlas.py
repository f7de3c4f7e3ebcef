"""Compute the bid atlas (belot_sim/estimates/atlas.py) as a resumable, partitioned job.

Run: ``python scripts/bid_atlas.py --out atlas-parts [--samples 1000] [--parts 64] [--seed 1]
[--threads N] [--resume] [--scheduler ADDRESS] [--table belot_sim/data/bid_atlas.npz]``.

The 239,680 rows (hand class x contract kind x position) are split into ``--parts`` partitions of
consecutive rows.  Each partition is played out (``--samples`` layouts per row, each around a
uniformly drawn member of the row's hand class, ``hard`` play: manifest ``members: uniform``) and
written to ``OUT/part-NNNNN.npy`` under a temporary name, renamed when complete; ``OUT/manifest.json``
records every argument that shapes the result.  ``--resume`` skips the completed partitions and
refuses to continue a directory made with other arguments; without it an existing directory is
refused.  ``--scheduler ADDRESS`` maps the missing partitions over a ``dask.distributed.Client``
(each worker writes its own files: ``OUT`` must be on a file system every worker sees).  When every
partition is there, the table is assembled into ``--table`` (written atomically).

Cost: about 240 million playouts for 1,000 samples per row — 605 s of CPU (2026-12-07, ce28b3a, Intel
Xeon): 15 minutes on a 2-core VM with another job on one core, about 5 on two free cores
(docs/bidding.md has the measured figures).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import belot_sim as bs
from belot_sim.estimates import atlas_build
from belot_sim.engine import atlas_table

from gallery_common import output_file, positive_int, run, seed_int, thread_count

REPO = Path(__file__).resolve().parent.parent
SHAPING = ("samples", "seed", "parts", "rows", "players", "rules", "members", "version")


def manifest_of(args) -> dict:
    return {"samples": args.samples, "seed": args.seed, "parts": args.parts, "rows": len(atlas_table.atlas_rows()[0]),
            "players": "hard", "rules": "bulgarian", "members": "uniform", "version": bs.__version__}


def check_directory(out: Path, wanted: dict, resume: bool) -> None:
    """Create ``out`` with its manifest, or check an existing one (``--resume``)."""
    path = out / "manifest.json"
    if path.exists():
        if not resume:
            raise SystemExit(f"{out} already holds an atlas job: pass --resume to continue it, or choose another --out")
        found = json.loads(path.read_text())
        for key in SHAPING:
            if found.get(key) != wanted[key]:
                raise SystemExit(f"{out} was started with {key}={found.get(key)!r}, not {wanted[key]!r}: resume it "
                                 "with the same arguments, or choose another --out")
        return
    out.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name("manifest.json.tmp")
    tmp.write_text(json.dumps(wanted, indent=1) + "\n")
    os.replace(tmp, path)


def run_local(out: Path, missing: list[int], args) -> None:
    started = time.perf_counter()
    for k, part in enumerate(missing, 1):
        atlas_build.compute_part(out, part, args.parts, args.samples, args.seed, args.threads)
        elapsed = time.perf_counter() - started
        left = elapsed / k * (len(missing) - k)
        print(f"\rpart {part} done: {k}/{len(missing)} ({elapsed:.0f} s, about {left:.0f} s left)", end="",
              file=sys.stderr, flush=True)
    print(file=sys.stderr)


def run_cluster(out: Path, missing: list[int], args) -> None:
    try:
        from dask.distributed import Client, as_completed
    except ImportError as error:
        raise SystemExit("--scheduler needs dask.distributed (pip install 'dask[distributed]')") from error
    client = Client(args.scheduler)
    futures = client.map(atlas_build.compute_part, [str(out)] * len(missing), missing, parts=args.parts,
                         samples=args.samples, seed=args.seed, pure=False)
    for k, future in enumerate(as_completed(futures), 1):
        print(f"\rpart {future.result()} done: {k}/{len(missing)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def assemble(out: Path, args, seconds: float) -> Path:
    import numpy as np

    totals = np.concatenate([atlas_build.read_part(out, part, args.parts) for part in range(args.parts)])
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
    meta = {**manifest_of(args), "date": datetime.date.today().isoformat(), "commit": head.stdout.strip(),
            "seconds_this_run": round(seconds, 1)}
    return atlas_build.write_table(args.table, totals, meta)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="directory of the partitions and the manifest")
    parser.add_argument("--samples", type=positive_int, default=1000, help="layouts per row (default 1000)")
    parser.add_argument("--parts", type=positive_int, default=64, help="partitions (default 64)")
    parser.add_argument("--seed", type=seed_int, default=0, help="random seed (default 0)")
    parser.add_argument("--threads", type=thread_count, default=None, help="Numba threads of a local run (default all)")
    parser.add_argument("--resume", action="store_true", help="continue the job in --out")
    parser.add_argument("--scheduler", help="a dask.distributed scheduler address, e.g. tcp://host:8786")
    parser.add_argument("--table", type=output_file, default=str(atlas_table.DATA),
                        help=f"the assembled table (default {atlas_table.DATA})")
    args = parser.parse_args(argv)
    if args.samples >= 1 << 16:
        parser.error(f"--samples must be in 1..65535, got {args.samples}")
    out = Path(args.out)
    check_directory(out, manifest_of(args), args.resume)
    missing = [part for part in range(args.parts) if atlas_build.read_part(out, part, args.parts) is None]
    print(f"{args.parts - len(missing)} of {args.parts} parts done, computing {len(missing)}", file=sys.stderr)
    started = time.perf_counter()
    if missing:
        (run_cluster if args.scheduler else run_local)(out, missing, args)
    path = assemble(out, args, time.perf_counter() - started)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
