"""The deals-only fast path shared by every game: shuffle just the dealt cards, check for a
misdeal, and count the teyaku the hands hold; no play.  A "round" is a deal that is played
(not a misdeal).  Each stream of ``DEALS_PER_SESSION`` rounds starts from the unshuffled deck,
so counts depend only on the seed and the number of rounds."""
import numpy as np
from numba import njit

from .bits import (_N_LOW, _S1, _S2, _S3, ZERO, bit, count, has_full_nibble, nibble_counts,
                   nibbles_equal)
from .deal import deal
from .jit import hot
from .rng import _LOW32, _S32, GOLDEN, deal_shuffle, mix64, stream_state
from .where import where_ok
from .tally import tally_hits
from .yaku import T_A, T_B, T_PER_EXTRA, T_TYPE, T_VALUE, TEY_MONTHS

DEALS_PER_SESSION = 64
#: the teyaku hits of every hand of a round as one key (each hand's row bits side by side)
#: are counted in a histogram when the key has at most this many bits: one increment a round,
#: no branch, instead of a loop over the rows held (a branch on a teyaku held is a coin toss)
HIST_BITS = 12


@njit(cache=True, nogil=True)
def run_deal_chunks(seed, first_session, n_sessions, chunk, total_rounds, month_masks, kind_masks,
                    tey, pattern, combine, n_hands, n_checked, slots, scal, tcount, cond):
    """``pattern`` deals groups 0..n_hands-1 (hands) then the field; the first ``n_checked``
    groups are checked for four of a month (the Toppa rule page: either hand or the field).
    ``slots`` holds the counter indices of (deals, misdeals, rounds) in ``scal``.  ``cond``:
    the run's conditioned deal (``engine.rng``, "conditional deals"; empty: none).
    ``combine`` is not read: only which teyaku a hand holds is counted, not their value."""
    n_groups = 0
    for i in range(pattern.shape[0]):
        n_groups = max(n_groups, pattern[i] + 1)
    rows = np.zeros(5 * tey.shape[0], dtype=np.int64)
    nm, nk = teyaku_rows(tey, rows)
    kd_any = ZERO  # the chaff counts of the kind rows: most hands match none, and skip them
    for k in range(nk):
        kd_any |= bit(rows[5 * nm + 2 * k + 1] >> 24)
    n_rows = tey.shape[0]
    hist_bits = n_hands * n_rows
    hist = np.zeros(1 << hist_bits if hist_bits <= HIST_BITS else 1, dtype=np.int64)
    order = np.arange(48).astype(np.int8)
    groups = np.zeros(max(n_groups, 4), dtype=np.uint64)
    rng = np.zeros(1, dtype=np.uint64)
    for ch in range(scal.shape[0]):
        for i in range(hist.shape[0]):
            hist[i] = 0
        s0 = first_session + ch * chunk
        s1 = min(s0 + chunk, first_session + n_sessions)
        for s in range(s0, s1):
            for i in range(48):
                order[i] = i
            n_rounds = min(DEALS_PER_SESSION, total_rounds - s * DEALS_PER_SESSION)
            misdeals = _deal_only_session(stream_state(seed, s), order, groups, rng, n_groups,
                                          month_masks, kind_masks, rows, nm, nk, kd_any, pattern,
                                          n_hands, n_checked, n_rounds, hist, n_rows, tcount[ch],
                                          cond)
            scal[ch, slots[0]] += n_rounds + misdeals
            scal[ch, slots[1]] += misdeals
            scal[ch, slots[2]] += n_rounds
        if hist.shape[0] > 1:
            fold_hist(hist, n_hands, n_rows, tcount[ch])


