"""Koi-koi (seed 004_3c58717347331a26 and the koi-koi rule page): the kernel against the
plain-Python reference ``tests/naive_koikoi.py`` on the same deals and random draws, hand-built
positions for every decision path, multiplier, sake-cup rule and preset yaku table, the deal
(misdeals, lucky hands, field fours) against exact fractions, invariants over random play, the
rules' contradictions, policies, presets and the command line.
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import hanasim
import naive
import naive_koikoi as NK
from hanasim.cli import main as cli_main
from hanasim.decks import HANAFUDA as D
from hanasim.engine.deal import deal
from hanasim.games import koikoi as K
from hanasim.policies import (DEC_CONTINUE, DEC_RANDOM, DEC_STOP, DEC_THRESHOLD, GREEDY, RANDOM,
                              parse_policy, split_policy)
from hanasim.rules import RuleError, make_rules

_TB = {}


def tables(**given):
    key = tuple(sorted(given.items()))
    if key not in _TB:
        rules = make_rules(K.KoikoiRules, given)
        tb, names = K.lower(rules, checked=True)
        _TB[key] = (rules, tb, names)
    return _TB[key]


def month_mask(m):
    return np.uint64(0xF << 4 * (m - 1))


def bits_to_set(x):
    x = int(np.uint64(np.int64(x)))
    return {i for i in range(64) if x >> i & 1}


def res_facts(res, names):
    def hit_names(h):
        return {names[i] for i in range(len(names)) if int(h) >> i & 1}

    return dict(
        score=[int(res[K.R_SCORE]), int(res[K.R_SCORE + 1])],
        winner=int(res[K.R_WINNER]), end=int(res[K.R_END]), base=int(res[K.R_BASE]),
        points=int(res[K.R_POINTS]), hits=hit_names(res[K.R_HITS]),
        collected=int(res[K.R_COLLECTED]), kept=int(res[K.R_KEPT]), paid=int(res[K.R_PAID]),
        calls=[int(res[K.R_CALLS]), int(res[K.R_CALLS + 1])],
        decisions=int(res[K.R_DECISIONS]), turns=int(res[K.R_TURNS]),
        field_brights=int(res[K.R_FIELD_BRIGHTS]),
        lucky=[int(res[K.R_LUCKY]), int(res[K.R_LUCKY + 1])],
        captured=[bits_to_set(res[K.R_CAPTURED]), bits_to_set(res[K.R_CAPTURED + 1])],
        field=bits_to_set(res[K.R_FIELD]), top=int(res[K.R_TOP]),
        hands=bits_to_set(res[K.R_HANDS]),
    )


def kernel_round(tb, order, dealer, rmonth, policy, decide, expose, seed):
    order = np.asarray(order, dtype=np.int8)
    groups = np.zeros(3, np.uint64)
    deal(order, tb.pattern, groups)
    rng = np.array([seed], dtype=np.uint64)
    res = np.zeros(K.R_N, np.int64)
    K.play_dealt(rng, order, groups, np.zeros(K.KS_N, np.uint64), tb,
                 np.array(policy, np.int64), np.array(decide, np.int64),
                 np.array(expose, np.int64), dealer, month_mask(rmonth), res)
    return res, int(rng[0])


# ================================================================ the reference, same deals
RULE_SETS = [
    {},
    K.PRESETS["modern"],
    K.PRESETS["nintendo"],
    K.PRESETS["koikoi-japan"],
    dict(yaku="older", viewing="weather", yaku_counting="best", koikoi_bonus="own_x2",
         field_multiplier="double", exhausted="last_yaku", sake_cup="animal_or_chaff"),
    dict(meld_growth="all", scoring="zero_sum", opponent_stops="keeps",
         koikoi_bonus="anyone_x2", exhausted="dealer", dealer_privilege=6, draw_dealer="pass"),
    dict(yaku="modern", lucky_hands="stack12", both_lucky="dealer",
         field_four="dealer_captures", viewing="need_other", koikoi_bonus="calls_plus_one",
         koikoi_min=3, yaku_counting="both_players", cards_of_month="on"),
    dict(yaku="koikoi_japan", field_four="dealer_wins", lucky_hands="win6", scoring="zero_sum",
         sake_cup="animal_or_chaff", yaku_counting="best", viewing="on", viewing_points=3,
         decision_on="bigger", last_turn="stop", seven_double="on"),
    dict(hand_size=10, meld_growth="counts", koikoi_bonus="add_per_call", decision_on="bigger",
         field_pairs="misdeal", sake_cup="animal_and_chaff"),
    dict(lucky_hands="misdeal", yaku="nintendo", viewing="on", viewing_after_call="3",
         exhausted="last_yaku", opponent_stops="keeps"),
]
POLICY_SETS = [("random", "random"), ("greedy/stop", "greedy"), ("random/continue2", "greedy/threshold5"),
               ("greedy/continue", "random/threshold9"), ("greedy/random", "random/stop"),
               ("greedy/threshold3", "greedy/continue0")]
EXPOSES = [(1, 1), (2, 2), (0, 1), (2, 0)]


def packed(pols):
    ids = [split_policy(parse_policy(p)) for p in pols]
    return [c for c, _, _ in ids], [[d, k] for _, d, k in ids]


def slanted_order(gen, rules):
    """A random deck order, sometimes rearranged so that a hand or the field holds a complete
    month or four pairs (rare in a uniform deal, but every rule about them must be played)."""
    order = [int(c) for c in gen.permutation(48)]
    r = NK.full_rules(rules)
    h = r["hand_size"] // 2
    seats = {"o": list(range(0, h)) + list(range(h + h + 4, 2 * h + h + 4)),
             "d": list(range(h, 2 * h)) + list(range(3 * h + 4, 4 * h + 4)),
             "f": list(range(2 * h, 2 * h + 4)) + list(range(4 * h + 4, 4 * h + 8))}
    if gen.random() < 0.35:
        months = [int(m) for m in gen.permutation(12)]
        # one group, or both hands (both players holding a lucky hand)
        groups = ["odf"[int(gen.integers(3))]] if gen.random() < 0.7 else ["o", "d"]
        for g in groups:
            if gen.random() < 0.6:  # four of a kind
                m = months.pop()
                cards = [4 * m + j for j in range(4)]
            else:  # four pairs
                pair_months = [months.pop() for _ in range(4)]
                cards = [4 * m + j for m in pair_months for j in (0, 1)]
            for pos, card in zip(seats[g], cards):
                i = order.index(card)
                order[i], order[pos] = order[pos], order[i]
    return order


def compare_round(order, dealer, rmonth, rule_idx, pols, expose, seed):
    rules, tb, names = tables(**RULE_SETS[rule_idx])
    card, decide = packed(pols)
    res, k_state = kernel_round(tb, order, dealer, rmonth, card, decide, expose, seed)
    got = res_facts(res, names)
    rng = np.array([seed], dtype=np.uint64)
    want = NK.play_round(order, dealer, rmonth, card, [tuple(x) for x in decide], expose,
                         rules, tb.weights, rng)
    ctx = dict(order=order, dealer=dealer, month=rmonth, rules=RULE_SETS[rule_idx], pols=pols,
               expose=expose, seed=seed)
    for key in want:
        assert got[key] == want[key], (key, got[key], want[key], ctx)
    assert k_state == int(rng[0]), ("random draws consumed differently", ctx)
    # the reference's own sanity: every card in one place
    places = want["captured"][0] | want["captured"][1] | want["field"] | want["hands"]
    assert len(places) + len(set(order[want["top"]:]) - places) == 48
    if NK.full_rules(rules)["scoring"] == "zero_sum":
        assert sum(want["score"]) == 0
    return want


def test_reference_many_deals():
    gen = np.random.default_rng(20250110)
    seen = dict(ends=set(), hits=set(), kept=0, calls=0, paid=0, lucky=0)
    done = 0
    while done < 1500:
        rule_idx = done % len(RULE_SETS)
        order = slanted_order(gen, RULE_SETS[rule_idx])
        if NK.is_misdeal(order, RULE_SETS[rule_idx]):
            continue
        pols = POLICY_SETS[(done // len(RULE_SETS)) % len(POLICY_SETS)]
        expose = EXPOSES[(done // 3) % len(EXPOSES)]
        want = compare_round(order, int(gen.integers(2)), int(gen.integers(1, 13)), rule_idx,
                             pols, expose, int(gen.integers(0, 2**63)))
        done += 1
        seen["ends"].add(want["end"])
        seen["hits"] |= want["hits"]
        seen["kept"] += want["kept"] > 0
        seen["calls"] += sum(want["calls"])
        seen["paid"] += want["paid"]
    # the sample must reach every way a round ends and the interesting yaku
    assert seen["ends"] == {K.END_STOP, K.END_EXHAUSTED, K.END_LUCKY, K.END_LUCKY_DRAW,
                            K.END_FIELD}
    assert {"three_brights", "poetry_ribbons", "blue_ribbons", "animals", "ribbons", "chaff",
            "boar_deer_butterfly", "flower_viewing", "moon_viewing"} <= seen["hits"]
    assert seen["kept"] > 0 and seen["paid"] > 0 and seen["calls"] > seen["paid"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.permutations(list(range(48))), dealer=st.integers(0, 1),
       rmonth=st.integers(1, 12), rule_idx=st.integers(0, len(RULE_SETS) - 1),
       pols=st.sampled_from(POLICY_SETS), expose=st.sampled_from(EXPOSES),
       seed=st.integers(0, 2**64 - 1))
def test_reference_hypothesis(order, dealer, rmonth, rule_idx, pols, expose, seed):
    assume(not NK.is_misdeal(order, RULE_SETS[rule_idx]))
    compare_round(order, dealer, rmonth, rule_idx, pols, expose, seed)


@pytest.mark.parametrize("rule_idx", range(len(RULE_SETS)))
def test_yaku_of_random_piles(rule_idx):
    """The kernel's yaku (rows, viewing, cards of the month) on many random piles and fields,
    against the reference's yaku written by card names."""
    rules, tb, names = tables(**RULE_SETS[rule_idx])
    r = NK.full_rules(rules)
    gen = np.random.default_rng(rule_idx)
    for _ in range(600):
        perm = [int(c) for c in gen.permutation(48)]
        size = int(gen.integers(0, 30))
        pile, field = set(perm[:size]), set(perm[size:size + int(gen.integers(0, 10))])
        calls, m = int(gen.integers(0, 3)), int(gen.integers(1, 13))
        v, h = K.yaku_value(np.uint64(sum(1 << c for c in pile)),
                            np.uint64(sum(1 << c for c in field)), calls, month_mask(m), tb)
        want = NK.yaku(pile, field, calls, m, r)
        got = {names[i] for i in range(len(names)) if int(h) >> i & 1}
        assert (int(v), got) == (sum(want.values()), set(want)), (sorted(pile), sorted(field))
        miss = K.cards_missing(np.uint64(sum(1 << c for c in pile)), month_mask(m), tb)
        assert miss == NK.missing(pile, m, r), sorted(pile)


