"""Issue 17: exploring house rules: any value of a numeric rule, the par per seat, sweeps and
solving for a fair value, score distributions, the seat and label columns, hanasim.plot.

Runs are small (tens of thousands of rounds) and use the kernels every other test compiles."""
from __future__ import annotations

import dataclasses
import math
from typing import ClassVar

import matplotlib
import numpy as np
import pandas as pd
import pytest

import hanasim
from hanasim import rules as R
from hanasim.engine.tally import HIST_BINS, HIST_LO
from hanasim.stats import distribution as D

matplotlib.use("Agg")

SEAT_SCORE = {"toppa": "dealer.mean_score", "baka": "seat.dealer.mean_score"}


# ---- 1. any value, validated by range and meaning; par per seat -------------------------------

def test_option_is_unchanged_and_number_is_new():
    """``option(default, choices, doc)`` works exactly as before (other games use it), and
    ``number`` declares a range with readings, aliases and per-seat values."""
    @dataclasses.dataclass(frozen=True)
    class Toy:
        game: ClassVar[str] = "toy"
        seats: ClassVar[tuple] = ("dealer", "left", "right")
        mode: str = R.option("a", ("a", "b"), "a or b")
        cards: int = R.option(1, (1, 2, 3), "cards")
        value: int = R.number(20, "a yaku", low=0, high=100, step=5, readings={20: "seed"},
                              aliases={"off": 0})
        par: int = R.number(80, "par", low=0, high=240, per_seat=True)

    assert R.make_rules(Toy, {"mode": "b", "cards": "2"}) == Toy(mode="b", cards=2)
    assert R.options(Toy)[0]["choices"] == ("a", "b")
    with pytest.raises(R.RuleError, match="allowed values: a, b"):
        R.make_rules(Toy, {"mode": "c"})
    assert R.make_rules(Toy, {"value": "35"}).value == 35
    assert R.make_rules(Toy, {"value": "off"}).value == 0
    for bad, words in [(33, "multiple of 5"), (105, "from 0 to 100"), ("x", "whole number"),
                       (2.0, "a float")]:
        with pytest.raises(R.RuleError, match=words):
            R.make_rules(Toy, {"value": bad})
    assert R.make_rules(Toy, {"par": "70,80,90"}).par == (70, 80, 90)
    assert R.make_rules(Toy, {"par": [80, 80, 80]}).par == 80  # all seats alike: one value
    assert R.make_rules(Toy, {"par": 70, "par.right": 90}).par == (70, 70, 90)
    with pytest.raises(R.RuleError, match="one per seat"):
        R.make_rules(Toy, {"par": "70,80"})
    assert R.rules_string(Toy(par=(70, 80, 90))).endswith("par=70,80,90")
    assert R.parse_rules_string("mode=a,par=70,80,90,value=5")["par"] == "70,80,90"


def test_every_numeric_rule_is_listed_with_its_readings():
    t = hanasim.rules_table("toppa").set_index("option")
    assert t.loc["five_brights", "numeric"] and "40 (the rule page's alternative)" in t.loc[
        "five_brights", "readings"]
    assert t.loc["par", "default"] == "120" and "one per seat" in t.loc["par", "allowed"]
    for name in ("chaff_count", "chaff_extra", "seven_ribbons_extra", "triplet", "empty_hand"):
        assert t.loc[name, "numeric"], name
    b = hanasim.rules_table("baka").set_index("option")
    assert b.loc["low_man_max", "default"] == "25" and b.loc["low_man_pay", "default"] == "40"
    assert b.loc["par", "default"] == "80" and b.loc["chaff_count", "default"] == "10"
    with pytest.raises(ValueError, match="only 23 cards count as chaff"):
        hanasim.simulate("toppa", rounds=1000, rules={"chaff_count": 24})
    assert hanasim.simulate("toppa", rounds=1000, seed=1,
                            rules={"chaff_count": 24, "willow_chaff": "lightning"}) is not None


@pytest.mark.parametrize("game, base_par", [("toppa", 120), ("baka", 80)])
def test_the_dealers_par_moves_the_dealers_mean_score_exactly(game, base_par):
    """On the same seed, a dealer's par higher by d moves dealer.mean_score by exactly -d, and
    the fair par not at all (issue 17: the exact par shift)."""
    q = SEAT_SCORE[game]
    base = hanasim.simulate(game, rounds=20_000, seed=5).set_index("quantity")
    for d in (-13, 7):
        moved = hanasim.simulate(game, rounds=20_000, seed=5, checked=True,
                                 rules={"par.dealer": base_par + d}).set_index("quantity")
        assert moved.loc[q, "estimate"] - base.loc[q, "estimate"] == pytest.approx(-d, abs=1e-9)
        assert moved.loc[q, "std_error"] == pytest.approx(base.loc[q, "std_error"])
        assert moved.loc["fair_par.dealer", "estimate"] == pytest.approx(
            base.loc["fair_par.dealer", "estimate"])
        assert moved.loc["par_balance.dealer", "estimate"] == pytest.approx(
            base.loc["par_balance.dealer", "estimate"] - d)
        # the pars no longer add up to the deck's 240 points: the table says so
        assert any("not zero-sum" in n for n in moved.attrs["notes"]), moved.attrs["notes"]
    assert not any("zero-sum" in n for n in base.attrs["notes"]), base.attrs["notes"]


