"""One Ishikari Toppa round: Hachi-hachi's deal to every player at the table, join/drop with
chasing, teyaku, then a 3-player Bakappana round (the Ishikari Toppa rule page).

Table seats are relative to the dealer in turn order (seat 0 deals, seat k is k places to his
right); seat s is player ``(dealer + s) % players``.  The three active players play as seats
0, 1, 2 of a 3-seat round state (``engine.state``) in turn order: their *positions*.
"""
import numpy as np
from numba import types
from numba.extending import overload

from ...engine import state
from ...engine.bits import ZERO, lowest
from ...engine.jit import BY_TYPE, hot
from ...engine.lookahead import play_out, round_value, samples
from ...engine.rng import below, shuffle_range
from ...engine.settle import pile_points
from ...engine.join import (EXPOSE_LOOKAHEAD as EXPOSE_BY_LOOKAHEAD, JOIN_ALWAYS,
                            JOIN_LOOKAHEAD, JOIN_RANDOM, PC_CARD, PC_EXPOSE, PC_JOIN, PC_JPARAM)
from ...engine.teyaku import expose_step
from ..bakappana.round import deal_round  # noqa: F401  (the position API deals by it)
from .deal_where import deal_where
from ...policies import choose_expose
from . import hachihachi
from . import lookahead as LA

from .hands import (  # noqa: F401  (the round's names, re-exported)
    ACTIVE, P_PLAYERS, P_PAR, P_CHASE, P_TIE_RANDOM, P_FIXED_DEALER, P_GAME_ROUNDS, P_CHECKED,
    P_COMBINE, P_HACHIHACHI, P_KAN, P_DEALS_ONLY, P_LEN, R_PTS, R_SCORE, R_TEY_HELD,
    R_TEY_SCORED, R_ACT_SEAT, R_CHOICE, R_CHASERS, R_MULT, R_MISDEALS, R_N, CH_SEATED, CH_JOIN,
    CH_DROP, CH_FORCED_IN, CH_FORCED_OUT, CH_CHASE, Tables, join_strength, teyaku_value,
    hand_teyaku, swap_fours)


@hot(inline="always")
def wants_to_join(pol_row, hand, tb, rng):
    """The join decision by the policy row's rule (``engine.join``: join, random, thresholdK):
    the threshold joins when the hand's card points plus its teyaku value reach K.  A
    lookahead JOIN starts from the threshold's choice (``join_phase``)."""
    j = pol_row[PC_JOIN]
    if j == JOIN_ALWAYS:
        return True
    if j == JOIN_RANDOM:
        return below(rng, 2) == 1
    return join_strength(hand, tb) >= pol_row[PC_JPARAM]


@hot(inline="always")
def claim_hachihachi(st, tb, exp3, rng, res):
    """The active hands' Hachi-hachi teyaku, claimed by the expose choice (a lookahead
    player always claims: its lookahead values Toppa's teyaku step only)."""
    for k in range(ACTIVE):
        v, h = hachihachi.teyaku(st[k], tb.kind_masks)  # hand_teyaku's Hachi-hachi branch
        res[R_TEY_HELD + k] = h
        res[R_TEY_SCORED + k] = 0
        if h != 0 and (exp3[k] == EXPOSE_BY_LOOKAHEAD or choose_expose(exp3[k], rng)):
            res[R_TEY_SCORED + k] = v * tb.params[P_KAN]


@hot(inline="always")
def join_phase(groups, tb, pol, dealer, rng, res):
    """:func:`join_table` without a lookahead player (the position API, tests)."""
    return join_table(groups, tb, pol, dealer, rng, res, None)


