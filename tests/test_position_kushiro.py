"""Kushiro Toppa positions (two-player tables), records and replay, advice
(hanasim.position.kushiro).

Rounds played by the game's own kernel (``games.kushiro.round.play_round``) and the same
rounds played through positions making the kernel's own choices (its random stream replayed)
end with the same chips; records written from kernel rounds replay to them; an illegal move
is one line.
"""
import json

import pytest

from hanasim import position as P
from hanasim.cli import main
from hanasim.position import core
from hanasim.position import record as R
from hanasim.position.replay import replay

import position_helpers as H


def _rows(seed):
    """Per player: card (random, greedy), decision (random, stop, continue K, threshold T)
    and its parameter, join unused, swap (never, always, random), expose always or never."""
    return [[seed % 2, (0, 1, 2, 3)[seed % 4], 3, 0, 0, seed % 3, (seed % 2) ^ 1],
            [(seed // 2) % 2, (1, 3, 0, 2)[seed % 4], 5, 0, 0, (seed // 3) % 3,
             (seed // 3) % 2]]


@pytest.mark.parametrize("rules", [{}, {"teyaku_effect": "round_ends", "swap_pick": "lowest"},
                                   {"decision_on": "bigger", "last_card": "free",
                                    "exhausted": "last_caller"}])
def test_kushiro_positions_end_as_the_kernel(rules):
    g = P.game("kushiro_toppa", rules)
    calls = claims = swaps = 0
    for seed in range(100):
        kernel, pos, actions, _ = H.kushiro_round(g.adapter, seed, _rows(seed))
        assert pos.result() == kernel, seed
        calls += any(a.kind == "koikoi" and a.yes for a in actions)
        claims += any(a.kind == "expose" and a.yes for a in actions)
        swaps += any(a.kind == "swap" and a.yes for a in actions)
    assert calls > 5 and claims > 5 and swaps >= 1


def _kernel_record(g, seeds):
    rounds, points = [], []
    seed = seeds[0]
    dealer = 0
    while len(rounds) < len(seeds):
        kernel, pos, actions, deal = H.kushiro_round(g.adapter, seed, _rows(seed))
        seed += 1
        rounds.append(R.round_json(g, dealer + 1, *deal, actions))
        pts = [0, 0]
        for s, v in enumerate(kernel):
            pts[(dealer + s) % 2] = v
        points.append(pts)
        dealer = H.next_dealer(g, pos, dealer)
    return R.record_json(g, rounds, g.rules_given), points


@pytest.mark.parametrize("rules", [{}, {"teyaku_effect": "round_ends"}])
def test_replay_of_kernel_rounds_gives_their_chips(rules, tmp_path):
    g = P.game("kushiro_toppa", rules)
    rec, points = _kernel_record(g, list(range(11, 17)))
    path = tmp_path / "k.json"
    R.write(path, rec)
    df = replay(R.load(path)).points
    for i, pts in enumerate(points, 1):
        got = df[df["round"] == str(i)].set_index("player")["points"]
        assert [got["player 1"], got["player 2"]] == pts
    totals = df[df["round"] == "total"].set_index("player")["points"]
    assert [totals["player 1"], totals["player 2"]] == [sum(p[k] for p in points)
                                                        for k in range(2)]


def test_illegal_move_in_a_record_is_one_line(tmp_path, capsys):
    g = P.game("kushiro_toppa")
    rec, _ = _kernel_record(g, [21, 22])
    rnd = rec["rounds"][1]
    k = next(i for i, a in enumerate(rnd["actions"]) if "play" in a)
    other = rnd["hands"][1][0]
    rnd["actions"][k] = {"play": other}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", "kushiro_toppa", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"round 2, turn 1 (player {rnd['dealer']}, the dealer)" in err
    assert f"{other} is not in the hand" in err and err.count("\n") == 1


def test_bad_kushiro_positions_are_one_line():
    g = P.game("kushiro_toppa")
    cards = [g.code(c) for c in range(48)]
    # a hand dealt four of a month (1b 1r 1c1 1c2): the swap is asked first
    field = [cards[i] for i in (20, 21, 22, 24, 25, 26, 28, 29)]
    pile = [c for c in cards[20:] if c not in field]
    pos = g.deal([cards[:10], cards[10:20]], field, pile)
    assert pos.phase == "swap" and pos.seat == 0
    with pytest.raises(P.PositionError, match="the four's card that goes is one of 1b 1r"):
        pos.apply(P.swap(g.card("2a")))
    after = pos.apply(P.swap(g.card("1c1")))
    assert g.card("1c1") not in after.hands()[0] and after.pile_left()[0] == g.card("1c1")
    assert pile[0] in [g.code(c) for c in after.hands()[0]]
    with pytest.raises(P.PositionError, match="four cards of one month on the field"):
        g.deal([cards[4:14], cards[14:24]], cards[:4] + cards[24:28], cards[28:])
    with pytest.raises(P.PositionError, match="3 hands at a table of 3"):
        P.game("kushiro_toppa", {"players": 3}).deal([cards[:10], cards[10:20]], field, pile)
    with pytest.raises(P.PositionError, match="each hand holds 10"):
        g.deal([cards[:9], cards[10:20]], cards[20:28], cards[28:])


# ------------------------------------------------------------ advice
def _pos_json(g, seed, moves):
    rec, _ = _kernel_record(g, [seed])
    r = rec["rounds"][0]
    return dict(game="kushiro_toppa", hands=r["hands"], field=r["field"], pile=r["pile"],
                actions=r["actions"][:moves])


@pytest.mark.parametrize("seed,moves", [(41, 0), (41, 6), (43, 9)])
def test_kushiro_advice_never_depends_on_the_hidden_cards(seed, moves):
    """The cards the player to act cannot see (the other hand, less any claimed teyaku
    cards, and the undrawn pile) permuted among their places give the same advice."""
    import numpy as np

    from hanasim.position.core import Position, bits, mask
    from hanasim.position.positions import position_from_json

    g = P.game("kushiro_toppa")
    _, pos = position_from_json(_pos_json(g, seed, moves), "kushiro_toppa", {}, None, P.game)
    assert not pos.is_over()
    want = P.advise(pos, samples=24, seed=5)
    me = pos.seat
    d = pos.data
    ks, pile = d["ks"], d["pile"]
    top, end = int(ks[5]), int(ks[22])
    known = int(ks[7 + 1 - me])  # the other's claimed teyaku cards: seen
    hidden = [c for c in bits(ks[1 - me]) if not known >> c & 1] + [int(c) for c in
                                                                   pile[top:end]]
    rng = np.random.default_rng(seed)
    for _ in range(4):
        perm = list(rng.permutation(hidden))
        k = len(hidden) - (end - top)
        ks2, pile2 = ks.copy(), pile.copy()
        ks2[1 - me] = mask(perm[:k] + [c for c in bits(ks[1 - me]) if known >> c & 1])
        pile2[top:end] = perm[k:]
        got = P.advise(Position(pos.game, dict(d, ks=ks2, pile=pile2)), samples=24, seed=5)
        assert got.actions == want.actions
        np.testing.assert_array_equal(got.values, want.values)
        assert got.chosen == want.chosen


def test_kushiro_advice_on_iku(tmp_path, capsys):
    """A dekiyaku formed: Yoroshii's value is its chips in every determinisation; the
    advise command prints both choices."""
    g = P.game("kushiro_toppa")
    for seed in range(60):
        out = H.kushiro_round(g.adapter, seed, _rows(seed))
        if not any(a.kind == "koikoi" for a in out[2]):
            continue
        kernel, pos, actions, deal = out
        k = next(i for i, a in enumerate(actions) if a.kind == "koikoi")
        pj = dict(game="kushiro_toppa", hands=[[g.code(c) for c in h] for h in deal[0]],
                  field=[g.code(c) for c in deal[1]], pile=[g.code(c) for c in deal[2]],
                  actions=[a.to_json(g.code) for a in actions[:k]])
        path = tmp_path / "p.json"
        path.write_text(json.dumps(pj))
        from hanasim.position.positions import position_from_json

        _, p = position_from_json(pj, None, {}, None, P.game)
        adv = P.advise(p, samples=16, seed=1)
        assert adv.actions == [core.koikoi(False), core.koikoi(True)]
        assert len(set(adv.values[:, 0])) == 1 and adv.values[0, 0] > 0
        assert main(["advise", "kushiro_toppa", "--position", str(path), "--samples",
                     "8"]) == 0
        out = capsys.readouterr().out
        assert "koi-koi" in out and "stop" in out and "chips" in out
        return
    raise AssertionError("no Iku/Yoroshii decision in 60 rounds")
