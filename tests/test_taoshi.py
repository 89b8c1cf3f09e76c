"""Taoshi: the deck, hand-built teyaku under every bakefuda reading, the kernel against the
plain-Python reference (tests/naive_taoshi.py), join/drop, botta, invariants, exact deal odds
against simulation, the API and the CLI."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import naive_taoshi as N
from hanasim import api
from hanasim.decks import BAKEFUDA, MEKURIFUDA as D, RED
from hanasim.engine.rng import stream_state
from hanasim.games import taoshi as T
from hanasim.rules import RuleError, make_rules

READINGS = T.BAKEFUDA_READINGS


def mask(names):
    m = 0
    for x in names:
        m |= 1 << D.card(x)
    return np.uint64(m)


def kernel_best(names, reading="literal", overlap="yes"):
    tb = T.lower(make_rules(T.TaoshiRules, {"bakefuda": reading, "reds_overlap": overlap}))
    f = T.teyaku_formed(mask(names), np.uint64(tb.params[T.P_RED]),
                        np.uint64(tb.params[T.P_BAKE]), READINGS.index(reading),
                        overlap == "no")
    b = T.best_teyaku(f, tb.values)
    return "none" if b == T.NONE else T.TEYAKU[b]


def ref_best(names, reading="literal", overlap="yes"):
    cards = [D.card(x) for x in names]
    return T.best_reference(T.teyaku_reference(N.hand_tuple(cards), reading, overlap))


def test_deck():
    """234 points, 17 reds, the two bakefuda; the four cards of a number are adjacent (card
    4*(number-1) + suit), which the nibble masks and the shared capture rely on."""
    assert int(D.points.sum()) == 234 == T.DECK_POINTS
    assert D.describe(D.flag_mask(BAKEFUDA)) == "clubs.1, clubs.12"
    reds = D.cards_of(D.flag_mask(RED))
    assert len(reds) == 17
    assert all(D.month[c] == c // 4 + 1 for c in range(48))
    pts = {D.names[c]: int(D.points[c]) for c in range(48)}
    assert pts["clubs.6"] == 9 and pts["clubs.7"] == 7 and pts["clubs.9"] == 9
    assert pts["clubs.1"] == 5 and pts["clubs.12"] == 5 and pts["swords.2"] == 6
    assert pts["swords.5"] == 1 and pts["coins.2"] == 6 and pts["cups.12"] == 6
    assert sum(1 for c in range(48) if D.points[c] == 1) == 11


# (hand, {reading: best} or one best for every reading, reds_overlap)
A = ["coins.3", "cups.7", "coins.9", "cups.11"]  # four plain non-red fillers of 4 numbers
CASES = [
    (["coins.5", "cups.5", "clubs.5"] + A, "triplet", "yes"),
    (["coins.5", "cups.5", "clubs.1"] + A, "triplet", "yes"),           # bakefuda in a triplet
    (["coins.5", "cups.5", "coins.1"] + A, "none", "yes"),
    (["coins.5", "cups.5", "clubs.5", "coins.7", "cups.7", "clubs.7", "coins.9"],
     "two_triplets", "yes"),
    # 5-5-5 7-7 + kiribake: literal four of a kind (3 + wild) ties two triplets at 60 in_sets:
    # the table order puts two triplets first
    (["coins.5", "cups.5", "clubs.5", "coins.7", "cups.7", "clubs.12", "coins.9"],
     {"literal": "four_of_a_kind", "no_number": "four_of_a_kind", "in_sets": "two_triplets",
      "everywhere": "two_triplets"}, "yes"),
    (["coins.3", "cups.3", "coins.5", "cups.5", "coins.7", "cups.7", "coins.9"],
     "three_pairs", "yes"),
    # pairs 3, 5 + pinbake: wild in pairs only under everywhere; literal: no third pair (the
    # pinbake is a 1 with no other 1)
    (["coins.3", "cups.3", "coins.5", "cups.5", "coins.7", "clubs.1", "coins.9"],
     {"literal": "triplet", "no_number": "triplet", "in_sets": "triplet",
      "everywhere": "three_pairs"}, "yes"),
    # 1-1(pinbake) 3-3 5-5: the pinbake is a 1 (literal) or no number (no_number)
    (["coins.1", "clubs.1", "coins.3", "cups.3", "coins.5", "cups.5", "coins.9"],
     {"literal": "three_pairs", "no_number": "triplet", "in_sets": "three_pairs",
      "everywhere": "three_pairs"}, "yes"),
    (["coins.5", "cups.5", "swords.5", "clubs.5", "coins.3", "cups.7", "coins.9"],
     "four_of_a_kind", "yes"),
    (["coins.5", "cups.5", "clubs.5", "clubs.12", "coins.3", "cups.7", "coins.9"],
     "four_of_a_kind", "yes"),                                           # 3 + a wild
    (["coins.5", "cups.5", "swords.5", "clubs.5", "clubs.12", "coins.3", "cups.7"],
     "five_of_a_kind", "yes"),
    (["coins.5", "cups.5", "clubs.1", "clubs.12", "coins.3", "cups.7", "coins.9"],
     "four_of_a_kind", "yes"),                                           # 2 + two wilds
    (["coins.5", "cups.5", "clubs.5", "coins.7", "cups.7", "coins.9", "cups.9"],
     "triplet_two_pairs", "yes"),
    # 5-5 + pinbake, 7-7, 9-9: the triplet needs the wild (a set part: in_sets, everywhere)
    (["coins.5", "cups.5", "clubs.1", "coins.7", "cups.7", "coins.9", "cups.9"],
     {"literal": "three_pairs", "no_number": "three_pairs", "in_sets": "triplet_two_pairs",
      "everywhere": "triplet_two_pairs"}, "yes"),
    (["coins.5", "cups.5", "swords.5", "clubs.5", "coins.7", "cups.7", "clubs.7"],
     "four_three", "yes"),
    # 5-5-5 + kiribake, 7-7-7: four-three needs the wild in a set part; literal: the natural
    # two triplets (60) come before the four of a kind (60) in the table
    (["coins.5", "cups.5", "clubs.5", "coins.7", "cups.7", "clubs.7", "clubs.12"],
     {"literal": "two_triplets", "no_number": "two_triplets", "in_sets": "four_three",
      "everywhere": "four_three"}, "yes"),
    (["swords.3", "swords.4", "swords.6", "swords.8", "coins.7", "cups.9", "coins.11"],
     "four_reds", "yes"),
    (["swords.3", "swords.4", "swords.6", "swords.8", "coins.2", "cups.9", "coins.11"],
     "five_reds", "yes"),
    (["swords.3", "swords.4", "swords.6", "swords.8", "coins.2", "clubs.12", "coins.11"],
     "six_reds", "yes"),
    (["swords.3", "swords.4", "swords.6", "swords.8", "coins.2", "clubs.12", "swords.11"],
     "seven_reds", "yes"),
    # triplet 5-5-5 (one red) + 3 more reds: 4 reds in all; overlap=no leaves 3 outside:
    # four reds (12) ties the triplet (12): the triplet comes first
    (["swords.5", "coins.5", "cups.5", "swords.3", "swords.4", "swords.6", "coins.9"],
     "four_reds_triplet", "yes"),
    (["swords.5", "coins.5", "cups.5", "swords.3", "swords.4", "swords.6", "coins.9"],
     "triplet", "no"),
    (["swords.2", "coins.2", "cups.2", "swords.3", "swords.4", "coins.9", "cups.11"],
     "five_reds_triplet", "yes"),
    (["swords.2", "coins.2", "cups.2", "swords.3", "swords.4", "coins.9", "cups.11"],
     "five_reds", "no"),
    # 5-5 + pinbake + 3 swords: the wild triplet counts for Reds + Triplet under in_sets only
    (["coins.5", "cups.5", "clubs.1", "swords.3", "swords.4", "swords.6", "coins.9"],
     {"literal": "triplet", "no_number": "triplet", "in_sets": "four_reds_triplet",
      "everywhere": "four_reds_triplet"}, "yes"),
    (["coins.5", "cups.5", "clubs.1", "swords.3", "swords.4", "swords.6", "coins.9"],
     "triplet", "no"),
    # reds with a bakefuda (a red wherever it is wild or not)
    (["swords.3", "swords.4", "swords.6", "clubs.1", "coins.7", "cups.9", "coins.11"],
     "four_reds", "yes"),
    (["swords.3", "swords.4", "swords.6", "clubs.1", "coins.2", "cups.9", "coins.11"],
     "five_reds", "yes"),
    # 5-5 + kiribake, 4 swords: five reds (36) unless the wild triplet counts for Reds +
    # Triplet (in_sets, everywhere); under overlap=no the wild triplet keeps 4 reds outside:
    # Four Reds + Triplet (36) ties Five Reds (36), which comes first in the table
    (["coins.5", "cups.5", "clubs.12", "swords.3", "swords.4", "swords.6", "swords.8"],
     {"literal": "five_reds", "no_number": "five_reds", "in_sets": "five_reds_triplet",
      "everywhere": "five_reds_triplet"}, "yes"),
    (["coins.5", "cups.5", "clubs.12", "swords.3", "swords.4", "swords.6", "swords.8"],
     "five_reds", "no"),
    # a natural triplet plus both bakefuda and 2 swords: five of a kind beats everything
    (["coins.5", "cups.5", "clubs.5", "clubs.1", "clubs.12", "swords.3", "swords.4"],
     "five_of_a_kind", "yes"),
]


@pytest.mark.parametrize("ci", range(len(CASES)))
def test_teyaku_hand_built(ci):
    hand, want, overlap = CASES[ci]
    assert len(set(hand)) == 7
    for reading in READINGS:
        w = want[reading] if isinstance(want, dict) else want
        assert ref_best(hand, reading, overlap) == w, ("reference", reading)
        assert kernel_best(hand, reading, overlap) == w, ("kernel", reading)


def test_tie_order_and_values():
    assert T.TEYAKU_VALUES == (12, 60, 36, 60, 100, 60, 100, 12, 36, 60, 100, 36, 60)
    tb = T.lower(make_rules(T.TaoshiRules, {}))
    every = (1 << len(T.TEYAKU)) - 1
    assert T.TEYAKU[T.best_teyaku(every, tb.values)] == "five_of_a_kind"
    sixty = sum(1 << i for i, v in enumerate(T.TEYAKU_VALUES) if v == 60)
    assert T.TEYAKU[T.best_teyaku(sixty, tb.values)] == "two_triplets"
    assert T.TEYAKU[T.best_teyaku(sixty & ~2 & ~8, tb.values)] == "triplet_two_pairs"
    assert T.best_reference({"six_reds", "five_reds_triplet"}) == "six_reds"
    assert T.best_reference({"four_reds", "triplet"}) == "triplet"


def test_teyaku_kernel_equals_reference_random_hands():
    """Every formed teyaku (not only the best), random hands, half of them holding a
    bakefuda, under every reading and both reds_overlap."""
    rng = np.random.default_rng(13)
    red, bake = np.uint64(D.flag_mask(RED)), np.uint64(D.flag_mask(BAKEFUDA))
    for i in range(600):
        cards = list(rng.choice(48, 7, replace=False))
        if i % 2 and 3 not in cards and 47 not in cards:
            cards[0] = 3 if i % 4 == 1 else 47
            if i % 8 == 3 and 3 not in cards:
                cards[1] = 3
        m = np.uint64(sum(1 << int(c) for c in cards))
        tup = N.hand_tuple([int(c) for c in cards])
        for ri, reading in enumerate(READINGS):
            for overlap in ("yes", "no"):
                f = int(T.teyaku_formed(m, red, bake, ri, overlap == "no"))
                got = {t for k, t in enumerate(T.TEYAKU) if f >> k & 1}
                assert got == T.teyaku_reference(tup, reading, overlap), (cards, reading,
                                                                          overlap)


# ------------------------------------------------------------------ the round against the reference

def run_kernel(rules, rows, dealer, seed, i):
    tb = T.lower(make_rules(T.TaoshiRules, rules))
    drng = np.array([stream_state(np.uint64(seed), np.uint64(2 * i))], dtype=np.uint64)
    rng = np.array([stream_state(np.uint64(seed), np.uint64(2 * i + 1))], dtype=np.uint64)
    order = np.arange(48).astype(np.int8)
    hands = np.zeros(T.MAX_PLAYERS + 1, dtype=np.uint64)
    pbuf = np.zeros(T.PBUF, dtype=np.int8)
    st = np.zeros(T.ST_N, dtype=np.uint64)
    pol3 = np.zeros(3, dtype=np.int64)
    res = np.zeros(T.R_N, dtype=np.int64)
    T.play_round(drng, rng, order, hands, pbuf, st, pol3, tb, rows, dealer, res, None)
    return res, drng[0], rng[0]


def run_naive(rules, rows, dealer, seed, i):
    drng = np.array([stream_state(np.uint64(seed), np.uint64(2 * i))], dtype=np.uint64)
    rng = np.array([stream_state(np.uint64(seed), np.uint64(2 * i + 1))], dtype=np.uint64)
    keys = ("card", "join", "jparam", "expose")
    pols = [dict(zip(keys, (int(x) for x in row))) for row in rows]
    out = N.play_round(drng, rng, dealer, pols, rules)
    return out, drng[0], rng[0]


def cards(m):
    m = int(m) & ((1 << 64) - 1)
    return {c for c in range(48) if m >> c & 1}


def pol_rows(names, expose):
    return T.decode_policies([T.parse_taoshi_policy(x) for x in names], expose)


RULE_SETS = [
    {},
    {"players": 4},
    {"players": 5, "bakefuda": "in_sets", "drop_fee": 5, "forced_out_pay": 3,
     "forced_out_botta": "claimed", "tie_winner": "last"},
    {"players": 6, "dropped_cards": "on_top", "bakefuda": "everywhere", "reds_overlap": "no",
     "burden": "proportional", "botta_teyaku": "paid", "tie_winner": "random"},
    {"players": 4, "bakefuda": "no_number", "burden": "70,78,86", "dekiyaku": "none"},
    {"players": 3, "burden": "sudaoshi", "bakefuda": "in_sets"},
    {"burden": "steps10", "dekiyaku": "none", "tie_winner": "random"},  # the old default
]
POLICY_SETS = [
    (("random",), (1,)),
    (("greedy",), (1,)),
    (("random/join", "greedy/threshold30", "greedy/random", "random/threshold60",
      "random/random", "greedy/join"), (2, 1, 0, 2, 1, 1)),
]


@pytest.mark.parametrize("ri", range(len(RULE_SETS)))
def test_kernel_equals_reference(ri):
    """Every result and both generator states agree with the reference, round by round."""
    rules = RULE_SETS[ri]
    n = rules.get("players", 3)
    seen = dict(drop=0, forced_in=0, forced_out=0, claims=0, misdeals=0, twos=0, threes=0)
    for pi, (names, expose) in enumerate(POLICY_SETS):
        rows = pol_rows((names * 6)[:6], (expose * 6)[:6])
        for i in range(60):
            dealer = i % n
            seed = 1000 * ri + pi
            res, d1, r1 = run_kernel(rules, rows, dealer, seed, i)
            want, d2, r2 = run_naive(rules, rows, dealer, seed, i)
            assert d1 == d2 and r1 == r2, ("generator draws differ", i, pi)
            assert res[T.R_MISDEALS] == want["misdeals"]
            tey = [("none" if res[T.R_TEY + s] == T.NONE else T.TEYAKU[res[T.R_TEY + s]])
                   for s in range(n)]
            assert tey == want["tey"], i
            assert [int(res[T.R_CHOICE + s]) for s in range(n)] == want["choice"]
            assert [int(res[T.R_ACT_SEAT + j]) for j in range(3)] == want["active"]
            assert [int(res[T.R_CLAIM + s]) for s in range(n)] == want["claim"]
            assert [int(res[T.R_YAKU + j]) for j in range(3)] == want["yaku"]
            assert int(res[T.R_BOTTA]) == want["botta"]
            assert [int(res[T.R_RAW + s]) for s in range(n)] == want["raw"], i
            assert [int(res[T.R_SCORE + s]) for s in range(n)] == want["score"], i
            assert int(res[T.R_WINNER]) == want["winner"]
            assert [int(res[T.R_PTS + j]) for j in range(3)] == want["pts"]
            assert [int(res[T.R_DEKI + j]) for j in range(3)] == want["deki"], i
            assert int(res[T.R_TIED]) == want["tied"], i
            if not want["botta"]:
                assert [cards(res[T.R_PILE0 + j]) for j in range(3)] == want["piles"]
                assert int(res[T.R_TOP]) == want["top"] == 21
            check_invariants(res, n, rules)
            ch = want["choice"]
            seen["drop"] += ch.count(2)
            seen["forced_in"] += ch.count(3)
            seen["forced_out"] += ch.count(4)
            seen["claims"] += sum(want["claim"])
            seen["misdeals"] += want["misdeals"]
            seen["twos"] += sum(d & 1 for d in want["deki"])
            seen["threes"] += sum(d >> 1 for d in want["deki"])
    assert seen["claims"]
    if make_rules(T.TaoshiRules, rules).dekiyaku == "page":
        assert seen["twos"] and seen["threes"]
    else:
        assert not seen["twos"] and not seen["threes"]
    if n > 3:
        assert seen["drop"] and seen["forced_out"]
    if n == 4 or n == 5:
        assert seen["forced_in"]


def check_invariants(res, n, rules):
    """A played round captures the deck's 234 points and leaves the field and hands empty;
    three play; zero-sum when the burdens add up to 234; a botta round: no card points."""
    burden = make_rules(T.TaoshiRules, rules).burden
    unit = T.burden_unit(make_rules(T.TaoshiRules, rules))
    assert sum(1 for s in range(n) if res[T.R_POS + s] >= 0) == 3
    raw = sum(int(res[T.R_RAW + s]) for s in range(n))
    score = sum(int(res[T.R_SCORE + s]) for s in range(n))
    if res[T.R_BOTTA]:
        assert raw == 0 and score == 0
        assert sum(int(res[T.R_PTS + j]) for j in range(3)) == 0
    else:
        assert sum(int(res[T.R_PTS + j]) for j in range(3)) == 234
        piles = [cards(res[T.R_PILE0 + j]) for j in range(3)]
        assert len(set().union(*piles)) == 48 == sum(len(p) for p in piles)
        assert res[T.R_FIELD] == 0 and all(res[T.R_HAND0 + j] == 0 for j in range(3))
        assert raw == 234
        total_burden = sum(T.burdens_of(make_rules(T.TaoshiRules, rules)))
        assert Fraction(score, unit) == 234 - total_burden
        if burden in ("page", "steps10", "equal", "proportional"):
            assert score == 0


def test_botta_paid_by_inactive_players():
    """A botta with 5 seated: the holder gets 100 from each of the other four, active or not;
    no card play."""
    rules = {"players": 5}
    rows = pol_rows(["random"] * 6, [1] * 6)
    found = 0
    for i in range(4000):
        res, _, _ = run_kernel(rules, rows, i % 5, 99, i)
        if not res[T.R_BOTTA]:
            continue
        found += 1
        holders = [res[T.R_ACT_SEAT + j] for j in range(3) if res[T.R_YAKU + j] == 100]
        for s in range(5):
            want = -100 * len(holders) + (500 if s in holders else 0)
            assert res[T.R_RAW + s] == want
            assert res[T.R_SCORE + s] == want
        inactive = [s for s in range(5) if res[T.R_POS + s] < 0]
        assert len(inactive) == 2 and all(res[T.R_RAW + s] <= -100 for s in inactive)
        assert res[T.R_WINNER] in holders
        if found >= 3:
            break
    assert found >= 1


def test_join_drop_forced_paths():
    """Forced out once three joined; forced in once all but three dropped."""
    rows = pol_rows(["random/join"] * 6, [1] * 6)
    res, _, _ = run_kernel({"players": 6}, rows, 0, 1, 0)
    assert [int(res[T.R_CHOICE + s]) for s in range(6)] == [1, 1, 1, 4, 4, 4]
    assert [int(res[T.R_ACT_SEAT + j]) for j in range(3)] == [0, 1, 2]
    rows = pol_rows(["random/threshold300"] * 6, [1] * 6)  # nobody wants to play
    res, _, _ = run_kernel({"players": 5}, rows, 2, 1, 0)
    assert [int(res[T.R_CHOICE + s]) for s in range(5)] == [2, 2, 3, 3, 3]
    assert [int(res[T.R_ACT_SEAT + j]) for j in range(3)] == [2, 3, 4]
    # compensation and fees: forced-out players get 3 x 7 from the actives; droppers pay 3 x 4
    rows = pol_rows(["random/join"] * 6, [0] * 6)
    res, _, _ = run_kernel({"players": 5, "forced_out_pay": 7}, rows, 0, 1, 0)
    assert [int(res[T.R_SCORE + s]) for s in (3, 4)] == [21, 21]
    rows = pol_rows(["random/threshold300"] * 6, [0] * 6)
    res, _, _ = run_kernel({"players": 4, "drop_fee": 4}, rows, 0, 1, 0)
    assert int(res[T.R_CHOICE]) == 2 and int(res[T.R_SCORE]) == -12


def test_deal_sequence():
    assert list(T.deal_sequence(3)) == [1] * 4 + [2] * 4 + [0] * 4 + [3] * 3 + [1] * 3 + \
        [2] * 3 + [0] * 3 + [3] * 3


def test_rules_and_errors():
    r = make_rules(T.TaoshiRules, {"burden": "70,78,86"})
    assert r.burden == (70, 78, 86) and T.burdens_of(r) == (70, 78, 86)
    r = make_rules(T.TaoshiRules, {"burden": "proportional"})
    assert sum(T.burdens_of(r)) == 234 and T.burden_unit(r) == 11
    assert sum(T.burdens_of(make_rules(T.TaoshiRules, {}))) == 234
    for bad in ({"burden": "1,2"}, {"burden": "heavy"}, {"burden": "1,2,x"}, {"players": 7},
                {"players": 2}, {"bakefuda": "wild"}, {"reds_overlap": 1}, {"burden": None},
                {"dekiyaku": "sudaoshi"}, {"drop_fee": -1}):
        with pytest.raises(RuleError):
            make_rules(T.TaoshiRules, bad)
    with pytest.raises(ValueError):
        T.parse_taoshi_policy("greedy/sometimes")
    with pytest.raises(ValueError):
        api.simulate("taoshi", rounds=10, seed=1, policy="greedy/threshold999")


# ------------------------------------------------------------------ exact and simulation

def test_exact_sums_and_misdeal():
    from math import comb

    for reading in READINGS:
        rows = T.deal_exact(reading)
        by = {(q, c): p for q, c, p in rows}
        for cond in ("all_deals", "no_misdeal"):
            assert sum(p for (q, c), p in by.items()
                       if c == cond and q.startswith("teyaku.")) == 1
            assert sum(p for (q, c), p in by.items()
                       if c == cond and q.startswith("teyaku_score.")) == 1
        # a closed form: field of 6 holds four of some number (at most one can)
        want = Fraction(12 * comb(44, 2), comb(48, 6))
        assert by[("misdeal_rate", "all_deals")] == want
        # seven reds: all 7 cards among the 17 reds, less the hands that are five of a kind
        # (100 too, and first in the table): all four 2s + a bakefuda (C(13,3) - C(11,3)) or
        # three 2s + both bakefuda (4 x C(11,2))
        five = comb(13, 3) - comb(11, 3) + 4 * comb(11, 2)
        assert by[("teyaku.seven_reds", "all_deals")] == Fraction(comb(17, 7) - five,
                                                                  comb(48, 7))
    lit = {q: p for q, c, p in T.deal_exact("literal") if c == "no_misdeal"}
    sets = {q: p for q, c, p in T.deal_exact("in_sets") if c == "no_misdeal"}
    assert sets["teyaku.four_reds_triplet"] > lit["teyaku.four_reds_triplet"]
    assert lit["teyaku.none"] == sets["teyaku.none"]


@pytest.mark.parametrize("rules", [{}, {"bakefuda": "everywhere", "reds_overlap": "no",
                                        "players": 4}])
def test_deal_time_agrees_with_exact(rules, stat_rounds):
    df = api.simulate("taoshi", rounds=stat_rounds, seed=5, rules=rules, deals_only=True)
    ex = api.exact("taoshi", rules=rules)
    reading = rules.get("bakefuda", "literal")
    ex = ex[(ex.condition == "no_misdeal") & (ex.bakefuda == reading)].set_index("quantity")
    sim = df.set_index("quantity")
    checked = 0
    for q, row in ex.iterrows():
        s = sim.loc[q]
        z = abs(s.estimate - row.value) / max(s.std_error, 1e-12)
        assert s.ci_low - 1e-9 <= row.value <= s.ci_high + 1e-9 or z < 4, (q, s.estimate,
                                                                          row.value)
        checked += 1
    assert checked == 19
    m = api.exact("taoshi").set_index(["quantity", "condition", "bakefuda"])
    s = sim.loc["misdeal_rate"]
    assert s.ci_low <= m.loc[("misdeal_rate", "all_deals", "literal"), "value"] <= s.ci_high


def test_simulate_players_and_fair_burdens():
    for n in (3, 6):
        df = api.simulate("taoshi", rounds=3000, seed=2, rules={"players": n})
        by = df.set_index("quantity")
        assert abs(by.loc["round.score_sum", "estimate"]) < 1e-9  # zero-sum (page: 234)
        fair = sum(by.loc[f"fair_burden.{s}", "estimate"] for s in T.SEATS)
        # with 3 players the actives' scores without burden add up to 234 in a played round
        # and 0 in a botta round, so the fair burdens (E[R] / P(played)) add up to 234
        assert abs(fair - 234) < 1e-6 or n > 3
        if n > 3:
            assert f"seat.seat{n - 1}.join_rate" in by.index
    df = api.simulate("taoshi", rounds=2000, seed=2, rules={"burden": "sudaoshi"})
    by = df.set_index("quantity")
    assert by.loc["round.score_sum", "estimate"] < -90  # 234 - 330 = -96 a played round
    assert df.attrs["rules"].startswith("players=3")


def test_cli(capfd):
    from hanasim.cli import main

    assert main(["simulate", "taoshi", "--players", "4", "--rounds", "2000", "--seed", "1",
                 "--policy", "greedy,random,greedy/join,random/threshold40", "--no-save",
                 "--all"]) == 0
    out = capfd.readouterr().out
    assert "players=4" in out and "fair_burden.dealer" in out and "seat.seat3.join_rate" in out
    assert main(["rules", "taoshi"]) == 0
    out = capfd.readouterr().out
    assert "bakefuda" in out and "steps10" in out and "burden = page" in out
    assert "dekiyaku = page" in out and "tie_winner = first" in out
    assert "seed 003" not in out and "issue" not in out
    assert main(["exact", "taoshi", "--format", "csv"]) == 0
    out = capfd.readouterr().out
    assert "no_number" in out and "teyaku.four_three" in out
    assert main(["compare", "taoshi", "--rule", "burden=steps10|equal", "--rounds", "600",
                 "--seed", "1", "--no-progress"]) == 0
    assert "burden=equal" in capfd.readouterr().out
    for bad, words in ((["--players", "7"], "cannot be 7"),
                       (["--rule", "burden=1,2"], "burden"),
                       (["--policy", "greedy/maybe"], "maybe")):
        assert main(["simulate", "taoshi", *bad, "--rounds", "100", "--no-save"]) == 2
        err = capfd.readouterr().err
        assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def _realise(prof):
    """A concrete 7-card hand with the given profile ((non-red, red non-bakefuda, bakefuda)
    per number held, as ``taoshi._deal_states`` keys it), or None."""
    def cards_at(num, nonred, red, bake):
        suits = {"coins": f"coins.{num}", "cups": f"cups.{num}", "swords": f"swords.{num}",
                 "clubs": f"clubs.{num}"}
        is_bake = {s: bool(D.flags[D.card(c)] & BAKEFUDA) for s, c in suits.items()}
        is_red = {s: bool(D.flags[D.card(c)] & RED) for s, c in suits.items()}
        b = [c for s, c in suits.items() if is_bake[s]]
        r = [c for s, c in suits.items() if is_red[s] and not is_bake[s]]
        n = [c for s, c in suits.items() if not is_red[s]]
        if len(b) < bake or len(r) < red or len(n) < nonred:
            return None
        return b[:bake] + r[:red] + n[:nonred]

    def place(i, used):
        if i == len(prof):
            return []
        for num in range(1, 13):
            if num in used:
                continue
            got = cards_at(num, *prof[i])
            if got is not None:
                rest = place(i + 1, used | {num})
                if rest is not None:
                    return got + rest
        return None

    return place(0, frozenset())


def test_teyaku_kernel_equals_reference_every_profile():
    """Every hand profile the exact DP enumerates (608 of them), realised as a concrete hand:
    the kernel forms exactly the reference's teyaku under every reading and reds_overlap."""
    red, bake = np.uint64(D.flag_mask(RED)), np.uint64(D.flag_mask(BAKEFUDA))
    profiles = {k[3] for k in T._deal_states()}
    assert len(profiles) > 500
    for prof in profiles:
        hand = _realise(prof)
        assert hand is not None and len(hand) == 7, prof
        m = mask(hand)
        tup = N.hand_tuple([D.card(x) for x in hand])
        for ri, reading in enumerate(READINGS):
            for overlap in ("yes", "no"):
                f = int(T.teyaku_formed(m, red, bake, ri, overlap == "no"))
                got = {t for k, t in enumerate(T.TEYAKU) if f >> k & 1}
                assert got == T.teyaku_reference(tup, reading, overlap), (hand, reading, overlap)


