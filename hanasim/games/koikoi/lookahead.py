"""The lookahead player's hooks: its turn, its lucky-hand declaration and its stop-or-continue,
each chosen on determinisations played out by the round's own kernels.

Lookahead (``lookahead[:K]``)
-----------------------------
A lookahead player (``engine.lookahead``) decides every choice the rules give it, each on K
determinisations of what it cannot see at that moment, played out with the game's own
kernels (``round.play_from``, ``scoring.settle_round``) and picked by
``engine.lookahead._pick`` (greedy's own choice unless another one's paired mean gain exceeds
one standard error):

* its turn (:func:`look_turn`), one choice after another as the player makes them: the hand card
  with its take (two-way matches; the wild Lightning's pick of any field card; only the cards
  ``must_match`` allows, ``turn.playable``), the turned card unseen; then, the turned card seen,
  its take, or (``unmatched_to_hand`` when it takes nothing; ``draw_then_two``, whose drawn card
  is seen from the start) the second hand card with its take. A turn of the draw pile alone
  (``after_hands=draw_pile``) has only the turned card's take. The choices travel as one forced
  turn id (``turn.turn_forced``), which a rollout plays with the game's own puts before playing
  on by greedy, so every ``turn_structure`` and ``wild_lightning`` is played;
* declaring a lucky hand (:func:`look_declare`; ``expose`` does not apply to a lookahead
  player, as in Toppa and Baka): declared and hidden are finished on the same determinisations
  as ``round.play_dealt`` finishes a round; hiding is taken only on a significant gain.  Seat 0
  declares first, so seat 1 knows its declaration; seat 0 takes seat 1's as the rollout's
  (declaring whatever its dealt hand holds, the default ``expose=always``);
* stop or continue (:func:`look_continue`): collecting scores what settling now gives,
  calling is played out.

Rollouts play greedy cards; both players' stop-or-continue in a rollout is
``lower.ROLLOUT_DECISION``: greedy/stop, every player collecting at its first chance (measured
against greedy/continue2 and threshold5 rollouts, modern preset, 20,000 rounds: continue2
rollouts lost 0.86 points a round of advantage against a greedy/stop opponent (99.9% paired
interval -1.14 to -0.57) and threshold5 changed nothing significant (+0.07, -0.16 to +0.29);
against a greedy/continue2 opponent continue2 rollouts gained about +0.3, and in lookahead
against lookahead the gain of calling by lookahead over always collecting was the same, +0.82
(+0.40 to +1.23) with stop rollouts and +0.80 (+0.24 to +1.37) with continue2).
``lower.LOOK_OFF`` is for measuring a decision against the behaviour before it.

``play.play_from`` reaches these through its ``chooser`` argument (this module, passed by
``round``), so the play loop never imports the lookahead that rolls out with it.
"""
import numpy as np
from numba import njit

from ...engine import lookahead as engine_lookahead
from ...engine.bits import ONE, ZERO, bit, has_full_nibble, lowest
from ...engine.jit import hot
from ...policies import FORCED, GREEDY, greedy_hand_card
from .deal import field_four, lucky_bits
from .layout import (KS_BEST, KS_CALLS, KS_HITS, KS_MONTH, KS_N, KS_OVER, KS_WILD,
                     LOOK_OFF_DRAWN, P_LOOK_OFF, P_ROLL_DEC, P_ROLL_PARAM, P_TURN, P_ZERO_SUM,
                     R_N, R_SCORE, TURN_DRAW_TWO, TURN_UNMATCHED)
from .play import call_koikoi, play_out
from .rules import N_PLAYERS
from .scoring import lucky_end, settle_round
from .turn import (F_CARD1, F_CARD2, F_DTAKE, F_TAKE1, give, given, greedy_take, playable,
                   put_as, take_options)


@hot(inline="always")
def look_value(aux, seat, tb):
    """What a lookahead player maximises in a settled round ``aux``: its round score less the
    opponent's, what decides a game (under ``winner_only`` scoring its own score alone would
    count a call that hands the opponent a bigger round as free; under ``zero_sum`` the score
    already is the difference)."""
    if tb.params[P_ZERO_SUM]:
        return np.float64(aux[R_SCORE + seat])
    return np.float64(aux[R_SCORE + seat] - aux[R_SCORE + 1 - seat])