@hot(inline="always")
def join_table(groups, tb, pol, dealer, rng, res, look):
    """Join-in / Drop-out (the rule page): from the dealer anticlockwise each player says join
    or drop; the first three to join play; once three have joined, the players still to speak
    are forced out but may chase (declare to join all the same); once all but three have
    dropped, the rest are forced in.  A lookahead JOIN player's answer is
    ``lookahead._look_join``'s (``look``: the lookahead context, or None: numba then compiles
    none of it).  Returns the number of chasers."""
    n = tb.params[P_PLAYERS]
    joined = 0
    dropped = 0
    chasers = 0
    for s in range(n):
        q = dealer + s
        q = q - n if q >= n else q
        if n == ACTIVE:
            ch = CH_SEATED
        elif joined < ACTIVE and dropped == n - ACTIVE:
            ch = CH_FORCED_IN
        else:
            yes = wants_to_join(pol[q], groups[s], tb, rng)
            if look is not None:  # noqa: SIM102  (pruned with None)
                if pol[q, PC_JOIN] == JOIN_LOOKAHEAD:
                    yes = LA._look_join(rng, groups, s, res, tb, yes,
                                        samples(pol[q, PC_CARD]), look)
            if joined == ACTIVE:
                ch = CH_CHASE if yes else CH_FORCED_OUT
            else:
                ch = CH_JOIN if yes else CH_DROP
        res[R_CHOICE + s] = ch
        if ch == CH_SEATED or ch == CH_JOIN or ch == CH_FORCED_IN:
            res[R_ACT_SEAT + joined] = s
            joined += 1
        elif ch == CH_CHASE:
            chasers += 1
        elif ch == CH_DROP:
            dropped += 1
    return chasers


@hot(inline="always")
def active_round(rng, order, groups, g3, order3, st, tb, pol, pol3, exp3, dealer, res):
    """The three active hands and the field into ``g3``, their players' policies into
    ``pol3``/``exp3``, and the draw pile: the inactive hands and the undealt cards, shuffled
    ("the non-active players place their hands face-down on top of the draw pile. The draw
    pile should then probably be shuffled", the Hachi-hachi rule page)."""
    n = tb.params[P_PLAYERS]
    used = groups[n]
    for k in range(ACTIVE):
        s = res[R_ACT_SEAT + k]
        q = dealer + s
        q = q - n if q >= n else q
        g3[k] = groups[s]
        used |= groups[s]
        pol3[k] = pol[q, PC_CARD]
        exp3[k] = pol[q, PC_EXPOSE]
    g3[ACTIVE] = groups[n]
    i = 0
    m = used
    while m:
        order3[i] = lowest(m)
        m &= m - np.uint64(1)
        i += 1
    m = ~used & np.uint64(0xFFFFFFFFFFFF)
    while m:
        order3[i] = lowest(m)
        m &= m - np.uint64(1)
        i += 1
    shuffle_range(rng, order3, 7 * ACTIVE + 6, 48)


@hot(inline="always")
def play_round(rng, order, order3, groups, g3, st, tb, pol, pol3, exp3, dealer, mult, res, look):
    """Deal, join/drop, teyaku and play one round; scores (times ``mult``, the chase
    multiplier) into ``res`` by active position."""
    res[R_MISDEALS] = deal_where(rng, order, groups, tb, tb.params[P_PLAYERS])
    play_dealt(rng, order, order3, groups, g3, st, tb, pol, pol3, exp3, dealer, mult, res, look)


@hot(inline="always")
def play_dealt(rng, order, order3, groups, g3, st, tb, pol, pol3, exp3, dealer, mult, res, look):
    """:func:`play_round` after the deal (``groups``, by ``deal_where``): the session's round
    deals first, for the play and the deals-only run at one inlined site of the deal."""
    res[R_CHASERS] = join_table(groups, tb, pol, dealer, rng, res, look)
    res[R_MULT] = mult
    active_round(rng, order, groups, g3, order3, st, tb, pol, pol3, exp3, dealer, res)
    if tb.params[P_HACHIHACHI]:
        swap_fours(rng, g3, order3)
    state.start(st, g3, ACTIVE, 7 * ACTIVE + 6)
    # Teyaku (claimed by the expose choice; 'Bakappana but with Teyaku'), paid by each other
    # active player as in Hachi-hachi ("paid to a player by each of their two opponents")
    if tb.params[P_HACHIHACHI]:
        claim_hachihachi(st, tb, exp3, rng, res)
    else:
        toppa_expose(st, tb, order3, rng, pol3, exp3, res, look, tb.toppa)
    play_out(st, ACTIVE, order3, rng, pol3, 0, tb.gscore, tb.ghigh, look)
    t_sum = res[R_TEY_SCORED] + res[R_TEY_SCORED + 1] + res[R_TEY_SCORED + 2]
    for k in range(ACTIVE):
        pts = pile_points(st[state.pile(ACTIVE, k)], tb.kind_masks, tb.kind_points)
        res[R_PTS + k] = pts
        res[R_SCORE + k] = mult * (pts - tb.params[P_PAR] + ACTIVE * res[R_TEY_SCORED + k]
                                   - t_sum)
    if tb.params[P_CHECKED]:
        check_round(st, res, tb.params)


