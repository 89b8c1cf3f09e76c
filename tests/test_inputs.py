"""Input rules shared by every command: whole sessions, how many policies a game takes, the
blocks a comparison uses, grids counted before they are built, flags that contradict rules, and
one rule for numbers (ASCII digits) with one clear line for every bad argument."""
import subprocess
import sys

import pytest

import hanasim
from hanasim import api
from hanasim.numtext import decimal, is_digits, is_whole


def run(*args, timeout=300):
    """``python -m hanasim ARGS`` in a process of its own: only where a failure could take the
    test process down with it (a grid built before it is counted); the other tests run the CLI
    in-process (``run_cli``, tests/conftest.py)."""
    return subprocess.run([sys.executable, "-m", "hanasim", *args], capture_output=True,
                          text=True, timeout=timeout)


def one_line(r, *words, code=2):
    # the notice that a cold kernel cache is being filled is not a message about the input
    lines = [x for x in r.stderr.splitlines()
             if x.strip() and not x.startswith("hanasim: compiling")]
    assert r.returncode == code and "Traceback" not in r.stderr, r.stderr
    assert len(lines) == 1, r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


# ---- session quantities count whole sessions only ------------------------------------------

SESSION_ROWS = ("session.first_dealer.mean_total", "session.first_dealer.win_rate")


@pytest.mark.parametrize("game", ["toppa", "kushiro_toppa", "taoshi"])
def test_a_cut_off_last_session_is_not_counted_as_a_session(game):
    # sessions of 7: 14 rounds are 2 whole sessions; 17 rounds are the same 2 sessions (the
    # same random streams) and 3 rounds of a third that the run cut off
    whole = hanasim.simulate(game, rounds=14, seed=5, session_rounds=7, threads=1)
    cut = hanasim.simulate(game, rounds=17, seed=5, session_rounds=7, threads=1)
    w, c = whole.set_index("quantity"), cut.set_index("quantity")
    for q in SESSION_ROWS:
        assert c.loc[q, "n"] == w.loc[q, "n"] == 2, q
        assert c.loc[q, "estimate"] == w.loc[q, "estimate"], q
    assert c.loc["player1.win_rate", "n"] == 17  # the cut-off rounds still count per round
    assert not any("whole session" in n for n in whole.attrs["notes"])
    note = [n for n in cut.attrs["notes"] if "whole session" in n]
    assert note and "2 whole sessions of 7 rounds" in note[0] and "last 3 rounds" in note[0]


def test_the_cut_off_session_is_said_on_the_command_line(run_cli):
    r = run_cli("simulate", "toppa", "--rounds", "10", "--session-rounds", "7", "--seed", "1",
            "--no-save", "--no-progress", "--threads", "1", "--all")
    assert r.returncode == 0, r.stderr
    assert "note: session quantities count the 1 whole session of 7 rounds" in r.stdout
    row = [x for x in r.stdout.splitlines() if "session.first_dealer.win_rate" in x][0]
    assert row.split()[-1] == "1"  # n: one session, not two


def test_no_whole_session_no_session_rows():
    df = hanasim.simulate("toppa", rounds=5, seed=2, session_rounds=7, threads=1)
    assert not df["quantity"].str.startswith("session.").any()
    assert any("no whole session" in n for n in df.attrs["notes"])


# ---- one rule for how many policies a game takes -------------------------------------------

def test_sweep_takes_one_policy_per_seated_player():
    # Kushiro Toppa seating 3: three policies are accepted and recorded, four are refused
    df = hanasim.sweep("kushiro_toppa", {"players": 3, "exhausted": "nobody,last_caller"},
                       rounds=12, seed=1, policy="greedy,random,random", threads=1)
    assert df.attrs["policies"] == "greedy,random,random"
    assert df.attrs["expose"].count(",") == 2
    with pytest.raises(ValueError, match="3 comma-separated"):
        hanasim.sweep("kushiro_toppa", {"players": 3, "exhausted": "nobody,last_caller"},
                      rounds=12, seed=1, policy="greedy,random,random,random")
    # Taoshi seats 3 by default: 6 policies (its most players) are refused
    with pytest.raises(ValueError, match="3 comma-separated"):
        hanasim.sweep("taoshi", {"drop_fee": "0,2"}, rounds=12, seed=1,
                      policy="greedy,random,random,random,random,random")


