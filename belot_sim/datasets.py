"""Partitioned, resumable Parquet datasets of deals and of matches.

A dataset is a folder::

    run/_belot_sim.json            the manifest (belot_sim/manifest.py)
    run/_belot_sim.lock            while a writer writes (local folders; a killed one leaves it, harmless)
    run/deals/part-00000.parquet   deals 0 .. P-1 (P = partition_size), then part-00001 ...
    run/plays/part-00000.parquet   with plays=True: the plays of the same deals
    run/calls/part-00000.parquet   with calls=True: their calls

(a match dataset has ``matches/`` first, then ``deals/``, ``plays/``, ``calls/``, partitioned by
match id). Every part file is written under a temporary name beginning with a dot and renamed when
complete, and the manifest records it as done with each file's rows, size and CRC-32, so an
interrupted run — Ctrl-C, a crash, a killed process — leaves only complete parts; ``resume=True``
computes the rest, after checking each listed part's row counts and id range against the manifest
and every byte against its CRC-32 (a part copied from elsewhere or changed on disk is recomputed;
:func:`read_parquet`, which checks the same before it decodes a file, refuses it). A failed write (a
full disk, a file system gone) raises :class:`~belot_sim.DatasetWriteError` naming the part: that
part is not recorded and its temporary files are removed. Each part file also records the arguments
that wrote it and its index and frame (:mod:`belot_sim.parts`), so a resume keeps finished parts the
manifest does not list: the manifest was deleted (a resume with the same arguments writes it again),
or cluster tasks ran to their end after Ctrl-C. A listed part that records another run is recomputed
(and refused by :func:`read_parquet`); a folder without a manifest is refused, untouched, when one
of its parts records other arguments or none. Part ``k`` holds its ids played as
:func:`belot_sim.simulation.run_deals` (or :func:`belot_sim.matches.run_matches`) plays them, a pure
function of the ids, so the rows do not depend on the partition size, the resume history or the
threads: row ``i`` of the deals is row ``i`` of ``simulate(n, ...)``. Each frame is an ordinary
Parquet dataset (``pd.read_parquet``, ``pyarrow.dataset``, DuckDB ``'run/deals/*.parquet'``,
``dask.dataframe.read_parquet``); :func:`read_parquet` gives it back with the ``simulate`` dtypes.
Needs ``pyarrow``.
"""

from __future__ import annotations

import functools
import os
import sys
import zlib
from concurrent.futures import Future, ThreadPoolExecutor

import pandas as pd

from .checks import check_bool, check_int, check_threads, numba_threads
from .cluster import DEFAULT_PARTITION, check_partition_size
from .distributed import check_client, run_partitions
from .errors import DatasetMismatchError, DatasetWriteError
from .frames import CALL_DTYPE, CONTRACT_DTYPE, OUTCOME_DTYPE
from .kernels.batch.match import MAX_MATCH_ID
from .manifest import LOCK, MANIFEST, Manifest, PartFile, deal_arguments, match_arguments
from .matches import CLIENT_PARTITION as MATCH_PARTITION
from .matches import MatchPlan, match_blocks, plan_arguments, plan_matches
from .parts import (COLUMNS_KEY, FRAME_FOLDERS, PartSpec, columns_record, content_problem, damaged_file_errors,
                    foreign_part, part_name, part_problems, unlisted_parts)
from .progress import Progress
from .simulation import BLOCK, MAX_DEALS, SLOW_BLOCK, DealArrays, DealPlan, deal_blocks, plan_deals, simulate_arguments
from .storage import TEMPORARY_PREFIX, Store, is_url