def test_not_zero_sum_burdens_are_noted():
    df = api.simulate("taoshi", rounds=500, seed=1, rules={"burden": "sudaoshi"})
    assert any("not zero-sum" in n and "330" in n for n in df.attrs["notes"])
    assert not api.simulate("taoshi", rounds=500, seed=1).attrs["notes"]
    cmp = api.compare("taoshi", rounds=500, seed=1, rules={"burden": ["steps10", "70,78,80"]})
    assert any("burdens do not add up" in n for n in cmp.attrs.get("notes", []))


# ------------------------------------------------------------------ lookahead (engine.lookahead)

def test_policy_parts():
    """CARD[/JOIN[/CLAIM]]: a lookahead CARD joins and claims by lookahead unless a part says
    otherwise, each part on its own; JOIN and CLAIM lookahead need a lookahead CARD."""
    P = T.parse_taoshi_policy
    assert P("lookahead") == P("lookahead:16/lookahead/lookahead")
    assert P("greedy") == P("greedy/threshold40/expose") == P("greedy/threshold40")
    assert P("random") == P("random/random/expose")
    expose = [2] * 6  # random
    rows = T.decode_policies([P(x) for x in ("lookahead:8", "lookahead:8/threshold40",
                                             "lookahead:8/threshold40/expose",
                                             "lookahead:8/join/expose", "greedy",
                                             "greedy/join")], expose)
    assert list(rows[:, T.PC_JOIN]) == [T.JOIN_LOOKAHEAD, T.JOIN_THRESHOLD, T.JOIN_THRESHOLD,
                                        T.JOIN_ALWAYS, T.JOIN_THRESHOLD, T.JOIN_ALWAYS]
    assert list(rows[:, T.PC_EXPOSE]) == [T.EXPOSE_LOOKAHEAD] * 2 + [2] * 4
    assert list(rows[:, T.PC_JPARAM]) == [40] * 6
    assert rows[0, T.PC_CARD] == rows[1, T.PC_CARD] == T.LOOKAHEAD | 8 << T.K_SHIFT
    for bad in ("greedy/lookahead", "random/join/lookahead", "lookahead/join/always",
                "lookahead/threshold40/expose/x", "lookahead:0", "lookahead/maybe"):
        with pytest.raises(ValueError):
            P(bad)


