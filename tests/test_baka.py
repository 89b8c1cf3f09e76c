"""Baka (seed 000_a569c68da0494d09, section "Baka"): hand-built end-of-round cases worked out
by hand, the deal and the dealer rotation, the kernel against the plain-Python reference of
``tests/naive_baka.py``, invariants over random play, and agreement with exact combinatorics.
"""
from __future__ import annotations

from fractions import Fraction

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import hanasim
import naive_baka as NB
from hanasim.cli import main as cli_main
from hanasim.decks import ANIMAL, BRIGHT, CHAFF, HANAFUDA as D, RIBBON
from hanasim.engine import card_tally
from hanasim.engine.deal import deal, is_misdeal
from hanasim.engine.rng import stream_state
from hanasim.games import baka as B, get_game
from hanasim.policies import GREEDY, RANDOM
from hanasim.rules import RuleError, make_rules

_TB = {}


def tables(**given):
    key = tuple(sorted(given.items()))
    if key not in _TB:
        rules = make_rules(B.BakaRules, given)
        tb, names = B.lower(rules, checked=True)
        _TB[key] = (rules, tb, names)
    return _TB[key]


def bits_to_set(x):
    x = int(np.uint64(np.int64(x)))
    return {i for i in range(64) if x >> i & 1}


def mask(cards):
    return np.uint64(sum(1 << int(c) for c in cards))


# =============================================================== end of round, by hand
BY_KIND = {k: [i for i in range(48) if D.kind[i] == k] for k in (BRIGHT, ANIMAL, RIBBON, CHAFF)}


def piles_of(*counts):
    """Three disjoint piles with (brights, animals, ribbons, chaff) counts per seat, taken in
    deck order; points are 20 / 10 / 5 / 0 per card (seed, Toppa "Counting the Card Points")."""
    used = {k: 0 for k in BY_KIND}
    piles = []
    for cnt in counts:
        pile = []
        for k, n in zip((BRIGHT, ANIMAL, RIBBON, CHAFF), cnt):
            pile += BY_KIND[k][used[k]:used[k] + n]
            used[k] += n
        piles.append(pile)
    return piles


def settle_case(piles, yaku, **rules):
    _, tb, _ = tables(**rules)
    res = np.zeros(B.R_N, np.int64)
    for s in range(3):
        res[B.R_PTS + s] = NB.points(piles[s])
        res[B.R_YAKU + s] = yaku[s]
    captured = np.array([mask(p) for p in piles], dtype=np.uint64)
    B.settle(res, captured, tb.kind_masks, tb.kind_points, tb.params)
    unit = 3 if rules.get("yaku_rounding") == "none" else 1  # the kernel counts thirds then
    out = dict(score=[Fraction(int(res[B.R_SCORE + s]), unit) for s in range(3)],
               low=[Fraction(int(res[B.R_LOW + s]), unit) for s in range(3)],
               settle=[Fraction(int(res[B.R_SETTLE + s]), unit) for s in range(3)],
               uncovered=int(res[B.R_UNCOVERED]), n_low=int(res[B.R_N_LOW]))
    # the reference agrees on every hand-built case too
    want_score, facts = NB.settle([NB.points(p) for p in piles], list(yaku),
                                  [set(p) for p in piles], rules)
    assert out["score"] == want_score
    assert out["low"] == facts["low"] and out["uncovered"] == facts["uncovered"]
    return out


def test_piles_helper():
    piles = piles_of((1, 0, 1, 8), (2, 4, 4, 8), (2, 5, 5, 8))
    assert [NB.points(p) for p in piles] == [25, 100, 115]
    assert len(set().union(*map(set, piles))) == sum(map(len, piles))


@pytest.mark.parametrize("forfeit, score", [("no", [25, -20, -5]), ("yes", [80, -40, -40])])
def test_low_man_out(forfeit, score):
    # Seat 0 captured 25 points ("25 points or less"): paid 40 by each other player.
    # no forfeit: 80 + 25 - 80 = 25; -40 + 100 - 80 = -20; -40 + 115 - 80 = -5.
    # forfeit: card scores (and yaku) are cancelled, only the 80 / -40 / -40 remain.
    piles = piles_of((1, 0, 1, 8), (2, 4, 4, 8), (2, 5, 5, 8))
    out = settle_case(piles, (0, 0, 0), low_man_forfeit=forfeit)
    assert out["low"] == [80, -40, -40] and out["n_low"] == 1
    assert out["score"] == score


def test_thirty_points_is_not_low():
    piles = piles_of((1, 1, 0, 8), (2, 4, 5, 8), (2, 4, 5, 8))  # 30, 105, 105
    for forfeit in ("no", "yes"):
        out = settle_case(piles, (0, 0, 0), low_man_forfeit=forfeit)
        assert out["low"] == [0, 0, 0] and out["score"] == [-50, 25, 25]


