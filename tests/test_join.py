"""The shared join/drop phase (``engine.join``, Kushiro Toppa's and Taoshi's): the forced-in/out
rule against the texts' wording, seat by seat, and the JOIN part of a policy's name."""
import itertools

import numpy as np
import pytest

from hanasim.engine import join as J
from hanasim.policies import GREEDY, LOOKAHEAD, RANDOM


def speak(wants, active, force_in=True):
    """Plain Python: each seat in speaking order says what it wants unless forced: out once
    ``active`` have joined (Taoshi, Join/Drop Phase: 'as soon as three have joined, the
    undecided are forced out'), in once the undecided are as many as the places left ('as
    soon as all but three have dropped, the rest are forced in')."""
    joined = 0
    out = []
    for k, want in enumerate(wants):
        left = len(wants) - k
        if joined == active:
            ch = J.CH_FORCED_OUT
        elif force_in and left == active - joined:
            ch = J.CH_FORCED_IN
        else:
            ch = J.CH_JOIN if want else J.CH_DROP
        joined += ch in (J.CH_JOIN, J.CH_FORCED_IN)
        out.append(ch)
    return out


@pytest.mark.parametrize("n,active", [(3, 2), (4, 2), (4, 3), (5, 3), (6, 3)])
def test_forced_choice_is_the_rule_seat_by_seat(n, active):
    for wants in itertools.product((False, True), repeat=n):
        got = []
        joined = 0
        for k, want in enumerate(wants):
            ch = J.forced_choice(joined, n - k, active, True)
            if ch < 0:
                ch = J.CH_JOIN if want else J.CH_DROP
            joined += ch in (J.CH_JOIN, J.CH_FORCED_IN)
            got.append(ch)
        assert got == speak(wants, active), wants
        assert joined == active  # forced in/out: exactly ``active`` play, always


def test_without_forcing_in_too_few_may_join():
    """Kushiro Toppa's undecided=redeal: nobody is forced in (the round is dealt again)."""
    assert J.forced_choice(0, 2, 2, False) == -1
    assert J.forced_choice(0, 2, 2, True) == J.CH_FORCED_IN
    assert J.forced_choice(2, 2, 2, False) == J.CH_FORCED_OUT


def test_join_by_policy():
    rng = np.array([12345], dtype=np.uint64)
    assert J.join_by_policy(J.JOIN_ALWAYS, 99, 0, rng)
    assert J.join_by_policy(J.JOIN_THRESHOLD, 10, 10, rng)
    assert not J.join_by_policy(J.JOIN_THRESHOLD, 11, 10, rng)
    assert rng[0] == 12345  # neither draws
    draws = [J.join_by_policy(J.JOIN_RANDOM, 0, 0, rng) for _ in range(200)]
    assert rng[0] != 12345 and 60 < sum(draws) < 140


def test_parse_join():
    assert J.parse_join("join", "x", 10, 30) == (J.JOIN_ALWAYS, 10)
    assert J.parse_join("threshold", "x", 10, 30) == (J.JOIN_THRESHOLD, 10)
    assert J.parse_join("threshold30", "x", 10, 30) == (J.JOIN_THRESHOLD, 30)
    assert J.parse_join("lookahead", "x", 40, 300) == (J.JOIN_LOOKAHEAD, 40)
    with pytest.raises(ValueError, match="join threshold must be 0 to 30, got 31"):
        J.parse_join("threshold31", "x", 10, 30)
    for bad in ("random5", "sometimes", "join1"):
        with pytest.raises(ValueError, match="unknown join decision"):
            J.parse_join(bad, "x", 10, 30)
    assert J.default_join(RANDOM) == J.JOIN_RANDOM
    assert J.default_join(GREEDY) == J.JOIN_THRESHOLD
    assert J.default_join(LOOKAHEAD | 16 << 32) == J.JOIN_LOOKAHEAD


def test_both_games_read_their_join_part_alike():
    from hanasim.games.kushiro import decode_policies as kd, parse_kushiro_policy as kp
    from hanasim.games.taoshi import decode_policies as td, parse_taoshi_policy as tp

    k = kd([kp("greedy/stop/threshold7"), kp("random"), kp("greedy/stop/join")], [0, 0, 0])
    t = td([tp("greedy/threshold70"), tp("random"), tp("greedy/join")], [0, 0, 0])
    from hanasim.games import kushiro as K, taoshi as T
    assert list(k[:3, K.PC_JOIN]) == list(t[:3, T.PC_JOIN]) == [
        J.JOIN_THRESHOLD, J.JOIN_RANDOM, J.JOIN_ALWAYS]
    assert (k[0, K.PC_JPARAM], t[0, T.PC_JPARAM]) == (7, 70)
    for parse in (kp, tp):
        with pytest.raises(ValueError, match="needs a lookahead CARD"):
            parse("greedy/stop/lookahead" if parse is kp else "greedy/lookahead")
