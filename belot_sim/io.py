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


def simulate_to_parquet(path: str | os.PathLike, n: int, *, block: int = 1_000_000, start: int = 0,
                        progress: bool = False, **simulate_kwargs) -> Path:
    """Stream ``n`` deals of :func:`belot_sim.simulate` to a Parquet file, one row group per block.

    Memory stays bounded by one block whatever ``n`` is; the rows equal
    ``simulate(n, start=start, ...)`` (each block is ``simulate(block, start=...)``, and rows
    do not depend on chunking).  The file appears only when complete (written under a
    temporary name, then renamed).  Needs ``pyarrow`` (``pip install -e ".[parquet]"``).
    """
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("simulate_to_parquet needs pyarrow: pip install 'belot-sim[parquet]'") from error
    from .progress import Progress as _Progress
    from .simulation import simulate

    if simulate_kwargs.get("plays"):
        raise ValueError("simulate_to_parquet writes the deals frame only; plays=True is not supported")
    if isinstance(block, bool) or not isinstance(block, int) or block <= 0:
        raise ValueError(f"block must be a positive integer, got {block!r}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative integer, got {n!r}")
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    os.close(fd)
    writer = None
    shown = _Progress(progress, "simulate_to_parquet", n, "deals")
    try:
        for offset in range(0, max(n, 1), block):
            frame = simulate(min(block, n - offset), start=start + offset, **simulate_kwargs)
            table = pa.Table.from_pandas(frame, preserve_index=False)
            if writer is None:
                writer = pq.ParquetWriter(tmp, table.schema)
            writer.write_table(table)
            shown.update(offset + len(frame))
        writer.close()
        writer = None
        os.replace(tmp, path)
    except BaseException:
        if writer is not None:
            writer.close()
        Path(tmp).unlink(missing_ok=True)
        raise
    shown.close()
    return path
