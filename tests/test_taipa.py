"""Taipa hanafuda (seed 002): the kernel against the plain-Python reference, hand-built cases,
invariants, options and the public layer."""
from fractions import Fraction
from math import comb

import numpy as np
import pytest

import naive_taipa as N
from hanasim.decks import TAIPA as D
from hanasim.games import taipa as T
from hanasim.policies import parse_policy
from hanasim.rules import make_rules


def tables(rules=None, **kw):
    return T.lower(make_rules(T.TaipaRules, rules or {}), **kw)


def pols(*names):
    return T.decode_policies([parse_policy(n) for n in names])


def kernel_game(seed, session, tb, policy, decide, deck=None):
    deck = tb.params[T.P_DECK] if deck is None else mask(deck)  # the start deck (rules)
    out, r, reason, c0, c1, f, t = T.one_game(np.uint64(seed), session, 0, tb, policy, decide,
                                              np.uint64(deck))
    return out[:r], reason, [c0, c1], f, t


def mask(cards):
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def same_game(seed, session, names, rules=None):
    """The kernel and the reference on one game, field by field; returns the reference's."""
    tb = tables(rules, checked=True)
    policy, decide = pols(*names)
    rows, reason, coins, first, turns = kernel_game(seed, session, tb, policy, decide)
    ref = N.play_game(seed, session, 0, list(policy), decide.tolist(), rules)
    rrounds, rreason, rcoins, rfirst, rturns = ref
    assert len(rows) == len(rrounds)
    for row, rd in zip(rows, rrounds):
        got = dict(winner=row[T.R_WINNER], score=row[T.R_SCORE], base=row[T.R_BASE],
                   exhausted=bool(row[T.R_EXHAUSTED]), turns=row[T.R_TURNS],
                   calls=[row[T.R_CALLS], row[T.R_CALLS + 1]], decisions=row[T.R_DECISIONS],
                   piles=[row[T.R_PILE], row[T.R_PILE + 1]], field=row[T.R_FIELD],
                   hands=row[T.R_HANDS], top=row[T.R_TOP], deck=row[T.R_DECK],
                   first=row[T.R_N], paid=row[T.R_N + 1], removed=row[T.R_N + 2])
        want = dict(winner=rd["winner"], score=rd["score"], base=rd["base"],
                    exhausted=rd["exhausted"], turns=rd["turns"], calls=rd["calls"],
                    decisions=rd["decisions"], piles=[mask(p) for p in rd["piles"]],
                    field=mask(rd["field"]), hands=mask(rd["hands"][0] + rd["hands"][1]),
                    top=rd["top"], deck=rd["deck"], first=rd["first"], paid=rd["paid"],
                    removed=rd["removed"])
        assert got == want
    assert (reason, coins, first, turns) == (rreason, rcoins, rfirst, rturns)
    return ref


POLICY_PAIRS = [("random", "random"), ("greedy", "random/continue"),
                ("greedy/threshold4", "random/stop"), ("random/continue3", "greedy")]
RULE_SETS = [None, dict(yaku_cards="first", tie_first="random"),
             dict(yaku_cards="choice", removed_ribbons=1, removed_brights=1),
             dict(coin_cap="uncapped", start_coins=3, game_rounds=6),
             dict(short_deck="end_game", exhausted_removal="keep", last_turn="stop",
                  tie_first="same")]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_kernel_equals_reference(rules, full):
    n = 60 if full else 12
    for k, names in enumerate(POLICY_PAIRS):
        for session in range(n):
            same_game(1000 + k, session, names, rules)


def test_reference_sees_every_ending():
    """The compared games cover agari, exhausted rounds, koi-koi calls, capped payments,
    coin-outs and shrinking decks (else the comparison proves little)."""
    seen = set()
    for session in range(300):
        rounds, reason, coins, _, _ = N.play_game(7, session, 0, [0, 0], [[0, 0], [0, 0]],
                                                  dict(start_coins=3))
        seen.add(("reason", reason))
        for rd in rounds:
            seen.add("exhausted" if rd["exhausted"] else "agari")
            if max(rd["calls"]):
                seen.add("call")
            if rd["paid"] < rd["score"]:
                seen.add("capped")
            if rd["deck"] < 48:
                seen.add("shrunk")
    assert {"exhausted", "agari", "call", "capped", "shrunk", ("reason", 0),
            ("reason", 1)} <= seen


