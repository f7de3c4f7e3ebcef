"""The bid atlas: P(made) and expected match points of every 5-card hand, seat position and contract
under ``hard`` play with no auction (bulgarian rules), computed once and shipped with the package.

Hands are taken up to suit symmetry: for a suit contract the trump suit stays itself and the three
other suits are interchangeable (the table stores the trump suit as spades); for NT and AT all four
suits are.  That leaves 38,304 suit-contract classes and 10,808 NT/AT classes; with four positions
after the dealer (0 speaks first and leads) the table has 239,680 rows.  Each row is the outcome of
``samples`` uniform layouts of the 27 other cards played out (:func:`belot_sim.kernels.batch.atlas.atlas_rollout`;
row ``r``'s layout ``k`` uses the streams of id ``r * 2**20 + k`` under the table's seed, so any row
can be recomputed exactly).  ``scripts/bid_atlas.py`` computes it as a resumable, partitioned job;
docs/bidding.md gives its cost, samples per class and interval widths.

>>> import belot_sim as bs
>>> atlas = bs.bid_atlas()
>>> len(atlas), sorted(atlas["contract"].unique())
(239680, ['AT', 'NT', 'S'])
"""

from __future__ import annotations

import itertools
import json
import math
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from .cards import format_cards, popcount, to_mask
from .checks import check_int
from .kernels.core.layouts import ATLAS_ENTRIES, ATLAS_HANDS
from .registry import POLICY_CODES, policy_codes
from .rules import BULGARIAN, Contract, Rules
from .runs import blocks

#: The table shipped with the package (package data).
DATA = Path(__file__).resolve().parent / "data" / "bid_atlas.npz"
#: Row kinds: a suit contract (trump stored as spades), NT, AT; and the contract each is played as.
KINDS = ("S", "NT", "AT")
KIND_CONTRACT = (3, 4, 5)
POSITIONS = 4
#: Stored means are rounded to these steps (match points to 0.01, raw points to 0.1).
SCORE_SCALE, RAW_SCALE = 100, 10
#: Layouts of a partition's first kernel call (later calls are sized to about half a second, runs.blocks):
#: 64 rows of 1,000 layouts take about 0.1 s on two threads.
LAYOUTS_FIRST_BLOCK = 64_000


def check_atlas_rules(rules, what: str) -> None:
    """The atlas is computed for the bulgarian preset only (any match target: a deal's score does not
    depend on it)."""
    rules = Rules.coerce(rules)
    if rules.replace(match_target=BULGARIAN.match_target) != BULGARIAN:
        raise ValueError(f"{what} covers the bulgarian preset only (the bid atlas was computed for it), got "
                         f"{Rules.coerce(rules).name}")


def plays_as_atlas(players) -> bool:
    """``players`` (one name or four, any case) are the atlas's own: ``hard`` in every seat."""
    return set(policy_codes(players)) == {POLICY_CODES["hard"]}


# --- the classes -----------------------------------------------------------------------------

@lru_cache(maxsize=1)
def all_hands() -> np.ndarray:
    """Every 5-card mask, in lexicographic order of the cards (int64[201376])."""
    cards = np.array(list(itertools.combinations(range(32), 5)), dtype=np.int64)
    return (np.int64(1) << cards).sum(axis=1)


def _suit_bytes(hands: np.ndarray) -> np.ndarray:
    return np.stack([(hands >> (8 * s)) & 0xFF for s in range(4)], axis=1)


def _descending(b: np.ndarray) -> np.ndarray:
    return -np.sort(-b, axis=1)


def canonical_keys(hands: np.ndarray, contract: int) -> np.ndarray:
    """The class of each hand for ``contract``: a suit contract's trump suit as spades and the other
    suits in descending order of their rank masks; NT/AT all four suits so."""
    b = _suit_bytes(np.asarray(hands, dtype=np.int64))
    if contract < 4:
        o = _descending(np.delete(b, contract, axis=1))
        return o[:, 0] | o[:, 1] << 8 | o[:, 2] << 16 | b[:, contract] << 24
    o = _descending(b)
    return o[:, 0] | o[:, 1] << 8 | o[:, 2] << 16 | o[:, 3] << 24