def test_a_handicap_that_adds_up_stays_zero_sum():
    df = hanasim.simulate("toppa", rounds=20_000, seed=2, rules={"par": "104,136"},
                          checked=True).set_index("quantity")
    assert df.attrs["notes"] == []
    assert df.loc["dealer.mean_score", "estimate"] == pytest.approx(
        -df.loc["opponent.mean_score", "estimate"])
    low = hanasim.simulate("toppa", rounds=20_000, seed=2, rules={"par": 100},
                           checked=True).set_index("quantity")
    # pars of 100 + 100: every round hands out 40 more points than it takes
    assert low.loc["dealer.mean_score", "estimate"] + low.loc["opponent.mean_score",
                                                             "estimate"] == pytest.approx(40)
    assert low.loc["fair_par.dealer", "estimate"] + low.loc["fair_par.opponent",
                                                           "estimate"] == pytest.approx(240)


def test_a_yaku_that_is_not_played_keeps_its_row():
    """Rows do not depend on the rules: a yaku valued 0 (or 'off') reports 0."""
    base = hanasim.simulate("toppa", rounds=5000, seed=4)
    off = hanasim.simulate("toppa", rounds=5000, seed=4, rules={"iris_row": 0})
    assert list(base.quantity) == list(off.quantity)
    assert off.set_index("quantity").loc["dekiyaku.iris_row", "estimate"] == 0


# ---- 2. sweeps and solving -------------------------------------------------------------------

def test_a_sweep_solves_to_the_fair_par_the_simulation_reports():
    """The dealer's par that makes dealer.mean_score zero, solved from a sweep, is the fair
    par a single simulation reports, and so is its interval."""
    sw = hanasim.sweep("toppa", {"par.dealer": "96:124:4"}, rounds=20_000, seed=8,
                       solve="dealer.mean_score=0")
    fair = hanasim.simulate("toppa", rounds=20_000, seed=8).set_index("quantity").loc[
        "fair_par.dealer"]
    s = sw.attrs["solved"][0]
    assert s["value"] == pytest.approx(fair.estimate, abs=1e-9)
    assert (s["ci_low"], s["ci_high"]) == pytest.approx((fair.ci_low, fair.ci_high), abs=1e-9)
    assert hanasim.solve(sw, "dealer.mean_score", 0)["value"] == s["value"]
    # one row per value and quantity, every value on the same deals
    values = sorted(sw["par.dealer"].unique())
    assert values == list(range(96, 125, 4))
    assert len(sw) == len(values) * sw["quantity"].nunique()
    assert sw[sw.quantity == "misdeal_rate"]["estimate"].nunique() == 1
    assert {"seat", "label", "variant"} <= set(sw.columns)


def test_solve_says_when_it_cannot():
    sw = hanasim.sweep("toppa", {"par.dealer": [60, 70]}, rounds=5000, seed=3)
    s = hanasim.solve(sw, "dealer.mean_score", 0)
    assert math.isnan(s["value"]) and "does not cross" in s["message"]
    with pytest.raises(ValueError, match="no quantity 'nope'"):
        hanasim.solve(sw, "nope", 0)
    # a band that leaves the range: the interval end is unknown, and said
    sw = hanasim.sweep("toppa", {"par.dealer": [104, 106]}, rounds=5000, seed=3)
    s = hanasim.solve(sw, "dealer.mean_score", float(
        sw[(sw.quantity == "dealer.mean_score")]["estimate"].mean()))
    assert not math.isnan(s["value"]) and (math.isnan(s["ci_low"]) or math.isnan(s["ci_high"]))
    assert "wider range" in s["message"]


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(rules={"par": 120}), ValueError, "two or more values"),
    (dict(rules={"par": "140:100:5"}), ValueError, "go up"),
    (dict(rules={"par": "100:140"}), ValueError, "A:B:STEP"),
    (dict(rules={"willow_chaff": "none,all"}, solve="dealer.mean_score=0"), ValueError,
     "numeric rule"),
    (dict(rules={"par": "100:120:10", "five_brights": "40,60"}, solve={"x": 0}), ValueError,
     "exactly one swept rule"),
    (dict(rules={"par": "100:120:10"}, solve="dealer.mean_score"), ValueError,
     "quantity=target"),
    (dict(rules={"par": "0:240:1"}), ValueError, "241 variants"),
])
def test_sweep_refuses_bad_input_before_the_work(kwargs, error, words):
    with pytest.raises(error, match=words):
        hanasim.sweep("toppa", rounds=10**11, seed=1, **kwargs)


