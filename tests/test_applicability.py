"""No option silently does nothing (``rules.inert_options``): every game declares when each of
its options cannot change the result; an option asked for by name there is refused with one
line naming why (the API and the CLI, exit 2), one set by a preset or a compare/sweep grid is
named in the table's notes instead, and the declarations are true (the values give one table).
"""
from __future__ import annotations

import dataclasses

import pytest

from hanasim import api
from hanasim.cli import main
from hanasim.games import available_games, get_game
from hanasim.rules import Run, RuleError, inert_options, make_rules

# (game, rules asked for, run arguments, the option refused, words of the reason)
REFUSED = [
    ("taoshi", {"drop_fee": 5}, {}, "drop_fee", "3 players"),
    ("taoshi", {"forced_out_pay": 5}, {}, "forced_out_pay", "3 players"),
    ("taoshi", {"dropped_cards": "on_top"}, {}, "dropped_cards", "3 players"),
    ("taoshi", {"forced_out_botta": "claimed"}, {}, "forced_out_botta", "3 players"),
    ("koikoi", {"lucky_hands": "win6", "field_four": "dealer_wins", "misdeal": "field"}, {},
     "misdeal", "its own outcome"),
    ("kushiro_toppa", {"dealer_next": "rotate"}, {}, "dealer_next", "one round"),
    ("kushiro_toppa", {"dealer_next": "rotate"}, {"session_rounds": 4, "fixed_dealer": True},
     "dealer_next", "fixed dealer"),
    ("kushiro_toppa", {"dropped_cards": "aside"}, {}, "dropped_cards", "2 players"),
    ("kushiro_toppa", {"undecided": "redeal"}, {}, "undecided", "2 players"),
    ("kushiro_toppa", {"players": 4, "swap_pick": "lowest"}, {}, "swap_pick", "4 players"),
    ("kushiro_toppa", {"teyaku_reading": "off", "teyaku_value": 2}, {}, "teyaku_value",
     "teyaku_reading=off"),
    ("kushiro_toppa", {"chaff": 0, "willow_chaff": "all"}, {}, "willow_chaff", "chaff=0"),
    ("koikoi", {"decision_on": "bigger"}, {}, "decision_on", "no meld grows"),
    ("koikoi", {"first_dealer": "earlier_month"}, {"fixed_dealer": True}, "first_dealer",
     "fixed dealer"),
    ("toppa", {"tie_dealer": "pass"}, {}, "tie_dealer", "one round"),
    ("toppa", {"first_dealer_cards": 3}, {"session_rounds": 4, "fixed_dealer": True},
     "first_dealer_cards", "fixed dealer"),
    ("toppa", {"chaff": 0, "chaff_extra": 5}, {}, "chaff_extra", "chaff=0"),
    ("baka", {"first_dealer_cards": 2}, {"fixed_dealer": True}, "first_dealer_cards",
     "fixed dealer"),
    ("taipa", {"game_rounds": 1, "tie_first": "random"}, {}, "tie_first", "no next round"),
    ("taipa", {"game_rounds": 1, "short_deck": "end_game"}, {}, "short_deck", "short of cards"),
]
# the same options where they can change the result: accepted, nothing noted
APPLIES = [
    ("taoshi", {"players": 4, "drop_fee": 5}, {}),
    ("kushiro_toppa", {"dealer_next": "rotate"}, {"session_rounds": 4}),
    ("kushiro_toppa", {"players": 3, "dropped_cards": "aside", "undecided": "redeal",
                       "swap_pick": "lowest"}, {}),
    ("koikoi", {"yaku": "modern", "decision_on": "bigger"}, {}),
    ("koikoi", {"meld_growth": "counts", "decision_on": "bigger"}, {}),
    ("koikoi", {"lucky_hands": "win6", "misdeal": "none"}, {}),
    ("toppa", {"tie_dealer": "pass", "first_dealer_cards": 3}, {"session_rounds": 4}),
    ("taipa", {"tie_first": "random", "short_deck": "end_game"}, {}),
    ("taipa", {"game_rounds": 1, "short_deck": "end_game", "removed_chaff": 4,
               "removed_ribbons": 3}, {}),
]


