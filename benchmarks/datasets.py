"""Datasets and clusters: streaming a big random-play dataset to Parquet (rate and peak memory) against
in-memory ``simulate`` (measured just before and just after each run, each time the best of three
calls); ``simulate_dask`` on a local cluster of two single-thread worker processes against
``simulate(threads=2)`` (its groupby also as the best of three runs, the reference's own statistic);
the cost of resuming a complete 1,000-part dataset; the cost of the part files' checksums: writing
and reading back ``--checksum-n`` deals (30 M) with this code and with ``--baseline`` (a commit
before the checksums, run from a git worktree), alternating.  Each ratio is measured ``--rounds``
times (default 3) and the median counts: on a shared machine one run says little.

Run: ``python benchmarks/datasets.py [--n 100000000] [--only streams,cluster,resume,checksums] [--record]``.
Each measurement runs in its own process (peak RSS is that process's), after a warm-up call that
loads the kernels; the dataset is written to a temporary folder and deleted.  The figures are side
by side in one run: the ratios are what this benchmark is for.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from belot_sim.cli.common import positive_int
from report import Tee, environment, record

REPO = Path(__file__).resolve().parent.parent

IN_MEMORY = """
import json, resource, time, belot_sim as bs
bs.simulate(100_000, threads={threads})
best = 1e9
for _ in range(3):
    t = time.perf_counter(); bs.simulate({n}, threads={threads}); best = min(best, time.perf_counter() - t)
print(json.dumps({{"rate": {n} / best, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}}))
"""

STREAM = """
import json, resource, time, belot_sim as bs
bs.simulate_to_parquet({warm!r}, 100_000, partition_size=50_000, progress=False)
t = time.perf_counter()
bs.simulate_to_parquet({path!r}, {n}, partition_size={part}, progress=False, compression={compression!r})
dt = time.perf_counter() - t
print(json.dumps({{"rate": {n} / dt, "seconds": dt, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}}))
"""

CLUSTER = """
import json, time
import belot_sim as bs
from distributed import Client, LocalCluster
if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \\
            Client(cluster) as client:
        bs.simulate_dask(2_000_000, partition_size={part}).raw0.sum().compute()  # workers load the kernels
        out = {{}}
        rates = []
        for _ in range(3):  # as many runs as the in-memory reference, which counts its best of 3
            t = time.perf_counter()
            bs.simulate_dask({n}, partition_size={part}).groupby("contract", observed=True).raw0.mean(
                split_out=1).compute()
            rates.append({n} / (time.perf_counter() - t))
        out["aggregate"], out["aggregate_best"] = rates[0], max(rates)
        t = time.perf_counter()
        bs.simulate_dask({n}, partition_size={part}).groupby("contract", observed=True).raw0.mean().compute()
        out["shuffled"] = {n} / (time.perf_counter() - t)
        t = time.perf_counter()
        bs.simulate_to_parquet({path!r}, {n}, partition_size={part}, client=client, progress=False)
        out["dataset"] = {n} / (time.perf_counter() - t)
        print(json.dumps(out))