@hot(inline="always")
def rollout(tb, sc, seat):
    """Play the scratch state ``sc.st`` to the end by greedy (the forced turn in ``sc.greedy``
    first), both players deciding stop-or-continue by ``sc.decide`` (``ROLLOUT_DECISION``);
    ``seat``'s value (:func:`look_value`)."""
    play_out(sc.st, sc.order, sc.rng, tb, sc.greedy, sc.decide, np.int64(0))
    for i in range(R_N):
        sc.aux[i] = 0
    settle_round(sc.st, tb, sc.aux)
    return look_value(sc.aux, seat, tb)


@hot
def look_eval(st, order, rng, tb, seat, k, look, m, seen):
    """Choose among the ``m`` forced turns ``sc.card[:m]`` of ``seat`` to move in ``st`` (0:
    greedy's own): each is played, then the round by the rollout policy, on the same ``k``
    determinisations of the cards ``seat`` cannot see (the other hand and ``order[seen:]``);
    greedy's own is kept unless another gains significantly (``engine.lookahead._pick``)."""
    tables, res, sc = look
    if m == 1:
        return sc.card[0]
    for j in range(m):
        sc.total[j] = 0.0
        sc.total2[j] = 0.0
    s = rng[0]
    for _ in range(k):
        s = engine_lookahead.determinise(st, N_PLAYERS, seat, order, seen, s, sc)
        v0 = 0.0
        for j in range(m):
            for i in range(st.shape[0]):
                sc.st[i] = sc.base[i]
            sc.greedy[seat] = sc.card[j]
            sc.greedy[1 - seat] = GREEDY
            v0 = engine_lookahead._add_gain(sc, j, rollout(tb, sc, seat), v0)
    rng[0] = s
    return sc.card[engine_lookahead._pick(sc, m, k)]


@hot
def card_options(sc, pol, sh, hand, field, wild, tb):
    """Into ``sc.card``: the forced turn ``pol`` with the hand card at shift ``sh`` (and its
    take at ``sh + 8``) left to greedy (choice 0), then every other (hand card, take) the
    rules allow (:func:`playable`); returns how many (at most ``lookahead.MAX_CHOICES``)."""
    hand = playable(hand, field, wild, tb)
    g = greedy_hand_card(hand, field, tb.gscore)
    gt = np.int64(-1)
    if take_options(g, field, wild, tb) != ZERO:
        gt = greedy_take(g, field, wild, tb)
    sc.card[0] = pol
    m = 1
    h = hand
    while h:
        c = lowest(h)
        h &= h - ONE
        o = take_options(c, field, wild, tb)
        if o == ZERO:
            if c != g and m < engine_lookahead.MAX_CHOICES:
                sc.card[m] = give(pol, sh, c)
                m += 1
        while o:
            t = lowest(o)
            o &= o - ONE
            if (c != g or t != gt) and m < engine_lookahead.MAX_CHOICES:
                sc.card[m] = give(give(pol, sh, c), sh + 8, t)
                m += 1
    return m


@hot
def drawn_options(sc, pol, drawn, field, wild, tb):
    """Into ``sc.card``: the forced turn ``pol`` with the turned card's take left to greedy
    (choice 0), then every other take it offers; returns how many."""
    sc.card[0] = pol
    o = take_options(drawn, field, wild, tb)
    if o == ZERO:
        return 1
    gt = greedy_take(drawn, field, wild, tb)
    m = 1
    while o:
        t = lowest(o)
        o &= o - ONE
        if t != gt and m < engine_lookahead.MAX_CHOICES:
            sc.card[m] = give(pol, F_DTAKE, t)
            m += 1
    return m


