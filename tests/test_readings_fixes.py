"""Readings found false walking journeys 9 and 10: every sentence true for the game and the
rules played (koi-koi's zero-sum scoring, per-player policies on a conditioned seat, named
teyaku conditions, reports of conditioned runs)."""
from __future__ import annotations

import pytest

import hanasim
from hanasim import plot
from hanasim.games import get_game
from hanasim.reading import rules_dict
from hanasim.report import charts
from hanasim.report.build import findings

ROUNDS = 2_000


# --------------------------------------------------------------- koi-koi: zero-sum scoring

@pytest.fixture(scope="module")
def koikoi_tables():
    """Koi-koi under its default winner-only scoring and under koikoi-japan's zero-sum one."""
    return {p: hanasim.simulate("koikoi", rounds=ROUNDS, seed=1, threads=1, preset=p)
            for p in (None, "koikoi-japan")}


def test_koikoi_reading_is_never_negative_only_under_winner_only_scoring():
    rd = get_game("koikoi").reading
    assert rd.never_negative({})  # the default: winner-only
    assert rd.never_negative({"scoring": "winner_only"})
    assert not rd.never_negative({"scoring": "zero_sum"})


def test_zero_sum_koikoi_says_a_score_can_be_negative_and_draws_it_against_zero(koikoi_tables):
    df = koikoi_tables["koikoi-japan"]
    by = df.set_index("quantity")
    assert rules_dict(df)["scoring"] == "zero_sum"
    # the loser pays: the seats' mean scores add up to 0, the opponent's is negative here
    assert by.loc["dealer.mean_score", "estimate"] == \
        pytest.approx(-by.loc["opponent.mean_score", "estimate"])
    text = " ".join(findings(df))
    assert "never negative" not in text
    assert "can be negative" in text
    ref, words = plot.edge_reference(df, "mean_score")
    assert ref == 0 and "equal share" not in words
    # the raw score is still drawn next to the edge (a fair measure under zero_sum)
    assert charts.edge_metrics(df)[:2] == ["mean_advantage", "mean_score"]
    # the edge, a score less the opponent's, is twice the own score: the same verdict
    assert by.loc["dealer.mean_advantage", "estimate"] == \
        pytest.approx(2 * by.loc["dealer.mean_score", "estimate"])
    assert by.loc["player1.mean_advantage", "estimate"] == \
        pytest.approx(2 * by.loc["player1.mean_score", "estimate"])


def test_winner_only_koikoi_still_says_never_negative(koikoi_tables):
    df = koikoi_tables[None]
    text = " ".join(findings(df))
    assert "never negative" in text and "can be negative" not in text
    ref, words = plot.edge_reference(df, "mean_score")
    assert ref > 0 and "equal share of the points scored" in words


def test_koikoi_headline_follows_the_scoring(run_cli):
    r = run_cli("simulate", "koikoi", "--preset", "koikoi-japan", "--rounds", ROUNDS,
                "--seed", 1, "--threads", 1, "--no-save")
    assert r.code == 0, r.err
    assert "a seat's own score can be negative: the dealer's is" in r.out
    r = run_cli("simulate", "koikoi", "--preset", "modern", "--rounds", ROUNDS, "--seed", 1,
                "--threads", 1, "--no-save")
    assert r.code == 0, r.err
    assert "can be negative" not in r.out


# --------------------------------------------------------------- per-player play, seat named

MIX = "differs by player, but the seats the condition names are relative to the round's dealer"


def test_python_simulate_notes_a_per_player_expose_on_a_conditioned_seat():
    df = hanasim.simulate("toppa", rounds=ROUNDS, seed=1, threads=1, where="dealer.triplet",
                          expose="never,always")
    notes = " ".join(df.attrs["notes"])
    assert "--expose " + MIX in notes and "player 1 dealt" in notes
    df = hanasim.simulate("toppa", rounds=ROUNDS, seed=1, threads=1, where="dealer.triplet",
                          expose="never,always", fixed_dealer=True)
    assert MIX not in " ".join(df.attrs["notes"])


