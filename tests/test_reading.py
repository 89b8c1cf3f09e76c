"""Every game's reading: the unit, the edge and its reference line, the headline, the labels,
and the readings of compare, sweep, tournament and the command line that rest on them."""
from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

import hanasim
from hanasim import plot
from hanasim.games import available_games, get_game
from hanasim.reading import Reading, reading_of, rules_dict
from hanasim.report import charts
from hanasim.report.build import findings

ROUNDS = 2_000


@pytest.fixture(scope="module")
def tables():
    """One small random-play table per game (kernels are cached after the first run)."""
    return {g: hanasim.simulate(g, rounds=ROUNDS, seed=1, threads=1) for g in available_games()}


def _dashed_x(ax) -> list[float]:
    """The x of every dashed vertical line drawn on ``ax`` (the reference lines)."""
    out = []
    for line in ax.get_lines():
        x = np.asarray(line.get_xdata(), dtype=float)
        if line.get_linestyle() == "--" and len(x) == 2 and x[0] == x[1]:
            out.append(float(x[0]))
    return out


@pytest.mark.parametrize("game", ["toppa", "baka", "koikoi", "taipa", "kushiro_toppa",
                                  "taoshi"])
def test_each_game_declares_its_reading_and_its_reference_lines_fit(tables, game):
    g = get_game(game)
    df = tables[game]
    by = df.set_index("quantity")
    rd = g.reading
    assert isinstance(rd, Reading)
    assert rd.edge_quantity in by.index
    # every headline quantity is one the game measures (a typo would drop a sentence)
    assert all(line.quantity in by.index for line in rd.headline), \
        [line.quantity for line in rd.headline if line.quantity not in by.index]
    assert len(rd.sentences(by, rules_dict(df))) >= 3
    # a game whose scores cannot be negative declares it, and never gets a 0 line on them
    seats = plot._seat_rows(df, "mean_score")[0]
    if len(seats) > 1:
        never_negative = bool((seats["estimate"] >= 0).all() and seats["estimate"].sum() > 0)
        assert rd.nonnegative == never_negative
    metrics = charts.edge_metrics(df)
    assert metrics[0] == rd.edge_metric
    for metric in metrics:
        fig, axes = plot.new_figure(6, 3)
        plot.seat_edges(df, metric, ax=axes[0, 0])
        ref, words = plot.edge_reference(df, metric)
        if metric in ("fair_par", "fair_burden"):
            continue
        assert ref is not None and words
        assert _dashed_x(axes[0, 0]) == [pytest.approx(ref)]
        if metric == "mean_score" and rd.nonnegative:
            assert ref > 0 and ref == pytest.approx(seats["estimate"].mean())
        if metric == "win_rate":
            n = len(plot._seat_rows(df, "win_rate")[0])
            assert ref == pytest.approx((1 - rd.no_winner_share(by)) / n)


def test_koikoi_reads_the_edge_as_an_advantage_and_win_rates_against_scored_rounds(tables):
    df = tables["koikoi"]
    by = df.set_index("quantity")
    assert plot.edge_reference(df, "mean_advantage")[0] == 0
    ref, words = plot.edge_reference(df, "win_rate")
    draw = by.loc["round.draw_rate", "estimate"]
    assert draw > 0.05 and ref == pytest.approx((1 - draw) / 2) and "nobody scored" in words
    text = " ".join(findings(df))
    assert "more than the opponent" in text
    # the default draws the dealer's advantage first, never a raw score against 0
    fig, axes = plot.new_figure(6, 3)
    plot.seat_edges(df, ax=axes[0, 0])
    assert "opponent's" in axes[0, 0].get_xlabel()


def test_a_finding_only_where_it_applies():
    modern = hanasim.simulate("koikoi", rounds=ROUNDS, seed=1, preset="modern", threads=1)
    seed_rules = hanasim.simulate("koikoi", rounds=ROUNDS, seed=1, threads=1)
    assert not any("Field multiplier" in f for f in findings(modern))
    assert any("Field multiplier" in f for f in findings(seed_rules))


