"""Players (card-play policies) selectable per seat, and their registry.

Each policy is a Numba function reached through :func:`belot_sim.players.dispatch.choose_card`;
Python code names them by string, kernels by the integer code below.

* ``random``: uniform over the legal cards.
* ``easy``: the weakest legal card (least trick-taking power, then fewest points).
* ``normal``: judges the trick in progress, no card memory (:mod:`.judge`).
* ``hard``: ``normal``'s tactics with card memory, shown voids and holding probabilities.
* ``dd``: **perfect information** — sees all four hands and plays the exact double-dummy best
  card (:mod:`.search`).  A yardstick, not a fair player.
* ``pimc``: samples layouts of the unseen cards consistent with what the seat knows, solves each
  double-dummy and plays the best card on average (:mod:`.search`).
"""

from __future__ import annotations

#: Policy name → code used inside the kernels.  New players add a code here and a branch
#: in :mod:`belot_sim.players.dispatch`.
POLICY_CODES = {"random": 0, "easy": 1, "normal": 2, "hard": 3, "dd": 4, "pimc": 5}
#: Players that call the double-dummy solver (need its table; much slower per deal).
SEARCH_PLAYERS = ("dd", "pimc")


def seat_codes(value, registry: dict[str, int], what: str) -> tuple[int, int, int, int]:
    """One name for all seats, or a 4-tuple of names (seats 0..3) → four codes from ``registry``
    (names are case-insensitive); a clear ValueError names a bad value and lists the choices."""
    names = (value,) * 4 if isinstance(value, str) else tuple(value) if value is not None else ()
    if len(names) != 4:
        raise ValueError(f"{what}s must be one name or four names (seats 0..3), got {value!r}; "
                         f"available {what}s are {sorted(registry)}")
    codes = []
    for name in names:
        if not isinstance(name, str) or name.lower() not in registry:
            raise ValueError(f"unknown {what} {name!r}: available {what}s are {sorted(registry)}")
        codes.append(registry[name.lower()])
    return tuple(codes)


def policy_codes(players) -> tuple[int, int, int, int]:
    """One policy name for all seats, or a 4-tuple of names (seats 0..3) → four codes."""
    return seat_codes(players, POLICY_CODES, "player")
