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


def policy_codes(players) -> tuple[int, int, int, int]:
    """One policy name for all seats, or a 4-tuple of names (seats 0..3) → four codes."""
    names = (players,) * 4 if isinstance(players, str) else tuple(players) if players is not None else ()
    if len(names) != 4:
        raise ValueError(f"players must be one name or four names (seats 0..3), got {players!r}; "
                         f"available players are {sorted(POLICY_CODES)}")
    codes = []
    for name in names:
        if not isinstance(name, str) or name.lower() not in POLICY_CODES:
            raise ValueError(f"unknown player {name!r}: available players are {sorted(POLICY_CODES)}")
        codes.append(POLICY_CODES[name.lower()])
    return tuple(codes)