def test_variants_seating_different_players_take_one_policy_for_all():
    with pytest.raises(ValueError, match="players=2 seats 2 players"):
        hanasim.compare("kushiro_toppa", rounds=40, seed=1, rules={"players": "2,3"},
                        policies=["greedy,random,random", "random"])
    with pytest.raises(ValueError, match="seats"):
        hanasim.sweep("kushiro_toppa", {"players": "2,3,4"}, rounds=40, seed=1,
                      policy="greedy,random,random,random")
    with pytest.raises(ValueError, match="3 comma-separated"):
        hanasim.compare("taoshi", rounds=40, seed=1, rules={"drop_fee": "0,2"},
                        policies=["greedy,random,random,random,random,random", "random"])


def test_report_takes_one_policy_per_seated_player(tmp_path):
    from hanasim.report import build_report

    out = tmp_path / "rep"
    with pytest.raises(ValueError, match="3 comma-separated"):
        build_report("kushiro_toppa", rounds=30, seed=1, policy="greedy,random,random,random",
                     rules={"players": "3"}, out=str(out), skill=False, threads=1)
    assert not out.exists()  # refused before any folder is made
    paths = build_report("kushiro_toppa", rounds=30, seed=1, policy="greedy,random,random",
                         rules={"players": "3"}, out=str(out), skill=False, threads=1)
    assert paths["tables"][0].attrs["policies"] == "greedy,random,random"


def test_the_seated_players_are_one_function():
    g = hanasim.games.get_game("taoshi")
    from hanasim.rules import make_rules

    assert api.seated(g, make_rules(g.Rules, {"players": 5})) == 5
    assert api.seated(hanasim.games.get_game("toppa"), None) == 2


# ---- compare reports the blocks it used -----------------------------------------------------

def test_compare_reports_the_blocks_it_used(run_cli):
    df = hanasim.compare("toppa", rounds=150, seed=3, rules={"five_brights": [60, 40]},
                         threads=1)
    assert df.attrs["blocks"] == 75  # 150 sessions in batches of 2: 75 blocks, not 100
    r = run_cli("compare", "toppa", "--rounds", "150", "--seed", "3", "--rule",
            "five_brights=60,40", "--no-save", "--no-progress", "--threads", "1")
    assert r.returncode == 0, r.stderr
    assert "75 blocks" in r.stdout and "100 blocks" not in r.stdout


# ---- grids are counted before they are built -----------------------------------------------

HUGE_GRIDS = [
    ("sweep", dict(rules={"par.dealer": "0:999999999999:1"})),
    ("sweep", dict(rules={r: "0:200:5" for r in ("five_brights", "four_brights",
                                                  "rainy_four_brights", "boar_deer_butterfly",
                                                  "poetry_ribbons", "blue_ribbons")})),
    ("compare", dict(rules={"par.dealer": ",".join(map(str, range(0, 241, 5)))},
                     policies=["random", "greedy"])),
]


@pytest.mark.parametrize("fn, kwargs", HUGE_GRIDS)
def test_a_huge_grid_is_refused_before_it_is_built(fn, kwargs):
    # in a child with 3 GB of address space: building the list first would fail or hang
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))\n"
            "import hanasim\n"
            f"try:\n    hanasim.{fn}('toppa', rounds=10, **{kwargs!r})\n"
            "except ValueError as e:\n    print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert "variants" in r.stdout and "more than the limit of 64" in r.stdout, r.stdout


def test_a_huge_range_on_the_command_line_is_one_line():
    # a subprocess: a sweep that built its grid before counting it would exhaust the memory
    # of the process running it, which must not be the test process
    r = run("sweep", "toppa", "--rule", "par.dealer=0:999999999999:1", "--no-save",
            timeout=120)
    one_line(r, "1,000,000,000,000 variants", "more than the limit of 64")


def test_the_variant_limit_suggests_only_what_can_be_allowed():
    with pytest.raises(ValueError, match="max_variants=65"):
        hanasim.sweep("toppa", {"par.dealer": "0:64:1"}, rounds=10)
    with pytest.raises(ValueError, match="at most 100,000 can be allowed"):
        hanasim.sweep("toppa", {"par.dealer": "0:999999:1"}, rounds=10)
    with pytest.raises(ValueError, match="max_variants must be at most 100,000"):
        hanasim.sweep("toppa", {"par.dealer": "0:999999:1"}, rounds=10, max_variants=10**7)


# ---- a flag and a rule may not contradict each other ---------------------------------------

