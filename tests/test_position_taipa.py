"""Taipa positions, records and replay, advice (hanasim.position.taipa).

Taipa rounds played by the game's own kernel (``games.taipa.round.play_round``) and the same
rounds played through positions making the kernel's own choices (its random stream replayed)
end with the same result slots; records written from kernel rounds replay to the kernel's
coins, each player's coins carried from round to round; an illegal move is one line.
"""
import json

import numpy as np
import pytest

from hanasim import position as P
from hanasim.cli import main
from hanasim.games.taipa import coins as C
from hanasim.games.taipa import round as TR
from hanasim.position import record as R
from hanasim.position.replay import replay

import position_helpers as H

# card policy per player (0 random, 1 greedy), decision rows (0 random, 1 stop, 2 continue K,
# 3 threshold T)
PLAYS = [((0, 0), ((0, 0), (0, 0))), ((1, 0), ((2, 2), (3, 4))), ((0, 1), ((1, 0), (2, 5))),
         ((1, 1), ((3, 3), (0, 0)))]


@pytest.mark.parametrize("rules", [{}, {"last_turn": "stop"}, {"coin_cap": "uncapped"}])
def test_taipa_positions_end_as_the_kernel(rules):
    g = P.game("taipa", rules)
    agari = calls = 0
    for seed in range(120):
        policy, decide = PLAYS[seed % 4]
        size = (48, 42, 33, 30, 24, 18)[seed % 6]  # later rounds' decks, smaller
        res, pos, actions, _ = H.taipa_round(g.adapter, seed, policy, decide, size,
                                             first=(seed // 4) % 2)
        mine = g.adapter.settled(pos)
        assert list(mine[:TR.R_DECK]) == list(res[:TR.R_DECK]), seed
        w = int(res[TR.R_WINNER])
        want = [0, 0]
        if w >= 0:
            paid = int(C.payment(res[TR.R_SCORE], np.int64(10), g.adapter.tb.params))
            want[w], want[w ^ 1] = paid, -paid
        assert pos.result() == want
        agari += w >= 0
        calls += int(res[TR.R_CALLS] + res[TR.R_CALLS + 1]) > 0
    assert agari > 30 and calls > 5  # the rounds tried both ends and koi-koi calls


def _deal(g):
    cards = [g.code(c) for c in range(48)]
    return cards[:6], cards[6:12], cards[12:18], cards[18:]


def test_takes_any_one_of_the_suit():
    g = P.game("taipa")
    # pine (suit 1) on the field three times: a pine card takes one of the three
    h0 = ["1b1", "2b1", "3b1", "4a1", "5a1", "6a1"]
    h1 = ["2b2", "3b2", "4a2", "5a2", "6a2", "6r1"]
    field = ["1b2", "1r1", "1c1", "2c1", "3c1", "4c1"]
    used = set(h0 + h1 + field)
    pile = [g.code(c) for c in range(48) if g.code(c) not in used]
    pos = g.deal([h0, h1], field, pile)
    legal = pos.legal_actions()
    takes = sorted(g.code(a.take) for a in legal if a.card == g.card("1b1"))
    assert takes == ["1b2", "1c1", "1r1"]
    assert P.play(g.card("2b1")) in legal  # one match: the capture is fixed
    assert P.play(g.card("2b1"), g.card("2c1")) not in legal
    pos2 = pos.apply(P.play(g.card("1b1"), g.card("1c1")))
    # the pile's top, 1b3, matches the two pine cards left: which it takes is asked
    assert pos2.phase == "turned"
    assert sorted(g.code(a.take) for a in pos2.legal_actions()) == ["1b2", "1r1"]
    pos3 = pos2.apply(P.turned(g.card("1b3"), g.card("1r1")))
    assert sorted(g.code(c) for c in pos3.piles()[0]) == ["1b1", "1b3", "1c1", "1r1"]
    assert pos3.seat == 1 and pos3.phase == "play"
    with pytest.raises(P.PositionError, match="is not legal: it takes one of"):
        pos.apply(P.play(g.card("1b1"), g.card("2c1")))


def test_a_smaller_deck_and_bad_positions():
    g = P.game("taipa")
    h0, h1, field, pile = _deal(g)
    pos = g.deal([h0, h1], field, pile[:6])  # a deck of 24: the rest out of play
    assert pos.phase == "play" and len(pos.pile_left()) == 6
    with pytest.raises(P.PositionError, match="at least 18 cards"):
        g.deal([h0, h1[:5]], field, [])
    with pytest.raises(P.PositionError, match="hand sizes"):
        g.deal([h0[:4], h1], field, pile)
    with pytest.raises(P.PositionError, match="is in two places"):
        g.deal([h0, h1], field + [h0[0]], pile)
    with pytest.raises(P.PositionError, match="not a card of the Taipa deck"):
        g.deal([h0, h1], field, pile + ["11b"])


def _kernel_record(g, seeds, coins):
    """A record of kernel rounds (first players alternating), and each player's coins won by
    round, the coins carried (``coins.payment``)."""
    rounds, points = [], []
    have = [coins, coins]
    for i, seed in enumerate(seeds):
        policy, decide = PLAYS[seed % 4]
        first = i % 2
        res, pos, actions, deal = H.taipa_round(g.adapter, seed, policy, decide,
                                                (48, 36, 30)[i % 3], first=0)
        w = int(res[TR.R_WINNER])
        pts = [0, 0]
        if w >= 0:
            paid = int(C.payment(res[TR.R_SCORE], np.int64(have[(first + (w ^ 1)) % 2]),
                                 g.adapter.tb.params))
            pts[(first + w) % 2] = paid
            pts[(first + (w ^ 1)) % 2] = -paid
        have = [have[0] + pts[0], have[1] + pts[1]]
        rounds.append(R.round_json(g, first + 1, *deal, actions))
        points.append(pts)
    return R.record_json(g, rounds, g.rules_given), points


@pytest.mark.parametrize("rules", [{}, {"start_coins": 3}, {"start_coins": 3,
                                                            "coin_cap": "uncapped"}])
def test_replay_of_kernel_rounds_gives_their_coins(rules, tmp_path):
    g = P.game("taipa", rules)
    rec, points = _kernel_record(g, list(range(21, 27)), g.adapter.start_coins)
    assert any(p != [0, 0] for p in points)
    path = tmp_path / "taipa.json"
    R.write(path, rec)
    df = replay(R.load(path)).points
    for i, pts in enumerate(points, 1):
        got = df[df["round"] == str(i)].set_index("player")["points"]
        assert [got["player 1"], got["player 2"]] == pts
    totals = df[df["round"] == "total"].set_index("player")["points"]
    assert [totals["player 1"], totals["player 2"]] == [sum(p[k] for p in points)
                                                        for k in range(2)]


def test_capped_coins_carry_between_rounds():
    g = P.game("taipa", {"start_coins": 1})
    h0, h1, field, pile = _deal(g)
    pos = g.deal([h0, h1], field, pile, coins=[5, 1])
    # whatever the round's score, an agari by seat 0 takes at most seat 1's one coin
    assert g.adapter.start_coins == 1 and pos.data["coins"] == (5, 1)


def test_illegal_move_in_a_record_is_one_line(tmp_path, capsys):
    g = P.game("taipa")
    rec, _ = _kernel_record(g, [31, 32], 10)
    rnd = rec["rounds"][1]
    hand = set(rnd["hands"][0])
    other = next(c for c in rnd["hands"][1] if c not in hand)
    rnd["actions"][0] = {"play": other}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", "taipa", str(path)]) == 1
    err = capsys.readouterr().err
    assert "round 2, turn 1 (player 2, the first_player)" in err.replace("first player",
                                                                          "first_player")
    assert f"{other} is not in the hand" in err and err.count("\n") == 1


def test_replay_cli_taipa(tmp_path, capsys):
    g = P.game("taipa")
    rec, points = _kernel_record(g, [41, 42, 43], 10)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", "taipa", str(path)]) == 0
    out = capsys.readouterr().out
    assert "total" in out and "player 2" in out