# ================================================================ hand-built positions
def position(rules, hands, field, piles, draws, calls=(0, 0), rmonth=1, fmult=1):
    """A state (seat 0 = the dealer to move) and a deck order holding every card once: the
    placed cards, then the draw pile top first, then the rest."""
    rules, tb, names = tables(**rules)
    placed = [c for g in (*hands, field, *piles) for c in g]
    assert len(set(placed) | set(draws)) == len(placed) + len(draws)
    rest = [c for c in range(48) if c not in placed and c not in draws]
    order = np.array(placed + list(draws) + rest, dtype=np.int8)
    stt = np.zeros(K.KS_N, np.uint64)
    for i, g in enumerate((hands[0], hands[1], field, piles[0], piles[1])):
        stt[i] = np.uint64(sum(1 << c for c in g))
    stt[5] = len(placed)
    stt[K.KS_MONTH] = month_mask(rmonth)
    stt[K.KS_FMULT] = fmult
    for s in range(2):
        stt[K.KS_CALLS + s] = calls[s]
        v, h = K.yaku_value(stt[3 + s], stt[2], calls[s], stt[K.KS_MONTH], tb)
        stt[K.KS_HITS + s] = np.uint64(h)
        stt[K.KS_BEST + s] = v
    return tb, names, stt, order


