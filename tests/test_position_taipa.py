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
from hanasim.position import core
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
    with pytest.raises(P.PositionError, match="(?i)not a card of the taipa deck"):
        g.deal([h0, h1], field, pile + ["11b"])


def _kernel_record(g, seeds, coins):
    """A record of kernel rounds (each later round's first player the one with fewer coins,
    equal coins the other player: ``tie_first=alternate``), and each player's coins won by
    round, the coins carried (``coins.payment``)."""
    rounds, points = [], []
    have = [coins, coins]
    first = 0
    for i, seed in enumerate(seeds):
        policy, decide = PLAYS[seed % 4]
        if i:
            first = (0 if have[0] < have[1] else 1) if have[0] != have[1] else first ^ 1
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


# ------------------------------------------------------------ advice
def _position_json(g, seed, moves):
    """A Taipa round of a kernel record (seed), as a position after ``moves`` actions."""
    rec, _ = _kernel_record(g, [seed], 10)
    r = rec["rounds"][0]
    return dict(game="taipa", hands=r["hands"], field=r["field"], pile=r["pile"],
                actions=r["actions"][:moves])


@pytest.mark.parametrize("moves", [0, 3])
def test_taipa_advice_never_depends_on_the_hidden_cards(moves):
    """The opponent's hand and the pile permuted among themselves (the actions taken so far
    kept legal) give the same advice, same seed."""
    from hanasim.position.positions import position_from_json

    g = P.game("taipa")
    base = _position_json(g, 51, moves)
    _, pos = position_from_json(base, "taipa", {}, None, P.game)
    while pos.phase != "play":  # a moment the cards alone give
        pos = pos.apply(pos.legal_actions()[0])
    want = P.advise(pos, samples=24, seed=5)
    assert len(want.actions) == len(pos.legal_actions())
    me = pos.seat
    tried = 0
    rng = np.random.default_rng(3)
    for _ in range(30):
        # the hidden cards now: the other hand and the undrawn pile, as the position has them
        hands = [[g.code(c) for c in h] for h in pos.hands()]
        pile = [g.code(c) for c in pos.pile_left()]
        hidden = hands[1 - me] + pile
        rng.shuffle(hidden)
        k = len(hands[1 - me])
        hands[1 - me], pile = hidden[:k], hidden[k:]
        cap = [[g.code(c) for c in p] for p in pos.piles()]
        field = [g.code(c) for c in pos.field()]
        _, pos2 = position_from_json(dict(hands=hands, field=field, pile=pile, captured=cap),
                                     "taipa", {}, None, P.game)
        if pos2.phase != pos.phase:
            continue
        got = P.advise(pos2, samples=24, seed=5)
        assert got.actions == want.actions
        np.testing.assert_array_equal(got.values, want.values)
        assert got.chosen == want.chosen
        tried += 1
        if tried == 4:
            break
    assert tried == 4


def test_taipa_advice_on_a_decision():
    """After a turn that makes a yaku: agari or koi-koi, agari's value the coins it takes now
    (the same in every determinisation)."""
    g = P.game("taipa")
    # seat 0 holds three ribbons' worth: two ribbons captured, a third to take now
    # (a turn each played: five cards in each hand, two captures each)
    h0 = ["6r1", "2b1", "3b1", "4a1", "5a1"]
    h1 = ["2b2", "3b2", "4a2", "5a2", "6a2"]
    field = ["6r2", "1c1", "2c1", "3c1", "4c1", "5c1"]
    captured = [["4r1", "5r1"], ["1c2", "1b1"]]
    used = set(h0 + h1 + field + captured[0] + captured[1])
    pile = [g.code(c) for c in range(48) if g.code(c) not in used]
    pos = g.deal([h0, h1], field, pile[:12], captured)
    pos = pos.apply(P.play(g.card("6r1")))
    while pos.phase == "turned":
        pos = pos.apply(pos.legal_actions()[0])
    assert pos.phase == "koikoi" and pos.seat == 0
    adv = P.advise(pos, samples=16, seed=2)
    assert adv.actions == [core.koikoi(False), core.koikoi(True)]
    assert set(adv.values[:, 0]) == {1.0}  # agari: one ribbon yaku, one coin
    stopped = pos.apply(core.koikoi(False))
    assert stopped.result() == [1, -1]


def test_advise_cli_taipa(tmp_path, capsys):
    g = P.game("taipa")
    path = tmp_path / "p.json"
    path.write_text(json.dumps(_position_json(g, 61, 2)))
    assert main(["advise", "taipa", "--position", str(path), "--samples", "8"]) == 0
    out = capsys.readouterr().out
    assert "the lookahead would take" in out