#: Parquet compression codecs (``compression=``).  Measured on 1 M deals, CPU to write them (2026-12-01):
#: lz4 0.083 s for 27 MB (with the per-column layout below; one codec for every column: 0.103 s for 33 MB),
#: none 0.069 s for 77 MB, zstd 0.17 s for 23 MB (pyarrow's defaults took 0.23 s).
COMPRESSIONS = ("lz4", "zstd", "snappy", "none")
DICTIONARY_COLUMNS = ("contract", "outcome", "call")
ID_COLUMNS = ("deal_id", "match_id")
#: With ``compression="lz4"`` (the fast default) each column gets the encoding that writes it
#: fastest (measured one column at a time on 1 M deals and their plays, pyarrow 26): columns of
#: many small values are delta-encoded and left uncompressed (trick points: 4.5 ms for 1.2 MB
#: instead of 7.2 ms for 2.0 MB plain + lz4), the card masks are stored plain and uncompressed
#: (lz4 cannot shrink random masks), the dictionary columns' codes are not compressed either; the
#: other columns (mostly one value: multiplier, belots, valat; the plays' trick and position) stay
#: plain + lz4.  Every reader of Parquet reads these standard encodings.
DELTA_COLUMNS = ("dealer", "declarer", "trick_points0", "trick_points1", "declared0", "declared1", "raw0", "raw1",
                 "score0", "score1", "card")
UNCOMPRESSED_COLUMNS = (*DELTA_COLUMNS, *DICTIONARY_COLUMNS, "hand0", "hand1", "hand2", "hand3", "auction_hand0",
                        "auction_hand1", "auction_hand2", "auction_hand3")
_DTYPES = {"contract": CONTRACT_DTYPE, "outcome": OUTCOME_DTYPE, "call": CALL_DTYPE}


# --- the public functions --------------------------------------------------------------------

def simulate_to_parquet(path, n: int, *, partition_size: int = DEFAULT_PARTITION, resume: bool = False, client=None,
                        progress: bool | None = None, start: int = 0, threads: int | None = None,
                        compression: str = "lz4", **simulate_kwargs) -> str:
    """Write ``simulate(n, start=start, **simulate_kwargs)`` as a partitioned Parquet dataset in the
    folder ``path`` (a local path or a URL every worker can reach); returns the path.

    One part per ``partition_size`` consecutive deal ids, each written in blocks of about half a
    second (memory stays bounded by a block) under a temporary name and renamed when complete,
    plus the manifest ``_belot_sim.json``.  ``plays=True`` / ``calls=True`` write the long frames as
    ``plays/`` and ``calls/`` beside ``deals/``, with the same partitioning.

    ``resume``: complete the dataset already at ``path``: only the parts missing, unreadable, or not
    the ones the manifest lists (other row counts, ids outside the part's range in the footer's
    statistics, or another size or CRC-32 of the file's bytes: every listed file is read once) are
    computed, and finished parts the manifest does not list but these arguments
    wrote are kept (also when the manifest was deleted); a :class:`~belot_sim.DatasetMismatchError`
    (a ValueError) names the first argument that differs from the ones it was made with (without a
    manifest: the first part that is not this call's, and why) and changes nothing (``worlds``
    counts only with a ``pimc``,
    ``pimc-exact`` or ``expert`` seat, the players that read it).  Without ``resume`` the folder
    must be new or empty.  One writer at a time: a local folder is locked (``_belot_sim.lock``,
    released when the writer ends, however it ends) and a second writer is refused; a folder behind
    a URL is not locked.  ``client``: a Dask ``distributed.Client`` whose workers compute and write
    the parts (:mod:`belot_sim.cluster`).  ``progress``: a bar on
    stderr (default: when stderr is a terminal).  ``threads``: Numba threads (on a worker: 1 by
    default).  ``compression``: ``"lz4"`` (default: each column encoded for speed, see
    :data:`DELTA_COLUMNS`), ``"zstd"`` (smaller, slower), ``"snappy"`` or ``"none"`` (a little faster,
    files 2.8 times bigger).  Ctrl-C stops the run within about a second and keeps the parts already
    written.  A failed write raises :class:`~belot_sim.DatasetWriteError` (an OSError) naming the part;
    the parts finished before it stay, and a resume completes the dataset.  In a local folder about
    the last 512 MiB of parts a process wrote stay in the OS page cache
    (:class:`belot_sim.storage._WriteBehind`): reading back a bigger dataset at once reads the
    older parts from the disk.
    """
    plan = plan_deals(**simulate_arguments(simulate_kwargs))
    n = check_int(n, "n", 0, MAX_DEALS)
    start = check_int(start, "start", 0, 2**62 - n)
    frames = ["deals", *(["plays"] if plan.plays else []), *(["calls"] if plan.calls else [])]
    manifest = Manifest("deals", frames, n, start, check_partition_size(partition_size), deal_arguments(plan))
    return _write(path, manifest, plan, resume=resume, client=client, progress=progress, threads=threads,
                  compression=compression)


