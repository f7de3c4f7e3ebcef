"""What every benchmark prints first (date, commit, CPU, versions) and how it records its result in
``benchmarks/RESULTS.md``: a new dated entry at the top of the benchmark's section."""

from __future__ import annotations

import datetime
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "RESULTS.md"


def timed(fn) -> float:
    """Seconds of one call of ``fn()`` (wall clock)."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def commit() -> str:
    """The short hash of HEAD, ``+uncommitted`` when the package differs from it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
    if head.returncode != 0:
        return "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "belot_sim"], cwd=REPO, capture_output=True, text=True)
    return head.stdout.strip() + ("+uncommitted" if dirty.stdout.strip() else "")


def environment() -> str:
    import numba
    import numpy
    import pandas

    return (f"{datetime.date.today().isoformat()}, commit {commit()}, {cpu_model()} ({os.cpu_count()} cores), "
            f"Python {platform.python_version()}, numba {numba.__version__}, numpy {numpy.__version__}, "
            f"pandas {pandas.__version__}")


def command_line() -> str:
    return "python " + " ".join([os.path.relpath(sys.argv[0], REPO), *sys.argv[1:]])


def record(section: str, text: str, note: str = "") -> None:
    """Add ``text`` (a benchmark's printed table) as a new entry at the top of the section whose
    heading names ``section`` (e.g. ``benchmarks/throughput.py``), with the environment line and the
    command that produced it.  The file is rewritten atomically."""
    body = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    note = f" — {note}" if note else ""
    entry = f"### {environment()}\n\n`{command_line()}`{note}\n\n```\n{text.rstrip()}\n```\n\n"
    heading = re.search(rf"^## `{re.escape(section)}`.*\n", body, re.M)
    if heading is None:
        body = body.rstrip() + f"\n\n## `{section}`\n\n" + entry
    else:
        at = heading.end()
        while body[at:at + 1] == "\n":
            at += 1
        body = body[:at] + entry + body[at:]
    tmp = RESULTS.with_suffix(".md.tmp")
    tmp.write_text(body)
    os.replace(tmp, RESULTS)


class Tee:
    """Collects what a benchmark prints, so it can be recorded afterwards."""

    def __init__(self):
        self.lines: list[str] = []

    def __call__(self, *parts, **kwargs) -> None:
        text = " ".join(str(p) for p in parts)
        print(text, **kwargs, flush=True)
        self.lines.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)
