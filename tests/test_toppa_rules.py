"""Hand-built Toppa situations with outcomes worked out by hand from the rules (seed
000_a569c68da0494d09, section "Toppa (for 2 players)").  Every expected number is written out,
with the reason in a comment.
"""
from __future__ import annotations

import numpy as np
import pytest

from hanasim.decks import HANAFUDA as D
from hanasim.engine.deal import deal
from hanasim.engine.play import capture
from hanasim.engine.rng import next64
from hanasim.engine.rng import below
from hanasim.engine.yaku import dekiyaku, teyaku
from hanasim.games import toppa as T
from hanasim.policies import GREEDY, RANDOM, hand_card, take_high
from hanasim.rules import make_rules


def c(name):
    return D.card(name)


def mask(names):
    m = 0
    for n in names:
        m |= 1 << c(n)
    return np.uint64(m)


def cards(m):
    return {D.names[i] for i in range(48) if int(np.uint64(np.int64(m))) >> i & 1}


_TB = {}


def tables(**given):
    key = tuple(sorted(given.items()))
    if key not in _TB:
        tb, names = T.lower(make_rules(T.ToppaRules, given))
        tb.params[T.P_CHECKED] = 1
        _TB[key] = (tb, names)
    return _TB[key]


def stack(dealer, opponent, field, pile=(), *, fill_seed=0):
    """A deck order (int8[48]) putting the named cards in the dealer's hand, the opponent's hand,
    on the field (positions per ``T.DEAL_PATTERN``) and on top of the draw pile (in order).
    Groups not given in full are filled with the remaining cards in a fixed shuffled order."""
    want = {0: [c(n) for n in dealer], 1: [c(n) for n in opponent], 2: [c(n) for n in field]}
    pile = [c(n) for n in pile]
    used = [x for g in want.values() for x in g] + pile
    assert len(set(used)) == len(used), "a card is placed twice"
    sizes = {0: 10, 1: 10, 2: 8}
    assert all(len(want[g]) <= sizes[g] for g in want)
    rest = [x for x in np.random.default_rng(fill_seed).permutation(48).tolist() if x not in used]
    for g in (0, 1, 2):
        while len(want[g]) < sizes[g]:
            want[g].append(rest.pop(0))
    order = []
    for g in T.DEAL_PATTERN:
        order.append(want[int(g)].pop(0))
    order += pile + rest
    assert sorted(order) == list(range(48))
    order = np.array(order, dtype=np.int8)
    # The kernel's own deal puts the cards where we wanted them, and it is not a misdeal.
    groups = np.zeros(3, np.uint64)
    deal(order, T.DEAL_PATTERN, groups)
    for g, given in enumerate((dealer, opponent, field)):
        assert set(given) <= cards(groups[g])
        months = [D.names[i].split(".")[0] for i in range(48) if int(groups[g]) >> i & 1]
        assert max(months.count(m) for m in months) < 4, "misdeal"
    assert [D.names[i] for i in order[28:28 + len(pile)]] == [D.names[i] for i in pile]
    return order


def play(order, dealer=0, policy=(GREEDY, GREEDY), expose=(1, 1), seed=1, **rules):
    tb, names = tables(**rules)
    groups = np.zeros(3, np.uint64)
    deal(order, tb.pattern, groups)
    rng = np.array([seed], dtype=np.uint64)
    res = np.zeros(T.R_N, np.int64)
    T.play_dealt(rng, order, groups, np.zeros(T.ST_N, np.uint64), tb,
                 np.array(policy, np.int64), np.array(expose, np.int64), dealer, res, None)
    return res, names, rng


def hits(h, names):
    return {names[i] for i in range(len(names)) if int(h) >> i & 1}


# =============================================================== capturing (Turns)
TB0, NAMES0 = tables()


def put(card, field, policy=GREEDY, seed=5):
    """Play ``card`` onto ``field`` as the first placement of a turn (a random player draws
    the turn's word; bit 0 decides a two-way match)."""
    rng = np.array([seed], dtype=np.uint64)
    r = np.uint64(next64(rng)) if policy == RANDOM else np.uint64(0)
    high = np.uint64(take_high(policy, c(card), mask(field), r, TB0.ghigh))
    f, cap = capture(c(card), mask(field), high)
    return cards(f), cards(cap), rng


def test_no_match_stays_on_field():
    # plum chaff matches nothing: it is laid on the table, nothing is captured.
    f, cap, _ = put("plum.chaff1", ["pine.crane", "cherry.curtain"])
    assert f == {"pine.crane", "cherry.curtain", "plum.chaff1"} and cap == set()


def test_one_match_captures_the_pair():
    f, cap, _ = put("pine.chaff1", ["pine.crane", "plum.chaff1"])
    assert cap == {"pine.crane", "pine.chaff1"} and f == {"plum.chaff1"}


def test_two_matches_greedy_takes_heavier_card():
    # crane (bright, 20 points + bright yaku shares) outweighs the poetry ribbon.
    f, cap, _ = put("pine.chaff1", ["pine.crane", "pine.poetry_ribbon", "plum.chaff1"])
    assert cap == {"pine.crane", "pine.chaff1"} and f == {"pine.poetry_ribbon", "plum.chaff1"}
    # maple: the blue ribbon (5 + blue/ribbon yaku shares = 20.24) outweighs the deer
    # (10 + boar-deer-butterfly share = 16.67) although it has the higher card index.
    assert TB0.weights[c("maple.blue_ribbon")] > TB0.weights[c("maple.deer")]
    f, cap, _ = put("maple.chaff1", ["maple.deer", "maple.blue_ribbon"])
    assert cap == {"maple.blue_ribbon", "maple.chaff1"} and f == {"maple.deer"}
    # equal weights (two paulownia chaff): the lower card index.
    f, cap, _ = put("paulownia.chaff3", ["paulownia.chaff2", "paulownia.chaff1"])
    assert cap == {"paulownia.chaff1", "paulownia.chaff3"} and f == {"paulownia.chaff2"}


