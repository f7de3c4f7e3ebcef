"""A dataset's manifest, ``_belot_sim.json``: every argument it was made with, the package
version, the rules in full, its size and partitioning, and which parts are done (each part file with
its row count, size and CRC-32: :class:`PartFile`).  A resumed run must have made the same manifest:
the first argument that differs is named.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field

from .._version import __version__
from ..engine.bidder_options import bidder_options_of
from ..engine.registry import BIDDER_CODES, PLAYER_CODES, SAMPLING_PLAYERS
from ..errors import DatasetMismatchError, DatasetWriteError
from ..game.rules import CONTRACT_CODES, Rules
from .storage import Store

MANIFEST = "_belot_sim.json"
#: The lock file a writer holds (storage.py ``Store.lock``); readers of Parquet folders skip "_" names.
LOCK = "_belot_sim.lock"
FORMAT = "belot_sim dataset"
#: Format 2 records each part file's size and CRC-32 beside its rows; format 1 (rows only) is still read.
FORMAT_VERSION = 2
READ_VERSIONS = (1, 2)
_PLAYERS = {code: name for name, code in PLAYER_CODES.items()}
_BIDDERS = {code: name for name, code in BIDDER_CODES.items()}


def rules_record(rules: Rules) -> dict:
    return {"name": rules.name, **rules.options()}


def deal_arguments(plan) -> dict:
    """The arguments of a :class:`belot_sim.simulation.deals.DealPlan`, in one canonical form (names, not
    the spellings they were given in)."""
    auction = plan.bidders is not None
    return {
        "rules": rules_record(plan.rules),
        "contract": "random" if plan.random_contract else [CONTRACT_CODES[int(c)] for c in plan.contracts],
        "declarer": None if plan.declarer < 0 else plan.declarer,
        "multiplier": plan.multiplier,
        "players": [_PLAYERS[int(c)] for c in plan.players],
        "bidders": [_BIDDERS[int(c)] for c in plan.bidders] if auction else None,
        "bidder_options": bidder_options_of(plan.bid_ints, plan.bid_weights) if auction else None,
        "worlds": plan.worlds,
        "seed": plan.seed,
        "plays": plan.plays,
        "calls": plan.calls,
    }


def match_arguments(plan) -> dict:
    """The arguments of a :class:`belot_sim.simulation.matches.MatchPlan`, canonical as :func:`deal_arguments`."""
    return {
        "rules": rules_record(plan.rules),
        "players": [_PLAYERS[int(c)] for c in plan.players],
        "bidders": [_BIDDERS[int(c)] for c in plan.bidders],
        "bidder_options": bidder_options_of(plan.bid_ints, plan.bid_weights),
        "worlds": plan.worlds,
        "max_deals": plan.max_deals,
        "seed": plan.seed,
        "plays": plan.plays,
        "calls": plan.calls,
    }


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class PartFile:
    """What the manifest records of one finished part file: its rows, and the size and CRC-32 of its
    bytes as written (``None`` in a format-1 manifest), which a resume and :func:`~belot_sim.read_parquet`
    compare with the file before trusting a row of it."""

    rows: int
    size: int | None = None
    crc32: int | None = None

    def to_record(self) -> dict:
        return {"rows": self.rows, "bytes": self.size, "crc32": self.crc32}

    @classmethod
    def from_record(cls, value) -> PartFile:
        """From a manifest's JSON: a record, or a bare row count (format 1)."""
        if isinstance(value, dict):
            extra = set(value) - {"rows", "bytes", "crc32"}
            if extra:
                raise ValueError(f"a part file's record has unknown keys {sorted(extra)}")
            size, crc = value.get("bytes"), value.get("crc32")
            if (size is None) != (crc is None):
                raise ValueError(f"a part file's record needs both bytes and crc32 or neither, got {value}")
            return cls(_count(value, "rows", 0), None if size is None else _count(value, "bytes", 0),
                       None if crc is None else _count(value, "crc32", 0))
        return cls(_count({"rows": value}, "rows", 0))


