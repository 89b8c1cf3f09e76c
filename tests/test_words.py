"""The words a user reads: "seed" is the random seed only, rule documents are named by their
titles (``hanasim.sources``), and no internal work-item number appears.  Everything here is
text: no simulation runs."""
import argparse
import pathlib
import re

import pytest

import hanasim
from hanasim import api, sources
from hanasim.cli import build_parser
from hanasim.games import available_games, get_game, readings
from hanasim.rules import RuleError, make_rules

# Phrases that name a rule document as a "seed", or a work item.  "seed 2026" (a random seed)
# and "the random seed" are fine; "seed 004", "the seed's value", "issue 13" are not.
BANNED = re.compile(r"seed 0|seed0|the seed's|the seed\b(?! \d)|seed text|\(seed[,):]|"
                    r"\bseed:|issue \d|issue #|\bissue\b", re.I)

SHARED = pathlib.Path(__file__).resolve().parents[1].parent / "shared"


# koi-koi's preset game-cabinet-1997 may name its former name, seed004, as such
FORMER = re.compile(r"former name `?seed004`?|`?seed004`?,? its former name")


def banned(text):
    return [m.group(0) for m in BANNED.finditer(FORMER.sub("", str(text)))]


def option_texts(game):
    """Every text ``hanasim rules GAME`` prints about the options and the game."""
    g = get_game(game)
    t = api.rules_table(game)
    for _, r in t.iterrows():
        for col in ("description", "readings", "allowed", "default"):
            yield f"{game} option {r.option} ({col})", r[col]
    yield f"{game} source", g.source
    yield f"{game} title", g.title
    for name, doc in (getattr(g, "preset_docs", None) or {}).items():
        yield f"{game} preset {name}", f"{name}: {doc}"
    yield f"{game} readings file", readings(game) or ""


@pytest.mark.parametrize("game", available_games())
def test_no_seed_or_issue_wording_in_what_rules_prints(game):
    found = {where: banned(text) for where, text in option_texts(game) if banned(text)}
    assert not found, found


@pytest.mark.parametrize("game", available_games())
def test_option_texts_never_say_seed(game):
    """An option's text, readings and allowed values talk about rules, never about a random
    seed, so the word does not appear in them at all."""
    t = api.rules_table(game)
    for col in ("description", "readings", "allowed", "default"):
        hits = t[t[col].astype(str).str.contains("seed", case=False)]
        assert hits.empty, (col, hits[["option", col]].to_dict("records"))
    assert "seed" not in get_game(game).source.lower()


def test_the_scan_can_fail():
    """The patterns catch the old wording (so the scans above are not vacuous)."""
    for old in ("the seed's value", "seed 004_3c58717347331a26 (Game Cabinet, 1997)",
                "(seed, 'Setup')", "the Taoshi seed text", "a lookahead player (issue 16)",
                "(seed: silent)", "the seed names no misdeal", "Seed 003 with the rule pages",
                "the preset seed004"):
        assert banned(old), old
    for fine in ("2,000,000 rounds, seed 2026", "keyed by the random seed", "--seed S"):
        assert not banned(fine), fine


def test_help_texts_have_no_seed_or_issue_wording():
    texts = []

    def walk(parser):
        texts.append(parser.description or "")
        for action in parser._actions:
            texts.append(action.help or "")
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    texts.append(choice.help or "")
                for sub in action.choices.values():
                    walk(sub)

    walk(build_parser())
    found = [t for t in texts if banned(t)]
    assert not found, found


def test_registry_sources_are_the_titled_sources():
    titles = {k: s.title for k, s in sources.SOURCES.items()}
    assert get_game("toppa").source.startswith("the Toppa rule page (2025-04-13)")
    assert get_game("baka").source.startswith("the Toppa rule page (2025-04-13), section 'Baka'")
    assert get_game("taipa").source.startswith(titles["taipa"])
    assert titles["koikoi_1997"] in get_game("koikoi").source
    assert titles["koikoi_page"] in get_game("koikoi").source
    assert titles["kushiro_page"] in get_game("kushiro_toppa").source
    assert titles["kushiro_2022"] in get_game("kushiro_toppa").source
    assert titles["taoshi_page"] in get_game("taoshi").source
    assert titles["taoshi_2022"] in get_game("taoshi").source


