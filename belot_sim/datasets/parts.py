"""A dataset's part files checked: against the manifest that lists them (from the Parquet footer: row
counts, the id range in the id column's statistics; from every byte: the size and CRC-32 the writer
recorded), and against the arguments recorded in each file, so parts a manifest does not list (it
was deleted, or a cluster task finished after Ctrl-C) can be kept by a resume with the same
arguments; those have no recorded CRC-32, so they are read in full with Parquet's page checksums
verified (every data and dictionary page carries one) before they are kept.

Every part file carries, in its key-value metadata, :data:`IDENTITY_KEY`: the manifest's
:meth:`~belot_sim.datasets.manifest.Manifest.identity` as canonical JSON (everything a resume must match),
with :data:`PART_KEY` and :data:`FRAME_KEY`: the part's index and frame.  A part file whose record
differs is not the one a manifest lists, whatever its rows; a file that records nothing (written
before parts recorded their run) is checked by its rows and ids alone.
"""

from __future__ import annotations

import json
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..kernels.batch.match import DEAL_ID_STRIDE
from .manifest import FRAMES, Manifest, PartFile, first_difference, without_n
from .storage import Store

IDENTITY_KEY = b"belot_sim.identity"
#: The file's columns as written (names and Arrow types): page checksums do not cover the footer, where
#: a flipped byte can rename a column or change its type; a part no manifest lists must match it.
COLUMNS_KEY = b"belot_sim.columns"
PART_KEY = b"belot_sim.part"
FRAME_KEY = b"belot_sim.frame"
#: Footers read at a time (on a remote store each is a request).
READERS = 8
#: Bytes read at a time while a part file's CRC-32 is computed (memory stays bounded by READERS of them).
CHUNK = 8 << 20
#: The folders of a dataset's frames, of either kind.
FRAME_FOLDERS = frozenset(name for names in FRAMES.values() for name in names)


def part_name(k: int) -> str:
    return f"part-{k:05d}.parquet"


@dataclass(frozen=True)
class PartSpec:
    """What a writer of parts needs of a manifest (small: a cluster task carries it): the frames and
    the identity each file records."""

    frames: tuple[str, ...]
    identity: bytes

    @classmethod
    def of(cls, manifest: Manifest) -> PartSpec:
        return cls(tuple(manifest.frames), manifest.identity_json())

    def metadata(self, k: int, frame: str) -> dict[bytes, bytes]:
        """The key-value metadata the file of part ``k`` of ``frame`` is written with."""
        return {IDENTITY_KEY: self.identity, PART_KEY: str(k).encode(), FRAME_KEY: frame.encode()}


def part_problems(store: Store, manifest: Manifest, frames: list[str], content: bool = False) -> dict[int, str]:
    """``{part: its first problem}`` of the listed parts whose file of one of ``frames`` is not the one
    the manifest lists (:func:`part_problem`; footers only, about a millisecond a file locally, unless
    ``content``: then every byte too)."""
    def first_problem(k: int) -> str | None:
        return next((p for f in frames if (p := part_problem(store, manifest, k, f, content)) is not None), None)

    listed = sorted(manifest.parts)
    with ThreadPoolExecutor(max_workers=READERS) as pool:
        problems = dict(zip(listed, pool.map(first_problem, listed)))
    return {k: p for k, p in problems.items() if p is not None}


def part_problem(store: Store, manifest: Manifest, k: int, frame: str, content: bool = False) -> str | None:
    """Why the file of part ``k`` of ``frame`` is not the one the manifest lists (``None``: it is):
    missing, unreadable, another row count, or ids outside the part's range (a part copied or
    moved from elsewhere), read from the footer's statistics of the id column; with ``content``,
    also another size or CRC-32 than the manifest records (any changed byte)."""
    name = store.join(frame, part_name(k))
    metadata, problem = _footer(store, name)
    if problem is not None:
        return problem
    record = manifest.parts[k][frame]
    if metadata.num_rows != record.rows:
        return f"its part {name} has {metadata.num_rows} rows, the manifest lists {record.rows}"
    problem = _id_problem(manifest, k, frame, name, metadata) or _stamp_problem(manifest, k, frame, name, metadata,
                                                                                unstamped_ok=True)
    if problem is None and content and record.crc32 is not None:
        try:
            size, crc = file_digest(store, name)
        except OSError as error:
            return f"its part {name} cannot be read ({error})"
        problem = content_problem(record, name, size, crc)
    return problem


