"""Writing a dataset (its layout, checks and guarantees: :mod:`belot_sim.datasets`): the missing parts
computed block by block while a background thread writes the blocks before, each part under
temporary names, renamed when complete, then recorded in the manifest."""

from __future__ import annotations

import functools
import os
import zlib
from concurrent.futures import Future, ThreadPoolExecutor

import pandas as pd

from ..engine.checks import check_bool, check_int, check_threads, numba_threads
from ..engine.distributed import check_client, run_partitions
from ..engine.io import require_pyarrow
from ..engine.progress import Progress, check_progress
from ..errors import DatasetMismatchError, DatasetWriteError
from ..kernels.batch.match import MAX_MATCH_ID
from ..simulation.dask import DEFAULT_PARTITION, check_partition_size
from ..simulation.deals import (BLOCK, MAX_DEALS, SLOW_BLOCK, DealArrays, DealPlan, deal_blocks, plan_deals,
                                simulate_arguments)
from ..simulation.matches import CLIENT_PARTITION as MATCH_PARTITION
from ..simulation.matches import MatchPlan, match_blocks, plan_arguments, plan_matches
from .manifest import LOCK, MANIFEST, Manifest, PartFile, deal_arguments, load_manifest, match_arguments, save_manifest
from .parts import (COLUMNS_KEY, FRAME_FOLDERS, PartSpec, columns_record, damaged_file_errors, foreign_part, part_name,
                    part_problems, unlisted_parts)
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


# --- the public functions --------------------------------------------------------------------

def simulate_to_parquet(path, n: int | None = None, *, partition_size: int | None = None, resume: bool = False,
                        client=None, progress: bool | None = None, start: int | None = None,
                        threads: int | None = None, compression: str = "lz4", **simulate_kwargs) -> str:
    """Write ``simulate(n, start=start, **simulate_kwargs)`` as a partitioned Parquet dataset.

    The dataset is the folder ``path``: one part per ``partition_size`` consecutive deal ids, each
    written in blocks of about half a second (memory stays bounded by a block) under a temporary name
    and renamed when complete, plus the manifest ``_belot_sim.json``.  ``plays=True`` / ``calls=True``
    write the long frames as ``plays/`` and ``calls/`` beside ``deals/``, with the same partitioning.

    One writer at a time: a local folder is locked (``_belot_sim.lock``, released when the writer ends,
    however it ends) and a second writer is refused; a folder behind a URL is not locked.  Ctrl-C stops
    the run within about a second and keeps the parts already written.  In a local folder about the
    last 512 MiB of parts a process wrote stay in the OS page cache
    (:class:`belot_sim.datasets.storage._WriteBehind`): reading back a bigger dataset at once reads the
    older parts from the disk.

    Parameters
    ----------
    path : str or os.PathLike
        The dataset's folder: a local path or a URL every worker can reach.  Without ``resume`` it
        must be new or empty.
    n : int, optional
        The number of deals; required unless ``resume`` finds a dataset at ``path`` (then default:
        the manifest's).
    partition_size : int, optional
        Deals per part (default 1,000,000, or the manifest's with ``resume``).
    resume : bool, default False
        Complete, or grow, the dataset already at ``path``: every argument the call does not give
        (``n`` included) is the manifest's, one it gives must be the manifest's, but a larger ``n``
        appends parts (rows stay rows ``0..n-1`` of ``simulate(n, ...)``: Monte Carlo runs add samples
        until an interval is tight) and a smaller one is refused.  Only the parts missing, unreadable,
        or not the ones the manifest lists (other row counts, ids outside the part's range in the
        footer's statistics, or another size or CRC-32 of the file's bytes: every listed file is read
        once) are computed, and finished parts the manifest does not list but these arguments wrote
        are kept (also when the manifest was deleted).  ``worlds`` counts only with a ``pimc``,
        ``pimc-exact`` or ``expert`` seat, the players that read it.
    client : distributed.Client, optional
        A Dask client whose workers compute and write the parts (:mod:`belot_sim.simulation.dask`);
        ``None`` (default) writes them in this process.
    progress : bool, optional
        Show a progress bar on stderr: True from the start, False never, ``None`` (default) once the
        run has lasted about 3 seconds (as a line every 30 seconds when stderr is not a terminal).
    start : int, optional
        The first deal id (default 0, or the manifest's with ``resume``).
    threads : int, optional
        Numba threads (default: Numba's current setting; on a Dask worker: 1).
    compression : {"lz4", "zstd", "snappy", "none"}, default "lz4"
        ``"lz4"``: each column encoded for speed, see :data:`DELTA_COLUMNS`; ``"zstd"``: smaller,
        slower; ``"snappy"``; ``"none"``: a little faster, files 2.8 times bigger.
    **simulate_kwargs
        The keywords of :func:`belot_sim.simulate` that choose the deals, with its defaults: ``rules``,
        ``contract``, ``declarer``, ``players``, ``bidders``, ``seed``, ``plays``, ``multiplier``,
        ``worlds``, ``calls``, ``bidder_options``.

    Returns
    -------
    str
        The dataset's path (a local one absolute, ``~`` expanded).

    Raises
    ------
    ImportError
        If pyarrow (the ``parquet`` extra) is not installed.
    TypeError
        If ``n`` is not given and no dataset is resumed, or on an unknown keyword.
    ValueError
        On a bad argument, or a ``path`` that is a file, is not empty and holds no dataset, already
        holds a dataset without ``resume``, or is locked by another writer.
    DatasetMismatchError
        With ``resume``, a :class:`~belot_sim.DatasetMismatchError` (a ValueError) names the first
        argument that differs from the ones the dataset was made with (without a manifest: the first
        part that is not this call's, and why) and changes nothing.
    DatasetWriteError
        A failed write raises :class:`~belot_sim.DatasetWriteError` (an OSError) naming the part; the
        parts finished before it stay, and a resume completes the dataset.
    """
    require_pyarrow("simulate_to_parquet")
    n, start, partition_size, simulate_kwargs = _resumed(path, "deals", resume, n, start, partition_size,
                                                         simulate_kwargs, DEFAULT_PARTITION)
    plan = plan_deals(**simulate_arguments(simulate_kwargs))
    n = check_int(n, "n", 0, MAX_DEALS)
    start = check_int(start, "start", 0, 2**62 - n)
    frames = ["deals", *(["plays"] if plan.plays else []), *(["calls"] if plan.calls else [])]
    manifest = Manifest("deals", frames, n, start, check_partition_size(partition_size), deal_arguments(plan))
    return _write(path, manifest, plan, resume=resume, client=client, progress=progress, threads=threads,
                  compression=compression)


