"""Ishikari Toppa's lookahead join or drop (hanasim.games.ishikari.lookahead) and the advice on
join, drop and chase positions (hanasim.position.advise_ishikari).

The one determinisation both call (``lookahead._join_sample``) plays the round the kernel plays
(its mean over random deals is the kernel's mean score of a seat that always joins); the advice
never reads the hidden cards; the kernel's join decision, in its own round on its own stream,
is the advice's choice at the same position and stream; the lookahead leaves the threshold
where the round says it should; the CLI prints the values and refuses a bad position in one
line.
"""
import io
import json

import numpy as np
import pandas as pd
import pytest

import hanasim
from hanasim import position as P
from hanasim.engine.join import JOIN_LOOKAHEAD, JOIN_THRESHOLD, PC_CARD, PC_JOIN, PC_JPARAM
from hanasim.engine.lookahead import new_scratch
from hanasim.games.ishikari import lookahead as LA
from hanasim.games.ishikari import round as R
from hanasim.games.bakappana import round as BR
from hanasim.policies import GREEDY, policy_id
from hanasim.position import advise_ishikari as AI
from hanasim.position.core import Action, Position

JOURNEY = __import__("pathlib").Path(__file__).parent / "data" / "journeys"
JOIN, DROP = Action("join", yes=True), Action("join", yes=False)


def _adapter(players=4, **rules):
    return P.game("ishikari_toppa", {"players": players, **rules}).adapter


def _mask(cards):
    return np.uint64(sum(1 << int(c) for c in cards))


def _deal(rng, n):
    """A random deal at a table of ``n`` (no four of a month on the field, as the kernel
    redeals): (hands by table seat, field, the 48 - 7 n - 6 undealt cards)."""
    while True:
        perm = [int(c) for c in rng.permutation(48)]
        field = perm[7 * n:7 * n + 6]
        fm = int(_mask(field))
        if not any((fm >> (4 * m)) & 15 == 15 for m in range(12)):
            return [perm[7 * s:7 * s + 7] for s in range(n)], field, perm[7 * n + 6:]


def _groups(hands, field):
    return np.array([_mask(h) for h in hands] + [_mask(field)], dtype=np.uint64)


def _pile(hands, undealt, out_seat):
    """A draw pile for the position (21 cards): the undealt cards and the hands of the seats
    that sit out (only its size matters until the join is over)."""
    return list(undealt) + [c for s in out_seat for c in hands[s]]


def test_join_sample_plays_the_kernels_round():
    """The mean of ``_join_sample`` over random deals, the dealer (first to speak) joining and
    the others by greedy's threshold, is the kernel's mean score of a dealer who always joins
    against greedy players (``fixed_dealer``: player 1 deals every round; no chase multiplier):
    the same join phase, pile, teyaku and play."""
    a = _adapter(4, chase="off")
    rng = np.random.default_rng(11)
    res = np.zeros(R.R_N, np.int64)
    vals = []
    out = np.zeros((1, 2))
    for i in range(20_000):
        hands, field, _ = _deal(rng, 4)
        AI.ishikari_join(a.tb, _groups(hands, field), np.int64(0), res, np.uint64(i), out)
        vals.append(out[0, 0])
    df = hanasim.simulate("ishikari_toppa", rounds=40_000, seed=5,
                          policy="greedy/join,greedy,greedy,greedy", fixed_dealer=True,
                          rules={"players": 4, "chase": "off"}).set_index("quantity")
    kernel = df.loc["seat.dealer.mean_score"]
    se_k = (kernel.ci_high - kernel.ci_low) / (2 * 3.2905)  # the table's 99.9% interval
    mine = np.mean(vals)
    se = np.hypot(np.std(vals) / np.sqrt(len(vals)), se_k)
    assert abs(mine - kernel.estimate) < 4 * se, (mine, kernel.estimate, se)


