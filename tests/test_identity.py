"""Every game's tables stay bit-identical across the engine refactor (one session machinery in
``engine/``): the fingerprints in ``tests/data/identity.json`` were written by
``tests/make_identity.py`` from the code before it.  A difference means a table changed: a
port that is not a pure refactor (or, if a rule change was meant, a version bump and a
regenerated file).

The lookahead cases of games other than Toppa compile a lookahead kernel no other CI test
compiles: they run with ``--full`` (run them after porting a game)."""
import json

import pytest

import make_identity as M

CASES = M.cases()
WANT = json.loads(M.DATA.read_text())


def test_every_case_recorded():
    assert sorted(WANT) == sorted(c["id"] for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_identity(case, full):
    if case["heavy"] and not full:
        pytest.skip("compiles a lookahead kernel of its own: run with --full")
    assert M.run(case) == WANT[case["id"]]
