"""Shards of labelled decisions on disk: deals played by the engine, every decision with a choice
labelled (:mod:`.labels`), written one file at a time so a stopped run loses at most the shard in
progress and a rerun makes only the shards that are missing.

Shard ``k`` of a run holds the decisions of deals ``k * deals .. (k + 1) * deals - 1`` of its seed:
every fourth shard (``k % 4 == 3``) deals random contracts and declarers without an auction, the others
hold an auction of ``heuristic`` bidders (void deals have no decisions).  The players of the deals are
the run's choice (``players``: one name, or four for seats 0..3).  A shard is an ``.npz`` file of
``bits`` (uint64[rows, WORDS], the packed observations) and the labels of the plan's ``kind``
(:data:`KINDS`), cards indexed as the network reads them:

* ``values``: ``values`` (int16[rows, 32]; -1: not a legal card), ``legal`` (int64[rows], the legal
  cards' mask) and ``played`` (int8[rows], the card the deal's player chose);
* ``owners``: ``owners`` (int8[rows, 32]: the holder of each card relative to the seat, 1..3; 0: a card
  the seat can see) and ``trick`` (int8[rows]).
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..engine.io import write_atomically
from ..game.rules import Rules
from ..kernels.core.rule_flags import flags_of
from ..kernels.solver.api import search_entries
from ..simulation.deals import simulate
from .labels import WORDS, label_deals, owner_deals

#: Shards without an auction: one in this many.
RANDOM_CONTRACT_EVERY = 4


@dataclass(frozen=True)
class ShardPlan:
    """Where and what: shard ``k`` of ``folder`` from deals of ``seed`` played by ``players``."""

    folder: Path
    seed: int
    deals: int
    players: tuple[str, ...] | str = "hard"
    threads: int = 2
    #: What else the shards depend on, recorded with them (e.g. the digest of the weights a ``neural``
    #: seat played with: they are compiled into this process's kernels).
    note: str = ""
    #: The labels (:data:`KINDS`): each legal card's value, or the holder of each unseen card.
    kind: str = "values"

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown shard kind {self.kind!r}: expected one of {sorted(KINDS)}")

    def path(self, k: int) -> Path:
        return Path(self.folder) / f"shard_{k:05d}.npz"


def recorded_deals(deals, plays, rules):
    """The played deals' columns the label kernels read: ``(dealer, contract, declarer, multiplier, hands,
    cards, family, flags)``."""
    played = deals[deals["contract"].notna()]
    cards = plays["card"].to_numpy(np.int64).reshape(-1, 32)
    if len(cards) != len(played):
        raise ValueError(f"{len(played)} deals were played but the plays hold {len(cards)} deals")
    rules = Rules.coerce(rules)
    return (played["dealer"].to_numpy(np.int64), played["contract"].cat.codes.to_numpy().astype(np.int64),
            played["declarer"].to_numpy(np.int64), played["multiplier"].to_numpy(np.int64),
            played[[f"hand{s}" for s in range(4)]].to_numpy(np.int64), cards, int(rules.is_classic), flags_of(rules))


def _rows(counts: np.ndarray) -> np.ndarray:
    """The filled rows of outputs with 32 rows per deal, ``counts[i]`` of them used."""
    n = len(counts)
    return (32 * np.arange(n)[:, None] + np.arange(32)[None, :])[np.arange(32)[None, :] < counts[:, None]]


def label_frame(deals, plays, rules="bulgarian", threads: int = 2) -> dict[str, np.ndarray]:
    """The value-labelled decisions of ``simulate(..., plays=True)``'s two frames (void deals are skipped)."""
    recorded = recorded_deals(deals, plays, rules)
    n = len(recorded[0])
    bits = np.zeros((32 * n, WORDS), dtype=np.uint64)
    values = np.zeros((32 * n, 32), dtype=np.int16)
    legal = np.zeros(32 * n, dtype=np.int64)
    played_card = np.zeros(32 * n, dtype=np.int8)
    counts = np.zeros(n, dtype=np.int32)
    label_deals(*recorded, search_entries(), threads, bits, values, legal, played_card, counts)
    rows = _rows(counts)
    return {"bits": bits[rows], "values": values[rows], "legal": legal[rows], "played": played_card[rows]}