def run_of(game, rules, kw):
    g = get_game(game)
    r = make_rules(g.Rules, rules)
    return r, api._run(g, r, kw.get("session_rounds", 1), kw.get("fixed_dealer", False))


@pytest.mark.parametrize("game, rules, kw, option, why", REFUSED)
def test_declared(game, rules, kw, option, why):
    r, run = run_of(game, rules, kw)
    assert why in inert_options(r, run)[option]


@pytest.mark.parametrize("game, rules, kw", APPLIES)
def test_applies(game, rules, kw):
    r, run = run_of(game, rules, kw)
    assert not set(inert_options(r, run)) & set(rules)


def test_every_game_declares_some():
    """The mechanism is every game's: each declares at least one option's applicability."""
    for game in available_games():
        g = get_game(game)
        fields = dataclasses.fields(g.Rules)
        declared = [f.name for f in fields if f.metadata.get("inert")] + list(
            getattr(g.Rules, "_inert", {}))
        assert declared, game


@pytest.mark.parametrize("game, rules, kw, option, why", REFUSED)
def test_refused_by_the_api(game, rules, kw, option, why):
    """Refused before any work (no kernel runs: the rounds would take long)."""
    with pytest.raises(RuleError, match=f"rule '{option}' cannot change the result here: "
                                        f".*{why}"):
        api.simulate(game, rounds=10**9, seed=1, rules=rules, **kw)