def _join_position(a, rng, said=()):
    """A position at the join: a random deal, the first seats' answers ``said``."""
    n = a.table
    hands, field, undealt = _deal(rng, n)
    pos = a.from_cards(hands, field, _pile(hands, undealt, range(3, n)))
    for yes in said:
        pos = pos.apply(Action("join", yes=yes))
    return pos, hands, field, undealt


@pytest.mark.parametrize("players,said", [(4, ()), (5, (True, False)), (6, (True, True, True))])
def test_join_advice_never_reads_the_hidden_cards(players, said):
    """The other seats' hands and the undealt cards permuted among their places (the seats
    that spoke keep their answers): the same values and choice."""
    a = _adapter(players)
    rng = np.random.default_rng(players)
    for _ in range(3):
        pos, hands, field, undealt = _join_position(a, rng, said)
        assert pos.phase == "join"
        me = pos.seat
        want = P.advise(pos, samples=48, seed=3)
        assert want.actions[0] in (JOIN, DROP) and set(want.actions) == {JOIN, DROP}
        hidden = [c for s in range(players) if s != me for c in hands[s]] + list(undealt)
        for _ in range(3):
            perm = [int(c) for c in rng.permutation(hidden)]
            hands2 = []
            for s in range(players):
                if s == me:
                    hands2.append(hands[s])
                else:
                    hands2.append(perm[:7])
                    perm = perm[7:]
            d = dict(pos.data, groups=_groups(hands2, field))
            got = P.advise(Position(pos.game, d), samples=48, seed=3)
            assert got.actions == want.actions and got.chosen == want.chosen
            np.testing.assert_array_equal(got.values, want.values)


def test_a_chase_is_worth_nothing_within_the_round():
    """Three have joined: the seat asked may only chase, which changes the next round's
    payments alone; both answers are 0 in every determinisation and the threshold's stands."""
    a = _adapter(5)
    pos, hands, _, _ = _join_position(a, np.random.default_rng(2), (True, True, True))
    assert "chases" in a.join_words(pos)
    adv = P.advise(pos, samples=16, seed=1)
    assert not adv.values.any() and adv.chosen == 0
    greedy = R.join_strength(_mask(hands[3]), a.tb) >= LA.JOIN_DEFAULT_K
    assert adv.actions[0] == (JOIN if greedy else DROP)


def _look_context(tb, res):
    return (tb, res, new_scratch(LA.ST_N, 48, R.ACTIVE))


@pytest.mark.parametrize("players", [4, 6])
def test_kernel_join_is_the_advice_choice_on_its_stream(players):
    """The round kernel's join phase (``round.join_table``) with a lookahead:K player at
    seat ``me`` (the seats before it by greedy's threshold, drawing nothing): its answer is
    the advice's choice at the same position with the stream the kernel had there (the play
    stream right after the deal), K determinisations."""
    a = _adapter(players)
    tb = a.tb
    k = 24
    seen = set()
    for seed in range(60):
        me = seed % 3
        pol = np.zeros((players, 4), dtype=np.int64)
        pol[:, PC_CARD] = GREEDY
        pol[:, PC_JOIN] = JOIN_THRESHOLD
        pol[:, PC_JPARAM] = LA.JOIN_DEFAULT_K
        pol[me, PC_CARD] = policy_id(f"lookahead:{k}")
        pol[me, PC_JOIN] = JOIN_LOOKAHEAD
        rng = np.array([np.uint64(seed * 7919 + 1)], dtype=np.uint64)
        order = np.arange(48).astype(np.int8)
        groups = np.zeros(players + 1, dtype=np.uint64)
        res = np.zeros(R.R_N + 2, dtype=np.int64)
        BR.deal_round(rng, order, groups, tb.pattern, players, tb.cond)
        stream = int(rng[0])
        R.join_table(groups, tb, pol, 0, rng, res, _look_context(tb, res))
        ch = int(res[R.R_CHOICE + me])
        if ch not in (R.CH_JOIN, R.CH_DROP, R.CH_CHASE, R.CH_FORCED_OUT):
            continue  # forced in: not asked
        hands = [[c for c in range(48) if int(groups[s]) >> c & 1] for s in range(players)]
        field = [c for c in range(48) if int(groups[players]) >> c & 1]
        undealt = [c for c in range(48) if not int(np.bitwise_or.reduce(groups)) >> c & 1]
        pos = a.from_cards(hands, field, _pile(hands, undealt, range(3, players)))
        for s in range(me):  # the seats asked before it answer as they did
            if int(res[R.R_CHOICE + s]) != R.CH_FORCED_IN:
                pos = pos.apply(Action("join", yes=int(res[R.R_CHOICE + s]) in (R.CH_JOIN,
                                                                               R.CH_CHASE)))
        assert pos.phase == "join" and pos.seat == me
        adv = P.advise(pos, samples=k, seed=stream)
        took = adv.actions[adv.chosen].yes
        assert took == (ch in (R.CH_JOIN, R.CH_CHASE)), seed
        # the test kernel decides the same from the same stream
        assert bool(LA.lookahead_join(tb, groups, me, a.join_res(pos), np.uint64(stream),
                                      k)) == took
        seen.add((me, took, adv.actions[0].yes))
    # some joins and some drops, some of them against the threshold's choice
    assert {t for _, t, _ in seen} == {True, False}
    assert any(t != g for _, t, g in seen)


