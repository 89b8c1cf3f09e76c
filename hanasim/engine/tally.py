"""Counting per-hand or per-player hits of one round into integer counters."""
import numpy as np

from .bits import lowest
from .jit import hot


@hot
def tally_hits(acc, h0, h1, h2, n_rows):
    """Add one round's hits of up to three seats (int64 bitmasks over table rows; 0 for an
    absent seat) to ``acc[row] = (sum, sum of squares)``; row ``n_rows`` is 'any row'.  The
    squares of the per-round counts give the design effect of pooling the seats of a deal."""
    h0 = np.int64(h0)
    h1 = np.int64(h1)
    h2 = np.int64(h2)
    if (h0 | h1 | h2) == 0:
        return
    m = np.uint64(h0 | h1 | h2)
    while m:
        row = lowest(m)
        m &= m - np.uint64(1)
        x = ((h0 >> row) & 1) + ((h1 >> row) & 1) + ((h2 >> row) & 1)
        acc[row, 0] += x
        acc[row, 1] += x * x
    x = np.int64(h0 != 0) + np.int64(h1 != 0) + np.int64(h2 != 0)
    acc[n_rows, 0] += x
    acc[n_rows, 1] += x * x


# Histograms of whole-number scores (in a game's score unit), kept in a game's scalar counter
# array: bin i counts x == HIST_LO + i; the first and last bins also count everything below and
# above (quantiles that land there are reported as unknown).
HIST_BINS = 4096
HIST_LO = -2048


@hot(inline="always")
def hist_add(acc, base, x):
    """Count ``x`` in the histogram at ``acc[base : base + HIST_BINS]``."""
    i = x - HIST_LO
    if i < 0:
        i = 0
    elif i >= HIST_BINS:
        i = HIST_BINS - 1
    acc[np.uint64(base + i)] += 1  # (unsigned: no check for a negative index)


@hot(inline="always")
def tally_total(scal, c_games, c_total, x):
    """A whole game into ``scal``: one more game (slot ``c_games``), its total ``x`` (of the
    first dealer, say) and the square (slots ``c_total``, ``c_total + 1``)."""
    scal[c_games] += 1
    scal[c_total] += x
    scal[c_total + 1] += x * x


# ---------------------------------------------------------------- hits counted in lanes
# ``tally_hits`` walks a round's hit bits, a loop whose length and branches are random: about
# 20 ns of a random Toppa round for its two calls (stage timings).  Two seats' hits can instead
# be added to byte lanes of a few uint64 words, one lane per row (and one for 'any row'), and
# the lanes folded into the counters every ``LANE_ROUNDS`` rounds and at the end of a chunk:
# the same integers, with no branch on the hits.  For two seats, per row, x = b0 + b1 and
# x * x = b0 + b1 + 2 b0 b1, so the lanes of (b0 + b1) and of (b0 & b1) give both sums.
LANE_ROUNDS = 127  # a lane gains at most 2 a round: 127 rounds fit in its 8 bits
_LANE_ONES = np.uint64(0x0101010101010101)
# SPREAD[b]: the 8 bits of b, bit i at bit 8 i (a byte to eight byte lanes)
SPREAD = np.array([sum(((b >> i) & 1) << (8 * i) for i in range(8)) for b in range(256)],
                  dtype=np.uint64)


@hot
def lanes_size(n_a, n_b):
    """The length of a lanes array for two tables of ``n_a`` and ``n_b`` rows: each table's
    ``2 * ((rows + 8) >> 3)`` words (sums, then both-seat counts; the first table's from 0,
    the second's right after), and the rounds counted since the last fold, last."""
    return 2 * ((n_a + 8) >> 3) + 2 * ((n_b + 8) >> 3) + 1


@hot(inline="always")
def pair_lanes_add(lanes, base, h0, h1, n_rows):
    """Add one round's hits of two seats (int64 bitmasks over ``n_rows`` rows) to the lanes at
    ``lanes[base:]``: ``lane_words`` words of b0 + b1, then as many of b0 & b1."""
    u0 = np.uint64(h0) | (np.uint64(1) << np.uint64(n_rows) if h0 != 0 else np.uint64(0))
    u1 = np.uint64(h1) | (np.uint64(1) << np.uint64(n_rows) if h1 != 0 else np.uint64(0))
    both = u0 & u1
    words = np.uint64((n_rows + 8) >> 3)
    b = np.uint64(base)  # unsigned positions: no check for a negative index
    for w in range(words):
        sh = np.uint64(8) * w
        lanes[b + w] += (SPREAD[(u0 >> sh) & np.uint64(0xFF)]
                         + SPREAD[(u1 >> sh) & np.uint64(0xFF)])
        lanes[b + words + w] += SPREAD[(both >> sh) & np.uint64(0xFF)]


@hot
def pair_lanes_fold(lanes, base, acc, n_rows):
    """Fold the lanes at ``lanes[base:]`` into ``acc[row] = (sum, sum of squares)`` as
    :func:`tally_hits` would have counted them round by round (row ``n_rows``: any row), and
    empty them."""
    words = (n_rows + 8) >> 3
    for row in range(n_rows + 1):
        w = row >> 3
        sh = np.uint64(8 * (row & 7))
        s1 = np.int64((lanes[base + w] >> sh) & np.uint64(0xFF))
        s2 = np.int64((lanes[base + words + w] >> sh) & np.uint64(0xFF))
        acc[row, 0] += s1
        acc[row, 1] += s1 + 2 * s2
    for w in range(2 * words):
        lanes[base + w] = 0
