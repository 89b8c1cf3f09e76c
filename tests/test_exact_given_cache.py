"""``hanasim.exact(..., given=...)`` keeps the tables it computed (hanasim.stats.
exact_given_cache): the same game, rules and cards are counted once per process, anything else
again; a caller changing its table changes nobody else's; the cache is bounded.  The count
itself is replaced by a small stand-in table (counting costs seconds), except in the first
test, where the kept table must be the one a fresh count gives."""
from __future__ import annotations

import pandas as pd
import pytest

import hanasim.conditions as conditions
from hanasim import api
from hanasim.stats import exact_given_cache


def _spy(monkeypatch, compute):
    exact_given_cache.clear()
    calls = []

    def spy(g, rules, given):
        calls.append((g.name, rules, given.text()))
        return compute(g, rules, given)

    monkeypatch.setattr(conditions, "exact_given", spy)
    return calls


@pytest.fixture
def counted(monkeypatch):
    """The tables computed (not taken from the cache); each a stand-in naming its inputs."""
    def stand_in(g, rules, given):
        df = pd.DataFrame({"game": [g.name] * 2, "quantity": ["misdeal_rate", "teyaku.any"],
                           "value": [0.25, 0.5], "rules": [repr(rules)] * 2})
        df.attrs.update(given=given.text(), notes=["a note"])
        return df

    yield _spy(monkeypatch, stand_in)
    exact_given_cache.clear()


def _same(a, b):
    pd.testing.assert_frame_equal(a, b)
    assert a.attrs == b.attrs


def test_the_same_table_is_counted_once_and_equals_a_fresh_count(monkeypatch):
    calls = _spy(monkeypatch, conditions.exact_given)
    a = api.exact("toppa", given=["dealer=1b"])
    b = api.exact("toppa", given={"dealer": "1b"})  # the same cards written otherwise
    assert len(calls) == 1
    _same(a, b)
    exact_given_cache.clear()  # counted afresh: the same table
    _same(api.exact("toppa", given=["dealer=1b"]), a)
    assert len(calls) == 2
    exact_given_cache.clear()


def test_other_rules_or_cards_or_games_are_counted_again(counted):
    api.exact("toppa", given=["dealer=1b"])
    api.exact("toppa", rules={"four_brights": 60}, given=["dealer=1b"])
    api.exact("toppa", given=["dealer=1b,2a"])
    api.exact("toppa", given=["field=1b"])
    api.exact("baka", given=["dealer=1b"])
    assert len(counted) == 5
    assert api.exact("toppa", rules={"four_brights": 60}, given=["dealer=1b"])["rules"][0] \
        == repr(counted[1][1])
    api.exact("toppa", preset=None, rules={"four_brights": 40}, given=["dealer=1b"])  # default
    api.exact("baka", given=["dealer=1b"])
    assert len(counted) == 5


def test_a_caller_changing_its_table_changes_no_one_elses(counted):
    first = api.exact("toppa", given=["dealer=1b"])
    keep = first.copy(deep=True)
    keep.attrs = {k: list(v) if isinstance(v, list) else v for k, v in first.attrs.items()}
    first.loc[0, "value"] = 99.0
    first.loc[0, "quantity"] = "changed"
    first.attrs["notes"].append("a note of the caller's")
    first.attrs["given"] = "changed"
    again = api.exact("toppa", given=["dealer=1b"])
    assert len(counted) == 1
    _same(again, keep)
    again.loc[1, "value"] = -1.0
    again.attrs["notes"].clear()
    _same(api.exact("toppa", given=["dealer=1b"]), keep)


def test_the_cache_keeps_only_the_latest_tables(counted, monkeypatch):
    monkeypatch.setattr(exact_given_cache, "MAX_TABLES", 2)
    for cards in ("1b", "2a", "3b"):
        api.exact("toppa", given=[f"dealer={cards}"])
    assert len(exact_given_cache._tables) == 2
    api.exact("toppa", given=["dealer=3b"])  # kept
    api.exact("toppa", given=["dealer=2a"])  # kept
    assert len(counted) == 3
    api.exact("toppa", given=["dealer=1b"])  # dropped first: counted again
    assert len(counted) == 4
