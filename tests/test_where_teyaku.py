"""``--where SEAT.TEYAKU`` for the teyaku no conjunction of counts says, read by the game's own
teyaku kernel: Taoshi's (a hand's best teyaku, the bakefuda wild as the rules say) and Ishikari
Toppa's Hachi-hachi list (the best of each group).  The pilot's acceptance equals the exact
teyaku odds, every deal the kernels play holds the teyaku, and what a game cannot name is
refused in one line."""
import math

import numpy as np
import pytest
from numba import njit

import hanasim
from hanasim import conditions, rules as _rules
from hanasim.engine.rng import stream_state
from hanasim.games import get_game
from hanasim.games.ishikari.deal_where import deal_where
from hanasim.games.taoshi.round import play_round as taoshi_round
from hanasim.games.taoshi.rules import MAX_PLAYERS
from hanasim.games.taoshi.slots import PBUF, R_N, ST_N
from hanasim.given import GivenError
from hanasim.where_kernels import hachihachi_held, taoshi_held


def _setup(game, rules, where):
    g = get_game(game)
    r = _rules.make_rules(g.Rules, dict(rules))
    return g, r, conditions.check(g, None, where, [r], seed=1)


@pytest.mark.parametrize("game, rules, teyaku", [
    ("taoshi", {}, "four_reds"),
    ("taoshi", {}, "triplet"),
    ("taoshi", {}, "three_pairs"),
    ("taoshi", {}, "five_reds"),
    ("taoshi", {"bakefuda": "everywhere"}, "three_pairs"),
    ("taoshi", {"bakefuda": "everywhere"}, "four_of_a_kind"),
    ("taoshi", {"bakefuda": "no_number", "reds_overlap": "no"}, "four_reds_triplet"),
    ("ishikari_toppa", {}, "triplet"),
    ("ishikari_toppa", {}, "standing_triplet"),
    ("ishikari_toppa", {}, "sanzokuichi"),
    ("ishikari_toppa", {}, "red"),
    ("ishikari_toppa", {"players": 6}, "one_ribbon"),
])
def test_a_kernel_teyaku_is_accepted_as_often_as_the_exact_odds_say(game, rules, teyaku):
    """The pilot's share of the played deals whose dealer holds the teyaku, within its 99.9%
    interval of the exact rate (``hanasim exact``: the dealt hand's teyaku, no misdeal)."""
    _, _, cond = _setup(game, rules, f"dealer.{teyaku}")
    _, played, ok = next(iter(cond.pilot.values()))
    ex = hanasim.exact(game, rules={k: v for k, v in rules.items() if k != "players"} or None)
    p = float(ex[(ex.quantity == f"teyaku.{teyaku}") & (ex.condition == "no_misdeal")]
              .value.iloc[0])
    assert abs(ok / played - p) <= 3.29 * math.sqrt(p * (1 - p) / played), (ok, played, p)


@njit
def _taoshi_deals(tb, seed, n, out):
    """The round's deal (``round.play_round`` of a deals-only table: the deal, redealt while
    a hand lacks a teyaku --where names, and the hands' teyaku)."""
    rng = np.zeros(1, dtype=np.uint64)
    drng = np.zeros(1, dtype=np.uint64)
    drng[0] = stream_state(np.uint64(seed), np.uint64(0))
    order = np.arange(48).astype(np.int8)
    hands = np.zeros(MAX_PLAYERS + 1, dtype=np.uint64)
    pbuf = np.zeros(PBUF, dtype=np.int8)
    st = np.zeros(ST_N, dtype=np.uint64)
    res = np.zeros(R_N, dtype=np.int64)
    pol = np.zeros((MAX_PLAYERS, 8), dtype=np.int64)
    for d in range(n):
        taoshi_round(drng, rng, order, hands, pbuf, st, pol[0, :3], tb, pol, 0, res, None)
        out[d, :] = hands


@njit
def _ishikari_deals(tb, players, seed, n, out):
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = stream_state(np.uint64(seed), np.uint64(0))
    order = np.arange(48).astype(np.int8)
    groups = np.zeros(players + 1, dtype=np.uint64)
    for d in range(n):
        deal_where(rng, order, groups, tb, players)
        out[d, :players + 1] = groups


