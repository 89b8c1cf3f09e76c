"""Write ``tests/data/identity.json``: fingerprints of every game's tables, for the engine refactor.

Run from the repository root with the code whose tables are the reference:

    python3 tests/make_identity.py            # every case
    python3 tests/make_identity.py --check    # compare instead of write (what the test does)
    python3 tests/make_identity.py --add GAME  # only the cases not yet recorded; the file's
                                                # entries are kept, asserted unchanged

Each case is one run through the public layer (the game's ``counters``, as ``hanasim.simulate``
calls it, and ``hanasim.simulate`` itself for the tidy table); its fingerprint is a SHA-256 of
the raw integer counters and one of the table's estimate column.  The tables must not move by a
bit when the session machinery moves into ``engine/``: same seed, same counters.

Cases cover every game, koi-koi's presets, Kushiro Toppa's 2-4 and Taoshi's 3-6 players,
random / greedy / a per-player mix, deals only, fixed dealer on and off, sessions cut off by the
end of the run, and one small lookahead case per game; Bakappana's 2-4 and Ishikari Toppa's 3-6
players with their rule variants (added after the refactor, from the code before their move to
the engine's interface v2).  Round counts stay small: the cost is
the kernels' compilation, and the suite compiles the same ones elsewhere (one lookahead kernel
per game at most).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data" / "identity.json"
SEED = 20261126
ROUNDS = 3001  # not a multiple of any session length used below
LOOK_ROUNDS = 30


def _case(game, policy, *, rules=None, preset=None, fixed_dealer=False, session_rounds=1,
          deals_only=False, rounds=ROUNDS, heavy=False):
    name = [game]
    if preset:
        name.append(preset)
    if rules:
        name += [f"{k}={v}" for k, v in sorted(rules.items())]
    name.append(policy)
    if fixed_dealer:
        name.append("fixed")
    if session_rounds > 1:
        name.append(f"s{session_rounds}")
    if deals_only:
        name.append("deals")
    name.append(f"r{rounds}")
    return dict(id="/".join(name), game=game, policy=policy, rules=rules or {}, preset=preset,
                fixed_dealer=fixed_dealer, session_rounds=session_rounds, deals_only=deals_only,
                rounds=rounds, heavy=heavy)


def cases() -> list[dict]:
    """Every case, in a fixed order.  ``heavy``: compiles a lookahead kernel that no CI test
    compiles (run with ``--full``); Toppa's is compiled by tests/test_lookahead.py anyway."""
    out = []
    # Toppa and Baka: sessions where the winner deals next, cut off by the end of the run
    # (Baka: games of 3 rounds, ROUNDS rounds cut the last one off; session_rounds 1 or 3)
    for game, mix, sess in (("toppa", "greedy,random", 8), ("baka", "greedy,random,random", 3)):
        for policy in ("random", "greedy", mix):
            out.append(_case(game, policy))
            out.append(_case(game, policy, session_rounds=sess))
        out.append(_case(game, "random", fixed_dealer=True))
        out.append(_case(game, "greedy", fixed_dealer=True, session_rounds=sess))
        out.append(_case(game, "random", deals_only=True))
        look = "lookahead:2,greedy" if game == "toppa" else "lookahead:2,greedy,greedy"
        out.append(_case(game, look, session_rounds=sess if game == "baka" else 4,
                         rounds=LOOK_ROUNDS,
                         heavy=game != "toppa"))
    # Kushiro Toppa: 2 to 4 at the table
    for players in (2, 3, 4):
        r = {"players": players}
        for policy in ("random", "greedy", ",".join((["greedy", "random"] * 2)[:players])):
            out.append(_case("kushiro_toppa", policy, rules=r))
        out.append(_case("kushiro_toppa", "random", rules=r, session_rounds=8))
        out.append(_case("kushiro_toppa", "greedy", rules=r, fixed_dealer=True))
    out.append(_case("kushiro_toppa", "random", rules={"players": 3}, deals_only=True))
    out.append(_case("kushiro_toppa", "lookahead:2,greedy,greedy", rules={"players": 3},
                     session_rounds=4, rounds=LOOK_ROUNDS, heavy=True))
    # Taoshi: 3 to 6 at the table
    for players in (3, 4, 5, 6):
        r = {"players": players}
        for policy in ("random", "greedy", ",".join((["greedy", "random"] * 3)[:players])):
            out.append(_case("taoshi", policy, rules=r))
        out.append(_case("taoshi", "random", rules=r, session_rounds=8))
        out.append(_case("taoshi", "greedy", rules=r, fixed_dealer=True))
    out.append(_case("taoshi", "random", rules={"players": 4}, deals_only=True))
    out.append(_case("taoshi", "lookahead:2,greedy,greedy,greedy", rules={"players": 4},
                     session_rounds=4, rounds=LOOK_ROUNDS, heavy=True))
    # Koi-koi: every preset (games of its own rounds: no session_rounds)
    for preset in ("game-cabinet-1997", "modern", "nintendo", "koikoi-japan"):
        for policy in ("random", "greedy", "greedy/continue2,random/stop"):
            out.append(_case("koikoi", policy, preset=preset))
        out.append(_case("koikoi", "greedy", preset=preset, fixed_dealer=True))
    out.append(_case("koikoi", "random", deals_only=True))
    out.append(_case("koikoi", "random", preset="modern", deals_only=True))
    out.append(_case("koikoi", "lookahead:2,greedy", preset="modern", rounds=LOOK_ROUNDS,
                     heavy=True))
    # Taipa: games of its own rounds
    for policy in ("random", "greedy", "greedy,random"):
        out.append(_case("taipa", policy))
    out.append(_case("taipa", "greedy", fixed_dealer=True))
    out.append(_case("taipa", "random", deals_only=True))
    out.append(_case("taipa", "lookahead:2,greedy", rounds=LOOK_ROUNDS, heavy=True))
    # Bakappana: 2 to 4 at the table, games of rounds_per_game rounds (12: ROUNDS rounds cut
    # the last game off); its 2-player deals and ends, its scorings and tie rules
    for players in (2, 3, 4):
        r = {"players": players}
        for policy in ("random", "greedy", ",".join((["greedy", "random"] * 2)[:players])):
            out.append(_case("bakappana", policy, rules=r))
    out.append(_case("bakappana", "greedy", rules={"players": 3}, fixed_dealer=True))
    out.append(_case("bakappana", "random", rules={"players": 3, "rounds_per_game": 1}))
    out.append(_case("bakappana", "random", rules={"players": 2, "two_player_deal": 10}))
    out.append(_case("bakappana", "greedy", rules={"players": 2, "scoring": "additive",
                                                    "two_player_end": "hands_empty"}))
    out.append(_case("bakappana", "random", rules={"players": 4, "chaff_points": 0,
                                                    "tie_dealer": "random"}))
    out.append(_case("bakappana", "random", rules={"players": 3}, deals_only=True))
    out.append(_case("bakappana", "lookahead:2,greedy,greedy", rules={"players": 3},
                     rounds=LOOK_ROUNDS, heavy=True))
    # Ishikari Toppa: 3 to 6 at the table, three play each round; its teyaku lists
    for players in (3, 4, 5, 6):
        r = {"players": players}
        for policy in ("random", "greedy", ",".join((["greedy", "random"] * 3)[:players])):
            out.append(_case("ishikari_toppa", policy, rules=r))
    out.append(_case("ishikari_toppa", "greedy/threshold5/expose,random/join,"
                     "greedy/threshold10,random", rules={"players": 4}))
    for r in ({"teyaku": "toppa"}, {"teyaku": "none"}, {"kan_points": 10}, {"chase": "off"},
              {"rounds_per_game": 1}, {"tie_dealer": "random", "chaff_points": 0}):
        out.append(_case("ishikari_toppa", "greedy", rules=dict(r, players=4)))
    out.append(_case("ishikari_toppa", "greedy", rules={"players": 5}, fixed_dealer=True))
    out.append(_case("ishikari_toppa", "random", rules={"players": 4}, deals_only=True))
    out.append(_case("ishikari_toppa", "lookahead:2,greedy,greedy,greedy", rules={"players": 4},
                     rounds=LOOK_ROUNDS, heavy=True))
    ids = [c["id"] for c in out]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return out


