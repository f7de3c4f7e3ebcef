"""The bid atlas's table: its hand classes (5-card hands up to suit symmetry), its rows, the file
shipped with the package and the lookup the ``atlas`` bidder reads.  What the table holds and how it
was computed: :mod:`belot_sim.estimates.atlas`; the job that computes it: :mod:`belot_sim.estimates.atlas_build`."""

from __future__ import annotations

import itertools
import json
import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..game.rules import BULGARIAN, Rules
from ..kernels.core.layouts import ATLAS_ENTRIES, ATLAS_HANDS

#: The table shipped with the package (package data).
DATA = Path(__file__).resolve().parent.parent / "data" / "bid_atlas.npz"
#: Row kinds: a suit contract (trump stored as spades), NT, AT; and the contract each is played as.
KINDS = ("S", "NT", "AT")
KIND_CONTRACT = (3, 4, 5)
POSITIONS = 4
#: Stored means are rounded to these steps (match points to 0.01, raw points to 0.1).
SCORE_SCALE, RAW_SCALE = 100, 10
#: The standard deviation of P(made) among the members of a class (the hands of one row: a row is their
#: mean), by kind: ``hard`` breaks ties by card index, so the members do not play exactly alike.  Measured
#: beyond sampling noise over 30 random classes of each kind, every member estimated on its own with 4,000
#: layouts (``python benchmarks/atlas.py``, 2026-12-07, docs/bidding.md "The bid atlas"): 0.0115 AT, 0.0090
#: NT, none in suit contracts (below the measurement's resolution, about 0.003).
#: ``estimate_bid(method="atlas")`` widens its P(made) interval by it.
MEMBER_SD = {"S": 0.0, "NT": 0.009, "AT": 0.0115}


def check_atlas_rules(rules, what: str) -> None:
    """The atlas is computed for the bulgarian preset only (any match target: a deal's score does not
    depend on it)."""
    rules = Rules.coerce(rules)
    if rules.replace(match_target=BULGARIAN.match_target) != BULGARIAN:
        raise ValueError(f"{what} covers the bulgarian preset only (the bid atlas was computed for it), got "
                         f"{Rules.coerce(rules).name}")


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


def class_members(hand5: int, contract: int) -> list[tuple[int, int]]:
    """The hands of the class of ``hand5`` declaring ``contract``: every ``(hand, contract)`` its suits
    permuted give (a suit contract's trump moving with its cards), sorted, each once.  A row of the atlas
    is the mean over them (:func:`belot_sim.kernels.batch.atlas.atlas_rollout`)."""
    hand5, contract = int(hand5), int(contract)
    members = set()
    for perm in itertools.permutations(range(4)):
        hand = sum(((hand5 >> (8 * s)) & 0xFF) << (8 * perm[s]) for s in range(4))
        members.add((hand, perm[contract] if contract < 4 else contract))
    return sorted(members)


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


@lru_cache(maxsize=1)
def load_table() -> dict:
    if not DATA.exists():
        raise FileNotFoundError(f"the bid atlas {DATA} is missing: compute it with scripts/bid_atlas.py")
    with np.load(DATA) as data:
        table = {name: data[name] for name in data.files if name != "meta"}
        table["meta"] = json.loads(str(data["meta"]))
    if len(table["made"]) != len(atlas_rows()[0]):
        raise ValueError(f"the bid atlas {DATA} has {len(table['made'])} rows, expected {len(atlas_rows()[0])}")
    return table


def atlas_meta() -> dict:
    """How the shipped atlas was computed: samples per row, seed, players, rules, members (``uniform``: a
    row averages its class's members), date, commit."""
    return dict(load_table()["meta"])


def atlas_players() -> str:
    """The player of every seat in the atlas's playouts (``hard``): ``estimate_bid(method="atlas")`` answers
    for it only."""
    return str(load_table()["meta"]["players"])


@lru_cache(maxsize=1)
def atlas_lookup() -> np.ndarray:
    """The table the ``atlas`` bidder reads (float64[ATLAS_ENTRIES]): the expected match-point
    difference of every 5-card hand at ``[rank * 24 + contract * 4 + position]``, ``rank`` its index
    in the combinatorial number system (:func:`belot_sim.kernels.bid_models.atlas_bidder.hand_rank`)."""
    table = load_table()
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