def test_every_taoshi_deal_played_holds_the_teyaku_named():
    """The kernel's round redeals until the dealer's best teyaku is four reds and the right's
    is a triplet; the seat not named is left alone (its four reds as
    often as a hand beside a four-reds hand has them, well under always)."""
    from hanasim.games.taoshi.lower import P_BAKE, P_OVERLAP_NO, P_READING, P_RED, lower
    from hanasim.games.taoshi.rules import TEYAKU

    g, r, cond = _setup("taoshi", {"players": 3}, "dealer.four_reds and right.triplet")
    tb = lower(r, deals_only=True)._replace(cond=cond.array(r))
    out = np.zeros((400, MAX_PLAYERS + 1), dtype=np.uint64)
    _taoshi_deals(tb, 3, 400, out)
    p = tb.params
    args = (np.uint64(p[P_RED]), np.uint64(p[P_BAKE]), p[P_READING], p[P_OVERLAP_NO], tb.values)
    four_reds, triplet = 1 << TEYAKU.index("four_reds"), 1 << TEYAKU.index("triplet")
    assert (taoshi_held(out[:, 0], *args) == four_reds).all()
    assert (taoshi_held(out[:, 1], *args) == triplet).all()
    assert (taoshi_held(out[:, 2], *args) == four_reds).mean() < 0.3


def test_every_ishikari_deal_played_holds_the_hachihachi_teyaku_named():
    from hanasim.decks import HANAFUDA
    from hanasim.games.ishikari import hachihachi, lower

    g, r, cond = _setup("ishikari_toppa", {"players": 4}, "dealer.triplet and left.red")
    tb = lower(r)._replace(cond=cond.array(r))
    out = np.zeros((300, 7), dtype=np.uint64)
    _ishikari_deals(tb, 4, 5, 300, out)
    kinds = np.array([HANAFUDA.kind_mask(k) for k in range(4)], dtype=np.uint64)
    names = hachihachi.NAMES
    assert ((hachihachi_held(out[:, 0], kinds) >> names.index("triplet")) & 1).all()
    assert ((hachihachi_held(out[:, 3], kinds) >> names.index("red")) & 1).all()
    assert not ((hachihachi_held(out[:, 1], kinds) >> names.index("triplet")) & 1).all()


def test_a_played_taoshi_table_is_conditioned():
    """Deals only: the teyaku rows pool the three seats, so four reds is at least a third."""
    df = hanasim.simulate("taoshi", rounds=600, seed=2, where="dealer.four_reds",
                          deals_only=True, threads=1)
    by = df.set_index("quantity")
    assert by.loc["teyaku.four_reds", "estimate"] >= 1 / 3
    assert any("the dealer holds the teyaku four reds" in n for n in df.attrs["notes"])


def test_a_deals_only_ishikari_table_is_conditioned():
    """Deals only (the deals-only branch of the session's round): every deal counted has the
    dealer's Hachi-hachi triplet, so the pooled triplet rate is at least a quarter of the four
    seats' hands."""
    df = hanasim.simulate("ishikari_toppa", rounds=400, seed=2, where="dealer.triplet",
                          deals_only=True, threads=1)
    by = df.set_index("quantity")
    rate = by.loc[[q for q in by.index if q.endswith("triplet")][0], "estimate"]
    assert rate >= 1 / 4, by
    assert any("the dealer holds the teyaku triplet" in n for n in df.attrs["notes"])


@pytest.mark.parametrize("game, rules, where, words", [
    ("taoshi", {}, "field.triplet", "the field holds no teyaku"),
    ("taoshi", {}, "dealer.four_reds>=1", "a teyaku is held or not"),
    ("taoshi", {}, "dealer.sanzokuichi", "no quantity 'sanzokuichi'"),
    ("ishikari_toppa", {}, "field.red", "the field holds no teyaku"),
    ("ishikari_toppa", {}, "dealer.seven_reds", "or a teyaku: triplet, standing_triplet"),
])
def test_a_teyaku_the_game_cannot_name_is_refused(game, rules, where, words):
    with pytest.raises(GivenError, match=words.replace("(", r"\(")):
        _setup(game, rules, where)


@pytest.mark.parametrize("args, words", [
    (["simulate", "taoshi", "--where", "field.four_reds"], "the field holds no teyaku"),
])
def test_cli_refuses_in_one_line(run_cli, args, words):
    r = run_cli(*args, "--rounds", 100, "--seed", 1, "--no-save")
    assert r.code == 2 and not r.out, r
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], r.err