@pytest.mark.parametrize("forfeit, score", [("no", [-20, -15, 35]), ("yes", [40, 40, -80])])
def test_two_low_players(forfeit, score):
    # 20, 25 and 195 points.  Each low player is paid 40 by each other player, so the two low
    # players' payments to each other cancel: +40, +40, -80.
    # no forfeit: 40 + 20 - 80 = -20; 40 + 25 - 80 = -15; -80 + 195 - 80 = 35.
    piles = piles_of((1, 0, 0, 8), (0, 2, 1, 8), (4, 7, 9, 8))
    out = settle_case(piles, (0, 0, 0), low_man_forfeit=forfeit)
    assert out["low"] == [40, 40, -80] and out["n_low"] == 2
    assert out["score"] == score


def test_forfeit_cancels_the_yaku_settlement_too():
    piles = piles_of((1, 0, 1, 8), (2, 4, 4, 8), (2, 5, 5, 8))
    out = settle_case(piles, (0, 60, 0), low_man_forfeit="yes")
    assert out["score"] == [80, -40, -40] and out["settle"] == [0, 0, 0]
    out = settle_case(piles, (0, 60, 0), low_man_forfeit="no")
    # amounts -20, +40, -20: 80 + 25 - 20 - 80 = 5; -40 + 100 + 40 - 80 = 20; -40+115-20-80
    assert out["settle"] == [-20, 40, -20] and out["score"] == [5, 20, -25]


PILES_85_85_70 = piles_of((2, 3, 3, 8), (2, 3, 3, 8), (1, 3, 4, 8))


def test_average_settlement_exact_third():
    # yaku 60, 0, 0: average 20, amounts +40, -20, -20 (each payer has a 20-point bright).
    out = settle_case(PILES_85_85_70, (60, 0, 0))
    assert out["settle"] == [40, -20, -20] and out["uncovered"] == 0
    assert out["score"] == [85 + 40 - 80, 85 - 20 - 80, 70 - 20 - 80]


def test_average_rounding_none():
    # issue 15: 40, 0, 0 unrounded: the average 13 1/3 is kept in thirds, paid as a number
    out = settle_case(PILES_85_85_70, (40, 0, 0), yaku_rounding="none")
    third = Fraction(1, 3)
    assert out["settle"] == [80 * third, -40 * third, -40 * third] and out["uncovered"] == 0
    assert out["score"] == [85 + 80 * third - 80, 85 - 40 * third - 80, 70 - 40 * third - 80]
    assert sum(out["score"]) == 0
    # 30, 20, 0: +13 1/3, +3 1/3, -16 2/3; a pile of 5 points cannot cover 16 2/3
    out = settle_case(piles_of((0, 0, 1, 0), (1, 2, 0, 0), (4, 7, 9, 24)), (0, 30, 20),
                      yaku_rounding="none")
    assert out["uncovered"] == 1 and sum(out["score"]) == 0
    assert out["settle"] == [-50 * third, 40 * third, 10 * third]  # forfeited own yaku: 0


@pytest.mark.parametrize("yaku, rounding, amounts", [
    # 40, 0, 0: average 13 1/3, differences +26 2/3, -13 1/3, -13 1/3.  The two payers round:
    # nearest 5 is -15 each (receiver +30); toward zero -10 each (receiver +20).
    ((40, 0, 0), "nearest5", [30, -15, -15]),
    ((40, 0, 0), "toward_zero5", [20, -10, -10]),
    # 30, 20, 0: average 16 2/3, differences +13 1/3, +3 1/3, -16 2/3.  The two receivers
    # round: nearest 15 and 5 (payer -20); toward zero 10 and 0 (payer -10).
    ((30, 20, 0), "nearest5", [15, 5, -20]),
    ((30, 20, 0), "toward_zero5", [10, 0, -10]),
    # 20, 0, 0: +13 1/3, -6 2/3, -6 2/3: both rules give -5, -5, +10.
    ((20, 0, 0), "nearest5", [10, -5, -5]),
    ((20, 0, 0), "toward_zero5", [10, -5, -5]),
])
def test_average_rounding(yaku, rounding, amounts):
    out = settle_case(PILES_85_85_70, yaku, yaku_rounding=rounding)
    assert out["settle"] == amounts and out["uncovered"] == 0
    assert out["score"] == [p + a - 80 for p, a in zip((85, 85, 70), amounts)]
    assert sum(out["score"]) == 0


@pytest.mark.parametrize("transfer, uncovered, score, flag", [
    # yaku 50, 20, 20: average 30, amounts +20, -10, -10.  Seat 1 holds only two brights
    # (40 points): it cannot hand over exactly 10, though its cards are worth more than 10.
    ("exact", "toppa", [45, -70, 25], 1),      # seat 1 also forfeits its own 20 to seat 0
    ("exact", "in_points", [25, -50, 25], 1),  # seat 1 pays its 10 in points
    ("total", "toppa", [25, -50, 25], 0),      # 40 points cover 10 as a number
    ("total", "in_points", [25, -50, 25], 0),
])
def test_uncovered_two_payers(transfer, uncovered, score, flag):
    piles = piles_of((1, 4, 5, 8), (2, 0, 0, 8), (2, 5, 5, 8))  # 85, 40, 115
    out = settle_case(piles, (50, 20, 20), card_transfer=transfer, uncovered=uncovered)
    assert out["score"] == score and out["uncovered"] == flag and sum(score) == 0