def resume(rules, hands, field, piles, draws, pols, **kw):
    tb, names, stt, order = position(rules, hands, field, piles, draws, **kw)
    card, decide = packed(pols)
    res = np.zeros(K.R_N, np.int64)
    res[K.R_WINNER] = -1
    K.resume_round(stt, order, np.zeros(1, np.uint64), tb, np.array(card, np.int64),
                   np.array(decide, np.int64), 0, res)
    return res_facts(res, names)


# Case B: the dealer holds crane, curtain and two poetry ribbons; greedy plays the moon onto
# the susuki chaff (three brights, 8: a new meld with a card left) and, continuing, later the
# cherry poetry ribbon onto the cherry chaff (poetry ribbons, 3, on the last card).
CASE_B = dict(hands=([28, 9], [13, 16]), field=[30, 10], piles=([0, 8, 1, 5], []),
              draws=[47, 36, 40, 19])
# Case C: as B, but the opponent holds two poetry ribbons and completes them on turn 2.
CASE_C = dict(hands=([28, 13], [9, 16]), field=[30, 10], piles=([0, 8], [1, 5]),
              draws=[47, 36, 40, 19])
# Case D: the dealer completes three brights on turn 1, continues, and nothing else is made.
CASE_D = dict(hands=([28, 13], [16, 24]), field=[30], piles=([0, 8], []), draws=[47, 36, 41, 19])
# Case A: one card each: the dealer's only turn completes three brights.
CASE_A = dict(hands=([28], [13]), field=[30], piles=([0, 8], []), draws=[47, 36])
CONT, STOP = ("greedy/continue", "greedy/stop"), ("greedy/stop", "greedy/stop")