def test_two_matches_greedy_uses_no_randomness():
    _, _, rng = put("pine.chaff1", ["pine.crane", "pine.poetry_ribbon"], GREEDY, seed=99)
    assert int(rng[0]) == 99


@pytest.mark.parametrize("seed", range(12))
def test_two_matches_random_follows_one_coin(seed):
    # random: bit 0 of the turn's word clear takes the lower card index (pine.crane = 0), set
    # the higher.
    probe = np.array([seed], dtype=np.uint64)
    lower = (int(next64(probe)) & 1) == 0
    f, cap, rng = put("pine.chaff1", ["pine.crane", "pine.poetry_ribbon"], RANDOM, seed=seed)
    taken = "pine.crane" if lower else "pine.poetry_ribbon"
    assert cap == {taken, "pine.chaff1"}
    assert f == {"pine.crane", "pine.poetry_ribbon"} - {taken}
    assert int(rng[0]) == int(probe[0])  # exactly one draw


def test_two_matches_random_takes_both_sides():
    taken = set()
    for seed in range(40):
        _, cap, _ = put("pine.chaff1", ["pine.crane", "pine.poetry_ribbon"], RANDOM, seed=seed)
        taken |= cap - {"pine.chaff1"}
    assert taken == {"pine.crane", "pine.poetry_ribbon"}


def test_three_matches_capture_all_four():
    # three pine cards on the table: the fourth takes all three (no choice).
    f, cap, rng = put("pine.chaff2", ["pine.crane", "pine.poetry_ribbon", "pine.chaff1",
                                      "plum.chaff1"], RANDOM, seed=3)
    assert cap == {"pine.crane", "pine.poetry_ribbon", "pine.chaff1", "pine.chaff2"}
    probe = np.array([3], dtype=np.uint64)
    next64(probe)
    assert f == {"plum.chaff1"} and int(rng[0]) == int(probe[0])  # the turn's one word


def hand_choice(hand, field, policy=GREEDY, seed=1):
    rng = np.array([seed], dtype=np.uint64)
    r = np.uint64(next64(rng)) if policy == RANDOM else np.uint64(0)
    return D.names[hand_card(policy, mask(hand), mask(field), r, TB0.gscore)]


def test_greedy_hand_card():
    # pine.chaff1 takes the crane (1.67 + 48.67); susuki.chaff1 takes the moon (same weights,
    # but pine.chaff1 has the lower index); maple.deer takes a chaff only (16.67 + 1.67).
    assert hand_choice(["pine.chaff1", "susuki.chaff1", "maple.deer"],
                       ["pine.crane", "susuki.moon", "maple.chaff1"]) == "pine.chaff1"
    # the three-match sum (pine 4 cards) beats taking a single bright with a chaff.
    assert hand_choice(["pine.chaff2", "susuki.chaff1"],
                       ["pine.crane", "pine.poetry_ribbon", "pine.chaff1", "susuki.moon"]) \
        == "pine.chaff2"
    # two matches count the heavier one only: chaff vs (crane | poetry) = 1.67 + 48.67 is less
    # than curtain (48.67) + cherry poetry ribbon (20.24).
    assert hand_choice(["pine.chaff2", "cherry.curtain"],
                       ["pine.crane", "pine.poetry_ribbon", "cherry.poetry_ribbon"]) \
        == "cherry.curtain"
    # nothing matches: discard the lightest (sake cup 10 < willow swallow 12.86 < moon).
    assert hand_choice(["susuki.moon", "willow.swallow", "chrysanthemum.sake_cup"],
                       ["pine.crane"]) == "chrysanthemum.sake_cup"
    # a matching card is preferred even if it is light and the others are heavy.
    assert hand_choice(["susuki.moon", "pine.chaff1"], ["pine.chaff2"]) == "pine.chaff1"


# =============================================================== teyaku (Checking for Teyaku)
TEY = {"triplet": 1, "one_ribbon": 2, "one_animal": 4, "one_bright": 8, "empty_hand": 16}


def tey(hand, combine="add"):
    assert len(hand) == 10 and len(set(hand)) == 10
    tb, _ = tables(teyaku_combine=combine)
    v, h = teyaku(mask(hand), tb.teyaku, tb.month_masks, tb.kind_masks, tb.params[T.P_COMBINE])
    return int(v), int(h)


NINE_CHAFF = ["pine.chaff1", "pine.chaff2", "plum.chaff1", "plum.chaff2", "cherry.chaff1",
              "cherry.chaff2", "peony.chaff1", "peony.chaff2", "maple.chaff1"]  # no triplet
TRIPLET = ["pine.crane", "pine.poetry_ribbon", "pine.chaff1"]
OTHERS7 = ["plum.bush_warbler", "cherry.curtain", "wisteria.ribbon", "iris.bridge",
           "susuki.moon", "maple.deer", "willow.swallow"]  # 7 months, 2 brights: no teyaku


