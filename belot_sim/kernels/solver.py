"""Exact double-dummy solver: the points a team takes from the remaining tricks with perfect play.

Everything here is Numba-compiled and takes only integers and preallocated ``int64`` arrays, so a
player kernel (PIMC, a double-dummy player) can call :func:`dd_value` / :func:`dd_moves` from inside
its own ``@njit`` code.  The Python edge with validation is :mod:`belot_sim.solve`.

The value
---------
From a position (the cards still in the four hands, the cards already on the table in the trick
in progress, the seat that led it) the value for ``team`` is, with team ``team`` maximising and
the other team minimising:

* the card points of every trick team ``team`` wins from here (cards on the table included),
  the rules family's point table for the contract (classic AT/NT use the classic tables);
* +10 for the deal's last trick (the trick that empties the hands);
* all of it doubled in bulgarian NT;
* +90 valat (not doubled) when ``valat`` is set (the team has won every trick of the deal so far;
  :func:`dd_value` callers set it for a whole 8-card deal) and the team also wins every remaining trick;
* in AT, +20 for each K-Q pair held together by one of the team's seats whose first card is
  played in its own suit (led or followed); a pair whose first card is discarded on another suit
  scores nothing.  Suit-contract belots and declarations are not part of the value (they do not
  depend on the play).

The search
----------
A fail-soft alpha-beta over single cards (recursive; the signature is explicit so Numba can cache
it), one search per value with the whole interval of possible values as its window
(:func:`_exact`), principal variation search inside: at every card-by-card node (:func:`_node`)
the first card is searched with the node's window, every later one is scouted with a null window
first and searched again with the window only when the scout shows it improves on the best so
far.  With move ordering that puts the best card first at most nodes the scouts are cheap.
Measured against the null-window probes this replaced (a first probe at a guess, bisection, a
last window of 16 points): 0.80-0.85 of the time for whole deals, 0.84-0.90 for positions inside
a deal, values identical.  A caller's guess (:func:`dd_best`'s, a dd player's value of its
previous decision; :func:`dd_moves`'s, the card before) is checked first with a window of that
one value.  What keeps it small:

* **transposition table** at trick boundaries, keyed on (remaining cards, leader, valat flag); the
  hands are fixed for a whole solve, so the remaining-cards mask identifies the position and the
  stored value (future points only) is independent of the path.  The zero-point cards of a suit
  (the weakest ranks) are interchangeable: only which seats hold the live ones, in order, matters,
  so the key replaces them by a canonical subset (:func:`_canon`) and transposed positions share
  an entry.  Entries keep a lower and an upper bound and the best card, two entries per bucket
  (the bigger position is kept); a generation stamp lets one table serve many solves without
  clearing.  Positions inside a trick are stored too (their key adds the cards on the table) in
  the first trick of a full deal (``MIDTT_MIN``) and in the trick of the solve's root; deeper, their
  entries cost more in evictions than they save (measured: from 28 cards instead of 20, 0.90 and
  0.94 of the time);
* **structure table**: two trick-start positions in which every suit's live cards are held by the
  same seats in the same strength order are isomorphic - the same lines of play win the same
  tricks - so the team's points differ by the point differences of the corresponding cards it
  wins: a position's value lies above the other's by at most what its cards gain over their
  counterparts in sum, below it by at most what they lose (in AT plus 20 on the side of a
  position where a belot of the team is still open; :func:`_point_gap`).  A small table in
  ``ctx`` keeps one position per structure with its bounds; a position it matches takes them,
  the lower one lowered by the losses and the upper one raised by the gains, and is often cut at once
  (measured: 27 % less time and a third fewer nodes on 240 deals with the sum of all the
  differences either way; the two one-sided sums instead took 0.75-0.76 of the time of that for
  ``solve``, 0.68 for ``solve_moves``).  It is used at trick starts in solves of more than three
  tricks;
* **the last four tricks a trick at a time**: from a trick start with ``ENDGAME_MAX`` (16) cards
  or fewer left, :func:`_endgame` searches plain loops over the ways to play the whole trick
  (the stored best lead first, else in NT and AT a master), without the per-card ordering,
  mid-trick table and quasi-equivalence of :func:`_node` - near the end of a deal that work costs
  more than the nodes it saves (measured: 17 % less time on 240 deals; the master lead: 0.94 of
  the NT time, 0.97 of AT's).  Two tricks left (two cards in every
  hand) are valued exactly, whatever the window, and stored as exact; the last card before that
  takes its children's exact values in a plain loop instead of a search.  The loops do little per
  card: a follower's legal cards are computed once per lead when they cannot depend on the cards
  before it (a plain suit followed in a suit contract, any NT trick: 0.947-0.966, NT 0.88-0.93);
* **bounds from the points still available**: a node whose window lies above every point still in
  play (remaining cards + table + last trick + open belots + valat), minus what the opponents
  surely take, or below the points the team surely takes, is cut at once.  Sure points:

  - in a suit contract the run of top trumps held by one team (each wins its trick whenever it is
    played); its holder with most of them wins that many separate tricks, to which every other
    seat gives at least its cheapest cards;
  - the masters the leader can cash one after the other (in NT and AT always, in a suit contract
    once the other side holds no trump; otherwise in each plain suit as many rounds as each
    opponent holding trumps can follow), with the cards the others must give to those rounds (their
    cheapest of the suit, and when void their cheapest other cards) - all of the remaining tricks
    when every card of the leader is such a master; or, if larger, the same for the partner's
    masters when the leader can lead a suit whose top card the partner holds.

  The sure points cost more than a table probe, so a trick start computes them only when the
  table and the structure table have not settled it (measured: 4-7 % less time, nodes +0.2-1.1 %);
* **quasi-equivalent cards**: two cards of one hand and suit with no card of *another* hand (or the
  table) between them lead to isomorphic games whose values differ by at most the difference of
  their points; once one is searched, the other is skipped when that bound cannot reach the
  window (and :func:`dd_moves` narrows each card's interval with it).  Equivalent cards (equal
  points) are the case of a zero difference: :func:`_node` always skips the second (except in its
  plain loop one card before two tricks are left).  Merging them beforehand (dropping each card
  equivalent to the next stronger live card of its hand) no longer pays, not even in the trick
  loops, which skip nothing: a merge walks every hand, and with few cards left equivalent pairs
  are rare (without it: 0.91 of the time for ``solve`` and ``solve_moves``, 0.90 for the ``dd``
  bid table).  K/Q of an open AT belot are never skipped;
* **move ordering**: the stored best card first; then, with more than ``GREEDY_MIN`` cards left, each
  candidate is scored by finishing the current trick greedily (partner winning: give the most
  points; else win as cheaply as possible; else throw the cheapest card) and taking the trick's
  points for or against the mover; deeper, a static score (masters first when leading, tricks won
  / points given to partner when following); plus a history bonus (:func:`_learn`): after a
  cutoff by a card other than the first tried, that card gains ``2 * tricks_left**2`` and each
  card tried before it loses as much.  Leads, follows in the led suit and other cards (discards,
  ruffs) keep separate bonuses (:func:`_hist_slot`), and a dd player's solves of one deal keep
  them from one decision to the next (measured against one bonus per card, gains only: 0.76 of
  the time for ``solve``, 0.75 for ``solve_moves`` and the ``dd`` bid table).  The last player of
  a trick first probes the stored bounds of its children (enhanced transposition cutoff).

Arrays
------
``ctx`` (int64[CTX_SIZE], ~160 KiB) holds the solve's constants (hands, contract, point tables, …),
the scratch move lists and the structure table (stamped by a counter of the ctx itself, so one ctx
serves any number of solves); ``tt`` (int64[2 * 2**k]) is the table.  The recursive search reads them
through raw addresses (``_ld``/``_st``): passing array objects through every recursive call would
cost two atomic reference-count updates per node.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ..rules import PLAIN_STRENGTH_BY_RANK, STRENGTH as _STRENGTH, TRUMP_STRENGTH_BY_RANK
from .bits import ctz, popcount
from .play import after_card, beats, legal_mask
from .tables import AT, BEATS, NT, POINTS, STRONGER, SUIT, TRICK_MULT, TRUMPS

# The layout lives in its own module so that plain kernels can size arrays without importing this
# one; CTX_SIZE and MAX_GEN are re-exported for the callers of dd_value / dd_moves.
from .solver_layout import (C_ATOP, C_BELOT, C_CANON, C_CONTRACT, C_GEN, C_HIST, C_LAST, C_MIDTT, C_MOVES,  # noqa: F401
                            C_NODES, C_POINTS, C_SCORES, C_TEAM, C_TEAMCARDS, C_TTMASK, C_UNDER, C_VALS, C_ZMASK,
                            CTX_SIZE, MAX_GEN, C_OWNSEQ, C_PSEQ, C_SEPOCH, C_SON, C_STAB, C_ZEROS, S_BITS)

INF = 1 << 20
QUEENS = 0x20202020
VALAT = 90
BELOT = 20
#: Greedy one-trick lookahead orders moves at nodes with more than this many cards left.
GREEDY_MIN = 16
#: Positions inside a trick are stored too when this many cards or more are left (the first trick
#: of a full deal), and always in the trick of the solve's root.
MIDTT_MIN = 28
#: Trick starts with at most this many cards left are searched a trick at a time (:func:`_endgame`).
ENDGAME_MAX = 16
_HASH_MUL = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64
_HASH_MUL2 = -4658895280553007687  # 0xBF58476D1CE4E5B9 as int64


@intrinsic
def _ld(typingctx, base, idx):
    """Load int64 number ``idx`` at address ``base``."""
    def codegen(context, builder, signature, args):
        ptr = builder.inttoptr(args[0], ir.IntType(64).as_pointer())
        return builder.load(builder.gep(ptr, [args[1]]))
    return types.int64(types.int64, types.int64), codegen


@intrinsic
def _st(typingctx, base, idx, value):
    """Store ``value`` as int64 number ``idx`` at address ``base``."""
    def codegen(context, builder, signature, args):
        ptr = builder.inttoptr(args[0], ir.IntType(64).as_pointer())
        builder.store(args[2], builder.gep(ptr, [args[1]]))
        return context.get_dummy_value()
    return types.none(types.int64, types.int64, types.int64), codegen


def _top_run_table():
    """``TOP_RUN[order, live, hand]`` (8-bit suit patterns): the cards of ``hand`` that are the top
    of ``live`` in unbroken succession (order 0 plain, 1 trump) — the masters a leader can cash."""
    out = np.zeros((2, 256, 256), dtype=np.uint8)
    for t, strength in enumerate((PLAIN_STRENGTH_BY_RANK, TRUMP_STRENGTH_BY_RANK)):
        desc = sorted(range(8), key=lambda r: -int(strength[r]))
        live = np.arange(256)[:, None]
        hand = np.arange(256)[None, :]
        run = np.zeros((256, 256), dtype=np.int64)
        going = np.ones((256, 256), dtype=bool)
        for r in desc:
            in_live = (live >> r) & 1 == 1
            in_hand = (hand >> r) & 1 == 1
            take = going & in_live & in_hand
            run |= np.where(take, 1 << r, 0)
            going &= ~(in_live & ~in_hand)
        out[t] = run & hand
    return out


TOP_RUN = _top_run_table()


def _extreme_rank_tables():
    """``WEAKEST_RANK[order, pattern]`` / ``STRONGEST_RANK[order, pattern]``: rank of the weakest /
    strongest card of an 8-bit suit pattern (order 0 plain, 1 trump; 0 for the empty pattern)."""
    weak = np.zeros((2, 256), dtype=np.int64)
    strong = np.zeros((2, 256), dtype=np.int64)
    for t, strength in enumerate((PLAIN_STRENGTH_BY_RANK, TRUMP_STRENGTH_BY_RANK)):
        for p in range(1, 256):
            ranks = [r for r in range(8) if p >> r & 1]
            weak[t, p] = min(ranks, key=lambda r: strength[r])
            strong[t, p] = max(ranks, key=lambda r: strength[r])
    return weak, strong


WEAKEST_RANK, STRONGEST_RANK = _extreme_rank_tables()
STRENGTH64 = _STRENGTH.astype(np.int64)
for _table in (TOP_RUN, STRENGTH64, WEAKEST_RANK, STRONGEST_RANK):
    _table.flags.writeable = False


@njit(cache=True)
def make_ctx(ctx, hands, contract, team, family, undertrump_required, at_overtake_partner, gen, tt_mask):
    """Fill ``ctx`` for a solve.  ``hands``: the four seats' remaining cards (int64[4]);
    ``family``: 0 bulgarian, 1 classic; ``gen``: generation stamp (1 .. 2**23-1) of this solve's
    table entries; ``tt_mask``: number of table slots - 1 (a power of two minus one)."""
    for s in range(4):
        ctx[s] = hands[s]
    ctx[C_CONTRACT] = contract
    ctx[C_TEAM] = team
    ctx[C_UNDER] = 1 if undertrump_required else 0
    ctx[C_ATOP] = 1 if at_overtake_partner else 0
    mult = TRICK_MULT[family, contract]
    ctx[C_LAST] = 10 * mult
    belot = 0
    if contract == AT:
        for s in range(4):
            if (s & 1) == team:
                for suit in range(4):
                    pair = (1 << (8 * suit + 5)) | (1 << (8 * suit + 6))
                    if hands[s] & pair == pair:
                        belot |= pair
    ctx[C_BELOT] = belot
    ctx[C_TEAMCARDS] = hands[team] | hands[team + 2]
    if ctx[C_GEN] != gen or ctx[C_SEPOCH] == 0:
        # a new problem: a new structure-table stamp (the table is cleared when the 13-bit
        # stamp wraps, so an old entry can never pass for this solve's)
        stamp = (ctx[C_SEPOCH] + 1) & 0x1FFF
        if stamp == 0:
            ctx[C_STAB:C_STAB + (2 << S_BITS)] = 0
            stamp = 1
        ctx[C_SEPOCH] = stamp
        # and no history bonuses: a solve with the same stamp (the next decision of a dd
        # player's deal) keeps what the previous ones learnt (measured: 0.97 of the time)
        ctx[C_HIST:C_VALS] = 0
    ctx[C_GEN] = gen
    ctx[C_TTMASK] = tt_mask
    ctx[C_NODES] = 0
    zeros = 0
    for c in range(32):
        ctx[C_POINTS + c] = POINTS[family, contract, c] * mult
        if POINTS[family, contract, c] == 0:
            zeros |= 1 << c
    ctx[C_ZEROS] = zeros
    n_cards = popcount(hands[0] | hands[1] | hands[2] | hands[3])
    # The structure table pays from four tricks left (measured).
    ctx[C_SON] = 1 if n_cards > 12 else 0
    # Inside a trick only the first trick's positions pay for their table slots (measured), and
    # those of the root's own trick: every search of the root's value passes through them.
    ctx[C_MIDTT] = min(MIDTT_MIN, n_cards - 3)
    # Zero-point cards of a suit are the weakest ranks (0..g-1 in every table): which of them are
    # still live does not matter, only the seats holding them in order.  _canon replaces the live
    # subset by the smallest subset with the same owner sequence, so transposed positions share
    # one table entry (not worth its ~0.2 us below three tricks).
    big = n_cards >= 12
    if big:
        # The owner sequence of every suit pattern (for _canon and the structure table) and the
        # points of its cards (for _point_gap), each from the pattern without its strongest card;
        # -1 when a card of it is not in the hands.
        for suit in range(4):
            t = (TRUMPS[contract] >> (8 * suit)) & 1
            base = C_OWNSEQ + suit * 256
            pbase = C_PSEQ + suit * 256
            ctx[base] = 0
            ctx[pbase] = 0
            for live in range(1, 256):
                r = STRONGEST_RANK[t, live]
                rest = ctx[base + (live ^ (1 << r))]
                seat = _owner(hands, 8 * suit + r)
                if rest < 0 or seat < 0:
                    ctx[base + live] = -1
                else:
                    k = rest >> 16
                    ctx[base + live] = (rest & 0xFFFF) | (seat << (2 * k)) | ((k + 1) << 16)
                    ctx[pbase + live] = ctx[pbase + (live ^ (1 << r))] | (ctx[C_POINTS + 8 * suit + r] << (6 * k))
    for suit in range(4):
        zm = 0
        for r in range(8):
            if POINTS[family, contract, 8 * suit + r] == 0:
                zm |= 1 << r
        if not big or zm & (zm + 1) != 0 or zm > 7:  # not ranks 0..g-1: no canonical stand-ins (never so)
            zm = 0
        for r in range(8):
            if (zm >> r) & 1 and STRENGTH64[contract, 8 * suit + r] != r:
                zm = 0
        ctx[C_ZMASK + suit] = zm
        base = C_CANON + 8 * suit
        ctx[base] = 0
        if zm == 0:
            continue
        seqs = C_OWNSEQ + suit * 256  # zero-point ranks are the weakest: owners in rank order
        for sub in range(1, zm + 1):
            ctx[base + sub] = sub
            if sub & ~zm or ctx[seqs + sub] < 0:
                continue
            for t in range(1, sub):
                if t & ~zm == 0 and ctx[seqs + t] == ctx[seqs + sub]:
                    ctx[base + sub] = t
                    break


@njit(cache=True, inline="always")
def _owner(hands, card):
    """The seat holding ``card`` (-1: played)."""
    for s in range(4):
        if (hands[s] >> card) & 1:
            return s
    return -1


@njit(cache=True, inline="always")
def _canon(ctx, rem):
    """``rem`` with each suit's live zero-point cards replaced by their canonical stand-in
    (same count, same holders in the same order): an isomorphic position, hence the same value."""
    out = rem
    for s in range(4):
        z = (rem >> (8 * s)) & _ld(ctx, C_ZMASK + s)
        out ^= (z ^ _ld(ctx, C_CANON + 8 * s + z)) << (8 * s)
    return out


@njit(cache=True, inline="always")
def _cheapest_points(ctx, mask, m):
    """Sum of the points of the ``m`` cheapest cards of ``mask`` (all of them when it has fewer)."""
    # its zero-point cards first (most hands have some): only the rest needs sorting
    m -= popcount(mask & _ld(ctx, C_ZEROS))
    mask &= ~_ld(ctx, C_ZEROS)
    total = 0
    for _ in range(m):
        if mask == 0:
            break
        best = ctz(mask)
        x = mask & (mask - 1)
        while x:
            c = ctz(x)
            x &= x - 1
            if _ld(ctx, C_POINTS + c) < _ld(ctx, C_POINTS + best):
                best = c
        total += _ld(ctx, C_POINTS + best)
        mask ^= 1 << best
    return total


@njit(cache=True, inline="always")
def _suit_extreme(ctx, pattern, sh, m, pick):
    """Points of the ``m`` weakest (``pick`` = WEAKEST_RANK[order]) or strongest cards of the 8-bit
    suit ``pattern`` at bit ``sh`` (all of them when it has fewer): card points never decrease
    with strength within a suit, so these are the cheapest / dearest ones."""
    total = 0
    for _ in range(m):
        if pattern == 0:
            break
        r = pick[pattern]
        total += _ld(ctx, C_POINTS + sh + r)
        pattern ^= 1 << r
    return total


@njit(cache=True, inline="always")
def _weakest(pattern, m, pick):
    """The ``m`` weakest cards of the 8-bit suit ``pattern`` (``pick`` = WEAKEST_RANK[order])."""
    pattern &= 0xFF
    out = 0
    for _ in range(m):
        if pattern == 0:
            break
        r = pick[pattern]
        out |= 1 << r
        pattern ^= 1 << r
    return out


@njit(cache=True, inline="always")
def _points_of(ctx, mask):
    total = 0
    while mask:
        total += _ld(ctx, C_POINTS + ctz(mask))
        mask &= mask - 1
    return total


@njit(cache=True, inline="always")
def _last_trick(ctx, rem, leader, valat):
    """Value of the last trick (one card in every hand)."""
    contract = _ld(ctx, C_CONTRACT)
    win = ctz(_ld(ctx, leader) & rem)
    winner = leader
    pts = _ld(ctx, C_POINTS + win)
    for i in range(1, 4):
        s = (leader + i) & 3
        c = ctz(_ld(ctx, s) & rem)
        pts += _ld(ctx, C_POINTS + c)
        if beats(c, win, contract):
            win = c
            winner = s
    if (winner & 1) == _ld(ctx, C_TEAM):
        return pts + _ld(ctx, C_LAST) + (VALAT if valat else 0)
    return 0


@njit(cache=True, inline="always")
def _greedy_card(ctx, hand, s, led, win, winner, contract, under, atop):
    """The greedy card of seat ``s`` following a trick: partner winning, the card with most
    points; else the cheapest card that beats; else the card with fewest points (weakest first)."""
    pw = ((winner ^ s) & 1) == 0
    legal = legal_mask(hand, led, win, pw, contract, under, atop)
    beat = legal & BEATS[contract, win]
    best = ctz(legal)
    bkey = 1 << 40
    if pw:
        m = legal
        sign = -64
    elif beat:
        m = beat
        sign = 0
    else:
        m = legal
        sign = 64
    while m:
        c = ctz(m)
        m &= m - 1
        k = sign * _ld(ctx, C_POINTS + c) + STRENGTH64[contract, c] + 8 * ((TRUMPS[contract] >> c) & 1)
        if k < bkey:
            bkey = k
            best = c
    return best


@njit(cache=True, inline="always")
def _greedy_rest(ctx, rem, leader, pos, led, win, winner, tpts, contract, under, atop):
    """Finish the trick greedily (:func:`_greedy_card`) from position ``pos``: returns (winning
    seat, trick points, cards left).  Used to order moves."""
    for q in range(pos, 4):
        s = (leader + q) & 3
        best = _greedy_card(ctx, _ld(ctx, s) & rem, s, led, win, winner, contract, under, atop)
        rem ^= 1 << best
        tpts += _ld(ctx, C_POINTS + best)
        if beats(best, win, contract):
            win = best
            winner = s
    return winner, tpts, rem


@njit(cache=True, inline="always")
def _fixed_legal(hand, led, contract):
    """The legal cards of ``hand`` following a trick of suit ``led`` when they do not depend on the
    cards already played to it - any card of the suit when it holds one and must not beat (a plain
    suit in a suit contract, any suit in NT), any card when void in NT - else -1."""
    follow = hand & SUIT[led]
    if contract == NT:
        return follow if follow else hand
    if contract < NT and led != contract and follow:
        return follow
    return np.int64(-1)


@njit(cache=True, inline="always")
def _belot_gain(belot_cards, rem, card, led):
    """20 when ``card``, played to a trick of suit ``led``, is the first card played of an open AT
    belot of the team (its partner card, in the same hand, still in ``rem``), else 0."""
    if (belot_cards >> card) & 1 and (rem >> (card ^ 3)) & 1 and (card >> 3) == led:
        return BELOT
    return 0


@njit(cache=True, inline="always")
def _in_play(ctx, rem, pts, valat):
    """Everything team ``ctx[C_TEAM]`` can still get: ``pts`` (the points of the cards in the hands
    and on the table), the last trick, its open AT belots and the valat while it is alive."""
    return pts + _ld(ctx, C_LAST) + BELOT * popcount(_ld(ctx, C_BELOT) & rem & (rem >> 1) & QUEENS) + VALAT * valat


@njit(cache=True, inline="always")
def _boundary_key(ctx, rem, leader, valat):
    """Table key of a trick-start position (zero-point cards canonical, see :func:`_canon`)."""
    return _canon(ctx, rem) | (leader << 32) | (valat << 34)


@njit(cache=True, inline="always")
def _midtrick_key(rem, leader, pos, tcards, valat):
    """Table key of a position inside a trick (``pos`` 1..3 cards on the table, ``tcards``)."""
    tc = tcards
    c1 = ctz(tc)
    tc &= tc - 1
    c2 = ctz(tc) & 31
    tc &= tc - 1
    c3 = ctz(tc) & 31
    return rem | (c1 << 32) | (c2 << 37) | (c3 << 42) | (leader << 47) | (pos << 49) | (valat << 51)


@njit(cache=True, inline="always")
def _tt_probe(ctx, tt, key):
    """``(slot, entry)``: the slot of ``key``'s two-slot bucket that holds it (else the first
    one), and its entry word when it is this solve's (generation stamp), else -1."""
    idx = (((key * _HASH_MUL) >> 38) & _ld(ctx, C_TTMASK)) * 2
    if _ld(tt, idx) != key and _ld(tt, idx ^ 2) == key:
        idx ^= 2
    if _ld(tt, idx) == key:
        e = _ld(tt, idx + 1)
        if (e >> 40) == _ld(ctx, C_GEN):
            return idx, e
    return idx, np.int64(-1)


