"""The journeys walked for Bakappana (2-4 players) and Ishikari Toppa (3-6 players, each
teyaku list): what a reader of the command line, the reports, the charts and the store found
wrong, each fixed and checked here (small tables; most with nothing played)."""
from __future__ import annotations

import pandas as pd
import pytest

import hanasim
from hanasim.games import get_game
from hanasim.reading import reading_of


def _by(values: dict, rules: str, game: str) -> pd.DataFrame:
    """A table indexed by quantity with tight intervals around each estimate."""
    by = pd.DataFrame({"estimate": list(values.values()),
                       "ci_low": [v - 0.5 for v in values.values()],
                       "ci_high": [v + 0.5 for v in values.values()]}, index=list(values))
    by.attrs.update(game=game, rules=rules)
    return by


BK_ADDITIVE = {"seat.dealer.mean_score": 82.7, "seat.seat1.mean_score": 88.0,
               "seat.seat2.mean_score": 93.3, "round.score_sum.mean": 264.0,
               "seat.dealer.win_rate": 0.25, "card_points.dealer": 82.7,
               "game.first_dealer.mean_total": 990.0}


def test_bakappana_additive_headline_has_no_par_and_says_its_reference():
    # under additive scoring the headline read "The dealer scores +94.42 points a round ...:
    # the dealer is at a disadvantage" (judged against an unnamed 95.8) and "... card points a
    # round, the par that would make his mean score zero" (additive scoring has no par)
    rd = reading_of(get_game("bakappana"))
    lines = rd.sentences(_by(BK_ADDITIVE, "players=3,scoring=additive", "bakappana"))
    text = " ".join(lines)
    assert "par" not in text
    dealer = next(x for x in lines if x.startswith("The dealer scores"))
    assert "scores 82.70 (99.9% CI 82.20 to 83.20)" in dealer  # a card-point total: no sign
    assert "against an equal share of the round's score sum (88 points a seat" in dealer
    assert dealer.endswith("the dealer is at a disadvantage.")
    assert "totals 990.00" in text and "+990" not in text
    # zero-sum (the default): signed, judged against 0 without saying so, the fair par given
    zero = {**BK_ADDITIVE, "seat.dealer.mean_score": -5.3, "seat.seat1.mean_score": 0.0,
            "seat.seat2.mean_score": 5.3, "round.score_sum.mean": 0.0,
            "game.first_dealer.mean_total": -4.0}
    lines = rd.sentences(_by(zero, "players=3,scoring=zero_sum", "bakappana"))
    assert any("the par that would make his mean score zero" in x for x in lines)
    assert lines[0].startswith("The dealer scores -5.30") and "against" not in lines[0]
    assert sum(x.startswith("The dealer scores") for x in lines) == 1


def test_sentences_read_the_rules_from_the_table_when_none_are_given():
    # the Bakappana notebook calls reading.sentences(table) without the rules
    rd = reading_of(get_game("bakappana"))
    lines = rd.sentences(_by(BK_ADDITIVE, "players=3,scoring=additive", "bakappana"))
    assert lines == rd.sentences(_by(BK_ADDITIVE, "", "bakappana"),
                                 {"players": "3", "scoring": "additive"})


IK = {"seat.dealer.mean_score": -5.3, "seat.dealer.play_rate": 1.0,
      "position.first.mean_score": -5.3, "seat.seat1.mean_score": 0.2,
      "seat.seat2.mean_score": 5.1, "round.score_sum.mean": 0.0}


def test_ishikari_with_three_players_does_not_say_the_obvious_twice():
    # 3 at the table: "The dealer plays 100.0% of rounds" and "The first active player to play
    # scores -5.30" (the dealer's own -5.30 again)
    rd = reading_of(get_game("ishikari_toppa"))
    three = rd.sentences(_by(IK, "players=3", "ishikari_toppa"))
    assert len(three) == 1 and three[0].startswith("The dealer scores -5.30")
    four = {**IK, "seat.dealer.play_rate": 0.5, "seat.seat3.mean_score": 0.0}
    lines = rd.sentences(_by(four, "players=4", "ishikari_toppa"))
    assert any("The dealer plays 50.0%" in x for x in lines)
    assert lines[0].startswith("The dealer scores") and "(0 in a round he sits out)" in lines[0]
    assert len([x for x in lines if x.startswith("The dealer scores")]) == 1
    assert "sits out" not in three[0]
    assert any(x.startswith("The first active player to play") for x in lines)