@hot
def teyaku_rows(tey, rows):
    """The rows of the teyaku table ``tey`` (``engine.yaku``) that a hand can hold, for
    :func:`hand_hits`, into ``rows`` (``5 * len(tey)`` ints): first the months rows,
    ``(row, a, b, value, per_extra)`` each, then the kind rows, ``(row, key)`` each, the four
    counts packed a byte each (:func:`kind_key`).  Returns how many of each.  A row worth
    nothing (its value not above 0) is never held; a kind row asking a count outside 0..48
    matches no hand."""
    nm = 0
    for i in range(tey.shape[0]):
        if tey[i, T_TYPE] == TEY_MONTHS:
            rows[5 * nm] = i
            rows[5 * nm + 1] = tey[i, T_A]
            rows[5 * nm + 2] = tey[i, T_B]
            rows[5 * nm + 3] = tey[i, T_VALUE]
            rows[5 * nm + 4] = tey[i, T_PER_EXTRA]
            nm += 1
    nk = 0
    for i in range(tey.shape[0]):
        if tey[i, T_TYPE] != TEY_MONTHS and tey[i, T_VALUE] > 0:
            key = 0
            for c in range(4):
                n = tey[i, T_A + c]
                key = key | (n << (8 * c)) if 0 <= n <= 48 else -1
            if key >= 0:
                rows[5 * nm + 2 * nk] = i
                rows[5 * nm + 2 * nk + 1] = key
                nk += 1
    return nm, nk


@hot(inline="always")
def kind_key(hand, kind_masks):
    """The hand's counts of the four kinds (brights, animals, ribbons, chaff), a byte each."""
    return (count(hand & kind_masks[0]) | (count(hand & kind_masks[1]) << 8)
            | (count(hand & kind_masks[2]) << 16) | (count(hand & kind_masks[3]) << 24))


@hot(inline="always")
def hand_hits(hand, n_months, kind_masks, rows, nm, nk, kd_any):
    """The rows of the teyaku table a hand holds, as ``yaku.teyaku_by_nibbles`` gives them
    (its second value), from the ``nm`` months rows and ``nk`` kind rows of
    :func:`teyaku_rows`.  The kind rows are looked at only when the hand's chaff count is one
    of theirs (Toppa: a hand of nine or ten chaff, about one in two hundred), a branch that
    predicts well."""
    hits = 0
    counts = nibble_counts(hand)
    for m in range(nm):
        n = nibbles_equal(counts, rows[5 * m + 1], n_months)
        b = rows[5 * m + 2]
        held = (n >= b) & (rows[5 * m + 3] + rows[5 * m + 4] * (n - b) > 0)
        hits |= (1 << rows[5 * m]) if held else 0
    if (kd_any >> np.uint64(count(hand & kind_masks[3]))) & np.uint64(1):
        key = kind_key(hand, kind_masks)
        k0 = 5 * nm
        for k in range(nk):
            hits |= (1 << rows[k0 + 2 * k]) if key == rows[k0 + 2 * k + 1] else 0
    return hits


@hot(inline="always")
def sample_groups(s, order, pattern):
    """Deal ``len(pattern)`` random cards from generator state ``s``: the Fisher-Yates steps
    of ``rng.shuffle_steps`` over the dealt positions (the same draws, the same ``order``
    after), each card or-ed into its group as soon as its position is drawn.  Returns the new
    state and up to four group masks (0 for a group the pattern does not deal), in registers:
    10 ns a deal faster than through an array (interleaved timings)."""
    n = order.shape[0]
    g0 = ZERO
    g1 = ZERO
    g2 = ZERO
    g3 = ZERO
    acc = ZERO
    g = pattern[0]
    r = ZERO
    for i in range(pattern.shape[0]):
        # two 32-bit draws per 64-bit output, as in rng.shuffle_steps
        if (i & 1) == 0:
            s += GOLDEN
            r = mix64(s)
            x = r & _LOW32
        else:
            x = r >> _S32
        j = i + np.int64((x * np.uint64(n - i)) >> _S32)
        t = order[j]
        order[j] = order[i]
        order[i] = t
        p = pattern[i]
        if p != g:  # a run of cards to one group ends: the same places every deal, predictable
            g0 |= acc if g == 0 else ZERO
            g1 |= acc if g == 1 else ZERO
            g2 |= acc if g == 2 else ZERO
            g3 |= acc if g == 3 else ZERO
            acc = ZERO
            g = p
        acc |= bit(t)
    g0 |= acc if g == 0 else ZERO
    g1 |= acc if g == 1 else ZERO
    g2 |= acc if g == 2 else ZERO
    g3 |= acc if g == 3 else ZERO
    return s, g0, g1, g2, g3


