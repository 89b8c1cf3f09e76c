"""Taipa's given cards in a game's later rounds: a deck that has lost the very card given deals
an identical copy in its place (uniformly among the copies left), and only a deck without any
copy deals the round unconditioned, counted in the table (``round.given_unmet_rate``)."""
import numpy as np
import pytest
from numba import njit

import naive_taipa
from hanasim import api, conditions, notation
from hanasim.decks import ANIMAL, BRIGHT, CHAFF, RIBBON
from hanasim.engine.bits import lowest
from hanasim.engine.rng import deal_shuffle_copies, shuffle_first, stream_state
from hanasim.games import get_game, taipa as T
from hanasim.games.taipa.exact import given_probabilities
from hanasim.games.taipa.round import R_CARDS, R_N
from hanasim.games.taipa.rules import FULL_ROUND, HAND
from hanasim.policies import parse_policy
from hanasim.rules import make_rules

G = get_game("taipa")
R = make_rules(G.Rules, {})
CODE = notation.for_game(G).codes
CARD = {c: i for i, c in enumerate(CODE)}
YAKU = {BRIGHT: "three_brights", ANIMAL: "boar_deer_butterflies", RIBBON: "ribbons",
        CHAFF: "chaff"}


def cond_of(given):
    return conditions.check(G, given, None, [R]).array(R)


def deck_without(*codes):
    return ((1 << 48) - 1) & ~sum(1 << CARD[c] for c in codes)


@njit
def _deals(seed, cond, deck, n_deals, out, met):
    """``n_deals`` deals from ``deck`` (laid out in card order, as ``game.play_game`` does)
    under ``cond``: each place's cards (first player, second player, field) as card masks."""
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = stream_state(np.uint64(seed), np.uint64(0))
    order = np.zeros(48, dtype=np.int8)
    for d in range(n_deals):
        j = 0
        m = deck
        while m:
            order[j] = lowest(m)
            m &= m - np.uint64(1)
            j += 1
        met[d] = deal_shuffle_copies(rng, order, j, 0, min(j, FULL_ROUND), cond)
        for p in range(3):
            h = np.uint64(0)
            for i in range(HAND):
                h |= np.uint64(1) << np.uint64(order[HAND * p + i])
            out[d, p] = h


def deals(given, deck, n, seed=7):
    out = np.zeros((n, 3), dtype=np.uint64)
    met = np.zeros(n, dtype=np.bool_)
    _deals(seed, cond_of(given), np.uint64(deck), n, out, met)
    return out, met


@pytest.mark.parametrize("given, gone, copies", [
    # a ribbons yaku took the pine poetry ribbon given: its twin stands for it
    ("1r1", ("1r1", "2r1", "4r1"), ("1r2",)),
    # a three-brights yaku took the crane given: one of the three cranes left, uniformly
    ("1b1", ("1b1", "2b1", "3b1"), ("1b2", "1b3", "1b4")),
])
def test_a_lost_given_card_is_dealt_as_an_identical_copy(given, gone, copies):
    """The first player holds a copy of the given card's face in every deal, each copy left
    equally often (a copy is placed uniformly among them; another may come in the free
    cards): the old kernel dealt these rounds unconditioned."""
    deck = deck_without(*gone)
    n_cards = bin(deck).count("1")
    n = 20000
    out, met = deals([f"first_player={given}"], deck, n)
    assert met.all()
    hand = out[:, 0]
    mask = sum(1 << CARD[c] for c in copies)
    assert all(int(h) & mask for h in hand)
    k = len(copies)
    # P(a copy in the hand) = 1/k (placed) + (1 - 1/k) 5/(n_cards - 1) (a free card)
    want = 1 / k + (1 - 1 / k) * (HAND - 1) / (n_cards - 1)
    half = 4 * (want * (1 - want) / n) ** 0.5
    for c in copies:
        got = np.mean([(int(h) >> CARD[c]) & 1 for h in hand])
        assert abs(got - want) <= half, (c, got, want)