def simulate_matches_to_parquet(path, n: int, *, partition_size: int = MATCH_PARTITION, resume: bool = False,
                                client=None, progress: bool | None = None, start: int = 0, threads: int | None = None,
                                compression: str = "lz4", **simulate_matches_kwargs) -> str:
    """Write ``simulate_matches(n, start=start, **kwargs)`` as a dataset at ``path``, as
    :func:`simulate_to_parquet` does for deals: ``matches/`` then ``deals/`` (and ``plays/``,
    ``calls/`` when asked), one part per ``partition_size`` consecutive match ids, every deal in the
    part of its match."""
    plan = plan_matches(**plan_arguments(simulate_matches_kwargs))
    n = check_int(n, "n", 0, MAX_MATCH_ID + 1)
    start = check_int(start, "start", 0, MAX_MATCH_ID + 1 - n)
    frames = ["matches", "deals", *(["plays"] if plan.plays else []), *(["calls"] if plan.calls else [])]
    manifest = Manifest("matches", frames, n, start, check_partition_size(partition_size), match_arguments(plan))
    return _write(path, manifest, plan, resume=resume, client=client, progress=progress, threads=threads,
                  compression=compression)


def _filter_columns(filters) -> list[str]:
    """The column names of pyarrow's tuple filters, ``[(column, op, value), ...]`` or a list of such
    lists (an expression or anything else: none; pyarrow judges it)."""
    if not isinstance(filters, (list, tuple)):
        return []
    names = []
    for item in filters:
        if isinstance(item, (list, tuple)) and item and all(isinstance(x, (list, tuple)) for x in item):
            names += _filter_columns(item)
        elif isinstance(item, (list, tuple)) and len(item) == 3 and isinstance(item[0], str):
            names.append(item[0])
    return list(dict.fromkeys(names))


def read_parquet(path, columns=None, filters=None, *, frame: str | None = None, partial: bool = False) -> pd.DataFrame:
    """A frame of the dataset at ``path`` with the ``simulate`` dtypes (categoricals restored), rows
    in order.  ``frame``: ``"deals"`` (the default of a deal dataset), ``"plays"``, ``"calls"``, or
    ``"matches"`` (the default of a match dataset); ``columns``: the columns to read; ``filters``:
    pyarrow row filters such as ``[("contract", "==", "H")]``.  An unfinished dataset is an error
    unless ``partial=True`` (then the finished parts are read).  Each part file is checked against
    the manifest (rows and ids from its footer, every byte against its size and CRC-32) before a row
    of it is used: a damaged part is a ValueError naming it, curable with ``resume=True``."""
    store = Store(path)
    manifest = load_manifest(store)
    if manifest is None:
        raise ValueError(f"{store.path} is not a belot_sim dataset (no {MANIFEST}; if it was deleted, resume=True "
                         "with the arguments that made the dataset writes it again, keeping the parts)")
    frame = manifest.frames[0] if frame is None else frame
    if frame not in manifest.frames:
        raise ValueError(f"frame must be one of {manifest.frames} for {store.path}, got {frame!r}")
    if columns is not None and (not isinstance(columns, (list, tuple)) or not all(isinstance(c, str) for c in columns)):
        raise TypeError(f"columns must be a list of column names, got {columns!r}")
    partial = check_bool(partial, "partial")
    missing = manifest.missing()
    if missing and not partial:
        raise ValueError(f"{store.path} is unfinished: {len(missing)} of {manifest.n_parts} parts missing (first: "
                         f"{missing[0]}); complete it with resume=True, or read the finished parts with partial=True")
    import pyarrow.parquet as pq

    if not manifest.parts:
        raise ValueError(f"{store.path} has no finished part yet")
    _check_parts(store, manifest, frame)  # each part readable and the one listed
    schema = pq.read_schema(store.join(frame, part_name(min(manifest.parts))), filesystem=store.fs)
    if columns is not None:
        unknown = [c for c in columns if c not in schema.names]
        if unknown:
            raise ValueError(f"unknown column(s) {unknown} in {frame}: the columns are {schema.names}")
    unknown = [c for c in _filter_columns(filters) if c not in schema.names]
    if unknown:  # pyarrow's own message prints the whole schema
        raise ValueError(f"filters name unknown column(s) {unknown} in {frame}: the columns are {schema.names}")
    out = _read_verified(store, manifest, frame, columns, filters).to_pandas()
    for name, dtype in _DTYPES.items():
        if name in out.columns and out[name].dtype != dtype:
            out[name] = out[name].astype(dtype)
    return out