@hot
def look_turn(st, order, rng, tb, seat, k, look):
    """The lookahead's turn for ``seat`` to move in ``st``, as a forced turn id
    (:func:`turn_forced`): each choice of the turn in the order the player makes it, each by
    :func:`look_eval` on what the player has seen by then.  The first hand card with its take
    (the turned card unseen; under draw_then_two it is drawn first, so seen), then the turned
    card's take (seen), or (unmatched_to_hand, the turned card taking nothing; draw_then_two)
    the second hand card with its take.  A turn of the draw pile alone
    (``after_hands=draw_pile``) has only the turned card's take.  A call: once a turn."""
    tables, res, sc = look
    hand = st[seat]
    field = st[2]
    top = np.int64(st[5])
    wild = st[KS_WILD] != ZERO
    pile_only = hand == ZERO
    mode = -1 if pile_only else tb.params[P_TURN]
    pol = np.int64(FORCED)
    seen = top
    if mode == TURN_DRAW_TWO:
        hand |= bit(order[top])  # drawn into the hand first: seen
        seen = top + 1
    if not pile_only:
        m = card_options(sc, pol, F_CARD1, hand, field, wild, tb)
        pol = look_eval(st, order, rng, tb, seat, k, look, m, seen)
        card = given(pol, F_CARD1)
        if card < 0:
            card = greedy_hand_card(playable(hand, field, wild, tb), field, tb.gscore)
        hand &= ~bit(card)
        field, _ = put_as(card, field, given(pol, F_TAKE1), wild, tb)
    # the turned card is seen from here on
    drawn = np.int64(order[top])
    if mode != TURN_DRAW_TWO:
        _, c = put_as(drawn, field, np.int64(-1), wild, tb)
        if c != ZERO or mode != TURN_UNMATCHED:
            if tb.params[P_LOOK_OFF] & LOOK_OFF_DRAWN:
                return pol
            m = drawn_options(sc, pol, drawn, field, wild, tb)
            return look_eval(st, order, rng, tb, seat, k, look, m, top + 1)
        hand |= bit(drawn)
    m = card_options(sc, pol, F_CARD2, hand, field, wild, tb)
    return look_eval(st, order, rng, tb, seat, k, look, m, top + 1)


@njit(cache=True)
def lookahead_turn(tb, st, order, seat, seed, k):
    """:func:`look_turn` on the state ``st`` with ``k`` determinisations on the stream
    ``seed``: the forced turn id (for tests and for inspecting a decision; ``forced_choices``
    reads it)."""
    look = (tb, np.zeros(R_N, np.int64), new_look_scratch(tb, order.shape[0]))
    rng = np.zeros(1, np.uint64)
    rng[0] = np.uint64(seed)
    return look_turn(st, order, rng, tb, seat, k, look)


@njit(cache=True)
def new_look_scratch(tb, n_cards):
    """The lookahead's scratch, its rollouts deciding stop-or-continue by the
    ``ROLLOUT_DECISION`` lowered into ``tb`` (``P_ROLL_DEC``, ``P_ROLL_PARAM``)."""
    sc = engine_lookahead.new_scratch(KS_N, n_cards, N_PLAYERS)
    for q in range(N_PLAYERS):
        sc.decide[q, 0] = tb.params[P_ROLL_DEC]
        sc.decide[q, 1] = tb.params[P_ROLL_PARAM]
    return sc


@njit(cache=True)
def lookahead_decision(tb, st, order, seat, seed, k):
    """:func:`look_continue` on the state ``st`` (the turn of ``seat`` just made a yaku; the
    call not made) with ``k`` determinisations on the stream ``seed``: True to call koi-koi
    (for tests and for inspecting a decision)."""
    look = (tb, np.zeros(R_N, np.int64), new_look_scratch(tb, order.shape[0]))
    rng = np.zeros(1, np.uint64)
    rng[0] = np.uint64(seed)
    return look_continue(st, order, rng, tb, seat, k, look)


