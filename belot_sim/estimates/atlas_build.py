"""The job that computes the bid atlas (:mod:`belot_sim.estimates.atlas`): rows played out in partitions, each
partition saved as a file of its own so an interrupted job resumes (``scripts/bid_atlas.py`` drives
it, locally or on a Dask cluster, and assembles the table)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..engine.atlas_table import KIND_CONTRACT, RAW_SCALE, SCORE_SCALE, atlas_rows
from ..engine.runs import blocks
from ..game.rules import BULGARIAN

#: Layouts of a partition's first kernel call (later calls are sized to about half a second, runs.blocks):
#: 64 rows of 1,000 layouts take about 0.1 s on two threads.
LAYOUTS_FIRST_BLOCK = 64_000


def compute_rows(start: int, stop: int, *, samples: int, seed: int, players="hard") -> np.ndarray:
    """Rows ``start .. stop-1`` played out: int64[rows, 6] (made, hanging, sums of the bidding and
    defending teams' match points and raw points); the caller sets the threads."""
    from ..kernels.batch.atlas import atlas_rollout
    from ..kernels.core.rule_flags import flags_of
    from ..engine.registry import player_codes

    masks, kinds, positions = atlas_rows()
    ids = np.arange(start, stop, dtype=np.int64)
    contracts = np.array(KIND_CONTRACT, dtype=np.int64)[kinds[start:stop]]
    out = np.zeros((stop - start, 6), dtype=np.int64)
    atlas_rollout(np.uint64(seed), ids, masks[start:stop].astype(np.int64), contracts,
                  positions[start:stop].astype(np.int64), samples, flags_of(BULGARIAN),
                  np.array(player_codes(players), dtype=np.int64), out)
    return out


def table_arrays(totals: np.ndarray, samples: int) -> dict[str, np.ndarray]:
    """The stored columns from :func:`compute_rows` sums: counts, and means rounded to fixed steps."""
    def mean(column, scale):
        return np.rint(totals[:, column] * scale / samples).astype(np.int16)

    return {"made": totals[:, 0].astype(np.uint16), "hanging": totals[:, 1].astype(np.uint16),
            "score_b": mean(2, SCORE_SCALE), "score_d": mean(3, SCORE_SCALE),
            "raw_b": mean(4, RAW_SCALE), "raw_d": mean(5, RAW_SCALE)}


def write_table(path, totals: np.ndarray, meta: dict) -> Path:
    """The atlas file (compressed ``.npz``) from every row's totals, written under a temporary name
    and renamed when complete.  ``meta`` (samples, seed, players...) is stored as JSON."""
    import os

    path = Path(path)
    rows = len(atlas_rows()[0])
    if totals.shape != (rows, 6):
        raise ValueError(f"the atlas has {rows} rows, got totals of shape {totals.shape}")
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, meta=np.array(json.dumps(meta)), **table_arrays(totals, int(meta["samples"])))
    os.replace(tmp, path)
    return path


def part_bounds(part: int, parts: int) -> tuple[int, int]:
    """Rows ``[start, stop)`` of partition ``part`` of ``parts``."""
    rows = len(atlas_rows()[0])
    return part * rows // parts, (part + 1) * rows // parts


def part_path(directory, part: int) -> Path:
    return Path(directory) / f"part-{part:05d}.npy"


def read_part(directory, part: int, parts: int) -> np.ndarray | None:
    """A completed partition's totals, or None when it is missing or unreadable."""
    start, stop = part_bounds(part, parts)
    try:
        totals = np.load(part_path(directory, part))
    except (OSError, ValueError):
        return None
    return totals if totals.shape == (stop - start, 6) else None


def compute_part(directory, part: int, parts: int, samples: int, seed: int, threads: int | None = None) -> int:
    """Compute partition ``part`` and write it under a temporary name, renamed when complete (a
    worker of a Dask cluster runs this too; ``directory`` must be reachable from it)."""
    import os

    from ..engine.checks import numba_threads

    start, stop = part_bounds(part, parts)
    totals = np.empty((stop - start, 6), dtype=np.int64)
    with numba_threads(threads):  # in blocks of about half a second: Ctrl-C stops a partition soon
        first = max(1, LAYOUTS_FIRST_BLOCK // max(samples, 1))
        for offset, size in blocks(stop - start, first=first, cap=max(stop - start, 1)):
            totals[offset:offset + size] = compute_rows(start + offset, start + offset + size, samples=samples,
                                                        seed=seed)
    final = part_path(directory, part)
    tmp = final.with_name(final.name + f".{os.getpid()}.tmp")
    with open(tmp, "wb") as handle:
        np.save(handle, totals)
    os.replace(tmp, final)
    return part
