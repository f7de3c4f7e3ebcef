"""Bit helpers for the kernels: popcount and count-trailing-zeros as single CPU instructions.

Numba has no popcount builtin, so these are LLVM intrinsics (``llvm.ctpop``/``llvm.cttz``)
exposed with :func:`numba.extending.intrinsic`.  They accept any integer type; masks are
kept as ``int64`` (values < 2**32) inside the kernels, which avoids Numba's float
promotion when unsigned and signed integers mix.
"""

from __future__ import annotations

import numpy as np
from llvmlite import binding, ir
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


def _host_has_bmi2() -> bool:
    try:
        return bool(binding.get_host_cpu_features().get("bmi2", False))
    except Exception:  # unknown host: use the portable path
        return False


#: PDEP (BMI2) selects the n-th set bit in one instruction; Numba's cache is per host CPU.
HAS_PDEP = _host_has_bmi2()


@intrinsic
def _pdep64(typingctx, value, mask):
    if not (isinstance(value, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64, i64])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
        return builder.call(fn, [context.cast(builder, args[0], value, types.int64),
                                 context.cast(builder, args[1], mask, types.int64)])

    return types.int64(value, mask), codegen


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

    With BMI2: ``cttz(pdep(1 << n, mask))``.  Otherwise a binary search on popcounts of
    halves: no data-dependent loop, so a random choice costs no branch misprediction.
    """
    if HAS_PDEP:
        return _cttz(_pdep64(np.int64(1) << n, mask))
    return _nth_card_portable(mask, n)


@njit(cache=True, inline="always")
def _nth_card_portable(mask, n):
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
