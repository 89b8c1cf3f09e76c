"""One Bakappana round: deal, play from a state, score (the Bakappana rule page).

Seats are relative to the round's dealer in turn order: seat 0 deals and plays first, seat k
plays k-th ("turn to play passes anti-clockwise").  Seat s is player ``(dealer + s) % n``.
"""
import numpy as np
from numba import types
from numba.extending import overload

from ...engine.bits import ONE, ZERO, bit, count, nth_card
from ...engine.deal import deal_until_clean
from ...engine.jit import hot
from ...engine.lookahead import play_out, round_value
from ...engine.play import capture, turn_word
from ...engine.rng import GOLDEN, mix64
from ...engine import state
from ...engine.settle import pile_points
from ...policies import GREEDY, take_high
from .lower import P_CHECKED, P_DECK_POINTS, P_DRAW_OUT, P_PAR, P_PLAYERS, Tables

# result slots of one round, per seat (4 each): card points, score, captured pile
R_PTS, R_SCORE, R_CAPTURED = 0, 4, 8
R_FIELD, R_TOP, R_MISDEALS = 12, 13, 14
R_N = 15
ALL = np.uint64(0xFFFFFFFFFFFF)  # the 48 cards


@hot(inline="always")
def deal_round(rng, order, groups, pattern, n, cond):
    """Shuffle and deal until the field does not hold four cards of a month (Misdeals: 'If 4
    cards of the same month are dealt to the table ... re-dealt'; four in a hand are no
    misdeal); returns the number of misdeals.  Only the dealt cards are shuffled until the deal
    stands, then the draw pile is finished (``engine.rng.shuffle_range``).  ``cond``: the run's
    given cards and ``--where`` (``engine.rng``, "conditional deals"; empty: none)."""
    return deal_until_clean(rng, order, groups, pattern, n, n + 1, cond)  # the field only


@hot(inline="always")
def draw_out(st, n, order, rng, policy, dealer, ghigh):
    """Two players dealt 8 each: with the hands empty, 8 cards are left in the draw pile and
    'the players continue to take turns playing a card from it until the draw pile is
    exhausted' (End of Round and Scoring).  A turn turns the top card and captures with it; a
    two-way match is the player's pick (random: bit 0 of the turn's word; greedy and lookahead:
    the heavier card)."""
    field = st[n]
    top = np.int64(st[state.top(n)])
    seat = np.int64(st[state.seat(n)])
    s = rng[0]
    while top < order.shape[0]:
        player = dealer + seat
        p = policy[player - n if player >= n else player]
        s, r = turn_word(p, s)
        drawn = order[top]
        field, cap = capture(drawn, field, take_high(p, drawn, field, r, ghigh))
        st[state.pile(n, seat)] |= cap
        top += 1
        seat = seat + 1 if seat + 1 < n else 0
    rng[0] = s
    st[n] = field
    st[state.top(n)] = top
    st[state.seat(n)] = seat


@hot(inline="always")
def play_dealt(rng, order, groups, st, tb, policy, dealer, res, look):
    """Play a dealt round to its end and score it into ``res`` (seats relative to the dealer).

    ``groups``: the hands of seats 0..n-1, then the field; the draw pile is
    ``order[len(pattern):]``.  A turn is a hand card, then the turned top card of the draw pile
    (Turns; ``engine.play``: two matches the player picks, three are all captured, no obligation
    to play a matching card); the dealer first, then anticlockwise."""
    n = tb.params[P_PLAYERS]
    state.start(st, groups, n, tb.pattern.shape[0])
    play_out(st, n, order, rng, policy, dealer, tb.gscore, tb.ghigh, look)
    if tb.params[P_DRAW_OUT]:
        draw_out(st, n, order, rng, policy, dealer, tb.ghigh)
    for s in range(n):
        pile = st[state.pile(n, s)]
        pts = pile_points(pile, tb.kind_masks, tb.kind_points)
        res[R_PTS + s] = pts
        # Player's Score = Player's Total Card Points - Par Value (0 under additive scoring)
        res[R_SCORE + s] = pts - tb.params[P_PAR]
        res[R_CAPTURED + s] = np.int64(pile)
    res[R_FIELD] = np.int64(st[n])
    res[R_TOP] = np.int64(st[state.top(n)])
    if tb.params[P_CHECKED]:
        check_round(st, n, order, res, tb.params)


@hot
def check_round(st, n, order, res, params):
    """Checked mode: every card in one place; the hands empty; with the whole deck played
    the field is empty and the scores add up to the deck's points less the pars (zero-sum
    under zero_sum scoring)."""
    seen = ZERO
    total = 0
    for s in range(n):
        if st[s] != ZERO:
            raise AssertionError("a hand is not empty at the end of the round")
        pile = st[state.pile(n, s)]
        if pile & seen:
            raise AssertionError("a card is in two places")
        seen |= pile
        total += res[R_SCORE + s]
    if seen & st[n]:
        raise AssertionError("a card is in two places")
    rest = ZERO
    for i in range(np.int64(st[state.top(n)]), order.shape[0]):
        rest |= bit(order[i])
    if (seen | st[n] | rest) != ALL:
        raise AssertionError("a card is in no place")
    if rest == ZERO:
        if st[n] != ZERO:
            raise AssertionError("cards are left on the field with the whole deck played")
        if total != params[P_DECK_POINTS] - n * params[P_PAR]:
            raise AssertionError("the scores do not add up to the deck's points less the pars")


@hot(inline="always")
def _pile_after_draw_out(st, n, seat, ghigh):
    """``seat``'s pile once the cards still unplayed are turned one a turn, greedy picks, in
    an order drawn from a hash of the set (the lookahead's rollout value: ``round_value`` is
    not given the determinised deck order, and any order of a uniformly redealt set is
    uniform; the same set gives the same order for every choice compared)."""
    placed = st[n]
    for s in range(n):
        placed |= st[s] | st[state.pile(n, s)]
    rest = ALL & ~placed
    field = st[n]
    mine = st[state.pile(n, seat)]
    mover = np.int64(st[state.seat(n)])
    k = count(rest)
    h = mix64(rest ^ np.uint64(0x5BA1CA99A0A))
    while k > 0:
        h += GOLDEN
        j = np.int64(((mix64(h) >> np.uint64(32)) * np.uint64(k)) >> np.uint64(32))
        c = nth_card(rest, j)
        rest &= ~(ONE << np.uint64(c))
        k -= 1
        field, cap = capture(c, field, take_high(GREEDY, c, field, ZERO, ghigh))
        if mover == seat:
            mine |= cap
        mover = mover + 1 if mover + 1 < n else 0
    return mine


@overload(round_value)
def _round_value(tables, st, seat, res):
    """A finished round's score for ``seat`` (the lookahead's rollout value)."""
    if isinstance(tables, types.BaseNamedTuple) and tables.instance_class is Tables:
        def value(tables, st, seat, res):
            n = tables.params[P_PLAYERS]
            pile = st[state.pile(n, seat)]
            if tables.params[P_DRAW_OUT]:
                pile = _pile_after_draw_out(st, n, seat, tables.ghigh)
            return (pile_points(pile, tables.kind_masks, tables.kind_points)
                    - tables.params[P_PAR])
        return value