@njit(cache=True, inline="always")
def _entry_bounds(e, lb, ub, alpha, beta):
    """``(best card, lb, ub, settled, value)``: the bounds ``lb``/``ub`` tightened by the table entry
    ``e`` (-1: none; best card 0xFF then); ``settled`` when they decide a search of the window
    (``alpha``, ``beta``) without searching, whose fail-soft result is then ``value``."""
    card = np.int64(0xFF)
    if e >= 0:
        card = (e >> 32) & 0xFF
        lb = max(lb, e & 0xFFFF)
        ub = min(ub, (e >> 16) & 0xFFFF)
    settled, value = _settles(lb, ub, alpha, beta)
    return card, lb, ub, settled, value


@njit(cache=True, inline="always")
def _settles(lb, ub, alpha, beta):
    """``(settled, value)``: whether the bounds ``lb``/``ub`` decide a search of the window
    (``alpha``, ``beta``) without searching, and its fail-soft result then."""
    if lb >= beta or lb == ub:
        return True, lb
    return ub <= alpha, ub


@njit(cache=True, inline="always")
def _tt_put(ctx, tt, tt_idx, key, lb, ub, card):
    """Write the entry ``key``: bounds ``lb``/``ub`` (0 .. 0xFFFF), best card (0xFF: none), this
    solve's generation stamp (the layout is in :mod:`.solver_layout`)."""
    _st(tt, tt_idx, key)
    _st(tt, tt_idx + 1, lb | (ub << 16) | (card << 32) | (_ld(ctx, C_GEN) << 40))