# ---------------------------------------------------------------- hand-built cases
# Card numbers: suit s (1 pine, 2 cherry, 3 susuki, 4 bush clover, 5 maple, 6 peony) holds
# cards 8(s-1)..8s-1: four brights or animals, two ribbons, two chaff (susuki: four chaff).
PINE_B, CHERRY_B, SUSUKI_B = 0, 8, 16


def test_deck_is_the_seeds_table():
    assert D.n == 48 and D.n_months == 6
    kinds = {s: [int(k) for k, m in zip(D.kind, D.month) if m == s] for s in range(1, 7)}
    assert kinds[1] == kinds[2] == [0] * 4 + [2] * 2 + [3] * 2
    assert kinds[3] == [0] * 4 + [3] * 4
    assert kinds[4] == kinds[5] == kinds[6] == [1] * 4 + [2] * 2 + [3] * 2
    assert [bin(int(m)).count("1") for m in D.month_masks()[1:]] == [8] * 6


def test_yaku_repeatable_and_each_card_once():
    tb = tables()
    ribbons = [4, 5, 12, 13, 28, 29, 36, 37, 44, 45]
    assert T.yaku_points(np.uint64(mask(ribbons[:3])), tb) == (1, 1)
    assert T.yaku_points(np.uint64(mask(ribbons[:5])), tb) == (1, 1)   # 5 ribbons: one yaku
    assert T.yaku_points(np.uint64(mask(ribbons[:6])), tb) == (2, 2)   # two three-ribbon sets
    assert T.yaku_points(np.uint64(mask(ribbons)), tb) == (3, 3)
    # two pine brights, one cherry, one susuki: one three-brights, not two
    assert T.yaku_points(np.uint64(mask([0, 1, 8, 16])), tb) == (3, 1)
    assert T.yaku_points(np.uint64(mask([0, 1, 8, 9, 16, 17])), tb) == (6, 2)
    # boar-deer-butterflies 2, three chaff 0 (but a yaku)
    assert T.yaku_points(np.uint64(mask([24, 32, 40, 6, 7, 20])), tb) == (2, 2)
    assert T.yaku_points(np.uint64(mask([24, 25, 32, 33])), tb) == (0, 0)
    for pile in ([0, 1, 8, 16], ribbons[:4], [24, 32, 40, 6, 7, 20]):
        assert sum(N.POINTS[k] for k, _ in N.form_yaku(pile)) == T.yaku_points(
            np.uint64(mask(pile)), tb)[0]


def test_removed_cards_by_option():
    xrng = np.zeros(1, dtype=np.uint64)
    tmp = np.zeros(48, dtype=np.int8)
    cap = np.zeros(48, dtype=np.int64)
    pile = [0, 1, 8, 16, 4, 12, 28, 36, 6, 7, 20]  # brights 2+1+1, 4 ribbons, 3 chaff
    for c, t in zip([36, 28, 12, 4], range(4)):
        cap[c] = t                                  # ribbons captured 36, 28, 12, 4
    tb = tables()
    nxt = np.uint64(T.ALL)
    out = T.removed_cards(np.uint64(mask(pile)), tb, xrng, cap, tmp, T.YC_FIRST, nxt)
    assert int(out) == mask([0, 8, 16, 36, 28, 12, 6, 7, 20])
    seen = set()
    for k in range(200):
        xrng[0] = np.uint64(k * 7919 + 1)
        out = int(T.removed_cards(np.uint64(mask(pile)), tb, xrng, cap, tmp, T.YC_RANDOM, nxt))
        assert out & mask([0, 8, 16, 6, 7, 20]) == mask([0, 8, 16, 6, 7, 20])
        rib = out & mask([4, 12, 28, 36])
        assert bin(rib).count("1") == 3
        seen.add(rib)
    assert len(seen) == 4                            # every way of forming the yaku occurs