@hot
def _full(mask):
    """Nonzero where ``mask`` holds all four cards of a month (``bits.has_full_nibble``)."""
    return mask & (mask >> _S1) & (mask >> _S2) & (mask >> _S3) & _N_LOW


@hot
def _deal_only_session(s, order, groups, rng, n_groups, month_masks, kind_masks, rows, nm, nk,
                       kd_any, pattern, n_hands, n_checked, n_rounds, hist, n_rows, tcount, cond):
    """``n_rounds`` rounds from generator state ``s`` and the deck ``order``; returns the
    number of misdeals.  Counts the teyaku into ``hist`` (when it has room for the keys:
    :func:`fold_hist`) or straight into ``tcount``.  Without a conditioned deal and with at
    most four groups, the deal's groups stay in registers (:func:`sample_groups`); else the
    deal goes through ``groups`` and ``rng`` (scratch arrays)."""
    if cond is None:  # a run without given cards or --where: pruned when compiled
        plain = n_groups <= 4
    else:
        plain = cond.shape[0] == 0 and n_groups <= 4
    n_months = month_masks.shape[0] - 1
    use_hist = hist.shape[0] > 1
    misdeals = 0
    for _ in range(n_rounds):
        while True:
            if plain:
                s, g0, g1, g2, g3 = sample_groups(s, order, pattern)
                four = _full(g0) if n_checked > 0 else ZERO
                four |= _full(g1) if n_checked > 1 else ZERO
                four |= _full(g2) if n_checked > 2 else ZERO
                four |= _full(g3) if n_checked > 3 else ZERO
                if four == ZERO:
                    break
            else:
                rng[0] = s
                deal_shuffle(rng, order, order.shape[0], 0, pattern.shape[0], cond)
                s = rng[0]
                deal(order, pattern, groups)
                g0 = groups[0]
                g1 = groups[1]
                g2 = groups[2]
                g3 = groups[3]
                mis = False
                for g in range(n_checked):
                    mis = mis or has_full_nibble(groups[g])
                # a deal failing --where is dealt again, counted nowhere
                if not mis:
                    if where_ok(order, cond):
                        break
                    continue
            misdeals += 1
        h0 = hand_hits(g0, n_months, kind_masks, rows, nm, nk, kd_any)
        h1 = hand_hits(g1, n_months, kind_masks, rows, nm, nk, kd_any) if n_hands > 1 else 0
        h2 = hand_hits(g2, n_months, kind_masks, rows, nm, nk, kd_any) if n_hands > 2 else 0
        if use_hist:
            hist[h0 | (h1 << n_rows) | (h2 << (2 * n_rows))] += 1
        else:
            tally_hits(tcount, h0, h1, h2, n_rows)
    return misdeals


@hot
def fold_hist(hist, n_hands, n_rows, tcount):
    """Add the histogram of the rounds' hit keys (``hist[h0 | h1 << n_rows | ...]``) into
    ``tcount`` as ``tally.tally_hits`` would have, round by round: the same integers."""
    width = (1 << n_rows) - 1
    for key in range(hist.shape[0]):
        c = hist[key]
        if c == 0:
            continue
        h0 = key & width
        h1 = (key >> n_rows) & width if n_hands > 1 else 0
        h2 = (key >> (2 * n_rows)) & width if n_hands > 2 else 0
        for row in range(n_rows):
            x = ((h0 >> row) & 1) + ((h1 >> row) & 1) + ((h2 >> row) & 1)
            tcount[row, 0] += c * x
            tcount[row, 1] += c * x * x
        x = np.int64(h0 != 0) + np.int64(h1 != 0) + np.int64(h2 != 0)
        tcount[n_rows, 0] += c * x
        tcount[n_rows, 1] += c * x * x
