"""Ishikari Toppa (the Ishikari Toppa rule page): exact deal odds, the join/drop phase and the
chase by hand, the kernel against ``tests/naive_ishikari.py`` round by round, invariants, and
the commands."""
from __future__ import annotations

from fractions import Fraction

import numba
import numpy as np
import pytest

import hanasim
import naive_ishikari as NI
from hanasim.cli import main as cli_main
from hanasim.decks import HANAFUDA
from hanasim.games import ishikari as IK
from hanasim.games.bakappana.round import deal_round
from hanasim.games.ishikari import round as R
from hanasim.games.taoshi import JOIN_ALWAYS, JOIN_RANDOM, JOIN_THRESHOLD
from hanasim.policies import GREEDY, RANDOM
from hanasim.rules import make_rules

_TB = {}


def tables(**given):
    key = tuple(sorted(given.items()))
    if key not in _TB:
        rules = make_rules(IK.IshikariRules, given)
        _TB[key] = (rules, IK.lower(rules, checked=True))
    return _TB[key]


def weights(tb):
    return [float(tb.kind_points[HANAFUDA.kind[c]]) for c in range(48)]


def bits(x):
    x = int(np.uint64(np.int64(x)))
    return {i for i in range(64) if x >> i & 1}


def run(tb, n, pol_rows, dealer, seed, mult=1):
    """The kernel's round from a fresh deck on stream ``seed``; returns (res, the deck after
    the deal, the generator state after the deal)."""
    rng = np.array([seed], np.uint64)
    order = np.arange(48, dtype=np.int8)
    replay_rng, replay = rng.copy(), order.copy()
    deal_round(replay_rng, replay, np.zeros(n + 1, np.uint64), tb.pattern, n, tb.cond)
    res = np.zeros(R.R_N, np.int64)
    pol = np.zeros((6, 4), np.int64)
    pol[:n] = pol_rows
    R.play_round(rng, order, np.arange(48, dtype=np.int8), np.zeros(n + 1, np.uint64),
                 np.zeros(4, np.uint64), np.zeros(12, np.uint64), tb, pol, np.zeros(3, np.int64),
                 np.zeros(3, np.int64), dealer, mult, res, None)
    return res, replay, replay_rng, rng


# ------------------------------------------------------------------ exact odds
def test_exact_odds():
    ex = hanasim.exact("ishikari_toppa", rules={"teyaku": "toppa"}).set_index(
        ["quantity", "condition"])
    assert ex.loc[("misdeal_rate", "all_deals"), "fraction"] == "1/1081"
    # a triplet: some month with exactly three of its cards among the 7 (counted by months)
    from math import comb
    assert ex.loc[("teyaku.triplet", "all_deals"), "fraction"] == \
        str(Fraction(_hands_with_a_triplet(), comb(48, 7)))


def _hands_with_a_triplet():
    """7-card hands with some month holding exactly three cards: by the months' counts."""
    from functools import lru_cache
    from math import comb

    @lru_cache(None)
    def f(months_left, cards_left, have):
        if months_left == 0:
            return int(cards_left == 0 and have)
        return sum(comb(4, k) * f(months_left - 1, cards_left - k, have or k == 3)
                   for k in range(0, min(4, cards_left) + 1))
    return f(12, 7, False)


def test_hachihachi_exact_odds_by_hand():
    """Empty Hand: 7 of the 27 chaff and willow cards; One Bright: one of the 4 other brights
    and 6 of them; every rate from the sum over months against a brute count over hands
    drawn from a reduced deck is in the exact tests below (simulation)."""
    from math import comb
    ex = hanasim.exact("ishikari_toppa").set_index(["quantity", "condition"])["fraction"]
    assert ex[("teyaku.empty_hand", "all_deals")] == str(Fraction(comb(27, 7), comb(48, 7)))
    assert ex[("teyaku.one_bright", "all_deals")] == str(Fraction(4 * comb(27, 6),
                                                                  comb(48, 7)))
    # Four-Three: a four and a triplet: 12 * 11 * C(4, 3) hands
    assert ex[("teyaku.four_three", "all_deals")] == str(Fraction(12 * 11 * 4, comb(48, 7)))


def test_hachihachi_kernel_equals_reference_on_random_hands():
    from hanasim.games.ishikari import hachihachi as HH
    _, tb = tables()
    gen = np.random.default_rng(5)
    for _ in range(20000):
        hand = {int(c) for c in gen.choice(48, 7, replace=False)}
        mask = np.uint64(sum(1 << c for c in hand))
        assert tuple(HH.teyaku(mask, tb.kind_masks)) == NI.hachihachi(hand), sorted(hand)


