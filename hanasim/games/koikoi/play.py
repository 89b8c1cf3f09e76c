"""The turns of a round from any state: :func:`play_from` plays until a player collects or the
cards run out (each turn, then the stop-or-continue after every new or bigger yaku), and
:func:`play_out` is the same with no lookahead player, compiled once for the lookahead's
rollouts.  ``round`` deals and settles around it; ``lookahead`` rolls out with
:func:`play_out` and is handed to :func:`play_from` as its ``chooser``, so neither module
imports the other's caller.
"""
import numpy as np

from ...engine import lookahead as engine_lookahead
from ...engine.bits import ZERO, count
from ...engine.jit import hot
from ...policies import (CONTINUE, DEC_LOOKAHEAD, DEC_THRESHOLD, FORCED, GREEDY, LEGAL_BOTH,
                         LEGAL_STOP, choose_continue)
from .layout import (ACT_ASK, ACT_CONTINUE, ACT_NONE, ACT_STOP, KS_BEST, KS_CALLS,
                     KS_DECISIONS, KS_HITS, KS_LAST, KS_MONTH, KS_OVER, KS_TURNS, KS_WILD,
                     OVER_EXHAUSTED, P_AFTER_PILE, P_CALLS_MAX, P_DECIDE_NEW, P_IMPROVE_STOP,
                     P_KOIKOI_MIN, P_LAST_STOP, P_VIEW_CALLED, P_VIEW_PTS, P_VIEWING,
                     VIEW_WEATHER)
from .turn import kturn
from .yaku import cards_missing, yaku_now, yaku_value


@hot(inline="always")
def call_koikoi(pile, field, calls, hits, best, month_mask, tb):
    """A koi-koi call: (calls, hits, best) after it."""
    calls += 1
    if tb.params[P_VIEW_CALLED] != tb.params[P_VIEW_PTS]:
        # the call itself raises the viewing yaku (KoiKoi Japan): not an improvement
        # a call (yaku_value), not a second inlined yaku_now: a rare path (compile time)
        v, h = yaku_value(pile, field, calls, month_mask, tb)
        hits |= np.uint64(h)
        best = max(best, v)
    return calls, hits, best