def test_stop_collects_the_meld():
    f = resume({}, **CASE_A, pols=STOP)
    assert (f["score"], f["winner"], f["end"], f["base"], f["hits"]) == (
        [8, 0], 0, K.END_STOP, 8, {"three_brights"})
    assert (f["calls"], f["decisions"], f["turns"], f["paid"]) == ([0, 0], 1, 1, 0)
    assert f["captured"][0] == {0, 8, 28, 30} and f["top"] == f["top"]


def test_continue_then_new_meld_then_stop():
    f = resume({}, **CASE_B, pols=CONT)
    assert f["captured"][0] == {0, 1, 5, 8, 9, 10, 28, 30}
    # 8 (three brights) + 3 (poetry ribbons), collected on turn 3 after one koi-koi call
    assert (f["score"], f["winner"], f["base"], f["hits"]) == (
        [11, 0], 0, 11, {"three_brights", "poetry_ribbons"})
    assert (f["calls"], f["paid"], f["decisions"], f["turns"]) == ([1, 0], 1, 2, 3)
    # always collecting takes the 8 on turn 1
    assert resume({}, **CASE_B, pols=STOP)["score"] == [8, 0]


@pytest.mark.parametrize("rules, points", [
    ({}, 11),                                        # seed: no koi-koi bonus
    ({"koikoi_bonus": "own_x2"}, 22),                # the collector called
    ({"koikoi_bonus": "opponent_x2"}, 11),           # ... but the opponent did not
    ({"koikoi_bonus": "anyone_x2"}, 22),
    ({"koikoi_bonus": "calls_plus_one"}, 22),        # one call: x2
    ({"koikoi_bonus": "add_per_call"}, 12),          # +1 per own call
    ({"seven_double": "on"}, 22),                    # 11 >= 7
    ({"seven_double": "on", "koikoi_bonus": "own_x2"}, 44),
    ({"yaku_counting": "best"}, 8),                  # the single best meld
])
def test_multipliers(rules, points):
    assert resume(rules, **CASE_B, pols=CONT)["points"] == points


def test_field_multiplier():
    # seed: x(1 + 20-point cards dealt to the field); double: x2 for any; off: x1
    assert [K.field_multiplier(n, K.FMULT_COUNT) for n in range(4)] == [1, 2, 3, 4]
    assert [K.field_multiplier(n, K.FMULT_DOUBLE) for n in range(4)] == [1, 2, 2, 2]
    assert [K.field_multiplier(n, K.FMULT_OFF) for n in range(4)] == [1, 1, 1, 1]
    assert resume({}, **CASE_B, pols=CONT, fmult=3)["score"] == [33, 0]
    # the multiplier comes from the deal: two brights dealt to the field triple the round
    rules, tb, names = tables()
    order = list(range(48))
    field_pos = [8, 9, 10, 11, 20, 21, 22, 23]
    for pos, card in zip(field_pos[:2], (0, 44)):  # crane and phoenix onto the field
        i = order.index(card)
        order[i], order[pos] = order[pos], order[i]
    res, _ = kernel_round(tb, order, 0, 1, [GREEDY, GREEDY], [[DEC_STOP, 0]] * 2, [1, 1], 5)
    f = res_facts(res, names)
    assert f["field_brights"] == 2
    if f["winner"] >= 0:
        assert f["points"] == 3 * f["base"]