def _expose(st, tb, order3, rng, pol3, exp3, res, look, toppa):
    expose_step(st, ACTIVE, 0, order3, rng, tb.teyaku, tb.month_masks, tb.kind_masks,
                tb.params[P_COMBINE], pol3, exp3, res, R_TEY_HELD, R_TEY_SCORED, tb.gscore,
                tb.ghigh, look)


def _expose_plain(st, tb, order3, rng, pol3, exp3, res, look, toppa):
    # look None written out: numba prunes expose_step's lookahead branch only for a None it
    # sees (here, a constant), not for an argument of this implementation's own compile
    expose_step(st, ACTIVE, 0, order3, rng, tb.teyaku, tb.month_masks, tb.kind_masks,
                tb.params[P_COMBINE], pol3, exp3, res, R_TEY_HELD, R_TEY_SCORED, tb.gscore,
                tb.ghigh, None)


def _no_expose(st, tb, order3, rng, pol3, exp3, res, look, toppa):
    # teyaku=none (Hachi-hachi's list is claimed before): nothing held or scored, as
    # expose_step leaves it with no rows; no kernel for none writes those slots, so they stay
    # new_work's zeros
    return None


def toppa_expose(st, tb, order3, rng, pol3, exp3, res, look, toppa):
    """Toppa's teyaku step (``engine.teyaku.expose_step``) on the active hands under Toppa's
    list; with ``toppa`` (``Tables.toppa``) None (the list is none here: Hachi-hachi's is
    claimed by :func:`claim_hachihachi`) no teyaku, as expose_step has it with no rows.
    Chosen by ``toppa``'s type when compiled (``hands.toppa_rows``): only a kernel for
    Toppa's list holds the step's code."""
    (_no_expose if toppa is None else _expose)(st, tb, order3, rng, pol3, exp3, res, look,
                                               toppa)


@overload(toppa_expose, **BY_TYPE)
def _toppa_expose_typed(st, tb, order3, rng, pol3, exp3, res, look, toppa):
    if isinstance(toppa, types.NoneType):
        return _no_expose
    return _expose_plain if isinstance(look, types.NoneType) else _expose


@hot
def check_round(st, res, params):
    """Checked mode: the hands empty, the field empty, every card in one pile, zero-sum."""
    seen = ZERO
    for k in range(ACTIVE):
        if st[k] != ZERO:
            raise AssertionError("a hand is not empty at the end of the round")
        if seen & st[state.pile(ACTIVE, k)]:
            raise AssertionError("a card is in two places")
        seen |= st[state.pile(ACTIVE, k)]
    if st[ACTIVE] != ZERO or seen != np.uint64(0xFFFFFFFFFFFF):
        raise AssertionError("a card was not captured")
    if res[R_SCORE] + res[R_SCORE + 1] + res[R_SCORE + 2] != 0:
        raise AssertionError("the round is not zero-sum")


@overload(round_value)
def _round_value(tables, st, seat, res):
    """A finished round's score for active position ``seat``, before the chase multiplier
    (a positive factor the lookahead's choices do not change)."""
    if isinstance(tables, types.BaseNamedTuple) and tables.instance_class is Tables:
        def value(tables, st, seat, res):
            pts = pile_points(st[state.pile(ACTIVE, seat)], tables.kind_masks,
                              tables.kind_points)
            t_sum = res[R_TEY_SCORED] + res[R_TEY_SCORED + 1] + res[R_TEY_SCORED + 2]
            return pts - tables.params[P_PAR] + ACTIVE * res[R_TEY_SCORED + seat] - t_sum
        return value