@pytest.mark.parametrize("transfer, uncovered, score, flag", [
    # yaku 20, 50, 50: average 40, amounts -20, +10, +10.  Seat 0 (two brights, 40 points)
    # could hand over 20 to one player, but not 10 to each of two (no change is given).
    ("exact", "toppa", [-80, 25, 55], 1),      # and its own 20 goes 10 / 10 to the payees
    ("exact", "in_points", [-60, 15, 45], 1),
    ("total", "toppa", [-60, 15, 45], 0),
    ("total", "in_points", [-60, 15, 45], 0),
])
def test_uncovered_one_payer_two_payees(transfer, uncovered, score, flag):
    piles = piles_of((2, 0, 0, 8), (1, 4, 5, 8), (2, 5, 5, 8))  # 40, 85, 115
    out = settle_case(piles, (20, 50, 50), card_transfer=transfer, uncovered=uncovered)
    assert out["score"] == score and out["uncovered"] == flag and sum(score) == 0


def test_two_payees_covered_when_cards_split():
    piles = piles_of((0, 4, 0, 8), (2, 1, 5, 8), (3, 4, 5, 8))  # 40 in four animals
    out = settle_case(piles, (20, 50, 50))
    assert out["uncovered"] == 0 and out["settle"] == [-20, 10, 10]


@pytest.mark.parametrize("transfer", ["exact", "total"])
def test_uncovered_without_points_and_low(transfer):
    # Seat 1 captured only chaff: low (paid 40 by each), and owes 20 of the yaku settlement
    # (60, 0, 0) with no points at all: uncovered under either transfer; its yaku is 0, so the
    # 'toppa' rule changes nothing.  45 = -40 + 125 + 40 - 80; -20 = 80 + 0 - 20 - 80.
    piles = piles_of((3, 4, 5, 8), (0, 0, 0, 8), (2, 5, 5, 8))  # 125, 0, 115
    out = settle_case(piles, (60, 0, 0), card_transfer=transfer)
    assert out["low"] == [-40, 80, -40] and out["uncovered"] == 1
    assert out["score"] == [45, -20, -25]


@settings(max_examples=300, deadline=None)
@given(y=st.lists(st.integers(0, 30), min_size=3, max_size=3),
       rounding=st.sampled_from(["nearest5", "toward_zero5"]))
def test_yaku_amounts_against_fractions(y, rounding):
    y = [10 * v for v in y]
    mode = B.ROUND_NEAREST if rounding == "nearest5" else B.ROUND_TOWARD_ZERO
    got = list(B.yaku_amounts(y[0], y[1], y[2], mode))
    assert got == NB.amounts(y, rounding)
    assert sum(got) == 0
    avg = Fraction(sum(y), 3)
    for a, v in zip(got, y):
        assert abs(a - (v - avg)) < 10  # never more than two roundings off


def test_can_pay_two_against_reference():
    _, tb, _ = tables()
    gen = np.random.default_rng(3)
    seen = {True: 0, False: 0}
    for _ in range(3000):
        pile = [int(c) for c in gen.permutation(48)[:int(gen.integers(0, 9))]]
        a, b = (int(x) * 5 for x in gen.integers(0, 9, size=2))
        for rule, name in ((B.TRANSFER_EXACT, "exact"), (B.TRANSFER_TOTAL, "total")):
            got = bool(B.can_pay_two(mask(pile), a, b, tb.kind_masks, tb.kind_points, rule))
            assert got == NB.can_pay(set(pile), [a, b], name), (pile, a, b, name)
            seen[got] += 1
    assert min(seen.values()) > 500


def test_greedy_exact_payment_equals_general_search():
    """``pay_greedy`` (the fast path for card values 20/10/5/0) gives the general search's
    answer for every pile composition and every pair of amounts up to 150 points."""
    from numba import njit

    _, tb, _ = tables()
    assert tb.params[B.P_GREEDY_PAY] == 1

    @njit
    def disagreements(kind_masks, kind_points, by_kind_masks):
        bad = 0
        checked = 0
        for n0 in range(6):
            for n1 in range(10):
                for n2 in range(11):
                    pile = by_kind_masks[0, n0] | by_kind_masks[1, n1] | by_kind_masks[2, n2] \
                        | by_kind_masks[3, 5]
                    for a in range(0, 155, 5):
                        for b in range(0, 155, 5):
                            want = B.can_pay_two(pile, a, b, kind_masks, kind_points,
                                                 B.TRANSFER_EXACT)
                            got = B.pay_greedy(pile, a, b, kind_masks)
                            bad += want != got
                            checked += want
        return bad, checked

    by_kind = np.zeros((4, 25), np.uint64)  # [kind, n]: the first n cards of that kind
    for k, cards in BY_KIND.items():
        for n in range(len(cards) + 1):
            by_kind[k, n] = mask(cards[:n])
    bad, payable = disagreements(tb.kind_masks, tb.kind_points, by_kind)
    assert bad == 0 and payable > 10000