def test_later_round_deals_are_uniform_against_the_exact_conditional_odds():
    """Every place's yaku rates of deals from a shrunken deck that lost the given ribbon equal
    the exact conditional odds of that deck given its twin (``exact.given_probabilities``),
    within 4 standard errors: the deal is uniform among those holding the face."""
    deck = deck_without("1r1", "2r1", "4r1", "1b1", "2b1", "3b1")
    n = 12000
    out, _ = deals(["first_player=1r1,5c1", "field=2c2"], deck, n, seed=11)
    exact = given_probabilities({0: [CARD["1r2"], CARD["5c1"]], 2: [CARD["2c2"]]}, deck)
    held = np.zeros((3, 5))
    for row in out:
        for p in range(3):
            cards = [c for c in range(48) if int(row[p]) >> c & 1]
            ys = {YAKU[k] for k, _ in naive_taipa.form_yaku(cards)}
            for i, y in enumerate(list(YAKU.values()) + ["any"]):
                held[p, i] += y in ys or (y == "any" and bool(ys))
    for p in range(3):
        for i, y in enumerate(list(YAKU.values()) + ["any"]):
            want = float(exact[((p,), y)])
            got = held[p, i] / n
            half = 4 * (max(want * (1 - want), 1e-4) / n) ** 0.5
            assert abs(got - want) < half, (p, y, got, want)


def test_a_deck_without_any_copy_deals_unconditioned_and_says_so():
    """Both pine poetry ribbons gone: the round is dealt as an unconditioned deal from the
    same state (the same draws) and the shuffle says the condition was not met."""
    deck = deck_without("1r1", "1r2", "2r1", "4r1")
    out, met = deals(["first_player=1r1"], deck, 50)
    assert not met.any()
    order = np.array([c for c in range(48) if deck >> c & 1] + [0, 0, 0, 0], dtype=np.int8)
    rng = np.array([stream_state(np.uint64(7), np.uint64(0))], dtype=np.uint64)
    shuffle_first(rng, order, 44, 0, FULL_ROUND)
    first = sum(1 << int(c) for c in order[:HAND])
    assert int(out[0, 0]) == first


def test_twins_are_the_copies_no_rule_tells_apart():
    arr = cond_of(["first_player=1r1,3c2"])
    k = arr[0]
    twins = arr[4 + 2 * k + arr[1] + arr[2]:][:k]
    assert [int(t) for t in twins] == [(1 << CARD["1r1"]) | (1 << CARD["1r2"]),
                                      sum(1 << CARD[f"3c{j}"] for j in range(1, 5))]
    # a deck that is always whole (Toppa) keeps the given card itself only
    g = get_game("toppa")
    r = make_rules(g.Rules, {})
    arr = conditions.check(g, ["dealer=1c1"], None, [r]).array(r)
    assert int(arr[4 + 2 + arr[1] + arr[2]]) == 1 << int(arr[5])


def test_a_game_places_the_twin_and_flags_a_round_without_a_copy():
    """Whole games (``play_game``) from a hand-built deck: the round's first player holds the
    twin of the lost given card (not so in the old kernel, which dealt it unconditioned), and a
    deck without any copy flags the round (the table's round.given_unmet_rate)."""
    tb = T.lower(R)._replace(cond=cond_of(["first_player=1r1"]))
    pol, dec = T.decode_policies([parse_policy("greedy")] * 2)
    twin = CARD["1r2"]
    for seed in range(8):
        out, r, *_ = T.one_game(np.uint64(seed), 0, 0, tb, pol, dec,
                                np.uint64(deck_without("1r1", "2r1", "4r1")))
        assert (int(out[0, R_CARDS]) >> twin) & 1 and out[0, R_N + 3] == 0, seed
        out, r, *_ = T.one_game(np.uint64(seed), 0, 0, tb, pol, dec,
                                np.uint64(deck_without("1r1", "1r2", "2r1", "4r1")))
        assert out[0, R_N + 3] == 1, seed


def test_the_table_counts_rounds_dealt_unconditioned():
    """A run given a pine poetry ribbon: a later round's deck may have lost both copies (a
    ribbons yaku takes them), and the table counts those rounds; round 1 never; an
    unconditioned table has no such rows."""
    df = api.simulate("taipa", rounds=3000, seed=3, given=["first_player=1r1"], threads=1)
    by = df.set_index("quantity")
    assert by.loc["round.1.given_unmet_rate", "estimate"] == 0
    assert by.loc["round.given_unmet_rate", "estimate"] > 0
    note = next(n for n in df.attrs["notes"] if "Conditional deals" in n)
    assert "an identical copy" in note and "round.given_unmet_rate" in note
    plain = api.simulate("taipa", rounds=300, seed=3, threads=1)
    assert not plain["quantity"].str.contains("given_unmet").any()