def _check_parts(store: Store, manifest: Manifest, frame: str) -> None:
    """A ValueError naming the first listed part of ``frame`` that is not what the manifest says
    (from the footers)."""
    bad = part_problems(store, manifest, [frame])
    if bad:
        raise _damaged(store, bad[min(bad)])


def _damaged(store: Store, problem: str) -> ValueError:
    return ValueError(f"{store.path} is damaged: {problem}; writing it again with resume=True recomputes every "
                      "such part")


#: Part files read at a time by :func:`read_parquet` (each is decoded on pyarrow's threads too).  Measured
#: on 30 parts of 1 M deals in a warm process (2026-12-07, b6186ea, 2 cores): 1, 2, 4 at a time took
#: 1.38, 1.46, 1.22 s (medians of 3; pyarrow's own read of the same files, unchecked, 1.56 s; the
#: files' CRC-32 alone 0.59 s).
READ_AHEAD = 4


def _read_verified(store: Store, manifest: Manifest, frame: str, columns, filters):
    """The listed parts of ``frame`` as one Arrow table, in order; each file's bytes are read once
    and checked against the size and CRC-32 the manifest records before a row of them is decoded."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    def read(k: int):
        name = store.join(frame, part_name(k))
        try:
            data = store.read_bytes(frame, part_name(k))
        except OSError as error:
            raise _damaged(store, f"its part {name} cannot be read ({error})") from None
        record = manifest.parts[k][frame]
        problem = content_problem(record, name, len(data), zlib.crc32(data))
        if problem is not None:
            raise _damaged(store, problem)
        try:
            return pq.read_table(pa.BufferReader(data), columns=columns, filters=filters)
        except (*damaged_file_errors(), OverflowError) as error:  # OverflowError: a filter's value too big
            if filters is not None:
                raise ValueError(f"bad filters {filters!r}: {error}") from None
            if record.crc32 is None:  # a format-1 manifest: nothing says the bytes are the ones written
                raise _damaged(store, f"its part {name} cannot be read ({error})") from None
            raise  # the bytes are the ones written: not damage

    with ThreadPoolExecutor(max_workers=READ_AHEAD) as pool:
        return pa.concat_tables(pool.map(read, sorted(manifest.parts)))


# --- writing -------------------------------------------------------------------------------------

def _write(path, manifest: Manifest, plan, *, resume, client, progress, threads, compression) -> str:
    """Check the target and the run's options, then write the parts that are missing."""
    resume = check_bool(resume, "resume")
    if compression not in COMPRESSIONS:
        raise ValueError(f"compression must be one of {COMPRESSIONS}, got {compression!r}")
    threads = check_threads(threads) if client is None else _worker_threads(threads)
    progress = sys.stderr.isatty() if progress is None else check_bool(progress, "progress")
    client = check_client(client, "simulate_to_parquet")
    import pyarrow  # noqa: F401  (a clear ImportError before anything is written)

    store = _target(path, resume)
    with store.lock(LOCK):
        _write_locked(store, manifest, plan, client, progress, threads, compression)
    return store.path


