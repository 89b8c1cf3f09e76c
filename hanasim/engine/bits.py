"""Bit tricks on uint64 card masks, as LLVM intrinsics so they compile to one instruction.

numba promotes ``uint64 op int64`` to float64, so every constant mixed with a mask is a uint64.
"""
from llvmlite import ir
import numpy as np
from numba import types
from numba.core import cgutils
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


@hot
def count(mask):
    """popcount as a signed int (what callers compare and index with)."""
    return np.int64(popcount(mask))


@hot
def lowest(mask):
    """Index of the lowest card in a non-empty mask."""
    return np.int64(ctz(mask))


@intrinsic
def pdep(typingctx, src, mask):
    """BMI2 parallel bit deposit: ``pdep(1 << k, m)`` is the k-th set bit of m."""
    if src != types.uint64 or mask != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


def _fast_pdep() -> bool:
    """pdep is one fast instruction on Intel (Haswell on) and AMD Zen 3 on; Zen 1/2 run it in
    microcode (hundreds of cycles), and other CPUs lack it: they use the broadword select."""
    import platform

    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read(1 << 16)
    except OSError:
        return False
    if " bmi2" not in info:
        return False
    vendor_amd = "AuthenticAMD" in info
    family = 0
    for line in info.splitlines():
        if line.startswith("cpu family"):
            family = int(line.split(":")[1])
            break
    return not (vendor_amd and family < 0x19)


FAST_PDEP = _fast_pdep()
_M32, _M16, _M8 = np.uint64(0xFFFFFFFF), np.uint64(0xFFFF), np.uint64(0xFF)
_M4, _M2, _M1 = np.uint64(0xF), np.uint64(0x3), np.uint64(0x1)


@hot
def nth_card_pdep(mask, k):
    """Index of the k-th (0-based, ascending) card of the mask; k < count(mask)."""
    return np.int64(ctz(pdep(ONE << np.uint64(k), mask)))


@hot
def nth_card_select(mask, k):
    """:func:`nth_card_pdep` without pdep: a branch-free binary search on popcounts (a loop of
    random length mispredicts its exit on every random turn)."""
    k = np.uint64(k)
    pos = np.uint64(0)
    c = popcount(mask & _M32)
    up = k >= c
    pos += np.uint64(32) if up else ZERO
    k -= c if up else ZERO
    c = popcount((mask >> pos) & _M16)
    up = k >= c
    pos += np.uint64(16) if up else ZERO
    k -= c if up else ZERO
    c = popcount((mask >> pos) & _M8)
    up = k >= c
    pos += np.uint64(8) if up else ZERO
    k -= c if up else ZERO
    c = popcount((mask >> pos) & _M4)
    up = k >= c
    pos += np.uint64(4) if up else ZERO
    k -= c if up else ZERO
    c = popcount((mask >> pos) & _M2)
    up = k >= c
    pos += np.uint64(2) if up else ZERO
    k -= c if up else ZERO
    c = popcount((mask >> pos) & _M1)
    pos += ONE if k >= c else ZERO
    return np.int64(pos)


nth_card = nth_card_pdep if FAST_PDEP else nth_card_select


@hot
def bit(card):
    return ONE << np.uint64(card)


# ---- four cards a month: when card c belongs to month c // 4 + 1 (the standard hanafuda deck,
# and any deck ordered that way), a month is one nibble of the mask and month questions become
# a few word operations instead of a loop over months.
_N1 = np.uint64(0x5555555555555555)
_N2 = np.uint64(0x3333333333333333)
_N_LOW = np.uint64(0x1111111111111111)
_S1, _S2, _S3 = np.uint64(1), np.uint64(2), np.uint64(3)


@hot
def nibble_counts(mask):
    """Per-nibble popcounts: nibble m of the result is the number of cards of month m+1."""
    y = mask - ((mask >> _S1) & _N1)
    return (y & _N2) + ((y >> _S2) & _N2)


@hot
def nibbles_equal(counts, k, n_months):
    """How many of the ``n_months`` low nibbles of ``counts`` equal ``k`` (0..15)."""
    z = counts ^ (_N_LOW * np.uint64(k))
    nonzero = (z | (z >> _S1) | (z >> _S2) | (z >> _S3)) & _N_LOW
    return n_months - np.int64(popcount(nonzero & ((ONE << np.uint64(4 * n_months)) - ONE)))


@hot
def has_full_nibble(mask):
    """True if some month has all four of its cards in ``mask`` (the misdeal check)."""
    return (mask & (mask >> _S1) & (mask >> _S2) & (mask >> _S3) & _N_LOW) != ZERO


_NIBBLE = np.uint64(0xF)


@hot
def month_nibble(card):
    """The mask of every card of ``card``'s month, for four cards a month in order."""
    return _NIBBLE << np.uint64(card & ~3)


@hot(inline="always")
def pairs_only(mask):
    """True if every month has an even number of cards in ``mask`` (0, 2 or 4): an 8-card
    hand that splits into four pairs (koi-koi's kuttsuki); the empty mask counts too."""
    return (nibble_counts(mask) & _N_LOW) == ZERO
