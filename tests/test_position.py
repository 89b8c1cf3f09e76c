"""Positions, records and replay, advice (hanasim.position).

The position API must play a round exactly as the game's kernel does: many random rounds
played by the kernel and by positions making the kernel's own choices end with the same
points (random and greedy card play, teyaku and lucky hands exposed or hidden, koi-koi calls
made or not, under several rule sets).
"""
import copy
import json

import numpy as np
import pytest

from hanasim import position as P
from hanasim.cli import main
from hanasim.policies import DEC_CONTINUE, DEC_STOP
from hanasim.position import record as R
from hanasim.position.replay import replay

import position_helpers as H

DATA = __import__("pathlib").Path(__file__).parent / "data" / "positions"


# ------------------------------------------------------------ the kernel's rounds, replayed
@pytest.mark.parametrize("name,rules", [("toppa", {}), ("toppa", {"teyaku_combine": "highest",
                                                                   "card_transfer": "total"}),
                                        ("baka", {}), ("bakappana", {}),
                                        ("bakappana", {"players": 2}),
                                        ("bakappana", {"players": 4}),
                                        ("bakappana", {"players": 2, "scoring": "additive",
                                                       "two_player_end": "hands_empty"})])
def test_fishing_positions_end_as_the_kernel(name, rules):
    g = P.game(name, rules)
    n = g.n
    for seed in range(1, 61):
        policy = [(seed >> s) & 1 for s in range(n)]  # random and greedy mixed
        expose = [(seed >> (s + 2)) & 1 for s in range(n)]  # always or never
        kernel, pos, actions, _ = H.fishing_round(g.adapter, seed, policy, expose)
        assert pos.result() == kernel, (seed, [a.words(g.code) for a in actions])


@pytest.mark.parametrize("preset,rules", [
    (None, {}), ("modern", {}), ("nintendo", {}), ("koikoi-japan", {}),
    (None, {"wild_lightning": "on", "must_match": "yes", "lucky_hands": "stack12",
            "field_four": "dealer_captures", "exhausted": "last_yaku",
            "koikoi_bonus": "anyone_x2"}),
    (None, {"turn_structure": "draw_then_two"}),
    ("modern", {"turn_structure": "unmatched_to_hand", "wild_lightning": "on"}),
    (None, {"turn_structure": "unmatched_to_hand", "must_match": "yes"}),
])
def test_koikoi_positions_end_as_the_kernel(preset, rules):
    g = P.game("koikoi", rules, preset)
    played = calls = 0
    for seed in range(1, 61):
        policy = [seed & 1, (seed >> 1) & 1]
        decide = [DEC_CONTINUE if (seed >> 2) & 1 else DEC_STOP,
                  DEC_CONTINUE if (seed >> 3) & 1 else DEC_STOP]
        expose = [(seed >> 4) & 1, 1]
        out = H.koikoi_round(g.adapter, seed, policy, decide, expose,
                             round_number=1 + seed % 12)
        if out is None:  # a misdeal under these rules: the kernel redeals it
            continue
        kernel, pos, actions, _ = out
        played += 1
        calls += sum(a.kind == "koikoi" and a.yes for a in actions)
        assert pos.result() == kernel, (seed, [a.words(g.code) for a in actions])
    assert played > 40 and calls > 0  # the rounds reached koi-koi calls


@pytest.mark.parametrize("rules", [{}, {"teyaku": "toppa"}, {"players": 6, "teyaku": "none"},
                                   {"players": 3}, {"players": 5, "chaff_points": 0}])
def test_ishikari_positions_end_as_the_kernel(rules):
    """Join or drop (forced, chased), the Hachi-hachi or Toppa teyaku claimed or not, random
    and greedy play, a chase multiplier: the kernel's round and the positions' agree."""
    g = P.game("ishikari_toppa", rules)
    a = g.adapter
    t = a.table
    played = joins = 0
    for seed in range(1, 41):
        out = H.ishikari_round(a, seed, [(seed >> s) & 1 for s in range(t)],
                               [0 if (seed >> s) & 2 else 10**6 for s in range(t)],
                               [(seed >> (s + 1)) & 1 for s in range(t)], mult=1 + seed % 3)
        if out is None:  # a Hachi-hachi Four of a Kind in an active hand: not reached
            continue
        kernel, pos, actions, _ = out
        played += 1
        joins += sum(x.kind == "join" for x in actions)
        assert pos.result() == kernel, (seed, [x.words(g.code) for x in actions])
    assert played > 30 and (joins > 0) == (t > 3)