SETTLE_RULES = [{}, {"card_transfer": "total"}, {"uncovered": "in_points"},
                {"yaku_rounding": "none"}, {"yaku_rounding": "none", "uncovered": "in_points"},
                {"yaku_rounding": "toward_zero5", "low_man_forfeit": "yes"},
                {"card_transfer": "exact", "uncovered": "toppa", "yaku_rounding": "toward_zero5"}]


@pytest.mark.parametrize("rules", SETTLE_RULES)
def test_settle_random_piles(rules):
    """Settlement against the reference on random partitions of the deck with small piles
    (where covering fails) and random yaku scores."""
    _, tb, _ = tables(**rules)
    gen = np.random.default_rng(11)
    seen = dict(uncovered=0, low=0, transfer=0)
    for _ in range(1500):
        perm = [int(c) for c in gen.permutation(48)]
        cut = sorted(int(x) for x in gen.integers(0, 49, size=2))
        piles = [perm[:cut[0]], perm[cut[0]:cut[1]], perm[cut[1]:]]
        gen.shuffle(piles)
        yaku = [int(gen.choice([0, 0, 20, 30, 40, 60, 80])) for _ in range(3)]
        out = settle_case(piles, yaku, **rules)
        assert sum(out["score"]) == 0 and sum(out["settle"]) == 0
        seen["uncovered"] += out["uncovered"] > 0
        seen["low"] += out["n_low"] > 0
        seen["transfer"] += any(out["settle"]) and not out["uncovered"]
    assert min(seen.values()) > 30, seen


# =============================================================== deal, dealer, rotation
def test_deal_pattern():
    # 3 each (right, left, dealer), 2 to the field, 4 each, 4 to the field: 27 dealt cards.
    assert B.DEAL_PATTERN.tolist() == [1] * 3 + [2] * 3 + [0] * 3 + [3] * 2 + \
        [1] * 4 + [2] * 4 + [0] * 4 + [3] * 4
    groups = np.zeros(4, np.uint64)
    top = deal(np.arange(48, dtype=np.int8), B.DEAL_PATTERN, groups)
    assert top == 27 and 48 - top == B.PILE_SIZE == 21
    assert bits_to_set(groups[1]) == {0, 1, 2, 11, 12, 13, 14}
    assert bits_to_set(groups[2]) == {3, 4, 5, 15, 16, 17, 18}
    assert bits_to_set(groups[0]) == {6, 7, 8, 19, 20, 21, 22}
    assert bits_to_set(groups[3]) == {9, 10, 23, 24, 25, 26}
    assert NB.split(range(48))[0] == [bits_to_set(groups[s]) for s in range(3)]


def test_deal_round_redeals_misdeals():
    """The kernel's deal (scalar deal, bit-trick misdeal check) against the engine's deal and
    the reference misdeal rule, replaying the same shuffles."""
    _, tb, _ = tables()
    from hanasim.engine.rng import shuffle_range
    rng = np.array([99], np.uint64)
    order = np.arange(48, dtype=np.int8)
    groups = np.zeros(4, np.uint64)
    total_mis = 0
    for _ in range(3000):
        replay_rng, replay = rng.copy(), order.copy()
        mis = B.deal_round(rng, order, groups, tb.pattern, tb.cond)
        want = 0
        while True:  # shuffle the 27 dealt cards until the deal stands, then the pile
            shuffle_range(replay_rng, replay, 0, 27)
            if not NB.is_misdeal(replay):
                break
            want += 1
        shuffle_range(replay_rng, replay, 27, 48)
        assert mis == want and (replay == order).all() and replay_rng[0] == rng[0]
        g = np.zeros(4, np.uint64)
        deal(order, tb.pattern, g)
        assert (g == groups).all() and not is_misdeal(g, 4, tb.month_masks, 4)
        total_mis += mis
    assert total_mis > 5  # about 0.74% of deals are misdeals


def test_first_dealer_has_most_month_points():
    _, tb, _ = tables()
    rng = np.array([5], np.uint64)
    order = np.arange(48, dtype=np.int8)
    got = [0, 0, 0]
    for n_cards in (1, 3):
        for _ in range(3000):
            d = B.first_dealer(rng, order, tb.month, n_cards)
            pts = [sum(m if m <= 9 else 0 for m in (int(D.month[order[3 * i + p]])
                                                      for i in range(n_cards)))
                   for p in range(3)]
            assert pts[d] > max(pts[q] for q in range(3) if q != d)
            assert sorted(order.tolist()) == list(range(48))
            got[d] += 1
    assert min(got) > 1800  # fair draw: each about 2000 of 6000


