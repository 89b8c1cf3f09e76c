"""Kushiro Toppa: the round kernel against the plain-Python reference (tests/naive_kushiro.py),
hand-built teyaku cases under every reading, the decision paths, invariants and the API."""
from __future__ import annotations

import numpy as np
import pytest

import naive_kushiro as N
from hanasim import api
from hanasim.engine.rng import stream_state
from hanasim.games import kushiro as K
from hanasim.policies import card_weights, greedy_hand_card
from hanasim.rules import RuleError, make_rules


def bits(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards(mask):
    mask = int(mask) & ((1 << 64) - 1)
    return {c for c in range(48) if mask >> c & 1}


_TB = {}


def tables(rules):
    key = tuple(sorted(rules.items()))
    if key not in _TB:
        _TB[key] = K.lower(make_rules(K.KushiroRules, rules))
    return _TB[key]


def pol_rows(names, expose):
    packed = [K.parse_kushiro_policy(x) for x in names]
    return K.decode_policies(packed, expose)


def naive_pols(rows):
    keys = ("card", "dec", "dparam", "join", "jparam", "swap", "expose")
    return [dict(zip(keys, (int(x) for x in row))) for row in rows]


def run_kernel(rules, rows, dealer, seed, i):
    tb, _ = tables(rules)
    drng = np.array([stream_state(np.uint64(seed), np.uint64(2 * i))], dtype=np.uint64)
    rng = np.array([stream_state(np.uint64(seed), np.uint64(2 * i + 1))], dtype=np.uint64)
    order = np.arange(48).astype(np.int8)
    pile = np.zeros(K.PILE_N, dtype=np.int8)
    hands = np.zeros(4, dtype=np.uint64)
    res = np.zeros(K.R_N, dtype=np.int64)
    ks = np.zeros(K.KS_N, np.uint64)
    K.play_round(drng, rng, order, pile, hands, ks, tb, rows, dealer, res, None)
    run_kernel.pile = pile
    run_kernel.ks = ks  # the play state at the end, its known masks as exposed
    run_kernel.hands = hands  # the two players' hands when the play began
    return res, drng[0], rng[0]


def run_naive(rules, rows, dealer, seed, i):
    tb, _ = tables(rules)
    weights = card_weights(np.zeros(48, dtype=np.int64), tb.yaku_masks, tb.yaku_ints)
    drng = np.array([stream_state(np.uint64(seed), np.uint64(2 * i))], dtype=np.uint64)
    rng = np.array([stream_state(np.uint64(seed), np.uint64(2 * i + 1))], dtype=np.uint64)
    out = N.play_round(drng, rng, dealer, naive_pols(rows), rules, weights)
    return out, drng[0], rng[0]


def kernel_dict(res, n):
    per = {"chips": K.R_CHIPS, "plays": K.R_PLAYS, "choice": K.R_CHOICE,
           "tey_dealt": K.R_TEY_DEALT, "fours": K.R_FOURS, "swaps": K.R_SWAPS,
           "tey_claimed": K.R_TEY_CLAIMED, "cont": K.R_CONT}
    out = {k: [int(res[v + s]) for s in range(n)] for k, v in per.items()}
    for k in ("misdeals", "redeals", "winner", "stopper", "end", "points", "hits", "turns",
              "decisions", "first", "second", "paid", "top", "end_pile"):
        out[k] = int(res[getattr(K, "R_" + k.upper())])
    for k in ("field", "pile_a", "pile_b", "hand_a", "hand_b", "aside", "swap_in", "swap_out"):
        out[k] = cards(res[getattr(K, "R_" + k.upper())])
    return out


RULE_SETS = [
    {},
    {"players": 3},
    {"players": 4},
    {"players": 3, "dropped_cards": "shuffled", "teyaku_reading": "subset",
     "three_pairs": "at_least", "exhausted": "last_caller", "decision_on": "bigger",
     "last_card": "free"},
    {"players": 4, "dropped_cards": "aside", "three_pairs": "pairs_in_sets",
     "teyaku_effect": "round_ends", "swap_pick": "lowest", "undecided": "redeal"},
    {"players": 3, "dropped_cards": "aside", "three_pairs": "disjoint", "teyaku_value": 2,
     "willow_chaff": "lightning", "chaff_count": 10, "five_brights": 0, "seven_ribbons_extra": 3},
    {"teyaku_reading": "off", "teyaku_effect": "round_ends", "exhausted": "last_caller",
     "dealer_next": "rotate", "willow_chaff": "all"},
    {"last_card": "free"},
]
POLICY_SETS = [
    (("random",), (2,)),
    (("greedy",), (1,)),
    (("random/continue3/join/random", "greedy/threshold4/threshold9/never",
      "greedy/random/random/always", "random/stop/threshold12/random"), (2, 1, 0, 2)),
    (("greedy/continue1/threshold30", "random/threshold6/random/always"), (0, 2)),
]


@pytest.mark.parametrize("ri", range(len(RULE_SETS)))
def test_kernel_equals_reference(ri):
    """Every result field and both generator states agree with the reference, round by round."""
    rules = RULE_SETS[ri]
    n = rules.get("players", 2)
    seen = dict(swaps=0, stops=0, exhausted=0, calls=0, claims=0, forced_in=0, forced_out=0,
                drops=0, misdeals=0, redeals=0)
    for pi, (names, expose) in enumerate(POLICY_SETS):
        names = (names * 4)[:4]
        expose = (expose * 4)[:4]
        rows = pol_rows(names, expose)
        for i in range(150):
            dealer = i % n
            seed = 1000 * ri + pi
            res, d1, r1 = run_kernel(rules, rows, dealer, seed, i)
            want, d2, r2 = run_naive(rules, rows, dealer, seed, i)
            got = kernel_dict(res, n)
            for k, v in want.items():
                assert got[k] == v, (k, i, pi, got[k], v)
            assert d1 == d2 and r1 == r2, "generator draws differ"
            seen["swaps"] += sum(got["swaps"])
            seen["stops"] += got["end"] == K.END_STOP
            seen["exhausted"] += got["end"] == K.END_EXHAUSTED
            seen["calls"] += sum(got["cont"])
            seen["claims"] += any(got["tey_claimed"])
            seen["forced_in"] += got["choice"].count(K.CH_FORCED_IN)
            seen["forced_out"] += got["choice"].count(K.CH_FORCED_OUT)
            seen["drops"] += got["choice"].count(K.CH_DROP)
            seen["misdeals"] += got["misdeals"]
            seen["redeals"] += got["redeals"]
            check_invariants(res, n, rules)
            check_known(res, rules)
    # the sample exercised the paths it is meant to check
    assert seen["stops"] and seen["calls"] and seen["misdeals"]
    assert bool(seen["claims"]) == (rules.get("teyaku_reading") != "off")
    if n < 4:
        assert seen["swaps"]
    if n > 2:
        assert seen["forced_out"] and seen["drops"]
        assert seen["redeals"] if rules.get("undecided") == "redeal" else seen["forced_in"]


def check_invariants(res, n, rules):
    """Every card in exactly one place; chips zero-sum; only two play."""
    g = kernel_dict(res, n)
    assert sum(g["plays"]) == 2 and sum(g["chips"]) == 0
    for s in range(n):
        if not g["plays"][s]:
            assert g["chips"][s] == 0
    tb, _ = tables(rules)
    places = [g["field"], g["pile_a"], g["pile_b"], g["hand_a"], g["hand_b"], g["aside"]]
    seen = set()
    for p in places:
        assert not (seen & p)
        seen |= p
    # the draw pile's undrawn cards are the rest; the pile held end_pile cards, top were drawn
    assert len(seen) + (g["end_pile"] - g["top"]) == 48
    assert g["top"] <= g["end_pile"]
    if rules.get("dropped_cards") == "aside":
        assert len(g["aside"]) == 10 * (n - 2)


def shown_ref(hand, tey, pairs):
    """Plain-Python reference of ``K.teyaku_shown``: a Group B teyaku shows the whole hand;
    Three Pairs alone its three earliest pairs as ``pairs`` counts them."""
    hand = cards(hand)
    if tey & ~1:
        return hand
    if not tey:
        return set()
    shown, left = set(), 3
    for m in range(12):
        mc = sorted(c for c in hand if c // 4 == m)
        k = len(mc)
        take = {"disjoint": k // 2, "pairs_in_sets": int(k >= 2)}.get(pairs, int(k == 2))
        take = min(take, left)
        shown |= set(mc[:2 * take])
        left -= take
        if not left:
            break
    return shown


def check_known(res, rules):
    """Each player's known mask in the play state is what its claimed teyaku shows (nothing
    when it claimed none)."""
    for seat, slot in ((0, K.R_FIRST), (1, K.R_SECOND)):
        claimed = int(res[K.R_TEY_CLAIMED + int(res[slot])])
        hand = run_kernel.hands[int(res[slot])]
        want = shown_ref(hand, claimed, rules.get("three_pairs", "exact"))
        assert cards(run_kernel.ks[K.K_KNOWN + seat]) == want, (seat, claimed)


def test_invariants_many_rounds():
    rules = {"players": 4, "dropped_cards": "under_pile"}
    rows = pol_rows(["random"] * 4, [2] * 4)
    for i in range(2000):
        res, _, _ = run_kernel(rules, rows, i % 4, 77, i)
        check_invariants(res, 4, rules)


# ---------------------------------------------------------------- teyaku by hand

def H(*names):
    return bits(K.HANAFUDA.card(x) for x in names)


CHAFF10 = ["pine.chaff1", "pine.chaff2", "plum.chaff1", "plum.chaff2", "cherry.chaff1",
           "cherry.chaff2", "wisteria.chaff1", "wisteria.chaff2", "iris.chaff1", "iris.chaff2"]


def tey(hand_mask, reading="ten_card", pairs="exact"):
    tb, _ = tables({})
    km = tb.kind_masks
    r = {"ten_card": K.READ_TEN, "subset": K.READ_SUBSET, "off": K.READ_OFF}[reading]
    p = ("exact", "at_least", "pairs_in_sets", "disjoint").index(pairs)
    return int(K.teyaku_bits(np.uint64(hand_mask), km[0], km[1], km[2], km[3], r, p))


def names_of(b):
    return {t for i, t in enumerate(K.TEYAKU) if b >> i & 1}


def test_deck_names_exist():
    for x in CHAFF10:
        K.HANAFUDA.card(x)


@pytest.mark.parametrize("reading", ["ten_card", "subset", "off"])
def test_chaff_teyaku_by_reading(reading):
    # ten chaff: five months with two chaff each (three pairs fails under exact: five pairs)
    ten = H(*CHAFF10)
    # one ribbon + nine chaff
    rib9 = H("bush_clover.ribbon", *CHAFF10[:9])
    ani9 = H("bush_clover.boar", *CHAFF10[:9])
    bri9 = H("susuki.moon", *CHAFF10[:9])
    # subset-only: one ribbon, one animal, eight chaff
    mixed = H("bush_clover.ribbon", "bush_clover.boar", *CHAFF10[:8])
    want = {
        "ten_card": {ten: {"empty_hand"}, rib9: {"one_ribbon"}, ani9: {"one_animal"},
                     bri9: {"one_bright"}, mixed: set()},
        "subset": {ten: {"empty_hand"}, rib9: {"one_ribbon", "empty_hand"},
                   ani9: {"one_animal", "empty_hand"}, bri9: {"one_bright", "empty_hand"},
                   mixed: {"one_ribbon", "one_animal", "empty_hand"}},
        "off": {ten: set(), rib9: set(), ani9: set(), bri9: set(), mixed: set()},
    }[reading]
    for hand, names in want.items():
        got = names_of(tey(hand, reading, "disjoint")) - {"three_pairs"}
        assert got == names, (reading, cards(hand), got)


def test_willow_by_own_type():
    # the rain man is a bright, the swallow an animal, the willow ribbon a ribbon, the lightning
    # chaff: a hand of the lightning and nine chaff is Empty Hand
    assert names_of(tey(H("willow.lightning", *CHAFF10[:9]))) >= {"empty_hand"}
    assert "one_animal" in names_of(tey(H("willow.swallow", *CHAFF10[:9])))
    assert "one_bright" in names_of(tey(H("willow.rain_man", *CHAFF10[:9])))


@pytest.mark.parametrize("pairs,want", [
    ("exact", [True, False, False, False]),
    ("at_least", [True, True, False, False]),
    ("pairs_in_sets", [True, True, True, False]),
    ("disjoint", [True, True, True, True]),
])
def test_three_pairs_readings(pairs, want):
    three = H("pine.crane", "pine.chaff1", "plum.chaff1", "plum.chaff2", "cherry.chaff1",
              "cherry.chaff2", "wisteria.chaff1", "iris.chaff1", "peony.chaff1",
              "bush_clover.chaff1")
    four_pairs = H("pine.crane", "pine.chaff1", "plum.chaff1", "plum.chaff2", "cherry.chaff1",
                   "cherry.chaff2", "wisteria.chaff1", "wisteria.chaff2", "iris.chaff1",
                   "peony.chaff1")
    # two pairs and a triplet
    sets = H("pine.crane", "pine.chaff1", "pine.chaff2", "plum.chaff1", "plum.chaff2",
             "cherry.chaff1", "cherry.chaff2", "iris.chaff1", "peony.chaff1",
             "bush_clover.chaff1")
    # a four and one pair: two disjoint pairs from the four
    four = H("pine.crane", "pine.poetry_ribbon", "pine.chaff1", "pine.chaff2", "plum.chaff1",
             "plum.chaff2", "cherry.chaff1", "iris.chaff1", "peony.chaff1",
             "bush_clover.chaff1")
    got = [bool(tey(h, "ten_card", pairs) & 1) for h in (three, four_pairs, sets, four)]
    assert got == want


def shown(hand, t, pairs="exact"):
    p = ("exact", "at_least", "pairs_in_sets", "disjoint").index(pairs)
    return cards(K.teyaku_shown(np.uint64(hand), np.int64(t), p))


def test_exposed_teyaku_shows_its_cards():
    """What an exposed teyaku puts face up (the known mask of the play state): Three Pairs
    its three pairs, the earliest months' when there are more; a Group B teyaku the whole
    hand; checked by hand and against the plain-Python reference on random hands."""
    C = K.HANAFUDA.card
    pairs6 = {C(x) for x in ("plum.chaff1", "plum.chaff2", "cherry.chaff1", "cherry.chaff2",
                             "wisteria.chaff1", "wisteria.chaff2")}
    four_pairs = H("pine.crane", "pine.chaff1", "plum.chaff1", "plum.chaff2", "cherry.chaff1",
                   "cherry.chaff2", "wisteria.chaff1", "wisteria.chaff2", "iris.chaff1",
                   "iris.chaff2")
    # exactly three pairs (exact): the six cards of the three months of two
    three = four_pairs & ~H("pine.chaff1", "iris.chaff2")
    assert shown(three, 1) == pairs6
    # four pairs (at_least): the three earliest months' pairs, pine first
    want = {C("pine.crane"), C("pine.chaff1")} | pairs6 - {C("wisteria.chaff1"),
                                                            C("wisteria.chaff2")}
    assert tey(four_pairs, pairs="at_least") & 1
    assert shown(four_pairs, 1, "at_least") == want
    # a triplet (pairs_in_sets): its two lowest cards
    sets = H("pine.crane", "pine.chaff1", "pine.chaff2", "plum.chaff1", "plum.chaff2",
             "cherry.chaff1", "cherry.chaff2", "iris.chaff1", "peony.chaff1",
             "bush_clover.chaff1")
    assert shown(sets, 1, "pairs_in_sets") == {C("pine.crane"), C("pine.chaff1"),
                                               C("plum.chaff1"), C("plum.chaff2"),
                                               C("cherry.chaff1"), C("cherry.chaff2")}
    # a four (disjoint) is two pairs: the four and the plum pair
    four = H("pine.crane", "pine.poetry_ribbon", "pine.chaff1", "pine.chaff2", "plum.chaff1",
             "plum.chaff2", "cherry.chaff1", "iris.chaff1", "peony.chaff1",
             "bush_clover.chaff1")
    assert shown(four, 1, "disjoint") == cards(H("pine.crane", "pine.poetry_ribbon",
                                                 "pine.chaff1", "pine.chaff2", "plum.chaff1",
                                                 "plum.chaff2"))
    # Group B (one bright), alone or with Three Pairs: the whole hand; nothing claimed: none
    bright = bits(PAULOWNIA_FOUR)
    assert tey(bright) == 1 << 3 and shown(bright, 1 << 3) == cards(bright)
    assert shown(three, 1 | 1 << 4) == cards(three)
    assert shown(three, 0) == set()
    rng = np.random.default_rng(8)
    for _ in range(300):
        h = bits(int(x) for x in rng.choice(48, 10, replace=False))
        for pairs in ("exact", "at_least", "pairs_in_sets", "disjoint"):
            t = tey(h, "ten_card", pairs)
            assert shown(h, t, pairs) == shown_ref(h, t, pairs)


def test_four_in_hand_swap():
    """A dealt four: with swap always and the lowest picked, the hand gives up the month's
    lowest card, which becomes the top of the draw pile (the first card turned), and takes the
    old top card; with swap never nothing moves; the swap is counted per seat."""
    rules = {"swap_pick": "lowest"}
    always = pol_rows(["greedy/stop/join/always"] * 4, [0] * 4)
    never = pol_rows(["greedy/stop/join/never"] * 4, [0] * 4)
    found = 0
    for i in range(3000):
        res, _, _ = run_kernel(rules, never, 0, 31, i)
        g0 = kernel_dict(res, 2)
        if sum(g0["fours"]) != 1:
            continue
        assert g0["swaps"] == [0, 0] and not g0["swap_in"] and not g0["swap_out"]
        res, _, _ = run_kernel(rules, always, 0, 31, i)
        g = kernel_dict(res, 2)
        s = 0 if g["fours"][0] else 1
        assert g["swaps"][s] == 1 and g["swaps"][1 - s] == 0
        (out,) = g["swap_out"]
        (inn,) = g["swap_in"]
        assert out % 4 == 0 and out // 4 != inn // 4  # the lowest card of the four's month
        assert int(run_kernel.pile[0]) == out          # now the top of the draw pile
        found += 1
        if found == 5:
            break
    assert found == 5
    # no draw pile with 4 players: a four is never swapped
    for i in range(400):
        res, _, _ = run_kernel({"players": 4}, always, 0, 31, i)
        assert kernel_dict(res, 4)["swaps"] == [0, 0, 0, 0]


# ---------------------------------------------------------------- decisions and join/drop

def test_join_forced_paths():
    n = 3
    rules = {"players": n}
    # everybody joins: seats 1 and 2 join, the dealer is forced out
    rows = pol_rows(["random/random/join"] * 4, [0] * 4)
    res, _, _ = run_kernel(rules, rows, 0, 5, 0)
    g = kernel_dict(res, n)
    assert g["choice"] == [K.CH_FORCED_OUT, K.CH_JOIN, K.CH_JOIN]
    # nobody joins by choice (threshold above any hand): seat 1 drops, seat 2 and the dealer
    # are forced in
    rows = pol_rows(["random/random/threshold30"] * 4, [0] * 4)
    res, _, _ = run_kernel(rules, rows, 0, 5, 0)
    g = kernel_dict(res, n)
    assert g["choice"] == [K.CH_FORCED_IN, K.CH_DROP, K.CH_FORCED_IN]
    assert g["first"] == 0 and g["second"] == 2
    # redeal: always dropping redeals until the cap, then the last are forced in
    res, _, _ = run_kernel({"players": 4, "undecided": "redeal"}, rows, 1, 5, 0)
    g = kernel_dict(res, 4)
    assert g["redeals"] == K.MAX_REDEALS
    assert g["choice"] == [K.CH_FORCED_IN, K.CH_DROP, K.CH_DROP, K.CH_FORCED_IN]


def test_iku_yoroshii_paths():
    rules = {}
    stop = pol_rows(["random/stop"] * 4, [0] * 4)
    cont = pol_rows(["random/continue1"] * 4, [0] * 4)
    n_stop = n_forfeit = n_exh = 0
    for i in range(300):
        res, _, _ = run_kernel(rules, stop, 0, 9, i)
        g = kernel_dict(res, 2)
        # stop at once: the stopper formed a dekiyaku and is paid exactly its chips
        if g["end"] == K.END_STOP:
            n_stop += 1
            assert g["decisions"] == 1 and sum(g["cont"]) == 0
            assert g["chips"][g["winner"]] == g["points"] > 0
        res, _, _ = run_kernel(rules, cont, 0, 9, i)
        g = kernel_dict(res, 2)
        # always Iku while holding a card: the round ends by a stop only on a last card
        if g["end"] == K.END_STOP:
            w = g["winner"]
            other = g["second"] if w == g["first"] else g["first"]
            assert g["chips"][w] == g["points"]
            n_forfeit += g["cont"][other] > 0  # the continued opponent gets nothing
        else:
            n_exh += 1
            assert g["chips"] == [0, 0]  # exhausted=nobody
    assert n_stop > 100 and n_forfeit > 0 and n_exh > 0
    # exhausted=last_caller pays the last caller
    paid = 0
    for i in range(300):
        res, _, _ = run_kernel({"exhausted": "last_caller"}, cont, 0, 9, i)
        g = kernel_dict(res, 2)
        if g["end"] == K.END_EXHAUSTED and g["stopper"] >= 0:
            paid += 1
            assert g["chips"][g["stopper"]] == g["points"] > 0
    assert paid > 0


def last_card_state(opp_forms):
    """Seat 0 holds one card (cherry chaff) that takes the cherry poetry ribbon, its third:
    Poetry Ribbons on its last card.  Seat 1's last card (maple chaff) takes the maple blue
    ribbon, its third (Blue Ribbons), when ``opp_forms``, else nothing (the maple ribbon is not
    on the field).  No draw pile."""
    field = ["cherry.poetry_ribbon", "wisteria.chaff1"] + (["maple.blue_ribbon"] if opp_forms
                                                          else [])
    return kstate([C("cherry.chaff1")], [C("maple.chaff1")], [C(x) for x in field],
                  [C("pine.poetry_ribbon"), C("plum.poetry_ribbon")],
                  [C("peony.blue_ribbon"), C("chrysanthemum.blue_ribbon")], [])


def C(name):
    return K.HANAFUDA.card(name)


@pytest.mark.parametrize("last_card", ["yoroshii_only", "free"])
@pytest.mark.parametrize("exhausted", ["nobody", "last_caller"])
@pytest.mark.parametrize("opp_forms", [False, True])
def test_last_card(last_card, exhausted, opp_forms):
    """A dekiyaku formed on the last card: yoroshii_only stops it there (Iku is not offered to
    a player who always says Iku); free lets Iku be said, and then the opponent's last card
    forfeits it (Yoroshii on Blue Ribbons) or the hands run out (paid to the last caller under
    exhausted=last_caller, else nobody scores)."""
    rules = {"last_card": last_card, "exhausted": exhausted}
    tb, _ = tables(rules)
    ks, pile = last_card_state(opp_forms)
    rows = pol_rows(["greedy/continue0", "greedy/stop"] * 2, [0] * 4)
    rng = np.array([1], dtype=np.uint64)
    K.play_from(ks, pile, rng, tb, rows, 0, 1, None)
    end, stopper, points, hits = K.settle(ks, tb)
    calls = int(ks[K.K_CALLS])
    if last_card == "yoroshii_only":
        assert (end, stopper, points, calls) == (K.END_STOP, 0, 1, 0)
        assert int(ks[K.K_TURNS]) == 1  # the round ended on the stop
    elif opp_forms:
        assert (end, stopper, points, calls) == (K.END_STOP, 1, 1, 1)
    elif exhausted == "last_caller":
        assert (end, stopper, points, calls) == (K.END_EXHAUSTED, 0, 1, 1)
    else:
        assert (end, stopper, points, calls) == (K.END_EXHAUSTED, -1, 0, 1)


def test_last_card_in_the_reference():
    """The plain-Python reference reads last_card too: a policy that always says Iku calls on
    last cards only under free (the reference and the kernel agree round by round above)."""
    names = (["random/continue0"] * 4)
    rows = pol_rows(names, [0] * 4)
    last_calls = {}
    for value in ("yoroshii_only", "free"):
        n = 0
        for i in range(200):
            res, _, _ = run_kernel({"last_card": value}, rows, 0, 31, i)
            want, _, _ = run_naive({"last_card": value}, rows, 0, 31, i)
            g = kernel_dict(res, 2)
            assert all(g[k] == v for k, v in want.items())
            # a call with no card left: the caller's hand empty at the end of the round
            n += g["end"] == K.END_EXHAUSTED and sum(g["cont"]) > 0 and g["turns"] == 20
        last_calls[value] = n
    assert last_calls["yoroshii_only"] == 0 or last_calls["free"] > last_calls["yoroshii_only"]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_first_dealer_equals_reference_and_redraws_ties(n):
    """The first-dealer draw (Choosing the Dealer: the earliest month deals) against the
    reference, session stream by session stream; two cards of one month are not settled by
    card: the tied players draw again, so among the tied draws the dealer is sometimes the
    player whose first card was the higher one, and sometimes a player with the lower card."""
    order = np.arange(48).astype(np.int8)
    drng = np.zeros(1, dtype=np.uint64)
    ties = 0
    higher = 0
    for s in range(3000):
        key = np.uint64(stream_state(np.uint64(5), np.uint64(s)))
        drng[0] = stream_state(key, np.uint64(2))
        order[:] = np.arange(48)
        got = int(K.first_dealer(drng, order, n))
        d2 = np.array([stream_state(key, np.uint64(2))], dtype=np.uint64)
        assert got == N.first_dealer(d2, n)
        assert d2[0] == drng[0], "generator draws differ"
        # the first draw of this session, again, to see whether it tied
        d3 = np.array([stream_state(key, np.uint64(2))], dtype=np.uint64)
        first = list(range(48))
        N.shuffle(d3, first, 0, n)
        months = [N.month(c) for c in first[:n]]
        best = min(months)
        tied = [q for q in range(n) if months[q] == best]
        assert got in tied
        if len(tied) > 1:
            ties += 1
            higher += first[got] != min(first[q] for q in tied)
    assert ties > 20 and 0 < higher < ties


def test_teyaku_round_ends():
    rules = {"teyaku_effect": "round_ends", "three_pairs": "disjoint"}
    rows = pol_rows(["random"] * 4, [1] * 4)
    ended = 0
    for i in range(400):
        res, _, _ = run_kernel(rules, rows, 0, 11, i)
        g = kernel_dict(res, 2)
        if any(g["tey_claimed"]):
            ended += 1
            assert g["end"] == K.END_TEYAKU and g["turns"] == 0
            c = [bin(x).count("1") for x in g["tey_claimed"]]
            assert g["chips"] == [c[0] - c[1], c[1] - c[0]]
    assert ended > 50


# ---------------------------------------------------------------- the public layer

def test_policy_parsing():
    assert K.parse_kushiro_policy("greedy") == K.parse_kushiro_policy(
        "greedy/stop/threshold10/always")
    for bad in ("greedy/stop/maybe", "greedy/stop/join/sometimes", "greedy/stop/threshold99",
                "x", "a/b/c/d/e"):
        with pytest.raises(ValueError):
            K.parse_kushiro_policy(bad)
    with pytest.raises(RuleError):
        make_rules(K.KushiroRules, {"players": 5})


def test_simulate_reproducible_and_sane():
    a = api.simulate("kushiro_toppa", rounds=3000, seed=3, rules={"players": 3},
                     session_rounds=8, threads=1)
    b = api.simulate("kushiro_toppa", rounds=3000, seed=3, rules={"players": 3},
                     session_rounds=8, threads=2)
    assert a["estimate"].tolist() == b["estimate"].tolist()
    by = a.set_index("quantity")["estimate"]
    # zero-sum: the seats' mean chips add up to 0; two of three play each round
    assert abs(by["dealer.mean_chips"] + by["seat1.mean_chips"] + by["seat2.mean_chips"]) < 1e-12
    assert abs(by["dealer.play_rate"] + by["seat1.play_rate"] + by["seat2.play_rate"] - 2) < 1e-12
    assert "session.first_dealer.mean_total" in by.index


# ---------------------------------------------------------------- exact deal-time rates

def test_exact_closed_forms():
    from fractions import Fraction
    from math import comb

    rows = {(q, c): v for q, c, v in K.deal_exact("ten_card", "exact")}
    # four of a month on the 8-card field: one four, less the deals with two (inclusion-exclusion)
    assert rows[("misdeal_rate", "all_deals")] == Fraction(
        12 * comb(44, 4) - comb(12, 2), comb(48, 8))
    # one ribbon + nine chaff (willow cards by type: 10 ribbons, 24 chaff); one bright
    assert rows[("teyaku.one_ribbon", "all_deals")] == Fraction(10 * comb(24, 9), comb(48, 10))
    assert rows[("teyaku.one_bright", "all_deals")] == Fraction(5 * comb(24, 9), comb(48, 10))
    assert rows[("teyaku.empty_hand", "all_deals")] == Fraction(comb(24, 10), comb(48, 10))
    # a seated hand holds a four: inclusion-exclusion over months
    four = sum((-1) ** (k + 1) * comb(12, k) * comb(48 - 4 * k, 10 - 4 * k) for k in (1, 2))
    assert rows[("four_in_hand_rate", "all_deals")] == Fraction(four, comb(48, 10))
    # three pairs, "exact": three months with exactly two cards (6 ways each), the other nine
    # months 4 cards in counts of 0, 1, 3 or 4: the t^4 coefficient of (1 + 4t + 4t^3 + t^4)^9
    others = [1]
    for _ in range(9):
        others = [sum(others[i - j] * w for j, w in enumerate((1, 4, 0, 4, 1))
                      if 0 <= i - j < len(others)) for i in range(len(others) + 4)]
    assert rows[("teyaku.three_pairs", "all_deals")] == Fraction(
        comb(12, 3) * 6 ** 3 * others[4], comb(48, 10))
    sub = {(q, c): v for q, c, v in K.deal_exact("subset", "disjoint")}
    assert sub[("teyaku.three_pairs", "no_misdeal")] > rows[("teyaku.three_pairs", "no_misdeal")]
    assert sub[("teyaku.empty_hand", "all_deals")] == Fraction(
        sum(comb(24, c) * comb(24, 10 - c) for c in (8, 9, 10)), comb(48, 10))
    off = {(q, c): v for q, c, v in K.deal_exact("off", "exact")}
    assert off[("teyaku.any", "no_misdeal")] == 0


@pytest.mark.parametrize("rules", [{"players": 3}, {"teyaku_reading": "subset",
                                                    "three_pairs": "pairs_in_sets"}])
def test_deal_time_agrees_with_exact(rules):
    """The simulated deal-time rates (deals only) fall in their 99.9% intervals around exact."""
    df = api.simulate("kushiro_toppa", rounds=40_000, seed=21, rules=rules, deals_only=True)
    ex = api.exact("kushiro_toppa", rules=rules)
    want = {(r.quantity, r.condition): r.value for r in ex.itertuples()}
    checked = 0
    for row in df.itertuples():
        cond = "all_deals" if row.quantity == "misdeal_rate" else "no_misdeal"
        if (row.quantity, cond) in want:
            v = want[(row.quantity, cond)]
            assert row.ci_low - 1e-12 <= v <= row.ci_high + 1e-12, (row.quantity, v, row)
            checked += 1
    assert checked == 8


def test_cli_players_compare_and_errors(capfd):
    from hanasim.cli import main

    assert main(["simulate", "kushiro-toppa", "--players", "3", "--rounds", "600", "--seed",
                 "1", "--policy", "greedy,random,greedy/continue2/join", "--no-save", "--all"]) == 0
    out = capfd.readouterr().out
    assert "players=3" in out and "seat2.join_rate" in out
    assert main(["compare", "kushiro-toppa", "--rule", "players=2,4", "--rounds", "600",
                 "--seed", "1", "--no-progress"]) == 0
    assert "players=4" in capfd.readouterr().out
    assert main(["simulate", "kushiro-toppa", "--players", "5", "--rounds", "10",
                 "--no-save"]) != 0
    assert "cannot be 5" in capfd.readouterr().err


# ---------------------------------------------------------------- lookahead (engine.lookahead)
LOOK_TB, _ = K.lower(K.KushiroRules())


def kstate(ha, hb, field, pa, pb, pile, cur=0, held=(0, 0), best=(0, 0)):
    """A play state (``K.start_play`` layout): seat 0 the first mover; ``pile`` the draw pile
    top first (all unseen); ``cur`` to move (or, for a decision, the one deciding)."""
    ks = np.zeros(K.KS_N, np.uint64)
    for i, x in enumerate((ha, hb, field, pa, pb)):
        ks[i] = np.uint64(bits(x))
    ks[K.K_CUR] = cur
    ks[K.K_END] = K.END_EXHAUSTED
    ks[K.K_END_PILE] = ks[K.K_N_ALL] = len(pile)
    for s in range(2):
        ks[K.K_HELD + s] = held[s]
        ks[K.K_BEST + s] = best[s]
    buf = np.zeros(K.PILE_N, np.int8)
    buf[:len(pile)] = pile
    return ks, buf


def score(cs):
    v, h = K.toppa.score_pile(np.uint64(bits(cs)), LOOK_TB.yaku_masks, LOOK_TB.yaku_ints)
    return int(v), int(h)


def test_lookahead_takes_the_capture_that_completes_a_yaku(heavy):
    # Two blue ribbons (peony 21, chrysanthemum 33) captured; the maple one (37) and the moon
    # (28) on the field.  Greedy takes the moon (a bright weighs more); the maple chaff (38)
    # takes the ribbon: Blue Ribbons now, before the opponent (who may hold a maple card)
    # takes it.  The moon makes nothing: no other bright is in play.
    ks, pile = kstate([38, 30], [39, 15], [37, 28], [21, 33], [4, 12], [36, 14, 18, 22])
    assert greedy_hand_card(ks[0], ks[K.K_FIELD], LOOK_TB.gscore) == 30
    for seed in range(3):
        card, cap, _ = K.lookahead_choice(LOOK_TB, ks.copy(), pile, seed, 16, -1, 0)
        assert card == 38 and cards(cap) >= {37, 38}


def test_lookahead_iku_and_yoroshii(heavy):
    # Blue Ribbons just formed (1 chip) with three brights captured; the phoenix (44) is on
    # the field and only the paulownia chaff in hand (45) can take it (46, 47 captured):
    # Iku, then Four Brights next turn (3 chips in all).
    pa = [21, 33, 37, 0, 8, 28, 46, 47]
    v, h = score(pa)
    assert v == 1
    ks, pile = kstate([45, 2], [14, 18], [44, 3], pa, [4, 12], [15, 19, 22, 26],
                      held=(h, 0), best=(v, 0))
    assert K.lookahead_choice(LOOK_TB, ks, pile, 1, 16, v, h)[2] == 1
    # The opponent holds four brights with the rain man and (maybe: it is unseen) the last
    # paulownia chaff: one card from Five Brights.  Yoroshii.
    pb = [0, 8, 28, 40]
    vb, hb = score(pb)
    ks, pile = kstate([45, 2], [46, 14], [44, 3], [21, 33, 37], pb, [15, 18, 19, 22],
                      held=(h, hb), best=(v, vb))
    assert K.lookahead_choice(LOOK_TB, ks, pile, 1, 16, v, h)[2] == 0


def test_lookahead_last_card_free(heavy):
    """last_card=free: a lookahead player who formed Poetry Ribbons on its last card is asked
    (Iku is legal) and says Yoroshii: with no turn of its own left, Iku is worth nothing under
    exhausted=nobody (and less than the chip if the opponent's last card forms a dekiyaku)."""
    tb, _ = K.lower(make_rules(K.KushiroRules, {"last_card": "free"}))
    pa = [C("pine.poetry_ribbon"), C("plum.poetry_ribbon"), C("cherry.poetry_ribbon"),
          C("cherry.chaff1")]
    v, h = score(pa)
    assert v == 1
    ks, pile = kstate([], [C("maple.chaff1")], [C("wisteria.chaff1"), C("maple.blue_ribbon")],
                      pa, [C("peony.blue_ribbon"), C("chrysanthemum.blue_ribbon")], [],
                      held=(h, 0), best=(v, 0))
    assert K.lookahead_choice(tb, ks, pile, 1, 64, v, h)[2] == 0


def test_lookahead_never_reads_a_hidden_card(heavy):
    """Permuting the unseen cards (the other hand and the draw pile) changes neither the
    hand card nor Iku/Yoroshii, on the same random stream."""
    rng = np.random.default_rng(4)
    for trial in range(5):
        c = [int(x) for x in rng.permutation(48)]
        ha, hb, field, pile = c[:3], c[3:6], c[6:12], c[12:18]
        pa, pb = c[18:33], c[33:]
        v, h = score(pa)
        ks, buf = kstate(ha, hb, field, pa, pb, pile, held=(h, 0), best=(v, 0))
        card = K.lookahead_choice(LOOK_TB, ks.copy(), buf, trial, 8, -1, 0)[0]
        go = K.lookahead_choice(LOOK_TB, ks.copy(), buf, trial, 8, v + 1, h)[2]
        unseen = hb + pile
        for _ in range(3):
            u = [int(x) for x in rng.permutation(unseen)]
            ks2, buf2 = kstate(ha, u[:3], field, pa, pb, u[3:], held=(h, 0), best=(v, 0))
            assert K.lookahead_choice(LOOK_TB, ks2.copy(), buf2, trial, 8, -1, 0)[0] == card
            assert K.lookahead_choice(LOOK_TB, ks2.copy(), buf2, trial, 8, v + 1, h)[2] == go


def test_lookahead_beats_greedy(full, heavy):
    rounds = 40_000 if full else 6_000
    df = api.simulate("kushiro_toppa", rounds=rounds, seed=5,
                      policy="lookahead:16,greedy").set_index("quantity")
    assert df.loc["player1.mean_chips", "ci_low"] > 0  # the 99.9% interval
    assert df.loc["iku.call_rate", "estimate"] > 0     # greedy never says Iku
    for name, want in (("lookahead", "lookahead:16/lookahead"), ("lookahead:4/stop", None)):
        x = K.parse_kushiro_policy(name)
        assert x & 0xF == K.LOOKAHEAD and (x >> 4 & 0xF) == (K.DEC_STOP if want is None
                                                            else K.DEC_LOOKAHEAD)
        if want:
            assert x == K.parse_kushiro_policy(want)
    for bad in ("lookahead:0", "lookahead:x", "lookahead/maybe"):
        with pytest.raises(ValueError):
            K.parse_kushiro_policy(bad)


def test_lookahead_join_and_drop(heavy):
    """Three players, seat 1 speaks first, holding ten chaff: the Empty Hand teyaku, worth 5
    chips here (teyaku_value=5) and claimed by joining, but matching nothing on the field.
    Greedy's threshold drops; lookahead joins (the hand plays badly, about -1 chip, but the
    teyaku pays more).  With teyaku_value=1 joining is worth less than dropping: it drops.
    The other hands are dealt again from the unseen cards, so they do not move the choice."""
    mine = [2, 3, 6, 7, 10, 11, 14, 15, 18, 19]
    field = [22, 23, 26, 27, 30, 31, 34, 35]
    rest = [c for c in range(48) if c not in mine + field]
    res = np.zeros(K.R_N, np.int64)
    rng = np.random.default_rng(1)
    for value, want in ((5, True), (1, False)):
        tb3, _ = K.lower(K.KushiroRules(players=3, teyaku_value=value))
        for trial in range(3):
            r = [int(x) for x in rng.permutation(rest)]
            hands = np.array([bits(r[:10]), bits(mine), bits(r[10:20]), 0], np.uint64)
            f = np.uint64(bits(field))
            assert K.join_strength(hands[1], f, tb3.kind_masks[3]) < 10
            assert K.lookahead_join(tb3, hands, f, 1, 0, res, 7, 16) == want


def test_lookahead_swap_and_expose_policy_parts():
    """A bare lookahead CARD swaps by lookahead (SWAP lookahead needs a lookahead CARD) and
    exposes by lookahead whatever --expose says; explicit parts are kept."""
    def swap_of(name):
        return K.parse_kushiro_policy(name) >> 28 & 0x3

    assert swap_of("lookahead:16") == K.SWAP_LOOKAHEAD
    assert swap_of("lookahead:16/stop/threshold10") == K.SWAP_LOOKAHEAD
    assert swap_of("lookahead:16/stop/threshold10/always") == K.SWAP_ALWAYS
    assert swap_of("lookahead:4/lookahead/lookahead/never") == K.SWAP_NEVER
    assert swap_of("greedy") == K.SWAP_ALWAYS and swap_of("random") == K.SWAP_RANDOM
    assert K.parse_kushiro_policy("lookahead") == K.parse_kushiro_policy(
        "lookahead:16/lookahead/lookahead/lookahead")
    with pytest.raises(ValueError, match="needs a lookahead CARD"):
        K.parse_kushiro_policy("greedy/stop/threshold10/lookahead")
    with pytest.raises(ValueError, match="always, never, random or lookahead"):
        K.parse_kushiro_policy("lookahead/stop/join/sometimes")
    rows = pol_rows(["lookahead:8/stop/threshold10/always", "greedy", "random"], [0, 0, 2])
    assert list(rows[:3, K.PC_EXPOSE]) == [K.EXPOSE_LOOKAHEAD, 0, 2]
    assert rows[0, K.PC_SWAP] == K.SWAP_ALWAYS


PAULOWNIA_FOUR = [44, 45, 46, 47, 2, 6, 10, 14, 18, 22]  # phoenix + 3 chaff + six chaff
CHAFF_FIELD = [3, 7, 11, 15, 19, 23, 26, 27]


def test_lookahead_keeps_a_four_that_makes_a_teyaku(heavy):
    """Seat 0 holds the four paulownia (the phoenix and three chaff) and six chaff: One
    Bright (one bright, nine chaff), 1 chip claimed at once.  Swapping gives a chaff away 3
    times in 4 and takes the unseen top of the pile, which is no chaff 23 times in 30 here
    (the field holds eight chaff): the teyaku is lost more often than not.  Greedy swaps;
    lookahead keeps, whatever the other hand (the hidden cards are dealt again)."""
    tb, _ = K.lower(K.KushiroRules())
    assert K.teyaku_bits(np.uint64(bits(PAULOWNIA_FOUR)), *tb.kind_masks, 0, 0) == 1 << 3
    rest = [c for c in range(48) if c not in PAULOWNIA_FOUR + CHAFF_FIELD]
    rng = np.random.default_rng(2)
    for trial in range(3):
        r = [int(x) for x in rng.permutation(rest)]
        hands = np.array([bits(PAULOWNIA_FOUR), bits(r[:10]), 0, 0], np.uint64)
        assert not K.lookahead_swap(tb, hands, np.uint64(bits(CHAFF_FIELD)), 0, 44, -1,
                                     trial, 64)


STRONG_THREE_PAIRS = [0, 8, 28, 40, 44, 2, 10, 30, 14, 18]  # five brights, three pairs


def test_lookahead_hides_a_teyaku_that_would_end_a_strong_round(heavy):
    """teyaku_effect=round_ends: exposing claims the teyaku and ends the round.  The first
    mover holds Three Pairs made of the five brights and three chaff, the brights' months on
    the field.  With teyaku_value=0 exposing ends the round for nothing; lookahead hides and
    plays the brights.  With play_on exposing pays and changes nothing else: exposed (no
    determinisation is even drawn)."""
    field = [3, 11, 31, 43, 45, 15, 19, 23]
    rest = [c for c in range(48) if c not in STRONG_THREE_PAIRS + field]
    rng = np.random.default_rng(3)
    for effect, value, want in (("round_ends", 0, False), ("play_on", 1, True)):
        tb, _ = K.lower(K.KushiroRules(teyaku_effect=effect, teyaku_value=value))
        assert K.teyaku_bits(np.uint64(bits(STRONG_THREE_PAIRS)), *tb.kind_masks, 0, 0) == 1
        for trial in range(3):
            r = [int(x) for x in rng.permutation(rest)]
            ks, pile = kstate(STRONG_THREE_PAIRS, r[:10], field, [], [], r[10:])
            assert K.lookahead_expose(tb, ks, pile, 0, value, -1, trial, 64) == want


def test_lookahead_swap_and_expose_never_read_a_hidden_card(heavy):
    """Permuting the cards the deciding seat cannot see (the other hands and the draw pile)
    moves neither the swap nor the expose decision, on the same random stream."""
    rng = np.random.default_rng(5)
    tb3, _ = K.lower(K.KushiroRules(players=3))
    tbe, _ = K.lower(K.KushiroRules(teyaku_effect="round_ends", three_pairs="at_least",
                                    teyaku_reading="subset"))
    for trial in range(4):
        # a four of month `mo` in seat 1's hand of a 3-player deal
        mo = int(rng.integers(12))
        four = list(range(4 * mo, 4 * mo + 4))
        c = [int(x) for x in rng.permutation([x for x in range(48) if x // 4 != mo])]
        mine, field, unseen = four + c[:6], c[6:14], c[14:]
        # on odd trials the top of the pile is known: the seat's own earlier swap put it there
        known = unseen.pop() if trial % 2 else -1
        hands = np.array([bits(unseen[:10]), bits(mine), bits(unseen[10:20]), 0], np.uint64)
        f = np.uint64(bits(field))
        got = K.lookahead_swap(tb3, hands, f, 1, 4 * mo, known, trial, 8)
        for _ in range(3):
            u = [int(x) for x in rng.permutation(unseen)]
            h2 = np.array([bits(u[:10]), bits(mine), bits(u[10:20]), 0], np.uint64)
            assert K.lookahead_swap(tb3, h2, f, 1, 4 * mo, known, trial, 8) == got
        # expose: seat 1 (the second to decide, the opponent undecided: -1) or seat 0
        c = [int(x) for x in rng.permutation(48)]
        ha, hb, field, pile = c[:10], c[10:20], c[20:28], c[28:]
        seat = trial % 2
        got = K.lookahead_expose(tbe, kstate(ha, hb, field, [], [], pile)[0],
                                 kstate(ha, hb, field, [], [], pile)[1], seat, 1, -1, trial, 8)
        mine = ha if seat == 0 else hb
        unseen = (hb if seat == 0 else ha) + pile
        for _ in range(3):
            u = [int(x) for x in rng.permutation(unseen)]
            h2 = (mine, u[:10]) if seat == 0 else (u[:10], mine)
            ks2, buf2 = kstate(h2[0], h2[1], field, [], [], u[10:])
            assert K.lookahead_expose(tbe, ks2, buf2, seat, 1, -1, trial, 8) == got


def test_lookahead_opponent_keeps_exposed_cards():
    """An exposed teyaku's cards are face up: in the play state they are the exposer's known
    mask, and every determinisation the opponent draws keeps them in the exposer's hand (the
    rest of that hand is dealt from the unseen cards).  Without the mask they move."""
    from hanasim.engine import lookahead as L

    rng = np.random.default_rng(9)
    three = [4, 5, 8, 9, 20, 21, 0, 13, 26, 42]  # plum, cherry, wisteria pairs + 4 singles
    assert tey(bits(three)) == 1
    rest = [int(x) for x in rng.permutation([c for c in range(48) if c not in three])]
    ha, field, pile = rest[:10], rest[10:18], rest[18:]
    sc = L.new_scratch(K.KS_N, K.PILE_N, 2)
    for mark in (True, False):
        ks, buf = kstate(ha, three, field, [], [], pile)
        if mark:  # what play_round does when seat 1 exposes its Three Pairs
            ks[K.K_KNOWN + 1] = K.teyaku_shown(ks[1], np.int64(1), K.PAIRS_EXACT)
            assert cards(ks[K.K_KNOWN + 1]) == {4, 5, 8, 9, 20, 21}
        s = np.uint64(12345)
        kept = []
        for _ in range(200):
            s = np.uint64(L.determinise(ks, 2, 0, buf[:len(pile)], 0, s, sc))
            h = cards(sc.base[1])
            assert len(h) == 10 and not h & set(ha + field) and cards(sc.base[0]) == set(ha)
            kept.append({4, 5, 8, 9, 20, 21} <= h)
        assert all(kept) if mark else not any(kept)
