"""Bidder options (``bidder_options=``) → the two parameter arrays the bidding kernels read.

Integer parameters (sample counts, player codes, rule flags) go to an ``int64`` array, weights,
thresholds and probabilities to a ``float64`` one; both layouts and defaults are declared in
:mod:`belot_sim.kernels.core.layouts` (``BIDDER_INTS``, ``BIDDER_WEIGHTS``).  Option names are the
slot names in lower case, e.g. ``{"pass_prob": 0.8, "thr_suit": 11, "mc_samples": 64}``.

>>> ints, weights = bidder_params("bulgarian", {"mc_samples": 64, "mc_player": "normal"})
>>> int(ints[BIDDER_INTS["MC_SAMPLES"].offset]), sorted(BIDDER_OPTIONS)[:3]
(64, ['at_9', 'at_9_bare', 'at_a'])
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..game.rules import Rules
from ..kernels.core.layouts import BIDDER_INTS, BIDDER_WEIGHTS
from ..kernels.core.rule_flags import flags_of
from .registry import BIDDER_CODES, MC_PLAYERS, PLAYER_CODES, player_codes

#: Integer slots set from the rules, not by the user.
_RULE_SLOTS = ("FLAGS",)
#: Option name → (layout, slot) for every parameter a user may set.
BIDDER_OPTIONS = {
    **{s.name.lower(): (BIDDER_INTS, s) for s in BIDDER_INTS.slots if s.name not in _RULE_SLOTS},
    **{s.name.lower(): (BIDDER_WEIGHTS, s) for s in BIDDER_WEIGHTS.slots},
}
_PROBABILITIES = ("pass_prob",)
_NON_NEGATIVE = ("mc_z",)
#: Integer options and their largest value.
_COUNTS = {"mc_samples": 100_000, "mc_tries": 100_000}


def _option_value(name: str, value):
    """A validated value for option ``name`` (a number; ``mc_player`` a player name)."""
    if name == "mc_player":
        if not isinstance(value, str) or value.lower() not in MC_PLAYERS:
            raise ValueError(f"mc_player must be one of {MC_PLAYERS}, got {value!r}")
        return player_codes(value)[0]
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"bidder option {name} must be a number, got {value!r}")
    if not np.isfinite(value):
        raise ValueError(f"bidder option {name} must be a finite number, got {value!r}")
    if name in _NON_NEGATIVE and value < 0:
        raise ValueError(f"{name} is a number of standard errors, at least 0, got {value!r}")
    if name in _COUNTS and not (1 <= value <= _COUNTS[name] and float(value).is_integer()):
        raise ValueError(f"{name} must be an integer in 1..{_COUNTS[name]}, got {value!r}")
    if name in _PROBABILITIES and not 0 <= value <= 1:
        raise ValueError(f"{name} is a probability in [0, 1], got {value!r}")
    return value


def bidder_params(rules: Rules | str | None = None, options: dict | None = None,
                  codes=()) -> tuple[np.ndarray, np.ndarray]:
    """``(ints, weights)``: the defaults with ``options`` applied and the rule flags of ``rules`` (the
    options the ``mc`` bidder plays its layouts with).  Unknown names or bad values raise.  When the
    bidder ``codes`` seated include ``atlas``, the bid atlas's table follows the weights
    (:data:`belot_sim.kernels.core.layouts.ATLAS_ENTRIES`; bulgarian rules only)."""
    if options is not None and not isinstance(options, dict):
        raise TypeError(f"bidder_options must be a dict, got {type(options).__name__}")
    ints, weights = BIDDER_INTS.defaults(), BIDDER_WEIGHTS.defaults()
    arrays = {id(BIDDER_INTS): ints, id(BIDDER_WEIGHTS): weights}
    for name, value in (options or {}).items():
        if name not in BIDDER_OPTIONS:
            raise ValueError(f"unknown bidder option {name!r}: known are {sorted(BIDDER_OPTIONS)}")
        layout, slot = BIDDER_OPTIONS[name]
        arrays[id(layout)][slot.offset] = _option_value(name, value)
    rules = Rules.coerce("bulgarian" if rules is None else rules)
    ints[BIDDER_INTS["FLAGS"].offset] = flags_of(rules)
    if BIDDER_CODES["neural"] in {int(c) for c in codes} and rules.is_classic:
        raise ValueError("the neural bidder was trained on bulgarian auctions only: in classic use "
                         "'heuristic' or 'random' (or 'mc' as a seat's bidder)")
    if BIDDER_CODES["atlas"] in {int(c) for c in codes}:
        from .atlas_table import check_atlas_rules

        check_atlas_rules(rules, "the atlas bidder")
        weights = _with_atlas(weights.tobytes())
    return ints, weights


@lru_cache(maxsize=4)
def _with_atlas(weights: bytes) -> np.ndarray:
    """The weights followed by the atlas's table (38 MB), made once per set of weights: copying
    the table on every call cost 7 ms (``simulate(100, bidders="atlas")`` took 8.5 ms against
    1.7 ms with ``heuristic``).  Writable like every weights array (Numba compiles read-only arrays
    as another type); nothing writes to a plan's weights."""
    from .atlas_table import atlas_lookup

    return np.concatenate([np.frombuffer(weights, dtype=np.float64), atlas_lookup()])


def bidder_options_of(ints: np.ndarray, weights: np.ndarray) -> dict:
    """Every option's value in the arrays of :func:`bidder_params` (``mc_player`` as its name): the
    inverse of ``bidder_params``, for records of a run."""
    arrays = {id(BIDDER_INTS): ints, id(BIDDER_WEIGHTS): weights}
    players = {code: name for name, code in PLAYER_CODES.items()}
    out = {}
    for name, (layout, slot) in sorted(BIDDER_OPTIONS.items()):
        value = arrays[id(layout)][slot.offset]
        out[name] = players[int(value)] if name == "mc_player" else value.item()
    return out