def test_yaku_cards_choice_greedy_keeps_the_rich_suits():
    """yaku_cards=choice: a greedy owner keeps the ribbons (chaff) whose suits hold the most
    bright and animal points left in play; a random owner chooses uniformly (as 'random');
    the three readings give different decks for the next round."""
    xrng = np.zeros(1, dtype=np.uint64)
    tmp = np.zeros(48, dtype=np.int8)
    cap = np.zeros(48, dtype=np.int64)
    tb = tables(dict(yaku_cards="choice"))
    pile = [4, 12, 28, 36]          # ribbons of pine, cherry, bush clover, maple
    cap[4], cap[12], cap[28], cap[36] = 3, 2, 1, 0   # captured maple first, pine last
    # left in play: pine and cherry brights all gone, bush clover 4 boars, maple 1 deer
    nxt = np.uint64(mask([24, 25, 26, 27, 32]))
    greedy = int(T.removed_cards(np.uint64(mask(pile)), tb, xrng, cap, tmp, T.YC_GREEDY, nxt))
    assert greedy == mask([4, 12, 36])   # keeps the bush clover ribbon (8 points in its suit)
    first = int(T.removed_cards(np.uint64(mask(pile)), tb, xrng, cap, tmp, T.YC_FIRST, nxt))
    assert first == mask([36, 28, 12])
    # ties (pine and cherry both 0 points): the lower card leaves
    nxt = np.uint64(mask([24, 25, 26, 27, 32, 33, 34]))
    greedy = int(T.removed_cards(np.uint64(mask(pile)), tb, xrng, cap, tmp, T.YC_GREEDY, nxt))
    assert greedy == mask([4, 12, 36])
    # the reference agrees on the choice
    nxt_cards = [24, 25, 26, 27, 32]
    got = N.leaving(pile, dict(N.DEFAULTS, yaku_cards="choice"), xrng, cap, nxt_cards,
                    pol=parse_policy("greedy") & 0xF)
    assert got == {4, 12, 36}


def test_yaku_cards_readings_change_the_game():
    """The same seeds under random, first and choice (greedy owners) leave different decks:
    the option is not a no-op, and choice with random players is exactly 'random'."""
    policy, decide = pols("greedy", "greedy")
    decks = {}
    for mode in ("random", "first", "choice"):
        tb = tables(dict(yaku_cards=mode), checked=True)
        decks[mode] = [tuple(int(r[T.R_DECK]) for r in kernel_game(21, s, tb, policy, decide)[0])
                       + tuple(int(r[T.R_PILE]) for r in kernel_game(21, s, tb, policy,
                                                                       decide)[0])
                       for s in range(40)]
    assert decks["random"] != decks["choice"] and decks["first"] != decks["choice"]
    policy, decide = pols("random", "random")
    a = [kernel_game(22, s, tables(dict(yaku_cards=m)), policy, decide)[2] for m in
         ("random", "choice") for s in range(30)]
    assert a[:30] == a[30:]