@njit(cache=True, inline="always")
def _proved_bounds(best, a0, b0, lb, ub):
    """``(lb, ub)``: the bounds ``lb``/``ub`` known before a search of window (``a0``, ``b0``),
    tightened by its fail-soft result ``best``."""
    if best <= a0:
        return lb, min(ub, best)
    if best >= b0:
        return max(lb, best), ub
    return best, best


@njit(cache=True, inline="always")
def _tt_store(ctx, tt, tt_idx, key, best, a0, b0, lb, ub, bestcard):
    """Store what a search of window (``a0``, ``b0``) returning the fail-soft ``best`` proved, on top
    of the bounds ``lb``/``ub`` known before it, in the slot ``tt_idx`` found by :func:`_tt_probe`."""
    lb, ub = _proved_bounds(best, a0, b0, lb, ub)
    if _ld(tt, tt_idx) != key:
        # two slots per bucket: keep the entry of the bigger position of this solve
        gen = _ld(ctx, C_GEN)
        other = tt_idx ^ 2
        if (_ld(tt, tt_idx + 1) >> 40) == gen and (
                (_ld(tt, other + 1) >> 40) != gen
                or popcount(_ld(tt, other) & 0xFFFFFFFF) < popcount(_ld(tt, tt_idx) & 0xFFFFFFFF)):
            tt_idx = other
    _tt_put(ctx, tt, tt_idx, key, max(lb, 0), ub, bestcard)