@pytest.mark.parametrize("combine", ["add", "highest"])
def test_teyaku_single(combine):
    assert tey(TRIPLET + OTHERS7, combine) == (20, TEY["triplet"])
    assert tey(NINE_CHAFF + ["wisteria.ribbon"], combine) == (20, TEY["one_ribbon"])
    # willow cards count by their own kind: the willow ribbon is a ribbon, the swallow an
    # animal, the rain man a bright, the lightning a chaff.
    assert tey(NINE_CHAFF + ["willow.ribbon"], combine) == (20, TEY["one_ribbon"])
    assert tey(NINE_CHAFF + ["susuki.geese"], combine) == (20, TEY["one_animal"])
    assert tey(NINE_CHAFF + ["willow.swallow"], combine) == (20, TEY["one_animal"])
    assert tey(NINE_CHAFF + ["paulownia.phoenix"], combine) == (20, TEY["one_bright"])
    assert tey(NINE_CHAFF + ["willow.rain_man"], combine) == (20, TEY["one_bright"])
    assert tey(NINE_CHAFF + ["willow.lightning"], combine) == (30, TEY["empty_hand"])
    assert tey(NINE_CHAFF + ["susuki.chaff1"], combine) == (30, TEY["empty_hand"])
    # two ribbons and eight chaff, or a ribbon + an animal + eight chaff: nothing.
    assert tey(NINE_CHAFF[:8] + ["wisteria.ribbon", "iris.ribbon"], combine) == (0, 0)
    assert tey(NINE_CHAFF[:8] + ["wisteria.ribbon", "iris.bridge"], combine) == (0, 0)
    assert tey(OTHERS7 + ["iris.ribbon", "susuki.geese", "paulownia.phoenix"], combine) == (0, 0)


def test_two_triplets_add_and_highest():
    hand = TRIPLET + ["plum.bush_warbler", "plum.poetry_ribbon", "plum.chaff1"] + \
        ["cherry.curtain", "wisteria.ribbon", "iris.bridge", "susuki.moon"]
    assert tey(hand, "add") == (40, TEY["triplet"])       # each triplet 20
    assert tey(hand, "highest") == (20, TEY["triplet"])   # only the best teyaku: 20
    three = TRIPLET + ["plum.bush_warbler", "plum.poetry_ribbon", "plum.chaff1",
                       "cherry.curtain", "cherry.poetry_ribbon", "cherry.chaff1", "susuki.moon"]
    assert tey(three, "add") == (60, TEY["triplet"])
    assert tey(three, "highest") == (20, TEY["triplet"])


def test_triplet_with_chaff_teyaku():
    # ten chaff including three paulownia chaff: empty hand (30) and a triplet (20).
    hand = NINE_CHAFF[:7] + ["paulownia.chaff1", "paulownia.chaff2", "paulownia.chaff3"]
    assert tey(hand, "add") == (50, TEY["triplet"] | TEY["empty_hand"])
    assert tey(hand, "highest") == (30, TEY["triplet"] | TEY["empty_hand"])
    # one bright + nine chaff where the bright and two chaff are the three susuki cards:
    # one bright (20) and a triplet (20)
    hand = ["susuki.moon", "susuki.chaff1", "susuki.chaff2"] + NINE_CHAFF[:7]
    assert tey(hand, "add") == (40, TEY["triplet"] | TEY["one_bright"])
    assert tey(hand, "highest") == (20, TEY["triplet"] | TEY["one_bright"])


TRIPLET_DEAL = dict(
    dealer=TRIPLET + OTHERS7,
    opponent=["plum.chaff1", "plum.chaff2", "cherry.chaff1", "cherry.chaff2", "peony.chaff1",
              "peony.chaff2", "maple.chaff1", "maple.chaff2", "iris.chaff1", "willow.ribbon"],
)


@pytest.mark.parametrize("expose, scored", [((1, 1), (20, 20)), ((0, 0), (0, 0)),
                                            ((1, 0), (20, 0)), ((0, 1), (0, 20))])
def test_teyaku_exposure_in_a_round(expose, scored):
    # Dealer (player 0) holds a triplet (20), opponent (player 1) one ribbon + nine chaff (20).
    # Only exposed teyaku score; held teyaku are reported either way.
    order = stack(TRIPLET_DEAL["dealer"], TRIPLET_DEAL["opponent"], [])
    res, _, _ = play(order, dealer=0, expose=expose)
    assert [res[T.R_TEY_HELD], res[T.R_TEY_HELD + 1]] == [TEY["triplet"], TEY["one_ribbon"]]
    assert (res[T.R_TEY_SCORED], res[T.R_TEY_SCORED + 1]) == scored
    for s in range(2):
        assert res[T.R_YAKU + s] == res[T.R_DEKI + s] + scored[s]
    # With player 1 dealing, seat 0 is player 1: the expose choices swap seats.
    res, _, _ = play(order, dealer=1, expose=expose)
    assert (res[T.R_TEY_SCORED], res[T.R_TEY_SCORED + 1]) == (scored[1], scored[0])


def test_teyaku_random_exposure_draws():
    # expose=2 (random) draws below(rng, 2) for seat 0 then seat 1; both hold a teyaku here.
    order = stack(TRIPLET_DEAL["dealer"], TRIPLET_DEAL["opponent"], [])
    seen = set()
    for seed in range(16):
        probe = np.array([seed], dtype=np.uint64)
        e0 = below(probe, 2) == 1
        e1 = below(probe, 2) == 1
        res, _, _ = play(order, expose=(2, 2), seed=seed)
        assert (res[T.R_TEY_SCORED], res[T.R_TEY_SCORED + 1]) == (20 * e0, 20 * e1)
        seen.add((e0, e1))
    assert len(seen) == 4