def _digest(chunks) -> str:
    h = hashlib.sha256()
    for c in chunks:
        h.update(c)
    return h.hexdigest()


def counters_digest(counters: dict) -> str:
    """SHA-256 of every counter array (name, dtype, shape, bytes) and every other entry's repr,
    in key order."""
    parts = []
    for key in sorted(counters):
        v = counters[key]
        parts.append(key.encode())
        if isinstance(v, np.ndarray):
            a = np.ascontiguousarray(v)
            parts += [str(a.dtype).encode(), repr(a.shape).encode(), a.tobytes()]
        else:
            parts.append(repr(v).encode())
    return _digest(parts)


def estimate_digest(df) -> str:
    """SHA-256 of the table's (quantity, estimate) pairs, the estimate as its float64 bytes."""
    q = df["quantity"].astype(str).tolist()
    e = df["estimate"].to_numpy(dtype=np.float64)
    return _digest([x.encode() + b"\0" for x in q] + [e.tobytes()])


def run(case: dict) -> dict:
    """The two fingerprints of one case."""
    import hanasim
    from hanasim import api
    from hanasim import rules as _rules
    from hanasim.games import get_game

    g = get_game(case["game"])
    rule_obj = _rules.make_rules(g.Rules, api._with_preset(g, case["rules"], case["preset"]))
    n = api.seated(g, rule_obj)
    _, pol = api._policies(case["policy"], n, g)
    _, exp = api._expose("always", n, g)
    c = g.counters(rule_obj, rounds=case["rounds"], seed=SEED, policy=pol, expose=exp,
                   session_rounds=case["session_rounds"], fixed_dealer=case["fixed_dealer"],
                   deals_only=case["deals_only"])
    df = hanasim.simulate(case["game"], case["rounds"], SEED, policy=case["policy"],
                          rules=case["rules"] or None, preset=case["preset"],
                          session_rounds=case["session_rounds"],
                          fixed_dealer=case["fixed_dealer"], deals_only=case["deals_only"],
                          progress=False)
    return dict(counters=counters_digest(c), estimates=estimate_digest(df))


def main(argv):
    check = "--check" in argv
    add = "--add" in argv
    only = [a for a in argv if not a.startswith("--")]
    want = json.loads(DATA.read_text()) if check or only or add else {}
    old = json.loads(json.dumps(want))  # a copy: the recorded entries as read
    bad = 0
    for case in cases():
        if only and not any(o in case["id"] for o in only):
            continue
        if add and case["id"] in old:  # recorded: never rewritten
            continue
        got = run(case)
        if check:
            ok = want.get(case["id"]) == got
            bad += not ok
            print(("ok   " if ok else "DIFF ") + case["id"], flush=True)
        else:
            want[case["id"]] = got
            print(case["id"], got["counters"][:12], got["estimates"][:12], flush=True)
    if add:  # a case added to the file must not move an existing entry
        assert all(want[k] == v for k, v in old.items()) and len(want) >= len(old)
    if not check:
        DATA.parent.mkdir(parents=True, exist_ok=True)
        DATA.write_text(json.dumps(want, indent=1, sort_keys=True) + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())
    sys.exit(main(sys.argv[1:]))