@hot(inline="always")
def _move(pol, dec, dparam, hand, field, pile, opp_pile, drawn, calls, hits, best, month_mask,
          rng, tb, wild, pile_only, extra, forcing):
    """One turn and, if the player's yaku improved, their stop-or-continue decision.

    Returns (hand, field, pile, calls, hits, best, action).  ``hits``/``best``: the yaku rows
    and the most points the player has held this round, against which "new" or "bigger" is
    judged (``decision_on``).  ``extra``: the player's turns after the hands run out
    (``after_hands=draw_pile``), counted with the hand as the turns they have left."""
    p = tb.params
    hand, field, cap = kturn(pol, hand, field, drawn, rng, tb, wild, pile_only, forcing)
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
            # bools combined by & and |, not short-circuits: fewer statements to compile
            if (((left == 0) & (p[P_LAST_STOP] != 0)) | (v < p[P_KOIKOI_MIN])
                    | ((p[P_CALLS_MAX] > 0) & (calls >= p[P_CALLS_MAX]))
                    | ((p[P_IMPROVE_STOP] != 0) & (not new))):
                legal = LEGAL_STOP
            # the opponent's missing cards: read only by the threshold decision (a call that
            # passes the tables: about 40 ns of a random round when made every decision)
            om = 0
            if dec == DEC_THRESHOLD and legal == LEGAL_BOTH:
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
def play_from(st, order, rng, tb, policy, decide, dealer, look, chooser, forcing):
    """Play the round in state ``st`` (``KS_N`` slots) until a player collects or the hands
    run out, updating ``st``.  ``policy``: card policy ids by player; ``decide[player]``:
    (decision id, parameter).  ``look``: None, or the lookahead context ``(tables, res,
    scratch)`` when a player plays by lookahead (``engine.lookahead``): every choice of its
    turn and its stop-or-continue are chosen on determinisations of this state
    (``chooser.look_turn``, ``chooser.look_continue``: ``chooser`` is the module
    ``lookahead``, passed in so that this module does not import the lookahead that rolls out
    with it; None with ``look``).  A forced turn (``policies.FORCED``, see
    ``turn.turn_forced``) is played once, then the player plays greedy; ``forcing``: None
    where no turn can be forced (a policy of a run has none: the play kernel), else True or
    ``look`` (a lookahead player's turns are forced turns)."""
    # the player to move's hand, pile, calls, yaku rows and best (hand, pile ...) and the
    # other's (ohand, opile ...), swapped after every turn: one call site of the turn for both
    # seats keeps the inlined kernel (and its compile time) small, and no value is selected by
    # seat on the way in or out of the turn
    seat = np.int64(st[6])
    o = 1 - seat
    hand = st[seat]
    ohand = st[o]
    field = st[2]
    pile = st[3 + seat]
    opile = st[3 + o]
    top = np.int64(st[5])
    calls = np.int64(st[KS_CALLS + seat])
    ocalls = np.int64(st[KS_CALLS + o])
    hits = st[KS_HITS + seat]
    ohits = st[KS_HITS + o]
    best = np.int64(st[KS_BEST + seat])
    obest = np.int64(st[KS_BEST + o])
    last = np.int64(st[KS_LAST])
    turns = np.int64(st[KS_TURNS])
    decisions = np.int64(st[KS_DECISIONS])
    over = np.int64(st[KS_OVER])
    month_mask = st[KS_MONTH]
    wild = st[KS_WILD] != ZERO
    after = tb.params[P_AFTER_PILE] != 0
    n_cards = order.shape[0]
    while over == 0:
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
            rest = n_cards - top - 1 - count(hand) - count(ohand) + 1
            extra = (rest + np.int64(seat == 0)) // 2
        q = dealer ^ seat
        pol = policy[q]
        if look is not None and engine_lookahead.is_lookahead(pol):
            store(st, seat, hand, ohand, field, pile, opile, top, seat, calls, ocalls, hits,
                  ohits, best, obest, last, turns, decisions, over)
            k = engine_lookahead.samples(policy[q])
            pol = chooser.look_turn(st, order, rng, tb, seat, k, look)
        hand, field, pile, calls, hits, best, act = _move(
            pol, decide[q, 0], decide[q, 1], hand, field, pile, opile, np.int64(order[top]),
            calls, hits, best, month_mask, rng, tb, wild, pile_only, extra, forcing)
        if forcing is not None and (policy[q] & 0xF) == FORCED:
            policy[q] = GREEDY
        top += 1
        turns += 1
        if act == ACT_ASK:
            act = ACT_STOP
            if look is not None:
                # the state after the turn, the call not made: stop, or call koi-koi?
                store(st, seat, hand, ohand, field, pile, opile, top, seat ^ 1, calls, ocalls,
                      hits, ohits, best, obest, seat + 1, turns, decisions + 1, over)
                k = engine_lookahead.samples(policy[q])
                if chooser.look_continue(st, order, rng, tb, seat, k, look):
                    act = ACT_CONTINUE
                    calls, hits, best = call_koikoi(pile, field, calls, hits, best, month_mask,
                                                    tb)
        if act != ACT_NONE:
            last = seat + 1
            decisions += 1
            if act == ACT_STOP:
                over = seat + 1
                break
        seat ^= 1
        hand, ohand = ohand, hand
        pile, opile = opile, pile
        calls, ocalls = ocalls, calls
        hits, ohits = ohits, hits
        best, obest = obest, best
    store(st, seat, hand, ohand, field, pile, opile, top, seat, calls, ocalls, hits, ohits,
          best, obest, last, turns, decisions, over)


@hot
def play_out(st, order, rng, tb, policy, decide, dealer):
    """:func:`play_from` with no lookahead player, as a call: compiled once and shared by the
    lookahead's rollouts and its lucky-hand choice (each inlined copy of the turn loop is
    compiled again: three more copies cost a lookahead kernel half its compile time).  The play
    kernel inlines ``play_from`` itself (``round.resume_round``): the call cost it 13%."""
    play_from(st, order, rng, tb, policy, decide, dealer, None, None, True)


@hot(inline="always")
def store(st, s, hand, ohand, field, pile, opile, top, seat, calls, ocalls, hits, ohits, best,
          obest, last, turns, decisions, over):
    """Write :func:`play_from`'s locals into the state: ``hand``, ``pile`` ... are seat
    ``s``'s, ``ohand``, ``opile`` ... the other's; ``seat`` the seat to move."""
    o = 1 - s
    st[s] = hand
    st[o] = ohand
    st[2] = field
    st[3 + s] = pile
    st[3 + o] = opile
    st[5] = top
    st[6] = seat
    st[KS_CALLS + s] = calls
    st[KS_CALLS + o] = ocalls
    st[KS_HITS + s] = hits
    st[KS_HITS + o] = ohits
    st[KS_BEST + s] = best
    st[KS_BEST + o] = obest
    st[KS_LAST] = last
    st[KS_TURNS] = turns
    st[KS_DECISIONS] = decisions
    st[KS_OVER] = over