def _given_first(g, codes, rng):
    """A deal whose first speaker (the dealer) holds ``codes``, the rest random."""
    mine = [g.card(c) for c in codes]
    while True:
        rest = [int(c) for c in rng.permutation([c for c in range(48) if c not in mine])]
        hands = [mine] + [rest[7 * s:7 * s + 7] for s in range(3)]
        field = rest[21:27]
        fm = int(_mask(field))
        if not any((fm >> (4 * m)) & 15 == 15 for m in range(12)):
            return hands, field, rest[27:]


@pytest.mark.parametrize("codes,joins", [
    (["1b", "3b", "8b", "1r", "3r", "2r", "8a"], True),        # three brights, 95 points
    # an animal, a ribbon, five chaff: 20 points, no teyaku (seven chaff would be Hachi-hachi's
    # teyaku of 4 kan, which the other players pay)
    (["2a", "4c1", "6c1", "7c1", "9c1", "10r", "12c1"], False),
])
def test_a_clearly_strong_hand_joins_and_a_clearly_weak_one_drops(codes, joins):
    g = P.game("ishikari_toppa", {"players": 4})
    a = g.adapter
    rng = np.random.default_rng(4)
    for _ in range(3):
        hands, field, undealt = _given_first(g, codes, rng)
        pos = a.from_cards(hands, field, _pile(hands, undealt, [3]))
        adv = P.advise(pos, samples=1000, seed=2)
        assert adv.clearly_below(DROP if joins else JOIN)
        assert bool(LA.lookahead_join(a.tb, pos.data["groups"], 0, a.join_res(pos),
                                      np.uint64(3), 32)) == joins