@pytest.mark.parametrize("players, teyaku, deals_only", [(3, "hachihachi", False),
                                                         (6, "hachihachi", False),
                                                         (4, "toppa", False),
                                                         (5, "hachihachi", True)])
def test_simulated_deal_rates_agree_with_exact(stat_rounds, players, teyaku, deals_only):
    sim = hanasim.simulate("ishikari_toppa", rounds=stat_rounds // 6, seed=4, policy="greedy",
                           rules={"players": players, "teyaku": teyaku},
                           deals_only=deals_only).set_index("quantity")
    if deals_only:
        assert "seat.dealer.mean_score" not in sim.index
    ex = hanasim.exact("ishikari_toppa", rules={"teyaku": teyaku})
    ex = ex[(ex.condition == "no_misdeal") | (ex.quantity == "misdeal_rate")]
    for _, row in ex.iterrows():
        s = sim.loc[row.quantity]
        assert s.ci_low <= row.value <= s.ci_high, (players, row.quantity, row.value,
                                                    s.ci_low, s.ci_high)


# ------------------------------------------------------------------ join/drop and chase
def test_join_phase_by_hand():
    _, tb = tables(players=5)
    groups = np.zeros(6, np.uint64)
    rng = np.array([1], np.uint64)
    res = np.zeros(R.R_N, np.int64)
    pol = np.zeros((6, 4), np.int64)
    # thresholds: 0 always joins, 999 never; dealer is player 2
    pol[:5, 1] = JOIN_THRESHOLD
    pol[:5, 2] = [999, 999, 999, 0, 0]  # players 0..4
    # seats 0..4 are players 2, 3, 4, 0, 1: drop, join, join, drop -> seat 4 forced in
    chasers = R.join_phase(groups, tb, pol, 2, rng, res)
    assert list(res[R.R_CHOICE:R.R_CHOICE + 5]) == [R.CH_DROP, R.CH_JOIN, R.CH_JOIN, R.CH_DROP,
                                                    R.CH_FORCED_IN]
    assert list(res[R.R_ACT_SEAT:R.R_ACT_SEAT + 3]) == [1, 2, 4] and chasers == 0
    pol[:5, 2] = 0  # everybody joins: the first three play, the other two chase
    chasers = R.join_phase(groups, tb, pol, 0, rng, res)
    assert list(res[R.R_CHOICE:R.R_CHOICE + 5]) == [R.CH_JOIN] * 3 + [R.CH_CHASE] * 2
    assert chasers == 2


def test_chase_multiplies_the_next_rounds():
    """Everybody joins at a table of 4: the fourth chases every round, so a 3-round game's
    payments are multiplied by 1, 2, 3 (doubled, then tripled for a second chase in a row)."""
    on = hanasim.simulate("ishikari_toppa", rounds=3000, seed=2, policy="greedy/join",
                          rules={"rounds_per_game": 3}, checked=True).set_index("quantity")
    assert on.loc["chase_rate", "estimate"] == 1
    assert on.loc["multiplier.mean", "estimate"] == 2
    off = hanasim.simulate("ishikari_toppa", rounds=3000, seed=2, policy="greedy/join",
                           rules={"rounds_per_game": 3, "chase": "off"}).set_index("quantity")
    assert off.loc["multiplier.mean", "estimate"] == 1
    # the same deals and play: only the payments' size differs
    assert on.loc["seat.dealer.play_rate", "estimate"] == off.loc["seat.dealer.play_rate",
                                                                 "estimate"]