@hot
def look_continue(st, order, rng, tb, seat, k, look):
    """Call koi-koi (True) or collect: ``st`` is the state after ``seat``'s turn with the call
    not made.  Collecting now scores what settling this state gives (every card it depends on
    is seen); calling is played out by greedy (both collecting at their next chance) on ``k``
    determinisations; it is taken when its mean gain over collecting exceeds one standard
    error (``engine.lookahead``)."""
    tables, res, sc = look
    for i in range(st.shape[0]):
        sc.st[i] = st[i]
    sc.st[KS_OVER] = seat + 1
    for i in range(R_N):
        sc.aux[i] = 0
    settle_round(sc.st, tb, sc.aux)
    stop = look_value(sc.aux, seat, tb)
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    s = rng[0]
    top = np.int64(st[5])
    for _ in range(k):
        s = engine_lookahead.determinise(st, N_PLAYERS, seat, order, top, s, sc)
        for i in range(st.shape[0]):
            sc.st[i] = sc.base[i]
        calls, hits, best = call_koikoi(sc.st[3 + seat], sc.st[2],
                                        np.int64(sc.st[KS_CALLS + seat]), sc.st[KS_HITS + seat],
                                        np.int64(sc.st[KS_BEST + seat]), sc.st[KS_MONTH], tb)
        sc.st[KS_CALLS + seat] = calls
        sc.st[KS_HITS + seat] = hits
        sc.st[KS_BEST + seat] = best
        sc.greedy[0] = GREEDY
        sc.greedy[1] = GREEDY
        engine_lookahead._add_gain(sc, 1, rollout(tb, sc, seat), stop)
    rng[0] = s
    return engine_lookahead._pick(sc, 2, k) == 1


@hot
def look_declare(st, order, rng, tb, seat, k, look, other_known, other_declared, other_bits):
    """Declare the lucky hand ``seat`` holds (True) or hide it and play, on the state right
    after the deal: the round is finished both ways on the same ``k`` determinisations (the
    other hand and the draw pile dealt again) as :func:`play_dealt` finishes it (the
    declarations settled, a field four, then play by greedy and the rollout decision), and
    hiding is taken only when its mean gain over declaring exceeds one standard error
    (``engine.lookahead._pick``: declaring is what greedy's default ``expose=always`` does).
    The other seat's declaration: known when it declared first (``other_known``: seat 0's,
    ``other_declared`` with its lucky bits ``other_bits``), else the rollout's, which declares
    whatever its determinised hand holds (``expose=always``)."""
    tables, res, sc = look
    mine = lucky_bits(st[seat])
    top = np.int64(st[5])
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    s = rng[0]
    for _ in range(k):
        s = engine_lookahead.determinise(st, N_PLAYERS, seat, order, top, s, sc)
        if other_known:
            ob = other_bits if other_declared else 0
            od = other_declared
        else:
            ob = lucky_bits(sc.base[1 - seat])
            od = ob != 0
        v0 = 0.0
        for j in range(2):
            for i in range(st.shape[0]):
                sc.st[i] = sc.base[i]
            for i in range(R_N):
                sc.aux[i] = 0
            me = j == 0
            if seat == 0:
                played = lucky_end(me, od, mine, ob, sc.aux, tb)
            else:
                played = lucky_end(od, me, ob, mine, sc.aux, tb)
            if played and (not has_full_nibble(sc.st[2])
                           or field_four(sc.st, sc.order, sc.aux, tb)):
                sc.greedy[0] = GREEDY
                sc.greedy[1] = GREEDY
                play_out(sc.st, sc.order, sc.rng, tb, sc.greedy, sc.decide, np.int64(0))
                settle_round(sc.st, tb, sc.aux)
            v0 = engine_lookahead._add_gain(sc, j, look_value(sc.aux, seat, tb), v0)
    rng[0] = s
    return engine_lookahead._pick(sc, 2, k) == 0


@njit(cache=True)
def lookahead_declare(tb, st, order, seat, seed, k, other_known, other_declared, other_bits):
    """:func:`look_declare` on the state ``st`` right after the deal (for tests)."""
    look = (tb, np.zeros(R_N, np.int64), new_look_scratch(tb, order.shape[0]))
    rng = np.zeros(1, np.uint64)
    rng[0] = np.uint64(seed)
    return look_declare(st, order, rng, tb, seat, k, look, other_known, other_declared,
                        other_bits)
