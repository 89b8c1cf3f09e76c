"""Taipa hanafuda (seed 002): the kernel against the plain-Python reference, hand-built cases,
invariants, options and the public layer."""
import numpy as np
import pytest

import naive_taipa as N
from hanasim.decks import TAIPA as D
from hanasim.games import taipa as T
from hanasim.policies import parse_policy
from hanasim.rules import make_rules


def tables(rules=None, **kw):
    return T.lower(make_rules(T.TaipaRules, rules or {}), **kw)


def pols(*names):
    return T.decode_policies([parse_policy(n) for n in names])


def kernel_game(seed, session, tb, policy, decide):
    out, r, reason, c0, c1, f, t = T.one_game(np.uint64(seed), session, 0, tb, policy, decide)
    return out[:r], reason, [c0, c1], f, t


def mask(cards):
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def same_game(seed, session, names, rules=None):
    """The kernel and the reference on one game, field by field; returns the reference's."""
    tb = tables(rules, checked=True)
    policy, decide = pols(*names)
    rows, reason, coins, first, turns = kernel_game(seed, session, tb, policy, decide)
    ref = N.play_game(seed, session, 0, list(policy), decide.tolist(), rules)
    rrounds, rreason, rcoins, rfirst, rturns = ref
    assert len(rows) == len(rrounds)
    for row, rd in zip(rows, rrounds):
        got = dict(winner=row[T.R_WINNER], score=row[T.R_SCORE], base=row[T.R_BASE],
                   exhausted=bool(row[T.R_EXHAUSTED]), turns=row[T.R_TURNS],
                   calls=[row[T.R_CALLS], row[T.R_CALLS + 1]], decisions=row[T.R_DECISIONS],
                   piles=[row[T.R_PILE], row[T.R_PILE + 1]], field=row[T.R_FIELD],
                   hands=row[T.R_HANDS], top=row[T.R_TOP], deck=row[T.R_DECK],
                   first=row[T.R_N], paid=row[T.R_N + 1], removed=row[T.R_N + 2])
        want = dict(winner=rd["winner"], score=rd["score"], base=rd["base"],
                    exhausted=rd["exhausted"], turns=rd["turns"], calls=rd["calls"],
                    decisions=rd["decisions"], piles=[mask(p) for p in rd["piles"]],
                    field=mask(rd["field"]), hands=mask(rd["hands"][0] + rd["hands"][1]),
                    top=rd["top"], deck=rd["deck"], first=rd["first"], paid=rd["paid"],
                    removed=rd["removed"])
        assert got == want
    assert (reason, coins, first, turns) == (rreason, rcoins, rfirst, rturns)
    return ref


POLICY_PAIRS = [("random", "random"), ("greedy", "random/continue"),
                ("greedy/threshold4", "random/stop"), ("random/continue3", "greedy")]
RULE_SETS = [None, dict(yaku_cards="first", tie_first="random"),
             dict(coin_cap="uncapped", start_coins=3, game_rounds=6),
             dict(short_deck="end_game", exhausted_removal="keep", last_turn="stop",
                  tie_first="same")]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_kernel_equals_reference(rules, full):
    n = 60 if full else 12
    for k, names in enumerate(POLICY_PAIRS):
        for session in range(n):
            same_game(1000 + k, session, names, rules)


def test_reference_sees_every_ending():
    """The compared games cover agari, exhausted rounds, koi-koi calls, capped payments,
    coin-outs and shrinking decks (else the comparison proves little)."""
    seen = set()
    for session in range(300):
        rounds, reason, coins, _, _ = N.play_game(7, session, 0, [0, 0], [[0, 0], [0, 0]],
                                                  dict(start_coins=3))
        seen.add(("reason", reason))
        for rd in rounds:
            seen.add("exhausted" if rd["exhausted"] else "agari")
            if max(rd["calls"]):
                seen.add("call")
            if rd["paid"] < rd["score"]:
                seen.add("capped")
            if rd["deck"] < 48:
                seen.add("shrunk")
    assert {"exhausted", "agari", "call", "capped", "shrunk", ("reason", 0),
            ("reason", 1)} <= seen
