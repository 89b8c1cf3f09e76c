"""Conditional deals (``--given``) and the card notation: the deal is uniform among the deals
consistent with the given cards (chi-square against exact conditional probabilities), given
cards always stand where given, an unconditioned deal draws exactly as before, bad input is
one line."""
from __future__ import annotations

from math import comb

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from hanasim import decks, given as gv_mod, notation
from hanasim.engine.rng import NO_GIVEN, deal_shuffle, shuffle_first, stream_state

# Toppa's deal order: 5 to the opponent, 4 to the field, 5 to the dealer, twice
PATTERN = np.array(([1] * 5 + [2] * 4 + [0] * 5) * 2, dtype=np.int64)
N_DEALT = PATTERN.shape[0]
ALPHA = 1e-4  # a uniform deal fails one of these checks about once in 10,000 runs


def toppa_layout():
    return gv_mod.Layout(pattern=PATTERN, seats={"dealer": 0, "opponent": 1, "field": 2},
                         names={0: "dealer", 1: "opponent", 2: "field"},
                         four_checked=(0, 1, 2))


@njit(cache=True)
def _deals(seed, n, gv, n_dealt, out):
    """``n`` conditional deals of a 48-card deck (each from the previous order, as a game's
    rounds do); ``out[d]`` is deal d's full order."""
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = stream_state(np.uint64(seed), np.uint64(0))
    order = np.arange(48).astype(np.int8)
    for d in range(n):
        deal_shuffle(rng, order, 48, 0, n_dealt, gv)
        deal_shuffle(rng, order, 48, n_dealt, 48, gv)
        out[d] = order


def _run(given, seed=1, n=20_000):
    arr = given.array(toppa_layout()) if given else NO_GIVEN
    out = np.zeros((n, 48), dtype=np.int8)
    _deals(seed, n, arr, N_DEALT, out)
    return out


def _given(**seats):
    return gv_mod.parse("toppa", {k: v for k, v in seats.items()})


def test_no_condition_draws_as_before():
    """An empty condition takes exactly the unconditioned draws (tables unchanged)."""
    out = _run(None, n=50)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = stream_state(np.uint64(1), np.uint64(0))
    order = np.arange(48).astype(np.int8)
    for d in range(50):
        shuffle_first(rng, order, 48, 0, N_DEALT)
        shuffle_first(rng, order, 48, N_DEALT, 48)
        assert (out[d] == order).all()


def test_given_cards_stay_and_deal_is_a_permutation():
    g = _given(dealer="11b,8b", field="3b", opponent="1c,1c")
    out = _run(g, n=3000)
    where = {c: grp for grp, cs in gv_mod.resolve(g, toppa_layout()).items() for c in cs}
    for row in out:
        assert sorted(row) == list(range(48))
        for i, c in enumerate(row[:N_DEALT]):
            if c in where:
                assert PATTERN[i] == where[c]
        for c, grp in where.items():
            assert c in row[:N_DEALT][PATTERN == grp]


def test_conditional_deal_is_uniform():
    """Given the dealer the Rain Man and the moon and the field the curtain, the other two
    brights are spread hypergeometrically: the dealer's 8 free cards from the 45 free ones;
    a free card lies in each group with probability (free places there) / 45; a given card
    takes each of its hand's positions equally often."""
    g = _given(dealer="rain-man,moon", field="3b")
    n = 20_000
    out = _run(g, seed=7, n=n)
    dealer = out[:, :N_DEALT][:, PATTERN == 0]
    brights = {0, 8, 28, 40, 44}
    free_brights = [0, 44]
    x = np.array([sum(int(c) in free_brights for c in row) for row in dealer])
    p = np.array([comb(2, k) * comb(43, 8 - k) / comb(45, 8) for k in range(3)])
    assert chisquare(np.bincount(x, minlength=3), p * n).pvalue > ALPHA
    # the chaff 1c1 (card 2): dealer 8, opponent 10, field 7, pile 20 free places of 45
    loc = np.full(n, 3)
    for grp in range(3):
        loc[(out[:, :N_DEALT][:, PATTERN == grp] == 2).any(axis=1)] = grp
    probs = np.array([8, 10, 7, 20]) / 45
    assert chisquare(np.bincount(loc, minlength=4), probs * n).pvalue > ALPHA
    # the Rain Man's place among the dealer's 10 positions
    spot = (dealer == 40).argmax(axis=1)
    assert chisquare(np.bincount(spot, minlength=10), np.full(10, n / 10)).pvalue > ALPHA
    assert all(b in row for row in dealer for b in (40, 28))
    assert brights  # (kept for the reader: the five brights' card numbers)


