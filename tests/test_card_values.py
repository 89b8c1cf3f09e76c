"""What each card is worth: the kernel tally, the values and their intervals, the command."""
import math

import numpy as np
import pytest
from numba import njit

from hanasim.engine import card_tally
from hanasim.stats import card_values as cv


@njit(cache=True)
def _tally_many(acc, seats, hands, fields, scores):
    for i in range(hands.shape[0]):
        card_tally.tally_seat(acc, seats[i], hands[i], fields[i], scores[i])


def _random_rounds(rng, n_rounds, n_seats=2, hand=10, field=8, n_cards=48):
    """Deals of disjoint hands and a field, and a score per seat (a toy rule: the seat
    scores its cards' indices mod 7, less 20, plus noise)."""
    hands = np.zeros((n_rounds, n_seats), dtype=np.uint64)
    fields = np.zeros(n_rounds, dtype=np.uint64)
    scores = np.zeros((n_rounds, n_seats), dtype=np.int64)
    for r in range(n_rounds):
        order = rng.permutation(n_cards)
        for s in range(n_seats):
            cards = order[s * hand:(s + 1) * hand]
            hands[r, s] = np.uint64(sum(1 << int(c) for c in cards))
            scores[r, s] = int(sum(c % 7 for c in cards)) - 20 + int(rng.integers(-5, 6))
        fcards = order[n_seats * hand:n_seats * hand + field]
        fields[r] = np.uint64(sum(1 << int(c) for c in fcards))
    return hands, fields, scores


def _python_tally(hands, fields, scores, n_cards=48):
    n_rounds, n_seats = scores.shape
    acc = np.zeros(card_tally.shape(n_seats, n_cards), dtype=np.int64)
    for r in range(n_rounds):
        for s in range(n_seats):
            x = int(scores[r, s])
            acc[0, s, n_cards] += (1, x, x * x)
            for c in range(n_cards):
                if int(hands[r, s]) >> c & 1:
                    acc[0, s, c] += (1, x, x * x)
                if int(fields[r]) >> c & 1:
                    acc[1, s, c] += (1, x, x * x)
    return acc


def _kernel_tally(hands, fields, scores, n_cards=48):
    n_rounds, n_seats = scores.shape
    acc = np.zeros(card_tally.shape(n_seats, n_cards), dtype=np.int64)
    seats = np.tile(np.arange(n_seats), n_rounds)
    _tally_many(acc, seats, hands.reshape(-1), np.repeat(fields, n_seats), scores.reshape(-1))
    return acc


def test_the_kernel_tally_is_a_plain_count():
    hands, fields, scores = _random_rounds(np.random.default_rng(1), 300)
    assert np.array_equal(_kernel_tally(hands, fields, scores),
                          _python_tally(hands, fields, scores))


def test_off_is_empty():
    assert card_tally.off(4).shape[0] == 4 and card_tally.off(4)[0].shape[0] == 0


class _Game:  # a registry entry as far as the table needs one
    name = "toppa"
    seats = ("dealer", "opponent")


def test_weighted_values_add_up_to_zero_for_a_fixed_hand_size():
    hands, fields, scores = _random_rounds(np.random.default_rng(2), 400)
    acc = _python_tally(hands, fields, scores)
    # exactly on the counters: the cards' score sums are the hand size times the seat's
    for where, size in ((0, 10), (1, 8)):
        for s in range(2):
            assert acc[where, s, :48, 1].sum() == size * acc[0, s, 48, 1]
            assert acc[where, s, :48, 0].sum() == size * acc[0, s, 48, 0]
    df = cv.table(acc, _Game(), {})
    for (where, seat), rows in df.groupby(["dealt_to", "seat"]):
        assert abs((rows["share"] * rows["value"]).sum()) < 1e-9, (where, seat)


def test_the_value_is_the_two_group_difference_scaled():
    rng = np.random.default_rng(3)
    x1 = rng.integers(-30, 60, 500)  # rounds with the card
    x0 = rng.integers(-40, 40, 1500)  # rounds without it
    n1, s1, q1 = len(x1), int(x1.sum()), int((x1 * x1).sum())
    n, s, q = n1 + len(x0), s1 + int(x0.sum()), q1 + int((x0 * x0).sum())
    st = cv.value_stats(n1, s1, q1, n, s, q)
    p = n1 / n
    assert st["share"] == pytest.approx(0.25)
    assert st["value"] == pytest.approx(x1.mean() - np.concatenate([x1, x0]).mean())
    assert st["value"] == pytest.approx((1 - p) * (x1.mean() - x0.mean()))
    se = (1 - p) * math.sqrt(x1.var(ddof=1) / n1 + x0.var(ddof=1) / len(x0))
    assert st["std_error"] == pytest.approx(se)
    assert st["ci_low"] < st["value"] < st["ci_high"]
    assert (st["ci_high"] - st["value"]) / se == pytest.approx(3.31, abs=0.02)  # 99.9%, t


