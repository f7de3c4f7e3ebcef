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
  the seat can see) and ``trick`` (int8[rows]);
* ``calls`` (the bidder's, :mod:`.call_labels`): no played deals but auctions of the round's bidder models
  (``heuristic``; from round 1 on the ``neural`` bidder on one team) with some random calls (one shard in
  four without declarations); ``bits`` (uint64[rows, CALL_WORDS],
  the packed bidder observations), ``values`` (int16[rows, 9]: each call code's value, the caller's
  team's match points minus the other's; -32768 not legal), ``own`` (int16[rows, 9]: the caller's team's
  points alone, so the fit can read both teams' points) and ``heuristic`` (int8[rows]: the heuristic's call).
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..engine.io import write_atomically, write_npz_atomically
from ..engine.registry import is_searching, player_codes
from ..game.rules import Rules
from ..kernels.bidding.auction_loop import DEFAULT_WEIGHTS
from ..kernels.core.auction_rules import MAX_CALLS
from ..kernels.core.layouts import CALL_CODES
from ..kernels.core.rule_flags import flags_of
from ..kernels.solver.api import search_entries
from ..simulation.deals import simulate
from .call_labels import CALL_WORDS, label_calls
from .labels import WORDS, label_deals, owner_deals

#: Shards without an auction (of calls: without declarations): one in this many.
RANDOM_CONTRACT_EVERY = 4
#: Calls of the learning team made at random instead of its models' in the auctions of call shards
#: (:mod:`.call_labels`).
CALL_EXPLORE = 0.05


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
    #: The labels (:data:`KINDS`): each legal card's value, the holder of each unseen card, or each call's value.
    kind: str = "values"
    #: Calls: the round of the bidder models (:func:`.call_labels.deal_models`; 1 and later seat the
    #: ``neural`` bidder whose weights this process holds: name them in ``note``).
    round: int = 0

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


def _rows(counts: np.ndarray, per_deal: int = 32) -> np.ndarray:
    """The filled rows of outputs with ``per_deal`` rows per deal, ``counts[i]`` of them used."""
    slots = np.arange(per_deal)[None, :]
    return (per_deal * np.arange(len(counts))[:, None] + slots)[slots < counts[:, None]]


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


def played_shard(frame):
    """A shard maker from a labelling of played deals (``frame``: :func:`label_frame`, :func:`owner_frame`)."""
    def make(plan: ShardPlan, k: int) -> dict[str, np.ndarray]:
        auction = k % RANDOM_CONTRACT_EVERY != RANDOM_CONTRACT_EVERY - 1
        deals, plays = simulate(plan.deals, players=plan.players, bidders="heuristic" if auction else None,
                                seed=plan.seed, start=k * plan.deals, plays=True, threads=plan.threads,
                                progress=False)
        return frame(deals, plays, threads=plan.threads)
    return make


def call_shard(plan: ShardPlan, k: int) -> dict[str, np.ndarray]:
    """The labelled calls of shard ``k``'s deals (:mod:`.call_labels`); shards 1, 5, 9, ... without
    declarations (so a run's last shard, which validates, has them when their count is a multiple of 4),
    the others under the bulgarian preset."""
    rules = Rules.preset("bulgarian").replace(declarations=k % RANDOM_CONTRACT_EVERY != 1)
    return call_frame(plan.seed, k * plan.deals, plan.deals, plan.players, rules, plan.threads, round_=plan.round)


def call_frame(seed: int, start: int, n: int, players="neural", rules="bulgarian", threads: int = 2,
               explore: float = CALL_EXPLORE, round_: int = 0) -> dict[str, np.ndarray]:
    """The labelled calls of deals ``start .. start + n - 1`` of ``seed`` played by ``players``, bid by the
    models of ``round_`` (:func:`.call_labels.deal_models`)."""
    rows = MAX_CALLS * n
    bits = np.zeros((rows, CALL_WORDS), dtype=np.uint64)
    values = np.zeros((rows, CALL_CODES), dtype=np.int16)
    own = np.zeros((rows, CALL_CODES), dtype=np.int16)
    heuristic = np.zeros(rows, dtype=np.int8)
    counts = np.zeros(n, dtype=np.int32)
    codes = np.array(player_codes(players), dtype=np.int64)
    if is_searching(codes):  # the label kernels hold no solver: a searching seat would play no card
        raise ValueError(f"the call labels are played by players without search, got {players!r}: use neural, hard, "
                         "normal, easy or random")
    label_calls(seed, start, n, round_, flags_of(Rules.coerce(rules)), explore, codes, DEFAULT_WEIGHTS.copy(),
                threads, bits, values, own, heuristic, counts)
    kept = _rows(counts, MAX_CALLS)
    return {"bits": bits[kept], "values": values[kept], "own": own[kept], "heuristic": heuristic[kept]}


#: What a shard's decisions are labelled with → how a shard is made, and its arrays with the width of
#: each row (``None``: one value a row).
KINDS = {"values": (played_shard(label_frame), {"bits": WORDS, "values": 32, "legal": None, "played": None}),
         "owners": (played_shard(owner_frame), {"bits": WORDS, "owners": 32, "trick": None}),
         "calls": (call_shard, {"bits": CALL_WORDS, "values": CALL_CODES, "own": CALL_CODES, "heuristic": None})}


def make_shard(plan: ShardPlan, k: int) -> Path:
    """Make and label shard ``k`` and write it whole (module docstring)."""
    arrays = KINDS[plan.kind][0](plan, k)
    return write_npz_atomically(arrays, plan.path(k))


def read_shard(path, kind: str = "values") -> dict[str, np.ndarray]:
    """A shard's arrays (labels of ``kind``); a ValueError names a file that is damaged or not such a shard."""
    try:
        with np.load(path) as data:
            arrays = {name: data[name] for name in KINDS[kind][1]}
    except (KeyError, ValueError, OSError, zipfile.BadZipFile, EOFError) as error:
        raise ValueError(f"{path} is not a readable shard of {kind} ({error}); delete it and rerun to make it "
                         f"again") from error
    rows = len(arrays["bits"])
    widths = KINDS[kind][1]
    if any(a.shape != ((rows,) if widths[name] is None else (rows, widths[name])) for name, a in arrays.items()):
        raise ValueError(f"{path}: arrays of shapes {[a.shape for a in arrays.values()]} are not a shard of this "
                         f"version (observations of {widths['bits']} words)")
    return arrays


def make_shards(plan: ShardPlan, count: int, progress=None) -> list[Path]:
    """Shards ``0 .. count - 1`` of ``plan``: those already on disk are kept, the others made (then
    ``progress(k + 1, count)``); a ``shards.json`` records the plan, and a rerun with another plan in the
    same folder is refused."""
    folder = Path(plan.folder)
    folder.mkdir(parents=True, exist_ok=True)
    record = {"seed": plan.seed, "deals": plan.deals, "players": plan.players if isinstance(plan.players, str)
              else list(plan.players), "words": CALL_WORDS if plan.kind == "calls" else WORDS, "note": plan.note,
              "kind": plan.kind, **({"round": plan.round} if plan.round else {})}
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