def test_compare_takes_per_seat_values_and_refuses_one_variant():
    cmp = hanasim.compare("toppa", rounds=4000, seed=1, rules={"par": "120|104,136"})
    assert set(cmp.variant) == {"par=120", "par=104,136"}
    d = cmp[(cmp.kind == "difference") & (cmp.quantity == "dealer.mean_score")].iloc[0]
    assert d.estimate == pytest.approx(16) and d.std_error == pytest.approx(0, abs=1e-9)
    with pytest.raises(ValueError, match="at least two variants"):
        hanasim.compare("toppa", rounds=4000, seed=1, rules={"five_brights": 60})


# ---- 3. distributions ------------------------------------------------------------------------

def _counts(values):
    c = np.zeros(HIST_BINS, np.int64)
    np.add.at(c, np.asarray(values) - HIST_LO, 1)
    return c


def test_quantiles_from_a_histogram_are_order_statistics():
    gen = np.random.default_rng(3)
    x = gen.integers(-300, 300, 20_001)
    for p in D.QUANTILES:
        r = D.quantile(_counts(x), p)
        assert r["estimate"] == np.quantile(x, p, method="inverted_cdf")
        assert r["ci_low"] <= r["estimate"] <= r["ci_high"] and r["n"] == len(x)
    # thirds of a point
    assert D.quantile(_counts([-3, 0, 3, 6]), 0.5, unit=3)["estimate"] == 0.0
    # beyond the histogram's range: unknown, not a wrong number
    assert math.isnan(D.quantile(_counts([HIST_LO, HIST_LO]), 0.5)["estimate"])


def test_quantile_intervals_cover(full):
    """The distribution-free interval covers the true median at least 99.9% of the time."""
    gen = np.random.default_rng(11)
    trials = 3000 if full else 400
    misses = 0
    for _ in range(trials):
        x = gen.integers(0, 100, 501)  # discrete uniform: the median's population value is 49
        r = D.quantile(_counts(x), 0.5)
        misses += not (r["ci_low"] <= 49 <= r["ci_high"])
    assert misses <= max(2, trials * 0.003)


@pytest.mark.parametrize("game", ["toppa", "baka"])
def test_distribution_table_and_quantile_rows_agree(game):
    df = hanasim.simulate(game, rounds=9000, seed=6)
    dist = hanasim.distributions(df)
    by = df.set_index("quantity")
    for name, part in dist.groupby("distribution"):
        assert part["count"].sum() == by.loc[f"{name}.q50", "n"]
        median = part.loc[part["cumulative"] >= 0.5, "score"].iloc[0]
        assert by.loc[f"{name}.q50", "estimate"] == median
        assert part["share"].sum() == pytest.approx(1)
    assert set(dist.seat) >= ({"dealer", "opponent"} if game == "toppa"
                              else {"dealer", "right", "left", "first_dealer"})


def test_baka_game_rows_share_one_n():
    df = hanasim.simulate("baka", rounds=10, seed=3).set_index("quantity")
    game_rows = df[df.index.str.contains("game") | df.index.str.endswith("first_dealer_share")]
    assert set(game_rows["n"]) == {3}  # 3 complete games in 10 rounds


# ---- 5. the tidy table's seat and label columns ------------------------------------------------

def test_seat_and_label_columns():
    df = hanasim.simulate("baka", rounds=3000, seed=1).set_index("quantity")
    assert df.loc["seat.right.mean_score", "seat"] == "right"
    assert df.loc["fair_par.left", "seat"] == "left"
    assert df.loc["player2.game.win_rate", "seat"] == "player2"
    assert df.loc["misdeal_rate", "seat"] == ""
    assert df.loc["dekiyaku.seven_ribbons", "label"] == "Dekiyaku: Seven Ribbons"
    assert df.loc["round_score.dealer.q05", "label"] == "Dealer: round score, 5th percentile"
    assert df.loc["fair_par.dealer", "label"] == "Dealer: fair par"
    assert df["label"].is_unique


# ---- 4. hanasim.plot --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def toppa():
    return hanasim.simulate("toppa", rounds=6000, seed=3)


