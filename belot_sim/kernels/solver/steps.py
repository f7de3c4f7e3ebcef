"""One step of a position: the position after a card (:func:`_child`) and the state of a trick in
progress (:func:`_trick_state`).  Apart from :mod:`.search`, whose import compiles the search (its
explicit signatures), so that :mod:`.api` and the players compile without waiting for it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.layouts import C_LAST, C_POINTS
from ..core.play import after_card, beats
from ..core.tables import VALAT
from .context import _belot_gain, _ld


@njit(cache=True, inline="always")
def _child(ctx, card, rem, leader, pos, led, win, winner, tcards, tpts, valat, contract, team, belot_cards):
    """The position after ``card`` is played by the seat to move: ``(gain, rem, leader, pos, led, win,
    winner, tcards, tpts, valat)``.  ``gain``: what it brings team ``team`` at once - an open
    belot's first card played in its own suit (20); the trick it completes, with the last trick's
    points and the valat when it ends the deal.  A completed trick leads to the next trick's start."""
    bit = 1 << card
    nrem = rem ^ bit
    # the first card of an open belot of the team counts if played in its own suit (a lead always is)
    gain = _belot_gain(belot_cards, rem, card, card >> 3 if pos == 0 else led)
    nled, nwin, nwinner = after_card(pos, card, (leader + pos) & 3, led, win, winner, contract)
    npts = tpts + _ld(ctx, C_POINTS + card)
    if pos < 3:
        return gain, nrem, leader, pos + 1, nled, nwin, nwinner, tcards | bit, npts, valat
    nvl = valat if (nwinner & 1) == team else 0
    if (nwinner & 1) == team:
        gain += npts
        if nrem == 0:
            gain += _ld(ctx, C_LAST) + VALAT * nvl
    return gain, nrem, nwinner, np.int64(0), np.int64(-1), np.int64(0), nwinner, np.int64(0), np.int64(0), nvl


@njit(cache=True)
def _trick_state(trick, n_trick, leader, contract):
    """(led suit, winning card, winning seat, mask of the cards) of a trick in progress."""
    led = -1
    win = 0
    winner = leader
    tcards = 0
    for i in range(n_trick):
        c = trick[i]
        tcards |= 1 << c
        if i == 0:
            led = c >> 3
            win = c
        elif beats(c, win, contract):
            win = c
            winner = (leader + i) & 3
    return led, win, winner, tcards
