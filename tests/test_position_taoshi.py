"""Taoshi positions (three-player tables), records and replay, advice
(hanasim.position.taoshi).

Rounds played by the game's own kernel (``games.taoshi.round.play_round``) and the same rounds
played through positions making the kernel's own choices (its random stream replayed) end
with the same scores; records written from kernel rounds replay to them; an illegal move is
one line.
"""
import json

import numpy as np
import pytest

from hanasim import position as P
from hanasim.cli import main
from hanasim.position import record as R
from hanasim.position.replay import replay

import position_helpers as H


def _players(seed):
    return [(seed >> k) & 1 for k in range(3)], [(seed >> (k + 3)) & 1 for k in range(3)]


@pytest.mark.parametrize("rules", [{}, {"botta_teyaku": "paid", "bakefuda": "in_sets"},
                                   {"burden": "proportional", "dekiyaku": "none",
                                    "reds_overlap": "no"}])
def test_taoshi_positions_end_as_the_kernel(rules):
    g = P.game("taoshi", rules)
    claims = 0
    for seed in list(range(80)) + [302, 357]:  # 302, 357: a botta is claimed
        cards, claim = _players(seed) if seed < 80 else ([1, 1, 1], [1, 1, 1])
        kernel, pos, actions, _ = H.taoshi_round(g.adapter, seed, cards, claim)
        assert pos.result() == kernel, seed
        claims += any(a.kind == "expose" and a.yes for a in actions)
        if seed >= 80 and not rules:
            assert pos.data["botta"] and sum(kernel) == 0
    assert claims > 20


def _kernel_record(g, seeds):
    rounds, points = [], []
    dealer = 0
    for seed in seeds:
        kernel, pos, actions, deal = H.taoshi_round(g.adapter, seed, *_players(seed))
        rounds.append(R.round_json(g, dealer + 1, *deal, actions))
        pts = [0, 0, 0]
        for s, v in enumerate(kernel):
            pts[(dealer + s) % 3] = v
        points.append(pts)
        dealer = H.next_dealer(g, pos, dealer)
    return R.record_json(g, rounds, g.rules_given), points


def test_replay_of_kernel_rounds_gives_their_scores(tmp_path):
    g = P.game("taoshi")
    rec, points = _kernel_record(g, [5, 6, 7, 302])
    path = tmp_path / "t.json"
    R.write(path, rec)
    df = replay(R.load(path)).points
    names = ["player 1", "player 2", "player 3"]
    for i, pts in enumerate(points, 1):
        got = df[df["round"] == str(i)].set_index("player")["points"]
        assert [got[p] for p in names] == pts
    totals = df[df["round"] == "total"].set_index("player")["points"]
    assert [totals[p] for p in names] == [sum(p[k] for p in points) for k in range(3)]


def test_illegal_move_in_a_record_is_one_line(tmp_path, capsys):
    g = P.game("taoshi")
    rec, _ = _kernel_record(g, [8, 9])
    rnd = rec["rounds"][1]
    k = next(i for i, a in enumerate(rnd["actions"]) if "play" in a)
    other = rnd["hands"][2][0]
    rnd["actions"][k] = {"play": other}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", "taoshi", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"round 2, turn 1 (player {rnd['dealer']}, the dealer)" in err
    assert f"{other} is not in the hand" in err and err.count("\n") == 1


def test_taoshi_cards_and_bad_positions():
    g = P.game("taoshi")
    assert g.code(g.card("6cl")) == "6cl" and g.card("12CO") == 44
    cards = [g.code(c) for c in range(48)]
    hands = [cards[0:7], cards[7:14], cards[14:21]]
    with pytest.raises(P.PositionError, match="four cards of one number on the field"):
        g.deal(hands, cards[24:30], cards[21:24] + cards[30:])  # 7co..8cl: four 7s
    with pytest.raises(P.PositionError, match="not a card of the mekurifuda deck"):
        g.deal(hands, cards[21:27], cards[27:] + ["11b"])
    with pytest.raises(P.PositionError, match="the stock 14 at the deal"):
        P.game("taoshi", {"players": 4}).deal(hands, cards[21:27], cards[27:])


@pytest.mark.parametrize("seed,moves", [(12, 0), (13, 5)])
def test_taoshi_advice_never_depends_on_the_hidden_cards(seed, moves):
    """The other two hands (less claimed cards) and the pile permuted among their places
    give the same advice."""
    from hanasim.position.core import Position, bits, mask
    from hanasim.position.positions import position_from_json

    g = P.game("taoshi")
    rec, _ = _kernel_record(g, [seed])
    r = rec["rounds"][0]
    pj = dict(game="taoshi", hands=r["hands"], field=r["field"], pile=r["pile"],
              actions=r["actions"][:moves])
    _, pos = position_from_json(pj, None, {}, None, P.game)
    assert not pos.is_over()
    want = P.advise(pos, samples=24, seed=5)
    me = pos.seat
    d = pos.data
    st, order = d["st"], d["order"]
    top = int(st[7])
    others = [s for s in range(3) if s != me]
    hidden = [c for s in others for c in bits(st[s]) if not int(st[9 + s]) >> c & 1]
    hidden += [int(c) for c in order[top + (d["pending"] is not None):]]
    rng = np.random.default_rng(seed)
    for _ in range(3):
        perm = list(rng.permutation(hidden))
        st2, order2 = st.copy(), order.copy()
        i = 0
        for s in others:
            keep = [c for c in bits(st[s]) if int(st[9 + s]) >> c & 1]
            k = len(bits(st[s])) - len(keep)
            st2[s] = mask(perm[i:i + k] + keep)
            i += k
        order2[top + (d["pending"] is not None):] = perm[i:]
        got = P.advise(Position(pos.game, dict(d, st=st2, order=order2)), samples=24,
                       seed=5)
        assert got.actions == want.actions
        np.testing.assert_array_equal(got.values, want.values)
        assert got.chosen == want.chosen


def test_advise_cli_taoshi(tmp_path, capsys):
    g = P.game("taoshi")
    rec, _ = _kernel_record(g, [14])
    r = rec["rounds"][0]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(dict(game="taoshi", hands=r["hands"], field=r["field"],
                                    pile=r["pile"], actions=r["actions"][:2])))
    assert main(["advise", "taoshi", "--position", str(path), "--samples", "8"]) == 0
    assert "the lookahead would take" in capsys.readouterr().out
