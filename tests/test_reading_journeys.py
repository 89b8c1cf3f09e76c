"""What the journeys of a new user (every game, from a fresh clone) found wrong, each fixed and
checked here: quick tests, most of them with nothing played."""
from __future__ import annotations

import pytest

import hanasim


@pytest.fixture
def nothing_played(monkeypatch):
    """Fail if any session is played or any kernel compiled; yields the list of the session
    counts asked of the runner (zero-round tables are allowed: they play nothing)."""
    from numba.core import event

    import hanasim.engine.runner as runner

    asked, compiled = [], []
    real = runner.run_batches

    def spy(kernel, n_sessions, *args, **kwargs):
        asked.append(n_sessions)
        assert n_sessions == 0, "a session was played"
        return real(kernel, n_sessions, *args, **kwargs)

    class Listener(event.Listener):
        def on_start(self, ev):
            compiled.append(ev)

        def on_end(self, ev):
            pass

    monkeypatch.setattr(runner, "run_batches", spy)
    listener = Listener()
    event.register("numba:compile", listener)
    try:
        yield asked
    finally:
        event.unregister("numba:compile", listener)
    assert not compiled, "a kernel was compiled"


@pytest.mark.parametrize("game, rule", [("taoshi", "burden=page,equal"),
                                        ("koikoi", "field_multiplier=off,double"),
                                        ("toppa", "par.dealer=110,120")])
def test_sweep_refuses_a_misspelt_quantity_before_any_kernel(nothing_played, game, rule):
    name, values = rule.split("=")
    with pytest.raises(ValueError, match="no quantity 'dealer.mean_scor'.*did you mean"):
        hanasim.sweep(game, {name: values}, rounds=1000, seed=1,
                      quantities=["dealer.mean_scor"])
    if game == "toppa":  # solve needs a numeric rule
        with pytest.raises(ValueError, match="no quantity 'nope' in a toppa sweep"):
            hanasim.sweep(game, {name: values}, rounds=1000, seed=1, solve={"nope": 0})
    assert nothing_played  # the names came from a table of zero counters


def test_sweep_with_sessions_refuses_a_plain_typo_without_playing(nothing_played):
    # only session.* names need a played session of several rounds
    with pytest.raises(ValueError, match="no quantity 'dealer.win_rat'"):
        hanasim.sweep("toppa", {"par.dealer": "110,120"}, rounds=1000, seed=1,
                      session_rounds=4, quantities="dealer.win_rat")