def file_digest(store: Store, name: str) -> tuple[int, int]:
    """``(size, CRC-32)`` of every byte of the file ``name``, read in chunks of :data:`CHUNK`."""
    size = crc = 0
    with store.fs.open_input_stream(name) as stream:
        while chunk := stream.read(CHUNK):
            crc = zlib.crc32(chunk, crc)
            size += len(chunk)
    return size, crc


def content_problem(record: PartFile, name: str, size: int, crc: int) -> str | None:
    """Why a file of ``size`` bytes and CRC-32 ``crc`` is not the part file ``record`` describes
    (``None``: it is, or the record has no checksum: a format-1 manifest)."""
    if record.crc32 is None:
        return None
    if size != record.size:
        return f"its part {name} has {size} bytes, the manifest records {record.size}"
    if crc != record.crc32:
        return (f"its part {name} has changed since it was written (CRC-32 {crc:08x}, the manifest records "
                f"{record.crc32:08x})")
    return None


def unlisted_parts(store: Store, manifest: Manifest, skip: set[int] = frozenset()) -> dict[int, dict[str, PartFile]]:
    """``{part: its files}`` of the parts the manifest does not list (nor ``skip`` does) whose files
    are all there, were written with the manifest's identity as part ``k``, hold the part's ids and
    read back with every page checksum right: a resume keeps them as done."""
    present = [set(store.names(frame)) for frame in manifest.frames]
    candidates = [k for k in manifest.missing() if k not in skip and all(part_name(k) in names for names in present)]
    with ThreadPoolExecutor(max_workers=READERS) as pool:
        found = dict(zip(candidates, pool.map(lambda k: _stamped_rows(store, manifest, k), candidates)))
    return {k: rows for k, rows in found.items() if rows is not None}


def _stamped_rows(store: Store, manifest: Manifest, k: int) -> dict[str, PartFile] | None:
    files = {}
    for frame in manifest.frames:
        name = store.join(frame, part_name(k))
        metadata, problem = _footer(store, name)
        if problem is not None or _stamp_problem(manifest, k, frame, name, metadata) is not None:
            return None
        if frame == manifest.frames[0] and metadata.num_rows != manifest.part_range(k)[1]:
            return None  # the first frame has a row per id
        if _id_problem(manifest, k, frame, name, metadata) is not None:
            return None
        files[frame] = _verified_pages(store, name, metadata.num_rows)
        if files[frame] is None:
            return None
    return files


def columns_record(schema) -> bytes:
    """:data:`COLUMNS_KEY`'s value for an Arrow ``schema``: its columns' names and types as JSON (text as
    ``string``: pandas' text columns are written as ``large_string`` and read back as ``string``)."""
    return json.dumps([[field.name, str(field.type).replace("large_string", "string")] for field in schema]).encode()


def _verified_pages(store: Store, name: str, rows: int) -> PartFile | None:
    """The record of a part file no manifest lists, once it read back whole, a row group at a time,
    with every page's checksum verified, ``rows`` rows and the columns it records (``None``: it did
    not)."""
    import pyarrow.parquet as pq

    try:
        with store.fs.open_input_file(name) as handle:
            parquet = pq.ParquetFile(handle, page_checksum_verification=True)
            recorded = (parquet.schema_arrow.metadata or {}).get(COLUMNS_KEY)
            if recorded is None or recorded != columns_record(parquet.schema_arrow):
                return None
            read = sum(batch.num_rows for batch in parquet.iter_batches())
        size, crc = file_digest(store, name)
    except damaged_file_errors():
        return None
    return PartFile(rows, size, crc) if read == rows else None


def foreign_part(store: Store, manifest: Manifest) -> str | None:
    """Why a folder without a manifest cannot be completed by a resume with ``manifest``'s arguments
    (``None``: it can): the first readable part file of a frame folder that this run did not write —
    no record of its arguments (an older belot_sim), other arguments (named), or a frame this run
    does not write.  Unreadable files are not data: a resume replaces them."""
    footers = [(store.join(frame, n), frame) for frame in sorted(FRAME_FOLDERS) for n in store.names(frame)
               if n.startswith("part-") and n.endswith(".parquet")]
    with ThreadPoolExecutor(max_workers=READERS) as pool:
        read = list(pool.map(lambda item: _footer(store, item[0])[0], footers))
    for (name, frame), metadata in zip(footers, read):
        if metadata is None:
            continue
        if frame not in manifest.frames:
            return f"{name} is a part of a {frame} frame, which this call does not write"
        problem = _identity_problem(manifest, name, metadata)
        if problem is not None:
            return problem
    return None


