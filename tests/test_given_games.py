"""Conditional deals through every game's kernels: the kernels' conditional teyaku rates agree
with ``exact --given``; given cards change what they must (a certain teyaku, a field that
must hold a bright); without a condition nothing changes; the table says what it is
conditioned on."""
from __future__ import annotations

import pytest

from hanasim import api

ROUNDS = 20_000


def _row(df, q):
    r = df.set_index("quantity").loc[q]
    return float(r["estimate"]), float(r["ci_low"]), float(r["ci_high"])


def _exact_values(game, given, rules=None):
    """The exact conditional values of played deals, by quantity (one enumeration: 2-3 s)."""
    ex = api.exact(game, rules=rules, given=given)
    return ex[ex["condition"] == "no_misdeal"].set_index("quantity")["value"].astype(float)


def _exact(game, given, q, rules=None):
    return float(_exact_values(game, given, rules)[q])


@pytest.mark.parametrize("game, given, deals_only", [
    ("toppa", {"dealer": "1b,1r,1c1"}, True),
    ("toppa", {"dealer": "11b,8b", "field": "3b"}, False),
    ("baka", {"left": "2a,2r", "field": "2c1"}, True),
    ("baka", {"dealer": "9a,9r,10a"}, False),
])
def test_kernel_teyaku_rates_agree_with_exact_given(game, given, deals_only):
    """Every teyaku's pooled rate (per dealt hand) lies in the kernel's 99.9% interval around
    the exact conditional value (played deals)."""
    df = api.simulate(game, rounds=ROUNDS, seed=11, given=given, deals_only=deals_only,
                      threads=1)
    names = [q for q in df["quantity"] if q.startswith("teyaku.")]
    assert names
    exact = _exact_values(game, given)
    for q in names:
        est, lo, hi = _row(df, q)
        want = float(exact[q])
        assert lo - 1e-12 <= want <= hi + 1e-12, (q, est, want, lo, hi)
    assert any("Conditional deals" in n for n in df.attrs["notes"])
    assert df.attrs["given"] and (df["given"] == df.attrs["given"]).all()


def test_certain_teyaku_and_misdeal_under_given():
    """The dealer given three pine cards always holds a triplet in a played deal (the fourth
    pine card in his hand is a misdeal, redealt); exact says the same."""
    df = api.simulate("toppa", rounds=5000, seed=2, given={"dealer": "pine-b,1r,1c"},
                      deals_only=True, threads=1)
    ex = _exact("toppa", {"dealer": "pine-b,1r,1c"}, "teyaku.triplet.dealer")
    assert ex == 1.0
    est, lo, hi = _row(df, "teyaku.triplet")  # pooled over both hands: at least one half
    assert lo >= 0.5


@pytest.mark.parametrize("game, rules, given, quantity", [
    ("koikoi", {}, {"field": "1b"}, "field_brights.0"),
    ("koikoi", {}, {"field": "rain-man,moon"}, "field_brights.1"),
])
def test_field_given_a_bright_never_holds_none(game, rules, given, quantity):
    df = api.simulate(game, rounds=4000, seed=3, given=given, rules=rules, threads=1)
    assert _row(df, quantity)[0] == 0.0


def test_where_field_brights_in_koikoi():
    df = api.simulate("koikoi", rounds=4000, seed=3, where="field.brights>=1", threads=1)
    assert _row(df, "field_brights.0")[0] == 0.0
    assert any("rejection sampling" in n for n in df.attrs["notes"])
    assert df.attrs["where"] == "field.brights>=1"


