"""Toppa's fast path equals the general code it stands in for: the capture by unpredictable
selects (``play.capture_picked``) and the two random players' turn loop
(``play.random_pair_turns`` through ``play.play_pair``)."""
import numpy as np
import pytest
from numba import njit

from hanasim.engine import play, state
from hanasim.policies import RANDOM

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