@pytest.mark.parametrize("deck", [decks.HANAFUDA, decks.TAIPA, decks.MEKURIFUDA],
                         ids=lambda d: d.name)
def test_notation_reads_every_code_and_name(deck):
    n = notation.notation_of(deck)
    assert len(set(n.codes)) == deck.n
    for i, code in enumerate(n.codes):
        assert n.parse(code) == i
        assert n.parse(code.upper()) == i
        assert n.parse(deck.names[i]) == i


def test_notation_aliases():
    n = notation.notation_of(decks.HANAFUDA)
    assert n.codes[n.parse("Rain-Man")] == "11b"
    assert n.codes[n.parse("sake cup")] == "9a"
    assert n.codes[n.parse("pine r")] == "1r"
    assert [n.codes[c] for c in n.parse_list(["1c", "1C"])] == ["1c1", "1c2"]
    m = notation.notation_of(decks.MEKURIFUDA)
    assert m.codes[m.parse("6 of Clubs")] == "6cl"
    assert m.codes[m.parse("kiribake")] == "12cl"
    assert m.codes[m.parse("king of cups")] == "12cu"
    t = notation.notation_of(decks.TAIPA)
    assert [t.codes[c] for c in t.parse_list(["moon"] * 4)] == ["3b1", "3b2", "3b3", "3b4"]


@pytest.mark.parametrize("value, words", [
    ({"dealer": "13b"}, "is not a card of the hanafuda deck"),
    ({"dealer": "8r"}, "month 8 holds 8b, 8a, 8c1, 8c2"),
    ({"dealer": "11b", "field": "rain man"}, "given twice"),
    ({"dealer": "1c,1c,1c"}, "only 2 such cards"),
    (["dealer"], "write SEAT=CARD"),
    ({"dealer": ""}, "no cards named"),
])
def test_bad_cards_one_line(value, words):
    with pytest.raises(gv_mod.GivenError) as e:
        gv_mod.parse("toppa", value)
    assert words in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("value, words", [
    ({"seat3": "11b"}, "no seat 'seat3'"),
    ({"dealer": ",".join(["1b", "1r", "1c", "1c", "2a", "2r", "2c", "2c", "3b", "3r", "3c"])},
     "dealt only 10"),
    ({"field": "1b,1r,1c,1c"}, "misdeal"),
])
def test_bad_seats_one_line(value, words):
    g = gv_mod.parse("toppa", value)
    with pytest.raises(gv_mod.GivenError) as e:
        gv_mod.resolve(g, toppa_layout())
    assert words in str(e.value) and "\n" not in str(e.value)


# ---------------------------------------------------------------- exact odds given cards
def _brute(spec, given, names):
    """Every deal of a small deck consistent with ``given``, counted one by one."""
    from fractions import Fraction
    from itertools import combinations

    month, kind = np.asarray(spec.month), np.asarray(spec.kind)
    n = len(month)
    sizes = spec.group_sizes
    fixed = {g: set(given.get(g, ())) for g in range(len(sizes))}
    free = [c for c in range(n) if not any(c in s for s in fixed.values())]
    n_kinds = 4

    def holds(cards, t):
        cards = list(cards)
        if t.kind == "month_count":
            ms = [sum(1 for c in cards if month[c] == m) for m in set(month.tolist())]
            return sum(1 for x in ms if x == t.count) >= t.min_months
        return tuple(sum(1 for c in cards if kind[c] == k) for k in range(n_kinds)) == t.kinds

    def misdeal(groups):
        for g in spec.misdeal_groups:
            for m in set(month.tolist()):
                if sum(1 for c in groups[g] if month[c] == m) >= spec.misdeal_count:
                    return True
        return False

    counts = {}
    total = played = 0

    def rec(g, rest, groups):
        nonlocal total, played
        if g == len(sizes):
            total += 1
            bad = misdeal(groups)
            played += not bad
            for h in spec.hand_groups:
                hit = [holds(groups[h], t) for t in spec.teyaku]
                for t, ok in zip([t.name for t in spec.teyaku] + ["any"], hit + [any(hit)]):
                    for cond in (("all_deals",) if bad else ("all_deals", "no_misdeal")):
                        key = (f"teyaku.{t}.{names[h]}", cond)
                        counts[key] = counts.get(key, 0) + ok
            return
        k = sizes[g] - len(fixed[g])
        for pick in combinations(rest, k):
            left = [c for c in rest if c not in pick]
            rec(g + 1, left, groups + [set(pick) | fixed[g]])

    rec(0, free, [])
    out = {("misdeal_rate", "all_deals"): 1 - Fraction(played, total)}
    for (q, cond), x in counts.items():
        out[(q, cond)] = Fraction(x, total if cond == "all_deals" else played)
    return out