def test_sweep_cli_refuses_a_misspelt_quantity_before_any_kernel(nothing_played, capsys,
                                                                  tmp_path):
    from hanasim.cli import main

    assert main(["sweep", "kushiro-toppa", "--rule", "five_brights=3,5", "--rounds", "1000",
                 "--quantity", "dealer.mean_chip", "--store", str(tmp_path),
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "no quantity 'dealer.mean_chip' in a kushiro_toppa sweep" in err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("bad", [3, ["a", 1], {"a": 1}])
def test_sweep_quantities_are_names(bad):
    with pytest.raises(TypeError, match="quantities must be"):
        hanasim.sweep("toppa", {"par.dealer": "110,120"}, rounds=1000, quantities=bad)


def test_the_skill_section_says_how_the_policies_were_paired():
    # Kushiro Toppa seats two players by default (up to four may sit): its tournament plays
    # each pairing once, and the report said "every ordered pairing"
    import pandas as pd

    from hanasim.report.build import pairings_played
    from hanasim.tournament import pairings_of, seated

    from hanasim.games import get_game

    n = seated(get_game("kushiro_toppa"))
    t = pd.DataFrame()
    t.attrs["players"] = n
    assert n == 2 and len(pairings_of(["random", "greedy", "lookahead:16"], n)) == 3
    assert pairings_played(t).startswith("each pairing once")
    t.attrs["players"] = 3
    assert pairings_played(t) == "every ordered pairing"


def test_per_100_rounds_only_where_a_difference_adds_up_over_rounds():
    # a Baka house rule moved a game total's 75th percentile by 5 points, which compare
    # printed as "-500 per 100 rounds"; a fair par or a spread does not add up either
    import math

    import numpy as np

    from hanasim.stats.compare import adds_up, comparison_table

    def rows(v):
        return [(q, dict(estimate=v, std_error=0.1, ci_low=v - 1, ci_high=v + 1, n=1000))
                for q in names]

    names = ["dealer.mean_score", "dealer.win_rate", "game.first_dealer.total.q75",
             "round_score.sd", "fair_par.dealer", "fair_burden.first", "round_score.dealer.q05"]
    blocks = {q: np.arange(10.0) for q in names}
    df = comparison_table("baka", [("a", rows(40.0), blocks),
                                   ("b", rows(35.0), {q: b - 5 for q, b in blocks.items()})])
    per = df[df.kind == "difference"].set_index("quantity")["per_100"]
    assert per["dealer.mean_score"] == -500 and per["dealer.win_rate"] == -500
    assert all(math.isnan(per[q]) for q in names[2:])
    assert adds_up("game.first_dealer.mean_total") and not adds_up("session.first_dealer.total.q50")


def test_taoshi_win_rates_are_not_drawn_beside_zero_ties():
    # every Taoshi round has one winner (tie_winner breaks a shared greatest score, 1% of
    # rounds): the line said "(33.3%; 0.0% tied)" beside a finding of shared scores
    import pandas as pd

    from hanasim.games import get_game
    from hanasim.reading import reading_of

    by = pd.DataFrame({"estimate": [0.33, 0.32, 0.35, 0.009]},
                      index=["dealer.win_rate", "right.win_rate", "left.win_rate",
                             "winner_tie_rate"])
    ref, words = reading_of(get_game("taoshi")).reference("win_rate", by, 3)
    assert ref == pytest.approx(1 / 3) and "tied" not in words
    assert "every round has a winner" in words
    by = pd.DataFrame({"estimate": [0.02]}, index=["dealer.tie_rate"])
    ref, words = reading_of(get_game("toppa")).reference("win_rate", by, 2)
    assert ref == pytest.approx(0.49) and "2.0% tied" in words


def _table(game, rows):
    import pandas as pd

    df = pd.DataFrame([dict(game=game, quantity=q, estimate=e, std_error=0.001,
                            ci_low=e - 0.01, ci_high=e + 0.01, n=1000) for q, e in rows])
    df.attrs.update(game=game, policies="random", rules="")
    return df


@pytest.mark.parametrize("game, share", [("toppa", "captured piles"),
                                         ("baka", "captured piles"),
                                         ("kushiro_toppa", "ended by a stop"),
                                         ("taoshi", "played rounds")])
def test_dekiyaku_rates_say_what_they_are_a_share_of(game, share):
    # Taoshi's dekiyaku rows are shares of played rounds and Kushiro Toppa's of the rounds a
    # stop ends; the report called every one "of piles"
    from hanasim.report.build import findings
    from hanasim.report.charts import dekiyaku_chart

    df = _table(game, [("dekiyaku.four_twos", 0.33), ("dekiyaku.four_threes", 0.12)])
    chart = dekiyaku_chart(df, "t")
    assert share in chart.caption
    assert share in chart.figure.axes[0].get_xlabel()
    line = next(s for s in findings(df, g=game) if s.startswith("Most frequent dekiyaku"))
    words = {"captured piles": "of piles)", "ended by a stop": "of rounds ended by a stop)",
             "played rounds": "of played rounds)"}[share]
    assert words in line


def test_the_teyaku_chart_draws_teyaku_only():
    # Taoshi's teyaku.claim_rate (the share of active players who claim one) was drawn as a
    # teyaku, "Claim Rate", on the axis of the probability that a dealt hand holds it
    from hanasim.report.charts import teyaku_chart

    df = _table("taoshi", [("teyaku.triplet", 0.05), ("teyaku.none", 0.6),
                           ("teyaku.claim_rate", 0.4), ("teyaku_score.12", 0.01)])
    chart = teyaku_chart(df, None, "t")
    labels = [t.get_text() for t in chart.figure.axes[0].get_yticklabels()]
    assert labels == ["Triplet", "None (a hand with no teyaku)"]  # named as the table does


def test_sweep_chart_titles_use_the_games_labels():
    # a Taipa sweep's panel read "First player: game win rate" above an axis reading "Round 1's
    # first player: game win rate" (the title used the label of no game)
    import pandas as pd

    from hanasim import plot
    from hanasim.stats.labels import label_of

    rows = [dict(game="taipa", start_coins=v, quantity=q, estimate=e, ci_low=e - 0.1,
                 ci_high=e + 0.1, variant=f"start_coins={v}")
            for v in (8, 10) for q, e in (("game.first_player.win_rate", 0.46),
                                          ("round.first_player.mean_net", 0.3))]
    sw = pd.DataFrame(rows)
    sw.attrs.update(game="taipa", swept=["start_coins"], rounds=1000)
    fig = plot.sweep_figure(sw, ["game.first_player.win_rate", "round.first_player.mean_net"])
    titles = [ax.get_title(loc="left") for ax in fig.axes if ax.get_title(loc="left")]
    assert titles == [label_of("game.first_player.win_rate", "taipa"),
                      label_of("round.first_player.mean_net", "taipa")]
    assert titles[0] == "Round 1's first player: game win rate"


def test_a_taoshi_seats_teyaku_score_is_points_not_a_percentage():
    # simulate printed "Dealer: teyaku score 793.01%" (a mean of 7.93 points a round) among
    # the deal odds
    from hanasim.readable import group_of, is_share

    assert not is_share("teyaku_score.dealer") and group_of("teyaku_score.dealer", "dealer") \
        == "Seats"
    assert is_share("teyaku_score.36") and group_of("teyaku_score.36", "") == "At the deal"
    assert is_share("teyaku.triplet") and not is_share("dekiyaku_score.left")


@pytest.mark.parametrize("game, quantity, words", [
    ("kushiro_toppa", "yoroshii.value", "Yoroshii (stop)"),
    ("kushiro_toppa", "iku.value", "Iku (continue)"),
    ("kushiro_toppa", "swap.rate", "Four in hand"),
    ("kushiro_toppa", "iku.call_rate", "Iku"),
    ("kushiro_toppa", "round.stop_rate", "stop"),
    ("taipa", "koikoi.call_rate", "Koi-koi"),
    ("taipa", "koikoi.agari_after_call_rate", "Koi-koi"),
    ("taoshi", "round.score_sum", "scores added up"),
    ("taoshi", "winner_tie_rate", "greatest score shared")])
def test_labels_say_what_a_row_is(game, quantity, words):
    # Kushiro Toppa's table printed two rows labelled "Value" and one "Rate" (0.007067)
    from hanasim.readable import is_share
    from hanasim.stats.labels import label_of

    assert words in label_of(quantity, game)
    assert is_share("swap.rate")


def test_every_label_of_a_game_is_its_own(tables):
    """No two rows of a game's table share a label (two 'Value' rows in Kushiro Toppa)."""
    for game, df in tables.items():
        dup = df["label"][df["label"].duplicated()]
        assert dup.empty, (game, list(dup))


@pytest.fixture(scope="module")
def tables():
    from hanasim.games import available_games

    return {g: hanasim.simulate(g, rounds=2_000, seed=1, threads=1,
                                rules={"players": 3} if g == "kushiro_toppa" else None)
            for g in available_games()}


def test_the_report_says_who_plays_when_more_sit_than_play():
    # Taoshi with 4-6 players and Kushiro Toppa with 3-4: "who joins?" had no sentence
    from hanasim.report.build import findings

    df = _table("taoshi", [("seat.dealer.play_rate", 0.498), ("seat.seat1.play_rate", 0.753),
                           ("seat.seat2.play_rate", 0.874), ("seat.seat3.play_rate", 0.875),
                           ("player1.play_rate", 0.75)])
    df.attrs["rules"] = "players=4"
    line = next(s for s in findings(df, g="taoshi") if s.startswith("Who plays"))
    assert "(4 seated, 3 play each round)" in line and "dealer 49.80%" in line
    assert "player" not in line.lower().replace("players", "")
    two = _table("kushiro_toppa", [("dealer.play_rate", 1.0), ("seat1.play_rate", 1.0)])
    assert not any(s.startswith("Who plays") for s in findings(two, g="kushiro_toppa"))


def test_runs_list_names_one_policy_played_by_every_player():
    # a 3-player run listed as "random,rando..." (the column cut); one name says it all
    from hanasim.cli.runs import _policies_shown

    assert _policies_shown("random,random,random") == "random"
    assert _policies_shown("greedy,random") == "greedy,random"
    assert _policies_shown("random greedy") == "random greedy"  # a tournament
    assert _policies_shown(None) == ""


def test_koikoi_margins_are_points_not_coins():
    # the modern koi-koi report read "First dealer: game mean coin margin" (Taipa's coins)
    from hanasim.stats.labels import label_of

    assert "coin" not in label_of("game.first_dealer.mean_margin", "koikoi")
    assert "points" in label_of("game.first_dealer.mean_margin", "koikoi")
    assert "coin" in label_of("game.first_player.mean_margin", "taipa")