"""

RESUME = """
import json, time, belot_sim as bs
bs.simulate_to_parquet({path!r}, 1_000_000, partition_size=1_000, progress=False)
t = time.perf_counter()
bs.simulate_to_parquet({path!r}, 1_000_000, partition_size=1_000, resume=True, progress=False)
print(json.dumps({{"seconds": time.perf_counter() - t}}))
"""


WRITE_READ = """
import json, time, belot_sim as bs
bs.simulate_to_parquet({warm!r}, 100_000, partition_size=50_000, progress=False)
t = time.perf_counter()
bs.simulate_to_parquet({path!r}, {n}, partition_size=1_000_000, progress=False)
write = time.perf_counter() - t
t = time.perf_counter()
rows = len(bs.read_parquet({path!r}))
read = time.perf_counter() - t
t = time.perf_counter()
bs.simulate_to_parquet({path!r}, {n}, partition_size=1_000_000, progress=False, resume=True)
resume = time.perf_counter() - t
assert rows == {n}
print(json.dumps({{"write": write, "read": read, "resume": resume, "file": bs.__file__}}))
"""


def settle(path: Path) -> None:
    """Delete a dataset and wait for the disk to catch up (the kernel's write-back of gigabytes
    would slow the next measurement)."""
    shutil.rmtree(path)
    os.sync()
    time.sleep(2)


def child(code: str, folder: Path, source: Path = REPO) -> dict:
    """Run ``code`` in a new process with the belot_sim of ``source`` (a checkout); its last line of
    JSON."""
    script = folder / "bench.py"
    script.write_text(textwrap.dedent(code))
    env = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run([sys.executable, str(script)], cwd=source, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def bracketed(reference, measure) -> tuple[dict, float]:
    """``measure()``'s result and the mean of ``reference()``'s rate just before and just after it."""
    before = reference()["rate"]
    result = measure()
    return result, (before + reference()["rate"]) / 2


def stream_rounds(out, memory, n: int, compression: str, rounds: int, folder: Path) -> None:
    """``rounds`` bracketed runs of :data:`STREAM`: each round's rate and ratio, then the median ratio."""
    ratios = []
    for k in range(rounds):
        path = folder / f"stream-{n}-{compression}"
        code = STREAM.format(n=n, part=1_000_000, path=str(path), warm=str(folder / f"warm-{n}-{compression}-{k}"),
                             compression=compression)
        stream, reference = bracketed(memory, lambda code=code: child(code, folder))
        size = sum(p.stat().st_size for p in path.rglob("*.parquet"))
        ratios.append(stream["rate"] / reference)
        out(f"simulate_to_parquet({n:,}, partition_size=1,000,000, compression={compression!r}), round {k + 1}: "
            f"{stream['rate']:,.0f} deals/s ({ratios[-1]:.2f} of in-memory {reference:,.0f}), "
            f"{stream['seconds']:.1f} s, peak RSS {stream['rss'] / 1e9:.2f} GB, {size / 1e9:.2f} GB on disk")
        settle(path)
    out(f"  median {statistics.median(ratios):.2f} of in-memory")


def cluster_rounds(out, memory, n: int, rounds: int, folder: Path) -> None:
    """``rounds`` bracketed runs of :data:`CLUSTER`; each round's ratios, then their medians."""
    out(f"LocalCluster, 2 worker processes x 1 thread, partitions of 1,000,000, {n:,} deals; ratios to the "
        f"in-memory simulate(threads=2) around each round:")
    names = {"aggregate": "simulate_dask(...).groupby('contract').raw0.mean(split_out=1), first run",
             "aggregate_best": "the same, best of 3 runs (the in-memory reference's own statistic)",
             "shuffled": "the same with Dask's default split_out (a shuffle from 15 partitions on)",
             "dataset": "simulate_to_parquet(..., client=)"}
    ratios = {key: [] for key in names}
    for k in range(rounds):
        code = CLUSTER.format(n=n, part=1_000_000, path=str(folder / f"cluster-{k}"))
        cluster, reference = bracketed(memory, lambda code=code: child(code, folder))
        for key in names:
            ratios[key].append(cluster[key] / reference)
        out(f"  round {k + 1}: in-memory {reference:,.0f} deals/s; "
            + ", ".join(f"{key} {cluster[key]:,.0f} ({cluster[key] / reference:.2f})" for key in names))
    for key, name in names.items():
        out(f"  {name}: median {statistics.median(ratios[key]):.2f} of simulate(threads=2)")


