"""Toppa's fast paths equal the general code they stand in for: the capture by unpredictable
selects (``play.capture_picked``), the two random players' turn loop
(``play.random_pair_turns`` through ``play.play_pair``) and the expose step's shown cards
(``toppa.teyaku_shown``, ``toppa.expose_pair``)."""
import numpy as np
import pytest
from numba import njit

from hanasim.engine import play, state
from hanasim.engine.bits import ONE
from hanasim.engine.teyaku import expose_step
from hanasim.engine.yaku import teyaku_by_nibbles, teyaku_cards
from hanasim.games import toppa as T
from hanasim.policies import EXPOSE_ALWAYS, EXPOSE_NEVER, EXPOSE_RANDOM, GREEDY, RANDOM

ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


def test_capture_picked_equals_capture_every_case():
    rng = np.random.default_rng(5)
    n = 0
    for card in range(48):
        month = [c for c in range(card & ~3, (card & ~3) + 4) if c != card]
        for sub in range(8):  # every subset of the month's other cards on the field
            on = sum(1 << month[i] for i in range(3) if sub >> i & 1)
            for _ in range(4):  # other months' cards on the field
                rest = int(rng.integers(0, 1 << 48)) & ~(0xF << (card & ~3)) & ((1 << 48) - 1)
                field = np.uint64(on | rest)
                for high in (np.uint64(0), ALL):
                    assert play.capture_picked(card, field, high) == play.capture(card, field, high)
                    n += 1
    assert n == 48 * 8 * 4 * 2


@njit
def _both_loops(st, order, seed, dealer):
    """(state, generator) after play_pair with two random players, and after the general
    n-seat loop (play_turns) from the same state."""
    policy = np.array([RANDOM, RANDOM], dtype=np.int64)
    gscore = np.zeros(48 * 16)
    ghigh = np.zeros(12 * 16, dtype=np.uint64)
    a = st.copy()
    b = st.copy()
    ra = np.array([np.uint64(seed)])
    rb = np.array([np.uint64(seed)])
    play.play_pair(a, order, ra, policy, dealer, gscore, ghigh)
    play.play_turns(b, 2, order, rb, policy, dealer, gscore, ghigh, None, None)
    return a, b, ra[0], rb[0]


@pytest.mark.parametrize("seat", [0, 1])
def test_random_pair_turns_equal_the_general_loop(seat):
    rng = np.random.default_rng(11 + seat)
    for k in range(300):
        order = rng.permutation(48).astype(np.int8)
        hand = 10 - (k % 3)  # equal hands, and (k % 3 == 2) the other seat one card short
        h = [order[:hand], order[10:20 - (k % 3 == 2)]]
        st = np.zeros(state.size(2), dtype=np.uint64)
        for s in range(2):
            st[s] = np.uint64(sum(1 << int(c) for c in h[s]))
        st[2] = np.uint64(sum(1 << int(c) for c in order[20:28]))
        st[3] = np.uint64(int(rng.integers(0, 1 << 40)) & ~int(st[0] | st[1] | st[2]))
        st[5] = 28
        st[6] = seat
        a, b, sa, sb = _both_loops(st, order, k + 1, k % 2)
        assert (a == b).all() and sa == sb


def test_teyaku_shown_equals_teyaku_cards():
    tb, _ = T.lower(T.ToppaRules())
    rng = np.random.default_rng(3)
    n_months = tb.month_masks.shape[0] - 1
    seen = set()
    for k in range(4000):
        cards = rng.choice(48, 10, replace=False)
        if k % 4 == 0:  # force triplets (and kind-count hands) often
            m = int(rng.integers(0, 12))
            cards = np.concatenate([[4 * m, 4 * m + 1, 4 * m + 2], cards[:7]])
            cards = np.unique(cards)
        hand = np.uint64(sum(1 << int(c) for c in cards))
        _, h = teyaku_by_nibbles(hand, tb.teyaku, tb.month_masks, tb.kind_masks, 0)
        for hits in {h, 1, 2, 3, 31}:
            want = teyaku_cards(hand, hits, tb.teyaku, tb.month_masks)
            assert T.teyaku_shown(hand, hits, tb.teyaku, n_months) == want
        seen.add(h)
    assert 0 in seen and 1 in seen and any(x > 1 for x in seen)


@njit
def _both_exposes(st, dealer, seed, tb, expose, res_a, res_b):
    a = st.copy()
    b = st.copy()
    ra = np.array([np.uint64(seed)])
    rb = np.array([np.uint64(seed)])
    policy = np.array([GREEDY, GREEDY], dtype=np.int64)
    T.expose_pair(a, dealer, ra, tb.teyaku, tb.month_masks, tb.kind_masks,
                  tb.params[T.P_COMBINE], expose, res_a)
    expose_step(b, 2, dealer, np.arange(48).astype(np.int8), rb, tb.teyaku, tb.month_masks,
                tb.kind_masks, tb.params[T.P_COMBINE], policy, expose, res_b, T.R_TEY_HELD,
                T.R_TEY_SCORED, tb.gscore, tb.ghigh, None)
    return a, b, ra[0], rb[0]


def test_expose_pair_equals_expose_step():
    rng = np.random.default_rng(8)
    for combine in ("add", "highest"):
        tb, _ = T.lower(T.ToppaRules(teyaku_combine=combine))
        tb = tb._replace(cond=None)
        for k in range(600):
            order = rng.permutation(48)
            st = np.zeros(state.size(2), dtype=np.uint64)
            st[0] = np.uint64(sum(1 << int(c) for c in order[:10]))
            st[1] = np.uint64(sum(1 << int(c) for c in order[10:20]))
            if k % 3 == 0:  # a triplet for the dealer
                st[0] = np.uint64(7 << (4 * (k % 12))) | (st[0] & ~np.uint64(15 << (4 * (k % 12))))
            expose = np.array([(EXPOSE_ALWAYS, EXPOSE_RANDOM, EXPOSE_NEVER)[(k + j) % 3]
                               for j in range(2)], dtype=np.int64)
            ra, rb = np.full(T.R_N, 9, np.int64), np.full(T.R_N, 9, np.int64)
            a, b, sa, sb = _both_exposes(st, k % 2, k, tb, expose, ra, rb)
            assert (a == b).all() and (ra == rb).all() and sa == sb


def test_check_teyaku_shapes_refuses_other_row_order():
    table = T.teyaku_table()
    T.check_teyaku_shapes(table)
    with pytest.raises(AssertionError, match="teyaku rows"):
        T.check_teyaku_shapes(table[::-1].copy())
