"""Writing results safely: a file is either complete or not there at all."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pandas as pd


def write_csv_atomically(frame: pd.DataFrame, path: str | os.PathLike, **to_csv_kwargs) -> Path:
    """Write ``frame`` to ``path`` via a temporary file in the same folder and an atomic rename,
    so an interrupted run never leaves a truncated CSV behind.  The file gets the permissions of
    any new file (the umask applies); a missing folder is a ``FileNotFoundError`` naming it, a file
    where the folder should be a ``NotADirectoryError``."""

    def write(tmp: Path) -> None:
        # os.open with mode 0o666, not tempfile.mkstemp (always 0o600): the umask decides, as for any file
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(fd, "w", newline="") as handle:
            frame.to_csv(handle, **to_csv_kwargs)

    return write_atomically(path, write)


def require_pyarrow(what: str) -> None:
    """Before any work: an ImportError naming the extra to install when pyarrow is missing (``what``
    needs it), instead of a bare ModuleNotFoundError after the run."""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError as error:
        raise ImportError(f"{what} needs pyarrow: pip install 'belot-sim[parquet]' ({error})") from None


def write_parquet_atomically(frame: pd.DataFrame, path: str | os.PathLike) -> Path:
    """Write ``frame`` as one Parquet file, complete or absent (a temporary file, then a rename),
    with the permissions of any new file.  Needs ``pyarrow``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    return write_atomically(path, lambda tmp: pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), tmp,
                                                        compression="lz4"))


def write_npz_atomically(arrays: dict, path: str | os.PathLike) -> Path:
    """Write ``arrays`` (name → array) as one ``.npz`` file (``np.savez``), complete or absent."""
    import numpy as np

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as f:  # np.savez would add ".npz" to a name without it
            np.savez(f, **arrays)

    return write_atomically(path, write)


def write_atomically(path: str | os.PathLike, write) -> Path:
    """``write(tmp)`` makes a temporary file beside ``path``, renamed to ``path`` once complete (else
    removed); an ``OSError`` names ``path``, not the temporary file it failed on."""
    path = Path(path)
    if path.parent.exists() and not path.parent.is_dir():
        raise NotADirectoryError(f"cannot write {path}: {path.parent} is a file, not a folder")
    if not path.parent.is_dir():
        raise FileNotFoundError(f"cannot write {path}: the folder {path.parent} does not exist")
    tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    try:
        try:
            write(tmp)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else "the file could not be created"
        raise type(error)(error.errno, f"cannot write {path}: {reason}") from error
    return path