@pytest.mark.skipif(not SHARED.is_dir(), reason="the rule texts (../shared) are not here")
@pytest.mark.parametrize("key", sorted(sources.SOURCES))
def test_each_source_is_the_file_it_names(key):
    """The date a title carries is the one in its file's header (a wiki page's ``date:``; the
    1997 text's first message)."""
    s = sources.SOURCES[key]
    path = SHARED / s.path
    head = path.read_text(encoding="utf-8")[:600]
    if key == "koikoi_1997":
        assert "Date: Sat, 18 Oct 1997" in head and s.date == "1997-10-18"
    else:
        assert re.search(rf"^date: {s.date}T", head, re.M), (key, head[:200])


def test_sweep_chart_legend_names_the_rule_text():
    """A sweep's chart marks the values the rule page names, each by the text that names it
    (a Koi-koi chart drew the 1997 text's 0 and the page's 3 under one legend entry), never
    "the seed's values"."""
    import matplotlib

    matplotlib.use("Agg")
    import pandas as pd

    from hanasim import plot

    rows = [dict(game="toppa", quantity="dealer.mean_score", five_brights=v, estimate=0.1 * v,
                 ci_low=0.1 * v - 1, ci_high=0.1 * v + 1) for v in (40, 60, 80)]
    sw = pd.DataFrame(rows)
    sw.attrs.update(game="toppa", swept=["five_brights"])
    ax = plot.sweep_curve(sw, "dealer.mean_score")
    labels = [t.get_text() for t in ax.get_legend().get_texts()] if ax.get_legend() else []
    labels += [h.get_label() for h in ax.get_lines() + ax.collections]
    # each value by the text that names it (the page's 60 and its alternative 40)
    assert "60: the rule page's value" in labels and "40: the rule page's alternative" in \
        labels, labels
    assert not any("seed" in lab for lab in labels), labels


# ---------------------------------------------------------------- koi-koi's former names
def test_koikoi_yaku_value_renamed_and_old_name_kept():
    R = get_game("koikoi").Rules
    assert R().yaku == "game_cabinet"
    assert make_rules(R, {"yaku": "seed"}).yaku == "game_cabinet"
    assert make_rules(R, {"yaku": "seed"}) == make_rules(R, {})
    t = api.rules_table("koikoi").set_index("option")
    assert "seed" not in t.loc["yaku", "allowed"] and "game_cabinet" in t.loc["yaku", "allowed"]
    with pytest.raises(RuleError, match="allowed values: game_cabinet, modern"):
        make_rules(R, {"yaku": "seeds"})


def test_koikoi_preset_game_cabinet_1997_and_its_former_name():
    g = get_game("koikoi")
    assert "game-cabinet-1997" in g.preset_docs and "seed004" not in g.preset_docs
    new = api.rules_table("koikoi", preset="game-cabinet-1997")
    old = api.rules_table("koikoi", preset="seed004")
    assert new["preset"].tolist() == old["preset"].tolist() == new["default"].tolist()
    with pytest.raises(ValueError) as e:
        hanasim.simulate("koikoi", rounds=10, seed=1, preset="seed05")
    assert "game-cabinet-1997" in str(e.value) and "seed004" not in str(e.value)


def test_cli_rules_names_a_former_preset(capsys):
    from hanasim.cli import main

    assert main(["rules", "koikoi", "--preset", "seed004"]) == 0
    out = capsys.readouterr().out
    assert "(seed004 is the former name of game-cabinet-1997)" in out
    assert "the 1997 Game Cabinet text (1997-10-18)" in out


def test_every_command_help_opens_with_what_the_command_does():
    """'hanasim warmup --help' (and every other command's) says what it is for, not only its
    usage line: the words of its line in 'hanasim --help' where it has none longer."""
    import argparse

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in sub.choices.items():
        assert command.description, name
        assert command.format_help().split("\n\n")[1].strip(), name
    assert sub.choices["warmup"].description.startswith("Compile the games' kernels ahead")