def test_units_reach_the_sentences(tables):
    assert "coins" in " ".join(findings(tables["taipa"]))
    assert "chips" in " ".join(findings(tables["kushiro_toppa"]))
    assert "chips" in " ".join(reading_of(get_game("kushiro_toppa")).sentences(
        tables["kushiro_toppa"].set_index("quantity")))


# ---------------------------------------------------------------------- the skill section

def test_skill_keys_are_filled_for_every_game(tables):
    from hanasim.report.build import key_rows

    for game, df in tables.items():
        rd = get_game(game).reading
        d = df.set_index("quantity")
        rows = key_rows(rd, {"greedy": d, "lookahead:16": d})
        assert len(rows) >= 4, game
        assert not any("e-" in r["estimate"] for r in rows)


def test_the_skill_answer_is_one_plain_sentence():
    from hanasim.report.build import skill_answer

    rd = get_game("toppa").reading

    def table(e):
        return pd.DataFrame({"estimate": [e], "ci_low": [e - 1], "ci_high": [e + 1],
                             "label": ["Dealer: mean score per round"]},
                            index=["dealer.mean_score"])
    pairs = pd.DataFrame([{"player 1 plays": "lookahead:16", "every other seat plays": "greedy",
                           "player 1's mean score (points a round)": "+3.00 [+1.00, +5.00]",
                           "verdict": "lookahead:16 beats greedy"}])
    text = skill_answer(rd, {"greedy": table(-19.0), "lookahead:16": table(-26.0)}, pairs)
    assert text.startswith("The answer:") and text.count(". ") == 0 and text.endswith(".")
    assert "-19.00" in text and "-26.00" in text and "skill changes the answer" in text
    same = skill_answer(rd, {"greedy": table(-19.0), "lookahead:16": table(-19.5)}, pairs)
    assert "does not detectably change" in same


def test_report_sections_are_in_order(tmp_path, monkeypatch):
    """The skill section is a whole section before "rules and options", never between that
    heading and its table."""
    from hanasim.report import build
    from hanasim.report.render import Heading, Para

    def fake_skill(game, *args, **kw):  # the section's place is the point, not its numbers
        return ([Heading(3, "Toppa (2 players): does skill change the answer?",
                         f"{game}-skill"), Para("The answer: skill marker.")], {},
                pd.DataFrame({"game": [game], "quantity": ["mean_score"]}))
    monkeypatch.setattr(build, "skill_section", fake_skill)
    paths = build.build_report("toppa", rounds=ROUNDS, seed=1, out=tmp_path, threads=1)
    md = open(paths["markdown"]).read()
    heads = [m.group(1) for m in re.finditer(r"^### Toppa \(2 players\): (.+)$", md, re.M)]
    assert heads == ["findings", "summary quantities", "exact vs simulated deal odds", "charts",
                     "does skill change the answer?", "rules and options", "provenance"]
    rules_at = md.index("rules and options\n")
    table_at = md.index("| option | used |")
    assert "skill marker" not in md[rules_at:table_at]


# ---------------------------------------------------------------------- tournament