def seat_hands(mine, field, seat, n, rng):
    """Every seat's hand (``seat`` holds ``mine``, the others a random deal of the rest), then
    the field."""
    rest = [c for c in range(48) if not (int(mask(mine)) | int(mask(field))) >> c & 1]
    r = [int(x) for x in rng.permutation(rest)]
    hands = np.zeros(T.MAX_PLAYERS + 1, np.uint64)
    for o in range(n):
        hands[o] = mask(mine) if o == seat else np.uint64(sum(1 << c for c in r[:7]))
        r = r if o == seat else r[7:]
    hands[n] = mask(field)
    return hands


def test_lookahead_join_and_drop(heavy):
    """Four players, the dealer speaks first.  Seven coins of 3 to 9 (42 card points, no
    teyaku) on a field of none of those numbers: greedy's threshold (40) joins, but the hand
    captures nothing on the field and gives its points away (joining is worth about -38,
    dropping about -1, a botta's payments): lookahead drops.  A weak hand (23 points) that
    greedy drops: lookahead drops too, unless dropping costs 3 x 100 (``drop_fee=100``): then
    it joins.  The other hands are dealt again from the unseen cards, so they do not move the
    choice."""
    strong = ["coins.3", "coins.4", "coins.5", "coins.6", "coins.7", "coins.8", "coins.9"]
    weak = ["swords.1", "swords.3", "swords.4", "clubs.3", "clubs.4", "clubs.5", "clubs.10"]
    field_s = ["cups.1", "cups.10", "cups.11", "cups.12", "coins.10", "coins.11"]
    field_w = ["coins.6", "cups.7", "coins.8", "cups.9", "coins.11", "cups.12"]
    res = np.zeros(T.R_N, np.int64)
    rng = np.random.default_rng(1)
    for rules, mine, field, want in (({}, strong, field_s, False),
                                     ({}, weak, field_w, False),
                                     ({"drop_fee": 100}, weak, field_w, True)):
        tb = T.lower(make_rules(T.TaoshiRules, {"players": 4, **rules}))
        assert kernel_best(mine) == "none"
        greedy = int(D.points[[D.card(x) for x in mine]].sum()) >= T.JOIN_DEFAULT_K
        assert greedy == (mine is strong)
        for trial in range(3):
            hands = seat_hands(mine, field, 0, 4, rng)
            assert T.lookahead_join(tb, hands, 0, res, 7, 16) == want