def test_exact_given_equals_counting_every_deal():
    """A 12-card deck of 3 months (a bright, a ribbon, two chaff each), two hands of 3, a
    field of 2: the conditional odds equal a count over every consistent deal."""
    from hanasim.stats.exact import DealSpec, TeyakuSpec
    from hanasim.stats.exact_given import given_probabilities

    month = np.repeat([1, 2, 3], 4)
    kind = np.tile([0, 2, 3, 3], 3)
    spec = DealSpec(month=month, kind=kind, group_sizes=(3, 3, 2, 4), hand_groups=(0, 1),
                    misdeal_groups=(0, 1, 2), misdeal_count=3,
                    teyaku=(TeyakuSpec("pair", "month_count", count=2),
                            TeyakuSpec("one_bright", "kind_counts", kinds=(1, 0, 0, 2))))
    names = {0: "a", 1: "b"}
    for given in ({0: [0, 2], 2: [5]}, {1: [4, 8], 2: [2]}, {2: [1, 2]}):
        got = {(q, c): p for q, c, p in given_probabilities(spec, given, names)}
        want = _brute(spec, given, names)
        for key, p in want.items():
            assert got[key] == p, (given, key)


def test_exact_given_nothing_is_the_unconditioned_odds():
    from hanasim import rules as R
    from hanasim.games import get_game
    from hanasim.stats.exact import deal_probabilities
    from hanasim.stats.exact_given import given_probabilities

    g = get_game("toppa")
    spec = g.deal_spec(R.make_rules(g.Rules, {}))
    got = {(q, c): p for q, c, p in given_probabilities(spec, {}, {0: "dealer", 1: "opponent"})}
    for q, c, p in deal_probabilities(spec):
        assert got[(q, c)] == p


GAME_TABLES = [("toppa", {}), ("baka", {}), ("koikoi", {}), ("taipa", {})] + [
    (g, {"players": n}) for g, ns in (("bakappana", (2, 3, 4)), ("kushiro_toppa", (2, 3, 4)),
                                      ("taoshi", (3, 4, 5, 6)), ("ishikari_toppa", (3, 4, 5, 6)))
    for n in ns]


@pytest.mark.parametrize("game, rules", GAME_TABLES,
                         ids=[f"{g}-{r.get('players', '')}" for g, r in GAME_TABLES])
def test_given_cards_where_given_every_game(game, rules):
    """Every seat and the field given two cards each, by the game's own seat words: each lands
    at a deal position of its seat, in every deal, for every game and table size."""
    from hanasim import conditions, rules as R
    from hanasim.games import get_game

    g = get_game(game)
    r = R.make_rules(g.Rules, rules)
    lay = conditions.layout_of(g, r)
    n = notation.for_game(g)
    codes = iter([n.codes[c] for c in (3, 9, 14, 22, 27, 30, 33, 37, 41, 45, 47, 18, 6, 25)])
    spec = {w: f"{next(codes)},{next(codes)}" for w in lay.names.values()}
    given = gv_mod.parse(g, spec)
    arr = given.array(lay)
    pattern = np.asarray(lay.pattern)
    out = np.zeros((500, 48), dtype=np.int8)
    _deals(3, 500, arr, pattern.shape[0], out)
    where = {c: grp for grp, cs in gv_mod.resolve(given, lay).items() for c in cs}
    for row in out:
        assert sorted(row) == list(range(48))
        dealt = row[:pattern.shape[0]]
        for c, grp in where.items():
            assert c in dealt[pattern == grp], (game, c, grp)