def owner_frame(deals, plays, rules="bulgarian", threads: int = 2) -> dict[str, np.ndarray]:
    """The ownership-labelled decisions of ``simulate(..., plays=True)``'s two frames (:func:`owner_deals`)."""
    recorded = recorded_deals(deals, plays, rules)
    n = len(recorded[0])
    bits = np.zeros((32 * n, WORDS), dtype=np.uint64)
    owners = np.zeros((32 * n, 32), dtype=np.int8)
    trick = np.zeros(32 * n, dtype=np.int8)
    counts = np.zeros(n, dtype=np.int32)
    owner_deals(*recorded, threads, bits, owners, trick, counts)
    rows = _rows(counts)
    return {"bits": bits[rows], "owners": owners[rows], "trick": trick[rows]}


#: What a shard's decisions are labelled with → the function that labels them and the arrays it writes.
KINDS = {"values": (label_frame, ("bits", "values", "legal", "played")),
         "owners": (owner_frame, ("bits", "owners", "trick"))}


def make_shard(plan: ShardPlan, k: int) -> Path:
    """Play and label shard ``k`` and write it whole (module docstring)."""
    auction = k % RANDOM_CONTRACT_EVERY != RANDOM_CONTRACT_EVERY - 1
    deals, plays = simulate(plan.deals, players=plan.players, bidders="heuristic" if auction else None,
                            seed=plan.seed, start=k * plan.deals, plays=True, threads=plan.threads)
    arrays = KINDS[plan.kind][0](deals, plays, threads=plan.threads)
    return write_atomically(plan.path(k), lambda tmp: _save(tmp, arrays))


def _save(tmp: Path, arrays: dict) -> None:
    with open(tmp, "wb") as f:  # np.savez would add ".npz" to a name without it
        np.savez(f, **arrays)


def read_shard(path, kind: str = "values") -> dict[str, np.ndarray]:
    """A shard's arrays (labels of ``kind``); a ValueError names a file that is damaged or not such a shard."""
    try:
        with np.load(path) as data:
            arrays = {name: data[name] for name in KINDS[kind][1]}
    except (KeyError, ValueError, OSError, zipfile.BadZipFile, EOFError) as error:
        raise ValueError(f"{path} is not a readable shard of {kind} ({error}); delete it and rerun to make it "
                         f"again") from error
    rows = len(arrays["bits"])
    per_card = [a for name, a in arrays.items() if name in ("values", "owners")]
    if (arrays["bits"].shape != (rows, WORDS) or any(a.shape != (rows, 32) for a in per_card)
            or any(len(a) != rows for a in arrays.values())):
        raise ValueError(f"{path}: arrays of shapes {[a.shape for a in arrays.values()]} are not a shard of this "
                         f"version (observations of {WORDS} words)")
    return arrays


def make_shards(plan: ShardPlan, count: int, progress=None) -> list[Path]:
    """Shards ``0 .. count - 1`` of ``plan``: those already on disk are kept, the others made (then
    ``progress(k + 1, count)``); a ``shards.json`` records the plan, and a rerun with another plan in the
    same folder is refused."""
    folder = Path(plan.folder)
    folder.mkdir(parents=True, exist_ok=True)
    record = {"seed": plan.seed, "deals": plan.deals, "players": plan.players if isinstance(plan.players, str)
              else list(plan.players), "words": WORDS, "note": plan.note,
              "kind": plan.kind}
    meta = folder / "shards.json"
    if meta.is_file():
        old = json.loads(meta.read_text())
        if old != record:
            raise ValueError(f"{folder} holds shards of another plan ({old}); use another folder for {record}")
    else:
        write_atomically(meta, lambda tmp: tmp.write_text(json.dumps(record)))
    paths = []
    for k in range(count):
        path = plan.path(k)
        if not path.is_file():
            make_shard(plan, k)
            if progress is not None:
                progress(k + 1, count)
        paths.append(path)
    return paths
