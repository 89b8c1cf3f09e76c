"""Bakappana (the Bakappana rule page): exact misdeal odds, hand-built rounds, the kernel
against the plain-Python reference of ``tests/naive_bakappana.py`` round by round, the next
dealer, invariants over random play, the reading and the commands."""
from __future__ import annotations

from fractions import Fraction
from math import comb

import numba
import numpy as np
import pytest

import hanasim
import naive_bakappana as NB
from hanasim.cli import main as cli_main
from hanasim.engine.deal import deal
from hanasim.games import bakappana as BK
from hanasim.games.bakappana import round as R
from hanasim.games.bakappana import session as S
from hanasim.games.bakappana.lower import P_DECK_POINTS
from hanasim.policies import GREEDY, RANDOM
from hanasim.rules import RuleError, make_rules

_TB = {}


def tables(**given):
    key = tuple(sorted(given.items()))
    if key not in _TB:
        rules = make_rules(BK.BakappanaRules, given)
        _TB[key] = (rules, BK.lower(rules, checked=True))
    return _TB[key]


def bits(x):
    x = int(np.uint64(np.int64(x)))
    return {i for i in range(64) if x >> i & 1}


def field_misdeal(field_size):
    """P(four of some month among ``field_size`` random cards), by inclusion-exclusion."""
    return sum(Fraction((-1) ** (k + 1) * comb(12, k) * comb(48 - 4 * k, field_size - 4 * k),
                        comb(48, field_size)) for k in range(1, field_size // 4 + 1))


# ------------------------------------------------------------------ exact deal odds
def test_exact_misdeal_rates():
    assert field_misdeal(6) == Fraction(1, 1081)  # 12 * C(44, 2) / C(48, 6)
    assert field_misdeal(8) == Fraction(12 * comb(44, 4) - 66, comb(48, 8))
    for players, field in ((2, 8), (3, 6), (4, 8)):
        ex = hanasim.exact("bakappana", rules={"players": players}).set_index("quantity")
        assert ex.loc["misdeal_rate", "fraction"] == str(field_misdeal(field))


@pytest.mark.parametrize("players, deals_only", [(3, False), (4, False), (2, True)])
def test_simulated_misdeal_rate_agrees_with_exact(stat_rounds, players, deals_only):
    sim = hanasim.simulate("bakappana", rounds=stat_rounds // (1 if deals_only else 3), seed=7,
                           rules={"players": players}, deals_only=deals_only,
                           policy="greedy").set_index("quantity")
    want = float(field_misdeal(6 if players == 3 else 8))
    row = sim.loc["misdeal_rate"]
    assert row.ci_low <= want <= row.ci_high, (players, want, row.ci_low, row.ci_high)


# ------------------------------------------------------------------ deals
@pytest.mark.parametrize("players, hand", [(2, 8), (2, 10), (3, 7), (4, 5)])
def test_deal_patterns(players, hand):
    rules, tb = tables(players=players, two_player_deal=10 if hand == 10 else 8)
    groups = np.zeros(players + 1, np.uint64)
    top = deal(np.arange(48, dtype=np.int8), tb.pattern, groups)
    hands, field, pile = NB.split(range(48), players, hand)
    assert [bits(groups[s]) for s in range(players)] == hands and bits(groups[players]) == field
    assert [len(h) for h in hands] == [hand] * players and top == 48 - len(pile)
    assert len(field) == (6 if players == 3 else 8)


def test_deal_round_redeals_only_field_fours():
    from hanasim.engine.rng import shuffle_range
    rules, tb = tables()
    rng = np.array([5], np.uint64)
    order = np.arange(48, dtype=np.int8)
    groups = np.zeros(4, np.uint64)
    total = 0
    hand_fours = 0
    for _ in range(4000):
        replay_rng, replay = rng.copy(), order.copy()
        mis = R.deal_round(rng, order, groups, tb.pattern, 3, tb.cond)
        want = 0
        while True:
            shuffle_range(replay_rng, replay, 0, 27)
            if not NB.is_misdeal(replay, 3, 7):
                break
            want += 1
        shuffle_range(replay_rng, replay, 27, 48)
        assert mis == want and (replay == order).all() and replay_rng[0] == rng[0]
        total += mis
        hand_fours += any(len(bits(groups[s]) & set(range(4 * m, 4 * m + 4))) == 4
                          for m in range(12) for s in range(3))
    assert total >= 1 and hand_fours >= 1  # four in a hand is played, not redealt


# ------------------------------------------------------------------ hand-built rounds
def run_round(order, dealer, policy, tb, seed=1):
    n = int(tb.params[BK.P_PLAYERS])
    groups = np.zeros(n + 1, np.uint64)
    deal(np.asarray(order, np.int8), tb.pattern, groups)
    res = np.zeros(R.R_N, np.int64)
    rng = np.array([seed], np.uint64)
    R.play_dealt(rng, np.asarray(order, np.int8), groups, np.zeros(3 * n + 3, np.uint64), tb,
                 np.array(policy, np.int64), dealer, res, None)
    return res, rng


def tb_weights(tb):
    from hanasim.decks import HANAFUDA
    return [float(tb.kind_points[HANAFUDA.kind[c]]) for c in range(48)]


def test_three_matches_take_all_and_par():
    """Three pine cards on the field and the fourth in the dealer's hand: whenever he plays
    it, all four are his (Turns: 'all three are captured along with the played card')."""
    rules, tb = tables(players=4)
    gen = np.random.default_rng(9)
    done = 0
    while done < 20:
        order = list(gen.permutation(48))
        # 4 players: positions 9-11 and 22-23 are the dealer's, 12-15 and 24-27 the field's
        for pos, card in ((12, 0), (13, 1), (14, 2), (9, 3)):
            j = order.index(card)
            order[j], order[pos] = order[pos], order[j]
        if NB.is_misdeal(order, 4, 5):
            continue
        res, _ = run_round(order, 0, [GREEDY if done % 2 else RANDOM] * 4, tb, seed=done)
        assert {0, 1, 2, 3} <= bits(res[R.R_CAPTURED])
        assert sum(res[R.R_SCORE:R.R_SCORE + 4]) == 0
        assert res[R.R_SCORE] == res[R.R_PTS] - 66
        done += 1


def test_draw_out_and_hands_empty():
    gen = np.random.default_rng(3)
    for _ in range(50):
        order = gen.permutation(48)
        if NB.is_misdeal(order, 2, 8):
            continue
        _, tb = tables(players=2)
        res, _ = run_round(order, 1, [GREEDY, RANDOM], tb)
        assert res[R.R_TOP] == 48 and res[R.R_FIELD] == 0 and sum(res[R.R_PTS:R.R_PTS + 2]) == 264
        _, tb = tables(players=2, scoring="additive", two_player_end="hands_empty")
        res, _ = run_round(order, 1, [GREEDY, RANDOM], tb)
        assert res[R.R_TOP] == 40 and list(res[R.R_SCORE:R.R_SCORE + 2]) == list(res[R.R_PTS:R.R_PTS + 2])
        _, tb = tables(players=2, two_player_deal=10)
        if not NB.is_misdeal(order, 2, 10):
            res, _ = run_round(order, 0, [RANDOM, RANDOM], tb)
            assert res[R.R_TOP] == 48 and sum(res[R.R_SCORE:R.R_SCORE + 2]) == 0


def test_checked_mode_can_fail():
    rules, tb = tables(players=3)
    params = tb.params.copy()
    params[P_DECK_POINTS] = 240  # the '80' deck's total with chaff counted: must be caught
    bad = tb._replace(params=params)
    order = np.arange(48)
    with pytest.raises(AssertionError, match="add up"):
        run_round(order, 0, [GREEDY] * 3, bad)


# ------------------------------------------------------------------ the reference
RULE_SETS = [
    dict(players=3), dict(players=2), dict(players=4), dict(players=2, two_player_deal=10),
    dict(players=3, chaff_points=0), dict(players=2, scoring="additive",
                                          two_player_end="hands_empty"),
    dict(players=4, scoring="additive", chaff_points=0),
]
POLICIES = [RANDOM, GREEDY]


def compare(order, dealer, rules_given, policy, seed):
    rules, tb = tables(**rules_given)
    n = rules.players
    res, rng = run_round(order, dealer, policy, tb, seed)
    ref_rng = np.array([seed], np.uint64)
    want = NB.play_round(order, dealer, n, policy, rules_given, tb_weights(tb), ref_rng)
    got = dict(pts=[int(res[R.R_PTS + s]) for s in range(n)],
               score=[int(res[R.R_SCORE + s]) for s in range(n)],
               captured=[bits(res[R.R_CAPTURED + s]) for s in range(n)],
               field=bits(res[R.R_FIELD]), top=int(res[R.R_TOP]))
    ctx = dict(order=list(map(int, order)), dealer=dealer, rules=rules_given, policy=policy,
               seed=seed)
    for key in want:
        assert got[key] == want[key], (key, got[key], want[key], ctx)
    assert rng[0] == ref_rng[0], ("random draws consumed differently", ctx)
    return want


def test_reference_many_rounds():
    gen = np.random.default_rng(2026)
    n_done = 0
    while n_done < 700:
        rules_given = RULE_SETS[n_done % len(RULE_SETS)]
        n = rules_given["players"]
        hand = rules_given.get("two_player_deal", 8) if n == 2 else (7 if n == 3 else 5)
        order = gen.permutation(48)
        if NB.is_misdeal(order, n, hand):
            continue
        policy = [POLICIES[int(gen.integers(2))] for _ in range(n)]
        compare(order, int(gen.integers(n)), rules_given, policy, int(gen.integers(0, 2**63)))
        n_done += 1


def test_next_dealer_against_reference():
    gen = np.random.default_rng(11)
    res = np.zeros(R.R_N, np.int64)
    for i in range(3000):
        n = int(gen.integers(2, 5))
        scores = [int(x) for x in gen.integers(-3, 3, size=n)]  # many ties
        res[R.R_SCORE:R.R_SCORE + n] = scores
        tie_random = i % 2
        rng = np.array([i], np.uint64)
        ref_rng = rng.copy()
        got = S.next_dealer_seat(rng, res, n, 0, tie_random)
        assert tuple(got) == NB.next_dealer(scores, tie_random, ref_rng), (scores, tie_random)
        assert rng[0] == ref_rng[0]


def test_first_dealer_draws_the_earliest_card():
    from hanasim.decks import HANAFUDA
    gen = np.random.default_rng(1)
    for i in range(500):
        n = int(gen.integers(2, 5))
        rng = np.array([i], np.uint64)
        order = np.arange(48, dtype=np.int8)
        d = S.first_dealer(rng, order, n)
        keys = [(HANAFUDA.month[c], HANAFUDA.kind[c]) for c in order[:n]]
        assert keys[d] == min(keys) and keys.count(min(keys)) == 1


# ------------------------------------------------------------------ whole runs
@pytest.mark.parametrize("given", [dict(players=2), dict(players=3), dict(players=4),
                                   dict(players=2, two_player_deal=10, chaff_points=0),
                                   dict(players=3, tie_dealer="random", rounds_per_game=3)])
def test_invariants_over_random_play(given):
    """Checked mode over whole games: every card in one place, zero-sum rounds."""
    df = hanasim.simulate("bakappana", rounds=6000, seed=3, rules=given, checked=True,
                          policy="random").set_index("quantity")
    n = given["players"]
    assert df.loc["round.score_sum.mean", "estimate"] == 0
    assert abs(sum(df.loc[f"player{q}.deal_share", "estimate"] for q in range(1, n + 1)) - 1) < 1e-9
    assert abs(sum(df.loc[f"player{q}.game.mean_total", "estimate"]
                   for q in range(1, n + 1))) < 1e-9


def test_same_seed_same_table_any_threads():
    game = hanasim.api.get_game("bakappana")
    rules = make_rules(BK.BakappanaRules, {"players": 4})
    kw = dict(rounds=20_005, seed=12, policy=np.array([0, 1, 0, 1], np.int64))
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = game.counters(rules, **kw)
    finally:
        numba.set_num_threads(threads)
    assert (one["scal"] == game.counters(rules, **kw)["scal"]).all()
    assert (one["scal"] != game.counters(rules, **dict(kw, seed=13))["scal"]).any()


def test_rules_refuse_and_inert():
    with pytest.raises(RuleError, match="zero-sum"):
        make_rules(BK.BakappanaRules, {"players": 2, "two_player_end": "hands_empty"})
    with pytest.raises(ValueError, match="two_player_deal"):
        hanasim.simulate("bakappana", rounds=30, rules={"two_player_deal": 10})
    with pytest.raises(ValueError, match="session_rounds"):
        hanasim.simulate("bakappana", rounds=30, session_rounds=5)
    with pytest.raises(ValueError):
        hanasim.simulate("bakappana", rounds=30, policy="greedy,random")  # 3 players seated
    with pytest.raises(ValueError, match="expose"):
        hanasim.simulate("bakappana", rounds=30, expose="never")


def test_additive_edge_is_drawn_against_an_equal_share_of_the_seated():
    """Additive scoring, 2 players: the dealer's mean score is read against half the round's
    points (not a quarter: four seats are declared, two are seated)."""
    df = hanasim.simulate("bakappana", rounds=4000, seed=1, policy="greedy",
                          rules={"players": 2, "scoring": "additive"})
    by = df.set_index("quantity")
    reading = hanasim.api.get_game("bakappana").reading
    assert reading.edge_line(by) == pytest.approx(by.loc["round.score_sum.mean", "estimate"] / 2)
    assert reading.edge_line(by) == pytest.approx(132)


def test_commands(capsys):
    assert cli_main(["rules", "bakappana"]) == 0
    out = capsys.readouterr().out
    for name in ("players", "rounds_per_game", "scoring", "chaff_points", "two_player_deal",
                 "two_player_end", "tie_dealer", "How hanasim reads"):
        assert name in out
    cmp = hanasim.compare("bakappana", rounds=3000, seed=1,
                          rules={"chaff_points": [1, 0]}, policies=("greedy",))
    diff = cmp[cmp.kind == "difference"].set_index("quantity")
    assert diff.loc["misdeal_rate", "estimate"] == 0  # same deals
    sw = hanasim.sweep("bakappana", rounds=2000, seed=1, rules={"players": [2, 3, 4]},
                       policy="greedy")
    assert len(sw) > 0
