"""Load the package as it was at another commit, beside the current one, in the same process.

Changes to the search are timed by solving the same deals with both copies, alternating, and
checking the values are identical deal by deal (``benchmarks/compare_solver.py``): absolute times
drift with this machine, a ratio measured in one process much less.

    from baseline import load_baseline
    old = load_baseline("6f5fb94")      # a module: old.solve(...), old.simulate(...)
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def load_baseline(commit: str, name: str = "belot_sim_base"):
    """Import ``belot_sim`` at ``commit`` under the module name ``name`` (its imports are relative)."""
    root = extract_baseline(commit, name)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    import numba

    # Importing a copy of the package points Numba's (process-wide) cache directory at the copy's
    # own (belot_sim/_cache.py), and a kernel module caches in the directory set when it is
    # imported.  So every module of the copy is imported now, and the setting restored for the
    # modules the current package imports later (its solver): otherwise they would load kernels
    # cached for other sources of theirs, stale for this one (wrong results seen, 2026-12-01).
    previous = numba.config.CACHE_DIR
    try:
        module = importlib.import_module(name)
        for info in pkgutil.walk_packages(module.__path__, prefix=f"{name}."):
            importlib.import_module(info.name)
    finally:
        numba.config.CACHE_DIR = previous
    return module


def extract_baseline(commit: str, name: str = "belot_sim_base") -> Path:
    """The folder holding ``belot_sim`` at ``commit`` as the package ``name`` (extracted once)."""
    full = subprocess.run(["git", "rev-parse", "--verify", f"{commit}^{{commit}}"], cwd=REPO, capture_output=True,
                          text=True)
    if full.returncode != 0:
        raise ValueError(f"unknown commit {commit!r}: {full.stderr.strip()}")
    sha = full.stdout.strip()
    root = Path(tempfile.gettempdir()) / "belot_sim_baselines" / sha[:12]
    target = root / name
    if not target.exists():
        root.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha, "belot_sim"], cwd=REPO, capture_output=True, check=True).stdout
        staging = Path(tempfile.mkdtemp(dir=root))
        with tarfile.open(fileobj=__import__("io").BytesIO(archive)) as tar:
            tar.extractall(staging, filter="data")
        os.replace(staging / "belot_sim", target)
    _import_under_any_name(target)
    return root


def _import_under_any_name(package: Path) -> None:
    """Commits 555f829..0d27723 looked the package up as ``sys.modules["belot_sim"]`` (``_moved.py``),
    which a copy under another name is not: the copy's own name instead."""
    moved = package / "_moved.py"
    if moved.exists():
        text = moved.read_text()
        moved.write_text(text.replace('sys.modules["belot_sim"]', "sys.modules[__package__]"))