# =============================================================== dekiyaku (List of Dekiyaku)
def deki(names_, **rules):
    """The table's dekiyaku of a pile; the kernel's ``score_pile`` must agree."""
    tb, names = tables(**rules)
    v, h = dekiyaku(mask(names_), tb.yaku_masks, tb.yaku_ints)
    fast = T.score_pile(mask(names_), tb.yaku_masks, tb.yaku_ints)
    assert (int(fast[0]), int(fast[1])) == (int(v), int(h))
    return int(v), hits(h, names)


BRIGHT5 = ["pine.crane", "cherry.curtain", "susuki.moon", "willow.rain_man", "paulownia.phoenix"]
DRY4 = ["pine.crane", "cherry.curtain", "susuki.moon", "paulownia.phoenix"]


def test_bright_yaku():
    # five brights 60 (or 40), and only the best bright yaku counts (no four/rainy on top).
    assert deki(BRIGHT5) == (60, {"five_brights"})
    assert deki(BRIGHT5, five_brights=40) == (40, {"five_brights"})
    assert deki(BRIGHT5, five_brights=40, four_brights=30) == (40, {"five_brights"})
    # four brights without the rain man: 40 (or 30)
    assert deki(DRY4) == (40, {"four_brights"})
    assert deki(DRY4, four_brights=30) == (30, {"four_brights"})
    # rain man plus three of the four: 20, for every choice of three
    for i in range(4):
        three = DRY4[:i] + DRY4[i + 1:]
        assert deki(three + ["willow.rain_man"]) == (20, {"rainy_four_brights"})
        assert deki(three) == (0, set())  # no yaku for three brights without the rain man
    # rain man plus two: nothing
    assert deki(DRY4[:2] + ["willow.rain_man"]) == (0, set())


def test_boar_deer_butterfly_option():
    bdb = ["bush_clover.boar", "maple.deer", "peony.butterflies"]
    assert deki(bdb) == (20, {"boar_deer_butterfly"})
    assert deki(bdb[:2]) == (0, set())
    assert deki(bdb, boar_deer_butterfly="off") == (0, set())
    assert deki(bdb, boar_deer_butterfly=0) == (0, set())  # "off" is 0: not played
    assert deki(bdb, boar_deer_butterfly=35) == (35, {"boar_deer_butterfly"})
    # its row stays (so tables keep their rows), and never scores
    _, names = tables(boar_deer_butterfly="off")
    assert "boar_deer_butterfly" in names
    # switched off, the row stays (so rates read 0 rather than vanish) and never scores
    tb, names = tables(boar_deer_butterfly="off")
    assert names == T.YAKU
    assert deki(T.HANAFUDA.names, boar_deer_butterfly="off")[1] >= {"five_brights"}
    assert "boar_deer_butterfly" not in deki(T.HANAFUDA.names, boar_deer_butterfly="off")[1]


def test_poetry_and_blue():
    poetry = ["pine.poetry_ribbon", "plum.poetry_ribbon", "cherry.poetry_ribbon"]
    blue = ["peony.blue_ribbon", "chrysanthemum.blue_ribbon", "maple.blue_ribbon"]
    assert deki(poetry) == (20, {"poetry_ribbons"})
    assert deki(poetry[:2]) == (0, set())
    assert deki(blue) == (20, {"blue_ribbons"})
    assert deki(blue[1:]) == (0, set())
    # six ribbons + no willow: not seven; both ribbon yaku stack: 40
    assert deki(poetry + blue) == (40, {"poetry_ribbons", "blue_ribbons"})


# six true ribbons that make neither poetry nor blue
SIX_RIBBONS = ["wisteria.ribbon", "iris.ribbon", "bush_clover.ribbon", "pine.poetry_ribbon",
               "plum.poetry_ribbon", "peony.blue_ribbon"]


def test_seven_ribbons_with_willow():
    # ribbons and willow cards together: 7 -> 20, +10 per extra card
    assert deki(SIX_RIBBONS[:5]) == (0, set())
    assert deki(SIX_RIBBONS) == (0, set())
    assert deki(SIX_RIBBONS + ["willow.swallow"]) == (20, {"seven_ribbons"})
    assert deki(SIX_RIBBONS + ["willow.lightning"]) == (20, {"seven_ribbons"})
    assert deki(SIX_RIBBONS + ["willow.swallow", "willow.lightning"]) == (30, {"seven_ribbons"})
    # 4 true ribbons + 3 willow (non-ribbon) cards = 7: 20
    assert deki(SIX_RIBBONS[:4] + ["willow.swallow", "willow.lightning", "willow.rain_man"]) \
        == (20, {"seven_ribbons"})
    # the rain man also counts for rainy four brights alongside (different groups stack)
    assert deki(SIX_RIBBONS + ["willow.rain_man", "pine.crane", "cherry.curtain", "susuki.moon"]) \
        == (40, {"seven_ribbons", "rainy_four_brights"})


def test_real_seven_ribbons():
    seven = SIX_RIBBONS + ["willow.ribbon"]  # seven true ribbons (the willow ribbon is one)
    assert deki(seven) == (40, {"real_seven_ribbons"})  # not also seven_ribbons (20)
    assert deki(seven, real_seven_ribbons=30) == (30, {"real_seven_ribbons"})
    # +10 for each additional ribbon or willow card
    assert deki(seven + ["chrysanthemum.blue_ribbon"]) == (50, {"real_seven_ribbons"})
    assert deki(seven + ["willow.swallow"]) == (50, {"real_seven_ribbons"})
    assert deki(seven + ["willow.swallow"], real_seven_ribbons=30) == (40, {"real_seven_ribbons"})
    assert deki(seven + ["willow.swallow", "chrysanthemum.blue_ribbon"]) == \
        (60, {"real_seven_ribbons"})
    # all ten ribbons and the three other willow cards: 40 + 6*10, plus poetry and blue
    everything = [D.names[i] for i in range(48) if D.kind[i] == 2 or D.month[i] == 11]
    assert len(everything) == 13
    assert deki(everything) == (
        100 + 20 + 20 + 0, {"real_seven_ribbons", "poetry_ribbons", "blue_ribbons"})