@pytest.mark.parametrize("rules, score", [
    ({}, [0, 3]),                                    # the continued dealer forfeits
    ({"opponent_stops": "keeps"}, [8, 3]),           # ... or keeps his meld too
    ({"opponent_stops": "keeps", "scoring": "zero_sum"}, [5, -5]),
    ({"scoring": "zero_sum"}, [-3, 3]),
    ({"koikoi_bonus": "opponent_x2"}, [0, 6]),       # the dealer called: the opponent doubles
])
def test_continue_then_opponent_collects(rules, score):
    f = resume(rules, **CASE_C, pols=("greedy/continue", "greedy/stop"))
    assert (f["score"], f["winner"], f["calls"], f["paid"]) == (score, 1, [1, 0], 0)


@pytest.mark.parametrize("rules, score, winner", [
    ({}, [0, 0], -1),                                # nobody scores an exhausted round
    ({"exhausted": "last_yaku"}, [8, 0], 0),         # the last to make a meld collects it
    ({"exhausted": "dealer", "dealer_privilege": 6}, [6, 0], 0),
    ({"exhausted": "dealer", "scoring": "zero_sum"}, [1, -1], 0),
])
def test_continue_then_exhausted(rules, score, winner):
    f = resume(rules, **CASE_D, pols=("greedy/continue", "greedy/stop"))
    assert (f["end"], f["score"], f["winner"], f["turns"], f["calls"]) == (
        K.END_EXHAUSTED, score, winner, 4, [1, 0])
    assert not f["hands"]


def test_last_turn_and_minimum_to_call():
    # continuing on the last card forfeits the meld (seed) ...
    f = resume({}, **CASE_A, pols=("greedy/continue0", "greedy/stop"))
    assert (f["end"], f["score"], f["calls"]) == (K.END_EXHAUSTED, [0, 0], [1, 0])
    # ... unless the last turn must collect (KoiKoi Japan)
    assert resume({"last_turn": "stop"}, **CASE_A, pols=("greedy/continue0",) * 2)["score"] == [8, 0]
    # fewer yaku points than the minimum to call koi-koi: the player must collect
    assert resume({"koikoi_min": 3}, **CASE_B, pols=CONT)["score"] == [11, 0]
    assert resume({"koikoi_min": 7}, **CASE_B, pols=CONT)["score"] == [11, 0]
    f = resume({"yaku": "modern", "koikoi_min": 7}, **CASE_B, pols=CONT)
    assert f["calls"] == [0, 0] and f["score"] == [6, 0]  # modern three brights: 6 < 7


def test_new_meld_or_bigger_score():
    """A meld growing by a card is a decision under decision_on=bigger only."""
    chaff = [3, 6, 7, 11, 14, 15, 18, 22, 23, 26]  # ten chaff: one point (1 + extras)
    case = dict(hands=([27], [13]), field=[25], piles=(chaff, []), draws=[47, 36])
    new = resume({"meld_growth": "counts"}, **case, pols=STOP)
    assert (new["decisions"], new["end"], new["score"]) == (0, K.END_EXHAUSTED, [0, 0])
    big = resume({"meld_growth": "counts", "decision_on": "bigger"}, **case, pols=STOP)
    assert (big["decisions"], big["score"], big["hits"]) == (1, [2, 0], {"chaff"})
    # without growth the eleventh chaff adds nothing: no decision either way
    flat = resume({"decision_on": "bigger"}, **case, pols=STOP)
    assert flat["decisions"] == 0


# ================================================================ yaku tables, by hand
def value(rules, pile, field=(), calls=0, rmonth=1):
    _, tb, names = tables(**rules)
    v, h = K.yaku_value(np.uint64(sum(1 << c for c in pile)),
                        np.uint64(sum(1 << c for c in field)), calls, month_mask(rmonth), tb)
    return int(v), {names[i] for i in range(len(names)) if int(h) >> i & 1}


PRESET_RULES = {name: dict(p) for name, p in K.PRESETS.items()}
BRIGHT5, DRY4, THREE = [0, 8, 28, 40, 44], [0, 8, 28, 44], [0, 8, 28]
RIBBONS6 = [1, 5, 9, 21, 33, 37]          # poetry and blue
ANIMALS5 = [24, 36, 20, 4, 12]            # boar, deer, butterflies and two more