def simulate_matches_to_parquet(path, n: int | None = None, *, partition_size: int | None = None,
                                resume: bool = False, client=None, progress: bool | None = None,
                                start: int | None = None, threads: int | None = None, compression: str = "lz4",
                                **simulate_matches_kwargs) -> str:
    """Write ``simulate_matches(n, start=start, **simulate_matches_kwargs)`` as a Parquet dataset at ``path``.

    As :func:`simulate_to_parquet` does for deals (folder, manifest, lock, resume, errors): ``matches/``
    then ``deals/`` (and ``plays/``, ``calls/`` when asked), one part per ``partition_size`` consecutive
    match ids, every deal in the part of its match.

    Parameters
    ----------
    path : str or os.PathLike
        The dataset's folder: a local path or a URL every worker can reach.  Without ``resume`` it
        must be new or empty.
    n : int, optional
        The number of matches; required unless ``resume`` finds a dataset of matches at ``path``
        (then default: the manifest's).
    partition_size : int, optional
        Matches per part (default 10,000, or the manifest's with ``resume``).
    resume : bool, default False
        Complete, or grow, the dataset already at ``path``, as :func:`simulate_to_parquet` does.
    client : distributed.Client, optional
        A Dask client whose workers compute and write the parts; ``None`` (default) writes them in
        this process.
    progress : bool, optional
        Show a progress bar on stderr: True from the start, False never, ``None`` (default) once the
        run has lasted a few seconds.
    start : int, optional
        The first match id (default 0, or the manifest's with ``resume``).
    threads : int, optional
        Numba threads (default: Numba's current setting; on a Dask worker: 1).
    compression : {"lz4", "zstd", "snappy", "none"}, default "lz4"
        The Parquet compression, as in :func:`simulate_to_parquet`.
    **simulate_matches_kwargs
        The keywords of :func:`belot_sim.simulate_matches` that choose the matches, with its
        defaults: ``rules``, ``players``, ``bidders``, ``seed``, ``worlds``, ``bidder_options``,
        ``max_deals``, ``plays``, ``calls``.

    Returns
    -------
    str
        The dataset's path (a local one absolute, ``~`` expanded).

    Raises
    ------
    ImportError
        If pyarrow (the ``parquet`` extra) is not installed.
    TypeError
        If ``n`` is not given and no dataset is resumed, or on an unknown keyword.
    ValueError
        On a bad argument or target folder, as :func:`simulate_to_parquet`;
        :class:`~belot_sim.DatasetMismatchError` (a ValueError) when a resumed dataset was made with
        other arguments.
    DatasetWriteError
        A failed write (an OSError) names the part; the parts finished before it stay.
    """
    require_pyarrow("simulate_matches_to_parquet")
    n, start, partition_size, simulate_matches_kwargs = _resumed(path, "matches", resume, n, start, partition_size,
                                                                 simulate_matches_kwargs, MATCH_PARTITION)
    plan = plan_matches(**plan_arguments(simulate_matches_kwargs))
    n = check_int(n, "n", 0, MAX_MATCH_ID + 1)
    start = check_int(start, "start", 0, MAX_MATCH_ID + 1 - n)
    frames = ["matches", "deals", *(["plays"] if plan.plays else []), *(["calls"] if plan.calls else [])]
    manifest = Manifest("matches", frames, n, start, check_partition_size(partition_size), match_arguments(plan))
    return _write(path, manifest, plan, resume=resume, client=client, progress=progress, threads=threads,
                  compression=compression)


