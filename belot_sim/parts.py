"""A dataset's part files checked from their Parquet footers: against the manifest that lists them
(row counts, the id range in the id column's statistics), and against the arguments recorded in
each file, so parts a manifest does not list (it was deleted, or a cluster task finished after
Ctrl-C) can be kept by a resume with the same arguments.

Every part file carries, in its key-value metadata, :data:`IDENTITY_KEY`: the manifest's
:meth:`~belot_sim.manifest.Manifest.identity` as canonical JSON (everything a resume must match),
and :data:`PART_KEY`: the part's index.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from .kernels.batch.match import DEAL_ID_STRIDE
from .manifest import Manifest
from .storage import Store

IDENTITY_KEY = b"belot_sim.identity"
PART_KEY = b"belot_sim.part"
#: Footers read at a time (on a remote store each is a request).
READERS = 8


def part_name(k: int) -> str:
    return f"part-{k:05d}.parquet"


def part_metadata(manifest: Manifest, k: int) -> dict[bytes, bytes]:
    """The key-value metadata every file of part ``k`` is written with."""
    return {IDENTITY_KEY: manifest.identity_json(), PART_KEY: str(k).encode()}


def part_problems(store: Store, manifest: Manifest, frames: list[str]) -> dict[int, str]:
    """``{part: its first problem}`` of the listed parts whose file of one of ``frames`` is not the one
    the manifest lists (:func:`part_problem`; footers only, about a millisecond a file locally)."""
    def first_problem(k: int) -> str | None:
        return next((p for f in frames if (p := part_problem(store, manifest, k, f)) is not None), None)

    listed = sorted(manifest.parts)
    with ThreadPoolExecutor(max_workers=READERS) as pool:
        problems = dict(zip(listed, pool.map(first_problem, listed)))
    return {k: p for k, p in problems.items() if p is not None}


def part_problem(store: Store, manifest: Manifest, k: int, frame: str) -> str | None:
    """Why the file of part ``k`` of ``frame`` is not the one the manifest lists (``None``: it is):
    missing, unreadable, another row count, or ids outside the part's range (a part copied or
    moved from elsewhere), read from the footer's statistics of the id column."""
    name = store.join(frame, part_name(k))
    metadata, problem = _footer(store, name)
    if problem is not None:
        return problem
    rows = manifest.parts[k][frame]
    if metadata.num_rows != rows:
        return f"its part {name} has {metadata.num_rows} rows, the manifest lists {rows}"
    return _id_problem(manifest, k, frame, name, metadata)


def unlisted_parts(store: Store, manifest: Manifest) -> dict[int, dict[str, int]]:
    """``{part: rows per frame}`` of the parts the manifest does not list whose files are all there,
    were written with the manifest's identity as part ``k`` and hold the part's ids: a resume keeps
    them as done."""
    present = [set(store.names(frame)) for frame in manifest.frames]
    candidates = [k for k in manifest.missing() if all(part_name(k) in names for names in present)]
    with ThreadPoolExecutor(max_workers=READERS) as pool:
        found = dict(zip(candidates, pool.map(lambda k: _stamped_rows(store, manifest, k), candidates)))
    return {k: rows for k, rows in found.items() if rows is not None}


def _stamped_rows(store: Store, manifest: Manifest, k: int) -> dict[str, int] | None:
    identity = part_metadata(manifest, k)
    rows = {}
    for frame in manifest.frames:
        name = store.join(frame, part_name(k))
        metadata, problem = _footer(store, name)
        if problem is not None:
            return None
        recorded = metadata.metadata or {}
        if any(recorded.get(key) != value for key, value in identity.items()):
            return None
        if frame == manifest.frames[0] and metadata.num_rows != manifest.part_range(k)[1]:
            return None  # the first frame has a row per id
        if _id_problem(manifest, k, frame, name, metadata) is not None:
            return None
        rows[frame] = metadata.num_rows
    return rows


def _footer(store: Store, name: str):
    """``(the file's Parquet metadata, None)``, or ``(None, why it cannot be read)``."""
    import pyarrow.parquet as pq

    try:
        return pq.read_metadata(name, filesystem=store.fs), None
    except (OSError, ValueError) as error:
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