def _write_locked(store: Store, manifest: Manifest, plan, client, progress, threads, compression) -> None:
    """The rest of :func:`_write`, with the folder's lock held: no other writer deletes this one's
    temporary files or writes the same parts."""
    previous = load_manifest(store)
    if previous is not None:
        previous.check_same(manifest, store.path)
        manifest.parts, manifest.created = _verified_parts(store, previous), previous.created
        manifest.arguments = previous.arguments  # as the parts were made (an unread worlds= may differ)
    else:
        foreign = foreign_part(store, manifest)  # a folder whose manifest is gone: only its own run completes it
        if foreign is not None:
            raise DatasetMismatchError(store.path, f"has no manifest {MANIFEST} and {foreign}",
                                       "resume=True (--resume) keeps only parts of the same arguments (each part "
                                       "records them in its Parquet metadata, key 'belot_sim.identity'); nothing "
                                       "was changed")
    # Parts no manifest lists but this run's arguments wrote: its manifest was deleted, or cluster
    # tasks ran to their end after Ctrl-C.  Not the listed parts that failed their checks: they are
    # known to be damaged, whatever their pages say.
    damaged = set(previous.parts) - set(manifest.parts) if previous is not None else set()
    manifest.parts.update(unlisted_parts(store, manifest, skip=damaged))
    for name in manifest.frames:
        if store.kind(name) == "file":
            raise ValueError(f"{store.join(name)} is a file: the dataset's {name} frame needs that name for its folder")
    _remove_temporary_files(store)  # a manifest's, left by a writer killed while writing it
    save_manifest(store, manifest)  # first: a folder this call made is a dataset from now on
    for name in manifest.frames:
        store.makedirs(name)
        _remove_temporary_files(store, name)
    todo = manifest.missing()
    done = sum(manifest.part_range(k)[1] for k in manifest.parts)
    unit = "matches" if manifest.kind == "matches" else "deals"
    with Progress(progress, f"writing {os.path.basename(store.path.rstrip('/')) or store.path}", manifest.n, unit,
                  done=done) as bar:
        if client is not None:
            def record(index, files):
                manifest.parts[todo[index]] = files
                save_manifest(store, manifest)

            spec = PartSpec.of(manifest)
            tasks = [(store, spec, plan, k, *manifest.part_range(k), threads, compression) for k in todo]
            run_partitions(client, _write_part_on_worker, tasks, progress=bar, weights=[t[4] for t in tasks],
                           on_result=record)
        else:
            def record_part(k, files):  # in the writing thread, once part k's files are renamed
                manifest.parts[k] = files
                save_manifest(store, manifest)

            with numba_threads(threads):
                _write_parts(store, PartSpec.of(manifest), plan, [(k, *manifest.part_range(k)) for k in todo], bar,
                             record_part, compression)


def _worker_threads(threads):
    return None if threads is None else check_int(threads, "threads", 1, 1 << 10)


def _write_part_on_worker(store, spec, plan, k, first, count, threads, compression) -> dict[str, int]:
    with numba_threads(threads if threads is not None else 1):
        return write_part(store, spec, plan, k, first, count, compression)


def write_part(store: Store, spec: PartSpec, plan, k: int, first: int, count: int,
               compression: str = "lz4") -> dict[str, PartFile]:
    """Compute part ``k`` (ids ``first .. first+count-1`` of ``plan``) and write each of its frames
    (``spec``); returns what the manifest records of each file."""
    files = {}
    _write_parts(store, spec, plan, [(k, first, count)], None, lambda _k, f: files.update(f), compression)
    return files


def _write_parts(store: Store, spec: PartSpec, plan, parts, progress: Progress | None, done,
                 compression: str) -> None:
    """Compute and write ``parts`` (``(k, first id, count)``) in order, block by block; ``done(k, files)``
    runs once part ``k``'s files are all in place (``files``: what the manifest records of each)."""
    pipeline = _Pipeline(store, spec, done, compression)
    try:
        last = None  # a part's first block is as big as the last one of the part before
        for k, first, count in parts:
            pipeline.start_part(k)
            if isinstance(plan, DealPlan):
                for offset, size in deal_blocks(plan, count, progress, first=last):
                    last = size
                    out = pipeline.arrays(plan, size)
                    out.play(first + offset, 0, size)
                    pipeline.add(functools.partial(out.frames, first + offset, size))
            elif isinstance(plan, MatchPlan):
                for block in match_blocks(plan, first, count, progress):
                    pipeline.add(functools.partial(list, block))
            else:
                raise TypeError(f"not a plan of deals or matches: {type(plan).__name__}")
            pipeline.end_part()
        pipeline.close()
    except BaseException as error:
        also = pipeline.abort()
        if also is not None and also is not error:
            error.add_note(f"the dataset's writing thread failed too: {also!r}")
        raise


