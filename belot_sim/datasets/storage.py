"""Where a dataset lives: a folder on this machine's disk, or a URL that every worker can reach
(``s3://bucket/run``, ``gs://...``, ``hdfs://...``, ``file:///shared/run``; any other scheme
through ``fsspec``).  Files are written under a temporary name beginning with a dot (readers of the
folder skip those) and renamed when complete; new files get the usual permissions (the umask
applies).

Parts written to a local folder beyond the last :data:`CACHE_BYTES` are dropped from the OS page
cache behind the writer (:meth:`Store.written`): a big dataset would otherwise fill the cache with
gigabytes nobody reads soon, and on a virtual machine each fresh page of it is expensive.
"""

from __future__ import annotations

import collections
import contextlib
import os
import secrets
import threading
from pathlib import Path

try:
    import fcntl
except ImportError:  # not a POSIX system: folders are not locked (Store.lock)
    fcntl = None

#: Not a part of the data: readers of a Parquet folder skip names beginning with "." or "_".
TEMPORARY_PREFIX = "."


def is_url(path) -> bool:
    return isinstance(path, str) and "://" in path


class Store:
    """A folder: ``root`` on the ``pyarrow`` file system ``fs``.  Picklable (a worker rebuilds it from
    the same path)."""

    def __init__(self, path):
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a folder path or a URL, got {type(path).__name__}")
        if not os.fspath(path):  # Path("") would be the current folder
            raise ValueError("path is empty: give a folder path or a URL")
        self.path = str(path) if is_url(path) else str(Path(path).expanduser().absolute())
        self.fs, self.root = _filesystem(self.path)

    def __reduce__(self):
        return (Store, (self.path,))

    def __repr__(self) -> str:
        return f"Store({self.path!r})"

    def join(self, *parts: str) -> str:
        return "/".join([self.root.rstrip("/"), *parts])

    def kind(self, *parts: str) -> str:
        """``"file"``, ``"dir"`` or ``"none"``."""
        from pyarrow import fs

        info = self.fs.get_file_info(self.join(*parts))
        return {fs.FileType.File: "file", fs.FileType.Directory: "dir"}.get(info.type, "none")

    def names(self, *parts: str) -> list[str]:
        """The entries of a folder (none when it does not exist)."""
        from pyarrow import fs

        if self.kind(*parts) != "dir":
            return []
        infos = self.fs.get_file_info(fs.FileSelector(self.join(*parts), recursive=False))
        return sorted(info.base_name for info in infos)

    def makedirs(self, *parts: str) -> None:
        self.fs.create_dir(self.join(*parts), recursive=True)

    def read_bytes(self, *parts: str) -> bytes:
        with self.fs.open_input_stream(self.join(*parts)) as stream:
            return stream.read()

    def temporary(self, *parts: str) -> str:
        """A fresh temporary name beside ``parts`` (a relative path ending in the file name)."""
        *folder, name = parts
        return "/".join([*folder, f"{TEMPORARY_PREFIX}{name}.{secrets.token_hex(6)}.tmp"])

    def write_bytes(self, data: bytes, *parts: str) -> None:
        """Write a whole file atomically: a temporary file, then a rename (in a local folder the file
        reaches the disk before the rename, so a crash of the machine leaves the old file or the new)."""
        tmp = self.temporary(*parts)
        try:
            if is_url(self.path):
                with self.fs.open_output_stream(self.join(tmp)) as stream:
                    stream.write(data)
            else:
                with open(self.join(tmp), "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
            self.fs.move(self.join(tmp), self.join(*parts))
        except BaseException:
            self.delete(tmp)
            raise

    @contextlib.contextmanager
    def lock(self, name: str):
        """Hold the lock file ``name`` of a local folder for the block (``flock``), then delete it: a
        second writer is refused with a ValueError at once.  The operating system releases the lock
        when the process ends, however it ends (a killed writer leaves only the empty file); a folder
        behind a URL, or a system without ``fcntl``, is not locked."""
        if fcntl is None or is_url(self.path):
            yield
            return
        path = self.join(name)
        handle = _locked(path)
        try:
            yield
        finally:
            try:
                os.unlink(path)  # before the unlock: a writer that opened it meanwhile sees it gone and retries
            except OSError:
                pass
            handle.close()  # releases the lock

    def move(self, source: str, target: str) -> None:
        self.fs.move(self.join(source), self.join(target))

    def written(self, *parts: str) -> None:
        """One part's files ``parts`` are complete: they may leave the page cache later
        (:class:`_WriteBehind`; local folders on systems with ``posix_fadvise`` only)."""
        if not is_url(self.path) and hasattr(os, "posix_fadvise"):
            _write_behind.written([self.join(p) for p in parts])

    def delete(self, *parts: str) -> None:
        try:
            self.fs.delete_file(self.join(*parts))
        except (FileNotFoundError, OSError):
            pass


#: Bytes of the parts written last that are left in the OS page cache (:class:`_WriteBehind`).
CACHE_BYTES = 512 << 20
#: Parts written between the two pieces of advice about a file (its writeback, started by
#: the first, is done by the second, which then drops its pages).
DRAIN_LAG = 2


class _WriteBehind:
    """The parts this process wrote to local folders, newest last: the ones within
    :data:`CACHE_BYTES` stay in the page cache; a part that falls out of it is advised twice
    (``posix_fadvise DONTNEED``): once to start writing it to disk, again ``DRAIN_LAG`` parts later,
    written by then, to drop its pages.  The budget is per process (each Dask worker process keeps
    its own), and the last parts to leave it in a run get their second advice only with the process's
    next parts, so up to ``DRAIN_LAG`` more parts stay cached.

    Why: measured on the 2-core VM (2026-12-02), copying a written file into fresh page-cache memory
    cost about 3.4 s of system CPU per GB against 0.4 s into pages the cache had just given back;
    a 100 M-deal dataset (2.7 GB) spent 6.5-7.5 s of system CPU dropping nothing and 3.0-3.6 s
    dropping every part or keeping 512 MiB (benchmarks/RESULTS.md).  A small dataset stays cached,
    as it often is read back at once; the parts of a big one that fell out of the cache are read
    back from the disk."""

    def __init__(self):
        self.lock = threading.Lock()
        self.cached: collections.deque = collections.deque()  # (paths, bytes), newest last
        self.cached_bytes = 0
        self.draining: collections.deque = collections.deque()  # per call: the paths advised once

    def written(self, paths: list[str]) -> None:
        size = sum(_size(path) for path in paths)
        with self.lock:
            self.cached.append((paths, size))
            self.cached_bytes += size
            leaving = []
            while self.cached_bytes > CACHE_BYTES:
                old, old_size = self.cached.popleft()
                self.cached_bytes -= old_size
                leaving.extend(old)
            self.draining.append(leaving)
            drained = self.draining.popleft() if len(self.draining) > DRAIN_LAG else []
        for path in [*leaving, *drained]:
            _drop_cached(path)  # dirty pages: starts their writeback; clean ones: dropped


_write_behind = _WriteBehind()


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _drop_cached(path: str) -> None:
    """``posix_fadvise(DONTNEED)`` on the file at ``path``; nothing when it is gone.  A part rewritten
    under the same name since gets the advice instead: that costs only a read from the disk."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    except OSError:
        pass
    finally:
        os.close(fd)


def _locked(path: str):
    """The lock file at ``path``, open and locked by this process (a ValueError if another holds it)."""
    while True:
        handle = open(path, "a")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            folder = os.path.dirname(path)
            raise ValueError(f"{folder} is being written by another process (it holds {os.path.basename(path)}): "
                             "wait for it to end, or stop it, before writing there") from None
        try:
            current = os.stat(path).st_ino == os.fstat(handle.fileno()).st_ino
        except FileNotFoundError:
            current = False
        if current:  # not a file its last holder deleted after this one opened it
            return handle
        handle.close()


def _filesystem(path: str):
    """``(pyarrow file system, path on it)``."""
    from pyarrow import fs

    if not is_url(path):
        return fs.LocalFileSystem(), path
    try:
        return fs.FileSystem.from_uri(path)
    except (ValueError, TypeError, OSError) as arrow_error:  # a scheme Arrow does not know: try fsspec
        try:
            import fsspec
        except ImportError:
            raise ValueError(f"cannot open {path!r}: {arrow_error} (fsspec, which knows more URL schemes, is "
                             "not installed)") from None
        try:
            filesystem, root = fsspec.core.url_to_fs(path)
        except (ValueError, ImportError) as error:
            raise ValueError(f"cannot open {path!r}: {error}") from None
        return fs.PyFileSystem(fs.FSSpecHandler(filesystem)), root