def test_lookahead_claims(heavy):
    """Claiming by lookahead: the mean round score with the claim against without it.  Seven
    Reds (a botta: 2 x 100 from the other two) and a Triplet (2 x 12 more) are claimed; after
    an earlier player's botta a Triplet gains nothing (the round ends, only botta is paid) and
    stays hidden (a tie hides), but a second botta is claimed (both are paid)."""
    tb = T.lower(make_rules(T.TaoshiRules, {}))
    reds = ["swords.1", "swords.3", "swords.4", "swords.5", "swords.6", "swords.7", "coins.2"]
    reds2 = ["swords.8", "swords.9", "swords.10", "swords.11", "swords.12", "cups.2", "clubs.2"]
    triplet = ["coins.9", "cups.9", "clubs.9", "coins.3", "cups.4", "coins.5", "cups.6"]
    assert kernel_best(reds) == kernel_best(reds2) == "seven_reds"
    assert kernel_best(triplet) == "triplet"
    rng = np.random.default_rng(2)
    for first, second in ((reds, triplet), (reds, reds2)):
        rest = [c for c in range(48) if c not in {D.card(x) for x in first + second}]
        while True:
            r = [int(x) for x in rng.permutation(rest)]
            if not T.has_full_nibble(np.uint64(sum(1 << c for c in r[7:13]))):
                break
        st = np.zeros(T.ST_N, np.uint64)
        st[0], st[1] = mask(first), mask(second)
        st[2] = np.uint64(sum(1 << c for c in r[:7]))
        st[3] = np.uint64(sum(1 << c for c in r[7:13]))
        pbuf = np.array(r[13:], np.int8)
        v2 = 100 if second is reds2 else 12
        res = np.zeros(T.R_N, np.int64)
        assert T.lookahead_claim(tb, st, pbuf, 0, res, 3, 8, 100)
        assert T.lookahead_claim(tb, st, pbuf, 1, res, 3, 8, v2)
        res[T.R_YAKU] = 100  # position 0 claimed its botta
        assert T.lookahead_claim(tb, st, pbuf, 1, res, 3, 8, v2) == (v2 == 100)


