"""``exact --given`` for the games with their own deal-time combinatorics (Kushiro Toppa,
Taoshi, Ishikari Toppa, Koi-koi, Taipa): the conditional odds equal a count over every
consistent deal (enough cards given that the deals left are few), agree with the kernels'
conditional rates (``simulate --given --deals-only``), and with nothing given are the
unconditioned odds."""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

import naive_baka
import naive_ishikari
import naive_kushiro
import naive_taipa
import naive_taoshi
from hanasim import api, given as G, rules as R
from hanasim.conditions import exact_given, layout_of
from hanasim.games import get_game


def _setup(game, rules, given):
    g = get_game(game)
    r = R.make_rules(g.Rules, rules)
    lay = layout_of(g, r)
    groups = G.resolve(G.parse(g, given), lay)
    return g, r, lay, groups


def _exact_rows(game, rules, given):
    g, r, lay, groups = _setup(game, rules, given)
    df = exact_given(g, r, given)
    if "bakefuda" in df:
        df = df[df["bakefuda"] == r.bakefuda]
    return {(q, c): Fraction(f) for q, c, f in zip(df["quantity"], df["condition"],
                                                   df["fraction"])}


def _every_deal(lay, groups, deck):
    """Every deal consistent with the given cards: ``{group: cards}`` of the dealt groups (the
    draw pile takes the rest), one by one."""
    import numpy as np

    pattern = np.asarray(lay.pattern)
    n_groups = int(pattern.max()) + 1
    taken = {c for cs in groups.values() for c in cs}
    free = [c for c in deck if c not in taken]

    def rec(g, rest, out):
        if g == n_groups:
            yield dict(out)
            return
        fixed = list(groups.get(g, ()))
        for pick in combinations(rest, lay.size(g) - len(fixed)):
            out[g] = fixed + list(pick)
            left = [c for c in rest if c not in pick]
            yield from rec(g + 1, left, out)

    yield from rec(0, free, {})


def _tally(deals, seats, misdeal, hits, deal_hits=lambda d: ()):
    """Exact rows from a count over ``deals``: ``misdeal(deal)``; ``hits(deal, seat)``: the
    quantities a seat's hand holds (rows ``NAME.SEAT`` and ``NAME``, their mean over the
    seats); ``deal_hits(deal)``: the deal's own (rows ``NAME``)."""
    total = played = 0
    per, whole = {}, {}
    for d in deals:
        bad = misdeal(d)
        total += 1
        played += not bad
        conds = ("all_deals",) if bad else ("all_deals", "no_misdeal")
        for c in conds:
            for s in seats:
                for q in hits(d, s):
                    per[(q, s, c)] = per.get((q, s, c), 0) + 1
            for q in deal_hits(d):
                whole[(q, c)] = whole.get((q, c), 0) + 1
    den = {"all_deals": total, "no_misdeal": played}
    out = {("misdeal_rate", "all_deals"): Fraction(total - played, total)}
    for q in {q for q, _, _ in per}:
        for c in ("all_deals", "no_misdeal"):
            each = [Fraction(per.get((q, s, c), 0), den[c]) for s in seats]
            out.update({(f"{q}.{w}", c): p for w, p in zip(seats.values(), each)})
            out[(q, c)] = sum(each) / len(each)
    for (q, c), x in whole.items():
        out[(q, c)] = Fraction(x, den[c])
    return out


def _check(got, want):
    """Every counted row equals the exact one; every exact row the count never saw is 0."""
    assert len(want) > 3
    for key, p in want.items():
        assert got[key] == p, (key, got[key], p)
    for key, p in got.items():
        if key not in want:
            assert p == 0, (key, p)


# ---------------------------------------------------------------- (a) every deal counted
def _months(cards, month):
    out = {}
    for c in cards:
        out[int(month[c])] = out.get(int(month[c]), 0) + 1
    return out