# --- writing -------------------------------------------------------------------------------------

def _resumed(path, kind: str, resume, n, start, partition_size, kwargs: dict, default_partition: int):
    """``(n, start, partition_size, keywords)`` of a call: with ``resume`` and a dataset of ``kind`` at
    ``path``, what the call does not give comes from its manifest (what it gives must agree, checked
    later, but ``n`` may grow); otherwise ``n`` is needed and the rest has its defaults."""
    previous = load_manifest(Store(path)) if check_bool(resume, "resume") else None
    if previous is not None and previous.kind == kind:
        kwargs = {**previous.call_arguments(), **kwargs}
        return (previous.n if n is None else n, previous.start if start is None else start,
                previous.partition_size if partition_size is None else partition_size, kwargs)
    if n is None:
        what = "deals" if kind == "deals" else "matches"
        raise TypeError(f"n (the number of {what}) is needed, unless resume=True finds a dataset at the path, "
                        "whose manifest gives it")
    return n, 0 if start is None else start, default_partition if partition_size is None else partition_size, kwargs


def _write(path, manifest: Manifest, plan, *, resume, client, progress, threads, compression) -> str:
    """Check the target and the run's options, then write the parts that are missing."""
    resume = check_bool(resume, "resume")
    if compression not in COMPRESSIONS:
        raise ValueError(f"compression must be one of {COMPRESSIONS}, got {compression!r}")
    threads = check_threads(threads) if client is None else _worker_threads(threads)
    progress = check_progress(progress)
    client = check_client(client, "simulate_to_parquet")
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
        manifest.parts, manifest.created = _grown(manifest, _verified_parts(store, previous)), previous.created
        manifest.arguments = previous.arguments  # as the parts were made (an unread worlds= may differ)
    else:
        foreign = foreign_part(store, manifest)  # a folder whose manifest is gone: only its own run completes it
        if foreign is not None:
            raise DatasetMismatchError(store.path, f"has no manifest {MANIFEST} and {foreign}",
                                       "resume=True (--resume) keeps only parts of the same arguments (each part "
                                       "records them in its Parquet metadata, key 'belot_sim.identity'); nothing "
                                       "was changed")
    # Parts no manifest lists but this run's arguments wrote: its manifest was deleted, or cluster
    # tasks ran to their end after Ctrl-C.  Not the listed parts dropped above: they failed their
    # checks (damaged, whatever their pages say) or a larger n made them short.
    dropped = set(previous.parts) - set(manifest.parts) if previous is not None else set()
    manifest.parts.update(unlisted_parts(store, manifest, skip=dropped))
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
    count and CRC-32 (what the manifest records of the file: :class:`~belot_sim.datasets.manifest.PartFile`).
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
    each with the run's identity and the part's index in its metadata (:mod:`belot_sim.datasets.parts`), its
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


def _grown(manifest: Manifest, parts: dict[int, dict[str, PartFile]]) -> dict[int, dict[str, PartFile]]:
    """The finished ``parts`` that stay finished in ``manifest``, which a resume may have grown: the last
    part of a smaller ``n`` holds fewer ids than its part now does, and is computed again."""
    first = manifest.frames[0]  # a row per id
    return {k: files for k, files in parts.items() if files[first].rows == manifest.part_range(k)[1]}


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