STRONG = {  # a hand far better than average: the dealer (first player) must fare better, or
    # hold a teyaku (a yaku at the deal) more often; (rules, given, quantity, rounds, deals only)
    "toppa": ({}, {"dealer": "1b,3b,8b,11b,12b"}, "dealer.mean_score", 3000, False),
    "baka": ({}, {"dealer": "1b,3b,8b,11b,12b"}, "seat.dealer.mean_score", 3000, False),
    "koikoi": ({}, {"dealer": "1b,3b,8b,11b,12b"}, "dealer.mean_score", 3000, False),
    "bakappana": ({"players": 3}, {"dealer": "1b,3b,8b,11b,12b"}, "seat.dealer.mean_score",
                  3000, False),
    # Hachi-hachi's teyaku: a dealer given three pine cards holds a triplet (or more)
    "ishikari_toppa": ({"players": 4}, {"dealer": "1b,1r,1c1"}, "teyaku.triplet", 3000, False),
    "kushiro_toppa": ({"players": 3}, {"dealer": "1b,3b,8b,11b,12b"}, "dealer.mean_chips",
                      12000, False),
    "taoshi": ({"players": 3}, {"dealer": "6cl,7cl,8cl,9cl,2sw,2co,2cu"}, "dealer.mean_score",
               3000, False),
    # the crane, the curtain and the moon: Three Brights in the first player's hand at the deal
    "taipa": ({}, {"first_player": "1b,2b,3b"}, "deal.any_place_holds.three_brights", 3000,
              True),
}


@pytest.mark.parametrize("game", sorted(STRONG))
def test_every_game_deals_the_given_cards(game):
    """Given the dealer a strong hand, the dealer's mean score (a teyaku's rate) rises clearly
    above the unconditioned run's (the intervals are apart): the kernel deals the given
    cards."""
    rules, given, q, rounds, deals = STRONG[game]
    plain = api.simulate(game, rounds=rounds, seed=4, rules=rules, threads=1, deals_only=deals)
    cond = api.simulate(game, rounds=rounds, seed=4, rules=rules, given=given, threads=1,
                        deals_only=deals)
    names = set(plain["quantity"])
    assert q in names, sorted(n for n in names if "mean" in n)[:20]
    assert _row(cond, q)[1] > _row(plain, q)[2], (q, _row(cond, q), _row(plain, q))
    assert "given" not in plain.attrs and cond.attrs["given"]


def test_conditioned_runs_say_so_in_compare_sweep_and_the_store(tmp_path):
    from hanasim import store

    cmp = api.compare("toppa", rounds=2000, seed=1, rules={"par": [120, 110]},
                      given={"dealer": "11b"}, threads=1)
    assert cmp.attrs["given"] == "dealer=11b"
    assert any("Conditional deals" in n for n in cmp.attrs["notes"])
    sw = api.sweep("toppa", rules={"par.dealer": "110:120:10"}, rounds=2000, seed=1,
                   where="dealer.brights>=2", threads=1)
    assert sw.attrs["where"] == "dealer.brights>=2"
    assert any("rejection sampling" in n and "27." in n for n in sw.attrs["notes"])
    df = api.simulate("toppa", rounds=2000, seed=1, given=["dealer=rain-man"], threads=1)
    run_id = store.save_run(df, tmp_path)
    back = store.load_run(run_id, tmp_path)
    assert back.attrs["given"] == "dealer=11b" and back.attrs.get("tags") == ["given"]
    listed = store.list_runs(tmp_path).set_index("id")
    assert listed.loc[run_id, "tags"] == "given"


def test_misdeal_rate_given_three_of_a_month_on_the_field():
    """Bakappana (3 players: a field of 6) with three pine cards given to the field: the
    fourth is among the field's 3 free places with probability 3/45, a misdeal; the
    deals-only kernel's rate agrees with exact --given (1/15)."""
    given = {"field": "1b,1r,1c1"}
    ex = api.exact("bakappana", rules={"players": 3}, given=given).set_index("quantity")
    assert ex.loc["misdeal_rate", "fraction"] == "1/15"
    df = api.simulate("bakappana", rounds=60_000, seed=1, rules={"players": 3}, given=given,
                      deals_only=True, threads=1)
    est, lo, hi = _row(df, "misdeal_rate")
    assert lo <= 1 / 15 <= hi