def replay_game(tb, seed, g, policy, expose, n_rounds=3):
    """A game from kernel pieces with the seed's rotation spelled out: dealers d0, d0's right
    (d0 + 1) and d0's left (d0 + 2); seat s of a round dealt by d is player d + s."""
    rng = np.array([stream_state(np.uint64(seed), g)], np.uint64)
    order = np.arange(48, dtype=np.int8)
    groups = np.zeros(4, np.uint64)
    res = np.zeros(B.R_N, np.int64)
    d0 = B.first_dealer(rng, order, tb.month, 1)
    totals = [0, 0, 0]
    for dealer in NB.game_dealers(d0)[:n_rounds]:
        B.deal_round(rng, order, groups, tb.pattern, tb.cond)
        B.play_dealt(rng, order, groups, np.zeros(B.ST_N, np.uint64), tb,
                 policy, expose, dealer, res, None)
        for s in range(3):
            totals[(dealer + s) % 3] += int(res[B.R_SCORE + s])
    return d0, totals


def test_game_rotation_and_totals():
    """Counters of whole games equal a replay with the rotation written out (different
    policies per player, so a wrong rotation changes the totals)."""
    rules, tb, _ = tables()
    policy = np.array([GREEDY, RANDOM, GREEDY], np.int64)
    expose = np.array([1, 2, 0], np.int64)
    seed, n_games = 77, 60
    scal = np.zeros((1, B.C_N), np.int64)
    tc = np.zeros((1, tb.teyaku.shape[0] + 1, 2), np.int64)
    yc = np.zeros((1, tb.yaku_masks.shape[0] + 1, 2), np.int64)
    B.run_chunks(np.uint64(seed), 0, n_games, n_games, 3 * n_games, tb, policy, expose, scal,
                 tc, yc, card_tally.off(1), None)
    s = scal[0]
    want_p = [0, 0, 0]
    want_q = [0, 0, 0]
    first = [0, 0, 0]
    for g in range(n_games):
        d0, totals = replay_game(tb, seed, g, policy, expose)
        first[d0] += 1
        for p in range(3):
            want_p[p] += totals[p]
            want_q[(p - d0) % 3] += totals[p]
    assert s[B.C_GAMES] == n_games and s[B.C_ROUNDS] == 3 * n_games
    assert [s[B.C_PLAYER + B.PLAYER_W * p + B.K_P_TOTAL] for p in range(3)] == want_p
    assert [s[B.C_POS + B.POS_W * q + B.K_G_TOTAL] for q in range(3)] == want_q
    assert [s[B.C_PLAYER + B.PLAYER_W * p + B.K_P_FIRST] for p in range(3)] == first
    assert min(first) > 0 and len(set(want_p)) == 3


def test_rounds_not_a_multiple_of_three():
    df = hanasim.simulate("baka", rounds=10, seed=3).set_index("quantity")
    assert df.loc["seat.dealer.mean_score", "n"] == 10
    assert df.loc["teyaku.triplet", "n"] == 30
    assert df.loc["game.first_dealer.mean_total", "n"] == 3  # the 4th game has one round
    # one definition of n for every game quantity: complete games (issue 17: was 4 here)
    assert df.loc["player1.first_dealer_share", "n"] == 3


# =============================================================== the reference round
RULE_SETS = [
    {},
    {"card_transfer": "total", "uncovered": "in_points"},
    {"five_brights": 40, "four_brights": 30, "boar_deer_butterfly": "off",
     "real_seven_ribbons": 30, "willow_chaff": "all", "teyaku_combine": "highest",
     "chaff_teyaku": "disabled"},
    {"yaku_rounding": "toward_zero5", "low_man_forfeit": "yes", "willow_chaff": "lightning"},
    {"yaku_rounding": "none", "uncovered": "toppa", "card_transfer": "exact"},
    # any value of a numeric rule (issue 17): pars per seat that do not add up to 240, another
    # Low Man Out threshold and payment, Real Seven Ribbons not played (Seven Ribbons scores
    # for seven true ribbons), a 9-chaff Chaff
    {"par": "70,85,90", "low_man_max": 40, "low_man_pay": 25, "chaff_count": 9,
     "chaff_extra": 5, "real_seven_ribbons": 0, "one_bright": 50, "triplet": 30,
     "boar_deer_butterfly": "off", "yaku_rounding": "none"},
]
POLICIES = [(RANDOM,) * 3, (GREEDY,) * 3, (GREEDY, RANDOM, RANDOM), (RANDOM, GREEDY, RANDOM)]
EXPOSES = [(2, 2, 2), (1, 0, 2), (1, 1, 1), (0, 2, 1)]