@njit(cache=True, inline="always")
def _struct_hash(ctx, rem, leader, valat):
    """Hash of a trick-start position's structure — per suit the seats holding its live cards,
    weakest first — with the leader and the valat flag: isomorphic positions share it."""
    # Each suit's sequence takes 20 bits: three suits packed side by side and the fourth with the
    # leader and the valat flag, hashed by two independent multiplications.
    x = (_ld(ctx, C_OWNSEQ + (rem & 0xFF)) | (_ld(ctx, C_OWNSEQ + 256 + ((rem >> 8) & 0xFF)) << 20)
         | (_ld(ctx, C_OWNSEQ + 512 + ((rem >> 16) & 0xFF)) << 40))
    y = _ld(ctx, C_OWNSEQ + 768 + ((rem >> 24) & 0xFF)) | (leader << 20) | (valat << 22)
    h = x * _HASH_MUL ^ y * _HASH_MUL2
    h ^= (h >> 29) & 0x7FFFFFFFF
    return h


@njit(cache=True, inline="always")
def _point_gap(ctx, rem, rem2, contract):
    """``(up, down)``: how much higher and how much lower the value of the trick-start position
    ``rem`` can be than that of ``rem2`` (same leader and valat flag); ``up`` is -1 when they are
    not isomorphic.

    Isomorphic: in every suit the same seats hold the live cards in the same strength order.
    Corresponding cards (same suit, same place in that order) then win and lose the same tricks
    in every line of play, so whatever the team wins in one position it wins the corresponding
    cards of in the other: its points there differ by the sum of the point differences of those
    cards - at most the sum of the positive differences above, at most the sum of the negative
    ones below (measured against the sum of all the differences either way: see the README).  Plus,
    for each suit that differs, 20 up when an AT belot of the team is still open in ``rem`` and 20
    down when it is open in ``rem2`` (its K and Q need not correspond)."""
    up = 0
    down = 0
    belot = _ld(ctx, C_BELOT)
    for s in range(4):
        sh = 8 * s
        a = (rem >> sh) & 0xFF
        b = (rem2 >> sh) & 0xFF
        if a == b:
            continue
        if _ld(ctx, C_OWNSEQ + s * 256 + a) != _ld(ctx, C_OWNSEQ + s * 256 + b):
            return np.int64(-1), np.int64(0)
        pa = _ld(ctx, C_PSEQ + s * 256 + a)
        pb = _ld(ctx, C_PSEQ + s * 256 + b)
        while pa | pb:
            d = (pa & 63) - (pb & 63)
            if d > 0:
                up += d
            else:
                down -= d
            pa >>= 6
            pb >>= 6
        pair = (belot >> sh) & 0xFF
        if pair:
            if (a & pair) == pair:  # the belot may still score from rem: up to 20 more
                up += BELOT
            if (b & pair) == pair:  # or from rem2: up to 20 less
                down += BELOT
    return up, down