@pytest.mark.parametrize("args, words", [
    (["simulate", "toppa", "--given", "dealer=13b"], "'13b' is not a card"),
    (["simulate", "koikoi", "--given", "dealer=11b", "--given", "field=rain-man"],
     "given twice"),
    (["compare", "toppa", "--rule", "par=120,110", "--given", "seat3=11b"], "seats 2 players"),
    (["sweep", "kushiro_toppa", "--rule", "players=2,3", "--given", "seat2=11b"],
     "seats 2 players"),
    (["simulate", "baka", "--given", "left=1b,1r,1c,1c,2a,2r,2c,2c"], "dealt only 7"),
    (["simulate", "taoshi", "--given", "dealer=6cl,7cl", "--given", "field=6 of clubs"],
     "given twice"),
    (["simulate", "toppa", "--where", "dealer.brights>=6"], "acceptance 0%"),
    (["simulate", "toppa", "--where", "field.foo>1"], "no quantity 'foo'"),
    (["report", "all", "--given", "dealer=11b"], "one game"),
    (["exact", "koikoi", "--given", "dealer=1b,1r,1c1,1c2"], "a misdeal"),
    (["cards", "nosuch", "--list"], "unknown game"),
])
def test_cli_bad_input_one_line(args, words, run_cli):
    from one_line import one_line

    one_line(run_cli(*args, *(["--no-save"] if args[0] in ("simulate", "compare", "sweep")
                           else [])), words)


# ---------------------------------------------------------------- --where
def _py_where(row, pattern, clauses):
    """The condition evaluated in plain Python on one dealt order."""
    groups = {}
    for i, p in enumerate(pattern):
        groups.setdefault(int(p), set()).add(int(row[i]))
    ops = {0: int.__ge__, 1: int.__le__, 2: int.__eq__, 3: int.__ne__, 4: int.__gt__,
           5: int.__lt__}
    for typ, g, arg, op, v in clauses:
        cards = groups.get(g, set())
        if typ == 0:
            x = sum(1 for c in cards if arg >> c & 1)
        else:
            x = sum(1 for m in range(12) if sum(1 for c in cards if c // 4 == m) == arg)
        if not ops[op](x, v):
            return False
    return True


@pytest.mark.parametrize("texts", [
    ["dealer.brights>=2", "field.brights>=1"],
    ["opponent.cards(11b,8b,3b)==1"], ["dealer.triplets>=1 and field.pairs<2"],
    ["dealer.pine!=0", "opponent.ribbons<3"], ["dealer.one_animal"], ["field.month12>1"]])
def test_where_kernel_equals_plain_python(texts):
    from hanasim import where as W
    from hanasim.engine.where import where_ok

    w = W.parse("toppa", texts)
    from hanasim.games import get_game
    from hanasim import rules as R

    game = get_game("toppa")
    spec = game.deal_spec(R.make_rules(game.Rules, {}))
    cl, words = W.clauses(w, toppa_layout(), spec.teyaku)
    arr = gv_mod.cond_array(None, toppa_layout(), W.array_part(cl, toppa_layout(), 4))
    out = _run(None, seed=5, n=3000)
    got = [where_ok(row, arr) for row in out]
    want = [_py_where(row, PATTERN, cl) for row in out]
    assert got == want and 0 < sum(got) < len(got)


def test_where_teyaku_acceptance_is_the_exact_rate():
    """The pilot's acceptance of 'dealer.triplet' among played deals is the exact probability
    that the dealer holds a triplet in a played deal (99.99% binomial interval)."""
    from hanasim import conditions, rules as R
    from hanasim.games import get_game
    from hanasim.stats.exact_given import given_probabilities

    g = get_game("toppa")
    r = R.make_rules(g.Rules, {})
    p = float(dict(((q, c), v) for q, c, v in given_probabilities(
        g.deal_spec(r), {}, {0: "dealer", 1: "opponent"}))[("teyaku.triplet.dealer",
                                                            "no_misdeal")])
    cond = conditions.check(g, None, ["dealer.triplet"], [r])
    mis, played, ok = next(iter(cond.pilot.values()))
    half = 3.9 * (p * (1 - p) / played) ** 0.5
    assert abs(ok / played - p) < half


@pytest.mark.parametrize("game", ["toppa", "taipa", "taoshi"])
def test_cards_list_every_code_reads_back(game, run_cli):
    import io

    import pandas as pd

    r = run_cli("cards", game, "--list", "--format", "csv")
    assert r.returncode == 0, r.stderr
    df = pd.read_csv(io.StringIO(r.stdout))
    n = notation.for_game(game)
    assert len(df) == 48 and df["code"].is_unique
    assert [n.parse(c) for c in df["code"]] == list(range(48))