@pytest.mark.parametrize("rules, given", [
    ({}, {"dealer": "1c1,1c2,2c1,2c2,3c1,4c1,5c1,6c1,10c2",
          "seat1": "8c1,8c2,9c1,9c2,10c1,12c1,12c2,3r,4r",
          "field": "7a,7r,7c2,6r,6c2,5r,10a"}),
    ({"teyaku_reading": "subset", "three_pairs": "disjoint"},
     {"dealer": "1c1,1c2,1b,1r,2c1,2c2,3c1,4c1,5c1",
      "seat1": "8c1,8c2,9c1,9c2,10c1,12c1,12c2,3r,4a", "field": "7a,7r,7c2,6r,6c2,5r,10a"}),
])
def test_kushiro_exact_given_counts_every_deal(rules, given):
    from hanasim.decks import HANAFUDA

    g, r, lay, groups = _setup("kushiro_toppa", rules, given)
    nr = naive_kushiro.full_rules(rules)
    seats = {s: lay.names[s] for s in range(r.players)}
    field = r.players
    bits = naive_kushiro.TEY_BIT

    def hits(d, s):
        b = naive_kushiro.teyaku(d[s], nr)
        out = {f"teyaku.{k}" for k, i in bits.items() if b >> i & 1}
        out |= {"teyaku.any"} if b else set()
        out |= {"four_in_hand_rate"} if 4 in _months(d[s], HANAFUDA.month).values() else set()
        return out

    want = _tally(_every_deal(lay, groups, range(48)), seats,
                         lambda d: 4 in _months(d[field], HANAFUDA.month).values(), hits)
    _check(_exact_rows("kushiro_toppa", rules, given), want)


@pytest.mark.parametrize("rules, given", [
    ({}, {"dealer": "1co,1cu,2co,2cu,3co", "seat1": "4co,4cu,4sw,5co,5cu,6co,6cu",
          "seat2": "7co,7cu,8co,8cu,9co,9cu,10co", "field": "11co,11cu,11sw,12co,12cu"}),
    ({"bakefuda": "everywhere", "reds_overlap": "no"},
     {"dealer": "1co,1cu,1sw,2co,3co", "seat1": "4co,4cu,4sw,5co,5cu,6co,6cu",
      "seat2": "7co,7cu,8co,8cu,9co,9cu,10co", "field": "11co,11cu,3cu,12co,12cu"}),
])
def test_taoshi_exact_given_counts_every_deal(rules, given):
    from hanasim.games.taoshi.rules import DECK, SCORE_VALUES

    g, r, lay, groups = _setup("taoshi", rules, given)
    nr = dict(naive_taoshi.DEFAULTS, **rules)
    seats = {s: lay.names[s] for s in range(r.players)}
    field = r.players

    def hits(d, s):
        b = naive_taoshi.best(d[s], nr)
        return {f"teyaku.{b}", f"teyaku_score.{naive_taoshi.VALUE[b]}"}

    want = _tally(_every_deal(lay, groups, range(48)), seats,
                         lambda d: 4 in _months(d[field], DECK.month).values(), hits)
    assert any(want.get((f"teyaku_score.{v}", "no_misdeal")) for v in SCORE_VALUES if v)
    _check(_exact_rows("taoshi", rules, given), want)


@pytest.mark.parametrize("rules, given", [
    ({"players": 3}, {"dealer": "1c1,1c2,3r,4r,2c1,2c2", "seat1": "5c1,5c2,5a,6c1,6c2,7c1",
                      "seat2": "8c1,8c2,9c1,9c2,10c1,12c1,12c2", "field": "11b,11a,11r,10a,2a"}),
    ({"players": 3, "teyaku": "toppa"},
     {"dealer": "1c1,1c2,3r,4r,2c1,2c2", "seat1": "5c1,5c2,5a,6c1,6c2,7c1",
      "seat2": "8c1,8c2,9c1,9c2,10c1,12c1,12c2", "field": "11b,11a,11r,10a,2a"}),
])
def test_ishikari_exact_given_counts_every_deal(rules, given):
    from hanasim.decks import HANAFUDA
    from hanasim.games.ishikari.hachihachi import NAMES

    g, r, lay, groups = _setup("ishikari_toppa", rules, given)
    seats = {s: lay.names[s] for s in range(r.players)}
    field = r.players
    if r.teyaku == "hachihachi":
        bit = {n: i for i, n in enumerate(NAMES)}
    else:  # 2-player Toppa's list, 7-card chaff teyaku (the naive Baka's bits)
        bit = naive_baka.TEYAKU_BITS

    def hits(d, s):
        _, b = naive_ishikari.teyaku(d[s], r.teyaku)
        out = {f"teyaku.{n}" for n, i in bit.items() if b >> i & 1}
        return out | ({"teyaku.any"} if b else set())

    want = _tally(_every_deal(lay, groups, range(48)), seats,
                         lambda d: 4 in _months(d[field], HANAFUDA.month).values(), hits)
    _check(_exact_rows("ishikari_toppa", rules, given), want)