def test_chaff():
    chaff = [D.names[i] for i in range(48) if D.kind[i] == 3 and D.month[i] != 11]
    assert len(chaff) == 23  # 24 chaff, minus the willow lightning
    assert deki(chaff[:11]) == (0, set())
    assert deki(chaff[:12]) == (20, {"chaff"})
    assert deki(chaff[:13]) == (30, {"chaff"})
    # 11 plain chaff + the lightning (printed as chaff, but a willow card): issue 15
    eleven_and_lightning = chaff[:11] + ["willow.lightning"]
    assert deki(eleven_and_lightning) == (0, set())  # default none: willow cards are ribbons only
    assert deki(eleven_and_lightning, willow_chaff="none") == (0, set())
    assert deki(eleven_and_lightning, willow_chaff="lightning") == (20, {"chaff"})
    assert deki(eleven_and_lightning, willow_chaff="all") == (20, {"chaff"})
    # the other willow cards count only under 'all'
    assert deki(chaff[:11] + ["willow.swallow"]) == (0, set())
    assert deki(chaff[:11] + ["willow.swallow"], willow_chaff="lightning") == (0, set())
    assert deki(chaff[:11] + ["willow.swallow"], willow_chaff="all") == (20, {"chaff"})
    four_willow = ["willow.swallow", "willow.rain_man", "willow.ribbon", "willow.lightning"]
    assert deki(chaff[:12] + four_willow)[0] == 20
    assert deki(chaff[:12] + four_willow, willow_chaff="lightning")[0] == 30
    assert deki(chaff[:12] + four_willow, willow_chaff="all")[0] == 20 + 10 * 4
    # ... and they still count as ribbons for the seven ribbons decided first
    assert deki(chaff[:11] + ["willow.swallow"] + SIX_RIBBONS, willow_chaff="all") == \
        (40, {"chaff", "seven_ribbons"})
    assert deki(chaff[:11] + ["willow.swallow"] + SIX_RIBBONS) == (20, {"seven_ribbons"})


def test_rows():
    for row, month in (("wisteria_row", 4), ("iris_row", 5), ("bush_clover_row", 7)):
        four = [D.names[i] for i in range(48) if D.month[i] == month]
        assert deki(four) == (20, {row})
        assert deki(four[:3]) == (0, set())
        assert deki(four[1:]) == (0, set())
    # no row for other months
    assert deki([D.names[i] for i in range(48) if D.month[i] == 1]) == (0, set())
    # the bush clover row and boar-deer-butterfly share the boar and stack
    assert deki([D.names[i] for i in range(48) if D.month[i] == 7] +
                ["maple.deer", "peony.butterflies"]) == (40, {"bush_clover_row",
                                                               "boar_deer_butterfly"})


def test_stacking():
    poetry = ["pine.poetry_ribbon", "plum.poetry_ribbon", "cherry.poetry_ribbon"]
    blue = ["peony.blue_ribbon", "chrysanthemum.blue_ribbon", "maple.blue_ribbon"]
    # five brights (60, counted once: no four/rainy on top) + poetry (20): 80
    assert deki(BRIGHT5 + poetry) == (80, {"five_brights", "poetry_ribbons"})
    # + blue (20); six ribbons and the rain man are 7 ribbon-or-willow cards: seven ribbons 20
    assert deki(BRIGHT5 + poetry + blue) == (
        120, {"five_brights", "poetry_ribbons", "blue_ribbons", "seven_ribbons"})
    # + a seventh true ribbon: real seven ribbons 40 + 10 for the rain man, replacing seven
    # ribbons: 60 + 20 + 20 + 50 = 150
    assert deki(BRIGHT5 + poetry + blue + ["wisteria.ribbon"]) == (
        150, {"five_brights", "poetry_ribbons", "blue_ribbons", "real_seven_ribbons"})
    # the whole deck: five 60, bdb 20, poetry 20, blue 20, real seven 40 + 6*10 (13 ribbon or
    # willow cards), chaff 20 + 11*10 (23 chaff: the lightning is a willow card), three rows 60
    assert deki([D.names[i] for i in range(48)]) == (
        60 + 20 + 20 + 20 + (40 + 60) + (20 + 11 * 10) + 3 * 20,
        {"five_brights", "boar_deer_butterfly", "poetry_ribbons", "blue_ribbons",
         "real_seven_ribbons", "chaff", "wisteria_row", "iris_row", "bush_clover_row"})


# =============================================================== settlement
def settle(pile0, pile1, yaku0, yaku1, transfer="exact", uncovered="opponent_yaku"):
    """Settle seats with these captured piles (names) and yaku scores; returns
    (score0, score1, uncovered)."""
    tb, _ = tables(card_transfer=transfer, uncovered=uncovered)
    captured = np.array([mask(pile0), mask(pile1)], dtype=np.uint64)
    res = np.zeros(T.R_N, np.int64)
    res[T.R_YAKU], res[T.R_YAKU + 1] = yaku0, yaku1
    res[T.R_PTS] = sum(int(D.points[c(n)]) for n in pile0)
    res[T.R_PTS + 1] = sum(int(D.points[c(n)]) for n in pile1)
    T.settle(res, captured, tb.kind_masks, tb.kind_points, tb.params)
    return int(res[T.R_SCORE]), int(res[T.R_SCORE + 1]), int(res[T.R_UNCOVERED])