def test_ishikari_pile_must_hold_the_inactive_hands():
    """The active round's pile is the inactive hands and the undealt cards: a pile holding an
    active player's card instead is refused once the join phase says who is active."""
    from hanasim.position.positions import position_from_json

    g = P.game("ishikari_toppa", {"players": 4})
    rec, _ = H.kernel_record(g, [7])
    r = rec["rounds"][0]
    active = next(h for h in r["hands"] if h[0] not in r["pile"])
    pile = [active[0]] + r["pile"][1:]
    with pytest.raises(ValueError, match="must hold exactly the inactive hands"):
        position_from_json(dict(hands=r["hands"], field=r["field"], pile=pile,
                                actions=r["actions"]), "ishikari_toppa", {"players": 4},
                           None, P.game)


def test_koikoi_option_not_reached_is_one_line():
    with pytest.raises(P.PositionError, match="after_hands=draw_pile yet"):
        P.game("koikoi", {"after_hands": "draw_pile"})


def test_join_tables_want_every_seat_s_hand_in_one_line():
    with pytest.raises(P.PositionError, match="3 hands at a table of 3"):
        P.game("kushiro_toppa", {"players": 3}).deal([[]] * 3, [], [])
    with pytest.raises(P.PositionError, match=r"\(5 hands, the dealer's first\)"):
        P.game("taoshi", {"players": 5}).deal([[]] * 3, [], [])


# ------------------------------------------------------------ legal actions, bad positions
def _toppa_deal():
    rec = json.loads((DATA / "toppa_handwritten.json").read_text())
    r = rec["rounds"][0]
    return r["hands"], r["field"], r["pile"]


def test_legal_actions_and_captures():
    g = P.game("toppa")
    pos = g.deal(*_toppa_deal())
    assert pos.phase == "play" and pos.seat == 0
    legal = pos.legal_actions()
    assert P.play(g.card("1b")) in legal and len(legal) == 10  # no two-way match: one each
    pos = pos.apply(P.play(g.card("1b")))
    # the pine bright took the pine chaff; the turned 1c2 found nothing and stays
    assert sorted(pos.piles()[0]) == sorted([g.card("1b"), g.card("1c1")])
    assert g.card("1c2") in pos.field()
    assert pos.seat == 1
    with pytest.raises(P.PositionError, match="not in the hand"):
        pos.apply(P.play(g.card("1r")))


def test_two_way_take_is_a_choice():
    g = P.game("toppa")
    hands, field, pile = _toppa_deal()
    # move 1c2 from the pile's top to the field in place of 9c1: 1r now matches two
    pile = ["9c1"] + pile[1:]
    field = ["1c2" if c == "9c1" else c for c in field]
    pos = g.deal(hands, field, pile)
    takes = [a.take for a in pos.legal_actions() if a.card == g.card("1r")]
    assert sorted(takes) == sorted([g.card("1c1"), g.card("1c2")])
    with pytest.raises(P.PositionError, match="takes one of"):
        pos.apply(P.play(g.card("1r")))


@pytest.mark.parametrize("change,words", [
    (lambda h, f, p: (h, f + [p[0]], p), "in two places"),
    (lambda h, f, p: (h, f, p[1:]), "in no place"),
    (lambda h, f, p: ([h[0][:-1], h[1]], f + [h[0][-1]], p), "cannot occur"),
    (lambda h, f, p: ([h[0][:-1], h[1][:-1]], f + [h[0][-1], h[1][-1]], p), "cannot go with"),
    (lambda h, f, p: ([h[0], h[1][:-1]], f + [h[1][-1]], p), "cannot occur"),
    (lambda h, f, p: ([h[0], h[1]], f, p[:-1] + ["13b"]), "not a card"),
])
def test_bad_positions_are_one_line(change, words):
    g = P.game("toppa")
    with pytest.raises(ValueError, match=words):
        g.deal(*change(*_toppa_deal()))