@njit(cache=True, inline="always")
def _struct_probe(ctx, rem, leader, valat, lb, ub):
    """``(slot, tag, lb, ub)``: the structure-table slot and tag of a trick-start position, and the
    bounds ``lb``/``ub`` tightened by the entry there when it holds an isomorphic position (its
    bounds widened by :func:`_point_gap`).

    The table keeps one position per structure hash.  The tag holds 48 bits of the hash, the
    leader, the valat flag and the ctx's stamp; a matching tag still has its structure checked
    (:func:`_point_gap`), so a hash collision costs nothing but the check."""
    sh = _struct_hash(ctx, rem, leader, valat)
    sidx = C_STAB + 2 * ((sh >> 40) & ((1 << S_BITS) - 1))
    stag = (sh & 0xFFFFFFFFFFFF) | (leader << 48) | (valat << 50) | (_ld(ctx, C_SEPOCH) << 51)
    if _ld(ctx, sidx) == stag:
        w1 = _ld(ctx, sidx + 1)
        up, down = _point_gap(ctx, rem, w1 & 0xFFFFFFFF, _ld(ctx, C_CONTRACT))
        if up >= 0:
            lb = max(lb, ((w1 >> 32) & 0xFFFF) - down)
            ub = min(ub, ((w1 >> 48) & 0xFFFF) + up)
    return sidx, stag, lb, ub


@njit(cache=True, inline="always")
def _struct_store(ctx, sidx, stag, rem, best, a0, b0, lb, ub):
    """Store in the structure table what a search of window (``a0``, ``b0``) returning ``best``
    proved, on top of the bounds ``lb``/``ub`` known before it: the tag, then the position's
    cards (32 bits) | lb << 32 | ub << 48.  The newest position of a slot is kept."""
    lb, ub = _proved_bounds(best, a0, b0, lb, ub)
    _st(ctx, sidx, stag)
    _st(ctx, sidx + 1, rem | (max(lb, 0) << 32) | (min(ub, 0xFFFF) << 48))

@njit(cache=True, inline="always")
def _cash_points(ctx, rem, casher, mate, opp1, opp2, contract, free, order, trun):
    """Points surely taken when ``casher`` (a hand, holding the lead) cashes its masters one after
    the other: in each plain suit the run of top cards it holds — all of it when ``free`` (nobody
    can ruff), else as many rounds as each opponent holding trumps can still follow — plus the
    cards the three others must give to those rounds: their cheapest of the suit, and when void
    their cheapest other cards (``trun``, top trumps counted elsewhere, left out: they may be the
    ones discarded).  Returns ``(points, the run cards, the suits cashed)``."""
    sure = 0
    rounds = 0
    runs = 0
    suits = 0
    u0 = 0  # the others' cheapest cards of the cashed suits, one per round
    u1 = 0
    u2 = 0
    for s in range(4):
        if s == contract:
            continue
        sh = 8 * s
        run = np.int64(TOP_RUN[order, (rem >> sh) & 0xFF, (casher >> sh) & 0xFF]) << sh
        if run == 0:
            continue
        runs |= run
        m = popcount(run)
        if not free:
            if opp1 & SUIT[contract]:  # an opponent without trumps cannot ruff
                m = min(m, popcount(opp1 & SUIT[s]))
            if opp2 & SUIT[contract]:
                m = min(m, popcount(opp2 & SUIT[s]))
            if m == 0:
                continue
        sure += _suit_extreme(ctx, (run >> sh) & 0xFF, sh, m, STRONGEST_RANK[order])
        rounds += m
        suits |= SUIT[s]
        u0 |= _weakest(opp1 >> sh, m, WEAKEST_RANK[order]) << sh
        u1 |= _weakest(mate >> sh, m, WEAKEST_RANK[order]) << sh
        u2 |= _weakest(opp2 >> sh, m, WEAKEST_RANK[order]) << sh
    if rounds:
        # A hand void in a cashed suit still gives a card to each round: at least its cheapest
        # cards beyond those counted.
        sure += _points_of(ctx, u0 | u1 | u2)
        r = rounds - popcount(u0)
        if r > 0:
            sure += _cheapest_points(ctx, opp1 & ~u0 & ~trun, r)
        r = rounds - popcount(u1)
        if r > 0:
            sure += _cheapest_points(ctx, mate & ~u1 & ~trun, r)
        r = rounds - popcount(u2)
        if r > 0:
            sure += _cheapest_points(ctx, opp2 & ~u2 & ~trun, r)
    return sure, runs, suits


@njit(cache=True, inline="always")
def _start_bounds(ctx, rem, leader, valat, rpts, hi, contract, team, belot_cards, lb, ub):
    """``(lb, ub)``: the bounds ``lb``/``ub`` of a trick-start position's value tightened by its
    sure-point bounds (see the module docstring), ``hi`` coming in as the points still in play."""
    lo = 0
    valat_dead = valat == 0
    trun = 0
    owner = -1
    if contract < NT:
        # The run of top trumps held by one team: each wins its trick whenever it is played.
        sh = 8 * contract
        live = (rem >> sh) & 0xFF
        tm = (_ld(ctx, C_TEAMCARDS) >> sh) & 0xFF
        trun = np.int64(TOP_RUN[1, live, tm]) << sh
        if trun:
            owner = 1
            lo += _points_of(ctx, trun)
        else:
            trun = np.int64(TOP_RUN[1, live, live & ~tm]) << sh
            if trun:
                owner = 0
                hi -= _points_of(ctx, trun)
                if not valat_dead:
                    hi -= VALAT
                    valat_dead = True
    # The leader's masters, cashed one after the other: nobody can ruff them in NT and AT, nor
    # in a suit contract once the other side has no trump left; otherwise, in each plain suit,
    # as many rounds as each opponent holding trumps can still follow.  The followers must give
    # at least their cheapest cards of the suit (discards only go to the same tricks).
    lhand = _ld(ctx, leader) & rem
    f1 = _ld(ctx, (leader + 1) & 3) & rem
    f2 = _ld(ctx, (leader + 2) & 3) & rem
    f3 = _ld(ctx, (leader + 3) & 3) & rem
    free = contract >= NT or ((f1 | f3) & SUIT[contract]) == 0
    order = 1 if contract == AT else 0
    sure, runs, _suits = _cash_points(ctx, rem, lhand, f2, f1, f3, contract, free, order, trun)
    cash = runs if free else 0  # the leader's masters when nobody can ruff them
    if cash != lhand:
        # Or the leader leads a suit whose top card its partner holds: the partner wins that
        # trick and then cashes its masters the same way.  The larger of the two lines counts.
        psure, _runs, suits = _cash_points(ctx, rem, f2, lhand, f1, f3, contract, free, order, trun)
        if lhand & suits and psure > sure:
            sure = psure
    if sure or cash:
        if (leader & 1) == team:
            if cash == lhand:  # the leader takes every remaining trick
                lo = rpts + _ld(ctx, C_LAST)
            else:
                lo += sure
        else:
            if cash == lhand:  # the team takes no trick: at most its belots
                hi = BELOT * popcount(belot_cards & rem & (rem >> 1) & QUEENS)
            else:
                hi -= sure
                if not valat_dead:
                    hi -= VALAT
    if contract < NT and trun != 0 and cash != lhand and not (sure != 0 and ((leader & 1) == team) == (owner == 1)):
        # The seat holding most of that run wins that many separate tricks, and every other
        # seat gives one card to each: at least its cheapest ones (the run's other holder
        # excepted: its run cards are counted already).  Not added on top of the cashing
        # bound of the same side (the followers' cards could be the same).
        t = 0
        for q in range(4):
            k = popcount(_ld(ctx, q) & trun)
            if k > t:
                t = k
        extra = 0
        for q in range(4):
            h = _ld(ctx, q) & rem
            if h & trun == 0:
                extra += _cheapest_points(ctx, h, t)
        if owner == 1:
            lo += extra
        else:
            hi -= extra
    return max(lb, lo), min(ub, hi)


@njit(cache=True, inline="always")
def _hist_slot(pos, led, card):
    """The ctx slot of ``card``'s history bonus when played at position ``pos`` of a trick of suit
    ``led``: leads, follows in the led suit and other cards (discards, ruffs) learn apart - a good
    lead says little about the same card as a follow (measured against one bonus per card: leads
    apart 0.92-0.94 of the time, the other cards apart too another 0.93-0.95).  The card tells the
    seat, so no team index is needed."""
    if pos == 0:
        return C_HIST + card
    if (card >> 3) == led:
        return C_HIST + 32 + card
    return C_HIST + 64 + card