ALL_NAMES = list(D.names)


def rest(*piles):
    used = set().union(*map(set, piles))
    return [n for n in ALL_NAMES if n not in used]


@pytest.mark.parametrize("transfer", ["exact", "total"])
def test_settle_covered(transfer):
    # Seat 1 holds the five brights (100 points); seat 0 the rest (140 points).
    p1 = BRIGHT5
    p0 = rest(p1)
    # equal yaku: nothing moves; 140-120 = 20, 100-120 = -20
    assert settle(p0, p1, 30, 30, transfer) == (20, -20, 0)
    # seat 1 owes 40 and can hand over two brights: 140+40-120 = 60, 100-40-120 = -60
    assert settle(p0, p1, 40, 0, transfer) == (60, -60, 0)
    # seat 0 owes 70 (10 animal + 5 ribbons... it holds 140 points of animals/ribbons)
    assert settle(p0, p1, 0, 70, transfer) == (140 - 70 - 120, 100 + 70 - 120, 0)


def test_exact_versus_total():
    # The loser (seat 0) holds one bright (20 points) and chaff; the yaku difference is 10.
    p0 = ["pine.crane", "pine.chaff1", "plum.chaff1"]
    p1 = rest(p0)  # 220 points
    # exact: no set of its cards is worth 10 -> cannot cover: 20 - 30 (opponent's yaku) - 120
    assert settle(p0, p1, 20, 30, "exact") == (-130, 130, 1)
    # total: 20 >= 10 -> covered: 20-10-120 = -110, 220+10-120 = 110
    assert settle(p0, p1, 20, 30, "total") == (-110, 110, 0)
    # a bright and a ribbon (25): 10 is neither 5, 20 nor 25 -> exact uncovered, total covered
    p0 = ["pine.crane", "pine.poetry_ribbon"]
    p1 = rest(p0)  # 215 points
    # exact: uncovered, 25 - 20 (opponent's yaku) - 120; total: 25 - 10 - 120 and 215 + 10 - 120
    assert settle(p0, p1, 10, 20, "exact") == (-115, 115, 1)
    assert settle(p0, p1, 10, 20, "total") == (-105, 105, 0)
    # two ribbons make 10 exactly: covered under both
    p0 = ["pine.crane", "pine.poetry_ribbon", "plum.poetry_ribbon"]
    p1 = rest(p0)  # 210 points
    for tr in ("exact", "total"):
        assert settle(p0, p1, 0, 10, tr) == (30 - 10 - 120, 210 + 10 - 120, 0)
    # 30 from a bright and an animal: exact can (20 + 10)
    p0 = ["pine.crane", "plum.bush_warbler", "plum.poetry_ribbon"]
    p1 = rest(p0)
    assert settle(p0, p1, 0, 30, "exact") == (35 - 30 - 120, 205 + 30 - 120, 0)
    # 5 ribbons (25) paying 20: exact with four ribbons
    p0 = SIX_RIBBONS[:5]
    p1 = rest(p0)
    assert settle(p0, p1, 20, 40, "exact") == (25 - 20 - 120, 215 + 20 - 120, 0)


@pytest.mark.parametrize("transfer", ["exact", "total"])
def test_uncovered(transfer):
    # Seat 1 (loser) has 15 points (three ribbons) and owes 40: neither rule can cover.
    # Loser's score = 15 - opponent's yaku (60) - 120 = -165; the winner gets +165.
    p1 = ["wisteria.ribbon", "iris.ribbon", "bush_clover.ribbon", "pine.chaff1"]
    p0 = rest(p1)
    assert settle(p0, p1, 60, 20, transfer) == (165, -165, 1)
    # same with the loser in seat 0
    assert settle(p1, p0, 20, 60, transfer) == (-165, 165, 1)
    # an empty pile owing anything cannot cover: 0 - 20 - 120
    assert settle([], ALL_NAMES, 0, 20, transfer) == (-140, 140, 1)


@pytest.mark.parametrize("transfer", ["exact", "total"])
def test_uncovered_difference(transfer):
    # The same uncovered round under uncovered=difference: the loser (15 points, owes 60-20 =
    # 40) pays only the difference, as a number: 15 - 40 - 120 = -145; 225 + 40 - 120 = 145.
    p1 = ["wisteria.ribbon", "iris.ribbon", "bush_clover.ribbon", "pine.chaff1"]
    p0 = rest(p1)
    assert settle(p0, p1, 60, 20, transfer, "difference") == (145, -145, 1)
    assert settle(p1, p0, 20, 60, transfer, "difference") == (-145, 145, 1)
    # covered rounds are the same under both readings
    p0 = ["pine.crane", "pine.poetry_ribbon", "plum.poetry_ribbon"]
    assert settle(p0, rest(p0), 0, 10, transfer, "difference") == (-100, 100, 0)
    # exact cannot pay 10 from a bright and chaff: the difference moves as a number
    p0 = ["pine.crane", "pine.chaff1", "plum.chaff1"]
    assert settle(p0, rest(p0), 20, 30, "exact", "difference") == (-110, 110, 1)


# =============================================================== a whole round
# Stacked deal, both greedy.  Field: pine crane/poetry/chaff1, paulownia phoenix/chaff1/chaff2,
# susuki moon/geese.
FIELD = ["pine.crane", "pine.poetry_ribbon", "pine.chaff1", "paulownia.phoenix",
         "paulownia.chaff1", "paulownia.chaff2", "susuki.moon", "susuki.geese"]
