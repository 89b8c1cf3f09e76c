"""Replay and advice as a user reads them: each later round's dealer checked against the rules,
the points' unit, the advice's words (the hand-written records of tests/data/journeys/)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from hanasim.position import record as R
from hanasim.position.replay import WrongDealer, replay

JOURNEYS = Path(__file__).parent / "data" / "journeys"


def _record(name):
    return json.loads((JOURNEYS / f"{name}.json").read_text())


def _write(tmp_path, data, name="r.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def _position(name, n_actions, path):
    """A journey record's first round as a position after its first ``n_actions``."""
    r = _record(name)
    p = dict(r["rounds"][0], game=r["game"], actions=r["rounds"][0]["actions"][:n_actions])
    p.update({k: r[k] for k in ("preset", "rules") if k in r})
    path.write_text(json.dumps(p))
    return str(path)


# ------------------------------------------------------------ the next round's dealer
# each record's round 1 as counted by hand (the journeys' notes), and who the rules then name
@pytest.mark.parametrize("name,points,named", [
    ("toppa", [-45, 45], "Ben"),          # the winner deals: the opponent won
    ("koikoi", [5, 0], "Aki"),            # the round's scorer deals
    ("baka", [30, -50, 20], "Ben"),       # the deal passes to the dealer's right, whoever wins
    ("bakappana", [24, -33, 9], "Aki"),   # the highest scorer deals
    ("ishikari_toppa_3", [-24, -81, 105], "Cho"),
    ("ishikari_toppa_4", [-24, -81, 105, 0], "Cho"),  # of the three who played
    ("kushiro", [-1, 1], "Aki Ben"),      # neither text says who deals next: any player
    ("taoshi", [23, -19, -4], "Aki"),     # the winner (the greatest score) deals
])
def test_a_later_round_is_dealt_by_the_player_the_rules_name(name, points, named):
    rec = _record(name)
    df = replay(rec).points
    players = rec["players"]
    got = df[df["round"] == "1"].set_index("player")["points"]
    assert [got[p] for p in players] == points
    accepted = []
    for p in players:  # round 1 again as round 2, dealt by each player in turn
        again = copy.deepcopy(rec)
        r2 = dict(copy.deepcopy(rec["rounds"][0]), dealer=p)
        if rec["game"] == "koikoi":
            r2["month"] = r2.get("month", 1)
        again["rounds"].append(r2)
        try:
            replay(again)
            accepted.append(p)
        except WrongDealer as e:
            assert str(e).startswith(f"round 2: the dealer is {p}, but the rules name {named} (")
    assert accepted == named.split()


def test_a_record_may_start_within_a_game():
    """The first round's dealer is free: a record may start at any round of a game."""
    rec = _record("toppa")
    rec["rounds"][0]["dealer"] = "Ben"
    df = replay(rec).points
    assert df[df["round"] == "1"].set_index("player")["points"]["Ben"] == -45


def test_taipa_later_round_by_the_wrong_player_is_one_line(tmp_path, run_cli):
    rec = _record("taipa")
    r2 = rec["rounds"][1]
    assert r2["dealer"] == "Ben"  # Ben lost round 1: fewer coins, first in round 2
    r2["dealer"] = "Aki"  # the same cards, Aki named first player
    code, out, err = run_cli("replay", "taipa", _write(tmp_path, rec))
    # (a first run says first that it compiles the replay's kernels: round 1 was replayed)
    err = "".join(x for x in err.splitlines(True) if not x.startswith("hanasim: compiling"))
    assert code == 1 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert ("round 2: the first player is Aki, but the rules name Ben (the player with fewer "
            "coins plays first)") in err


