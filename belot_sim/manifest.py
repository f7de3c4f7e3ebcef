"""A dataset's manifest, ``_belot_sim.json``: every argument it was made with, the package
version, the rules in full, its size and partitioning, and which parts are done (with their row
counts).  A resumed run must have made the same manifest: the first argument that differs is named.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field

from ._version import __version__
from .options import bidder_options_of
from .registry import BIDDER_CODES, POLICY_CODES
from .rules import CONTRACT_CODES, Rules

MANIFEST = "_belot_sim.json"
FORMAT = "belot_sim dataset"
FORMAT_VERSION = 1
_PLAYERS = {code: name for name, code in POLICY_CODES.items()}
_BIDDERS = {code: name for name, code in BIDDER_CODES.items()}


def rules_record(rules: Rules) -> dict:
    return {"name": rules.name, **rules.options()}


def deal_arguments(plan) -> dict:
    """The arguments of a :class:`belot_sim.simulation.DealPlan`, in one canonical form (names, not
    the spellings they were given in)."""
    auction = plan.bidders is not None
    return {
        "rules": rules_record(plan.rules),
        "contract": "random" if plan.random_contract else [CONTRACT_CODES[int(c)] for c in plan.contracts],
        "declarer": None if plan.declarer < 0 else plan.declarer,
        "multiplier": plan.multiplier,
        "players": [_PLAYERS[int(c)] for c in plan.policies],
        "bidders": [_BIDDERS[int(c)] for c in plan.bidders] if auction else None,
        "bidder_options": bidder_options_of(plan.bid_ints, plan.bid_weights) if auction else None,
        "worlds": plan.worlds,
        "seed": plan.seed,
        "plays": plan.plays,
        "calls": plan.calls,
    }


def match_arguments(plan) -> dict:
    """The arguments of a :class:`belot_sim.matches.MatchPlan`, canonical as :func:`deal_arguments`."""
    return {
        "rules": rules_record(plan.rules),
        "players": [_PLAYERS[int(c)] for c in plan.policies],
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


@dataclass
class Manifest:
    """What ``_belot_sim.json`` holds.  ``parts``: the done parts, ``{index: {frame: rows}}``."""

    kind: str  # "deals" or "matches"
    frames: list[str]  # the frames, each a folder of parts: ["deals", "plays", ...]
    n: int
    start: int
    partition_size: int
    arguments: dict
    version: str = __version__
    parts: dict[int, dict[str, int]] = field(default_factory=dict)
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
        """Everything a resumed run must match, in the order differences are reported."""
        return {"belot_sim_version": self.version, "kind": self.kind, "n": self.n, "start": self.start,
                "partition_size": self.partition_size, **self.arguments}

    def check_same(self, other: Manifest, where: str) -> None:
        """A ValueError naming the first argument in which ``other`` (this call) differs."""
        mine, theirs = self.identity(), other.identity()
        for key in [*mine, *[k for k in theirs if k not in mine]]:
            if mine.get(key) != theirs.get(key):
                raise ValueError(f"{where} was made with {key}={mine.get(key)!r}, this call has "
                                 f"{key}={theirs.get(key)!r}: resume=True (--resume) only completes a dataset with the "
                                 "same arguments (write a new one elsewhere)")

    def to_json(self) -> bytes:
        record = {"format": FORMAT, "format_version": FORMAT_VERSION, "belot_sim_version": self.version,
                  "kind": self.kind, "frames": self.frames, "n": self.n, "start": self.start,
                  "partition_size": self.partition_size, "n_parts": self.n_parts, "complete": self.complete,
                  "arguments": self.arguments, "created": self.created, "updated": _now(),
                  "parts": {str(k): rows for k, rows in sorted(self.parts.items())}}
        return (json.dumps(record, indent=1) + "\n").encode()

    @classmethod
    def from_json(cls, data: bytes, where: str) -> Manifest:
        try:
            record = json.loads(data)
            if record.get("format") != FORMAT:
                raise ValueError("not a belot_sim manifest")
            if record.get("format_version") != FORMAT_VERSION:
                raise ValueError(f"manifest format {record.get('format_version')!r}, this version of belot_sim "
                                 f"reads format {FORMAT_VERSION}")
            return cls(kind=record["kind"], frames=list(record["frames"]), n=int(record["n"]),
                       start=int(record["start"]), partition_size=int(record["partition_size"]),
                       arguments=record["arguments"], version=record["belot_sim_version"],
                       parts={int(k): {f: int(r) for f, r in rows.items()} for k, rows in record["parts"].items()},
                       created=record.get("created", ""), updated=record.get("updated", ""))
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"{where}: unreadable manifest ({error})") from None