def res_facts(res, names, unit=1):
    def per_seat(slot, f=int):
        return [f(res[slot + s]) for s in range(3)]

    def points(x):  # scores, Low Man Out and settlement are counted in 1/unit points
        return Fraction(int(x), unit)

    return dict(
        score=per_seat(B.R_SCORE, points), pts=per_seat(B.R_PTS), yaku=per_seat(B.R_YAKU),
        tey_held=per_seat(B.R_TEY_HELD), tey_scored=per_seat(B.R_TEY_SCORED),
        deki_hits=per_seat(B.R_DEKI_HITS, lambda h: {names[i] for i in range(len(names))
                                                     if int(h) >> i & 1}),
        deki=per_seat(B.R_DEKI), captured=per_seat(B.R_CAPTURED, bits_to_set),
        low=per_seat(B.R_LOW, points), settle=per_seat(B.R_SETTLE, points), n_low=int(res[B.R_N_LOW]),
        uncovered=int(res[B.R_UNCOVERED]), field=bits_to_set(res[B.R_FIELD]),
        top=int(res[B.R_TOP]))


def compare(order, dealer, rule_idx, policy, expose, seed):
    rules, tb, names = tables(**RULE_SETS[rule_idx])
    order = np.asarray(order, dtype=np.int8)
    groups = np.zeros(4, np.uint64)
    deal(order, tb.pattern, groups)
    rng = np.array([seed], np.uint64)
    res = np.zeros(B.R_N, np.int64)
    B.play_dealt(rng, order, groups, np.zeros(B.ST_N, np.uint64), tb,
                 np.array(policy, np.int64), np.array(expose, np.int64), dealer, res, None)
    got = res_facts(res, names, B.score_unit(tb.params))
    ref_rng = np.array([seed], np.uint64)
    want = NB.play_round(order, dealer, policy, expose, rules, tb.weights, ref_rng)
    ctx = dict(order=order.tolist(), dealer=dealer, rules=RULE_SETS[rule_idx], policy=policy,
               expose=expose, seed=seed)
    for key in want:
        assert got[key] == want[key], (key, got[key], want[key], ctx)
    assert rng[0] == ref_rng[0], ("random draws consumed differently", ctx)
    # the reference's own sanity: every card captured once, the field empty, the scores add
    # up to 240 minus the pars (zero-sum under the seed's pars; a forfeited round is zero-sum)
    assert not want["field"] and len(set().union(*want["captured"])) == 48
    forfeited = want["n_low"] and NB.full_rules(rules)["low_man_forfeit"] == "yes"
    assert sum(want["score"]) == (0 if forfeited else 240 - sum(NB.naive.pars(NB.full_rules(rules), 3)))
    return want


