"""Cold compile: the first call of a workload in a new process with an empty Numba cache, the
current code beside an older commit.

Run: ``python benchmarks/compile.py a3f4f45 [--record]``.  Each (workload, code) pair runs in its own
process with its own empty ``NUMBA_CACHE_DIR``, one after the other; reported are the wall time and
the CPU time of that process (import included).  The baseline is the package at the commit
(``benchmarks/baseline.py``), imported under another name.  Then a second process with the same
cache shows what a later run pays.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

from baseline import extract_baseline
from report import REPO, Tee, environment, record

WORKLOADS = {
    "estimate_bid, dd players": "bs.estimate_bid('JH 9H AH KS 7C', 'H', samples=8, players='dd')",
    "simulate, pimc players": "bs.simulate(4, players='pimc')",
    "simulate, random play": "bs.simulate(10)",
}


def timed_run(code: str, path: str | None, cache: str) -> tuple[float, float]:
    """``(wall s, CPU s)`` of a new process running ``code`` with the Numba cache ``cache``."""
    name = "belot_sim" if path is None else "belot_sim_base"
    script = f"import sys; sys.path.insert(0, {path!r}) if {path!r} else None; import {name} as bs; {code}"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "NUMBA_CACHE_DIR": cache})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the commit to compare with (e.g. a3f4f45)")
    parser.add_argument("--record", action="store_true", help="add the result to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    out = Tee()
    out(environment())
    base = str(extract_baseline(args.base))
    out("cold = new process, empty Numba cache; warm = a second process with that cache; wall / CPU seconds")
    out(f"{'workload':<28} {'current cold':>16} {args.base + ' cold':>16} {'current warm':>14}")
    for label, code in WORKLOADS.items():
        cache = tempfile.mkdtemp(prefix="belot-cold-")
        current = timed_run(code, None, cache)
        warm = timed_run(code, None, cache)
        old = timed_run(code, base, tempfile.mkdtemp(prefix="belot-cold-"))
        out(f"{label:<28} {current[0]:>7.1f} / {current[1]:>6.1f} {old[0]:>7.1f} / {old[1]:>6.1f} "
            f"{warm[0]:>6.1f} / {warm[1]:>5.1f}")
    cache = tempfile.mkdtemp(prefix="belot-cold-")
    everything = timed_run("bs.warmup()", None, cache)
    again = timed_run("bs.warmup()", None, cache)
    out(f"{'bs.warmup(), every family':<28} {everything[0]:>7.1f} / {everything[1]:>6.1f} {'-':>16} "
        f"{again[0]:>6.1f} / {again[1]:>5.1f}")
    if args.record:
        record("benchmarks/compile.py", out.text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