class _Pipeline:
    """Parts written by one background thread while the calling thread computes the next blocks.

    The calling thread only runs the kernels (they release the interpreter); the writing thread
    turns each block into Arrow tables and Parquet row groups and, after a part's last block,
    closes its files, renames them and calls ``done``.  At most one block waits for the writing
    thread, and the deals are computed into two sets of arrays in turn (:meth:`arrays`): fresh
    arrays for every block cost their page faults, about 3 % of random play.

    Every task handed to the writing thread is waited on and its error raised in the calling
    thread; after a first error the writing thread skips what it is given next, so a part whose
    block failed is never committed nor recorded (a dataset once lost a failed block's rows so).
    """

    def __init__(self, store: Store, spec: PartSpec, done, compression: str):
        self.store, self.spec, self.done, self.compression = store, spec, done, compression
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="belot-sim-writer")
        self.pending: list[Future] = []  # tasks handed to the writing thread, oldest first
        self.failed = False  # set by the writing thread at its first error
        self.open_parts: list[_PartFiles] = []  # started, not yet committed: their files go if the run fails
        self.part: _PartFiles | None = None
        self.turn = 0
        self.sets: list[DealArrays | None] = [None, None]

    def arrays(self, plan: DealPlan, size: int) -> DealArrays:
        """The set of arrays for the next block: not the one whose block may still be being written."""
        k = self.turn % 2
        self.turn += 1
        out = self.sets[k]
        if out is None or out.n < size:
            out = self.sets[k] = DealArrays(plan, max(size, SLOW_BLOCK if plan.slow else BLOCK))
        return out

    def start_part(self, k: int) -> None:
        self.part = _PartFiles(self.store, self.spec, k, self.compression)
        self.open_parts.append(self.part)

    def add(self, make_frames) -> None:
        """Write the block ``make_frames()`` (run in the writing thread) to the current part."""
        self._wait()
        self._submit(self.part, self.part.write, make_frames)

    def end_part(self) -> None:
        part, self.part = self.part, None
        self._submit(part, self._finish, part)

    def _submit(self, part: _PartFiles, task, *args) -> None:
        self.pending.append(self.pool.submit(self._run, part, task, *args))

    def _run(self, part: _PartFiles, task, *args) -> None:
        """In the writing thread: ``task(*args)``, unless an earlier task failed."""
        if self.failed:
            return
        try:
            task(*args)
        except BaseException as error:
            self.failed = True
            named = part.named(error)
            if named is error:
                raise
            raise named from error

    def _finish(self, part: _PartFiles) -> None:
        files = part.commit()
        self.open_parts.remove(part)  # its files are in place: a failure to record it leaves them for a resume
        self.done(part.k, files)

    def _wait(self) -> None:
        pending, self.pending = self.pending, []
        first = None
        for future in pending:
            try:
                future.result()
            except BaseException as error:
                first = first or error
        if first is not None:
            raise first

    def close(self) -> None:
        self._wait()
        self.pool.shutdown(wait=True)

    def abort(self) -> BaseException | None:
        """After an error or Ctrl-C: let the writing thread finish what it was given (a finished part
        is kept), delete the files of every part not committed, and return the writing thread's
        error, if any (the caller reports it beside its own)."""
        try:
            self._wait()
            error = None
        except BaseException as raised:
            error = raised
        self.pool.shutdown(wait=True)
        for part in self.open_parts:
            part.discard()
        self.open_parts = []
        return error


class _ChecksummedSink:
    """A writable file for ``pq.ParquetWriter`` that passes every byte to ``stream`` and keeps their
    count and CRC-32 (what the manifest records of the file: :class:`~belot_sim.manifest.PartFile`).
    CRC-32 runs at about 2.3 GB/s (zlib, 2026-12-07): a few percent of the writing thread's time."""

    def __init__(self, stream):
        self.stream, self.size, self.crc32, self.closed = stream, 0, 0, False

    def write(self, data) -> int:
        self.stream.write(data)
        self.crc32 = zlib.crc32(data, self.crc32)
        self.size += len(data)
        return len(data)

    def tell(self) -> int:
        return self.size

    def writable(self) -> bool:
        return True

    def flush(self) -> None:
        self.stream.flush()

    def close(self) -> None:
        if not self.closed:
            try:
                self.stream.close()
            finally:
                self.closed = True