def test_too_few_rounds_give_no_interval():
    st = cv.value_stats(1, 5, 25, 10, 20, 100)
    assert st["value"] == pytest.approx(5 - 2) and math.isnan(st["ci_low"])
    assert math.isnan(cv.value_stats(0, 0, 0, 10, 20, 100)["value"])


def test_a_card_that_scores_is_worth_more():
    # the toy rule scores c % 7: card 6 (worth 6) above the mean, card 7 (worth 0) below
    hands, fields, scores = _random_rounds(np.random.default_rng(4), 2000)
    df = cv.table(_python_tally(hands, fields, scores), _Game(), {})
    hand = df[(df["dealt_to"] == "hand") & (df["seat"] == "dealer")].set_index("card")
    names = cv.card_labels(cv.deck_of(_Game()))
    six, seven = names[6][0], names[7][0]
    assert hand.loc[six, "ci_low"] > 0 > hand.loc[seven, "ci_high"]
    best, worst = hand["value"].idxmax(), hand["value"].idxmin()
    for card in (best, worst):  # named in words with its code ("pine crane '1b'")
        said = f"{card.replace('.', ' ').replace('_', ' ')} '{hand.loc[card, 'code']}'"
        assert said in df.attrs["headline"], (said, df.attrs["headline"])
    assert int(cv.deck_of(_Game()).names.index(best)) % 7 == 6


def test_the_grid_chart_draws_every_card():
    from hanasim import plot

    df = cv.table(_python_tally(*_random_rounds(np.random.default_rng(6), 200)), _Game(),
                  {"game": "toppa"})
    fig, axes = plot.new_figure(11, 5)
    ax = plot.card_values(df, seat="opponent", ax=axes[0, 0])
    assert len(ax.texts) == 48 and ax.images[0].get_array().shape == (4, 12)
    assert plot.figure_bytes(fig)[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match="no seat 'left'"):
        plot.card_values(df, seat="left", ax=axes[0, 0])


def test_difference_of_two_tables():
    a = cv.table(_python_tally(*_random_rounds(np.random.default_rng(5), 300)), _Game(), {})
    b = a.copy()
    b["value"] = b["value"] + 1.0
    d = cv.difference(a, b)
    assert len(d) == len(a)
    assert np.allclose(d["difference"].dropna(), 1.0)
    assert (d["ci_low"] <= d["difference"]).all() or d["ci_low"].isna().any()


def test_card_labels_name_every_deck():
    from hanasim import decks

    assert cv.card_labels(decks.HANAFUDA)[0] == ("pine.crane", "pine", "bright")
    assert cv.card_labels(decks.TAIPA)[0][1:] == ("pine", "bright")
    assert cv.card_labels(decks.MEKURIFUDA)[0] == ("coins.1", "1", "coins")


# ---------------------------------------------------------------- every game's kernel tally
# game: (rules, policy, cards in each hand, cards on the field (None: varies), the table's
# quantity of the dealer's (seat 0's) mean round score)
GAMES = {
    "toppa": ({}, "random", 10, 8, "dealer.mean_score"),
    "baka": ({}, "random", 7, 6, "seat.dealer.mean_score"),
    "koikoi": ({}, "random", 8, 8, "dealer.mean_score"),
    "kushiro_toppa": ({}, "random", 10, 8, "dealer.mean_chips"),
    "taipa": ({}, "random", 6, 6, "round.first_player.mean_net"),
    "taoshi": ({}, "random", 7, 6, "dealer.mean_score"),
    "bakappana": ({}, "random", None, None, "seat.dealer.mean_score"),
    "ishikari_toppa": ({}, "random", None, None, "seat.dealer.mean_score"),
}


