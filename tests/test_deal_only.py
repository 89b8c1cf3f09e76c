"""The deals-only kernel (``engine.deal_only``): its counters against a plain-Python deals-only
run written from the rules and the generator's protocol (``naive.py`` deals and scores the
hands), and its fast parts (the deal's groups in registers, the teyaku rows it keeps, the
histogram of the rounds' hits) against the general code they stand in for."""
import numpy as np
import pytest

import naive
import hanasim
from hanasim.engine import deal_only as D
from hanasim.engine.bits import bit
from hanasim.engine.tally import tally_hits
from hanasim.engine.yaku import TEY_KINDS, TEY_MONTHS, teyaku_by_nibbles
from hanasim.games import toppa

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def naive_deals(seed, rounds):
    """(deals, misdeals, rounds, per teyaku row and 'any': [sum, sum of squares] of the hands
    holding it a round) of Toppa's deals-only run: sessions of 64 rounds, each from the deck in
    order on its own SplitMix64 stream; a deal is the first 28 Fisher-Yates steps, two 32-bit
    draws (low half, then high) per 64-bit output, dealt again while a misdeal."""
    deals = misdeals = 0
    tally = [[0, 0] for _ in range(len(naive.TEYAKU_BITS) + 1)]
    for session in range(-(-rounds // 64)):
        s = mix64(seed ^ mix64((session * GOLDEN + GOLDEN) & M64))
        order = list(range(48))
        for _ in range(min(64, rounds - 64 * session)):
            while True:
                deals += 1
                for i in range(naive.N_DEALT):
                    if i % 2 == 0:
                        s = (s + GOLDEN) & M64
                        r = mix64(s)
                        x = r & 0xFFFFFFFF
                    else:
                        x = r >> 32
                    j = i + ((x * (48 - i)) >> 32)
                    order[i], order[j] = order[j], order[i]
                if not naive.is_misdeal(order):
                    break
                misdeals += 1
            hands, _, _ = naive.split(order)
            held = [naive.teyaku(h, None)[1] for h in hands]
            for row in range(len(tally)):
                x = sum((h >> row) & 1 if row < len(tally) - 1 else h != 0 for h in held)
                tally[row][0] += x
                tally[row][1] += x * x
    return deals, misdeals, rounds, tally


@pytest.mark.parametrize("seed,rounds", [(0, 1), (12345, 64 * 3 + 17), (2**64 - 1, 150)])
def test_deals_only_counters_equal_a_plain_python_run(seed, rounds):
    g = toppa.Toppa()
    c = g.counters(toppa.ToppaRules(), rounds=rounds, seed=seed, policy=None, expose=None,
                   deals_only=True)
    deals, misdeals, n, tally = naive_deals(seed, rounds)
    s = c["scal"]
    assert (s[toppa.C_DEALS], s[toppa.C_MISDEALS], s[toppa.C_ROUNDS]) == (deals, misdeals, n)
    assert c["tcount"].tolist() == tally


def random_table(rng, n_rows):
    """Teyaku rows of both types with values, per-extra points and counts drawn wide: rows
    worth nothing or less, counts no hand can have, months rows that shrink with extra months."""
    rows = []
    for _ in range(n_rows):
        if rng.random() < 0.4:
            rows.append([TEY_MONTHS, rng.integers(0, 5), rng.integers(0, 4), 0, 0,
                         rng.integers(-10, 31), rng.integers(-15, 11)])
        else:
            rows.append([TEY_KINDS, *rng.integers(-1, 12, size=4), rng.integers(-5, 31), 0])
    return np.array(rows, dtype=np.int64).reshape(n_rows, 7)


CHAFFY = np.where(hanasim.decks.HANAFUDA.kind == hanasim.decks.CHAFF, 1.0, 0.05)
CHAFFY /= CHAFFY.sum()


def prepared(table):
    rows = np.zeros(5 * table.shape[0], dtype=np.int64)
    nm, nk = D.teyaku_rows(table, rows)
    kd_any = np.uint64(0)
    for k in range(nk):
        kd_any |= bit(rows[5 * nm + 2 * k + 1] >> 24)
    return rows, nm, nk, kd_any


def test_hand_hits_equal_the_teyaku_table_walk():
    rng = np.random.default_rng(5)
    tb, _ = toppa.lower(toppa.ToppaRules())
    tables = [tb.teyaku, toppa.teyaku_table(7), np.zeros((0, 7), np.int64)]
    tables += [random_table(rng, n) for n in (1, 3, 6, 9) for _ in range(15)]
    for table in tables:
        rows, nm, nk, kd_any = prepared(table)
        for _ in range(300):
            size = rng.choice([7, 8, 10, 12])
            # half the hands mostly chaff, so that the kind rows are looked at
            cards = rng.choice(48, size=size, replace=False, p=CHAFFY if rng.random() < 0.5
                               else None)
            hand = np.uint64(sum(1 << int(c) for c in cards))
            want = teyaku_by_nibbles(hand, table, tb.month_masks, tb.kind_masks, 0)[1]
            got = D.hand_hits(hand, 12, tb.kind_masks, rows, nm, nk, kd_any)
            assert got == want, (table.tolist(), sorted(cards))


@pytest.mark.parametrize("n_hands,n_rows", [(1, 5), (2, 5), (3, 4), (2, 0)])
def test_hits_histogram_folds_to_the_round_by_round_tally(n_hands, n_rows):
    rng = np.random.default_rng(n_hands * 10 + n_rows)
    hist = np.zeros(1 << (n_hands * n_rows), dtype=np.int64)
    want = np.zeros((n_rows + 1, 2), dtype=np.int64)
    for _ in range(5000):
        h = [int(rng.integers(0, 1 << n_rows)) & int(rng.integers(0, 1 << n_rows))
             if k < n_hands else 0 for k in range(3)]
        tally_hits(want, h[0], h[1], h[2], n_rows)
        hist[h[0] | (h[1] << n_rows) | (h[2] << (2 * n_rows))] += 1
    got = np.zeros_like(want)
    D.fold_hist(hist, n_hands, n_rows, got)
    assert got.tolist() == want.tolist()


@pytest.mark.parametrize("game", ["toppa", "baka"])
def test_registers_and_the_conditioned_deal_give_one_table(game):
    """A ``--where`` every deal meets takes the general deal (the shuffle of ``rng``, the groups
    through an array, the condition checked) with the same draws: the same table as the deal
    in registers (Toppa counts its hits in the histogram, Baka's three hands round by round)."""
    cols = ["quantity", "estimate", "n"]
    a = hanasim.simulate(game, rounds=3001, seed=11, deals_only=True, progress=False)
    b = hanasim.simulate(game, rounds=3001, seed=11, deals_only=True, progress=False,
                         where="dealer.brights>=0")
    assert a[cols].equals(b[cols])