class _PartFiles:
    """One part's Parquet files: written under temporary names (in the writing thread), renamed by
    :meth:`commit` (the first frame last: a part counts as written once all its files are there),
    each with the run's identity and the part's index in its metadata (:mod:`belot_sim.parts`), its
    size and CRC-32 counted as it is written, Parquet page checksums inside."""

    def __init__(self, store: Store, spec: PartSpec, k: int, compression: str):
        frames = spec.frames
        self.store, self.frames, self.k, self.compression = store, frames, k, compression
        self.metadata = {f: spec.metadata(k, f) for f in frames}
        self.targets = {f: f"{f}/{part_name(k)}" for f in frames}
        self.temps = {f: store.temporary(f, part_name(k)) for f in frames}
        self.writers: dict = {}
        self.sinks: dict[str, _ChecksummedSink] = {}
        self.rows = dict.fromkeys(frames, 0)
        self.moved: list[str] = []  # frames renamed by commit
        self.frame = frames[0]  # the file being worked on: the one an error names

    def write(self, make_frames) -> None:
        self.frame = self.frames[0]  # an error making the frames names the part's first file
        for name, frame in zip(self.frames, make_frames()):
            self.frame = name
            table = _arrow(frame, self.metadata[name])
            writer = self.writers.get(name) or self._open(name, table.schema)
            writer.write_table(table)
            self.rows[name] += table.num_rows

    def _open(self, name: str, schema):
        """The Parquet writer of frame ``name``'s temporary file, created."""
        import pyarrow.parquet as pq

        sink = self.sinks[name] = _ChecksummedSink(self.store.fs.open_output_stream(self.store.join(self.temps[name])))
        schema = schema.with_metadata({**schema.metadata, COLUMNS_KEY: columns_record(schema)})
        writer = self.writers[name] = pq.ParquetWriter(sink, schema, **_writer_options(schema.names, self.compression))
        return writer

    def commit(self) -> dict[str, PartFile]:
        self._close()
        for name in [*self.frames[1:], self.frames[0]]:
            self.frame = name
            if self.store.kind(self.targets[name]) != "none":
                self.store.delete(self.targets[name])  # a stale part (not in the manifest) is replaced
            self.store.move(self.temps[name], self.targets[name])
            self.moved.append(name)
        self.store.written(*self.targets.values())
        return {f: PartFile(self.rows[f], self.sinks[f].size, self.sinks[f].crc32) for f in self.frames}

    def discard(self) -> None:
        """Delete this part's files, temporary or already renamed by a commit that failed half-way.
        A file that fails again while being closed is deleted all the same: the part's first error is
        the one reported."""
        writers, self.writers = self.writers, {}
        for writer in writers.values():
            try:
                writer.close()
            except damaged_file_errors():
                writer.is_open = False  # given up (its file goes): no second try when it is collected
        for sink in self.sinks.values():
            try:
                sink.close()
            except OSError:
                pass
        for name in self.frames:
            self.store.delete(self.temps[name])
        for name in self.moved:
            self.store.delete(self.targets[name])

    def named(self, error: BaseException) -> BaseException:
        """``error`` saying which part and file it struck and that a resume completes the dataset: an
        OSError becomes a :class:`~belot_sim.DatasetWriteError`, another error gets a note."""
        if isinstance(error, DatasetWriteError):
            return error
        where = f"part {self.k} of {self.store.path} ({self.targets[self.frame]})"
        advice = "nothing of that part was kept; resume=True (--resume) completes the dataset"
        if isinstance(error, OSError):
            return DatasetWriteError(f"writing {where} failed: {error}; {advice}", errno=error.errno)
        if isinstance(error, Exception):
            error.add_note(f"while writing {where}: {advice}")
        return error

    def _close(self) -> None:
        for name in list(self.writers):
            self.frame = name
            self.writers[name].close()
            del self.writers[name]  # only once closed: discard() closes (or gives up) the others
            self.sinks[name].close()


#: The only columns that hold nulls (the contract of a void deal); declaring the others
#: non-nullable spares the writer their definition levels (measured: 0.091 s instead of 0.110 s of
#: CPU for 1 M deals).
NULLABLE_COLUMNS = ("contract",)


def _arrow(frame: pd.DataFrame, metadata: dict[bytes, bytes]):
    """``frame`` as an Arrow table (no copy), every column but :data:`NULLABLE_COLUMNS` non-nullable,
    with ``metadata`` added to the schema's."""
    import pyarrow as pa

    table = pa.Table.from_pandas(frame, preserve_index=False)
    fields = [f if f.name in NULLABLE_COLUMNS else f.with_nullable(False) for f in table.schema]
    return table.cast(pa.schema(fields, metadata={**(table.schema.metadata or {}), **metadata}))


