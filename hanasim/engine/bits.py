"""Bit tricks on uint64 card masks, as LLVM intrinsics so they compile to one instruction.

numba promotes ``uint64 op int64`` to float64, so every constant mixed with a mask is a uint64.
"""
from llvmlite import ir
import numpy as np
from numba import njit, types
from .jit import hot
from numba.extending import intrinsic


ONE = np.uint64(1)
ZERO = np.uint64(0)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64."""
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def ctz(typingctx, x):
    """Index of the lowest set bit of a non-zero uint64."""
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@hot(inline="always")
def count(mask):
    """popcount as a signed int (what callers compare and index with)."""
    return np.int64(popcount(mask))


@hot(inline="always")
def lowest(mask):
    """Index of the lowest card in a non-empty mask."""
    return np.int64(ctz(mask))


@hot(inline="always")
def nth_card(mask, k):
    """Index of the k-th (0-based, ascending) card of the mask; k < count(mask)."""
    for _ in range(k):
        mask &= mask - ONE
    return np.int64(ctz(mask))


@hot(inline="always")
def bit(card):
    return ONE << np.uint64(card)