# ------------------------------------------------------------------ a claim shows cards
# "Teyaku Showdown": "For teyaku in Group A or C, show all cards that are part of the
# combination.  For teyaku in Group B, only the Red cards need to be shown."  The shown cards
# become the claimer's known mask in the play state, which a lookahead opponent keeps in that
# hand when it determinises.

def kernel_shown(names, reading="literal", overlap="yes"):
    tb = T.lower(make_rules(T.TaoshiRules, {"bakefuda": reading, "reds_overlap": overlap}))
    h = mask(names)
    args = (np.uint64(tb.params[T.P_RED]), np.uint64(tb.params[T.P_BAKE]),
            READINGS.index(reading), overlap == "no")
    t = T.best_teyaku(T.teyaku_formed(h, *args), tb.values)
    return T.TEYAKU[t], T.shown_cards(h, t, *args)


def ref_shown(cards, t, reading, overlap):
    """Plain Python: Group B, the hand's reds; A and C, the fewest of the hand's cards that
    form ``t`` by themselves (``teyaku_reference``), then the lowest mask."""
    from itertools import combinations

    if t in T.REDS_NEEDED:
        return sum(1 << c for c in cards if D.flags[c] & RED)
    for k in range(1, len(cards) + 1):
        hits = [sum(1 << c for c in sub) for sub in combinations(sorted(cards), k)
                if t in T.teyaku_reference(N.hand_tuple(list(sub)), reading, overlap)]
        if hits:
            return min(hits)
    raise AssertionError(f"{t} not formed by {cards}")


def test_shown_cards_hand_built():
    """Group A: a Triplet shows its three cards; when a hand forms it two ways with as few
    cards (three natural 9s, or two 7s and kiribake wild), the lower mask (the 9s: cards 32-35
    against kiribake, 47).  Group C: Four Reds + Triplet (three 2s, all red, and a Sword) shows
    those four, not the rest.  Group B: Four Reds shows the four reds only."""
    triplet = ["coins.9", "cups.9", "clubs.9", "coins.3", "cups.4", "coins.5", "cups.6"]
    assert kernel_shown(triplet) == ("triplet", mask(["coins.9", "cups.9", "clubs.9"]))
    two_ways = ["coins.7", "cups.7", "coins.9", "cups.9", "clubs.12", "coins.10", "cups.11"]
    assert kernel_shown(two_ways) == ("triplet", mask(["coins.7", "cups.7", "clubs.12"]))
    # under everywhere the kiribake also pairs a 10 or an 11: Three Pairs, with the 10
    assert kernel_shown(two_ways, "everywhere") == ("three_pairs", mask(two_ways[:6]))
    c = ["coins.2", "cups.2", "clubs.2", "swords.5", "coins.7", "cups.8", "coins.10"]
    assert kernel_shown(c) == ("four_reds_triplet", mask(c[:4]))
    b = ["swords.3", "swords.4", "coins.2", "swords.7", "coins.9", "cups.10", "coins.11"]
    assert kernel_shown(b) == ("four_reds", mask(b[:4]))
    b7 = ["swords.1", "swords.3", "swords.4", "swords.5", "swords.6", "swords.7", "coins.2"]
    assert kernel_shown(b7) == ("seven_reds", mask(b7))