# ------------------------------------------------------------------ the reference
def test_reference_many_rounds():
    gen = np.random.default_rng(77)
    seen = set()
    for i in range(900):
        n = 3 + i % 4
        given = dict(players=n, teyaku=("hachihachi", "toppa", "none")[(i // 4) % 3],
                     chaff_points=(1, 0)[(i // 12) % 2], kan_points=(12, 10)[(i // 24) % 2])
        rules, tb = tables(**given)
        rows = [(int(gen.choice([RANDOM, GREEDY])), int(gen.choice([JOIN_ALWAYS, JOIN_RANDOM,
                                                                     JOIN_THRESHOLD])),
                 int(gen.integers(20, 90)), int(gen.integers(0, 4))) for _ in range(n)]
        dealer = int(gen.integers(n))
        mult = int(gen.integers(1, 4))
        res, dealt, rng_after_deal, rng = run(tb, n, rows, dealer, int(gen.integers(2**63)), mult)
        want = NI.play_round(dealt, dealer, n, rows, given, weights(tb), rng_after_deal, mult)
        got = dict(pts=list(res[R.R_PTS:R.R_PTS + 3]), score=list(res[R.R_SCORE:R.R_SCORE + 3]),
                   tey_held=list(res[R.R_TEY_HELD:R.R_TEY_HELD + 3]),
                   tey_scored=list(res[R.R_TEY_SCORED:R.R_TEY_SCORED + 3]),
                   seats=list(res[R.R_ACT_SEAT:R.R_ACT_SEAT + 3]),
                   choice=list(res[R.R_CHOICE:R.R_CHOICE + n]), chasers=int(res[R.R_CHASERS]))
        for k in got:
            assert got[k] == want[k], (k, got[k], want[k], i, given, rows, dealer)
        assert rng[0] == rng_after_deal[0], ("random draws consumed differently", i)
        assert sum(want["score"]) == 0
        if given["teyaku"] == "hachihachi":
            seen |= {b for h in want["tey_held"] for b in range(15) if h >> b & 1}
    assert len(seen) >= 8, seen  # the common ones of Hachi-hachi's list came up


def test_reference_rounds_with_a_four_dealt():
    """Rounds in which an active hand was dealt a Four of a Kind: one of the four is exchanged
    for the top card of the draw pile (Hachi-hachi's list in Ishikari Toppa), as the reference
    does it."""
    gen = np.random.default_rng(8)
    rules, tb = tables(players=3)
    swapped = 0
    while swapped < 40:
        seed = int(gen.integers(2**63))
        rng = np.array([seed], np.uint64)
        order = np.arange(48, dtype=np.int8)
        deal_round(rng, order, np.zeros(4, np.uint64), tb.pattern, 3, tb.cond)
        hands, _ = NI.split(order, 3)
        if not any(max(NI.months(h).count(m) for m in range(1, 13)) == 4 for h in hands):
            continue
        rows = [(GREEDY, JOIN_ALWAYS, 0, 1)] * 3
        res, dealt, rng_after_deal, rng = run(tb, 3, rows, 0, seed)
        want = NI.play_round(dealt, 0, 3, rows, {}, weights(tb), rng_after_deal)
        assert list(res[R.R_PTS:R.R_PTS + 3]) == want["pts"]
        assert list(res[R.R_TEY_HELD:R.R_TEY_HELD + 3]) == want["tey_held"]
        assert list(res[R.R_SCORE:R.R_SCORE + 3]) == want["score"]
        assert rng[0] == rng_after_deal[0]
        swapped += 1


# ------------------------------------------------------------------ whole runs
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_invariants(players):
    df = hanasim.simulate("ishikari_toppa", rounds=3000, seed=5, checked=True,
                          policy="random", rules={"players": players}).set_index("quantity")
    plays = sum(df.loc[f"player{q}.play_rate", "estimate"] for q in range(1, players + 1))
    assert plays == pytest.approx(3)
    assert df.loc["round.score_sum.mean", "estimate"] == 0
    assert sum(df.loc[f"seat.{s}.mean_score", "estimate"]
               for s in IK.SEATS[:players]) == pytest.approx(0, abs=1e-9)


def test_same_seed_same_table_any_threads():
    game = hanasim.api.get_game("ishikari_toppa")
    rules = make_rules(IK.IshikariRules, {"players": 5})
    kw = dict(rounds=6001, seed=3, policy=game.policy_ids(["random", "greedy/threshold50",
                                                          "greedy", "random/join", "greedy"]),
              expose=np.array([1, 2, 1, 0, 1]))
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = game.counters(rules, **kw)
    finally:
        numba.set_num_threads(threads)
    two = game.counters(rules, **kw)
    assert (one["scal"] == two["scal"]).all() and (one["tcount"] == two["tcount"]).all()


def test_rules_and_commands(capsys):
    assert cli_main(["rules", "ishikari_toppa"]) == 0
    out = capsys.readouterr().out
    assert "has not been attested" in out and "chase" in out and "How hanasim reads" in out
    with pytest.raises(ValueError, match="chase"):
        hanasim.simulate("ishikari_toppa", rounds=100, rules={"players": 3, "chase": "off"})
    with pytest.raises(ValueError, match="join decision"):
        hanasim.simulate("ishikari_toppa", rounds=100, policy="greedy/sometimes")
    cmp = hanasim.compare("ishikari_toppa", rounds=1200, seed=1,
                          rules={"teyaku": ["hachihachi", "toppa", "none"]},
                          policies=("greedy",))
    assert (cmp.kind == "difference").any()


def test_lookahead_plays(heavy):
    df = hanasim.simulate("ishikari_toppa", rounds=300, seed=1, checked=True,
                          policy="lookahead:4,greedy,greedy,greedy").set_index("quantity")
    assert df.loc["round.score_sum.mean", "estimate"] == 0
    bk = hanasim.simulate("bakappana", rounds=300, seed=1, checked=True,
                          policy="lookahead:4,greedy", rules={"players": 2})
    assert len(bk)
