"""Writing results safely: a file is either complete or not there at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pandas as pd


def write_csv_atomically(frame: pd.DataFrame, path: str | os.PathLike, **to_csv_kwargs) -> Path:
    """Write ``frame`` to ``path`` via a temporary file in the same folder and an atomic rename,
    so an interrupted run never leaves a truncated CSV behind."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", newline="") as handle:
            frame.to_csv(handle, **to_csv_kwargs)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