@pytest.mark.parametrize("rules, given", [
    ({}, {"dealer": "1b,1r,1c1,2a,2r,3c1,3c2", "opponent": "4a,4r,5a,5r,6a,6r,7c1",
          "field": "8b,11b,9a,9r,10a,10r,12c1"}),
    ({"lucky_hands": "misdeal", "field_pairs": "misdeal"},
     {"dealer": "1b,1r,1c1,2a,2r,3c1,3c2", "opponent": "4a,4r,5a,5r,6a,6r,7c1",
      "field": "8b,8a,9a,9r,10a,10r,12c1"}),
])
def test_koikoi_exact_given_counts_every_deal(rules, given):
    from hanasim.decks import BRIGHT
    from hanasim.games.koikoi.lower import misdeal_flags
    from hanasim.games.koikoi.yaku import _D

    g, r, lay, groups = _setup("koikoi", rules, given)
    f = misdeal_flags(r)
    seats = {0: "dealer", 1: "opponent"}

    def four(cards):
        return 4 in _months(cards, _D.month).values()

    def pairs(cards):
        return all(v % 2 == 0 for v in _months(cards, _D.month).values())

    def misdeal(d):
        return ((f["field_four_misdeal"] and four(d[2])) or (f["field_pairs_misdeal"]
                                                             and pairs(d[2]))
                or (f["hand_four_misdeal"] and (four(d[0]) or four(d[1])))
                or (f["hand_pairs_misdeal"] and (pairs(d[0]) or pairs(d[1]))))

    def hits(d, s):
        out = ({"teyaku.four_of_a_kind"} if four(d[s]) else set()) | (
            {"teyaku.four_pairs"} if pairs(d[s]) else set())
        return out | ({"teyaku.any"} if out else set())

    def field_brights(d):
        return {f"field_brights.{sum(int(_D.kind[c]) == BRIGHT for c in d[2])}"}

    want = _tally(_every_deal(lay, groups, range(48)), seats, misdeal, hits, field_brights)
    got = _exact_rows("koikoi", rules, given)
    _check(got, want)
    assert got[("teyaku.four_of_a_kind", "all_deals")] > 0


@pytest.mark.parametrize("rules, given", [
    ({}, {"first": "1b1,2b1,4a1,1r1,2r1", "second": "3c1,3c2,5c1,4r1,4r2",
          "field": "3b1,5a1,6r1,6c1,6c2"}),
    ({"removed_ribbons": 1, "removed_brights": 1},
     {"first": "1b2,2b2,4a1,5r1,5r2", "second": "3c1,3c2,5c1,4r1,4r2",
      "field": "3b1,5a1,6r1,6c1,6c2"}),
])
def test_taipa_exact_given_counts_every_deal(rules, given):
    from hanasim.decks import ANIMAL, BRIGHT, CHAFF, RIBBON
    from hanasim.games.taipa.lower import start_deck

    g, r, lay, groups = _setup("taipa", rules, given)
    deck = [c for c in range(48) if start_deck(r) >> c & 1]
    yaku = {BRIGHT: "three_brights", ANIMAL: "boar_deer_butterflies", RIBBON: "ribbons",
            CHAFF: "chaff"}
    places = {0: "first_player", 1: "second_player", 2: "field"}
    n = 0
    counts = {}
    for d in _every_deal(lay, groups, deck):
        n += 1
        held = {p: {yaku[k] for k, _ in naive_taipa.form_yaku(d[p])} for p in places}
        for p, ys in held.items():
            for y in ys | ({"any"} if ys else set()):
                counts[(y, p)] = counts.get((y, p), 0) + 1
        every = set().union(*held.values())
        for y in every | ({"any"} if every else set()):
            counts[(y, "some")] = counts.get((y, "some"), 0) + 1
    got = _exact_rows("taipa", rules, given)
    got = {q: p for (q, _), p in got.items()}
    for y in list(yaku.values()) + ["any"]:
        each = [Fraction(counts.get((y, p), 0), n) for p in places]
        for p, word in places.items():
            assert got[f"deal.one_place_holds.{y}.{word}"] == each[p], (y, word)
        assert got[f"deal.one_place_holds.{y}"] == sum(each) / 3, y
        assert got[f"deal.any_place_holds.{y}"] == Fraction(counts.get((y, "some"), 0), n), y