def _writer_options(columns: list[str], compression: str = "lz4") -> dict:
    """``pq.ParquetWriter`` options for a frame of ``columns``: ``compression`` for every column, but
    with ``"lz4"`` the per-column choices of :data:`DELTA_COLUMNS` and :data:`UNCOMPRESSED_COLUMNS`."""
    delta, codec = ID_COLUMNS, compression
    if compression == "lz4":
        delta = (*ID_COLUMNS, *DELTA_COLUMNS)
        codec = {c: "none" if c in UNCOMPRESSED_COLUMNS else "lz4" for c in columns}
    return {"compression": codec, "use_dictionary": [c for c in DICTIONARY_COLUMNS if c in columns],
            "write_statistics": [c for c in ID_COLUMNS if c in columns], "write_page_checksum": True,
            "column_encoding": {c: "DELTA_BINARY_PACKED" for c in delta if c in columns}}


# --- the folder and its manifest -----------------------------------------------------------------

def _target(path, resume: bool) -> Store:
    """The dataset folder, checked: new, empty, or (with ``resume``) a belot_sim dataset."""
    store = Store(path)
    kind = store.kind()
    if kind == "file":
        raise ValueError(f"{store.path} is a file: a dataset is a folder")
    if kind == "none":
        if not is_url(store.path):
            parent = os.path.dirname(store.path.rstrip("/")) or "."
            if os.path.isfile(parent):
                raise ValueError(f"cannot create {store.path}: {parent} is a file, not a folder")
            if not os.path.isdir(parent):
                raise ValueError(f"cannot create {store.path}: the folder {parent} does not exist")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise ValueError(f"cannot create {store.path}: {parent} is not writable")
        store.makedirs()
        return store
    if not is_url(store.path) and not os.access(store.path, os.W_OK | os.X_OK):
        raise ValueError(f"cannot write in {store.path}: permission denied")
    names = [name for name in store.names() if name != LOCK]  # a writer stopped before its first manifest
    if MANIFEST in names:
        if not resume:
            raise ValueError(f"{store.path} already holds a dataset: complete it with resume=True (--resume), with the "
                             "same arguments, or write elsewhere")
    elif names and {n for n in names if not n.startswith(TEMPORARY_PREFIX)} <= FRAME_FOLDERS:
        if not resume:
            raise ValueError(f"{store.path} holds a dataset's frames but no manifest {MANIFEST}: resume=True "
                             "(--resume) with the arguments that made it writes the manifest again and keeps their "
                             "parts (each part records them in its Parquet metadata, key 'belot_sim.identity'; a "
                             "resume with other arguments is refused), or write elsewhere")
    elif names:
        raise ValueError(f"{store.path} is not empty and holds no belot_sim dataset: refusing to write into it")
    return store


def load_manifest(store: Store) -> Manifest | None:
    if store.kind(MANIFEST) != "file":
        return None
    return Manifest.from_json(store.read_bytes(MANIFEST), store.path)


def save_manifest(store: Store, manifest: Manifest) -> None:
    try:
        store.write_bytes(manifest.to_json(), MANIFEST)
    except OSError as error:
        raise DatasetWriteError(f"cannot write the manifest {store.join(MANIFEST)}: {error}; the parts written so far "
                                "are complete and resume=True (--resume) completes the dataset",
                                errno=error.errno) from error


def _verified_parts(store: Store, manifest: Manifest) -> dict[int, dict[str, PartFile]]:
    """The parts the manifest lists as done whose files are all there with the recorded row counts,
    the part's ids and every byte as written (size and CRC-32)."""
    bad = part_problems(store, manifest, manifest.frames, content=True)
    return {k: files for k, files in manifest.parts.items() if k not in bad}


def _remove_temporary_files(store: Store, *folder: str) -> None:
    """What an interrupted writer left in ``folder`` (never a finished part or manifest: those are
    renamed)."""
    for name in store.names(*folder):
        if name.startswith(TEMPORARY_PREFIX) and name.endswith(".tmp"):
            store.delete(*folder, name)