def _run_game(game, rounds, seed, blocks=None):
    from hanasim import api, rules as _rules
    from hanasim.games import get_game

    rules, policy, *_ = GAMES[game]
    g = get_game(game)
    rule_obj = _rules.make_rules(g.Rules, rules)
    n = api.seated(g, rule_obj)
    _, pol = api._policies(policy, n, g)
    _, exp = api._expose("always", n, g)
    extra = {"blocks": blocks} if blocks else {}
    c = g.counters(rule_obj, rounds=rounds, seed=seed, policy=pol, expose=exp,
                   card_values=True, **extra)
    return g, rule_obj, c


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_tallies_its_dealt_cards(game):
    """The kernel's card counters against a plain count of each session's rounds (the run in
    one-session blocks: each block's counters are its rounds' hands and scores), the dealt
    sizes, and the seats' scores against the game's own table."""
    _, _, hand, field, quantity = GAMES[game]
    # as many blocks as rounds: one session a block (a chunk of one session)
    g, rule_obj, c = _run_game(game, 240, 11, blocks=240)
    acc = c["cards"]
    n_cards = acc.shape[2] - 1
    blocks = c["blocks"]["cards"]
    assert np.array_equal(blocks.sum(axis=0), acc)
    # each block: whole cards dealt, one score per seat and round
    plain = np.zeros_like(acc)
    for b in blocks:
        for s in range(acc.shape[1]):
            rounds, total, sq = b[0, s, n_cards]
            if hand is not None:
                assert b[0, s, :n_cards, 0].sum() == hand * rounds
            if field is not None:
                assert b[1, s, :n_cards, 0].sum() == field * rounds
            if rounds == 1:  # one round: the record itself
                held = b[0, s, :n_cards, 0]
                assert set(held) <= {0, 1}
                on_field = b[1, s, :n_cards, 0]
                assert not (held & on_field).any()
                for w, cards in ((0, held), (1, on_field)):
                    plain[w, s, :n_cards] += np.outer(cards, (1, total, total * total))
                plain[0, s, n_cards] += (1, total, total * total)
    if (blocks[:, 0, 0, n_cards, 0] == 1).all():
        assert np.array_equal(plain, acc)
    # the seat's mean score is the table's
    df = dict(g.quantities(c, rule_obj))
    scale = int(c.get("cards_scale", 1))
    assert acc[0, 0, n_cards, 1] / acc[0, 0, n_cards, 0] / scale == pytest.approx(
        df[quantity]["estimate"], abs=1e-9)


def test_toppa_brights_are_worth_points_to_the_seat_dealt_them():
    """A hand-made case whose answer is known: a Toppa seat dealt a 20-point bright scores
    more on average (the card's points, and the Bright yaku it may complete), a seat dealt a
    chaff card less; and what the dealer gains from a card it holds, the opponent loses."""
    import hanasim

    df = hanasim.card_values("toppa", rounds=100_000, seed=5, policy="greedy")
    hand = df[df["dealt_to"] == "hand"].set_index(["seat", "card"])
    for card in ("pine.crane", "cherry.curtain", "susuki.moon", "willow.rain_man",
                 "paulownia.phoenix"):
        assert hand.loc[("dealer", card), "ci_low"] > 0, card
        assert hand.loc[("opponent", card), "ci_low"] > 0, card
    chaff = hand.xs("dealer")[lambda t: t["kind"] == "chaff"]
    assert (chaff["value"] < 0).mean() > 0.8
    assert "dealer" in df.attrs["headline"].lower() and "points" in df.attrs["headline"]
    assert {"rounds", "seed", "policies", "rules"} <= set(df.columns)
    assert (df["share"].between(0, 1)).all() and len(df) == 2 * 2 * 48


def test_a_rule_change_moves_the_cards_it_touches():
    import hanasim

    d = hanasim.card_values("toppa", rounds=20_000, seed=5, policy="greedy",
                            vs_rules={"five_brights": 200, "four_brights": 200,
                                      "rainy_four_brights": 200})
    assert {"value_a", "value_b", "difference", "ci_low", "ci_high"} <= set(d.columns)
    brights = d[(d["dealt_to"] == "hand") & (d["seat"] == "dealer") & (d["kind"] == "bright")]
    assert (brights["difference"] > 0).all()


@pytest.mark.parametrize("argv, words", [
    (["cards", "nogame"], "unknown game"),
    (["cards", "toppa", "--rounds", "0"], "rounds must be a positive whole number"),
    (["cards", "toppa", "--rule", "nope=1"], "nope"),
    (["cards", "toppa", "--vs-rule", "five_brights=7"], "five_brights"),
    (["cards", "toppa", "--seat", "left"], "--seat 'left' is not a seat of toppa"),
    (["cards", "toppa", "--policy", "clever"], "policy"),
])
def test_bad_input_is_one_line(argv, words, capsys):
    from hanasim.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err


def test_the_command_prints_and_writes(tmp_path, capsys):
    import pandas as pd

    from hanasim.cli import main

    out = tmp_path / "cards.csv"
    chart = tmp_path / "cards.png"
    assert main(["cards", "toppa", "--rounds", "3000", "--seed", "2", "--policy", "greedy",
                 "--seat", "opponent", "--dealt-to", "hand", "--out", str(out),
                 "--chart", str(chart), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "most valuable card" in text and "share dealt" in text
    body = [line for line in text.splitlines() if line.startswith("hand ")]
    assert len(body) == 48 and all(" opponent " in line for line in body)
    df = pd.read_csv(out)
    assert len(df) == 2 * 2 * 48 and chart.stat().st_size > 1000