def test_where_the_sources_are_silent_any_dealer_is_accepted():
    """Equal coins in Taipa (the rule page does not mention them): either player may play first,
    whatever ``tie_first`` the simulations follow; unequal coins: the one with fewer."""
    from hanasim import position as P
    from hanasim.position.dealers import next_dealers

    rec = _record("taipa")
    r = rec["rounds"][0]
    for tie in ("alternate", "same", "random"):
        g = P.game("taipa", {"tie_first": tie})
        pos = g.deal(r["hands"], r["field"], r["pile"])
        for a in r["actions"]:
            pos = pos.apply(g.action(a))
        assert next_dealers(g, pos, 0, coins=[10, 10])[0] == {0, 1}
        assert next_dealers(g, pos, 0, coins=[7, 13])[0] == {0}
        assert next_dealers(g, pos, 1, coins=[7, 13])[0] == {0}


def test_a_tied_toppa_round_lets_either_deal():
    """A tied Toppa round (both 0): the rule page names no dealer."""
    from types import SimpleNamespace

    from hanasim.position.dealers import _toppa

    tied = SimpleNamespace(result=lambda: [0, 0])
    won = SimpleNamespace(result=lambda: [5, -5])
    assert _toppa(None, tied)[0] == (0, 1) and _toppa(None, won)[0] == (0,)


def test_a_koikoi_round_nobody_scores_keeps_or_passes_the_deal():
    """The rule page: "the next round begins with the same dealer"; its "Draws" variant
    (``draw_dealer=pass``) passes the deal."""
    from types import SimpleNamespace

    import numpy as np

    from hanasim.games import koikoi as K
    from hanasim.position.dealers import _koikoi

    res = np.zeros(K.R_N, dtype=np.int64)
    res[K.R_WINNER] = -1
    drawn = SimpleNamespace(data=dict(res=res, ended=True))
    for how, want in (("keep", (0,)), ("pass", (1,))):
        g = SimpleNamespace(adapter=SimpleNamespace(rules=SimpleNamespace(draw_dealer=how)))
        assert _koikoi(g, drawn)[0] == want
    res2 = res.copy()
    res2[K.R_WINNER] = 1
    g = SimpleNamespace(adapter=SimpleNamespace(rules=SimpleNamespace(draw_dealer="keep")))
    assert _koikoi(g, SimpleNamespace(data=dict(res=res2, ended=True)))[0] == (1,)


# ------------------------------------------------------------ what the points are
@pytest.mark.parametrize("game,file,args,words", [
    ("taipa", "taipa", (), "points are coins won (+) or paid (-)"),
    ("kushiro_toppa", "kushiro", (), "points are chips won (+) or paid (-)"),
    ("toppa", "toppa", (), "points are the round's settled score (zero-sum"),
    ("koikoi", "koikoi", (), "never negative under scoring=winner_only"),
    ("koikoi", "koikoi", ("--preset", "koikoi-japan"), "(zero-sum: scoring=zero_sum"),
    ("taoshi", "taoshi", (), "less the burden (zero-sum"),
    ("toppa", "toppa", ("--rule", "par=100"), "(not zero-sum: the pars sum to 200"),
    ("bakappana", "bakappana", ("--rule", "scoring=additive"), "card points (scoring=additive"),
    ("taoshi", "taoshi", ("--rule", "burden=sudaoshi"), "(not zero-sum: the burdens sum to 330"),
])
def test_replay_says_what_the_points_are(game, file, args, words, run_cli):
    code, out, err = run_cli("replay", game, str(JOURNEYS / f"{file}.json"), *args)
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith(f"{game}: points are") and words in first
    if "koikoi-japan" in args:
        assert "never negative" not in out


def test_replay_advice_with_nothing_marked_says_so(run_cli):
    code, out, err = run_cli("replay", "koikoi", str(JOURNEYS / "koikoi.json"), "--advise",
                             "--samples", "32")
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("advice:"))
    assert "0 clearly below" not in line and not line.endswith(":")
    assert line.endswith("none clearly below the best (99.9% paired interval)")