def test_plot_functions_return_axes_with_display_names(toppa):
    from matplotlib.axes import Axes

    from hanasim import plot

    exact = hanasim.exact("toppa")
    ax = plot.teyaku_vs_exact(toppa, exact)
    assert isinstance(ax, Axes) and ax.get_xscale() == "log"
    assert "One Ribbon" in [t.get_text() for t in ax.get_yticklabels()]
    assert not ax.patches  # points with intervals, not bars
    ax = plot.dekiyaku_rates(toppa)
    assert "Seven Ribbons" in [t.get_text() for t in ax.get_yticklabels()]
    ax = plot.seat_edges(toppa, "win_rate")
    ties = toppa.set_index("quantity").loc["dealer.tie_rate", "estimate"]
    ref = [line for line in ax.get_lines() if line.get_linestyle() == "--"][0]
    assert ref.get_xdata()[0] == pytest.approx((1 - ties) / 2)  # fair share net of ties
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Dealer", "Opponent"]
    assert isinstance(plot.score_distribution(toppa), Axes)
    assert isinstance(plot.estimates(toppa, ["dealer.mean_score", "player1.mean_score"], ref=0),
                      Axes)
    cmp = hanasim.compare("toppa", rounds=4000, seed=1, rules={"five_brights": [60, 40]})
    assert isinstance(plot.compare_forest(cmp, "yaku_score.dealer"), Axes)
    sw = hanasim.sweep("toppa", {"par.dealer": "100:120:10"}, rounds=4000, seed=1,
                       solve="dealer.mean_score=0")
    ax = plot.sweep_curve(sw, "dealer.mean_score")
    assert ax.get_xlabel() == "Par (Dealer)"
    assert any("crosses at" in t.get_text() for t in ax.get_legend().get_texts())
    png = plot.figure_bytes(plot.sweep_figure(sw, ["dealer.mean_score"]))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.pyplot as plt

    plt.close("all")
    with pytest.raises(ValueError, match="no distributions"):
        plot.score_distribution(pd.DataFrame(toppa))  # a copy without attrs, as from a CSV


# ---- 5. one store for a project ----------------------------------------------------------------

def test_the_store_is_found_from_any_subdirectory(tmp_path, monkeypatch):
    from hanasim import store

    monkeypatch.delenv("HANASIM_STORE", raising=False)
    project = tmp_path / "p"
    (project / "a" / "b").mkdir(parents=True)
    (project / ".git").mkdir()
    monkeypatch.chdir(project / "a" / "b")
    path, how = store.store_location()
    assert path.resolve() == (project / "hanasim-runs").resolve() and str(project) in how
    (project / "a" / "hanasim-runs").mkdir()  # a store nearer the working directory wins
    assert store.store_path().resolve() == (project / "a" / "hanasim-runs").resolve()
    monkeypatch.setenv("HANASIM_STORE", str(tmp_path / "elsewhere"))
    assert store.store_location() == (tmp_path / "elsewhere", "$HANASIM_STORE")
    assert store.store_location(str(tmp_path / "x"))[1] == "given with --store"


@pytest.mark.parametrize("given, words", [
    ({"four_brights": 70}, "'four_brights' cannot be worth more than 'five_brights'"),
    ({"rainy_four_brights": 45}, "'rainy_four_brights' cannot be worth more than 'four_brights'"),
    ({"seven_ribbons": 45}, "Real Seven Ribbons must be worth at least as much"),
    ({"seven_ribbons_extra": 20}, "per extra card"),
])
def test_yaku_values_follow_the_seeds_precedence(given, words):
    """Only the highest bright yaku counts (seed 000, List of Dekiyaku): a value that would
    make a lesser yaku outrank the one a pile also makes is refused, unless it is not played."""
    with pytest.raises(ValueError, match=words):
        hanasim.simulate("toppa", rounds=10**11, rules=given)
    assert R.make_rules(hanasim.games.get_game("toppa").Rules,
                        {"five_brights": 0, "four_brights": 70}).four_brights == 70


def test_yaku_swing_is_the_paired_difference_and_can_be_solved():
    """yaku_score.dealer_minus_opponent is the difference of the seats' yaku means, with the
    round-by-round (paired) spread; a sweep can solve it (here it crosses 0 nowhere in a short
    range, and says so)."""
    df = hanasim.simulate("toppa", rounds=20_000, seed=4).set_index("quantity")
    d = df.loc["yaku_score.dealer_minus_opponent"]
    assert d.estimate == pytest.approx(df.loc["yaku_score.dealer", "estimate"]
                                       - df.loc["yaku_score.opponent", "estimate"], abs=1e-9)
    sd_dealer = df.loc["yaku_score.dealer", "std_error"]
    assert 0 < d.std_error < 2 * sd_dealer + 2 * df.loc["yaku_score.opponent", "std_error"]
    sw = hanasim.sweep("toppa", rounds=5_000, seed=4, rules={"five_brights": [60, 100]},
                       solve={"yaku_score.dealer_minus_opponent": 1000})
    assert "does not cross" in sw.attrs["solved"][0]["message"]