@pytest.mark.parametrize("code, label", [
    ("teyaku.triplet_and_standing", "Teyaku: Triplet and Standing Triplet"),
    ("teyaku.four_of_a_kind", "Teyaku: Four of a Kind"),
    ("teyaku.one_two_four", "Teyaku: One-Two-Four"),
    ("teyaku.four_three", "Teyaku: Four-Three"),
    ("teyaku.sanzokuichi", "Teyaku: Sanzokuichi (Three Pairs)"),
    ("round.score_sum.mean", "Round: sum of the scores")])
def test_ishikari_teyaku_are_named_as_players_write_them(code, label):
    # the table read "Teyaku: Triplet And Standing", "Four Of A Kind", "One Two Four"
    from hanasim.stats.labels import label_of

    assert label_of(code, "ishikari_toppa", 4) == label
    assert label_of("round.score_sum.mean", "bakappana", 3) == "Round: sum of the scores"


def test_a_sweep_of_the_players_has_whole_number_ticks():
    # a players=2,3,4 sweep chart had ticks at 2.25, 2.50, 2.75 players
    from hanasim import plot

    sw = pd.DataFrame([dict(game="bakappana", players=n, quantity="seat.dealer.mean_score",
                            estimate=-n, ci_low=-n - 0.5, ci_high=-n + 0.5,
                            variant=f"players={n}") for n in (2, 3, 4)])
    sw.attrs.update(game="bakappana", swept=["players"], rounds=1000)
    fig, axes = plot.new_figure(6, 3)
    ax = plot.sweep_curve(sw, "seat.dealer.mean_score", ax=axes[0, 0])
    fig.canvas.draw()
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks), ticks


def test_the_exact_section_of_a_game_without_teyaku_says_nothing_of_teyaku():
    # Bakappana's report: "Teyaku are counted in played rounds, so the exact value is
    # conditioned on no misdeal" (it has no teyaku)
    from hanasim.report.build import _exact_note

    assert "eyaku" not in _exact_note(pd.DataFrame({"quantity": ["misdeal_rate"]}))
    assert "Teyaku" in _exact_note(pd.DataFrame({"quantity": ["misdeal_rate",
                                                              "teyaku.triplet"]}))


@pytest.fixture(scope="module")
def played():
    return {"bakappana": hanasim.simulate("bakappana", rounds=3000, seed=7),
            "ishikari_toppa": hanasim.simulate("ishikari_toppa", rounds=3000, seed=7)}


def test_the_distribution_chart_names_seats_as_the_edges_chart_does(played):
    # the distribution legend read "Seat 1 (dealer's right)" and "Seat 2" beside an edges
    # chart and a table reading "Dealer's left (seat 2)"
    from hanasim import plot

    fig, axes = plot.new_figure(6, 3)
    ax = plot.score_distribution(played["bakappana"], ax=axes[0, 0])
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["Dealer", "Dealer's right (seat 1)", "Dealer's left (seat 2)"]
    assert ax.get_xlabel().startswith("score (points)")


def test_ishikari_distribution_draws_the_rounds_a_seat_plays(played):
    # the dealer sits half the rounds out, each counted as a score of 0: the chart was one
    # spike of 50% at 0, the scores a flat line under it, over -300 to +500
    import numpy as np

    from hanasim import plot
    from hanasim.report.build import findings
    from hanasim.report.charts import distribution_chart

    df = played["ishikari_toppa"]
    by = df.set_index("quantity")["estimate"]
    assert by["seat.dealer.play_rate"] < 0.8
    fig, axes = plot.new_figure(6, 3)
    ax = plot.score_distribution(df, ax=axes[0, 0])
    for line in ax.get_lines():
        if len(line.get_xdata()) > 5:  # a seat's distribution (not a percentile mark)
            y = np.asarray(line.get_ydata())
            assert y.max() < 0.1 and y.sum() == pytest.approx(1, abs=1e-6)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0].startswith("Dealer: plays ") and labels[0].endswith("% of rounds")
    chart = distribution_chart(df, get_game("ishikari_toppa").title)
    assert "left out here" in chart.caption
    assert "\n" in chart.figure.axes[0].get_title()  # the long title is wrapped, not clipped
    swing = next(x for x in findings(df) if x.startswith("How swingy"))
    assert "rounds the seat sits out" in swing
    # Bakappana's seats always play: its chart and finding are unchanged
    chart = distribution_chart(played["bakappana"], get_game("bakappana").title)
    assert "left out" not in chart.caption
    assert "sits out" not in " ".join(findings(played["bakappana"]))


