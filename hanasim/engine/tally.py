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
    acc[base + i] += 1


@hot(inline="always")
def tally_total(scal, c_games, c_total, x):
    """A whole game into ``scal``: one more game (slot ``c_games``), its total ``x`` (of the
    first dealer, say) and the square (slots ``c_total``, ``c_total + 1``)."""
    scal[c_games] += 1
    scal[c_total] += x
    scal[c_total + 1] += x * x