# ------------------------------------------------------------ join-phase messages
def test_forced_out_seat_is_asked_whether_it_chases(tmp_path, run_cli):
    rec = _record("ishikari_toppa_4")
    rec["rounds"][0]["actions"][3] = {"expose": True}  # Dai, three having joined
    code, _out, err = run_cli("replay", "ishikari_toppa", _write(tmp_path, rec))
    assert code == 1 and err.count("\n") == 1
    assert "round 1, the deal (Dai, the dealer's left (seat 3))" in err
    assert "must say whether it chases, three having joined" in err
    rec = _record("ishikari_toppa_4")
    rec["rounds"][0]["actions"][0] = {"expose": True}  # Aki, the first to speak
    code, _out, err = run_cli("replay", "ishikari_toppa", _write(tmp_path, rec))
    assert code == 1 and "the dealer must say whether it joins: {\"join\": true} or false" in err


# ------------------------------------------------------------ advise
TOPPA_TRIPLE = {"game": "toppa",
                "hands": [["1b", "1r", "1c2", "4a", "5a", "6a", "7a", "8b", "9a", "10a"],
                          ["2a", "2r", "3r", "4r", "5r", "6r", "7r", "8a", "9r", "10r"]],
                "field": ["1c1", "2c1", "3c1", "4c1", "5c1", "6c1", "7c1", "8c1"],
                "pile": ["2c2", "3b", "3c2", "4c2", "5c2", "6c2", "7c2", "8c2", "9c1", "9c2",
                         "10c1", "10c2", "11b", "11a", "11r", "11c", "12b", "12c1", "12c2",
                         "12c3"]}


def test_greedy_exposes_at_an_expose(tmp_path, run_cli):
    """A greedy player exposes (``--expose always``, the default): the greedy column marks
    exposing, whatever the lookahead's own default."""
    code, out, err = run_cli("advise", "toppa", "--position",
                             _write(tmp_path, TOPPA_TRIPLE), "--samples", "16",
                             "--format", "csv")
    assert code == 0, err
    rows = {r.split(",")[0]: r.split(",")[-1] for r in out.splitlines()[1:]}
    assert rows == {"expose": "True", "hide": "False"}
    code, out, err = run_cli("advise", "toppa", "--position",
                             _write(tmp_path, TOPPA_TRIPLE), "--samples", "16")
    head = out.splitlines()[0]
    assert head.startswith("toppa: the dealer to choose: expose the teyaku or hide it;")
    assert "greedy: the greedy player's choice (exposing: --expose always" in head


def test_kushiro_call_says_its_words_and_the_lookahead_bar(tmp_path, run_cli):
    path = _position("kushiro", 12, tmp_path / "k.json")
    code, out, err = run_cli("advise", "kushiro_toppa", "--position", path, "--samples", "32")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("kushiro_toppa: the opponent to choose: Iku (play on) or "
                               "Yoroshii (stop and collect); values are the chips")
    assert lines[-1].startswith("the lookahead would take: koi-koi (it leaves stop, its "
                                "default, when another's mean gain clears its bar: about one "
                                "standard error of the paired gain")


def test_taoshi_advice_is_in_points(tmp_path):
    """Under ``burden=proportional`` (the kernels count 1/11 point) the value of the round's
    last action, which nothing hidden changes, is the round's score in points."""
    from hanasim import position as P

    rec = _record("taoshi")
    rec["rules"] = {"burden": "proportional"}
    r = rec["rounds"][0]
    g = P.game("taoshi", rec["rules"])
    pos = g.deal(r["hands"], r["field"], r["pile"])
    for a in r["actions"][:-1]:
        pos = pos.apply(g.action(a))
    last = g.action(r["actions"][-1])
    adv = P.advise(pos, samples=4, seed=1)
    seat = pos.seat
    want = pos.apply(last).result()[seat]
    assert adv.unit == 11 and want != int(want)  # a fractional score: the unit matters
    assert adv.means[adv.index(last)] == pytest.approx(want)


def test_record_format_says_taoshi_advice_is_in_points():
    text = (Path(R.__file__).parent / "RECORD_FORMAT.md").read_text()
    assert "Taoshi's values are in points" in text
    assert "Taoshi's values are in the kernels' unit" not in text