@lru_cache(maxsize=1)
def class_keys() -> tuple[np.ndarray, np.ndarray]:
    """``(suit classes, NT/AT classes)``: the sorted canonical masks."""
    hands = all_hands()
    suits = np.unique(np.concatenate([canonical_keys(hands, t) for t in range(4)]))
    return suits, np.unique(canonical_keys(hands, 4))


@lru_cache(maxsize=1)
def atlas_rows() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every row of the atlas in table order: ``(hand masks, kinds, positions)`` — kind major, then
    the class, then the position."""
    suits, others = class_keys()
    masks, kinds = [], []
    for kind, keys in enumerate((suits, others, others)):
        masks.append(np.repeat(keys, POSITIONS))
        kinds.append(np.full(len(keys) * POSITIONS, kind, dtype=np.int8))
    masks = np.concatenate(masks)
    positions = np.tile(np.arange(POSITIONS, dtype=np.int8), len(masks) // POSITIONS)
    return masks, np.concatenate(kinds), positions


def row_of(hand5: int, contract: int, position: int) -> int:
    """The table row of a 5-card hand declaring ``contract`` from ``position``."""
    suits, others = class_keys()
    key = int(canonical_keys(np.array([hand5]), contract)[0])
    if contract < 4:
        base, keys = 0, suits
    else:
        base, keys = POSITIONS * (len(suits) + (contract - 4) * len(others)), others
    index = int(np.searchsorted(keys, key))
    return base + POSITIONS * index + position


# --- computing rows --------------------------------------------------------------------------

def compute_rows(start: int, stop: int, *, samples: int, seed: int, players="hard") -> np.ndarray:
    """Rows ``start .. stop-1`` played out: int64[rows, 6] (made, hanging, sums of the bidding and
    defending teams' match points and raw points); the caller sets the threads."""
    from .kernels.batch.atlas import atlas_rollout
    from .kernels.core.options import flags_of
    from .registry import policy_codes

    masks, kinds, positions = atlas_rows()
    ids = np.arange(start, stop, dtype=np.int64)
    contracts = np.array(KIND_CONTRACT, dtype=np.int64)[kinds[start:stop]]
    out = np.zeros((stop - start, 6), dtype=np.int64)
    atlas_rollout(np.uint64(seed), ids, masks[start:stop].astype(np.int64), contracts,
                  positions[start:stop].astype(np.int64), samples, flags_of(BULGARIAN),
                  np.array(policy_codes(players), dtype=np.int64), out)
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


# --- reading ---------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _table() -> dict:
    if not DATA.exists():
        raise FileNotFoundError(f"the bid atlas {DATA} is missing: compute it with scripts/bid_atlas.py")
    with np.load(DATA) as data:
        table = {name: data[name] for name in data.files if name != "meta"}
        table["meta"] = json.loads(str(data["meta"]))
    if len(table["made"]) != len(atlas_rows()[0]):
        raise ValueError(f"the bid atlas {DATA} has {len(table['made'])} rows, expected {len(atlas_rows()[0])}")
    return table


def atlas_meta() -> dict:
    """How the shipped atlas was computed: samples per row, seed, players, rules, date, commit."""
    return dict(_table()["meta"])


def bid_atlas() -> pd.DataFrame:
    """The atlas as a DataFrame, one row per (hand class, contract, position).

    Columns: ``hand`` (uint32 mask of the class's representative: for a suit contract the trump suit
    is spades), ``cards`` (its text), ``contract`` (``S`` = a suit contract, trump as spades; ``NT``;
    ``AT``), ``position`` (0..3 after the dealer; 0 speaks first and leads), ``samples``, ``p_made``
    with ``p_made_low``/``p_made_high`` (Wilson 95 %), ``p_hanging``, ``ev`` (mean match points of
    the bidding team minus the defenders'), ``mean_score_bidding``, ``mean_score_defenders``,
    ``mean_raw_bidding``, ``mean_raw_defenders``.  ``frame.attrs`` holds :func:`atlas_meta`.
    """
    table = _table()
    samples = int(table["meta"]["samples"])
    masks, kinds, positions = atlas_rows()
    made = table["made"].astype(np.int64)
    low, high = wilson_arrays(made, samples)
    frame = pd.DataFrame({
        "hand": masks.astype(np.uint32),
        "cards": [format_cards(int(m)) for m in masks],
        "contract": pd.Categorical.from_codes(kinds, categories=list(KINDS)),
        "position": positions,
        "samples": np.full(len(masks), samples, dtype=np.int32),
        "p_made": made / samples, "p_made_low": low, "p_made_high": high,
        "p_hanging": table["hanging"] / samples,
        "ev": (table["score_b"].astype(np.float64) - table["score_d"]) / SCORE_SCALE,
        "mean_score_bidding": table["score_b"] / SCORE_SCALE, "mean_score_defenders": table["score_d"] / SCORE_SCALE,
        "mean_raw_bidding": table["raw_b"] / RAW_SCALE, "mean_raw_defenders": table["raw_d"] / RAW_SCALE,
    })
    frame.attrs.update(table["meta"])
    return frame


def wilson_arrays(successes: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Wilson 95 % bounds of many proportions out of ``n`` (vectorised :func:`belot_sim.wilson_interval`:
    they hold the estimate)."""
    from .stats import Z95

    p = successes / n
    denominator = 1 + Z95 * Z95 / n
    centre = (p + Z95 * Z95 / (2 * n)) / denominator
    half = Z95 * np.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / denominator
    return np.maximum(0.0, np.minimum(centre - half, p)), np.minimum(1.0, np.maximum(centre + half, p))


def atlas_counts(hand, contract: Contract, seat: int, dealer: int | None) -> dict:
    """The atlas's figures for ``hand`` (5 cards) declaring ``contract`` from ``seat``: the row of its
    position after ``dealer``, or the four positions pooled when ``dealer`` is None.  Returns
    ``samples``, ``made``, ``hanging``, ``inside`` counts and the four means."""
    mask = to_mask(hand, "hand")
    if popcount(mask) != 5:
        raise ValueError(f"the bid atlas answers for 5-card hands (auction time), got {popcount(mask)} cards: "
                         f"{format_cards(mask)}")
    table = _table()
    samples = int(table["meta"]["samples"])
    if dealer is None:
        rows = [row_of(mask, int(contract), p) for p in range(POSITIONS)]
    else:
        rows = [row_of(mask, int(contract), (check_int(seat, "seat", 0, 3) - dealer - 1) % 4)]
    made = int(table["made"][rows].sum())
    hanging = int(table["hanging"][rows].sum())
    total = samples * len(rows)
    means = {name: float(table[column][rows].mean()) / scale for name, column, scale in (
        ("score_bidding", "score_b", SCORE_SCALE), ("score_defenders", "score_d", SCORE_SCALE),
        ("raw_bidding", "raw_b", RAW_SCALE), ("raw_defenders", "raw_d", RAW_SCALE))}
    return {"samples": total, "made": made, "hanging": hanging, "inside": total - made - hanging, **means}


@lru_cache(maxsize=1)
def atlas_lookup() -> np.ndarray:
    """The table the ``atlas`` bidder reads (float64[ATLAS_ENTRIES]): the expected match-point
    difference of every 5-card hand at ``[rank * 24 + contract * 4 + position]``, ``rank`` its index
    in the combinatorial number system (:func:`belot_sim.kernels.bidding.atlas_bidder.hand_rank`)."""
    table = _table()
    ev = (table["score_b"].astype(np.float64) - table["score_d"]) / SCORE_SCALE
    hands = all_hands()
    cards = np.array(list(itertools.combinations(range(32), 5)), dtype=np.int64)
    binomial = np.array([[math.comb(n, k) for k in range(6)] for n in range(33)], dtype=np.int64)
    rank = sum(binomial[cards[:, i], i + 1] for i in range(5))
    suits, others = class_keys()
    out = np.zeros((ATLAS_HANDS, 6, POSITIONS))
    for contract in range(6):
        keys = canonical_keys(hands, contract)
        if contract < 4:
            base, index = 0, np.searchsorted(suits, keys)
        else:
            base, index = POSITIONS * (len(suits) + (contract - 4) * len(others)), np.searchsorted(others, keys)
        rows = base + POSITIONS * index
        for position in range(POSITIONS):
            out[rank, contract, position] = ev[rows + position]
    assert out.size == ATLAS_ENTRIES
    out = out.reshape(-1)
    out.flags.writeable = False
    return out


# --- the partitioned job (scripts/bid_atlas.py) ---------------------------------------------------

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

    from .checks import numba_threads

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