@dataclass
class Manifest:
    """What ``_belot_sim.json`` holds.  ``parts``: the done parts, ``{index: {frame: PartFile}}``."""

    kind: str  # "deals" or "matches"
    frames: list[str]  # the frames, each a folder of parts: ["deals", "plays", ...]
    n: int
    start: int
    partition_size: int
    arguments: dict
    version: str = __version__
    parts: dict[int, dict[str, PartFile]] = field(default_factory=dict)
    created: str = field(default_factory=_now)
    updated: str = field(default_factory=_now)

    @property
    def n_parts(self) -> int:
        return max(1, -(-self.n // self.partition_size))

    def part_range(self, k: int) -> tuple[int, int]:
        """``(first id, count)`` of part ``k``."""
        offset = k * self.partition_size
        return self.start + offset, min(self.partition_size, self.n - offset)

    def missing(self) -> list[int]:
        return [k for k in range(self.n_parts) if k not in self.parts]

    @property
    def complete(self) -> bool:
        return not self.missing()

    def identity(self) -> dict:
        """Everything a resumed run must match, in the order differences are reported (``worlds`` only
        when a sampling player is seated: other players' rows do not depend on it)."""
        arguments = dict(self.arguments)
        if not set(arguments.get("players") or ()) & set(SAMPLING_PLAYERS):
            arguments.pop("worlds", None)
        return {"belot_sim_version": self.version, "kind": self.kind, "n": self.n, "start": self.start,
                "partition_size": self.partition_size, **arguments}

    def identity_json(self) -> bytes:
        """:meth:`identity` as canonical JSON: what each part file records of the run that wrote it."""
        return json.dumps(self.identity(), sort_keys=True, separators=(",", ":")).encode()

    def check_same(self, other: Manifest, where: str) -> None:
        """A ValueError naming the first argument in which ``other`` (this call) differs; ``n`` may only
        grow (a resume with a larger ``n`` appends parts)."""
        mine, theirs = self.identity(), other.identity()
        if theirs["n"] < mine["n"]:
            raise DatasetMismatchError(where, f"holds n={mine['n']}, this call has n={theirs['n']}",
                                       "a resume completes or grows a dataset, never shrinks it (read the first "
                                       "rows with read_parquet, or write a new one elsewhere)")
        key, made, given = first_difference(without_n(mine), without_n(theirs))
        if key is not None:
            raise DatasetMismatchError(where, f"was made with {key}={made!r}, this call has {key}={given!r}",
                                       "resume=True (--resume) only completes a dataset with the same arguments "
                                       "(write a new one elsewhere)")

    def call_arguments(self) -> dict:
        """The keywords of ``simulate`` (or ``simulate_matches``) that made this dataset: what a resume
        takes for the ones its call does not give."""
        arguments = dict(self.arguments)
        rules = {k: v for k, v in arguments.pop("rules").items() if k != "name"}
        out = {"rules": Rules(**rules), **arguments}
        if self.kind == "deals":
            out["contract"] = None if arguments["contract"] == "random" else arguments["contract"]
        return out

    def to_json(self) -> bytes:
        record = {"format": FORMAT, "format_version": FORMAT_VERSION, "belot_sim_version": self.version,
                  "kind": self.kind, "frames": self.frames, "n": self.n, "start": self.start,
                  "partition_size": self.partition_size, "n_parts": self.n_parts, "complete": self.complete,
                  "arguments": self.arguments, "created": self.created, "updated": _now(),
                  "parts": {str(k): {f: part.to_record() for f, part in files.items()}
                            for k, files in sorted(self.parts.items())}}
        return (json.dumps(record, indent=1) + "\n").encode()

    @classmethod
    def from_json(cls, data: bytes, where: str) -> Manifest:
        try:
            record = json.loads(data)
            if record.get("format") != FORMAT:
                raise ValueError("not a belot_sim manifest")
            if record.get("format_version") not in READ_VERSIONS:
                raise ValueError(f"manifest format {record.get('format_version')!r}, this version of belot_sim "
                                 f"reads formats {READ_VERSIONS}")
            manifest = cls(kind=record["kind"], frames=list(record["frames"]), n=_count(record, "n", 0),
                           start=_count(record, "start", 0), partition_size=_count(record, "partition_size", 1),
                           arguments=record["arguments"], version=record["belot_sim_version"],
                           parts=_parse_parts(record["parts"]),
                           created=record.get("created", ""), updated=record.get("updated", ""))
            manifest._check()
            return manifest
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"{where}: unreadable manifest {MANIFEST} ({error}); delete it, then resume=True "
                             "(--resume) with the arguments that made the dataset keeps the parts those arguments "
                             "wrote (other arguments are refused), or write the dataset again in a new folder"
                             ) from None

    def _check(self) -> None:
        """A ValueError naming the first value a readable manifest cannot hold (an edited or foreign file)."""
        if self.kind not in FRAMES:
            raise ValueError(f"kind must be one of {sorted(FRAMES)}, got {self.kind!r}")
        first, *others = FRAMES[self.kind]
        if not self.frames or self.frames[0] != first or len(set(self.frames)) != len(self.frames) or not set(
                self.frames[1:]) <= set(others):
            raise ValueError(f"frames of a {self.kind} dataset are {first!r} then some of {others}, got {self.frames}")
        if not isinstance(self.arguments, dict):
            raise ValueError(f"arguments must be a mapping, got {type(self.arguments).__name__}")
        for k, files in self.parts.items():
            if not 0 <= k < self.n_parts:
                raise ValueError(f"part {k} is listed, the dataset has parts 0..{self.n_parts - 1}")
            if sorted(files) != sorted(self.frames):
                raise ValueError(f"part {k} lists the files {sorted(files)}, expected one for each of {self.frames}")


def without_n(identity: dict) -> dict:
    """An identity without its size: parts of one run are the same parts whatever ``n`` a resume grew it to
    (each part is a pure function of its ids; the last one's row count is checked on its own)."""
    return {k: v for k, v in identity.items() if k != "n"}


def first_difference(mine: dict, theirs: dict, prefix: str = ""):
    """``(key, mine's value, theirs)`` of the first key whose values differ, ``(None, None, None)`` if none;
    within a mapping on both sides (the rules) the key is dotted: ``rules.declarations``, and a ``name``
    counts last (a preset changed in one option is renamed: the option says more)."""
    keys = [*mine, *[k for k in theirs if k not in mine]]
    for key in sorted(keys, key=lambda k: k == "name"):
        a, b = mine.get(key), theirs.get(key)
        if a != b:
            if isinstance(a, dict) and isinstance(b, dict):
                return first_difference(a, b, f"{prefix}{key}.")
            return f"{prefix}{key}", a, b
    return None, None, None


def _parse_parts(parts: dict) -> dict[int, dict[str, PartFile]]:
    out = {}
    for k, files in parts.items():
        try:
            out[int(k)] = {f: PartFile.from_record(r) for f, r in files.items()}
        except (ValueError, TypeError, AttributeError) as error:
            raise ValueError(f"part {k}: {error}") from None
    return out


#: The frames of each kind of dataset: the first one always, then any of the others, in this order.
FRAMES = {"deals": ("deals", "plays", "calls"), "matches": ("matches", "deals", "plays", "calls")}


def _count(record: dict, key: str, least: int) -> int:
    value = record[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{key} must be an integer >= {least}, got {value!r}")
    return value


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
