"""The solver's entry points: :func:`dd_value`, :func:`dd_moves` and :func:`dd_best`.

They take only integers and preallocated ``int64`` arrays, so a player kernel (``pimc``, ``dd``)
calls them from its own ``@njit`` code; the Python edge with validation is :mod:`belot_sim.positions.solve`.
What the value counts, and how the search finds it, is in ``docs/solver.md``; in short, for
``team`` from the position on: the card points of the tricks it wins (the family's table for the
contract, cards on the table included), +10 for the last trick, doubled in bulgarian NT; +90
valat when ``valat`` is set and it takes every remaining trick; in AT +20 for each K-Q pair of the
team whose first card is played in its own suit.  Suit-contract belots and declarations do not
depend on the play and are not part of it.

Every entry point checks its arrays' sizes once (:func:`check_arrays`); inside the search they are
read through raw addresses.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.bits import ctz
from ..core.layouts import C_BELOT, C_POINTS, C_SEARCH_FN, C_SIZE
from ..core.play import cards_between, legal_mask
from ..core.tables import SUIT
from .context import INF, _call, _points_of, make_ctx
from .steps import _child, _trick_state
from .table import _boundary_key, _entry_bounds, _midtrick_key, _tt_probe

#: The smallest table: two buckets of two slots (entries of two words each).
MIN_TT_WORDS = 8
#: Offsets in ``ctx[C_SEARCH_FN:]`` of the addresses of the exact-value search and of one node.
_EXACT = C_SEARCH_FN
_NODE = C_SEARCH_FN + 1


def search_entries() -> np.ndarray:
    """``int64[2]``: the addresses of the compiled search (:func:`.search.exact_entry`,
    :func:`.search.node_entry`) in this process, for ``ctx[C_SEARCH_FN:C_SEARCH_FN + 2]``."""
    from .search import exact_entry, node_entry  # imported here: importing it compiles the search

    return np.array([exact_entry.address, node_entry.address], dtype=np.int64)


def new_ctx(count: int = 1) -> np.ndarray:
    """``count`` solver contexts back to back (``int64[count * C_SIZE]``), each holding the search's
    addresses; the rest is filled by every solve."""
    ctx = np.zeros(count * C_SIZE, dtype=np.int64)
    for k in range(count):
        ctx[k * C_SIZE + C_SEARCH_FN:k * C_SIZE + C_SEARCH_FN + 2] = search_entries()
    return ctx


@njit(cache=True)
def check_arrays(hands, trick, n_trick, ctx, tt):
    """Raise ``ValueError`` unless the arrays fit the solver: four hands, ``n_trick`` (0..3) cards on
    the table, a context of at least ``C_SIZE`` entries and a table of ``2 * 2**k`` words (k >= 2)."""
    if hands.shape[0] < 4:
        raise ValueError("hands must hold four masks")
    if n_trick < 0 or n_trick > 3 or trick.shape[0] < n_trick:
        raise ValueError("a trick in progress has 0..3 cards, all in the trick array")
    if ctx.shape[0] < C_SIZE:
        raise ValueError("ctx is smaller than the solver context (C_SIZE entries)")
    if ctx[_EXACT] == 0 or ctx[_NODE] == 0:
        raise ValueError("ctx holds no search addresses: make it with solver.api.new_ctx (or play_scratch)")
    words = tt.shape[0]
    if words < MIN_TT_WORDS or words & (words - 1) != 0:
        raise ValueError("the table must have 2 * 2**k entries, k >= 2")


@njit(cache=True)
def _root(hands, leader, trick, n_trick, contract, undertrump_required, at_overtake_partner, c_):
    """The root position of :func:`dd_value`, :func:`dd_moves` and :func:`dd_best`: (led suit,
    winning card, its seat, table cards, table points, cards in the hands, seat to move, its legal
    cards)."""
    led, win, winner, tcards = _trick_state(trick, n_trick, leader, contract)
    tpts = _points_of(c_, tcards)
    rem = hands[0] | hands[1] | hands[2] | hands[3]
    seat = (leader + n_trick) & 3
    legal = hands[seat]
    if n_trick > 0:
        legal = legal_mask(legal, led, win, ((winner ^ seat) & 1) == 0, contract, undertrump_required,
                           at_overtake_partner)
    return led, win, winner, tcards, tpts, rem, seat, legal


@njit(cache=True)
def dd_value(hands, leader, trick, n_trick, contract, team, family, undertrump_required, at_overtake_partner,
             valat, ctx, tt, gen):
    """Exact double-dummy value for ``team`` (what it counts: the module docstring).

    ``hands``: int64[4], the cards still in each seat's hand; ``leader``: seat that leads (or led
    the trick in progress); ``trick``: int64 array whose first ``n_trick`` (0..3) entries are the
    cards already played to the trick in progress, in order from ``leader``; ``contract`` 0..5;
    ``team`` 0/1; ``family`` 0 bulgarian / 1 classic; ``valat``: the team has won every trick so
    far and may still earn the 90 valat points; ``ctx``: int64[C_SIZE] scratch (the layout
    :data:`belot_sim.kernels.core.layouts.SOLVER_CTX`); ``tt``: int64[2 * 2**k] table (k >= 2;
    2**16 slots = 1 MiB measured fastest for whole deals, ``TT_BITS`` in ``belot_sim/positions/solve.py``);
    ``gen``: stamp 1 .. MAX_GEN, different for every (hands, contract, team, rules) solved with the
    same table - entries of other stamps are ignored, so the table never needs clearing until the
    stamps wrap.
    The search nodes visited are left in ``ctx[C_NODES]``.

    Inputs are trusted (the Python edge validates them).  The points of the cards on the table go
    to whoever wins the trick in progress and are part of the value.
    """
    return _value(hands, leader, trick, n_trick, contract, team, family, undertrump_required, at_overtake_partner,
                  valat, ctx, tt, gen, -1)


@njit(cache=True)
def _value(hands, leader, trick, n_trick, contract, team, family, undertrump_required, at_overtake_partner,
           valat, ctx, tt, gen, guess):
    """:func:`dd_value` for a caller that knows a probable value ``guess`` (>= 0; -1: none), such as
    a dd player's value of its previous decision: it is checked first (:func:`_exact`)."""
    check_arrays(hands, trick, n_trick, ctx, tt)
    make_ctx(ctx, hands, contract, team, family, undertrump_required, at_overtake_partner, gen, tt.shape[0] // 2 - 1)
    c_ = ctx.ctypes.data
    t_ = tt.ctypes.data
    led, win, winner, tcards, tpts, rem, _seat, _legal = _root(hands, leader, trick, n_trick, contract,
                                                               undertrump_required, at_overtake_partner, c_)
    if rem == 0:
        return 0
    vl = 1 if valat else 0
    # The root's own entry: an earlier solve with this stamp (a dd player's previous decision
    # of the deal) may have proved bounds on it already.
    key = _boundary_key(c_, rem, leader, vl) if n_trick == 0 else _midtrick_key(rem, leader, n_trick, tcards, vl)
    _idx, e = _tt_probe(c_, t_, key)
    _card, lo, hi, _settled, _v = _entry_bounds(e, 0, INF, 0, INF)
    return _call(ctx[_EXACT], c_, t_, rem, leader, n_trick, led, win, winner, tcards, tpts, vl, lo, hi, guess)


@njit(cache=True)
def dd_moves(hands, leader, trick, n_trick, contract, team, family, undertrump_required, at_overtake_partner,
             valat, ctx, tt, gen, out):
    """Value for ``team`` after each legal card of the seat to move (best play afterwards).

    Arguments as :func:`dd_value`; ``out`` (int64[32]) receives the value of every legal card and
    -1 for the others.  Returns the mask of legal cards.  All cards share the table, so the later
    ones are cheap.
    """
    return dd_values(hands, leader, trick, n_trick, contract, team, family, undertrump_required, at_overtake_partner,
                     valat, ctx, tt, gen, np.int64(-1), out)


@njit(cache=True)
def dd_values(hands, leader, trick, n_trick, contract, team, family, undertrump_required, at_overtake_partner,
              valat, ctx, tt, gen, cards, out):
    """:func:`dd_moves` for the legal cards of the mask ``cards`` only (-1: all of them): the others get
    -1 in ``out``.  Returns the mask of legal cards."""
    check_arrays(hands, trick, n_trick, ctx, tt)
    if out.shape[0] < 32:
        raise ValueError("out must hold 32 values")
    make_ctx(ctx, hands, contract, team, family, undertrump_required, at_overtake_partner, gen, tt.shape[0] // 2 - 1)
    c_ = ctx.ctypes.data
    t_ = tt.ctypes.data
    led, win, winner, tcards, tpts, rem, seat, legal = _root(hands, leader, trick, n_trick, contract,
                                                             undertrump_required, at_overtake_partner, c_)
    for c in range(32):
        out[c] = -1
    if rem == 0:
        return 0
    pos = n_trick
    hand = hands[seat]
    belot_cards = ctx[C_BELOT]
    vl = 1 if valat else 0
    others = (rem | tcards) & ~hand
    done = 0
    guess = -1  # the previous card's value, checked first for the next one (values are often equal)
    m = legal & cards
    while m:
        card = ctz(m)
        m &= m - 1
        bit = 1 << card
        p = ctx[C_POINTS + card]
        # A card of the same suit already valued, with no card of another hand between them, gives
        # an isomorphic game: the value differs by at most the difference of their points.
        lo = 0
        hi = INF
        if not (belot_cards >> card) & 1:
            d_m = done & SUIT[card >> 3] & ~belot_cards
            while d_m:
                d = ctz(d_m)
                d_m &= d_m - 1
                if cards_between(card, d, contract) & others:
                    continue
                delta = abs(p - ctx[C_POINTS + d])
                if out[d] - delta > lo:
                    lo = out[d] - delta
                if out[d] + delta < hi:
                    hi = out[d] + delta
        if lo == hi:
            out[card] = lo
            done |= bit
            continue
        gain, nrem, nleader, npos, nled, nwin, nwinner, ntcards, ntpts, nvl = _child(
            c_, card, rem, leader, pos, led, win, winner, tcards, tpts, vl, contract, team, belot_cards)
        if nrem == 0:
            out[card] = gain
        else:
            out[card] = gain + _call(ctx[_EXACT], c_, t_, nrem, nleader, npos, nled, nwin, nwinner, ntcards, ntpts,
                                     nvl, lo - gain, hi - gain, guess - gain)
        guess = out[card]
        done |= bit
    return legal


@njit(cache=True)
def dd_best(hands, leader, trick, n_trick, contract, team, family, undertrump_required, at_overtake_partner,
            valat, ctx, tt, gen, guess):
    """The best card for the seat to move — the lowest-index one among those keeping the exact
    value — and that value: ``(card, value)``.  Arguments as :func:`dd_value`, plus ``guess``: a
    probable value (-1: none), checked first by the search for the value.

    The value comes from :func:`dd_value`'s search; then the legal cards are tried in index order, each with
    a single null-window search "does it keep the value?", stopping at the first that does (the
    last candidate needs no search).  A player needs no more, and this is much cheaper than
    :func:`dd_moves`' exact value of every card.  Returns ``(-1, 0)`` when no card is left.
    """
    value = _value(hands, leader, trick, n_trick, contract, team, family, undertrump_required, at_overtake_partner,
                   valat, ctx, tt, gen, guess)
    c_ = ctx.ctypes.data
    t_ = tt.ctypes.data
    led, win, winner, tcards, tpts, rem, seat, legal = _root(hands, leader, trick, n_trick, contract,
                                                             undertrump_required, at_overtake_partner, c_)
    if rem == 0:
        return -1, 0
    pos = n_trick
    belot_cards = ctx[C_BELOT]
    vl = 1 if valat else 0
    m = legal
    while m:
        card = ctz(m)
        m &= m - 1
        if m == 0:
            return card, value  # some card keeps the value: the last one left does
        gain, nrem, nleader, npos, nled, nwin, nwinner, ntcards, ntpts, nvl = _child(
            c_, card, rem, leader, pos, led, win, winner, tcards, tpts, vl, contract, team, belot_cards)
        need = value - gain
        if need <= 0 or (nrem != 0 and _call(ctx[_NODE], c_, t_, nrem, nleader, npos, nled, nwin, nwinner, ntcards,
                                             ntpts, _points_of(c_, nrem), need - 1, need, nvl) >= need):
            return card, value
    return -1, value