@njit(cache=True, inline="always")
def _learn(ctx, base, i, pos, led, n_rem):
    """History update after a cutoff by move ``i`` (> 0) of the ordered list at ``base``: a bonus for
    the card that cut and the same malus for each card tried before it, ``2 * tricks_left**2``.
    A cutoff by the first card teaches nothing (rewarding it measured 1.6 times the time); the
    malus took 0.90-0.92 of the time, twice the step another 0.94-0.96."""
    d = n_rem >> 2
    step = 2 * d * d
    slot = _hist_slot(pos, led, _ld(ctx, base + i))
    _st(ctx, slot, _ld(ctx, slot) + step)
    for j in range(i):
        slot = _hist_slot(pos, led, _ld(ctx, base + j))
        _st(ctx, slot, _ld(ctx, slot) - step)


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


@njit(cache=True, inline="always")
def _trick_loops(ctx, tt, rem, leader, valat, n_rem, a0, b0, first, rpts):
    """``(value, best lead)``: fail-soft alpha-beta over the ways to play the trick starting at a
    trick start, in plain loops (window ``a0``, ``b0``; ``first``: a lead to try first; ``rpts``:
    points of ``rem``, unused with two tricks left).  Each complete trick leads to the next trick's
    start: the last trick directly, two tricks exactly (stored for every window), more through
    :func:`_endgame` with the window carried down.  Leads and follows are tried in card-index
    order (by suit, then ranks 7, 8, 9, 10, J, Q, K, A), after ``first``, or in NT and AT a master
    when there is no ``first``.  Values are negated when the leader's side minimises, so every
    level alternates max/min the same way."""
    contract = _ld(ctx, C_CONTRACT)
    team = _ld(ctx, C_TEAM)
    belot_cards = _ld(ctx, C_BELOT)
    under = _ld(ctx, C_UNDER) == 1
    atop = _ld(ctx, C_ATOP) == 1
    s1 = (leader + 1) & 3
    s2 = (leader + 2) & 3
    s3 = (leader + 3) & 3
    h1 = _ld(ctx, s1) & rem
    h2 = _ld(ctx, s2) & rem
    h3 = _ld(ctx, s3) & rem
    sign = 1 if (leader & 1) == team else -1
    alpha, beta = (a0, b0) if sign > 0 else (-b0, -a0)
    best0 = -INF
    bestcard = 0xFF
    m0 = _ld(ctx, leader) & rem
    if first >= 32 or (m0 >> first) & 1 == 0:
        first = 0xFF
        if contract >= NT:
            # No stored lead: in NT and AT a master (the top live card of its suit) first - it
            # wins its trick (measured, 400 deals each: NT 0.94, AT 0.97 of the time; in a suit
            # contract neither a trump nor a plain master first paid).
            x = m0
            while x:
                c = ctz(x)
                x &= x - 1
                if STRONGER[contract, c] & SUIT[c >> 3] & rem == 0:
                    first = c
                    break
    while m0 and best0 < beta:
        if first < 32:
            a = first
            m0 &= ~(1 << a)
            first = 0xFF
        else:
            a = ctz(m0)
            m0 &= m0 - 1
        led = a >> 3
        # the trick's points and belot gains so far, one card at a time
        pa = _ld(ctx, C_POINTS + a)
        ga = _belot_gain(belot_cards, rem, a, led)
        best1 = INF
        a1 = max(alpha, best0)
        # a follower's legal cards that do not depend on the cards played before it (-1: they do)
        x2 = _fixed_legal(h2, led, contract)
        x3 = _fixed_legal(h3, led, contract)
        m1 = legal_mask(h1, led, a, False, contract, under, atop)
        while m1 and best1 > a1:
            b = ctz(m1)
            m1 &= m1 - 1
            w1, ws1 = (b, s1) if beats(b, a, contract) else (a, leader)
            pb = pa + _ld(ctx, C_POINTS + b)
            gb = ga + _belot_gain(belot_cards, rem, b, led)
            best2 = -INF
            b2 = min(beta, best1)
            m2 = x2 if x2 >= 0 else legal_mask(h2, led, w1, ws1 == leader, contract, under, atop)
            while m2 and best2 < b2:
                c = ctz(m2)
                m2 &= m2 - 1
                w2, ws2 = (c, s2) if beats(c, w1, contract) else (w1, ws1)
                pc = pb + _ld(ctx, C_POINTS + c)
                gc = gb + _belot_gain(belot_cards, rem, c, led)
                best3 = INF
                a3 = max(a1, best2)
                m3 = x3 if x3 >= 0 else legal_mask(h3, led, w2, ws2 == s1, contract, under, atop)
                while m3 and best3 > a3:
                    d = ctz(m3)
                    m3 &= m3 - 1
                    wt = s3 if beats(d, w2, contract) else ws2
                    tpts = pc + _ld(ctx, C_POINTS + d)
                    gain = gc + _belot_gain(belot_cards, rem, d, led)
                    nvl = 0
                    if (wt & 1) == team:
                        gain += tpts
                        nvl = valat
                    r = rem & ~((1 << a) | (1 << b) | (1 << c) | (1 << d))
                    if n_rem == 8:
                        v = sign * (gain + _last_trick(ctx, r, wt, nvl))
                    elif n_rem == 12:
                        # np.int64, not literals: a recursive call typed with literal arguments
                        # links in its first process but not when loaded from Numba's cache
                        # (tests/test_cache_reload.py)
                        v = sign * (gain + _endgame(ctx, tt, r, wt, nvl, np.int64(-1), np.int64(INF), rpts - tpts))
                    else:
                        b3 = min(b2, best3)
                        if sign > 0:
                            v = gain + _endgame(ctx, tt, r, wt, nvl, a3 - gain, b3 - gain, rpts - tpts)
                        else:
                            v = -(gain + _endgame(ctx, tt, r, wt, nvl, -b3 - gain, -a3 - gain, rpts - tpts))
                    if v < best3:
                        best3 = v
                if best3 > best2:
                    best2 = best3
            if best2 < best1:
                best1 = best2
        if best1 > best0:
            best0 = best1
            bestcard = a
    return sign * best0, bestcard


_ENDGAME_SIG = "int64(int64, int64, int64, int64, int64, int64, int64, int64)"


@njit(_ENDGAME_SIG, cache=True)
def _endgame(ctx, tt, rem, leader, valat, alpha, beta, rpts):
    """Fail-soft alpha-beta value of a trick-start position with at most ``ENDGAME_MAX`` cards
    left, searched a whole trick at a time (:func:`_trick_loops`): near the end of a deal the
    per-card work of :func:`_node` (ordering, quasi-equivalence, mid-trick table) costs more than
    the nodes it saves (measured).  Same bounds, table and structure table as :func:`_node`, the
    stored best lead first.  With two tricks left (two cards in every hand) the value is exact
    whatever the window (measured: cheaper than windows there) and stored as exact.  ``rpts``: the
    points of ``rem`` (unused with two tricks or fewer left)."""
    n_rem = popcount(rem)
    if n_rem == 4:
        return _last_trick(ctx, rem, leader, valat)
    key = _boundary_key(ctx, rem, leader, valat)
    if n_rem == 8:
        tt_idx, e = _tt_probe(ctx, tt, key)
        if e >= 0:
            return e & 0xFFFF
        v, _card = _trick_loops(ctx, tt, rem, leader, valat, 8, -INF, INF, 0xFF, np.int64(0))
        _tt_put(ctx, tt, tt_idx, key, v, v, 0xFF)
        return v
    _st(ctx, C_NODES, _ld(ctx, C_NODES) + 1)
    belot_cards = _ld(ctx, C_BELOT)
    hi = _in_play(ctx, rem, rpts, valat)
    if hi <= alpha:
        return hi
    tt_idx, e = _tt_probe(ctx, tt, key)
    first, lb, ub, settled, value = _entry_bounds(e, 0, hi, alpha, beta)
    if settled:
        return value
    sidx = -1  # the structure-table slot (-1: not used in this solve)
    stag = 0
    if _ld(ctx, C_SON) == 1:
        sidx, stag, lb, ub = _struct_probe(ctx, rem, leader, valat, lb, ub)
        settled, value = _settles(lb, ub, alpha, beta)
        if settled:
            return value
    if n_rem > 12:  # (measured: not worth computing with three tricks left)
        lb, ub = _start_bounds(ctx, rem, leader, valat, rpts, hi, _ld(ctx, C_CONTRACT), _ld(ctx, C_TEAM),
                               belot_cards, lb, ub)
        settled, value = _settles(lb, ub, alpha, beta)
        if settled:
            return value
    a0 = max(alpha, lb)
    b0 = min(beta, ub)
    best, bestcard = _trick_loops(ctx, tt, rem, leader, valat, n_rem, a0, b0, first, rpts)
    _tt_store(ctx, tt, tt_idx, key, best, a0, b0, lb, ub, bestcard)
    if sidx >= 0:
        _struct_store(ctx, sidx, stag, rem, best, a0, b0, lb, ub)
    return best