# ------------------------------------------------------------ yaku_cards=choice
def _leave_round(g, seed, deck_size=48):
    """A kernel-played Taipa round (greedy players) under ``yaku_cards=choice``: (the
    kernel's result slots, the final position, its actions, the deal, the deck mask)."""
    res, pos, actions, dealt = H.taipa_round(g.adapter, seed, (1, 1), ((1, 0), (2, 3)),
                                             deck_size, first=seed % 2)
    deck = int(core.mask([c for h in dealt[0] for c in h] + list(dealt[1]) + list(dealt[2])))
    return res, pos, actions, dealt, deck


@pytest.mark.parametrize("rules", [{"yaku_cards": "choice"},
                                   {"yaku_cards": "choice", "exhausted_removal": "remove"}])
def test_the_cards_that_leave_play_are_the_kernels(rules):
    """Greedy's way at each leave decision gives the next deck the kernel's removals
    (``removals.round_removals``, greedy players) leave; a seat with one way is not asked."""
    from hanasim.games.taipa.removals import round_removals

    g = P.game("taipa", rules)
    a = g.adapter
    asked = checked = 0
    for seed in range(150):
        res, pos, actions, dealt, deck = _leave_round(g, seed, (48, 42, 36)[seed % 3])
        nd = a.next_deck(pos)
        asked += sum(x.kind == "leave" for x in actions)
        if nd is None:  # the game ends with the round (a player without coins)
            continue
        if res[TR.R_WINNER] < 0 and "exhausted_removal" not in rules:
            assert nd == deck
            continue
        removed = round_removals(np.uint64(deck), res, a.tb, np.array([1, 1], np.int64),
                                 np.int64(seed % 2), np.zeros(1, np.uint64),
                                 np.zeros(48, np.int64), np.zeros(64, np.int64))
        assert nd == deck & ~int(np.uint64(removed)), seed
        checked += 1
    assert asked > 20 and checked > 100


def _leave_record(g, seed):
    """Two rounds: a kernel-played one ending in a leave decision (its second way taken),
    and the next round dealt from the deck that leaves, played by the first legal action."""
    for s in range(seed, seed + 200):
        _, _, actions, dealt, _ = _leave_round(g, s)
        if any(x.kind == "leave" for x in actions):
            break
    k = next(i for i, x in enumerate(actions) if x.kind == "leave")
    p = g.adapter.from_cards(*dealt)
    for x in actions[:k]:
        p = p.apply(x)
    other = p.legal_actions()[1]
    acts = actions[:k] + [other]
    p = p.apply(other)
    while not p.is_over():
        acts.append(p.legal_actions()[0])
        p = p.apply(acts[-1])
    nd = [c for c in range(48) if g.adapter.next_deck(p) >> c & 1]
    order = [int(c) for c in np.random.default_rng(s).permutation(nd)]
    d2 = ([order[:6], order[6:12]], order[12:18], order[18:])
    p2 = g.adapter.from_cards(*d2, round_number=2)
    acts2 = []
    while not p2.is_over():
        acts2.append(p2.legal_actions()[0])
        p2 = p2.apply(acts2[-1])
    # round 2's first player: the one with fewer coins (equal: the other, tie_first=alternate)
    second = 1 if p.result()[0] < 0 else 2
    rounds = [R.round_json(g, 1, *dealt, acts), R.round_json(g, second, *d2, acts2)]
    return R.record_json(g, rounds, g.rules_given), other