def test_lookahead_leaves_the_threshold_where_the_round_says_so():
    """The lookahead leaves the threshold (card points plus teyaku value at least 40) where
    the round clearly says so: a hand of ribbons at exactly 40 points, which the threshold
    joins, loses points on average against two opponents who joined (they hold teyaku, paid
    by the others, and capture as much); over random first speakers the lookahead's answer
    agrees with the sign of the join's value (measured on an independent stream) far more
    often than the threshold's."""
    g = P.game("ishikari_toppa", {"players": 4})
    a = g.adapter
    rec = json.loads((JOURNEY / "ishikari_toppa_4.json").read_text())["rounds"][0]
    pos = g.deal(rec["hands"], rec["field"], rec["pile"])  # Aki, the dealer, speaks first
    pos = pos.apply(JOIN)  # Ben: 2r 4r 6r 7r 8a 9r 10r, 40 points, no teyaku
    ben = pos.data["groups"][1]
    assert R.join_strength(ben, a.tb) == 40  # the threshold joins
    adv = P.advise(pos, samples=2000, seed=9)
    assert adv.actions[0] == JOIN and adv.clearly_below(JOIN)
    assert not LA.lookahead_join(a.tb, pos.data["groups"], 1, a.join_res(pos), np.uint64(4),
                                 64)
    rng = np.random.default_rng(21)
    res = np.zeros(R.R_N, np.int64)
    agree_look = agree_thr = differ = 0
    out = np.zeros((800, 2))
    for i in range(150):
        hs, field, _ = _deal(rng, 4)
        groups = _groups(hs, field)
        thr = R.join_strength(groups[0], a.tb) >= LA.JOIN_DEFAULT_K
        look = bool(LA.lookahead_join(a.tb, groups, 0, res, np.uint64(i), 32))
        AI.ishikari_join(a.tb, groups, np.int64(0), res, np.uint64(10_000 + i), out)
        good = out[:, 0].mean() > 0
        agree_look += look == good
        agree_thr += thr == good
        differ += look != thr
    assert differ > 15 and agree_look > agree_thr + 15 and agree_look > 0.85 * 150


def test_advise_cli_at_a_join_prints_the_values(tmp_path, run_cli):
    rec = json.loads((JOURNEY / "ishikari_toppa_4.json").read_text())
    r = rec["rounds"][0]
    path = tmp_path / "join.json"
    path.write_text(json.dumps({"game": "ishikari_toppa", "hands": r["hands"],
                                "field": r["field"], "pile": r["pile"],
                                "actions": r["actions"][:1]}))
    res = run_cli("advise", "ishikari_toppa", "--position", path, "--samples", "200")
    assert res.code == 0, res.err
    assert "seat 1) to choose: join (after three have joined: chase) or not" in res.out
    assert "before the chase multiplier (dropping: 0" in res.out
    lines = {ln.split()[0]: ln.split() for ln in res.out.splitlines()[1:4]}
    assert float(lines["drop"][1]) == 0.0 and float(lines["join"][1]) < 0
    assert "the lookahead would take: drop" in res.out
    res = run_cli("advise", "ishikari_toppa", "--position", path, "--samples", "50",
                  "--format", "csv")
    df = pd.read_csv(io.StringIO(res.out))
    assert list(df.action) == ["join", "drop"] and df.lookahead.tolist() == [False, True]


def test_replay_advise_marks_the_join_decisions(run_cli):
    res = run_cli("replay", "ishikari_toppa", JOURNEY / "ishikari_toppa_4.json", "--advise",
                  "--samples", "64")
    assert res.code == 0, res.err
    rows = [ln for ln in res.out.splitlines() if " the deal " in ln]
    # Aki, Ben and Cho joined, Dai (forced out) chose not to chase
    assert any("Aki" in ln and "join" in ln and "drop" in ln for ln in rows), res.out
    assert any("Ben" in ln and "join" in ln and "drop" in ln for ln in rows), res.out


@pytest.mark.parametrize("change,code,words", [
    (lambda p: p.update(pile=p["pile"][:-1]), 2, "the draw pile holds 21 distinct cards"),
    (lambda p: p["hands"][1].__setitem__(0, p["hands"][0][0]), 2, "1r"),  # a card twice
    (lambda p: p.update(actions=[{"join": True}, {"play": "1r"}]), 1,
     "play 1r is not legal now: the dealer's right (seat 1) must say whether it joins"),
    (lambda p: p.update(actions=[{"join": True}] * 3 + [{"expose": True}]), 1,
     "must say whether it chases"),
])
def test_bad_join_positions_are_one_line(tmp_path, run_cli, change, code, words):
    """A position that cannot occur: exit 2; an action the rules do not allow there: exit 1
    (the CLI's codes); one line each, naming the problem."""
    r = json.loads((JOURNEY / "ishikari_toppa_4.json").read_text())["rounds"][0]
    p = {"game": "ishikari_toppa", "hands": r["hands"], "field": r["field"], "pile": r["pile"]}
    change(p)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(p))
    res = run_cli("advise", "ishikari_toppa", "--position", path, "--samples", "8")
    assert res.code == code and len(res.err.strip().splitlines()) == 1, res.err
    assert words in res.err and "Traceback" not in res.err
    res = run_cli("advise", "ishikari_toppa", "--position", JOURNEY / "ishikari_toppa_4.json",
                  "--samples", "1")
    assert res.code == 2 and "--samples 1: give 2 to 100000" in res.err