@pytest.mark.parametrize("reading", READINGS)
def test_shown_cards_equal_reference(reading):
    """The kernel's shown cards against the plain-Python reference on random hands holding a
    teyaku (bakefuda-rich hands drawn often), both reds_overlap readings."""
    rng = np.random.default_rng(READINGS.index(reading) + 40)
    bakes = [D.card("clubs.1"), D.card("clubs.12")]
    seen = set()
    done = 0
    while done < 60:
        rest = [c for c in range(48) if c not in bakes]
        nb = int(rng.integers(0, 3))
        cards = [int(x) for x in rng.choice(bakes, nb, replace=False)] + \
            [int(x) for x in rng.choice(rest, 7 - nb, replace=False)]
        overlap = ("yes", "no")[done % 2]
        names = [D.names[c] for c in cards]
        tb = T.lower(make_rules(T.TaoshiRules, {"bakefuda": reading, "reds_overlap": overlap}))
        h = np.uint64(sum(1 << c for c in cards))
        args = (np.uint64(tb.params[T.P_RED]), np.uint64(tb.params[T.P_BAKE]),
                READINGS.index(reading), overlap == "no")
        t = T.best_teyaku(T.teyaku_formed(h, *args), tb.values)
        if t == T.NONE:
            continue
        got = int(T.shown_cards(h, t, *args))
        assert got == ref_shown(cards, T.TEYAKU[t], reading, overlap), (names, T.TEYAKU[t])
        assert got & ~int(h) == 0
        seen.add(T.TEYAKU[t])
        done += 1
    assert len(seen) >= 4


def claimed_state(rng, claimer):
    """A play state: position 0 holds ``claimer`` with its claim's shown cards known, the
    other two hands, the field and the draw pile a random deal of the rest."""
    rest = [c for c in range(48) if c not in {D.card(x) for x in claimer}]
    while True:
        r = [int(x) for x in rng.permutation(rest)]
        if not T.has_full_nibble(np.uint64(sum(1 << c for c in r[14:20]))):
            break
    st = np.zeros(T.ST_N, np.uint64)
    st[0] = mask(claimer)
    st[1] = np.uint64(sum(1 << c for c in r[:7]))
    st[2] = np.uint64(sum(1 << c for c in r[7:14]))
    st[3] = np.uint64(sum(1 << c for c in r[14:20]))
    return st, np.array(r[20:], np.int8)


def test_determinisations_keep_shown_cards():
    """A lookahead opponent (positions 1 and 2) determinising after position 0 claimed a
    Triplet (Group A) or Four Reds (Group B): every determinised hand of position 0 keeps the
    shown cards and has 7 cards; its other cards are dealt again (some leave it); the
    opponent's own hand, the field and the set of cards stay.  Without the known mask (the
    kernel before the claim recorded it) the shown cards leave the hand too."""
    rng = np.random.default_rng(8)
    for hand in (["coins.9", "cups.9", "clubs.9", "coins.3", "cups.4", "coins.5", "cups.6"],
                 ["swords.3", "swords.4", "coins.2", "swords.7", "coins.9", "cups.10",
                  "coins.11"]):
        _t, shown = kernel_shown(hand)
        st, pbuf = claimed_state(rng, hand)
        every = int(st[0] | st[1] | st[2] | st[3]) | sum(1 << int(c) for c in pbuf)
        for known in (shown, np.uint64(0)):
            st[T.state.known(T.ACTIVE, 0)] = known
            for j in (1, 2):
                states, piles = T.lookahead_views(st, pbuf, j, 11 + j, 200)
                h0 = [int(x) for x in states[:, 0]]
                assert all(h.bit_count() == 7 for h in h0)
                assert (states[:, j] == st[j]).all() and (states[:, 3] == st[3]).all()
                for i in range(len(h0)):
                    cards = int(states[i, 0] | states[i, 1] | states[i, 2] | states[i, 3])
                    assert cards | sum(1 << int(c) for c in piles[i]) == every
                kept = all(h & int(shown) == int(shown) for h in h0)
                assert kept == (known == shown)
                assert any(h & int(st[0]) & ~int(shown) != int(st[0]) & ~int(shown)
                           for h in h0)


def test_lookahead_round_records_shown_cards(heavy):
    """The whole round (``play_round`` with a lookahead context): every claim sets the
    claimer's known mask to exactly ``shown_cards`` of its dealt hand and best teyaku; no claim,
    no known card.  Players: lookahead:2 card play, claiming always (4 players: join/drop by
    the threshold)."""
    P = T.parse_taoshi_policy
    seen = set()
    for players in (3, 4):
        tb = T.lower(make_rules(T.TaoshiRules, {"players": players}))
        red, bake = np.uint64(tb.params[T.P_RED]), np.uint64(tb.params[T.P_BAKE])
        pol = T.decode_policies([P("lookahead:2/threshold40/expose")] * 6, [1] * 6)
        for seed in range(60):
            hands, st, res = T.lookahead_round(tb, pol, seed % players, seed)
            for j in range(T.ACTIVE):
                s = res[T.R_ACT_SEAT + j]
                t = res[T.R_TEY + s]
                known = st[T.state.known(T.ACTIVE, j)]
                if res[T.R_CLAIM + s]:
                    seen.add(T.TEYAKU[t])
                    assert known == T.shown_cards(hands[s], t, red, bake, 0, False)
                    assert known != 0 and known & ~hands[s] == 0
                else:
                    assert known == 0
    assert {"triplet", "four_reds"} <= seen


# ------------------------------------------------------------------ the rule page's scoring
# The Taoshi rule page, "End of Round and Scoring": "(captured card points) + (2 x captured yaku
# points) - (opponents' captured yaku points) - (point burden)", burdens 72 / 78 / 84 (dealer,
# right, left); "Dekiyaku": Four '2's (12, any player), Four '3's (12, only the player to the
# dealer's left).

def test_burden_values():
    """The default is the rule page's 72/78/84 (sum 234); each named reading's values."""
    r = make_rules(T.TaoshiRules, {})
    assert r.burden == "page" and T.burdens_of(r) == (72, 78, 84) and sum(T.burdens_of(r)) == 234
    want = {"page": (72, 78, 84), "steps10": (68, 78, 88), "equal": (78, 78, 78),
            "sudaoshi": (100, 110, 120),
            "proportional": (Fraction(780, 11), Fraction(78), Fraction(936, 11))}
    for name, vals in want.items():
        rr = make_rules(T.TaoshiRules, {"burden": name})
        assert T.burdens_of(rr) == vals
        unit = T.burden_unit(rr)
        assert list(T.lower(rr).burden) == [int(v * unit) for v in vals]
    assert list(T.lower(r).burden) == [72, 78, 84]
    assert r.dekiyaku == "page" and r.botta_teyaku == "void"
    assert r.forced_out_botta == "lost" and r.tie_winner == "first"
    for bad in ({"dekiyaku": "sudaoshi"}, {"botta_teyaku": "yes"},
                {"forced_out_botta": "paid"}, {"tie_winner": "dealer"}):
        with pytest.raises(RuleError):
            make_rules(T.TaoshiRules, bad)


def split_piles(first, third):
    """Three score piles (active positions 0, 1, 2) holding all 48 cards: ``first`` and
    ``third`` (card names) go to positions 0 and 2, the other cards of a number other than 2
    and 3 to position number % 3, those of 2 and 3 spread over positions 1, 2, 0, 1 (so no
    other four of a 2 or a 3 forms)."""
    piles = [set(D.card(x) for x in first), set(), set(D.card(x) for x in third)]
    taken = piles[0] | piles[2]
    spread = {2: 0, 3: 0}
    for c in range(48):
        m = c // 4 + 1
        if c in taken:
            continue
        if m in spread:
            piles[(spread[m] + 1) % 3].add(c)
            spread[m] += 1
        else:
            piles[m % 3].add(c)
    return piles