def test_compare_notes_the_player_mix_and_shows_expose(run_cli):
    r = run_cli("compare", "toppa", "--rule", "triplet=20,40", "--where", "dealer.triplet",
                "--expose", "never,always", "--rounds", ROUNDS, "--seed", 1, "--threads", 1,
                "--no-save", "--no-progress")
    assert r.code == 0, r.err
    head = r.out.splitlines()[0]
    assert "expose never,always" in head
    flat = " ".join(r.out.split())
    assert "--expose " + MIX in flat and "(in the variant" not in flat
    # compare takes --fixed-dealer, which the note asks for: then no note, and the header says so
    r = run_cli("compare", "toppa", "--rule", "triplet=20,40", "--where", "dealer.triplet",
                "--expose", "never,always", "--fixed-dealer", "--rounds", ROUNDS, "--seed", 1,
                "--threads", 1, "--no-save", "--no-progress")
    assert r.code == 0, r.err
    assert "player 1 deals every round" in r.out.splitlines()[0]
    assert MIX not in " ".join(r.out.split())


def test_compare_names_the_policy_variants_the_note_is_about():
    df = hanasim.compare("toppa", rounds=ROUNDS, seed=1, threads=1, where="dealer.triplet",
                         policies=["random", "greedy,random"])
    notes = [n for n in df.attrs["notes"] if MIX in n]
    assert len(notes) == 1 and notes[0].startswith("--policy ")
    assert notes[0].endswith("(in the variant policy=greedy,random)")


def test_sweep_notes_the_player_mix(run_cli):
    r = run_cli("sweep", "toppa", "--rule", "triplet=20:40:20", "--where", "dealer.triplet",
                "--policy", "greedy,random", "--expose", "never,always", "--rounds", ROUNDS,
                "--seed", 1, "--threads", 1, "--no-save", "--no-progress")
    assert r.code == 0, r.err
    assert "expose never,always" in r.out.splitlines()[0]
    assert "--policy and --expose differ by player" in " ".join(r.out.split())


def test_report_notes_the_player_mix_and_takes_fixed_dealer(run_cli, tmp_path):
    r = run_cli("report", "toppa", "--policy", "greedy,random", "--where", "dealer.triplet",
                "--rounds", ROUNDS, "--seed", 1, "--no-skill", "--out", tmp_path / "a",
                "--no-save")
    assert r.code == 0, r.err
    md = (tmp_path / "a" / "toppa" / "toppa.md").read_text()
    assert "--policy " + MIX in md
    r = run_cli("report", "toppa", "--policy", "greedy,random", "--where", "dealer.triplet",
                "--fixed-dealer", "--rounds", ROUNDS, "--seed", 1, "--no-skill", "--out",
                tmp_path / "b", "--no-save")
    assert r.code == 0, r.err
    md = (tmp_path / "b" / "toppa" / "toppa.md").read_text()
    assert MIX not in md
    assert "--fixed-dealer" in md and "fixed_dealer=True" in md  # reproduce, Python


# --------------------------------------------------------------- teyaku named by --where

def _pilot_rate(game, where, rules=None, preset=None):
    from hanasim import api, conditions, rules as _rules

    g = get_game(game)
    rule_obj = _rules.make_rules(g.Rules, api._with_preset(g, dict(rules or {}), preset))
    cond = conditions.check(g, None, where, [rule_obj], seed=1)
    _, played, ok = next(iter(cond.pilot.values()))
    return ok, played


@pytest.mark.parametrize("game, rules, preset, teyaku", [
    ("kushiro_toppa", {}, None, "three_pairs"),
    ("kushiro_toppa", {}, None, "one_ribbon"),
    ("kushiro_toppa", {}, None, "one_bright"),
    ("kushiro_toppa", {"teyaku_reading": "subset", "three_pairs": "at_least"}, None,
     "three_pairs"),
    ("kushiro_toppa", {"teyaku_reading": "subset"}, None, "one_animal"),
    ("kushiro_toppa", {"teyaku_reading": "subset"}, None, "empty_hand"),
    ("koikoi", {}, "modern", "four_of_a_kind"),
    ("koikoi", {}, "modern", "four_pairs"),
])
def test_a_named_teyaku_is_accepted_as_often_as_the_exact_odds_say(game, rules, preset, teyaku):
    import math

    ok, played = _pilot_rate(game, f"dealer.{teyaku}", rules, preset)
    ex = hanasim.exact(game, rules=rules or None, preset=preset)
    p = float(ex[(ex.quantity == f"teyaku.{teyaku}") & (ex.condition == "no_misdeal")]
              .value.iloc[0])
    # the pilot's share of the deals played, within its 99.9% interval of the exact odds
    assert abs(ok / played - p) <= 3.29 * math.sqrt(p * (1 - p) / played), (ok, played, p)


