"""Taipa's advice values a decision with the kernel's own code (``games.taipa.lookahead``'s
``_turn_sample`` and ``_call_sample``, one determinisation each): on the
stream the kernel's lookahead player has, the advice's values (``position.advise_taipa``),
summed and compared as the kernel compares them (``engine.lookahead._add_gain``, ``_pick``),
choose what the kernel chose: the hand card and its take, the turned card's take, agari or
koi-koi.
"""
import numpy as np

from hanasim.engine.lookahead import Z, Z2_BY_M
from hanasim.games import taipa as TP
from hanasim.games.taipa.lookahead import _greedy_pick
from hanasim.policies import GREEDY, group_hand_card
from hanasim.position import advise_taipa as AT
from test_lookahead import taipa_position

TB = TP.lower(TP.TaipaRules())
COINS = np.array([TP.TEST_COINS, TP.TEST_COINS], dtype=np.int64)
ZERO = np.uint64(0)


def _position(hand0, hand1, field, pile0, pile1, draw):
    """A round state, seat 0 to move (``test_lookahead.taipa_position``'s), ``n`` typed as the
    kernel's."""
    st, order, n = taipa_position(hand0, hand1, field, pile0, pile1, draw)
    return st, order, np.int64(n)


def _matches(card, field):
    g = int(TB.group_masks[TB.group_of[card]])
    return [c for c in range(48) if (int(field) & g) >> c & 1]


def _capture(card, field, pick):
    """``engine.match.capture_one``: (field, captured)."""
    m = _matches(card, field)
    if not m:
        return int(field) | 1 << card, 0
    return int(field) & ~(1 << m[pick]), 1 << m[pick] | 1 << card


def _kernel_pick(out):
    """The kernel's choice from the values ``out[i, j]``: each choice's gain over choice 0
    summed in determinisation order (``_add_gain``), the largest mean gain beyond the bar
    (``_pick``)."""
    k, m = out.shape
    total, total2 = [0.0] * m, [0.0] * m
    for i in range(k):
        for j in range(1, m):
            d = out[i, j] - out[i, 0]
            total[j] += d
            total2[j] += d * d
    best, best_gain = 0, 0.0
    for j in range(1, m):
        mean = total[j] / k
        var = max(total2[j] / k - mean * mean, 0.0)
        if mean > best_gain and mean * mean * k > Z2_BY_M[m] * var:
            best, best_gain = j, mean
    return best


def _choices(hand, field):
    """The kernel's choices (``_look_turn``): greedy's (card, take) first, then every (hand
    card, take) in card order."""
    g = int(group_hand_card(GREEDY, hand, field, ZERO, TB.group_of, TB.group_masks, TB.weights))
    out = [(g, int(_greedy_pick(np.int64(g), field, TB)))]
    for c in range(48):
        if int(hand) >> c & 1:
            for i in range(max(len(_matches(c, field)), 1)):
                if (c, i) != out[0]:
                    out.append((c, i))
    return out


def test_hand_card_and_take_are_the_kernels():
    rng = np.random.default_rng(12)
    k = 8
    moved = 0
    for trial in range(40):
        c = [int(x) for x in rng.permutation(48)]
        st, order, n = _position(c[:4], c[4:8], c[8:14], c[14:20], c[20:26], c[26:])
        hand, _, a, _ = TP.lookahead_turn(TB, st, order, n, trial, k)
        ch = _choices(st[0], st[TP.S_FIELD])
        out = np.zeros((k, len(ch)))
        AT.taipa_play(TB, st, order, n, np.int64(0), np.uint64(trial), COINS,
                      np.array([x for x, _ in ch], dtype=np.int64),
                      np.array([i for _, i in ch], dtype=np.int64), out)
        card, pick = ch[_kernel_pick(out)]
        assert int(hand) == int(st[0]) & ~(1 << card)
        assert int(a) == _capture(card, st[TP.S_FIELD], pick)[1]
        moved += _kernel_pick(out) != 0
    assert moved >= 3  # the lookahead left greedy's choice in some of them


def test_turned_card_take_is_the_kernels():
    """A last hand card with one choice (no determinisation for it), then a turned card
    matching two or more field cards: the kernel's take on the stream it started with."""
    rng = np.random.default_rng(5)
    k = 8
    tried = moved = 0
    for trial in range(400):
        c = [int(x) for x in rng.permutation(48)]
        hand0, hand1, field, draw = c[:1], c[1:2], c[2:12], c[12:14]
        pile0, pile1 = c[14:31], c[31:]
        st, order, n = _position(hand0, hand1, field, pile0, pile1, draw)
        f, c1 = _capture(hand0[0], st[TP.S_FIELD], 0)
        if len(_matches(hand0[0], st[TP.S_FIELD])) > 1 or len(_matches(draw[0], f)) < 2:
            continue
        _, _, a, b = TP.lookahead_turn(TB, st, order, n, trial, k)
        assert int(a) == c1
        st2 = st.copy()
        st2[0] = 0
        st2[TP.S_FIELD] = f
        st2[TP.S_PILE] |= np.uint64(c1)
        greedy = int(_greedy_pick(np.int64(draw[0]), np.uint64(f), TB))
        picks = [greedy] + [i for i in range(len(_matches(draw[0], f))) if i != greedy]
        out = np.zeros((k, len(picks)))
        AT.taipa_turned(TB, st2, order, n, np.int64(0), np.uint64(trial), COINS,
                        np.int64(hand0[0]), np.uint64(c1), np.array(picks, dtype=np.int64),
                        out)
        assert int(b) == _capture(draw[0], f, picks[_kernel_pick(out)])[1]
        tried += 1
        moved += _kernel_pick(out) != 0
        if tried == 20:
            break
    assert tried == 20 and moved >= 1


def test_agari_or_koikoi_is_the_kernels():
    rng = np.random.default_rng(9)
    k = 16
    said = set()
    for trial in range(40):
        c = [int(x) for x in rng.permutation(48)]
        st, order, n = _position(c[:3], c[3:6], c[6:10], c[10:22], c[22:30], c[30:])
        go = TP.lookahead_continue(TB, st, order, n, trial, k)
        out = np.zeros((k, 2))
        AT.taipa_call(TB, st, order, n, np.int64(0), np.uint64(trial), COINS, out)
        total = total2 = 0.0
        for i in range(k):
            d = out[i, 1] - out[i, 0]
            total += d
            total2 += d * d
        mean = total / k
        var = max(total2 / k - mean * mean, 0.0)
        assert go == (mean > 0.0 and mean * mean * k > Z * Z * var)
        said.add(bool(go))
    assert said == {True, False}
