"""One turn of Kushiro Toppa's play and the play's end, on the resumable state ``ks``
(``slots``): start the play, a turn (a hand card, then the top of the draw pile), the
Iku/Yoroshii bookkeeping after it, and the settlement of a finished play."""
from __future__ import annotations

import numpy as np

from ...engine.bits import ONE, ZERO, bit
from ...engine.jit import hot
from ...engine.play import capture
from ...policies import hand_card, take_high
from .. import toppa
from .lower import P_EXHAUSTED
from .slots import (END_EXHAUSTED, END_STOP, K_BEST, K_CALLS, K_DECISIONS, K_END, K_END_PILE,
                    K_FIELD, K_HELD, K_HITS, K_LAST, K_N_ALL, K_PA, K_POINTS, K_STOPPER, K_TOP,
                    K_TURNS, KS_N)


@hot(inline="always")
def _turn(pol, hand, field, pile, top, end, r, gscore, ghigh):
    """One turn: a hand card, then the top of the draw pile if any is left."""
    card = hand_card(pol, hand, field, r, gscore)
    hand &= ~bit(card)
    field, c1 = capture(card, field, take_high(pol, card, field, r, ghigh))
    c2 = ZERO
    if top < end:
        drawn = np.int64(pile[top])  # as the hand card: one compiled capture, not two
        field, c2 = capture(drawn, field, take_high(pol, drawn, field, r >> ONE, ghigh))
        top += 1
    return hand, field, c1 | c2, top


@hot
def start_play(ks, ha, hb, field, end, n_all):
    """The state before the first turn: the two hands, the field, the draw pile ``pile[:end]``
    (``pile[end:n_all]``: the cards set aside, unseen)."""
    for i in range(KS_N):
        ks[i] = ZERO
    ks[0] = ha
    ks[1] = hb
    ks[K_FIELD] = field
    ks[K_END] = np.uint64(END_EXHAUSTED)
    ks[K_END_PILE] = np.uint64(end)
    ks[K_N_ALL] = np.uint64(n_all)


@hot(inline="always")
def _end_turn(ks, cur, hand, field, cap, top, ym, yi, bigger):
    """Write ``cur``'s finished turn into ``ks``; returns (a new dekiyaku formed (``decision_on``),
    the pile's chips, its dekiyaku bits)."""
    ks[cur] = hand
    ks[K_FIELD] = field
    ks[K_TOP] = np.uint64(top)
    ks[K_PA + cur] |= cap
    ks[K_TURNS] += ONE
    if cap == ZERO:
        return False, np.int64(0), np.int64(0)
    v, h = toppa.score_pile(ks[K_PA + cur], ym, yi)
    hu = np.uint64(h)
    if bigger != 0:
        improved = v > np.int64(ks[K_BEST + cur])
    else:
        improved = (hu & ~ks[K_HELD + cur]) != ZERO
    ks[K_HELD + cur] |= hu
    ks[K_BEST + cur] = np.uint64(max(np.int64(ks[K_BEST + cur]), v))
    if improved:
        ks[K_DECISIONS] += ONE
    return improved, v, np.int64(h)


@hot(inline="always")
def _decide(ks, cur, go, v, h):
    """Iku (``go``) or Yoroshii for ``cur`` holding dekiyaku ``h`` worth ``v``; False: stopped."""
    if go:
        ks[K_CALLS + cur] += ONE
        ks[K_LAST] = np.uint64(cur + 1)
        return True
    ks[K_END] = np.uint64(END_STOP)
    ks[K_STOPPER] = np.uint64(cur + 1)
    ks[K_POINTS] = np.uint64(v)
    ks[K_HITS] = np.uint64(h)
    return False


@hot
def settle(ks, tb):
    """(end kind, stopper seat or -1, dekiyaku chips, their bits) of the finished play ``ks``:
    a stop, or hands exhausted (``exhausted``: last_caller pays the last to say Iku)."""
    end_kind = np.int64(ks[K_END])
    stopper = np.int64(ks[K_STOPPER]) - 1
    points = np.int64(ks[K_POINTS])
    hits = np.int64(ks[K_HITS])
    last = np.int64(ks[K_LAST]) - 1
    if end_kind == END_EXHAUSTED and tb.params[P_EXHAUSTED] != 0 and last >= 0:
        stopper = last
        points, hits = toppa.score_pile(ks[K_PA + last], tb.yaku_masks, tb.yaku_ints)
    return end_kind, stopper, points, hits


@hot
def play_value(ks, tb, seat):
    """The dekiyaku chips ``seat`` wins (or pays) in the finished play ``ks``: the lookahead's
    rollout value (the teyaku chips are settled before play, the same for every choice)."""
    _e, stopper, points, _h = settle(ks, tb)
    if stopper < 0:
        return 0.0
    return float(points if stopper == seat else -points)