def _stamp_problem(manifest: Manifest, k: int, frame: str, name: str, metadata, unstamped_ok: bool = False):
    """Why the file ``name`` was not written as part ``k`` of ``frame`` with ``manifest``'s identity
    (``None``: it was; also when it records nothing and ``unstamped_ok``)."""
    recorded = metadata.metadata or {}
    if IDENTITY_KEY not in recorded and unstamped_ok:
        return None
    problem = _identity_problem(manifest, name, metadata)
    if problem is not None:
        return problem
    expected = PartSpec.of(manifest).metadata(k, frame)
    if recorded.get(PART_KEY) != expected[PART_KEY] or recorded.get(FRAME_KEY) != expected[FRAME_KEY]:
        written = f"part {_text(recorded.get(PART_KEY))} of the {_text(recorded.get(FRAME_KEY))} frame"
        return f"its part {name} was written as {written}"
    return None


def _identity_problem(manifest: Manifest, name: str, metadata) -> str | None:
    """Why the file ``name`` was not written by a run of ``manifest``'s identity (``None``: it was)."""
    recorded = metadata.metadata or {}
    if IDENTITY_KEY not in recorded:
        return f"its part {name} does not record the arguments that wrote it"
    if recorded[IDENTITY_KEY] != manifest.identity_json():
        try:
            theirs = json.loads(recorded[IDENTITY_KEY])
        except ValueError:
            theirs = None
        if not isinstance(theirs, dict):
            return f"its part {name} records unreadable arguments"
        key, made, given = first_difference(without_n(theirs), without_n(manifest.identity()))
        if key is not None:  # another n alone: the same run, before or after a resume grew it
            return f"its part {name} was written with {key}={made!r}, this call has {key}={given!r}"
    return None


def _text(value: bytes | None) -> str:
    return "?" if value is None else value.decode(errors="replace")


def damaged_file_errors() -> tuple[type[BaseException], ...]:
    """What pyarrow raises reading a damaged Parquet file: its own exceptions (each also a built-in
    one: ArrowInvalid a ValueError, ArrowIndexError an IndexError, ...) and the built-ins, among them
    MemoryError for a size field a flipped bit made huge."""
    import pyarrow as pa

    return (pa.lib.ArrowException, OSError, ValueError, TypeError, IndexError, KeyError, MemoryError,
            NotImplementedError)


def _footer(store: Store, name: str):
    """``(the file's Parquet metadata, None)``, or ``(None, why it cannot be read)``."""
    import pyarrow.parquet as pq

    try:
        return pq.read_metadata(name, filesystem=store.fs), None
    except damaged_file_errors() as error:
        return None, f"its part {name} cannot be read ({error})"


def _id_problem(manifest: Manifest, k: int, frame: str, name: str, metadata) -> str | None:
    """Why the ids in the file ``name`` of part ``k`` of ``frame`` are not the part's (``None``: they
    are, or the file is empty): the first frame holds every id of its part, the others ids within it."""
    if metadata.num_rows == 0:
        return None
    first, count = manifest.part_range(k)
    names = metadata.schema.names
    column = "match_id" if "match_id" in names else "deal_id"
    low, high = first, first + count - 1
    if manifest.kind == "matches" and column == "deal_id":
        low, high = low * DEAL_ID_STRIDE, (high + 1) * DEAL_ID_STRIDE - 1
    found = _id_range(metadata, names.index(column)) if column in names else None
    exact = frame == manifest.frames[0]
    if found is None or found[0] < low or found[1] > high or (exact and found != (low, high)):
        return (f"its part {name} holds {column} {found and f'{found[0]}..{found[1]}'}, part {k} is {column} "
                f"{low}..{high}")
    return None


def _id_range(metadata, column: int) -> tuple[int, int] | None:
    """``(min, max)`` of a column over a file's row groups, from their statistics (``None``: not recorded)."""
    low = high = None
    for g in range(metadata.num_row_groups):
        stats = metadata.row_group(g).column(column).statistics
        if stats is None or not stats.has_min_max:
            return None
        low = stats.min if low is None else min(low, stats.min)
        high = stats.max if high is None else max(high, stats.max)
    return None if low is None else (int(low), int(high))
