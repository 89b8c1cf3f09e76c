"""A round from the deal to its settlement: the deal-time events (lucky hands, a field four), then
``play.play_from`` the state (turns, stop-or-continue after every new or bigger yaku), then the
settlement (``scoring``).  ``play_from`` plays from any state, which is how the lookahead's
rollouts and the tests' hand-built positions play.

A round (the 1997 text: "hand")
-------------------------------
* Deal: four cards to the opponent, four to the dealer, four to the field, twice (the 1997
  text); the 24 left are the draw pile.  Misdeals (redeal) and lucky hands follow the options
  (``misdeal``: the 1997 text names no misdeal; by default a four of a month in a hand or on the
  field is one).
* Turns alternate, the dealer first: a hand card, then the top of the draw pile, each capturing
  as in every fishing game (``engine.play.turn``; here ``turn``). The hand card must capture
  when one can (``must_match``, the 1997 text: "if he can't make a match, he discards one to the
  table"; the rule page's body frees the choice), and every policy, the lookahead's choices and
  its rollouts choose among those cards (``turn.playable``). After both cards the player's
  captured pile is scored; if it holds a new yaku (or, under ``decision_on=bigger``, more points
  than before) the player collects, ending the round, or continues ("koi-koi"); that choice is a
  policy (``policies.choose_continue``). Continuing forfeits the points unless the player
  collects later (the 1997 text: "he forfeits his points unless he can score ANOTHER meld before
  the cards run out").
* When both hands are empty the round is exhausted (``exhausted``).
* The collector's points: the yaku points counted (``yaku_counting``), x2 if they are 7 or more
  (``seven_double``), the koi-koi bonus (``koikoi_bonus``), then the field multiplier
  (``field_multiplier``, the 1997 text: x2 for one 20-point card dealt to the field, x3 for two...).
  Lucky hands, the field-four win and the dealer's privilege are fixed amounts, not multiplied
  (``scoring``).

Seats: seat 0 is the round's dealer (who plays first), seat 1 the opponent; players 0 and 1 own
the policies and ``dealer ^ seat`` is the player in a seat.
"""
import numpy as np

from ...engine import lookahead as engine_lookahead
from ...engine import state
from ...engine.bits import ZERO, bit, count, has_full_nibble
from ...engine.jit import hot
from ...policies import choose_expose
from . import lookahead as chooser
from .deal import field_four, lucky_bits
from .layout import (FIELD, K_AUGUST, K_BRIGHTS, KS_CALLS, KS_DECISIONS, KS_FMULT, KS_MONTH,
                     KS_N, KS_TURNS, KS_WILD, LOOK_OFF_LUCKY, LUCKY_STACK, LUCKY_WIN,
                     P_CHECKED, P_FIELD_MULT, P_LOOK_OFF, P_LUCKY, P_WILD, P_ZERO_SUM, R_CALLS,
                     R_CAPTURED, R_DECISIONS, R_FIELD, R_FIELD_BRIGHTS, R_HANDS, R_LUCKY, R_N,
                     R_SCORE, R_TOP, R_TURNS, R_WINNER, ST_BASE, WILD_AUGUST, WILD_ON)
from .play import play_from
from .rules import N_PLAYERS
from .scoring import field_multiplier, lucky_end, settle_round


@hot(inline="always")
def start(st, groups, first_undealt, month_mask, fmult):
    """The state right after the deal (``engine.state.start`` plus koi-koi's slots)."""
    state.start(st, groups, N_PLAYERS, first_undealt)
    for i in range(ST_BASE, KS_N):
        st[i] = ZERO
    st[KS_MONTH] = month_mask
    st[KS_FMULT] = fmult