@pytest.mark.parametrize("game, rules, preset, where, why", [
    ("kushiro_toppa", {"three_pairs": "disjoint"}, None, "dealer.three_pairs", "two by two"),
    ("koikoi", {}, None, "dealer.four_pairs", "no lucky hands"),
])
def test_a_teyaku_counts_cannot_say_is_refused_in_one_line(run_cli, game, rules, preset, where,
                                                          why):
    args = ["simulate", game, "--where", where, "--rounds", 100, "--seed", 1, "--no-save"]
    args += [x for k, v in rules.items() for x in ("--rule", f"{k}={v}")]
    r = run_cli(*args)
    assert r.code == 2 and not r.out
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and "cannot be a condition" in lines[0] and why in lines[0], r.err


def test_ishikari_names_toppas_teyaku_under_teyaku_toppa_and_kushiro_lists_its_own():
    ok, played = _pilot_rate("ishikari_toppa", "dealer.triplet", {"teyaku": "toppa"})
    assert 0 < ok < played
    from hanasim.given import GivenError

    with pytest.raises(GivenError, match="or a teyaku: three_pairs, one_ribbon"):
        _pilot_rate("kushiro_toppa", "dealer.bogus")


# --------------------------------------------------------------- reports of conditioned runs

def _report(run_cli, tmp_path, game, *args):
    r = run_cli("report", game, *args, "--rounds", ROUNDS, "--seed", 1, "--no-skill", "--out",
                tmp_path, "--no-save")
    assert r.code == 0, r.err
    return (tmp_path / game / f"{game}.md").read_text()


def _python_snippet(md: str) -> str:
    block = md.split("The same tables from Python:", 1)[1].split("```")[1]
    return block


@pytest.mark.parametrize("game, given", [
    ("taoshi", "left=1cl,12cl"), ("ishikari_toppa", "dealer=11b"),
    ("kushiro_toppa", "dealer=11b,8b"), ("koikoi", "dealer=11b,8b"),
    ("taipa", "first_player=1b1"),
])
def test_a_given_report_runs_its_snippet_and_sets_exact_beside_simulated(run_cli, tmp_path,
                                                                         game, given):
    md = _report(run_cli, tmp_path, game, "--given", given)
    code = _python_snippet(md)
    exact_line = next(x for x in code.splitlines() if "_exact = hanasim.exact(" in x)
    table = eval(exact_line.split("=", 1)[1].split("#")[0], {"hanasim": hanasim})
    assert not table.empty
    section = md.split("exact vs simulated deal odds", 1)[1].split("\n### ", 1)[0]
    assert "| quantity | condition | exact (fraction)" in section  # a table, not empty
    rows = [x for x in section.splitlines() if x.startswith("| ") and "---" not in x]
    assert len(rows) > 1
    # the chart promises the diamonds only where it draws them: here it does
    assert "hollow diamonds: the exact probability" in md


def test_a_where_report_says_why_no_exact_odds_and_promises_no_diamonds(run_cli, tmp_path):
    md = _report(run_cli, tmp_path, "toppa", "--where", "dealer.triplet")
    section = md.split("exact vs simulated deal odds", 1)[1].split("\n### ", 1)[0]
    assert "No exact probabilities stand beside these estimates: the deals are conditioned " \
           "with --where" in section
    assert "| quantity | condition | exact (fraction)" not in section
    assert "hollow diamonds" not in md and "teyaku, simulated and exact" not in md
    code = _python_snippet(md)
    assert "hanasim.exact(" not in code and "# no exact odds beside it" in code
    exec(code.replace("rounds=2_000", "rounds=200"), {})  # the snippet runs