def settle(piles, yaku=(0, 0, 0), rules=None, active=(0, 1, 2), n=3):
    """``settle_play`` on hand-built final piles: (res, tb)."""
    tb = T.lower(make_rules(T.TaoshiRules, dict(rules or {}, players=n)))
    res = np.zeros(T.R_N, np.int64)
    for s in range(T.MAX_PLAYERS):
        res[T.R_POS + s] = -1
    for j, s in enumerate(active):
        res[T.R_ACT_SEAT + j] = s
        res[T.R_POS + s] = j
        res[T.R_YAKU + j] = yaku[j]
    st = np.zeros(T.ST_N, np.uint64)
    for j in range(3):
        st[T.ACTIVE + 1 + j] = np.uint64(sum(1 << c for c in piles[j]))
    T.settle_play(st, res, n, tb)
    return res, tb


TWOS = ["coins.2", "cups.2", "swords.2", "clubs.2"]
THREES = ["coins.3", "cups.3", "swords.3", "clubs.3"]


@pytest.mark.parametrize("case", [
    # (cards of position 0, cards of position 2, dekiyaku bits per position)
    (TWOS, [], (1, 0, 0)),                  # Four '2's by the dealer: any player scores it
    ([], TWOS, (0, 0, 1)),                  # ... by the left
    ([], THREES, (0, 0, 2)),                # Four '3's by the dealer's left
    (THREES, [], (0, 0, 0)),                # Four '3's by the dealer: not the left, no score
    ([], TWOS + THREES, (0, 0, 3)),         # the left holds both
    (TWOS[:3], THREES[:3] + TWOS[3:], (0, 0, 0)),  # split fours score nothing
])
def test_dekiyaku_hand_built(case):
    """Each dekiyaku in a hand-built final position: the bits, and the scores exactly (card
    points + 2 x own dekiyaku - the others' - burden 72/78/84); the plain-Python reference's
    dekiyaku agree."""
    first, third, bits = case
    piles = split_piles(first, third)
    res, _ = settle(piles)
    assert [int(res[T.R_DEKI + j]) for j in range(3)] == list(bits)
    assert [N.dekiyaku(piles[j], j, N.DEFAULTS) for j in range(3)] == list(bits)
    own = [12 * bin(b).count("1") for b in bits]
    for j, b in enumerate((72, 78, 84)):
        pts = sum(int(D.points[c]) for c in piles[j])
        assert res[T.R_PTS + j] == pts
        assert res[T.R_SCORE + j] == pts + 2 * own[j] - (sum(own) - own[j]) - b
    assert sum(int(res[T.R_SCORE + j]) for j in range(3)) == 0
    off, _ = settle(piles, rules={"dekiyaku": "none"})
    assert [int(off[T.R_DEKI + j]) for j in range(3)] == [0, 0, 0]
    assert [int(off[T.R_RAW + j]) for j in range(3)] == [int(res[T.R_PTS + j]) for j in range(3)]


def test_four_threes_right_never_scores():
    """Four '3's captured by the right (position 1): not the dealer's left, no score; the same
    pile scores when it is the left's."""
    piles = split_piles([], [])
    for c in range(48):
        if D.month[c] == 3:
            for p in piles:
                p.discard(c)
            piles[1].add(c)
    res, _ = settle(piles)
    assert [int(res[T.R_DEKI + j]) for j in range(3)] == [0, 0, 0]
    res, _ = settle([piles[0], piles[2], piles[1]])
    assert [int(res[T.R_DEKI + j]) for j in range(3)] == [0, 0, 2]


def test_dekiyaku_with_teyaku_and_four_players():
    """Four players, the dealer dropped: seats 1, 2, 3 play in that order and carry the
    dealer's, right's and left's burdens; seat 3 (the third to play) is the dealer's left for
    Four '3's.  Dekiyaku and claimed teyaku add up: own yaku x 2 - the others'."""
    piles = split_piles(TWOS, THREES)
    res, _ = settle(piles, yaku=(0, 36, 12), active=(1, 2, 3), n=4)
    assert [int(res[T.R_DEKI + j]) for j in range(3)] == [1, 0, 2]
    own = [12, 36, 24]
    for j, (s, b) in enumerate(zip((1, 2, 3), (72, 78, 84))):
        pts = sum(int(D.points[c]) for c in piles[j])
        assert res[T.R_SCORE + s] == pts + 2 * own[j] - (sum(own) - own[j]) - b
    assert res[T.R_SCORE + 0] == 0


def test_rollout_value_is_the_score():
    """The lookahead's rollout value (``round_value``) of each position is the score
    ``settle_play`` gives it, dekiyaku included (in 1/unit points, no fees); a botta round's
    value is its payments, and under botta_teyaku=paid the other claims' too."""
    piles = split_piles(TWOS, THREES)
    for rules in ({}, {"burden": "proportional"}, {"dekiyaku": "none"}):
        res, tb = settle(piles, yaku=(12, 0, 36), rules=rules)
        st = np.zeros(T.ST_N, np.uint64)
        for j in range(3):
            st[T.ACTIVE + 1 + j] = np.uint64(sum(1 << c for c in piles[j]))
        claims = res.copy()
        for j in range(3):
            assert T.lookahead_value(tb, st, j, claims) == res[T.R_SCORE + j], (rules, j)
    for paid in ("void", "paid"):
        res = botta_res([100, 12, 36], n=3)
        tb = T.lower(make_rules(T.TaoshiRules, {"botta_teyaku": paid}))
        want = botta_scores([100, 12, 36], 3, paid)
        T.settle_botta(res, 3, tb)
        for j in range(3):
            assert res[T.R_SCORE + j] == want[j]
            assert T.lookahead_value(tb, np.zeros(T.ST_N, np.uint64), j, res) == want[j]


def botta_res(yaku, n, forced=()):
    """A round's result slots before ``settle_botta``: seats 0-2 active with claims ``yaku``;
    the other seats forced out, those in ``forced`` claiming a botta."""
    res = np.zeros(T.R_N, np.int64)
    for s in range(T.MAX_PLAYERS):
        res[T.R_POS + s] = -1
    for j in range(3):
        res[T.R_ACT_SEAT + j] = j
        res[T.R_POS + j] = j
        res[T.R_YAKU + j] = yaku[j]
    for s in range(3, n):
        res[T.R_CHOICE + s] = T.CH_FORCED_OUT
        res[T.R_CLAIM + s] = s in forced
    return res


def botta_scores(yaku, n, paid, forced=()):
    """By hand: each botta holder gets 100 from every other seated player; under paid the
    other claims are paid by each other active player."""
    out = [0] * n
    for h in [j for j in range(3) if yaku[j] == 100] + list(forced):
        for s in range(n):
            out[s] += 100 * (n - 1) if s == h else -100
    if paid == "paid":
        y = [v if v != 100 else 0 for v in yaku]
        for j in range(3):
            out[j] += 2 * y[j] - (sum(y) - y[j])
    return out


def test_botta_teyaku_void_or_paid():
    """A botta with a Triplet (12) and Three Pairs (36) claimed beside it, 4 seated: void
    (default) pays only the botta (+300, -100 each); paid adds the teyaku: the botta holder
    pays 12 + 36, the Triplet gets 2 x 12 - 36, the Three Pairs 2 x 36 - 12."""
    for paid, want in (("void", [300, -100, -100, -100]), ("paid", [252, -112, -40, -100])):
        tb = T.lower(make_rules(T.TaoshiRules, {"players": 4, "botta_teyaku": paid}))
        res = botta_res([100, 12, 36], 4)
        T.settle_botta(res, 4, tb)
        assert [int(res[T.R_SCORE + s]) for s in range(4)] == want
        assert want == botta_scores([100, 12, 36], 4, paid)
        assert sum(want) == 0


