"""A round from the deal to its settlement: the deal-time events (lucky hands, a field four), then
:func:`play_from` a state (turns, stop-or-continue after every new or bigger yaku), then the
settlement.  ``play_from`` plays from any state, which is how the lookahead's rollouts and the
tests' hand-built positions play.

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

from ...engine import lookahead, state
from ...engine.bits import ZERO, bit, count
from ...engine.jit import hot
from ...policies import (CONTINUE, DEC_LOOKAHEAD, FORCED, GREEDY, LEGAL_BOTH, LEGAL_STOP,
                         choose_continue, choose_expose)
from . import hooks
from .deal import field_four, lucky_bits
from .layout import (ACT_ASK, ACT_CONTINUE, ACT_NONE, ACT_STOP, FIELD, K_AUGUST, K_BRIGHTS,
                     KS_BEST, KS_CALLS, KS_DECISIONS, KS_FMULT, KS_HITS, KS_LAST, KS_MONTH, KS_N,
                     KS_OVER, KS_TURNS, KS_WILD, LOOK_OFF_LUCKY, LUCKY_STACK, LUCKY_WIN,
                     OVER_EXHAUSTED, P_AFTER_PILE, P_CALLS_MAX, P_CHECKED, P_DECIDE_NEW,
                     P_FIELD_MULT, P_IMPROVE_STOP, P_KOIKOI_MIN, P_LAST_STOP, P_LOOK_OFF, P_LUCKY,
                     P_VIEW_CALLED, P_VIEW_PTS, P_VIEWING, P_WILD, P_ZERO_SUM, R_CALLS,
                     R_CAPTURED, R_DECISIONS, R_FIELD, R_FIELD_BRIGHTS, R_HANDS, R_LUCKY, R_N,
                     R_SCORE, R_TOP, R_TURNS, R_WINNER, ST_BASE, VIEW_WEATHER, WILD_AUGUST,
                     WILD_ON)
from .rules import N_PLAYERS
from .scoring import field_multiplier, lucky_end, settle_round
from .turn import kturn
from .yaku import cards_missing, yaku_now


@hot(inline="always")
def call_koikoi(pile, field, calls, hits, best, month_mask, tb):
    """A koi-koi call: (calls, hits, best) after it."""
    calls += 1
    if tb.params[P_VIEW_CALLED] != tb.params[P_VIEW_PTS]:
        # the call itself raises the viewing yaku (KoiKoi Japan): not an improvement
        v, h = yaku_now(pile, field, calls, month_mask, tb)
        hits |= np.uint64(h)
        best = max(best, v)
    return calls, hits, best


@hot(inline="always")
def _move(pol, dec, dparam, hand, field, pile, opp_pile, drawn, calls, hits, best, month_mask,
          rng, tb, wild, pile_only, extra):
    """One turn and, if the player's yaku improved, their stop-or-continue decision.

    Returns (hand, field, pile, calls, hits, best, action).  ``hits``/``best``: the yaku rows
    and the most points the player has held this round, against which "new" or "bigger" is
    judged (``decision_on``).  ``extra``: the player's turns after the hands run out
    (``after_hands=draw_pile``), counted with the hand as the turns they have left."""
    p = tb.params
    hand, field, cap = kturn(pol, hand, field, drawn, rng, tb, wild, pile_only)
    pile |= cap
    act = ACT_NONE
    # Yaku change only with the player's captures, or with the field under the weather rule.
    if cap != ZERO or p[P_VIEWING] == VIEW_WEATHER:
        v, h = yaku_now(pile, field, calls, month_mask, tb)
        hu = np.uint64(h)
        new = (hu & ~hits) != ZERO
        if p[P_DECIDE_NEW] != 0:
            improved = new
        else:
            improved = v > best
        hits |= hu
        best = max(best, v)
        if improved:
            left = count(hand) + extra
            legal = LEGAL_BOTH
            if ((left == 0 and p[P_LAST_STOP] != 0) or v < p[P_KOIKOI_MIN]
                    or (p[P_CALLS_MAX] > 0 and calls >= p[P_CALLS_MAX])
                    or (p[P_IMPROVE_STOP] != 0 and not new)):
                legal = LEGAL_STOP
            om = cards_missing(opp_pile, month_mask, tb)
            if dec == DEC_LOOKAHEAD and legal == LEGAL_BOTH:
                act = ACT_ASK  # decided by play_from, which holds the whole state
            elif choose_continue(dec, dparam, legal, left, v, om, rng) == CONTINUE:
                act = ACT_CONTINUE
                calls, hits, best = call_koikoi(pile, field, calls, hits, best, month_mask, tb)
            else:
                act = ACT_STOP
    return hand, field, pile, calls, hits, best, act


@hot(inline="always")
def play_from(st, order, rng, tb, policy, decide, dealer, look):
    """Play the round in state ``st`` (``KS_N`` slots) until a player collects or the hands
    run out, updating ``st``.  ``policy``: card policy ids by player; ``decide[player]``:
    (decision id, parameter).  ``look``: None, or the lookahead context ``(tables, res,
    scratch)`` when a player plays by lookahead (``engine.lookahead``): every choice of its
    turn and its stop-or-continue are chosen on determinisations of this state
    (:func:`look_turn`, :func:`look_continue`).  A forced turn (``policies.FORCED``, see
    :func:`turn_forced`) is played once, then the player plays greedy."""
    h0 = st[0]
    h1 = st[1]
    field = st[2]
    c0 = st[3]
    c1 = st[4]
    top = np.int64(st[5])
    seat = np.int64(st[6])
    calls0 = np.int64(st[KS_CALLS])
    calls1 = np.int64(st[KS_CALLS + 1])
    hits0 = st[KS_HITS]
    hits1 = st[KS_HITS + 1]
    best0 = np.int64(st[KS_BEST])
    best1 = np.int64(st[KS_BEST + 1])
    last = np.int64(st[KS_LAST])
    turns = np.int64(st[KS_TURNS])
    decisions = np.int64(st[KS_DECISIONS])
    over = np.int64(st[KS_OVER])
    month_mask = st[KS_MONTH]
    wild = st[KS_WILD] != ZERO
    after = tb.params[P_AFTER_PILE] != 0
    n_cards = order.shape[0]
    while over == 0:
        # one call site for both seats keeps the inlined kernel (and its compile time) small
        first = seat == 0
        hand = h0 if first else h1
        pile_only = hand == ZERO
        extra = 0
        if pile_only:
            # both hands are empty (they empty together); after_hands=draw_pile: turn the pile
            if not after or top >= n_cards:
                over = OVER_EXHAUSTED
                break
            extra = (n_cards - top - 1) // 2
        elif after:
            # the pile left when both hands are empty: the dealer turns first
            rest = n_cards - top - 1 - count(h0) - count(h1) + 1
            extra = (rest + (1 if first else 0)) // 2
        q = dealer ^ seat
        pol = policy[q]
        if look is not None and lookahead.is_lookahead(pol):
            store(st, h0, h1, field, c0, c1, top, seat, calls0, calls1, hits0, hits1, best0,
                  best1, last, turns, decisions, over)
            pol = hooks.look_turn(st, order, rng, tb, seat, lookahead.samples(policy[q]), look)
        hand, field, pile, calls, hits, best, act = _move(
            pol, decide[q, 0], decide[q, 1], hand, field, c0 if first else c1,
            c1 if first else c0, np.int64(order[top]), calls0 if first else calls1,
            hits0 if first else hits1, best0 if first else best1, month_mask, rng, tb, wild,
            pile_only, extra)
        if (policy[q] & 0xF) == FORCED:
            policy[q] = GREEDY
        if first:
            h0, c0, calls0, hits0, best0 = hand, pile, calls, hits, best
        else:
            h1, c1, calls1, hits1, best1 = hand, pile, calls, hits, best
        top += 1
        turns += 1
        if act == ACT_ASK:
            act = ACT_STOP
            if look is not None:
                # the state after the turn, the call not made: stop, or call koi-koi?
                store(st, h0, h1, field, c0, c1, top, seat ^ 1, calls0, calls1, hits0, hits1,
                      best0, best1, seat + 1, turns, decisions + 1, over)
                if hooks.look_continue(st, order, rng, tb, seat, lookahead.samples(policy[q]),
                                       look):
                    act = ACT_CONTINUE
                    calls, hits, best = call_koikoi(pile, field, calls, hits, best, month_mask,
                                                    tb)
                    if first:
                        calls0, hits0, best0 = calls, hits, best
                    else:
                        calls1, hits1, best1 = calls, hits, best
        if act != ACT_NONE:
            last = seat + 1
            decisions += 1
            if act == ACT_STOP:
                over = seat + 1
                break
        seat ^= 1
    store(st, h0, h1, field, c0, c1, top, seat, calls0, calls1, hits0, hits1, best0, best1,
          last, turns, decisions, over)


@hot
def play_out(st, order, rng, tb, policy, decide, dealer):
    """:func:`play_from` with no lookahead player, as a call: compiled once and shared by the
    play kernel, the lookahead's rollouts and its lucky-hand choice (each inlined copy of the
    turn loop is compiled again: four copies cost a lookahead kernel half its compile time)."""
    play_from(st, order, rng, tb, policy, decide, dealer, None)


@hot(inline="always")
def store(st, h0, h1, field, c0, c1, top, seat, calls0, calls1, hits0, hits1, best0, best1,
          last, turns, decisions, over):
    """Write :func:`play_from`'s locals into the state."""
    st[0] = h0
    st[1] = h1
    st[2] = field
    st[3] = c0
    st[4] = c1
    st[5] = top
    st[6] = seat
    st[KS_CALLS] = calls0
    st[KS_CALLS + 1] = calls1
    st[KS_HITS] = hits0
    st[KS_HITS + 1] = hits1
    st[KS_BEST] = best0
    st[KS_BEST + 1] = best1
    st[KS_LAST] = last
    st[KS_TURNS] = turns
    st[KS_DECISIONS] = decisions
    st[KS_OVER] = over


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
    wild = w == WILD_ON or (w == WILD_AUGUST and (groups[FIELD] & tb.cards[K_AUGUST]) != ZERO)
    start(st, groups, tb.pattern.shape[0], month_mask, field_multiplier(nb, p[P_FIELD_MULT]))
    st[KS_WILD] = 1 if wild else 0
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
            if (look is not None and lookahead.is_lookahead(policy[q])
                    and (p[P_LOOK_OFF] & LOOK_OFF_LUCKY) == 0):
                d = hooks.look_declare(st, order, rng, tb, s, lookahead.samples(policy[q]),
                                       look, s == 1, d0, l0)
            else:
                d = choose_expose(expose[q], rng)
            if s == 0:
                d0 = d
            else:
                d1 = d
        played = lucky_end(d0, d1, l0, l1, res, tb)
    if played:
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
    if look is None:
        play_out(st, order, rng, tb, policy, decide, dealer)
    else:
        play_from(st, order, rng, tb, policy, decide, dealer, look)
    settle_round(st, tb, res)
    record(st, res)
    if tb.params[P_CHECKED]:
        check_round(order, st, res, tb.params[P_ZERO_SUM] != 0)


@hot(inline="always")
def record(st, res):
    """The end state's facts into ``res``; checked mode asserts the round invariants."""
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