@pytest.mark.parametrize("game, rules, kw, option, why", REFUSED)
def test_refused_by_the_cli(game, rules, kw, option, why, capfd):
    argv = ["simulate", game, "--rounds", "1e9", "--seed", "1", "--no-save"]
    for k, v in rules.items():
        argv += ["--rule", f"{k}={v}"]
    if kw.get("session_rounds"):
        argv += ["--session-rounds", str(kw["session_rounds"])]
    if kw.get("fixed_dealer"):
        argv += ["--fixed-dealer"]
    assert main(argv) == 2
    err = capfd.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith("hanasim: error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    assert option in lines[0] and why in lines[0]
    assert "\n" not in lines[0]


def test_preset_is_noted_not_refused():
    """A preset's option that cannot change the result is named in the notes; the same option
    asked for by name on top of the preset is refused."""
    df = api.simulate("koikoi", rounds=200, seed=3, preset="modern", fixed_dealer=True,
                      threads=1)
    notes = df.attrs["notes"]
    assert any("first_dealer=earlier_month (from the preset modern) cannot change the result"
               in n and "fixed dealer" in n for n in notes), notes
    with pytest.raises(RuleError, match="first_dealer"):
        api.simulate("koikoi", rounds=200, seed=3, preset="modern", fixed_dealer=True,
                     rules={"first_dealer": "earlier_month"})


def test_compare_grid_is_noted_and_true():
    """A compare grid value that cannot change the result in some variants is noted (with the
    variants), not refused, and there it changes nothing: its difference rows are all 0."""
    df = api.compare("kushiro_toppa", rounds=3000, seed=4, threads=1,
                     rules={"players": [2, 3], "dropped_cards": ["under_pile", "aside"]})
    notes = [n for n in df.attrs["notes"] if "dropped_cards" in n]
    assert len(notes) == 1 and "in 2 of 4 variants" in notes[0] and "2 players" in notes[0]
    diff = df[(df.variant == "players=2 dropped_cards=aside") & (df.kind == "difference")]
    assert len(diff) and (diff.estimate == 0).all()
    other = df[(df.variant == "players=3 dropped_cards=aside") & (df.kind == "value")]
    assert len(other)


def test_compare_cli_notes(capfd):
    assert main(["compare", "kushiro-toppa", "--rule", "dealer_next=scorer,rotate", "--rounds",
                 "600", "--seed", "1", "--no-progress"]) == 0
    out = capfd.readouterr().out
    assert "dealer_next" in out and "cannot change the result in every variant" in out


def test_sweep_is_noted():
    df = api.sweep("toppa", rules={"chaff": "0:20:20", "chaff_extra": [5, 10]}, rounds=400,
                   seed=2, threads=1)
    notes = [n for n in df.attrs["notes"] if "chaff_extra" in n]
    assert len(notes) == 1 and "in 2 of 4 variants" in notes[0]


# The declarations are true: the values of an option declared inert give one table.
SAME = [
    ("toppa", {"tie_dealer": ["keep", "pass"], "first_dealer_cards": [1, 3]},
     {"fixed_dealer": True, "session_rounds": 3}),
    ("toppa", {"chaff": [0], "chaff_extra": [5, 10], "chaff_count": [10, 12],
               "willow_chaff": ["none", "all"]}, {}),
    ("baka", {"first_dealer_cards": [1, 4]}, {"fixed_dealer": True}),
    ("taipa", {"game_rounds": [1], "tie_first": ["alternate", "random"],
               "yaku_cards": ["random", "choice"], "short_deck": ["short_pile", "end_game"]},
     {}),
    ("koikoi", {"decision_on": ["new", "bigger"], "first_dealer": ["later_month",
                                                                    "earlier_month"],
                "draw_dealer": ["keep", "pass"]}, {"fixed_dealer": True}),
    ("koikoi", {"decision_on": ["new", "bigger"], "viewing": ["on"], "cards_of_month": ["on"],
                "double_chaff": ["sake+lightning"], "sake_cup": ["animal_and_chaff"]}, {}),
    ("taoshi", {"drop_fee": [0, 7], "forced_out_pay": [0, 5],
                "dropped_cards": ["shuffled", "on_top"],
                "forced_out_botta": ["lost", "claimed"]}, {}),
    ("kushiro_toppa", {"dealer_next": ["scorer", "rotate"], "dropped_cards": ["under_pile",
                                                                              "aside"],
                       "undecided": ["forced_in", "redeal"]}, {}),
    ("kushiro_toppa", {"players": [4], "swap_pick": ["random", "lowest"],
                       "teyaku_reading": ["off"], "three_pairs": ["exact", "disjoint"],
                       "teyaku_effect": ["play_on", "round_ends"]}, {"session_rounds": 3}),
]


@pytest.mark.parametrize("game, grid, kw", SAME, ids=[f"{g}-{i}" for i, (g, _, _) in
                                                       enumerate(SAME)])
def test_declared_inert_changes_nothing(game, grid, kw):
    policy = "random"
    df = api.compare(game, rounds=1200, seed=7, rules=grid, policies=[policy], threads=1,
                     max_variants=256, **kw)
    diff = df[df.kind == "difference"]
    assert len(diff) and (diff.estimate.fillna(0) == 0).all(), diff[diff.estimate != 0].head()
    varied = {k for k, v in grid.items() if len(v) > 1}
    assert all(any(k in n for n in df.attrs["notes"]) for k in varied), df.attrs["notes"]


def test_run_context():
    assert Run(players=2).deal_never_passes()
    assert Run(players=2, session_rounds=2).deal_never_passes() is None
    assert "fixed dealer" in Run(players=2, session_rounds=2, fixed_dealer=True).deal_never_passes()


def test_report_refuses_before_making_folders(tmp_path):
    from hanasim.report.build import build_report

    out = tmp_path / "report"
    with pytest.raises(RuleError, match="rule 'drop_fee' cannot change the result here"):
        build_report("taoshi", rounds=1000, seed=1, rules={"drop_fee": 5}, out=out)
    assert not out.exists()
