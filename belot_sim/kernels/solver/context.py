"""The solver's per-solve context: the ``ctx`` array (:data:`belot_sim.kernels.core.layouts.SOLVER_CTX`)
filled by :func:`make_ctx`, raw loads and stores into it, and small helpers every part of the search
reads it with.

The recursive search reads ``ctx`` and the table through raw addresses (``_ld``/``_st``): passing
array objects through every recursive call would cost two atomic reference-count updates per node.
Their sizes are checked once per solve, at the entry points (:mod:`.api`).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ...game.rules import PLAIN_STRENGTH_BY_RANK, TRUMP_STRENGTH_BY_RANK
from ..core.bits import ctz, popcount
from ..core.layouts import (C_AT_OVERTAKE_PARTNER, C_BELOT, C_CANONICAL, C_CONTRACT, C_TT_STAMP, C_HANDS, C_HISTORY,
                            C_KEEP_HISTORY, C_LAST, C_TT_MID_CARDS, C_NODES, C_OWNER_SEQUENCE, C_POINTS,
                            C_POINT_SEQUENCE, C_STRUCT_STAMP, C_STRUCT_ON, C_STRUCT_TABLE, C_TEAM, C_TEAM_CARDS,
                            C_TT_MASK, C_UNDERTRUMP_REQUIRED, C_VALUES, C_ZERO_CARDS, C_ZERO_RANKS, STRUCT_BITS)
from ..core.tables import AT, BELOT, LAST_TRICK, POINTS, RANK_Q, STRENGTH64, TRICK_MULT, TRUMPS

#: Larger than any value (the search's infinity).
INF = 1 << 20
#: Positions inside a trick are stored too when this many cards or more are left (the first trick
#: of a full deal), and always in the trick of the solve's root.
MIDTT_MIN = 28


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


@intrinsic
def _call(typingctx, fn, *args):
    """Call the C function ``int64 f(int64, ...)`` at address ``fn`` with ``args`` (integers).

    The solver's callers reach the search through its address (``ctx[C_SEARCH_FN]``, see
    :mod:`.api`) instead of a direct call: Numba links every callee into each caller and optimises
    it again there, and the search is the biggest callee of every kernel that plays dd or pimc
    (measured: most of a cold compile of the solver path went into compiling it once per caller).
    """
    if not isinstance(fn, types.Integer) or not all(isinstance(a, types.Integer) for a in args):
        return None
    signature = types.int64(types.int64, types.StarArgTuple.from_types([types.int64] * len(args)))

    def codegen(context, builder, sig, llargs):
        i64 = ir.IntType(64)
        target = builder.inttoptr(llargs[0], ir.FunctionType(i64, [i64] * len(args)).as_pointer())
        return builder.call(target, [builder.extract_value(llargs[1], k) for k in range(len(args))])

    return signature, codegen


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


TOP_RUN = _top_run_table()
WEAKEST_RANK, STRONGEST_RANK = _extreme_rank_tables()
for _table in (TOP_RUN, WEAKEST_RANK, STRONGEST_RANK):
    _table.flags.writeable = False


#: The structure table's stamp has this many bits (it shares a tag word with 51 bits of hash).
STAMP_BITS = 13


@njit(cache=True)
def make_ctx(ctx, hands, contract, team, family, undertrump_required, at_overtake_partner, gen, tt_mask):
    """Fill ``ctx`` for a solve.  ``hands``: the four seats' remaining cards (int64[4]);
    ``family``: 0 bulgarian, 1 classic; ``gen``: generation stamp (1 .. MAX_GEN) of this solve's
    table entries; ``tt_mask``: number of table buckets - 1 (a power of two minus one)."""
    for s in range(4):
        ctx[C_HANDS + s] = hands[s]
    ctx[C_CONTRACT] = contract
    ctx[C_TEAM] = team
    ctx[C_UNDERTRUMP_REQUIRED] = 1 if undertrump_required else 0
    ctx[C_AT_OVERTAKE_PARTNER] = 1 if at_overtake_partner else 0
    mult = TRICK_MULT[family, contract]
    ctx[C_LAST] = LAST_TRICK * mult
    belot = 0
    if contract == AT:
        for s in range(4):
            if (s & 1) == team:
                for suit in range(4):
                    pair = np.int64(3) << (8 * suit + RANK_Q)  # the Q and the K above it
                    if hands[s] & pair == pair:
                        belot |= pair
    ctx[C_BELOT] = belot
    ctx[C_TEAM_CARDS] = hands[team] | hands[team + 2]
    if ctx[C_TT_STAMP] != gen or ctx[C_STRUCT_STAMP] == 0:
        # a new problem: a new structure-table stamp (the table is cleared when the stamp wraps,
        # so an old entry can never pass for this solve's)
        stamp = (ctx[C_STRUCT_STAMP] + 1) & ((1 << STAMP_BITS) - 1)
        if stamp == 0:
            ctx[C_STRUCT_TABLE:C_STRUCT_TABLE + (2 << STRUCT_BITS)] = 0
            stamp = 1
        ctx[C_STRUCT_STAMP] = stamp
        # and no history bonuses: a solve with the same stamp (the next decision of a dd
        # player's deal) keeps what the previous ones learnt (measured: 0.97 of the time), and so
        # does one whose caller asks (the layouts of one pimc decision are alike)
        if ctx[C_KEEP_HISTORY] == 0:
            ctx[C_HISTORY:C_VALUES] = 0
    ctx[C_TT_STAMP] = gen
    ctx[C_TT_MASK] = tt_mask
    ctx[C_NODES] = 0
    zeros = 0
    for c in range(32):
        ctx[C_POINTS + c] = POINTS[family, contract, c] * mult
        if POINTS[family, contract, c] == 0:
            zeros |= 1 << c
    ctx[C_ZERO_CARDS] = zeros
    n_cards = popcount(hands[0] | hands[1] | hands[2] | hands[3])
    # The structure table pays from four tricks left (measured).
    ctx[C_STRUCT_ON] = 1 if n_cards > 12 else 0
    # Inside a trick only the first trick's positions pay for their table slots (measured), and
    # those of the root's own trick: every search of the root's value passes through them.
    ctx[C_TT_MID_CARDS] = min(MIDTT_MIN, n_cards - 3)
    # Canonical zero-point cards are not worth their ~0.2 us below three tricks.
    big = n_cards >= 12
    if big:
        _owner_sequences(ctx, hands, contract)
    _canonical_zero_cards(ctx, family, contract, big)


@njit(cache=True)
def _owner_sequences(ctx, hands, contract):
    """The owner sequence of every suit pattern (for :func:`.table._canon` and the structure table)
    and the points of its cards (for :func:`.table._point_gap`), each from the pattern without its
    strongest card; -1 when a card of it is not in the hands."""
    for suit in range(4):
        t = (TRUMPS[contract] >> (8 * suit)) & 1
        base = C_OWNER_SEQUENCE + suit * 256
        pbase = C_POINT_SEQUENCE + suit * 256
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


@njit(cache=True)
def _canonical_zero_cards(ctx, family, contract, big):
    """Zero-point cards of a suit are its weakest ranks (0..g-1 in every table): which of them are
    still live does not matter, only the seats holding them in order.  ``ctx[C_CANONICAL + 8 * suit +
    live]`` is the smallest subset with the same owner sequence, so transposed positions share one
    table entry (:func:`.table._canon`); none unless ``big``."""
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
        ctx[C_ZERO_RANKS + suit] = zm
        base = C_CANONICAL + 8 * suit
        ctx[base] = 0
        if zm == 0:
            continue
        seqs = C_OWNER_SEQUENCE + suit * 256  # zero-point ranks are the weakest: owners in rank order
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
def _points_of(ctx, mask):
    total = 0
    while mask:
        total += _ld(ctx, C_POINTS + ctz(mask))
        mask &= mask - 1
    return total


@njit(cache=True, inline="always")
def _belot_gain(belot_cards, rem, card, led):
    """20 when ``card``, played to a trick of suit ``led``, is the first card played of an open AT
    belot of the team (its partner card, in the same hand, still in ``rem``), else 0."""
    # card ^ 3 is the other card of the pair: ranks Q (5) and K (6) differ in their two low bits
    if (belot_cards >> card) & 1 and (rem >> (card ^ 3)) & 1 and (card >> 3) == led:
        return BELOT
    return 0
