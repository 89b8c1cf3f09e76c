"""Toppa's round pieces rewritten without branches on random values, or with a path of their
own for the default, equal the general code they stand in for: the first dealer's one-card
draw (``toppa.first_dealer``), the next dealer (``toppa.next_dealer``), and the hit lanes of
tables of more than two words (``engine.tally.pair_lanes_add``, unsigned positions)."""
import numpy as np
import pytest
from numba import njit

from hanasim.engine.rng import shuffle_steps, stream_state
from hanasim.engine.tally import LANE_ROUNDS, lanes_size, pair_lanes_add, pair_lanes_fold, tally_hits
from hanasim.games import toppa as T


@njit
def _general_first_dealer(rng, order, t_month, n_cards):
    # the general loop of toppa.first_dealer, as it was before the one-card path
    s = rng[0]
    while True:
        s = shuffle_steps(order, s, order.shape[0], 0, 2 * n_cards)
        a = 0
        b = 0
        for i in range(n_cards):
            ma = t_month[order[2 * i]]
            mb = t_month[order[2 * i + 1]]
            a += ma if ma <= 9 else 0
            b += mb if mb <= 9 else 0
        if a != b:
            rng[0] = s
            return 0 if a > b else 1


@njit
def _fast_first_dealer(rng, order, t_month, n_cards):
    return T.first_dealer(rng, order, t_month, n_cards)


@pytest.mark.parametrize("n_cards", [1, 2, 3])
def test_first_dealer_equals_general_loop(n_cards):
    tb, _ = T.lower(T.ToppaRules())
    dealers = set()
    ties = 0
    for k in range(3000):
        key = stream_state(np.uint64(11), np.uint64(k))
        ra = np.array([key])
        rb = np.array([key])
        oa = np.arange(48).astype(np.int8)
        ob = oa.copy()
        if k % 3 == 1:  # not only from the deck in order
            np.random.default_rng(k).shuffle(oa)
            ob[:] = oa
        da = _fast_first_dealer(ra, oa, tb.month, n_cards)
        db = _general_first_dealer(rb, ob, tb.month, n_cards)
        assert da == db and ra[0] == rb[0] and (oa == ob).all(), k
        dealers.add(da)
        # a tie draws again: the generator moved on by more than one draw's words
        probe = np.array([key])
        _general_first_dealer(probe, np.arange(48).astype(np.int8), tb.month, n_cards)
        ties += int(probe[0]) != (int(key) + 0x9E3779B97F4A7C15 * n_cards) % 2**64
    assert dealers == {0, 1}
    assert ties > 50  # the redraw was exercised


@njit
def _next_dealer(tb, res, dealer):
    work = (np.zeros(1, np.uint64), np.zeros(48, np.int8), np.zeros(3, np.uint64),
            np.zeros(T.ST_N, np.uint64), res, np.zeros(1, np.uint64))
    return T.next_dealer(tb, work, dealer)


def test_next_dealer_every_case():
    for tie in ("keep", "pass"):
        for fixed in (False, True):
            tb, _ = T.lower(T.ToppaRules(tie_dealer=tie), fixed_dealer=fixed)
            for d in (-35, -1, 0, 1, 40):
                for dealer in (0, 1):
                    res = np.zeros(T.R_N, np.int64)
                    res[T.R_SCORE] = d
                    # seed 000, "Choosing the Dealer": the winner deals; a tie keeps or passes
                    passes = not fixed and (d < 0 or (d == 0 and tie == "pass"))
                    want = 1 - dealer if passes else dealer
                    assert _next_dealer(tb, res, dealer) == want, (tie, fixed, d, dealer)


@pytest.mark.parametrize("n_rows,rounds", [(16, 300), (23, 500), (40, 260)])
def test_lanes_past_two_words_equal_tally_hits(n_rows, rounds):
    rng = np.random.default_rng(n_rows)
    base = 2 * ((5 + 8) >> 3)
    lanes = np.zeros(lanes_size(5, n_rows), dtype=np.uint64)
    want = np.zeros((n_rows + 1, 2), dtype=np.int64)
    got = np.zeros((n_rows + 1, 2), dtype=np.int64)
    full = (1 << n_rows) - 1
    for r in range(rounds):
        h0, h1 = (int(x) & full for x in rng.integers(0, 1 << n_rows, 2))
        if r % 7 == 0:
            h1 = 0
        if r % 53 == 0:
            h0 = h1 = full
        tally_hits(want, h0, h1, 0, n_rows)
        pair_lanes_add(lanes, base, h0, h1, n_rows)
        if (r + 1) % LANE_ROUNDS == 0:
            pair_lanes_fold(lanes, base, got, n_rows)
    pair_lanes_fold(lanes, base, got, n_rows)
    assert (got == want).all()
    assert want[n_rows - 1, 0] > 0  # the last word's rows were counted