_SIG = "int64(int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64)"


# An explicit signature (compiled at import): Numba's cache cannot reload a recursive function
# compiled from an inferred signature (a second process crashed calling it from another kernel).
@njit(_SIG, cache=True)
def _node(ctx, tt, rem, leader, pos, led, win, winner, tcards, tpts, rpts, alpha, beta, valat):
    """Fail-soft alpha-beta: future points of team ``ctx[C_TEAM]`` from this node.

    ``rem``: cards still in the hands; ``leader``: seat that led the trick in progress; ``pos``:
    cards already on the table (0..3); ``led``/``win``/``winner``: led suit, winning card and its
    seat (ignored when ``pos == 0``); ``tcards``/``tpts``: the table's cards and points; ``rpts``:
    points of ``rem``; ``valat``: 1 while the team has won every trick of the deal.
    ``ctx``/``tt``: addresses of the context and table arrays.
    """
    _st(ctx, C_NODES, _ld(ctx, C_NODES) + 1)
    contract = _ld(ctx, C_CONTRACT)
    team = _ld(ctx, C_TEAM)
    belot_cards = _ld(ctx, C_BELOT)
    n_rem = popcount(rem)
    tt_idx = -1
    key = 0
    lb = 0
    ub = INF
    ttmove = -1
    hi = _in_play(ctx, rem, rpts + tpts, valat)
    if pos == 0:
        if n_rem <= ENDGAME_MAX:
            return _endgame(ctx, tt, rem, leader, valat, alpha, beta, rpts)
        if hi <= alpha:
            return hi
        ub = hi
        key = _boundary_key(ctx, rem, leader, valat)
        tt_idx = 0  # a stored position (its slot is found below)
    else:
        if hi <= alpha:
            return hi
        if beta <= 0:
            return 0
        if n_rem >= _ld(ctx, C_MIDTT):
            ub = hi
            key = _midtrick_key(rem, leader, pos, tcards, valat)
            tt_idx = 0  # stored too
    sidx = -1  # the structure-table slot (-1: not used here)
    stag = 0
    if tt_idx >= 0:
        tt_idx, e = _tt_probe(ctx, tt, key)
        ttmove, lb, ub, settled, value = _entry_bounds(e, lb, ub, alpha, beta)
        if settled:
            return value
        if pos == 0 and _ld(ctx, C_SON) == 1:
            sidx, stag, lb, ub = _struct_probe(ctx, rem, leader, valat, lb, ub)
            settled, value = _settles(lb, ub, alpha, beta)
            if settled:
                return value
        if pos == 0:
            lb, ub = _start_bounds(ctx, rem, leader, valat, rpts, hi, contract, team, belot_cards, lb, ub)
            settled, value = _settles(lb, ub, alpha, beta)
            if settled:
                return value
        if lb > alpha:
            alpha = lb
        if ub < beta:
            beta = ub
    a0 = alpha
    b0 = beta
    seat = (leader + pos) & 3
    hand = _ld(ctx, seat) & rem
    under = _ld(ctx, C_UNDER) == 1
    atop = _ld(ctx, C_ATOP) == 1
    if pos == 0:
        moves = hand
    else:
        moves = legal_mask(hand, led, win, ((winner ^ seat) & 1) == 0, contract, under, atop)
    maxnode = (seat & 1) == team
    if n_rem == 9:
        # The last card before two tricks are left (reached only from a root inside one of the
        # last three tricks; from a trick start the trick loops of _endgame play it): every child
        # is exact (stored, or by _endgame), so a plain loop with the cutoff replaces the search
        # (each child counts as a node).
        best = -INF if maxnode else INF
        m = moves
        while m:
            card = ctz(m)
            m &= m - 1
            nwinner = seat if beats(card, win, contract) else winner
            gain = _belot_gain(belot_cards, rem, card, led)
            nvl = 0
            if (nwinner & 1) == team:
                gain += tpts + _ld(ctx, C_POINTS + card)
                nvl = valat
            _st(ctx, C_NODES, _ld(ctx, C_NODES) + 1)
            v = gain + _endgame(ctx, tt, rem ^ (1 << card), nwinner, nvl, np.int64(-1), np.int64(INF),
                                rpts - _ld(ctx, C_POINTS + card))
            if maxnode:
                if v > best:
                    best = v
                    if best >= beta:
                        break
            elif v < best:
                best = v
                if best <= alpha:
                    break
        return best
    # --- order the moves into this depth's scratch row -----------------------------------------
    base = C_MOVES + (32 - n_rem) * 8
    sbase = base + (C_SCORES - C_MOVES)
    n = 0
    if ttmove >= 0 and ttmove < 32 and (moves >> ttmove) & 1:
        _st(ctx, base, ttmove)
        _st(ctx, sbase, 1 << 40)
        n = 1
        moves &= ~(1 << ttmove)
    live = rem | tcards
    greedy = n_rem > GREEDY_MIN
    while moves:
        c = ctz(moves)
        moves &= moves - 1
        p = _ld(ctx, C_POINTS + c)
        st = STRENGTH64[contract, c]
        if pos == 3:
            mine = beats(c, win, contract) or ((winner ^ seat) & 1) == 0
            sc = ((tpts + p) if mine else -(tpts + p)) * 16 - st
        elif greedy:
            if pos == 0:
                gw, gp, _r = _greedy_rest(ctx, rem ^ (1 << c), leader, 1, c >> 3, c, seat, p, contract, under, atop)
            elif beats(c, win, contract):
                gw, gp, _r = _greedy_rest(ctx, rem ^ (1 << c), leader, pos + 1, led, c, seat, tpts + p, contract,
                                      under, atop)
            else:
                gw, gp, _r = _greedy_rest(ctx, rem ^ (1 << c), leader, pos + 1, led, win, winner, tpts + p, contract,
                                      under, atop)
            sc = (gp if ((gw ^ seat) & 1) == 0 else -gp) * 16 - st
        elif pos == 0:
            others = live & ~hand & SUIT[c >> 3]
            if (STRONGER[contract, c] & others) == 0:
                sc = 1000 + p * 8 + st
            else:
                sc = -p * 8 - st
        else:
            mine = beats(c, win, contract) or ((winner ^ seat) & 1) == 0
            sc = (p if mine else -p) * 16 - st
        sc += _ld(ctx, _hist_slot(pos, led, c))
        j = n
        while j > 0 and _ld(ctx, sbase + j - 1) < sc:
            _st(ctx, base + j, _ld(ctx, base + j - 1))
            _st(ctx, sbase + j, _ld(ctx, sbase + j - 1))
            j -= 1
        _st(ctx, base + j, c)
        _st(ctx, sbase + j, sc)
        n += 1
    # --- enhanced transposition cutoff: the last card of a trick leads to stored positions -------
    if pos == 3 and n_rem > 5:
        for i in range(n):
            card = _ld(ctx, base + i)
            nwinner = seat if beats(card, win, contract) else winner
            wteam = nwinner & 1
            nvl = valat if wteam == team else 0
            gain = tpts + _ld(ctx, C_POINTS + card) if wteam == team else 0
            gain += _belot_gain(belot_cards, rem, card, led)
            _cidx, e = _tt_probe(ctx, tt, _boundary_key(ctx, rem ^ (1 << card), nwinner, nvl))
            if e >= 0:
                if maxnode:
                    v = gain + (e & 0xFFFF)
                    if v >= beta:
                        return v
                else:
                    v = gain + ((e >> 16) & 0xFFFF)
                    if v <= alpha:
                        return v
    # --- search the children ----------------------------------------------------------------
    best = -INF if maxnode else INF
    bestcard = 0xFF
    vbase = C_VALS + (32 - n_rem) * 32
    done = 0  # cards searched (or skipped) so far, their values at vbase + card
    searched = False
    others = live & ~hand
    for i in range(n):
        card = _ld(ctx, base + i)
        bit = 1 << card
        p = _ld(ctx, C_POINTS + card)
        # Quasi-equivalence: a card d of the same hand and suit already searched, with no card of
        # another hand (or the table) between them in the contract order, leads to an isomorphic
        # game whose value differs by at most |points(card) - points(d)|.  If that cannot reach the
        # window, skip the card (its bound still enters the fail-soft result).
        if not (belot_cards >> card) & 1:
            skipped = False
            d_m = done & SUIT[card >> 3] & ~belot_cards
            while d_m:
                d = ctz(d_m)
                d_m &= d_m - 1
                if STRENGTH64[contract, d] > STRENGTH64[contract, card]:
                    btw = STRONGER[contract, card] & ~STRONGER[contract, d] & ~(1 << d)
                else:
                    btw = STRONGER[contract, d] & ~STRONGER[contract, card] & ~bit
                if btw & others:
                    continue
                delta = p - _ld(ctx, C_POINTS + d)
                if delta < 0:
                    delta = -delta
                rd = _ld(ctx, vbase + d)
                if maxnode:
                    bound = rd + delta
                    if bound <= alpha:
                        if bound > best:
                            best = bound
                        skipped = True
                        break
                else:
                    bound = rd - delta
                    if bound >= beta:
                        if bound < best:
                            best = bound
                        skipped = True
                        break
            if skipped:
                _st(ctx, vbase + card, bound)
                done |= bit
                continue
        gain, nrem, nleader, npos, nled, nwin, nwinner, ntcards, ntpts, nvl = _child(
            ctx, card, rem, leader, pos, led, win, winner, tcards, tpts, valat, contract, team, belot_cards)
        if nrem == 0:
            v = gain
        else:
            # Principal variation search inside a window: after the first card a null-window
            # scout, and the window only when the scout finds the card improves on the best so far.
            scout = searched and beta - alpha > 1
            lo_w, hi_w = alpha, beta
            if scout:
                lo_w, hi_w = (alpha, alpha + 1) if maxnode else (beta - 1, beta)
            v = gain + _node(ctx, tt, nrem, nleader, npos, nled, nwin, nwinner, ntcards, ntpts, rpts - p,
                             lo_w - gain, hi_w - gain, nvl)
            if scout and alpha < v < beta:
                lo_w, hi_w = (v - 1, beta) if maxnode else (alpha, v + 1)
                v = gain + _node(ctx, tt, nrem, nleader, npos, nled, nwin, nwinner, ntcards, ntpts, rpts - p,
                                 lo_w - gain, hi_w - gain, nvl)
        searched = True
        _st(ctx, vbase + card, v)
        done |= bit
        if maxnode:
            if v > best:
                best = v
                bestcard = card
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                bestcard = card
                if v < beta:
                    beta = v
        if alpha >= beta:
            if i > 0:
                _learn(ctx, base, i, pos, led, n_rem)
            break
    if tt_idx >= 0:
        _tt_store(ctx, tt, tt_idx, key, best, a0, b0, lb, ub, bestcard)
    if sidx >= 0:
        _struct_store(ctx, sidx, stag, rem, best, a0, b0, lb, ub)
    return best