@pytest.mark.parametrize("args", [
    ("simulate", "kushiro_toppa", "--players", "3", "--rule", "players=2"),
    ("sweep", "kushiro_toppa", "--players", "3", "--rule", "players=2,4"),
    ("sweep", "taoshi", "--players", "4", "--rule", "players=5", "--rule", "drop_fee=0,2"),
    ("exact", "taipa", "--removed", "ribbons", "--rule", "removed_ribbons=2"),
])
def test_a_flag_that_contradicts_a_rule_is_refused(args, run_cli):
    one_line(run_cli(*args, "--no-save") if args[0] != "exact" else run_cli(*args), "contradicts")


def test_a_flag_that_agrees_with_the_rule_is_fine(run_cli):
    r = run_cli("simulate", "kushiro_toppa", "--players", "3", "--rule", "players=3", "--rounds",
            "20", "--seed", "1", "--no-save", "--no-progress", "--threads", "1")
    assert r.returncode == 0, r.stderr
    assert "players=3" in r.stdout


# ---- API messages and one rule for numbers --------------------------------------------------

@pytest.mark.parametrize("call, error, words", [
    (lambda: hanasim.tournament(rules="x"), TypeError, ["rules must be a dict", "'x'"]),
    (lambda: hanasim.tournament("toppa", ["random", "greedy"], expose="sometimes"), ValueError,
     ["expose"]),
    (lambda: hanasim.distributions(None), TypeError, ["distributions", "DataFrame", "NoneType"]),
    (lambda: hanasim.distributions("t.csv"), TypeError, ["DataFrame", "str"]),
])
def test_api_messages_name_the_problem(call, error, words):
    with pytest.raises(error) as e:
        call()
    text = str(e.value)
    assert "\n" not in text and "attribute" not in text and "mapping" not in text, text
    for w in words:
        assert w in text, (w, text)


def test_numbers_are_ascii_digits_everywhere():
    for text in ("100", "+7", "-3", " 42 "):
        assert is_whole(text)
    for text in ("١٠٠", "１００", "1_000", "²", "", "1.0", "0x10"):
        assert not is_whole(text), text
    assert is_digits("16") and not is_digits("١٦") and not is_digits("+16")
    assert decimal("2e6") == 2e6 and decimal("-1.5") == -1.5 and decimal(".5") == 0.5
    for text in ("٠", "1_0", "inf", "nan", "1e", "e5", "١.٥"):
        assert decimal(text) is None, text
    assert api.check_rounds("2e6") == 2_000_000 and api.check_rounds("1.5e3") == 1500
    assert api.check_rounds(" 100 ") == 100 and api.check_rounds(1e3) == 1000
    for bad in ("١٠٠", "１００", "1_000", "١e٣"):
        with pytest.raises(ValueError, match="ASCII digits"):
            api.check_rounds(bad)
        with pytest.raises(ValueError, match="seed"):
            api.check_seed(bad)
        with pytest.raises(ValueError, match="threads"):
            api.check_threads(bad)
    with pytest.raises(ValueError, match="target"):
        api._targets({"dealer.mean_score": "٠"})
    assert api._targets("dealer.mean_score=-1.5e1") == {"dealer.mean_score": -15.0}
    from hanasim.policies import policy_id

    assert policy_id("lookahead:16") == policy_id("lookahead:16 ")
    for bad in ("lookahead:١٦", "lookahead:²", "lookahead:+16"):
        with pytest.raises(ValueError, match="whole number"):
            policy_id(bad)


@pytest.mark.parametrize("args, words", [
    (("simulate", "toppa", "--rounds", "١٠٠"), ["rounds", "ASCII digits"]),
    (("simulate", "toppa", "--seed", "١"), ["seed"]),
    (("simulate", "toppa", "--rounds", "1_000"), ["rounds", "1_000"]),
    (("simulate", "toppa", "--threads", "١"), ["threads"]),
    (("simulate", "toppa", "--rule", "five_brights=٤٠"), ["five_brights"]),
    (("sweep", "toppa", "--rule", "par.dealer=١٠٠:١٤٠:٥"), ["par.dealer", "A:B:STEP"]),
    (("sweep", "toppa", "--rule", "par.dealer=100:140:5", "--solve", "dealer.mean_score=٠"),
     ["target", "number"]),
    (("compare", "toppa", "--rule", "five_brights=60,40", "--max-variants", "١٠"),
     ["max-variants"]),
    (("exact", "taipa", "--removed", "ribbons*²"), ["--removed", "whole number"]),
    (("simulate", "toppa", "--policy", "lookahead:١٦"), ["lookahead:K", "whole number"]),
])
def test_a_number_in_other_digits_is_one_clear_line(args, words, run_cli):
    one_line(run_cli(*args, "--no-save") if args[0] != "exact" else run_cli(*args), *words)