def test_reference_many_deals():
    gen = np.random.default_rng(4242)
    seen = dict(uncovered=0, low=0, transfer=0, tey=0, hits=set())
    n = 0
    while n < 400:
        order = gen.permutation(48)
        if NB.is_misdeal(order):
            continue
        want = compare(order, int(gen.integers(3)), n % len(RULE_SETS),
                       POLICIES[(n // len(RULE_SETS)) % len(POLICIES)],
                       EXPOSES[(n // 7) % len(EXPOSES)], int(gen.integers(0, 2**63)))
        n += 1
        seen["uncovered"] += want["uncovered"] > 0
        seen["low"] += want["n_low"] > 0
        seen["transfer"] += any(want["settle"]) and not want["uncovered"]
        seen["tey"] += any(want["tey_scored"])
        seen["hits"] |= set().union(*want["deki_hits"])
    hits = seen.pop("hits")
    assert min(seen.values()) > 0, seen
    assert {"chaff", "seven_ribbons", "wisteria_row"} <= hits


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.permutations(list(range(48))), dealer=st.integers(0, 2),
       rule_idx=st.integers(0, len(RULE_SETS) - 1), policy=st.sampled_from(POLICIES),
       expose=st.sampled_from(EXPOSES), seed=st.integers(0, 2**64 - 1))
def test_reference_hypothesis(order, dealer, rule_idx, policy, expose, seed):
    assume(not NB.is_misdeal(order))
    compare(order, dealer, rule_idx, policy, expose, seed)


def test_teyaku_and_dekiyaku_tables():
    from hanasim.engine.yaku import dekiyaku, teyaku
    gen = np.random.default_rng(8)
    for rules_given in ({}, {"chaff_teyaku": "disabled", "teyaku_combine": "highest",
                             "willow_chaff": "all"}):
        rules, tb, names = tables(**rules_given)
        for _ in range(1500):
            hand = [int(c) for c in gen.permutation(48)[:7]]
            v, h = teyaku(mask(hand), tb.teyaku, tb.month_masks, tb.kind_masks,
                          tb.params[B.P_COMBINE])
            assert (int(v), int(h)) == NB.teyaku(set(hand), rules), hand
            pile = [int(c) for c in gen.permutation(48)[:int(gen.integers(0, 30))]]
            v, h = dekiyaku(mask(pile), tb.yaku_masks, tb.yaku_ints)
            want = NB.dekiyaku(set(pile), rules)
            assert int(v) == sum(want.values())
            assert {names[i] for i in range(len(names)) if int(h) >> i & 1} == set(want)
    # 10 chaff make Chaff (20), each extra +10 (seed, Baka "Dekiyaku")
    rules, tb, names = tables()
    assert int(dekiyaku(mask(BY_KIND[CHAFF][:9]), tb.yaku_masks, tb.yaku_ints)[0]) == 0
    assert int(dekiyaku(mask(BY_KIND[CHAFF][:10]), tb.yaku_masks, tb.yaku_ints)[0]) == 20
    assert int(dekiyaku(mask(BY_KIND[CHAFF][:12]), tb.yaku_masks, tb.yaku_ints)[0]) == 40


# =============================================================== whole simulations
@pytest.mark.parametrize("policy, expose", [("random", "always"), ("greedy", "random"),
                                            ("greedy,random,random", "never,random,always")])
def test_invariants_hold_over_many_random_rounds(policy, expose):
    # checked=True asserts after every round: every card in exactly one place, hands empty,
    # the draw pile exactly consumed, Low Man Out, yaku settlement and final scores zero-sum.
    df = hanasim.simulate("baka", rounds=30000, seed=1, policy=policy, expose=expose,
                          checked=True).set_index("quantity")
    seats = ("dealer", "right", "left")
    # all 240 card points are captured every round; scores are zero-sum, so the fair pars
    # (mean score + par) sum to 240 too
    assert sum(df.loc[f"card_points.{s}", "estimate"] for s in seats) == pytest.approx(240)
    assert sum(df.loc[f"fair_par.{s}", "estimate"] for s in seats) == pytest.approx(240)
    assert sum(df.loc[f"seat.{s}.mean_score", "estimate"] for s in seats) == \
        pytest.approx(0, abs=1e-9)
    assert sum(df.loc[f"player{p}.game.mean_total", "estimate"] for p in (1, 2, 3)) == \
        pytest.approx(0, abs=1e-9)
    wins = sum(df.loc[f"seat.{s}.win_rate", "estimate"] for s in seats)
    assert wins + df.loc["seat.tie_rate", "estimate"] == pytest.approx(1)
    assert df.loc["low_man_out_rate", "estimate"] > 0
    assert df.loc["settlement.uncovered_rate", "estimate"] > 0


def test_checked_mode_can_fail():
    """The invariant checker is live: a field card lost from the deal must be reported."""
    _, tb, _ = tables()
    order = np.arange(48, dtype=np.int8)
    groups = np.zeros(4, np.uint64)
    deal(order, tb.pattern, groups)
    groups[3] &= ~np.uint64(1 << 9)  # lose one field card
    res = np.zeros(B.R_N, np.int64)
    with pytest.raises(AssertionError):
        B.play_dealt(np.zeros(1, np.uint64), order, groups, np.zeros(B.ST_N, np.uint64), tb,
                     np.zeros(3, np.int64), np.ones(3, np.int64), 0, res, None)


@pytest.mark.parametrize("rules, deals_only", [({}, False), ({"chaff_teyaku": "disabled"}, False),
                                               ({}, True)])
def test_deal_time_rates_agree_with_exact_values(stat_rounds, rules, deals_only):
    """misdeal_rate (all deals) and every teyaku (played deals) within the 99.9% interval of
    the exact fractions of ``hanasim.exact('baka')``; also in the deals-only mode."""
    sim = hanasim.simulate("baka", rounds=stat_rounds * (10 if deals_only else 1), seed=2025,
                           rules=rules, deals_only=deals_only)
    sim = sim.set_index("quantity")
    exact = hanasim.exact("baka", rules=rules)
    want = exact[(exact.condition == "no_misdeal") | (exact.quantity == "misdeal_rate")]
    assert len(want) == (7 if not rules else 3)
    assert sorted(q for q in sim.index if q.startswith("teyaku.")) == \
        sorted(q for q in want.quantity if q.startswith("teyaku."))
    for _, row in want.iterrows():
        s = sim.loc[row.quantity]
        assert s.ci_low <= row.value <= s.ci_high, (row.quantity, row.value, s.ci_low,
                                                    s.ci_high)


def test_deal_spec_follows_the_option():
    g = get_game("baka")
    spec = g.deal_spec(make_rules(B.BakaRules))
    assert spec.group_sizes == (7, 7, 7, 6, 21) and spec.hand_groups == (0, 1, 2)
    assert spec.misdeal_groups == (0, 1, 2, 3)
    assert [t.name for t in spec.teyaku] == list(B.TEYAKU_ALL)
    assert [t.kinds for t in spec.teyaku[1:]] == [(0, 0, 1, 6), (0, 1, 0, 6), (1, 0, 0, 6),
                                                  (0, 0, 0, 7)]
    spec = g.deal_spec(make_rules(B.BakaRules, {"chaff_teyaku": "disabled"}))
    assert [t.name for t in spec.teyaku] == ["triplet"]


def test_identical_policies_give_no_player_edge():
    df = hanasim.simulate("baka", rounds=150_000, seed=5).set_index("quantity")
    for p in (1, 2, 3):
        row = df.loc[f"player{p}.game.mean_total"]
        assert row.ci_low <= 0 <= row.ci_high, p
        row = df.loc[f"player{p}.mean_score"]
        assert row.ci_low <= 0 <= row.ci_high, p
        row = df.loc[f"player{p}.first_dealer_share"]
        assert row.ci_low <= 1 / 3 <= row.ci_high, p
    # every player deals once per game, so the dealing positions are even too
    for pos in B.POSITIONS:
        row = df.loc[f"game.{pos}.mean_total"]
        assert row.ci_low <= 0 <= row.ci_high, pos
    # but within a round the seat matters: the last player (left) does better than the dealer
    assert df.loc["seat.left.mean_score", "ci_low"] > df.loc["seat.dealer.mean_score", "ci_high"]


def test_policy_difference_shows_per_player():
    df = hanasim.simulate("baka", rounds=60_000, seed=6,
                          policy="greedy,random,random").set_index("quantity")
    assert df.loc["player1.game.mean_total", "ci_low"] > 0
    assert df.loc["player2.game.mean_total", "ci_high"] < 0


def test_house_rules_change_what_they_should():
    base = hanasim.simulate("baka", rounds=30_000, seed=9).set_index("quantity")
    forfeit = hanasim.simulate("baka", rounds=30_000, seed=9,
                               rules={"low_man_forfeit": "yes"}).set_index("quantity")
    total = hanasim.simulate("baka", rounds=30_000, seed=9,
                             rules={"card_transfer": "total"}).set_index("quantity")
    # same deals and play: the rates decided before the settlement do not move
    for q in ("misdeal_rate", "teyaku.any", "dekiyaku.any", "low_man_out_rate"):
        assert base.loc[q, "estimate"] == forfeit.loc[q, "estimate"] == total.loc[q, "estimate"]
    assert base.loc["seat.dealer.mean_score", "estimate"] != \
        forfeit.loc["seat.dealer.mean_score", "estimate"]
    assert total.loc["settlement.uncovered_rate", "estimate"] < \
        base.loc["settlement.uncovered_rate", "estimate"]


def test_same_seed_same_table_any_threads():
    game = get_game("baka")
    rules = make_rules(B.BakaRules)
    kw = dict(rounds=20_001, seed=12, policy=np.zeros(3, np.int64),
              expose=np.ones(3, np.int64))
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = game.counters(rules, **kw)
    finally:
        numba.set_num_threads(threads)
    many = game.counters(rules, **kw)
    for k in ("scal", "tcount", "ycount"):
        assert (one[k] == many[k]).all()
    other = game.counters(rules, **dict(kw, seed=13))
    assert (other["scal"] != many["scal"]).any()


def test_fixed_dealer_and_compare():
    # fixed_dealer: player 1 deals every round, so seat "dealer" is player 1
    df = hanasim.simulate("baka", rounds=3000, seed=1, fixed_dealer=True,
                          policy="greedy,random,random").set_index("quantity")
    assert df.loc["player1.first_dealer_share", "estimate"] == 1
    assert df.loc["seat.dealer.mean_score", "estimate"] == df.loc["player1.mean_score",
                                                                   "estimate"]
    # paired comparison: same deals, so rates fixed before the settlement do not differ
    cmp = hanasim.compare("baka", rounds=6000, seed=1, rules={"low_man_forfeit": ["no", "yes"]})
    diff = cmp[cmp.kind == "difference"].set_index("quantity")
    assert diff.loc["low_man_out_rate", "estimate"] == 0
    assert diff.loc["seat.dealer.mean_score", "estimate"] != 0


def test_bad_arguments():
    with pytest.raises(ValueError, match="session_rounds"):
        hanasim.simulate("baka", rounds=30, session_rounds=5)
    with pytest.raises(RuleError):
        hanasim.simulate("baka", rounds=30, rules={"low_man_forfeit": "maybe"})
    with pytest.raises(ValueError):
        hanasim.simulate("baka", rounds=30, policy="greedy,random")


def test_cli(capsys, run_cli):
    r = run_cli("simulate", "baka", "--rounds", "3000", "--seed", "1", "--all")
    assert r.returncode == 0, r.stderr
    assert "seat.left.mean_score" in r.stdout and "low_man_out_rate" in r.stdout
    assert cli_main(["rules", "baka"]) == 0
    out = capsys.readouterr().out
    for name in ("chaff_teyaku", "yaku_rounding", "uncovered", "low_man_forfeit"):
        assert name in out
    assert cli_main(["exact", "baka", "--rule", "chaff_teyaku=disabled"]) == 0
    out = capsys.readouterr().out
    assert "teyaku.triplet" in out and "one_ribbon" not in out