def test_a_record_names_the_cards_that_leave_play(tmp_path, capsys):
    g = P.game("taipa", {"yaku_cards": "choice"})
    rec, other = _leave_record(g, 5)
    assert {"leave": [g.code(c) for c in other.cards]} in rec["rounds"][0]["actions"]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", "taipa", str(path)]) == 0
    capsys.readouterr()
    # a card kept that left play: the next round's cards are not what round 1 left
    bad = json.loads(json.dumps(rec))
    leave = next(x for x in bad["rounds"][0]["actions"] if "leave" in x)["leave"]
    r2 = bad["rounds"][1]
    r2["pile"][-1] = leave[0]
    path.write_text(json.dumps(bad))
    assert main(["replay", "taipa", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"round 2: its cards are not the ones round 1 left in play: {leave[0]} left play" \
        in err and err.count("\n") == 1
    # a card not in the pile: illegal, exit 1
    bad = json.loads(json.dumps(rec))
    acts = bad["rounds"][0]["actions"]
    k = next(i for i, x in enumerate(acts) if "leave" in x)
    stranger = next(c for c in bad["rounds"][1]["hands"][0])
    acts[k] = {"leave": [stranger] + acts[k]["leave"][1:]}
    path.write_text(json.dumps(bad))
    assert main(["replay", "taipa", str(path)]) == 1
    err = capsys.readouterr().err
    assert "round 1, the round's end" in err and "the yaku take" in err
    # the decision left out: the round stops before its end
    del acts[k]
    path.write_text(json.dumps(bad))
    assert main(["replay", "taipa", str(path)]) == 1
    assert "must leave next" in capsys.readouterr().err


def test_leave_advice_never_reads_the_unplayed_cards(tmp_path, capsys):
    """At the decision the values are each way's coins at the game's end (greedy's way
    first); the cards still unplayed (a hand, the pile) permuted among their places give the
    same values: the next deck is a set."""
    from hanasim.position.core import Position, bits, mask

    g = P.game("taipa", {"yaku_cards": "choice"})
    for seed in range(300):
        res, pos, actions, dealt, deck = _leave_round(g, seed)
        if any(x.kind == "leave" for x in actions):
            break
    p = g.adapter.from_cards(*dealt)
    for x in actions:
        if p.phase == "leave":
            break
        p = p.apply(x)
    want = P.advise(p, samples=12, seed=4)
    assert want.actions == p.legal_actions() and len(want.actions) > 1
    assert want.values.min() >= 0
    d = p.data
    st, order = d["st"], d["order"]
    top = int(st[TR.S_TOP])
    hidden = bits(st[0]) + bits(st[1]) + [int(c) for c in order[top:d["n"]]]
    assert len(hidden) > 1
    rng = np.random.default_rng(seed)
    for _ in range(2):  # the unplayed cards relabelled among themselves, wherever they lie
        swap = dict(zip(hidden, (int(c) for c in rng.permutation(hidden))))
        st2 = st.copy()
        st2[0], st2[1] = (mask([swap[c] for c in bits(st[s])]) for s in range(2))
        order2 = np.array([swap.get(int(c), int(c)) for c in order], dtype=order.dtype)
        got = P.advise(Position(p.game, dict(d, st=st2, order=order2)), samples=12, seed=4)
        assert got.actions == want.actions
        np.testing.assert_array_equal(got.values, want.values)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(dict(game="taipa", rules={"yaku_cards": "choice"},
                                    hands=[[g.code(c) for c in h] for h in dealt[0]],
                                    field=[g.code(c) for c in dealt[1]],
                                    pile=[g.code(c) for c in dealt[2]],
                                    actions=[x.to_json(g.code) for x in actions
                                             if x.kind != "leave"])))
    assert main(["advise", "taipa", "--position", str(path), "--samples", "6"]) == 0
    out = capsys.readouterr().out
    assert "to choose the ribbons and chaff that leave play" in out
    assert "game's end" in out and "out of play" in out


def test_an_identical_card_may_stand_for_another_that_leaves():
    """Cards of one suit and kind are identical in play: a leave naming one kept in place of
    one leaving is the same choice (legal, the same advice row); a bright never leaves so."""
    g = P.game("taipa", {"yaku_cards": "choice"})
    a = g.adapter
    tb = a.tb
    for seed in range(400):
        _, _, actions, dealt, _ = _leave_round(g, seed)
        if not any(x.kind == "leave" for x in actions):
            continue
        p = a.from_cards(*dealt)
        for x in actions:
            if p.phase == "leave":
                break
            p = p.apply(x)
        pile = int(a.settled(p)[TR.R_PILE + p.seat])
        for act in p.legal_actions():
            gone = set(act.cards)
            kept = [c for c in core.bits(pile & int(tb.kinds[2] | tb.kinds[3]))
                    if c not in gone]
            for c in kept:
                twin = next((x for x in gone if tb.group_of[x] == tb.group_of[c]
                             and any(tb.kinds[k] >> x & 1 and tb.kinds[k] >> c & 1
                                     for k in (2, 3))), None)
                if twin is None:
                    continue
                other = core.Action("leave", cards=tuple(sorted(gone - {twin} | {c})))
                assert other not in p.legal_actions() and p.is_legal(other)
                assert a.same_as_legal(p, other, p.legal_actions()) == act
                bright = core.bits(pile & int(tb.kinds[0]))
                if bright:
                    bad = core.Action("leave", cards=tuple(sorted(gone - {twin} | {bright[0]})))
                    assert not p.is_legal(bad)
                    with pytest.raises(P.PositionError, match="the yaku take"):
                        p.apply(bad)
                p.apply(other)
                return
    raise AssertionError("no leave with a card of a suit both kept and leaving")