def test_a_tournament_under_additive_scoring_is_judged_against_an_equal_share(tmp_path,
                                                                              capsys):
    # Bakappana with additive scoring: "random beats greedy" because random's +69.68 card
    # points were above 0 (an equal share is 88); the chart drew its line at 0; the store kept
    # no rules, so 'runs list' could not tell it from a zero-sum tournament
    from hanasim import plot
    from hanasim.cli import main
    from hanasim.tournament import pairing_table

    t = hanasim.tournament("bakappana", ["random", "greedy"], rounds=2000, seed=4,
                           rules={"scoring": "additive"})
    assert "scoring=additive" in t.attrs["rules"]
    from hanasim.tournament import title

    assert title(t).endswith("(seed 4; scoring=additive)")  # the title says the rules played
    s = t[t.quantity == "mean_score"].set_index("policy")
    assert s.loc["random", "estimate"] > 0 and s.loc["random", "reference"] == pytest.approx(88)
    assert not s.loc["random", "ci_high"] > 88  # random captures less than its share
    verdicts = pairing_table(t).set_index("player 1 plays")["verdict"]
    assert verdicts["random"] == "greedy beats random"
    assert verdicts["greedy"] == "greedy beats random"
    fig, axes = plot.new_figure(6, 3)
    ax = plot.tournament(t, ax=axes[0, 0])
    lines = [ln.get_xdata()[0] for ln in ax.get_lines() if ln.get_linestyle() == "--"]
    assert lines == [pytest.approx(88)]
    # the store: the rules in 'runs list', the pairings in 'runs show'
    from hanasim import store

    rid = store.save_run(t, tmp_path)
    assert main(["runs", "list", "--store", str(tmp_path)]) == 0
    assert "scoring=additive" in capsys.readouterr().out
    assert main(["runs", "show", rid, "--store", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    header = next(x for x in out.splitlines() if "quantity" in x and "estimate" in x)
    assert header.split()[:3] == ["policy", "opponent", "quantity"]


def test_a_zero_sum_tournament_still_judges_against_zero():
    t = pd.DataFrame({"game": "bakappana", "policy": ["random", "random"],
                      "opponent": ["greedy", "greedy"], "quantity": ["mean_score", "win_rate"],
                      "estimate": [-1.0, 0.3], "ci_low": [-3.0, 0.28], "ci_high": [1.0, 0.32],
                      "reference": [0.0, 0.33], "significant": [False, False]})
    t.attrs.update(game="bakappana")
    from hanasim.tournament import pairing_table

    row = pairing_table(t).iloc[0]
    assert row["verdict"] == "no difference detectable" and "fair" not in row.iloc[2]


@pytest.mark.parametrize("command", [
    ["exact", "bakappana"], ["compare", "bakappana", "--rule", "chaff_points=1,0"],
    ["tournament", "bakappana", "--policy", "random", "--policy", "greedy"],
    ["report", "bakappana"]])
def test_players_is_a_flag_wherever_a_run_takes_rules(command, capsys, tmp_path):
    # '--players' worked for simulate and sweep only: 'hanasim exact bakappana --players 4'
    # and 'hanasim tournament ... --players 2' were usage errors
    from hanasim.cli import main

    code = main(command + ["--players", "4", "--rule", "players=3", "--store",
                           str(tmp_path)][:None if command[0] != "exact" else 4])
    assert code == 2
    assert "--players 4 contradicts --rule players=3" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_exact_takes_the_players_flag(capsys):
    from hanasim.cli import main

    assert main(["exact", "bakappana", "--players", "4"]) == 0
    assert "8227/1905803" in capsys.readouterr().out


def test_a_compare_forest_axis_names_the_games_own_quantity():
    # Ishikari's notebook: "change in Mean score per round from teyaku=hachihachi" for the
    # first to play's mean score (the label of no game, capitalised mid-sentence)
    from hanasim import plot

    cmp = pd.DataFrame({"game": "ishikari_toppa", "quantity": "position.first.mean_score",
                        "variant": ["teyaku=toppa"], "baseline": ["teyaku=hachihachi"],
                        "kind": ["difference"], "estimate": [-1.2], "ci_low": [-2.0],
                        "ci_high": [-0.4], "significant": [True]})
    cmp.attrs.update(game="ishikari_toppa")
    fig, axes = plot.new_figure(6, 3)
    ax = plot.compare_forest(cmp, "position.first.mean_score", ax=axes[0, 0])
    assert ax.get_xlabel() == ("First to play: mean score per round: change from "
                               "teyaku=hachihachi")


def test_the_report_says_what_an_additive_dealer_edge_is_judged_against():
    # Bakappana's report under additive scoring: "Dealer edge: the dealer scores +61.16 ...
    # points a round on average: the dealer is at a disadvantage" (against 66, unsaid)
    from hanasim.report.build import findings

    values = {**BK_ADDITIVE, "round_score.dealer.q50": 80.0}
    by = _by(values, "players=3,scoring=additive", "bakappana").rename_axis("quantity")
    df = by.reset_index().assign(std_error=0.1, n=1000)
    df.attrs.update(by.attrs)
    edge = next(x for x in findings(df) if x.startswith("Dealer edge"))
    assert "scores 82.70 (99.9% CI 82.20 to 83.20) points a round on average, against an " \
        "equal share of the round's score sum (88 points a seat" in edge
    assert edge.endswith("the dealer is at a disadvantage.")


def test_the_skill_table_lists_each_key_quantity_once_under_the_rules_played():
    # Bakappana's report: "Dealer: mean score per round" twice in "key quantities by skill"
    # (its zero-sum and its additive headline lines), and the additive line's sentence in
    # the skill answer of a zero-sum game
    from hanasim.report.build import key_rows, skill_answer

    rd = reading_of(get_game("bakappana"))
    zero = {"seat.dealer.mean_score": -5.3, "seat.dealer.win_rate": 0.25,
            "card_points.dealer": 82.7, "game.first_dealer.mean_total": -4.0}
    by_skill = {}
    for skill in ("greedy", "lookahead:16"):
        d = _by(zero, "players=3,scoring=zero_sum", "bakappana")
        d["label"] = list(d.index)
        by_skill[skill] = d
    rows = key_rows(rd, by_skill)
    assert [r["quantity"] for r in rows if r["every seat plays"] == "greedy"] == list(zero)
    pairs = pd.DataFrame(columns=["player 1 plays", "every other seat plays", "verdict"])
    assert "-5.30 (99.9% CI -5.80 to -4.80)" in skill_answer(rd, by_skill, pairs)


def test_a_sweep_prints_na_not_nan_where_a_value_has_no_such_quantity(capsys):
    # Ishikari Toppa swept over players=3:6: "chase_rate NaN" at 3 players (no join phase)
    from hanasim.cli.sweep import print_sweep

    rows = [dict(players=n, quantity=q, estimate=e, ci_low=e - 0.01, ci_high=e + 0.01,
                 variant=f"players={n}")
            for n in (3, 4) for q, e in (("seat.dealer.mean_score", -1.0), ("chase_rate", 0.06))
            if not (n == 3 and q == "chase_rate")]
    sw = pd.DataFrame(rows)
    sw.attrs.update(game="ishikari_toppa", swept=["players"], rounds=1000, seed=1,
                    policies="random", wall_time_s=0.1)
    print_sweep(sw, ["seat.dealer.mean_score", "chase_rate"])
    out = capsys.readouterr().out
    assert "NaN" not in out and "n/a" in out and "n/a: not measured at that value" in out


def test_compare_says_same_deals_only_when_the_deals_were_the_same(capsys):
    # Bakappana's games of 12 rounds: random against greedy printed "on the same deals"
    # beside misdeal rates of 0.065% and 0.075% (a game's later deals follow its play)
    def table(misdeal_diff, se):
        df = pd.DataFrame({"game": "bakappana", "variant": ["policy=greedy"] * 2,
                           "baseline": ["policy=random"] * 2, "kind": ["difference"] * 2,
                           "quantity": ["misdeal_rate", "seat.dealer.mean_score"],
                           "estimate": [misdeal_diff, 1.5], "std_error": [se, 0.5],
                           "ci_low": [misdeal_diff - 3 * se, 0.1],
                           "ci_high": [misdeal_diff + 3 * se, 2.9], "n": [1000, 1000],
                           "significant": [False, True], "verdict": ["", "significant"]})
        df.attrs.update(game="bakappana", rounds=1000, seed=3, blocks=10,
                        policies="random vs greedy")
        return df

    from hanasim.cli.compare import deals_differ, header

    differ = table(0.0001, 0.0002)
    assert deals_differ(differ)
    assert "with the same seed 3 for every variant" in header(differ)[0]
    assert "on the same deals" not in header(differ)[0]
    same = table(0.0, 0.0)
    assert not deals_differ(same) and "on the same deals, seed 3" in header(same)[0]


def test_exact_prints_small_values_with_their_digits(capsys):
    # 'hanasim exact ishikari_toppa': Four-Three's 1/139449 printed as 0.000007
    from hanasim.cli import main

    assert main(["exact", "ishikari_toppa"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "teyaku.four_three" in x and "all_deals" in x)
    assert line.split()[-1] == "0.00000717" and "1/139449" in line


def test_the_teyaku_chart_names_teyaku_as_the_table_does():
    # the chart read "One Two Four", "Four Three", "Triplet And Standing" beside a table
    # reading "One-Two-Four", "Four-Three", "Triplet and Standing Triplet"
    from hanasim import plot

    rows = ["teyaku.triplet", "teyaku.one_two_four", "teyaku.four_three", "teyaku.any"]
    df = pd.DataFrame({"game": "ishikari_toppa", "quantity": rows,
                       "estimate": [0.06, 0.0004, 0.00001, 0.26],
                       "ci_low": [0.05, 0.0003, 0.000001, 0.25],
                       "ci_high": [0.07, 0.0005, 0.0001, 0.27]})
    df.attrs.update(game="ishikari_toppa")
    fig, axes = plot.new_figure(6, 3)
    ax = plot.teyaku_vs_exact(df, ax=axes[0, 0])
    names = [t.get_text() for t in ax.get_yticklabels()]
    assert names == ["Triplet", "One-Two-Four", "Four-Three", "any"]


@pytest.mark.parametrize("game, policy, words", [
    ("bakappana", "greedy", "the capture worth the most card points now"),
    ("ishikari_toppa", "random", "joins or drops (once three have joined: chases or not) at "
                                 "random"),
    ("ishikari_toppa", "greedy", "plus its teyaku value reach 40"),
    ("ishikari_toppa", "greedy/threshold60", "plus its teyaku value reach 60")])
def test_the_play_assumed_is_said_in_the_games_words(game, policy, words):
    # Bakappana's greedy "takes the capture worth the most points and yaku progress now" (it
    # has no yaku); Ishikari's random and greedy said nothing of joining, dropping and chasing,
    # and 'greedy/threshold60' read "every player plays greedy/threshold60"
    from hanasim.readable import assumption
    from hanasim.report.build import policy_finding

    meta = {"game": game, "policies": ",".join([policy] * 3)}
    assert words in assumption(meta) and "yaku progress" not in assumption(meta)
    df = pd.DataFrame()
    df.attrs.update(meta)
    assert words in policy_finding(df)[0]
    toppa = {"game": "toppa", "policies": "greedy,greedy"}
    assert "yaku progress" in assumption(toppa)  # the other games keep the common words


def test_a_tournament_says_same_deals_only_when_its_pairings_were_dealt_alike():
    # Bakappana plays games of 12 rounds: its tournament title said "on the same deals" while
    # its pairings' misdeal rates differed (a game's later deals follow its play)
    from hanasim.tournament import title

    t = hanasim.tournament("bakappana", ["random", "greedy"], rounds=12_000, seed=4)
    one = hanasim.tournament("bakappana", ["random", "greedy"], rounds=2_000, seed=4,
                             rules={"rounds_per_game": 1})
    assert one.attrs["same_deals"] and "on the same deals" in title(one)
    assert not t.attrs["same_deals"] and "from the same seed" in title(t)