def test_a_threshold_join_keeps_the_lookahead_tables_of_before(heavy):
    """Only the lookahead JOIN changed: a lookahead card player joining by the threshold
    (``lookahead:2/threshold``) gives bit for bit the table ``lookahead:2`` gave before the
    lookahead join existed (tests/data/identity.json's entry, as it was recorded then), and the
    lookahead join (``lookahead:2``, its default) gives another."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    import make_identity as M

    case = next(c for c in M.cases()
                if c["id"] == "ishikari_toppa/players=4/lookahead:2,greedy,greedy,greedy/r30")
    before = {"counters": "902e2d4743d64689f90592fecaca14d8dc2994c663ad06cdc194badd8182de2e",
              "estimates": "cc90bb60e0181e5c0022ccd31c5b20224bd9517c6be6499fd3b1f6c4cce7fd92"}
    assert M.run(dict(case, policy="lookahead:2/threshold,greedy,greedy,greedy")) == before
    assert M.run(case)["counters"] != before["counters"]


def test_lookahead_join_rates_differ_from_the_thresholds(heavy):
    """A dealer playing lookahead:8 (player 1 deals every round) against greedy players: with
    the lookahead join it joins far less often than with the threshold's (about 0.29 against
    0.61 of rounds: most hands at 40 points lose to two opponents who joined) and scores
    more."""
    out = {}
    for join in ("threshold", "lookahead"):
        df = hanasim.simulate("ishikari_toppa", rounds=2000, seed=3, fixed_dealer=True,
                              policy=f"lookahead:8/{join},greedy,greedy,greedy",
                              rules={"players": 4}).set_index("quantity")
        out[join] = df
    thr, look = out["threshold"], out["lookahead"]
    rate = "seat.dealer.join_rate"
    assert look.loc[rate, "ci_high"] < thr.loc[rate, "ci_low"]
    assert look.loc[rate, "estimate"] > 0.1
    score = "seat.dealer.mean_score"
    assert look.loc[score, "estimate"] > thr.loc[score, "estimate"]


def test_the_play_kernel_compiles_no_join_lookahead(heavy, tmp_path):
    """A run without a lookahead player (its kernel compiled afresh, in a process of its own
    with an empty cache) compiles none of the join lookahead; a lookahead run compiles it."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import hanasim\n"
        "from hanasim.games.ishikari import lookahead as LA\n"
        "def n(f):\n"
        "    inner = getattr(f, '_inner', None)\n"
        "    return len(f.signatures) + (len(inner.signatures) if inner is not None else 0)\n"
        "hanasim.simulate('ishikari_toppa', rounds=50, seed=1, policy='greedy')\n"
        "print(n(LA._look_join), n(LA._join_sample))\n"
        "hanasim.simulate('ishikari_toppa', rounds=5, seed=1,\n"
        "                 policy='lookahead:2,greedy,greedy,greedy')\n"
        "print(n(LA._look_join), n(LA._join_sample))\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=Path(__file__).parent.parent)
    assert r.returncode == 0, r.stderr
    play, look = r.stdout.strip().splitlines()[-2:]
    assert play == "0 0" and look == "1 1"
