"""The teyaku and dekiyaku hits counted in byte lanes (``engine.tally.pair_lanes_add``, folded
by ``pair_lanes_fold``) give the counters ``tally_hits`` gives round by round."""
import numpy as np
import pytest

from hanasim.engine.tally import (LANE_ROUNDS, lanes_size, pair_lanes_add, pair_lanes_fold,
                                  tally_hits)


@pytest.mark.parametrize("n_rows,rounds,dense", [(5, 300, 0.3), (12, 1000, 0.5), (7, 254, 0.9),
                                                 (8, 129, 0.6), (15, 400, 1.0), (1, 50, 0.5)])
def test_lanes_equal_tally_hits(n_rows, rounds, dense):
    rng = np.random.default_rng(n_rows * 1000 + rounds)
    other = 5  # a first table before this one, as Toppa lays them out (teyaku, then dekiyaku)
    base = 2 * ((other + 8) >> 3)
    lanes = np.zeros(lanes_size(other, n_rows), dtype=np.uint64)
    want = np.zeros((n_rows + 1, 2), dtype=np.int64)
    got = np.zeros((n_rows + 1, 2), dtype=np.int64)
    full = (1 << n_rows) - 1
    for r in range(rounds):
        # every row at once and no row at all happen too (the lanes' extremes)
        h0, h1 = (int(x) & full if rng.random() < dense else 0
                  for x in rng.integers(0, 1 << n_rows, 2))
        if r % 97 == 0:
            h0 = h1 = full
        tally_hits(want, h0, h1, 0, n_rows)
        pair_lanes_add(lanes, base, h0, h1, n_rows)
        if (r + 1) % LANE_ROUNDS == 0:  # a lane holds LANE_ROUNDS rounds of two seats
            pair_lanes_fold(lanes, base, got, n_rows)
    pair_lanes_fold(lanes, base, got, n_rows)
    assert (got == want).all()
    assert not lanes[base:-1].any()  # folded lanes are empty