# Turn 1 (dealer): pine.chaff2 is the only hand card matching the field -> takes the three
# pine cards (3-match); the draw paulownia.chaff3 takes the three paulownia (3-match).
# Turn 1 (opponent): susuki.chaff1 is its only match: 2-match, greedy takes the moon (48.67 >
# 10); the draw susuki.chaff2 takes the geese (1-match).  The field is now empty.
# Every later turn: the field is empty, so greedy discards its lightest card (0-match) and the
# draw is stacked to be a card of the same month, which captures it back: the field stays empty.
# Dealer's discards, lightest first (weights: sake cup 10, cuckoo/bridge 15, wisteria/iris
# ribbon 18.57, poetry ribbons 20.24, rain man 34.86, curtain 48.67; ties to the lower index):
DEALER_REST = [("chrysanthemum.sake_cup", "chrysanthemum.chaff2"),
               ("wisteria.cuckoo", "wisteria.chaff1"), ("iris.bridge", "iris.chaff1"),
               ("wisteria.ribbon", "wisteria.chaff2"), ("iris.ribbon", "iris.chaff2"),
               ("plum.poetry_ribbon", "plum.chaff1"), ("cherry.poetry_ribbon", "cherry.chaff1"),
               ("willow.rain_man", "willow.lightning"), ("cherry.curtain", "cherry.chaff2")]
# Opponent: bush warbler 10, swallow 12.86, butterflies/deer 16.67, bush clover ribbon 18.57,
# blue ribbons 20.24, boar 21.67.
OPP_REST = [("plum.bush_warbler", "plum.chaff2"), ("willow.swallow", "willow.ribbon"),
            ("peony.butterflies", "peony.chaff1"), ("maple.deer", "maple.chaff1"),
            ("bush_clover.ribbon", "bush_clover.chaff1"), ("peony.blue_ribbon", "peony.chaff2"),
            ("chrysanthemum.blue_ribbon", "chrysanthemum.chaff1"),
            ("maple.blue_ribbon", "maple.chaff2"), ("bush_clover.boar", "bush_clover.chaff2")]
DEALER_HAND = ["pine.chaff2"] + [h for h, _ in DEALER_REST]
OPP_HAND = ["susuki.chaff1"] + [h for h, _ in OPP_REST]


def whole_round_deck(weights):
    """The stacked deck; the later draws follow greedy's discard order under ``weights``
    (the rule options change the weights, e.g. boar-deer-butterfly off makes the butterflies
    and the deer lighter than the swallow)."""
    def order(rest_):
        return sorted(rest_, key=lambda hp: (weights[c(hp[0])], c(hp[0])))

    pile = ["paulownia.chaff3", "susuki.chaff2"] + [
        x for d, o in zip(order(DEALER_REST), order(OPP_REST)) for x in (d[1], o[1])]
    return stack(DEALER_HAND, OPP_HAND, FIELD, pile)


# Dealer captures pine (crane 20 + ribbon 5), paulownia (phoenix 20), cherry (20 + 5),
# plum poetry (5), rain man (20) + lightning, wisteria (10 + 5), iris (10 + 5), sake cup (10):
# 135 points.  Opponent: the other 105 (moon 20, six animals 60, five ribbons 25).
# Dealer's dekiyaku: rainy four brights (rain man + crane, curtain, phoenix; no moon) 20,
# poetry 20, wisteria row 20, iris row 20, seven ribbons (5 ribbons + rain man + lightning) 20,
# chaff 14 cards (pine 2, paulownia 3, cherry 2, plum 1, lightning, wisteria 2, iris 2,
# chrysanthemum 1) -> 20 + 2*10 = 40.  Total 140.
# Opponent: blue 20, boar-deer-butterfly 20, bush clover row 20 = 60; ribbons + willow = 6,
# chaff 10: neither.
DEALER_HITS = {"rainy_four_brights", "poetry_ribbons", "wisteria_row", "iris_row",
               "seven_ribbons", "chaff"}
OPP_HITS = {"blue_ribbons", "boar_deer_butterfly", "bush_clover_row"}


def test_whole_round_premises():
    # Under the default rules the discard order is the one written above (by hand).
    tb, _ = tables()
    w = tb.weights
    for rest_ in (DEALER_REST, OPP_REST):
        hands = [c(h) for h, _ in rest_]
        assert hands == sorted(hands, key=lambda x: (w[x], x)), "greedy discard order changed"
    pile = ["paulownia.chaff3", "susuki.chaff2"] + [
        x for d, o in zip(DEALER_REST, OPP_REST) for x in (d[1], o[1])]
    assert whole_round_deck(w).tolist() == stack(DEALER_HAND, OPP_HAND, FIELD, pile).tolist()