@pytest.mark.parametrize("preset, pile, points", [
    ("seed004", BRIGHT5, 8), ("seed004", DRY4, 8), ("seed004", THREE, 8),
    ("seed004", [0, 8, 40], 0),           # November's never counts (seed)
    ("seed004", RIBBONS6, 3 + 3 + 1), ("seed004", ANIMALS5, 1),
    ("modern", BRIGHT5, 15), ("modern", DRY4, 8), ("modern", THREE + [40], 7),
    ("modern", THREE, 6), ("modern", RIBBONS6, 10), ("modern", RIBBONS6 + [13], 11),
    ("modern", [1, 5, 9, 13, 17], 5 + 2), ("modern", ANIMALS5, 5 + 2),
    ("modern", [4, 12, 16, 29, 41], 1),   # five animals, no boar-deer-butterfly
    ("nintendo", BRIGHT5, 10), ("nintendo", THREE, 5), ("nintendo", RIBBONS6, 10),
    ("koikoi-japan", BRIGHT5, 10), ("koikoi-japan", THREE, 5), ("koikoi-japan", THREE + [40], 7),
    ("koikoi-japan", RIBBONS6, 10 + 5 + 5 + 2), ("koikoi-japan", ANIMALS5, 5 + 1),
])
def test_preset_yaku_tables(preset, pile, points):
    rules = PRESET_RULES[preset]
    assert value(rules, pile)[0] == points


def test_older_yaku_stack():
    rules = dict(yaku="older")
    assert value(rules, RIBBONS6) == (5 + 5 + 2, {"poetry_ribbons", "blue_ribbons", "ribbons"})
    assert value(rules, ANIMALS5) == (5 + 1, {"boar_deer_butterfly", "animals"})


def test_seed_meld_growth():
    chaff11 = [2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22]
    assert value({}, chaff11)[0] == 1
    assert value({"meld_growth": "counts"}, chaff11)[0] == 2
    assert value({"meld_growth": "counts"}, DRY4)[0] == 8
    assert value({"meld_growth": "all"}, DRY4)[0] == 9


@pytest.mark.parametrize("rules, pile, field, points", [
    ({}, [32, 8], (), 0),                                       # seed: no viewing yaku
    ({"viewing": "on"}, [32, 8], (), 5),                        # flower viewing
    ({"viewing": "on"}, [32, 8, 28], (), 10),                   # and moon viewing
    ({"viewing": "need_other"}, [32, 8, 28], (), 0),            # no other yaku
    ({"viewing": "need_other"}, [32, 8, 28, 0], (), 8 + 10),    # three brights: both count
    ({"viewing": "weather"}, [32, 8, 28], [43], 5),             # rained off: willow on field
    ({"viewing": "weather"}, [32, 8, 28], [43, 47], 0),         # and fogged off: paulownia
    ({"viewing": "weather"}, [32, 8, 28], [2], 10),
    ({"viewing": "on", "viewing_points": 1, "viewing_after_call": "3"}, [32, 8], (), 1),
])
def test_viewing_rules(rules, pile, field, points):
    assert value(rules, pile, field)[0] == points


def test_viewing_after_a_call():
    rules = {"viewing": "on", "viewing_points": 1, "viewing_after_call": "3"}
    assert value(rules, [32, 8, 28], calls=1)[0] == 6


@pytest.mark.parametrize("sake, points", [
    ("animal_only", 1),          # animals (five with the cup); nine chaff (seed)
    ("animal_and_chaff", 1 + 1),  # chaff (ten with the cup) and animals (five with the cup)
    ("animal_or_chaff", 1),       # one or the other, not both
])
def test_sake_cup_roles(sake, points):
    pile = [2, 3, 6, 7, 10, 11, 14, 15, 18] + [32, 4, 12, 16, 20]  # 9 chaff, cup, 4 animals
    assert value({"sake_cup": sake}, pile)[0] == points
    # the cup with four animals and no chaff: five animals under every rule
    assert value({"sake_cup": sake}, pile[9:]) == (1, {"animals"})


def test_cards_of_the_month():
    assert value({"cards_of_month": "on"}, [4, 5, 6, 7], rmonth=2) == (4, {"cards_of_the_month"})
    assert value({"cards_of_month": "on"}, [4, 5, 6, 7], rmonth=3)[0] == 0
    assert value({}, [4, 5, 6, 7], rmonth=2)[0] == 0
