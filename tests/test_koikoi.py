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