def test_misdeal_is_refused():
    g = P.game("toppa")
    hands, field, pile = _toppa_deal()
    # four pines in the dealer's hand: 1c1 and 1c2 in for 5a and 5r
    hands = [["1c1", "1c2"] + hands[0][:8], hands[1]]
    field = ["5a" if c == "1c1" else c for c in field]
    pile = ["5r" if c == "1c2" else c for c in pile]
    with pytest.raises(P.PositionError, match="misdeal"):
        g.deal(hands, field, pile)


# ------------------------------------------------------------ records and replay
@pytest.mark.parametrize("name", ["toppa", "baka", "bakappana", "ishikari_toppa", "koikoi"])
def test_replay_of_kernel_rounds_gives_their_points(name, tmp_path):
    g = P.game(name)
    rec, points = H.kernel_record(g, list(range(11, 15)))
    path = tmp_path / "game.json"
    R.write(path, rec)
    df = replay(R.load(path)).points
    players = [f"player {i + 1}" for i in range(g.n)]
    for i, pts in enumerate(points, 1):
        got = df[df["round"] == str(i)].set_index("player")["points"]
        assert [got[p] for p in players] == pts
    totals = df[df["round"] == "total"].set_index("player")["points"]
    assert [totals[p] for p in players] == [sum(r[k] for r in points) for k in range(g.n)]


def test_handwritten_lucky_hands_record():
    df = replay(R.load(DATA / "koikoi_lucky.json")).points
    tot = df[df["round"] == "total"].set_index("player")["points"]
    assert tot["player 1"] == 12  # the four pines declared twice, 6 each (the modern preset)


def test_replay_cli_prints_points_and_totals(capsys):
    assert main(["replay", "koikoi", str(DATA / "koikoi_lucky.json")]) == 0
    out = capsys.readouterr().out
    assert "total" in out and "player 1" in out