def crafted_round(seat0_policy, seat1_policy="greedy"):
    """An 18-card deck (no draw pile): seat 0 holds five ribbons and a pine chaff, the field
    their partners; seat 1 holds only susuki cards, which never complete a yaku."""
    hand0 = [4, 12, 28, 36, 44, 6]
    hand1 = [16, 17, 18, 19, 20, 21]
    field = [5, 13, 29, 37, 45, 7]
    order = np.zeros(48, dtype=np.int8)
    order[:18] = hand0 + hand1 + field
    tb = tables(checked=True)
    policy, decide = pols(seat0_policy, seat1_policy)
    res = np.zeros(T.R_N, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    T.play_round(order, 18, rng, tb, policy, decide, 0, res, np.zeros(48, dtype=np.int64),
                 np.zeros(T.ST_N, dtype=np.uint64), None)
    T.check_round(order, 18, np.uint64(mask(range(48)) & mask(order[:18])), res)
    ref = N.play_round([int(x) for x in order], 18, rng, list(policy), decide.tolist(), 0,
                       dict(N.DEFAULTS))
    assert (res[T.R_WINNER], res[T.R_SCORE], res[T.R_CALLS]) == (
        ref["winner"], ref["score"], ref["calls"][0])
    return res


def test_koikoi_doubles_only_once():
    # continue while 2+ cards are left: koi-koi at 4 ribbons (4 cards left) and 6 (3 left),
    # agari at 10 ribbons (1 left): three ribbon yaku = 3 points, x2 for the calls, not x4
    res = crafted_round("greedy/continue2")
    assert res[T.R_WINNER] == 0 and res[T.R_CALLS] == 2
    assert res[T.R_BASE] == 3 and res[T.R_SCORE] == 6
    res = crafted_round("greedy/stop")                 # agari at the first yaku: 1 point
    assert (res[T.R_WINNER], res[T.R_SCORE], res[T.R_CALLS]) == (0, 1, 0)


def test_exhausted_round_forfeits():
    # continue while a card is left: koi-koi three times, the last turn forms no new yaku and
    # the hands run out: nobody scores, the caller forfeits his 3 yaku points
    res = crafted_round("greedy/continue1")
    assert res[T.R_EXHAUSTED] == 1 and res[T.R_WINNER] == -1 and res[T.R_SCORE] == 0
    assert res[T.R_CALLS] == 3 and res[T.R_TOP] == 18
    assert T.yaku_points(np.uint64(res[T.R_PILE]), tables())[0] == 3


def test_games_shrink_conserve_and_end_on_coins():
    tb = tables(dict(start_coins=2), checked=True)
    policy, decide = pols("random", "random/continue")
    reasons = set()
    for session in range(300):
        rows, reason, coins, first, turns = kernel_game(3, session, tb, policy, decide)
        reasons.add(reason)
        assert sum(coins) == 4 and min(coins) >= 0
        assert rows[0][T.R_DECK] == 48
        for a, b in zip(rows, rows[1:]):
            assert b[T.R_DECK] == a[T.R_DECK] - a[T.R_N + 2]       # the deck shrinks
        if reason == 1:
            assert min(coins) == 0 and len(rows) <= 3
        elif reason == 0:
            assert len(rows) == 3 and min(coins) > 0
        for row in rows:
            w = row[T.R_WINNER]
            if w >= 0:
                assert row[T.R_SCORE] == row[T.R_BASE] * (2 if row[T.R_CALLS + w] else 1)
    assert {0, 1} <= reasons


def test_short_deck_rules():
    """A deck of fewer than 30 cards: short_pile plays it (turns without a draw once the
    pile is empty); end_game ends the game before it.  Six-round games whose players always
    call koi-koi remove many cards."""
    for short, want in (("short_pile", True), ("end_game", False)):
        tb = tables(dict(short_deck=short, game_rounds=6, coin_cap="uncapped",
                         start_coins=100), checked=True)
        policy, decide = pols("greedy/continue6", "greedy/continue6")
        small = ended = 0
        for session in range(200):
            rows, reason, coins, _, _ = kernel_game(11, session, tb, policy, decide)
            small += sum(r[T.R_DECK] < 30 for r in rows)
            ended += reason == 2
            assert all(r[T.R_DECK] >= 18 for r in rows)
        assert (small > 0) == want and (ended > 0) == (not want)


# ---------------------------------------------------------------- public layer

def sampled_deals(deck, n, seed):
    """Independent of the kernels: ``n`` deals of the cards of ``deck`` by numpy, as a bool
    array [deal, place (hand, hand, field), yaku kind]."""
    cards = np.array(sorted(deck))
    rng = np.random.default_rng(seed)
    picks = cards[np.argsort(rng.random((n, len(cards))), axis=1)[:, :18]].reshape(n, 3, 6)
    classes = np.array([[int(c) in {i for i in range(48) if m >> i & 1} for m in T.CLASSES]
                        for c in range(48)])                    # card -> its class
    counts = classes[picks].sum(axis=2)                         # [deal, place, class]
    return np.stack([counts[..., 0:3].min(-1) > 0, counts[..., 3:6].min(-1) > 0,
                     counts[..., 6] >= 3, counts[..., 7] >= 3], axis=-1)


@pytest.mark.parametrize("removed", [{}, dict(removed_brights=1, removed_ribbons=2),
                                     dict(removed_animals=3, removed_chaff=4)])
def test_exact_deal_probabilities_match_sampling(removed):
    """The exact odds (dynamic programming over the eight yaku classes) against numpy
    sampling of whole deals: one place, and a hand or the field (the union)."""
    rules = make_rules(T.TaipaRules, removed)
    deck = T.start_deck(rules)
    cards = [c for c in range(48) if deck >> c & 1]
    n = 60_000
    held = sampled_deals(cards, n, 5)
    for places, got in (((0,), held[:, 0]), ((0, 1, 2), held.any(axis=1))):
        exact = T.deal_probabilities(deck, places)
        for i, y in enumerate(T.YAKU + ("any",)):
            g = got[:, i].mean() if y != "any" else got.any(axis=1).mean()
            p = float(exact[y])
            assert abs(g - p) <= 4.5 * (p * (1 - p) / n) ** 0.5 + 1e-12, (places, y, g, p)


def test_exact_deal_small_cases():
    """Hand-checkable values: the full deck's one-place values (hypergeometric), a deck with
    no ribbons left, and a deck of 18 cards (every card dealt)."""
    exact = T.deal_probabilities()
    assert exact["any"] == Fraction(216426, 511313)
    # three brights in one 6-card group: inclusion-exclusion over the three bright classes
    c = comb
    miss = 3 * c(44, 6) - 3 * c(40, 6) + c(36, 6)
    assert exact["three_brights"] == 1 - Fraction(miss, c(48, 6))
    none = make_rules(T.TaipaRules, dict(removed_ribbons=3))   # 9 of 10 ribbons gone
    assert T.deal_probabilities(T.start_deck(none), (0, 1, 2))["ribbons"] == 0
    # 18 cards: 4 pine, 4 cherry, 4 susuki brights and 6 chaff: every card is dealt
    deck = sum(1 << i for i in list(range(0, 4)) + list(range(8, 12)) + list(range(16, 22))
               + [6, 7, 14, 15])
    p = T.deal_probabilities(deck, (0, 1, 2))
    assert 0 < p["three_brights"] < 1 and p["chaff"] > 0
    with pytest.raises(ValueError, match="cannot be dealt"):
        T.deal_probabilities((1 << 17) - 1)


def test_simulate_reproducible_and_consistent():
    import hanasim
    import numba

    a = hanasim.simulate("taipa", rounds=3000, seed=9, policy="random,greedy/continue")
    numba.set_num_threads(1)
    try:
        b = hanasim.simulate("taipa", rounds=3000, seed=9, policy="random,greedy/continue")
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert a[["quantity", "estimate", "n"]].equals(b[["quantity", "estimate", "n"]])
    by = a.set_index("quantity")["estimate"]
    assert by["round.1.deck_size.mean"] == 48
    assert by["round.2.deck_size.mean"] < 48
    assert abs(by["round.first_player.win_rate"] + by["round.second_player.win_rate"]
               + by["round.exhausted_rate"] - 1) < 1e-12
    assert abs(sum(by[f"game.rounds.{k}"] for k in (1, 2, 3)) - 1) < 1e-12
    assert abs(by["game.minutes.mean"] - by["game.turns.mean"] * T.SECONDS_PER_TURN / 60) < 1e-9
    # the per-round-number rows split the pooled ones: weighted by rounds of each number
    n = a.set_index("quantity")["n"]
    nk = [n[f"round.{k}.first_player.win_rate"] for k in (1, 2, 3)]
    assert sum(nk) == n["round.first_player.win_rate"] == 3000
    for pooled, per in [("round.first_player.mean_net", "first_player.mean_net"),
                        ("round.exhausted_rate", "exhausted_rate"),
                        ("round.cards_removed.mean", "cards_removed.mean"),
                        ("round.deck_size.mean", "deck_size.mean")] + [
                           (f"yaku.{y}", f"yaku.{y}") for y in T.YAKU]:
        split = sum(by[f"round.{k}.{per}"] * m for k, m in zip((1, 2, 3), nk)) / sum(nk)
        assert abs(split - by[pooled]) < 1e-9, pooled
    assert by["round.3.deck_size.mean"] < by["round.2.deck_size.mean"]


@pytest.mark.parametrize("removed", [{}, dict(removed_brights=2, removed_chaff=1)])
def test_simulated_deals_agree_with_exact(removed, full):
    """Round 1's deal, simulated (deals-only, and inside whole games) against the exact
    fractions of `hanasim exact taipa` on the same start deck: every exact value inside the
    simulated 99.9% interval (seeded, so the test is deterministic)."""
    import hanasim

    ex = hanasim.exact("taipa", rules=removed).set_index("quantity")
    assert len(ex) == 10 and set(ex["condition"]) == {T.deck_condition(
        make_rules(T.TaipaRules, removed))}
    runs = [hanasim.simulate("taipa", rounds=400_000 if full else 60_000, seed=4,
                             rules=removed, deals_only=True)]
    if not removed:
        runs.append(hanasim.simulate("taipa", rounds=60_000 if full else 12_000, seed=4))
    for df in runs:
        df = df.set_index("quantity")
        for q, e in ex.iterrows():
            row = df.loc[q]
            assert row.ci_low <= e.value <= row.ci_high, (q, e.value, row.estimate)


def test_bad_input_is_one_clear_error():
    import hanasim

    with pytest.raises(ValueError, match="coin_cap"):
        hanasim.simulate("taipa", rounds=10, seed=1, rules={"coin_cap": "sometimes"})
    with pytest.raises(ValueError, match="start_coins"):
        hanasim.simulate("taipa", rounds=10, seed=1, rules={"start_coins": 0})
    with pytest.raises(ValueError, match="a deal needs 18"):
        hanasim.simulate("taipa", rounds=10, seed=1, rules=dict(
            removed_chaff=4, removed_ribbons=3, removed_brights=4, removed_animals=1))
    with pytest.raises(ValueError, match="unknown yaku"):
        T.Taipa().removed_rules("three_brights,five_brights")
    with pytest.raises(ValueError, match="no expose decision"):
        hanasim.simulate("taipa", rounds=10, seed=1, expose="never")
    df = hanasim.simulate("taipa", rounds=10, seed=1)
    assert df.attrs["expose"] == "none"      # not a choice that was never made
    with pytest.raises(ValueError, match="session_rounds"):
        hanasim.simulate("taipa", rounds=10, seed=1, session_rounds=3)


def test_cli_rules_and_exact(capsys):
    from hanasim.cli import main

    assert main(["rules", "taipa"]) in (0, None)
    assert "yaku_cards" in capsys.readouterr().out
    assert main(["exact", "taipa"]) in (0, None)
    out = capsys.readouterr().out
    assert "216426/511313" in out and "deal.any_place_holds.any" in out
    # the deck after a three-brights and two three-ribbon yaku left: 39 cards
    assert main(["exact", "taipa", "--removed", "three_brights,ribbons*2"]) in (0, None)
    out = capsys.readouterr().out
    assert "deck_39: removed three_brights x1, ribbons x2" in out
    assert main(["exact", "taipa", "--removed", "chaff*9"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["exact", "toppa", "--removed", "chaff"]) == 2
    assert "applies to taipa" in capsys.readouterr().err


def test_cli_simulate_header_and_deals_only(capsys, tmp_path):
    """The header shows what applies to Taipa (policies, no expose: Taipa has no teyaku)."""
    from hanasim.cli import main

    assert main(["simulate", "taipa", "--rounds", "600", "--seed", "3", "--no-save"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "policies random,random" in head and "expose" not in head
    assert main(["simulate", "taipa", "--deals-only", "--rounds", "640", "--seed", "3",
                 "--no-save", "--rule", "removed_ribbons=1", "--all"]) == 0
    out = capsys.readouterr().out
    assert "deals only" in out.splitlines()[0] and "deal.any_place_holds.any" in out
    assert "round.first_player" not in out


def test_small_decks():
    """17 cards cannot be dealt (the game ends, no round); 18 to 29 are played with a draw pile
    that runs out (short_pile: turns without a draw, every hand card still played) or end the
    game (end_game).  The kernel equals the reference on them."""
    policy, decide = pols("random", "random")
    cards = list(range(0, 48, 2)) + [1, 3, 5, 7, 9]      # 29 cards
    for n, short, played in ((17, "short_pile", False), (18, "short_pile", True),
                             (29, "short_pile", True), (29, "end_game", False),
                             (30, "end_game", True)):
        deck = (cards + [11])[:n]
        rules = dict(short_deck=short)
        tb = tables(rules, checked=True)
        for session in range(20):
            rows, reason, coins, first, turns = kernel_game(4, session, tb, policy, decide, deck)
            ref = N.play_game(4, session, 0, list(policy), decide.tolist(), rules, deck=deck)
            assert (len(rows), reason, coins, turns) == (len(ref[0]), ref[1], ref[2], ref[4])
            if not played:
                assert len(rows) == 0 and reason == 2 and coins == [10, 10]
                continue
            assert rows[0][T.R_DECK] == n
            for row, rd in zip(rows, ref[0]):
                assert row[T.R_TOP] == rd["top"] and row[T.R_PILE] == mask(rd["piles"][0])
                if row[T.R_EXHAUSTED]:
                    assert row[T.R_HANDS] == 0 and row[T.R_TURNS] == 12


def session_counters(rules, names, rounds, seed):
    policy = [parse_policy(n) for n in names]
    return T.Taipa().counters(make_rules(T.TaipaRules, rules), rounds=rounds, seed=seed,
                              policy=policy, progress=False)


def test_sessions_are_whole_games_back_to_back():
    """A session on the engine's loop (game.py's hooks) is whole games back to back from round
    index 0: rounds counted until SERIES_ROUNDS, the session's last game played to its end (its
    further rounds not counted) and counted as a game; the last session cut off by the run.
    The kernel's counters against the plain-Python reference's games, session by session."""
    from hanasim.games.taipa import tally as C

    rules = dict(tie_first="random")
    names = ("random", "greedy/continue")
    policy, decide = pols(*names)
    rounds = 2 * T.SERIES_ROUNDS + 37
    got = session_counters(rules, names, rounds, seed=11)
    want = dict(rounds=0, games=0, game_rounds=0, p0_coins=0, deck=0, removed=0)
    hist_rounds = [0] * (T.MAX_ROUNDS + 1)
    for s in range(3):
        n_rounds = min(T.SERIES_ROUNDS, rounds - s * T.SERIES_ROUNDS)
        counted = 0
        i = 0
        while counted < n_rounds:
            rds, reason, coins, first, turns = N.play_game(11, s, i, list(policy),
                                                           decide.tolist(), rules)
            i += max(len(rds), 1)
            for rd in rds[:n_rounds - counted]:
                want["rounds"] += 1
                want["deck"] += rd["deck"]
                want["removed"] += rd["removed"]
            counted += min(max(len(rds), 1), n_rounds - counted)
            want["games"] += 1
            want["game_rounds"] += len(rds)
            want["p0_coins"] += coins[0]
            hist_rounds[len(rds)] += 1
    s = got["scal"]
    assert dict(rounds=s[C.C_ROUNDS], games=s[C.C_GAMES], game_rounds=s[C.C_GAME_ROUNDS],
                p0_coins=s[C.C_P0_COINS], deck=s[C.C_DECK], removed=s[C.C_REMOVED]) == want
    assert list(got["hist"][C.H_ROUNDS:C.H_ROUNDS + T.MAX_ROUNDS + 1]) == hist_rounds


def test_a_deck_that_cannot_be_dealt_makes_games_of_no_round():
    """short_deck=end_game with a start deck of 24 cards (fewer than a full round's 30): no
    round is ever dealt; every session round is a game of no round, ended by the deck."""
    from hanasim.games.taipa import tally as C

    rules = dict(short_deck="end_game", removed_brights=4, removed_animals=4)
    rounds = T.SERIES_ROUNDS + 5
    c = session_counters(rules, ("greedy", "greedy"), rounds, seed=3)
    s = c["scal"]
    assert (s[C.C_ROUNDS], s[C.C_GAMES], s[C.C_DECK_END], s[C.C_GAME_ROUNDS],
            c["hist"][C.H_ROUNDS]) == (0, rounds, rounds, 0, rounds)
