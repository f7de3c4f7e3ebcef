"""Bit helpers for the kernels: popcount and count-trailing-zeros as single CPU instructions.

Numba has no popcount builtin, so these are LLVM intrinsics (``llvm.ctpop``/``llvm.cttz``)
exposed with :func:`numba.extending.intrinsic`.  They accept any integer type; masks are
kept as ``int64`` (values < 2**32) inside the kernels, which avoids Numba's float
promotion when unsigned and signed integers mix.
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [args[0].type])
        return builder.call(fn, [args[0]])

    return x(x), codegen


@intrinsic
def _cttz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        int_type = args[0].type
        fnty = ir.FunctionType(int_type, [int_type, ir.IntType(1)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.cttz.i{int_type.width}")
        # is_zero_poison=False: cttz(0) is the bit width, a defined value.
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

    return x(x), codegen


@njit(cache=True, inline="always")
def popcount(mask):
    """Number of set bits of an integer mask."""
    return _ctpop(mask)


@njit(cache=True, inline="always")
def ctz(mask):
    """Index of the lowest set bit (the bit width for 0)."""
    return _cttz(mask)


@njit(cache=True, inline="always")
def nth_card(mask, n):
    """Index of the ``n``-th (0-based, from the lowest) set bit of a 32-bit ``mask``.

    A binary search on popcounts of halves: no data-dependent loop, so random choices do
    not cost a branch misprediction per skipped card.
    """
    pos = 0
    count = _ctpop(mask & 0xFFFF)
    if n >= count:
        n -= count
        pos += 16
    count = _ctpop((mask >> pos) & 0xFF)
    if n >= count:
        n -= count
        pos += 8
    count = _ctpop((mask >> pos) & 0xF)
    if n >= count:
        n -= count
        pos += 4
    count = _ctpop((mask >> pos) & 0x3)
    if n >= count:
        n -= count
        pos += 2
    count = (mask >> pos) & 1
    if n >= count:
        pos += 1
    return pos