@pytest.mark.parametrize("mutate,code,words", [
    (lambda r: r, 1, "round 1, turn 3 (Aki, the dealer): 6r is not in the hand"),
    (lambda r: r["rounds"][0]["actions"].pop(), 1, "stops before the round ends"),
    (lambda r: r["rounds"][0]["actions"].__setitem__(0, {"play": "1b", "take": "1c1"}), 1,
     "capture is fixed by the rules"),
    (lambda r: r["rounds"][0]["actions"].__setitem__(0, {"koikoi": True}), 1,
     "must play"),
    (lambda r: r["rounds"][0]["actions"].__setitem__(0, {"play": "1x"}), 2, "not a card"),
    (lambda r: r["rounds"][0]["hands"][0].pop(), 2, "in no place"),
    (lambda r: r["rounds"][0].pop("pile"), 2, "has no 'pile'"),
    (lambda r: r.__setitem__("game", "koikoi"), 2, "is of koikoi, not toppa"),
    (lambda r: r["rounds"][0].__setitem__("dealer", 3), 2, "is not a player"),
])
def test_bad_records_are_one_line(mutate, code, words, tmp_path, capsys):
    rec = json.loads((DATA / "toppa_handwritten.json").read_text())
    mutate(rec)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", "toppa", str(path)]) == code
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_not_json_is_one_line(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text("{\"rounds\": [")
    assert main(["replay", "toppa", str(path)]) == 2
    err = capsys.readouterr().err
    assert "is not JSON" in err and err.count("\n") == 1


def test_action_after_the_end(tmp_path, capsys):
    rec = json.loads((DATA / "koikoi_lucky.json").read_text())
    rec["rounds"][0]["actions"].append({"play": "1b"})
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", "koikoi", str(path)]) == 1
    assert "comes after the round ended" in capsys.readouterr().err


# ------------------------------------------------------------ advice
def _hidden_permuted(g, pos_json, seed):
    """The same position with the cards its player cannot see permuted among their places."""
    rng = np.random.default_rng(seed)
    out = copy.deepcopy(pos_json)
    hidden = out["hands"][1] + out["pile"]
    rng.shuffle(hidden)
    k = len(out["hands"][1])
    out["hands"][1], out["pile"] = hidden[:k], hidden[k:]
    return out


@pytest.mark.parametrize("name,preset", [("toppa", None), ("koikoi", "modern")])
def test_advice_never_depends_on_the_hidden_cards(name, preset):
    """At the deal: the opponent's hand and the pile permuted among themselves (same seed)
    give the same advice to the dealer."""
    from hanasim.position.positions import position_from_json

    g = P.game(name, preset=preset)
    rec, _ = H.kernel_record(g, [21])
    r = rec["rounds"][0]
    base = dict(hands=r["hands"], field=r["field"], pile=r["pile"])
    _, pos = position_from_json(base, name, {}, preset, P.game)
    assert pos.seat == 0
    want = P.advise(pos, samples=24, seed=5)
    tried = 0
    for k in range(20):
        try:
            _, pos2 = position_from_json(_hidden_permuted(g, base, k), name, {}, preset,
                                         P.game)
        except ValueError:  # a misdeal under these rules: no such deal
            continue
        if pos2.phase != pos.phase or pos2.seat != 0:  # the opponent now declares first
            continue
        got = P.advise(pos2, samples=24, seed=5)
        assert got.actions == want.actions
        np.testing.assert_array_equal(got.values, want.values)
        assert got.chosen == want.chosen
        tried += 1
    assert tried >= 3


def test_advice_mid_round_never_depends_on_the_hidden_cards():
    """A position later in a round (given as its cards): the opponent's hand and the pile
    permuted among themselves give the same advice."""
    from hanasim.position.positions import position_from_json

    g = P.game("toppa")
    hands, field, pile = _toppa_deal()
    pos_json = dict(
        hands=[[c for c in hands[0] if c != "1b"], [c for c in hands[1] if c != "6a"]],
        field=[c for c in field if c not in ("1c1", "6c1", "2c1")] + ["1c2"],
        captured=[["1b", "1c1"], ["6a", "6c1", "2c1", "2c2"]], pile=pile[2:])
    _, pos = position_from_json(pos_json, "toppa", {}, None, P.game)
    assert pos.seat == 0
    want = P.advise(pos, samples=20, seed=9)
    for k in range(3):
        _, pos2 = position_from_json(_hidden_permuted(g, pos_json, k), "toppa", {}, None,
                                     P.game)
        got = P.advise(pos2, samples=20, seed=9)
        np.testing.assert_array_equal(got.values, want.values)
        assert got.chosen == want.chosen


def test_advice_takes_the_obvious_capture():
    """The dealer (no teyaku) can take the Rain Man or the moon, or throw away a chaff: the
    advice's best, and the lookahead's pick, is a bright capture."""
    g = P.game("toppa")
    pos = g.deal(
        [["8c1", "11c", "2c1", "2r", "4c1", "4a", "5c1", "5c2", "7c1", "7c2"],
         ["1r", "2c2", "3r", "4r", "5r", "6r", "7r", "9r", "10r", "11r"]],
        ["8b", "11b", "1c1", "3c1", "6c1", "9c1", "10c1", "12c1"],
        ["1b", "1c2", "2a", "3b", "3c2", "4c2", "5a", "6a", "6c2", "7a", "8a", "8c2", "9a",
         "9c2", "10a", "10c2", "11a", "12b", "12c2", "12c3"])
    adv = P.advise(pos, samples=64, seed=1)
    best = adv.actions[adv.best]
    assert best.card in (g.card("8c1"), g.card("11c"))
    assert adv.actions[adv.chosen].card in (g.card("8c1"), g.card("11c"))
    # and throwing away a chaff that captures nothing is clearly worse
    assert adv.clearly_below(P.play(g.card("2c1")))


def test_advise_cli(tmp_path, capsys):
    rec = json.loads((DATA / "toppa_handwritten.json").read_text())
    r = rec["rounds"][0]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(dict(game="toppa", hands=r["hands"], field=r["field"],
                                    pile=r["pile"], actions=r["actions"][:2])))
    assert main(["advise", "toppa", "--position", str(path), "--samples", "8"]) == 0
    out = capsys.readouterr().out
    assert "the lookahead would take: play" in out and "the dealer to play" in out
    path.write_text(json.dumps(dict(hands=r["hands"], field=r["field"], pile=r["pile"],
                                    actions=r["actions"])))
    assert main(["advise", "toppa", "--position", str(path)]) == 1
    assert "not in the hand" in capsys.readouterr().err


def test_replay_advise_marks_a_clearly_worse_call(tmp_path):
    """A koi-koi call that loses its points on average is marked (the kernel's rounds with a
    player who always calls)."""
    g = P.game("koikoi", preset="modern")
    rec, _ = H.kernel_record(g, list(range(31, 37)), decide=(DEC_CONTINUE, DEC_CONTINUE))
    out = replay(rec, advise=True, samples=32, seed=3)
    adv = out.advice
    assert len(adv) > 0
    marked = adv[adv["clearly_below"]]
    assert (marked["vs_best_high"] < 0).all()
    assert (adv[~adv["clearly_below"]]["vs_best_high"] >= 0).all()