def checksum_rounds(out, n: int, baseline: str, rounds: int, folder: Path) -> None:
    """Write, read back and resume ``n`` deals with this code and with ``baseline``'s, alternating, in
    ``rounds`` rounds; each figure's median and the ratio of the medians."""
    tree = folder / "baseline"
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), baseline], cwd=REPO, check=True,
                   capture_output=True)
    try:
        times = {"current": [], "baseline": []}
        for k in range(rounds):
            for name, source in (("current", REPO), ("baseline", tree)):
                path = folder / f"checksums-{name}"
                code = WRITE_READ.format(n=n, path=str(path), warm=str(folder / f"warm-{name}-{k}"))
                result = child(code, folder, source)
                assert result["file"].startswith(str(source)), result["file"]
                times[name].append(result)
                settle(path)
        out(f"{n:,} deals, partitions of 1,000,000, random play, lz4; this code (CRC-32 of every part file, page "
            f"checksums) vs {baseline} (neither), alternating, {rounds} rounds, median seconds:")
        for key, what in (("write", "simulate_to_parquet"), ("read", "read_parquet (every column)"),
                          ("resume", "resume=True of the complete dataset")):
            now, before = (statistics.median(r[key] for r in times[name]) for name in ("current", "baseline"))
            out(f"  {what}: {now:.2f} s vs {before:.2f} s ({now / before:.2f}x)")
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO, capture_output=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=positive_int, default=100_000_000,
                        help="deals of the streamed dataset (default 100 M)")
    parser.add_argument("--small", type=positive_int, default=10_000_000,
                        help="a smaller dataset, for peak memory vs n")
    parser.add_argument("--cluster-n", type=positive_int, default=20_000_000,
                        help="deals of the cluster runs (default 20 M)")
    parser.add_argument("--rounds", type=positive_int, default=3,
                        help="runs of each measurement, each between two in-memory runs; the median ratio counts "
                             "(default 3)")
    parser.add_argument("--memory-n", type=positive_int, default=5_000_000,
                        help="deals of each in-memory call (default 5 M)")
    parser.add_argument("--checksum-n", type=positive_int, default=30_000_000,
                        help="deals of the checksum cost runs (default 30 M)")
    parser.add_argument("--baseline", default="2210215",
                        help="the commit the checksum runs compare with (default 2210215, before the checksums)")
    parser.add_argument("--only", default="streams,cluster,resume,checksums",
                        help="comma-separated parts to run: streams, cluster, resume, checksums (default all)")
    parser.add_argument("--record", action="store_true", help="add the result to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    parts = set(args.only.split(","))
    if not parts or parts - {"streams", "cluster", "resume", "checksums"}:
        parser.error(f"--only: expected parts among streams, cluster, resume, checksums, got {args.only!r}")
    out = Tee()
    out(environment())
    folder = Path(tempfile.mkdtemp(prefix="belot-bench-"))
    memory = functools.partial(child, IN_MEMORY.format(n=args.memory_n, threads=2), folder)
    try:
        out(f"in-memory = simulate({args.memory_n:,}, threads=2), random play, measured just before and just after "
            f"each run (the machine's speed drifts); the ratio is to their mean")
        if "streams" in parts:
            for n, compression in ((args.small, "lz4"), (args.small, "none"), (args.n, "lz4")):
                stream_rounds(out, memory, n, compression, args.rounds, folder)
        if "cluster" in parts:
            one = child(IN_MEMORY.format(n=args.memory_n, threads=1), folder)
            out(f"in-memory simulate({args.memory_n:,}, threads=1): {one['rate']:,.0f} deals/s")
            cluster_rounds(out, memory, args.cluster_n, args.rounds, folder)
        if "resume" in parts:
            resume = child(RESUME.format(path=str(folder / "parts")), folder)
            out(f"resume=True on a complete 1,000-part dataset (manifest, footer and CRC-32 of every part): "
                f"{resume['seconds']:.2f} s")
        if "checksums" in parts:
            checksum_rounds(out, args.checksum_n, args.baseline, args.rounds, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if args.record:
        record("benchmarks/datasets.py", out.text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
