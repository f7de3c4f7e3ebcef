"""Shards of labelled decisions on disk: deals played by the engine, every decision with a choice
labelled (:mod:`.labels`), written one file at a time so a stopped run loses at most the shard in
progress and a rerun makes only the shards that are missing.

Shard ``k`` of a run holds the decisions of deals ``k * deals .. (k + 1) * deals - 1`` of its seed:
every fourth shard (``k % 4 == 3``) deals random contracts and declarers without an auction, the others
hold an auction of ``heuristic`` bidders (void deals have no decisions).  The players of the deals are
the run's choice (``players``: one name, or four for seats 0..3).  A shard is an ``.npz`` file of
``bits`` (uint64[rows, WORDS], the packed observations), ``values`` (int16[rows, 32]; -1: not a legal
card), ``legal`` (int64[rows], the legal cards' mask) and ``played`` (int8[rows], the card the deal's
player chose), cards indexed as the network reads them.
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
from .labels import WORDS, label_deals

#: Shards without an auction: one in this many.
RANDOM_CONTRACT_EVERY = 4
SHARD_ARRAYS = ("bits", "values", "legal", "played")


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

    def path(self, k: int) -> Path:
        return Path(self.folder) / f"shard_{k:05d}.npz"


def label_frame(deals, plays, rules="bulgarian", threads: int = 2) -> dict[str, np.ndarray]:
    """The labelled decisions of ``simulate(..., plays=True)``'s two frames (void deals are skipped)."""
    played = deals[deals["contract"].notna()]
    cards = plays["card"].to_numpy(np.int64).reshape(-1, 32)
    if len(cards) != len(played):
        raise ValueError(f"{len(played)} deals were played but the plays hold {len(cards)} deals")
    rules = Rules.coerce(rules)
    n = len(played)
    bits = np.zeros((32 * n, WORDS), dtype=np.uint64)
    values = np.zeros((32 * n, 32), dtype=np.int16)
    legal = np.zeros(32 * n, dtype=np.int64)
    played_card = np.zeros(32 * n, dtype=np.int8)
    counts = np.zeros(n, dtype=np.int32)
    label_deals(played["dealer"].to_numpy(np.int64), played["contract"].cat.codes.to_numpy().astype(np.int64),
                played["declarer"].to_numpy(np.int64), played["multiplier"].to_numpy(np.int64),
                played[[f"hand{s}" for s in range(4)]].to_numpy(np.int64), cards, int(rules.is_classic),
                flags_of(rules), search_entries(), threads, bits, values, legal, played_card, counts)
    rows = (32 * np.arange(n)[:, None] + np.arange(32)[None, :])[np.arange(32)[None, :] < counts[:, None]]
    return {"bits": bits[rows], "values": values[rows], "legal": legal[rows], "played": played_card[rows]}


def make_shard(plan: ShardPlan, k: int) -> Path:
    """Play and label shard ``k`` and write it whole (module docstring)."""
    auction = k % RANDOM_CONTRACT_EVERY != RANDOM_CONTRACT_EVERY - 1
    deals, plays = simulate(plan.deals, players=plan.players, bidders="heuristic" if auction else None,
                            seed=plan.seed, start=k * plan.deals, plays=True, threads=plan.threads)
    arrays = label_frame(deals, plays, threads=plan.threads)
    return write_atomically(plan.path(k), lambda tmp: _save(tmp, arrays))


def _save(tmp: Path, arrays: dict) -> None:
    with open(tmp, "wb") as f:  # np.savez would add ".npz" to a name without it
        np.savez(f, **arrays)


def read_shard(path) -> dict[str, np.ndarray]:
    """A shard's arrays; a ValueError names a file that is damaged or not a shard."""
    try:
        with np.load(path) as data:
            arrays = {name: data[name] for name in SHARD_ARRAYS}
    except (KeyError, ValueError, OSError, zipfile.BadZipFile, EOFError) as error:
        raise ValueError(f"{path} is not a readable shard ({error}); delete it and rerun to make it again") from error
    rows = len(arrays["legal"])
    if arrays["bits"].shape != (rows, WORDS) or arrays["values"].shape != (rows, 32) or len(arrays["played"]) != rows:
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
              else list(plan.players), "words": WORDS, "note": plan.note}
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