@pytest.mark.parametrize("dealer", [0, 1])
@pytest.mark.parametrize("rules, deki, score", [
    # dealer's dekiyaku 130: its 13 plain chaff make Chaff 30 (the lightning, a willow card,
    # does not count by default); difference 130 - 60 = 70, paid exactly (moon 20 + five
    # animals 50): dealer 135 + 70 - 120 = 85, opponent 105 - 70 - 120 = -85
    ({}, (130, 60), 85),
    ({"card_transfer": "total"}, (130, 60), 85),
    # no boar-deer-butterfly: opponent 40, difference 90 (20 + 60 + 2 ribbons):
    # dealer 225 - 120 = 105
    ({"boar_deer_butterfly": "off"}, (130, 40), 105),
    # the lightning by its printed kind: dealer's chaff 14 -> 40 (total 140); difference 80
    # (moon 20 + six animals 60): dealer 135 + 80 - 120 = 95
    ({"willow_chaff": "lightning"}, (140, 60), 95),
    # every willow card: dealer's chaff 14 + rain man = 15 -> 50 (total 150); opponent's 10
    # chaff + swallow + willow ribbon = 12 -> 20 (total 80); difference 70: 135 + 70 - 120 = 85
    ({"willow_chaff": "all"}, (150, 80), 85),
    # the option values of bright/real-ribbon yaku do not matter here (rainy four is 20)
    ({"five_brights": 40, "four_brights": 30, "real_seven_ribbons": 30}, (130, 60), 85),
])
def test_whole_round(dealer, rules, deki, score):
    tb, _ = tables(**rules)
    order = whole_round_deck(tb.weights)
    res, names, rng = play(order, dealer=dealer, policy=(GREEDY, GREEDY), expose=(2, 2),
                           seed=77, **rules)
    assert int(rng[0]) == 77  # greedy and no teyaku: no random draw at all
    assert cards(res[T.R_CAPTURED]) == set(FIELD[:6] + DEALER_HAND + [p for _, p in DEALER_REST]
                                           + ["paulownia.chaff3"])
    assert len(cards(res[T.R_CAPTURED + 1])) == 22
    assert res[T.R_FIELD] == 0 and res[T.R_TOP] == 48
    assert [res[T.R_PTS], res[T.R_PTS + 1]] == [135, 105]
    assert [res[T.R_TEY_HELD], res[T.R_TEY_HELD + 1]] == [0, 0]
    assert [res[T.R_DEKI], res[T.R_DEKI + 1]] == list(deki)
    assert [res[T.R_YAKU], res[T.R_YAKU + 1]] == list(deki)
    d_hits = DEALER_HITS
    o_hits = OPP_HITS - ({"boar_deer_butterfly"} if rules.get("boar_deer_butterfly") == "off"
                         else set())
    if rules.get("willow_chaff") == "all":
        o_hits = o_hits | {"chaff"}
    assert hits(res[T.R_DEKI_HITS], names) == d_hits
    assert hits(res[T.R_DEKI_HITS + 1], names) == o_hits
    assert [res[T.R_SCORE], res[T.R_SCORE + 1], res[T.R_UNCOVERED]] == [score, -score, 0]


@pytest.mark.parametrize("given", [{}, {"boar_deer_butterfly": "off", "willow_chaff": "all"},
                                   {"five_brights": 40, "four_brights": 30,
                                    "real_seven_ribbons": 30, "willow_chaff": "lightning"}])
def test_kernel_dekiyaku_equals_the_table(given):
    """``score_pile`` (the kernel's unrolled dekiyaku) equals the table's row-by-row
    evaluation on random piles of every size, for Toppa's and Baka's tables."""
    from hanasim.games import baka as B

    gen = np.random.default_rng(11)
    for tb, _ in (tables(**given), B.lower(make_rules(B.BakaRules, given))):
        for k in gen.integers(0, 49, 2000):
            pile = np.uint64(sum(1 << int(c) for c in gen.permutation(48)[:k]))
            v, h = dekiyaku(pile, tb.yaku_masks, tb.yaku_ints)
            fv, fh = T.score_pile(pile, tb.yaku_masks, tb.yaku_ints)
            assert (int(fv), int(fh)) == (int(v), int(h))


@pytest.mark.parametrize("n_groups", [1, 2, 3, 4, 5, 6])
def test_deal_by_pattern(n_groups):
    """``engine.deal.deal`` (by runs) and ``deal_into`` (in registers for up to four groups, by
    ``deal`` for more) put the i-th card into group ``pattern[i]``, as a plain-Python deal of
    random patterns does."""
    from hanasim.engine.deal import deal_into

    gen = np.random.default_rng(n_groups)
    for _ in range(50):
        order = gen.permutation(48).astype(np.int8)
        pattern = gen.integers(0, n_groups, size=gen.integers(1, 40)).astype(np.int8)
        want = [0] * n_groups
        for c, g in zip(order, pattern):
            want[g] |= 1 << int(c)
        for fn in (deal, deal_into):
            groups = np.full(n_groups, 0xFFFF, np.uint64)  # stale values are overwritten
            assert fn(order, pattern, groups) == len(pattern)
            assert [int(x) for x in groups] == want


@pytest.mark.parametrize("policy", [(RANDOM, RANDOM), (GREEDY, GREEDY), (RANDOM, GREEDY)])
def test_play_pair_equals_play_turns(policy):
    """``engine.play.play_pair`` (Toppa's turns with no lookahead player) ends every round in
    the state, and with the generator, that ``play_turns`` gives, from either dealer."""
    from hanasim.engine import state
    from hanasim.engine.play import play_pair, play_turns
    from hanasim.engine.rng import shuffle_range

    tb, _ = tables()
    pol = np.array(policy, np.int64)
    rng = np.array([12345], dtype=np.uint64)
    for k in range(300):
        order = np.arange(48).astype(np.int8)
        shuffle_range(rng, order, 0, 48)
        groups = np.zeros(3, np.uint64)
        deal(order, tb.pattern, groups)
        st = np.zeros(T.ST_N, np.uint64)
        state.start(st, groups, 2, tb.pattern.shape[0])
        a, b = st.copy(), st.copy()
        ra = np.array([k], dtype=np.uint64)
        rb = ra.copy()
        play_pair(a, order, ra, pol, k % 2, tb.gscore, tb.ghigh)
        play_turns(b, 2, order, rb, pol, k % 2, tb.gscore, tb.ghigh, None, None)
        assert a.tolist() == b.tolist() and ra[0] == rb[0]