def test_two_player_tournaments_play_each_pairing_once():
    from hanasim.tournament import pairings_of

    assert pairings_of(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert len(pairings_of(["a", "b", "c"], 3)) == 6


def test_tournament_cli_has_a_title_an_out_file_and_is_saved(tmp_path, capsys):
    from hanasim.cli import main
    from hanasim.store import list_runs

    out = tmp_path / "t.csv"
    store = tmp_path / "store"
    assert main(["tournament", "toppa", "--policy", "random", "--policy", "greedy",
                 "--rounds", "600", "--seed", "2", "--out", str(out), "--store", str(store),
                 "--no-progress", "--threads", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Toppa (2 players): tournament of random, greedy, 600 rounds")
    body = [line for line in text.splitlines() if line.startswith(("random", "greedy"))]
    assert len(body) == 1  # one row per unordered pairing: no mirror row
    t = pd.read_csv(out)
    assert set(zip(t.policy, t.opponent)) == {("random", "greedy")}
    runs = list_runs(store)
    assert len(runs) == 1


# ---------------------------------------------------------------------- significant vs important

def test_size_and_word():
    from hanasim.stats.compare import NEGLIGIBLE, size_and_word

    assert NEGLIGIBLE == 0.01
    # +0.17 points on a round whose SD is 91: significant but negligible
    size, word = size_and_word(0.17, 91 / 1000, 1_000_000, True)
    assert size == pytest.approx(0.17 / 91) and word == "significant but negligible"
    assert size_and_word(5.0, 91 / 1000, 1_000_000, True)[1] == "significant"
    assert size_and_word(5.0, 91 / 1000, 1_000_000, False)[1] == "no detectable change"
    assert size_and_word(0.17, 91 / 1000, 1_000_000, True, negligible=0.001)[1] == \
        "significant"


def test_compare_gives_every_difference_a_size_and_a_word(capsys):
    from hanasim.cli import main

    df = hanasim.compare("toppa", rounds=3000, seed=1, rules={"par": "120|110,130"},
                         threads=1)
    diffs = df[df.kind == "difference"]
    assert {"per_100", "size_sd", "verdict"} <= set(diffs.columns)
    r = diffs.set_index("quantity").loc["dealer.mean_score"]
    assert r.per_100 == pytest.approx(100 * r.estimate)
    assert r.verdict == "significant" and abs(r.size_sd) > 0.01
    assert main(["compare", "toppa", "--rule", "par=120|110,130", "--rounds", "100",
                 "--negligible", "-1", "--no-save"]) == 2
    assert "negligible" in capsys.readouterr().err


# ---------------------------------------------------------------------- labels and seats

def test_taoshi_and_kushiro_seats_are_named_by_what_they_are():
    from hanasim.stats.labels import label_of

    assert label_of("fair_burden.dealer", "taoshi", 4) == "First active player: fair burden"
    assert label_of("left.mean_score", "taoshi", 6) == "Third active player: mean score per round"
    assert label_of("seat.dealer.mean_score", "taoshi", 4) == "Dealer: mean score per round"
    assert label_of("fair_burden.dealer", "taoshi", 3) == "Dealer: fair burden"
    assert label_of("seat1.mean_chips", "kushiro_toppa", 2).startswith("Opponent")
    assert label_of("seat3.mean_chips", "kushiro_toppa", 4).startswith("Dealer's left")
    assert label_of("seat2.mean_chips", "kushiro_toppa", 4).startswith("Opposite the dealer")
    assert label_of("seat.seat2.mean_score", "taoshi", 5).startswith("Seat 2 (2nd to the")
    df = hanasim.simulate("taoshi", rounds=300, seed=1, rules={"players": 4}, threads=1)
    lab = df.set_index("quantity")["label"]
    assert lab["fair_burden.dealer"] == "First active player: fair burden"
    assert lab["seat.dealer.mean_score"] == "Dealer: mean score per round"


def test_a_sweep_names_the_policies_of_the_players_that_play():
    sw = hanasim.sweep("taoshi", {"dropped_cards": "shuffled,on_top"}, rounds=300, seed=1,
                       threads=1)
    assert sw.attrs["policies"] == "random,random,random"


# ---------------------------------------------------------------------- the command line

def test_numbers_as_a_reader_writes_them():
    from hanasim.readable import is_share, number

    for v in (1.08274e-05, -3.2e-07, 0.5, 12345.678, 1e9, 0.0, 123.456):
        assert "e" not in number(v) and "e" not in number(v, True)
    assert number(0.25, True) == "25.00%" and number(1.08274e-05, True) == "0.0011%"
    assert number(1.08274e-05) == "0.0000108"
    assert is_share("dealer.win_rate") and is_share("teyaku.any")
    assert is_share("round.2.yaku.chaff") and is_share("game.rounds.3")
    assert not is_share("dealer.mean_score") and not is_share("round_score.dealer.q05")


def test_simulate_answers_first_then_the_grouped_table(capsys):
    from hanasim.cli import main

    assert main(["simulate", "koikoi", "--rounds", "1000", "--seed", "1", "--no-save",
                 "--no-progress", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert out.index("The answers") < out.index("At the deal") < out.index("Seats")
    assert "more than the opponent" in out and "policy 'random'" in out
    assert "dealer.mean_advantage" not in out and not re.search(r"\de-\d", out)
    assert main(["simulate", "koikoi", "--rounds", "1000", "--seed", "1", "--no-save",
                 "--no-progress", "--threads", "1", "--all"]) == 0
    assert "dealer.mean_advantage" in capsys.readouterr().out


def test_sweep_checks_quantity_names_before_running(capsys, tmp_path):
    from hanasim.cli import main

    assert main(["sweep", "toppa", "--rule", "par.dealer=110,120", "--rounds", "1000",
                 "--quantity", "dealer.mean_scor", "--store", str(tmp_path),
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "dealer.mean_scor" in err and "did you mean dealer.mean_score" in err
    assert not list(tmp_path.iterdir())  # nothing ran, nothing saved


def test_named_values_are_points_and_legends_list_only_what_is_drawn():
    sw = pd.DataFrame({"yaku": ["seed", "modern", "older"], "quantity": ["q"] * 3,
                       "estimate": [1.0, 2.0, 1.5], "ci_low": [0.5, 1.5, 1.0],
                       "ci_high": [1.5, 2.5, 2.0]})
    sw.attrs.update(swept=["yaku"], game="koikoi")
    fig, axes = plot.new_figure(6, 3)
    ax = plot.sweep_curve(sw, "q", ax=axes[0, 0])
    joined = [ln for ln in ax.get_lines() if ln.get_linestyle() == "-" and len(ln.get_xdata()) > 2]
    assert not joined  # no line through the categories
    t = pd.DataFrame({"game": "toppa", "policy": ["random"], "opponent": ["greedy"],
                      "quantity": ["mean_score"], "estimate": [-1.0], "ci_low": [-3.0],
                      "ci_high": [1.0], "significant": [False]})
    fig, axes = plot.new_figure(6, 3)
    ax = plot.tournament(t, ax=axes[0, 0])
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "significant" not in labels and "interval includes 0" in labels


def test_games_are_listed_in_aligned_columns(capsys):
    from hanasim.cli import main

    assert main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    starts = {line.index(get_game(line.split()[0]).title) for line in lines[1:]}
    assert len(starts) == 1


def test_help_texts_name_every_game_and_every_policy_form():
    from hanasim import cli
    from hanasim.rules import options

    for name in available_games():
        g = get_game(name)
        has_players = any(o["name"] == "players" for o in options(g.Rules))
        named = re.compile(rf"(?<![\w]){name}\b")  # toppa is not kushiro_toppa
        assert bool(named.search(cli.PLAYERS_HELP)) == has_players, name
        assert named.search(cli.EXPOSE_HELP), name
    # every example form the help gives parses in the game it names
    for game, form in (("koikoi", "greedy/stop"), ("koikoi", "greedy/threshold5"),
                       ("kushiro_toppa", "greedy/continue2/join"),
                       ("taoshi", "greedy/threshold5/expose"), ("taipa", "greedy/stop")):
        assert form in cli.POLICY_FORMS_HELP
        get_game(game).policy_ids([form])
    for sub in ("simulate", "sweep", "report", "tournament", "compare"):
        text = cli.build_parser()._subparsers._group_actions[0].choices[sub].format_help()
        assert "lookahead[:K]" in " ".join(text.split()), sub
