"""Where Numba keeps belot_sim's compiled kernels.

Numba's on-disk cache only checks the source file of each function, not the files it
calls into: after editing ``players/judge.py``, a cached ``kernels/rollout.py`` kernel would
silently keep the old player.  So the cache lives in a directory named after a digest of
every belot_sim source file, the learned models' weights files (compiled in as constants) and
the Numba version: any change to the package compiles afresh.  It goes under ``$NUMBA_CACHE_DIR``
when set, else ``~/.cache/belot_sim`` (``$XDG_CACHE_HOME`` respected).  This must run before any kernel module
is imported.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba


def source_digest(package_dir: Path) -> str:
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(package_dir.rglob("*.py")):
        digest.update(str(path.relative_to(package_dir)).encode())
        digest.update(path.read_bytes())
    # The learned models' weights are compiled into the kernels as constants.
    weights = Path(os.environ.get("BELOT_SIM_NEURAL_WEIGHTS") or package_dir / "data" / "neural.npz")
    digest.update(weights.read_bytes() if weights.is_file() else b"no neural weights")
    owners = package_dir / "data" / "owners.npz"
    digest.update(owners.read_bytes() if owners.is_file() else b"no card-ownership weights")
    bidder = Path(os.environ.get("BELOT_SIM_BIDDER_WEIGHTS") or package_dir / "data" / "bidder.npz")
    digest.update(bidder.read_bytes() if bidder.is_file() else b"no bidder weights")
    return digest.hexdigest()[:16]


def configure_numba_cache() -> str:
    """Point Numba's cache at the directory for this exact source; returns it."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "belot_sim")
    directory = os.path.join(base, f"kernels-{source_digest(Path(__file__).parent)}")
    numba.config.CACHE_DIR = directory
    return directory


CACHE_DIR = configure_numba_cache()