# ---------------------------------------------------------------- (b) the kernels agree
@pytest.fixture(scope="module")
def given_rounds(request):
    return 2_000_000 if request.config.getoption("--full") else 40_000


@pytest.mark.parametrize("game, rules, given", [
    ("kushiro_toppa", {}, {"dealer": "1b,1r,2c1,2c2", "field": "3c1,3c2,3r"}),
    ("taoshi", {}, {"seat1": "1co,1cu,1sw", "field": "2co,2cu,2sw"}),
    ("ishikari_toppa", {}, {"dealer": "3b,3r,4a", "field": "4c1,4c2"}),
    ("koikoi", {}, {"dealer": "11b,8b,8a", "field": "1b,1r,1c1"}),
    ("taipa", {}, {"first": "1b1,2b1", "field": "4r1,5r1"}),
])
def test_kernel_rates_agree_with_exact_given(game, rules, given, given_rounds):
    """Every quantity the table and the exact odds share: the exact conditional value (played
    deals where the kernel counts played deals) lies in the kernel's 99.9% interval; the
    report pairs them the same way (``plot.exact_values``)."""
    from hanasim.plot import exact_values
    from hanasim.report.build import exact_comparison

    df = api.simulate(game, rules=rules, rounds=given_rounds, seed=5, given=given,
                      deals_only=True, threads=1)
    ex = api.exact(game, rules=rules, given=[f"{k}={v}" for k, v in given.items()])
    shared = [q for q in exact_values(ex) if q in set(df["quantity"])]
    assert len(shared) >= 5, shared
    cmp = exact_comparison(df, ex)
    bad = cmp[~cmp["inside"]]
    assert bad.empty, bad.to_string()


# ---------------------------------------------------------------- (c) nothing given
@pytest.mark.parametrize("game, rules, slow", [
    ("taoshi", {}, False),
    ("taoshi", {"reds_overlap": "no"}, False),
    ("taipa", {}, False),
    ("taipa", {"removed_chaff": 2}, False),
    ("ishikari_toppa", {"teyaku": "toppa", "players": 5}, False),
    ("ishikari_toppa", {}, False),
    ("kushiro_toppa", {"three_pairs": "at_least"}, False),
    ("koikoi", {}, False),
    ("koikoi", {"lucky_hands": "misdeal", "field_pairs": "misdeal"}, True),
    ("koikoi", {"hand_size": 10}, True),
])
def test_nothing_given_is_the_unconditioned_odds(game, rules, slow, full):
    """With no card given the conditional code's pooled rows are the unconditioned exact
    table, fraction for fraction (the per-seat rows add to it)."""
    if slow and not full:
        pytest.skip("another full DP over every free card: run with --full")
    g = get_game(game)
    r = R.make_rules(g.Rules, rules)
    want = api.exact(game, rules=rules)
    mod = __import__(f"{type(g).__module__}.exact", fromlist=["given_table"])
    got = mod.given_table(r, {}, dict(layout_of(g, r).names))
    key = ["quantity", "condition"] + (["bakefuda"] if "bakefuda" in want else [])
    w = want.set_index(key)["fraction"]
    gt = got.set_index(key)["fraction"]
    assert len(w) > 0
    for k, f in w.items():
        assert gt[k] == f, (k, f, gt[k])


def test_every_game_with_exact_odds_takes_given_cards():
    """No game with exact deal odds refuses --given any more: the five with their own
    combinatorics compute them in their exact module (the kernels' test above runs each),
    the others from their DealSpec."""
    from hanasim.conditions import _exact_module

    for game in ("ishikari_toppa", "kushiro_toppa", "taoshi", "koikoi", "taipa"):
        assert _exact_module(get_game(game)) is not None, game
    for game, given in (("toppa", ["dealer=1b"]), ("baka", ["dealer=1b"]),
                        ("bakappana", ["field=1b"])):
        assert _exact_module(get_game(game)) is None, game
        df = api.exact(game, given=given)
        assert not df.empty and df["value"].between(0, 1).all(), game
        assert df.attrs["given"]