@njit(cache=True)
def _exact(ctx, tt, rem, leader, pos, led, win, winner, tcards, tpts, valat, lo, hi, guess):
    """Exact value of a node known to lie in [lo, hi]: one fail-soft search with the whole interval
    as its window, principal variation search inside (measured: 0.80-0.85 of the time of the
    null-window probes, bisection and final window this replaced, for whole deals; 0.84-0.90 for
    positions inside a deal).  A ``guess`` (>= 0) in the interval is first checked with a window
    of that one value, which returns it at once when it is right (a dd player's value rarely
    changes from one decision to the next)."""
    rpts = _points_of(ctx, rem)
    top = _in_play(ctx, rem, rpts + tpts, valat)
    if hi > top:
        hi = top
    if lo < 0:
        lo = 0
    if lo <= guess <= hi:
        g = _node(ctx, tt, rem, leader, pos, led, win, winner, tcards, tpts, rpts, guess - 1, guess + 1, valat)
        if g == guess:
            return g
        if g > guess:
            lo = g
        else:
            hi = g
    if lo >= hi:
        return lo
    return _node(ctx, tt, rem, leader, pos, led, win, winner, tcards, tpts, rpts, lo - 1, hi + 1, valat)


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
    """Exact double-dummy value for ``team`` (see the module docstring).

    ``hands``: int64[4], the cards still in each seat's hand; ``leader``: seat that leads (or led
    the trick in progress); ``trick``: int64 array whose first ``n_trick`` (0..3) entries are the
    cards already played to the trick in progress, in order from ``leader``; ``contract`` 0..5;
    ``team`` 0/1; ``family`` 0 bulgarian / 1 classic; ``valat``: the team has won every trick so
    far and may still earn the 90 valat points; ``ctx``: int64[CTX_SIZE] scratch; ``tt``:
    int64[2 * 2**k] table (k >= 2; 2**16 slots = 1 MiB measured fastest for whole deals, see
    :data:`belot_sim.solve.TT_BITS`); ``gen``: stamp 1 .. MAX_GEN, different for every (hands,
    contract, team, rules) solved with the same table - entries of other stamps are ignored, so
    the table never needs clearing until the stamps wrap.
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
    return _exact(c_, t_, rem, leader, n_trick, led, win, winner, tcards, tpts, vl, lo, hi, guess)


@njit(cache=True)
def dd_moves(hands, leader, trick, n_trick, contract, team, family, undertrump_required, at_overtake_partner,
             valat, ctx, tt, gen, out):
    """Value for ``team`` after each legal card of the seat to move (best play afterwards).

    Arguments as :func:`dd_value`; ``out`` (int64[32]) receives the value of every legal card and
    -1 for the others.  Returns the mask of legal cards.  All cards share the table, so the later
    ones are cheap.
    """
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
    m = legal
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
                if STRENGTH64[contract, d] > STRENGTH64[contract, card]:
                    btw = STRONGER[contract, card] & ~STRONGER[contract, d] & ~(1 << d)
                else:
                    btw = STRONGER[contract, d] & ~STRONGER[contract, card] & ~bit
                if btw & others:
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
            out[card] = gain + _exact(c_, t_, nrem, nleader, npos, nled, nwin, nwinner, ntcards, ntpts, nvl,
                                      lo - gain, hi - gain, guess - gain)
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
        if need <= 0 or (nrem != 0 and _node(c_, t_, nrem, nleader, npos, nled, nwin, nwinner, ntcards, ntpts,
                                             _points_of(c_, nrem), need - 1, need, nvl) >= need):
            return card, value
    return -1, value