def test_public_functions():
    import hanasim

    df = hanasim.replay("koikoi", DATA / "koikoi_lucky.json")
    assert list(df.columns) == ["round", "player", "seat", "points"]
    rec = json.loads((DATA / "toppa_handwritten.json").read_text())
    r = rec["rounds"][0]
    adv = hanasim.advise("toppa", dict(hands=r["hands"], field=r["field"], pile=r["pile"]),
                         samples=8, seed=2)
    assert len(adv) == 10 and adv["lookahead"].sum() == 1
    assert (adv["value_low"] <= adv["value"]).all() and (adv["value"] <= adv["value_high"]).all()
    with pytest.raises(ValueError, match="not JSON|no such file"):
        hanasim.advise("toppa", DATA / "missing.json")


@pytest.mark.parametrize("name,points", [("toppa", [-70, 70]), ("koikoi", [17, 19])])
def test_example_records(name, points):
    """The examples shipped beside the format (kernel rounds) replay to the kernel's points."""
    df = replay(R.load(DATA / f"{name}_kernel.json")).points
    tot = df[df["round"] == "total"]["points"].tolist()
    assert tot == points


def test_advice_on_a_lucky_hand():
    """Declaring four pines wins 6 at once (modern preset); hiding them plays the round out."""
    rec = json.loads((DATA / "koikoi_lucky.json").read_text())
    r = rec["rounds"][0]
    pos_json = dict(hands=r["hands"], field=r["field"], pile=r["pile"])
    adv = hanasim_advise("koikoi", pos_json, preset="modern")
    declare = adv[adv["action"] == "expose"].iloc[0]
    assert declare["value"] == 6 and declare["value_low"] == 6 and declare["lookahead"]
    g = P.game("koikoi", preset="modern")
    for k in range(3):  # and it never depends on the hidden cards
        moved = _hidden_permuted(g, pos_json, k)
        try:
            again = hanasim_advise("koikoi", moved, preset="modern")
        except ValueError:
            continue
        assert again.equals(adv)


def hanasim_advise(game, position, preset=None):
    import hanasim

    return hanasim.advise(game, position, samples=32, seed=4, preset=preset)


def test_the_koikoi_call_action_stays_a_function_after_a_koikoi_game():
    # the package's `koikoi` (a call action) was replaced by a submodule of that name as soon
    # as a koi-koi game was built: P.koikoi(True) then raised "module object is not callable"
    from hanasim import position as P
    P.game("koikoi")
    assert P.koikoi(True) == P.Action("koikoi", yes=True)


def test_ishikari_replay_takes_the_chase_multiplier_from_the_rounds(tmp_path, capsys):
    """The multiplier follows from the record's rounds (a chase doubles the next round's
    payments, a second in a row triples them; a round without resets it): a record without
    it replays to the kernel's points played with the session's multiplier, and a round
    giving another is refused in one line."""
    g = P.game("ishikari_toppa", {"players": 5, "rounds_per_game": 6})
    rec, points = H.kernel_record(g, list(range(59, 67)))  # four or five seats join: chases
    mults = [r["multiplier"] for r in rec["rounds"]]
    assert max(mults) >= 2 and mults[6] == 1  # a chase met; a new game at round 7
    bare = json.loads(json.dumps(rec))
    for r in bare["rounds"]:
        del r["multiplier"]
    df = replay(bare).points
    for i, pts in enumerate(points, 1):
        got = df[df["round"] == str(i)].set_index("player")["points"]
        assert [got[f"player {k + 1}"] for k in range(5)] == pts
    k = next(i for i, m in enumerate(mults) if m >= 2)
    bad = json.loads(json.dumps(rec))
    bad["rounds"][k]["multiplier"] = 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert main(["replay", "ishikari_toppa", str(path)]) == 2
    err = capsys.readouterr().err
    assert (f"round {k + 1}: the chase multiplier is {mults[k]} (round {k} had a chase"
            in err and err.endswith(", not 1\n") and err.count("\n") == 1)