@hot(inline="always")
def play_dealt(rng, order, groups, st, tb, policy, decide, expose, dealer, month_mask, res,
               look):
    """Play one dealt round and settle it into ``res`` (seats relative to the dealer).

    ``groups``: dealer hand, opponent hand, field; the draw pile is ``order[len(pattern):]``.
    Order of events: lucky hands are declared (seat 0 then 1: ``expose``), then a field four
    is resolved (``field_four``), then play."""
    p = tb.params
    for i in range(R_N):
        res[i] = 0
    res[R_WINNER] = -1
    nb = count(groups[FIELD] & tb.cards[K_BRIGHTS])
    res[R_FIELD_BRIGHTS] = nb
    l0 = lucky_bits(groups[0])
    l1 = lucky_bits(groups[1])
    res[R_LUCKY] = l0
    res[R_LUCKY + 1] = l1
    w = p[P_WILD]
    wild = (w == WILD_ON) | ((w == WILD_AUGUST) & ((groups[FIELD] & tb.cards[K_AUGUST]) != ZERO))
    start(st, groups, tb.pattern.shape[0], month_mask, field_multiplier(nb, p[P_FIELD_MULT]))
    st[KS_WILD] = np.uint64(wild)
    played = True
    mode = p[P_LUCKY]
    if mode == LUCKY_WIN or mode == LUCKY_STACK:
        # seat 0 declares first, seat 1 knowing it; a lookahead player decides by lookahead.
        # One call site for both seats, and d0 a plain bool rather than the literal False: a
        # literal argument compiles look_declare once more, for that literal.
        d0 = l0 < 0
        d1 = d0
        for s in range(N_PLAYERS):
            bits = l0 if s == 0 else l1
            if bits == 0:
                continue
            q = dealer ^ s
            if (look is not None and engine_lookahead.is_lookahead(policy[q])
                    and (p[P_LOOK_OFF] & LOOK_OFF_LUCKY) == 0):
                k = engine_lookahead.samples(policy[q])
                d = chooser.look_declare(st, order, rng, tb, s, k, look, s == 1, d0, l0)
            else:
                d = choose_expose(expose[q], rng)
            if s == 0:
                d0 = d
            else:
                d1 = d
        if d0 or d1:
            played = lucky_end(d0, d1, l0, l1, res, tb)
    if played and has_full_nibble(st[2]):
        played = field_four(st, order, res, tb)
    if played:
        resume_round(st, order, rng, tb, policy, decide, dealer, res, look)
    else:
        record(st, res)
        if p[P_CHECKED]:
            check_round(order, st, res, p[P_ZERO_SUM] != 0)


@hot
def resume_round(st, order, rng, tb, policy, decide, dealer, res, look):
    """Play the round from state ``st`` to its end and settle it into ``res`` (whose deal-time
    slots the caller has filled): the entry point for a round resumed from any state (a
    lookahead policy's determinisation, the tests' hand-built positions).  A call, not inlined:
    once a round, and it keeps the chunk kernel small to compile."""
    # the turn loop inlined here, not play_out's call: the play kernel ran 13% slower with the call
    # a forced turn only where a lookahead player plays (``look``; None: pruned)
    play_from(st, order, rng, tb, policy, decide, dealer, look, chooser, look)
    settle_round(st, tb, res)
    record(st, res)
    if tb.params[P_CHECKED]:
        check_round(order, st, res, tb.params[P_ZERO_SUM] != 0)


@hot
def record(st, res):
    """The end state's facts into ``res``.  A call, not inlined: once a round, from two sites
    (a round ended at the deal, a played round): inlined it was compiled twice."""
    res[R_CALLS] = np.int64(st[KS_CALLS])
    res[R_CALLS + 1] = np.int64(st[KS_CALLS + 1])
    res[R_DECISIONS] = np.int64(st[KS_DECISIONS])
    res[R_TURNS] = np.int64(st[KS_TURNS])
    res[R_CAPTURED] = np.int64(st[3])
    res[R_CAPTURED + 1] = np.int64(st[4])
    res[R_FIELD] = np.int64(st[2])
    res[R_TOP] = np.int64(st[5])
    res[R_HANDS] = np.int64(st[0] | st[1])


@hot
def check_round(order, st, res, zero_sum):
    """Checked mode: every card is in exactly one place (hands, field, piles, the undrawn
    pile); the settlement is zero-sum when the rules are."""
    places = (st[0], st[1], st[2], st[3], st[4])
    seen = ZERO
    for m in places:
        if seen & m:
            raise AssertionError("a card is in two places")
        seen |= m
    for i in range(np.int64(st[5]), order.shape[0]):
        b = bit(order[i])
        if seen & b:
            raise AssertionError("a card of the draw pile is also elsewhere")
        seen |= b
    if seen != np.uint64(0xFFFFFFFFFFFF):
        raise AssertionError("a card is in no place")
    if zero_sum:
        if res[R_SCORE] + res[R_SCORE + 1] != 0:
            raise AssertionError("the settlement is not zero-sum")
    elif res[R_SCORE] < 0 or res[R_SCORE + 1] < 0:
        raise AssertionError("a negative score under winner-only scoring")