def test_forced_out_botta_settled_and_wins():
    """A forced-out player's claimed botta (5 seated): it gets 100 from each of the other four,
    active or not, and wins the round; beside an active botta both are paid."""
    tb = T.lower(make_rules(T.TaoshiRules, {"players": 5, "forced_out_botta": "claimed"}))
    res = botta_res([12, 0, 0], 5, forced=(4,))
    T.settle_botta(res, 5, tb)
    assert [int(res[T.R_SCORE + s]) for s in range(5)] == [-100, -100, -100, -100, 400]
    T.round_winner(res, 5, T.TIE_FIRST, np.ones(1, np.uint64))
    assert res[T.R_WINNER] == 4 and res[T.R_TIED] == 0
    res = botta_res([0, 100, 0], 5, forced=(3,))
    T.settle_botta(res, 5, tb)
    assert [int(res[T.R_SCORE + s]) for s in range(5)] == [-200, 300, -200, 300, -200]
    for tie, w in ((T.TIE_FIRST, 1), (T.TIE_LAST, 3)):
        T.round_winner(res, 5, tie, np.ones(1, np.uint64))
        assert res[T.R_WINNER] == w and res[T.R_TIED] == 1


def test_tie_winner_hand_built():
    """Positions 0 and 2 share the greatest score: first -> position 0's seat, last -> position
    2's, random -> either (both over many draws, and as the reference draws)."""
    res = botta_res([0, 0, 0], 3)
    res[T.R_BOTTA] = 0
    res[T.R_SCORE:T.R_SCORE + 3] = [10, -20, 10]
    T.round_winner(res, 3, T.TIE_FIRST, np.ones(1, np.uint64))
    assert res[T.R_WINNER] == 0 and res[T.R_TIED] == 1
    T.round_winner(res, 3, T.TIE_LAST, np.ones(1, np.uint64))
    assert res[T.R_WINNER] == 2
    got = set()
    for k in range(40):
        rng = np.array([stream_state(np.uint64(k), np.uint64(0))], np.uint64)
        ref = rng.copy()
        T.round_winner(res, 3, T.TIE_RANDOM, rng)
        got.add(int(res[T.R_WINNER]))
        assert int(res[T.R_WINNER]) == [0, 2][N.below(ref, 2)]
        assert rng[0] == ref[0]
    assert got == {0, 2}
    res[T.R_SCORE + 2] = 9  # no tie: no draw
    rng = np.ones(1, np.uint64)
    T.round_winner(res, 3, T.TIE_RANDOM, rng)
    assert res[T.R_WINNER] == 0 and res[T.R_TIED] == 0 and rng[0] == 1


def find_round(rules, rows, n, want, tries=6000, seed=7):
    """The first round (dealer i % n, stream i of ``seed``) whose kernel result satisfies
    ``want(res)``, or None."""
    for i in range(tries):
        res, _, _ = run_kernel(rules, rows, i % n, seed, i)
        if want(res):
            return i
    return None


def test_forced_out_botta_in_play():
    """Six players who all join: seats 0-2 play, 3-5 are forced out.  A round where a
    forced-out seat holds a botta (100) and no active player claims one: lost (default) plays
    the round; claimed ends it with that seat paid 100 by the five others, as the reference
    does field by field."""
    rows = pol_rows(["random/join"] * 6, [1] * 6)
    tb = T.lower(make_rules(T.TaoshiRules, {"players": 6}))

    def forced_botta(res):
        return (not res[T.R_BOTTA]
                and any(tb.values[res[T.R_TEY + s]] == 100 for s in range(3, 6)))
    i = find_round({"players": 6}, rows, 6, forced_botta, tries=20000)
    assert i is not None
    lost, _, _ = run_kernel({"players": 6}, rows, i % 6, 7, i)
    rules = {"players": 6, "forced_out_botta": "claimed"}
    res, d1, r1 = run_kernel(rules, rows, i % 6, 7, i)
    want, d2, r2 = run_naive(rules, rows, i % 6, 7, i)
    holder = [s for s in range(3, 6) if tb.values[res[T.R_TEY + s]] == 100][0]
    assert lost[T.R_BOTTA] == 0 and lost[T.R_CLAIM + holder] == 0
    assert res[T.R_BOTTA] == 1 and res[T.R_CLAIM + holder] == 1
    assert res[T.R_RAW + holder] == 500
    assert all(res[T.R_RAW + s] == -100 for s in range(6) if s != holder)
    assert res[T.R_WINNER] == holder
    assert (d1, r1) == (d2, r2)
    assert [int(res[T.R_SCORE + s]) for s in range(6)] == want["score"]
    assert [int(res[T.R_CLAIM + s]) for s in range(6)] == want["claim"]
    assert int(res[T.R_WINNER]) == want["winner"] and want["botta"] == 1


def test_botta_teyaku_paid_in_play():
    """A round with a claimed botta and another claimed teyaku (5 seated): void pays only the
    botta; paid adds the teyaku among the actives; the reference agrees."""
    rows = pol_rows(["random/join"] * 6, [1] * 6)

    def both(res):
        ys = [int(res[T.R_YAKU + j]) for j in range(3)]
        return res[T.R_BOTTA] and any(0 < y < 100 for y in ys)
    i = find_round({"players": 5}, rows, 5, both, tries=20000, seed=11)
    assert i is not None
    void, _, _ = run_kernel({"players": 5}, rows, i % 5, 11, i)
    rules = {"players": 5, "botta_teyaku": "paid"}
    res, _, _ = run_kernel(rules, rows, i % 5, 11, i)
    want, _, _ = run_naive(rules, rows, i % 5, 11, i)
    ys = [int(res[T.R_YAKU + j]) for j in range(3)]
    hand = botta_scores(ys, 5, "paid")
    order = [int(res[T.R_ACT_SEAT + j]) for j in range(3)]
    others = [s for s in range(5) if s not in order]
    assert [int(res[T.R_SCORE + s]) for s in order + others] == hand
    assert [int(void[T.R_SCORE + s]) for s in order + others] == botta_scores(ys, 5, "void")
    assert [int(res[T.R_SCORE + s]) for s in range(5)] == want["score"]


def test_tie_winner_in_play():
    """Rounds whose greatest score is shared: the winner by each tie_winner reading equals the
    reference, and last differs from first."""
    rows = pol_rows(["random"] * 6, [1] * 6)
    i = find_round({}, rows, 3, lambda res: res[T.R_TIED] == 1, tries=3000, seed=3)
    assert i is not None
    winners = {}
    for tie in ("first", "last", "random"):
        rules = {"tie_winner": tie}
        res, d1, r1 = run_kernel(rules, rows, i % 3, 3, i)
        want, d2, r2 = run_naive(rules, rows, i % 3, 3, i)
        assert (d1, r1) == (d2, r2) and int(res[T.R_WINNER]) == want["winner"]
        winners[tie] = int(res[T.R_WINNER])
    assert winners["first"] != winners["last"]


def test_page_scoring_in_simulation():
    """The default table: zero-sum (72 + 78 + 84 = 234), the dekiyaku rates and scores are
    reported, only the left scores Four '3's; dekiyaku=none reports none."""
    by = api.simulate("taoshi", rounds=3000, seed=4, policy="greedy").set_index("quantity")
    assert abs(by.loc["round.score_sum", "estimate"]) < 1e-9
    assert by.loc["dekiyaku.four_twos", "estimate"] > 0.05
    assert by.loc["dekiyaku.four_threes", "estimate"] > 0.02
    assert by.loc["dekiyaku_score.left", "estimate"] > by.loc["dekiyaku_score.right",
                                                               "estimate"]
    off = api.simulate("taoshi", rounds=500, seed=4, policy="greedy",
                       rules={"dekiyaku": "none"}).set_index("quantity")
    assert off.loc["dekiyaku.four_twos", "estimate"] == 0
    assert off.loc["dekiyaku_score.left", "estimate"] == 0
