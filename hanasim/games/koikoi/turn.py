"""A turn: which hand cards may be played (``must_match``), what a played or turned card captures
(two-way matches, the wild Lightning), the turn structures (``turn_structure``,
``after_hands``), and the forced turn (``policies.FORCED``) through which a lookahead player's
choices are played."""
import numpy as np

from ...engine.bits import ONE, ZERO, bit, count, lowest, month_nibble, nth_card
from ...engine.jit import hot
from ...engine.play import capture
from ...engine.rng import next64
from ...policies import FORCED, GREEDY, RANDOM, greedy_hand_card, hand_card, take_high
from .layout import (K_LIGHTNING, K_WILLOW, P_MUST_MATCH, P_TURN, TURN_DRAW_TWO,
                     TURN_STANDARD, TURN_UNMATCHED)


@hot(inline="always")
def wild_target(pol, cands, r, weights):
    """The field card the wild Lightning takes among ``cands`` (non-empty): random uniformly
    from bits 8..23 of the turn's word ``r``, greedy the heaviest (ties: the lowest card)."""
    if pol == RANDOM:
        return nth_card(cands, np.int64((((r >> np.uint64(8)) & np.uint64(0xFFFF))
                                         * np.uint64(count(cands))) >> np.uint64(16)))
    best = np.int64(0)
    best_w = -np.inf
    m = cands
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        if weights[c] > best_w:
            best_w = weights[c]
            best = c
    return best


@hot
def put_call(pol, card, field, r, wild, tb):
    """:func:`put` as a call, not inlined: the put of the rare rules (the wild Lightning, the
    turn structures other than the standard one, a lookahead's forced turn), which should not
    grow the inlined turn loop and its compile time (one compiled copy for all of them)."""
    if wild:
        cb = bit(card)
        light = tb.cards[K_LIGHTNING]
        willow = tb.cards[K_WILLOW]
        if cb == light:
            if (field & willow) == ZERO and field != ZERO:
                t = bit(wild_target(pol, field, r, tb.weights))
                return field & ~t, cb | t
        elif ((field & light) != ZERO and (cb & willow) == ZERO
              and (field & month_nibble(card)) == ZERO):
            return field & ~light, cb | light
    return capture(card, field, take_high(pol, card, field, r, tb.ghigh))


@hot(inline="always")
def put(pol, card, field, r, wild, tb):
    """``card`` onto the field: (field, captured).  As ``engine.play.capture`` (``r``: the
    word whose bit 0 decides a two-way match), and when the Lightning is ``wild`` this round
    (``wild_lightning``): the Lightning with no willow on the field captures one field card
    of any month; a non-willow card matching nothing by month captures the Lightning."""
    if wild:
        return put_call(pol, card, field, r, wild, tb)
    return capture(card, field, take_high(pol, card, field, r, tb.ghigh))


MONTH_LOW = np.uint64(0x111111111111)  # the lowest card of every month


@hot(inline="always")
def playable(hand, field, wild, tb):
    """The hand cards a player may play: under ``must_match=yes`` the cards that capture
    something (by month; when the Lightning is ``wild``, also its wild capture and a card
    taking the Lightning), or the whole hand when none does; under ``must_match=no`` the whole
    hand."""
    if tb.params[P_MUST_MATCH] == 0:
        return hand
    x = (field | (field >> ONE) | (field >> np.uint64(2)) | (field >> np.uint64(3))) & MONTH_LOW
    m = hand & (x * np.uint64(15))  # the hand's cards of a month the field holds
    if wild:
        light = tb.cards[K_LIGHTNING]
        if (field & light) != ZERO:
            m |= hand & ~tb.cards[K_WILLOW]  # each takes the Lightning or its own month
        elif (field & tb.cards[K_WILLOW]) == ZERO and field != ZERO:
            m |= hand & light  # the Lightning takes any field card
    return m if m != ZERO else hand


@hot
def turn_variant(pol, hand, field, drawn, r, rng, tb, wild, pile_only):
    """The turns other than the standard one (a call, not inlined: see :func:`put_wild`):
    a pile-only turn, draw_then_two and unmatched_to_hand.  Steps: 0 the first hand card,
    1 the turned card, 2 a second hand card; one call site each for the hand card and the
    put (every inlined call site is compiled again)."""
    mode = -1 if pile_only else tb.params[P_TURN]
    if mode == TURN_DRAW_TWO:
        hand |= bit(drawn)
    cap = ZERO
    for step in range(3):
        if step == 1:
            if mode == TURN_DRAW_TWO:
                continue
            f2, c = put_call(pol, drawn, field, r >> ONE, wild, tb)
            if c != ZERO or pile_only:
                return hand, f2, cap | c
            hand |= bit(drawn)  # unmatched: into the hand, and a second hand card
            continue
        if step == 0 and pile_only:
            continue
        if step == 2:
            r = next64(rng) if pol == RANDOM else ZERO
        card = hand_card(pol, playable(hand, field, wild, tb), field, r, tb.gscore)
        hand &= ~bit(card)
        field, c = put_call(pol, card, field, r, wild, tb)
        cap |= c
    return hand, field, cap


# A forced turn (``policies.FORCED``): how a lookahead player's turn is played, and how its
# rollouts play a choice they score.  Koi-koi's own encoding, read only by :func:`turn_forced`:
# each choice of the turn is 7 bits at its shift, 0 = left to greedy, else 1 + a card id:
# the first hand card, the field card it takes, the field card the turned card takes, the
# second hand card (draw_then_two, unmatched_to_hand) and the field card it takes.  A "take"
# is given only where the put offers a choice (:func:`take_options`).
F_CARD1, F_TAKE1, F_DTAKE, F_CARD2, F_TAKE2 = 8, 16, 24, 40, 48


@hot(inline="always")
def given(pol, shift):
    """The card given at ``shift`` of a forced turn, or -1 (left to greedy)."""
    return np.int64((pol >> shift) & 0x7F) - 1


@hot(inline="always")
def give(pol, shift, card):
    return pol | ((np.int64(card) + 1) << shift)


@hot
def take_options(card, field, wild, tb):
    """The field cards ``card`` may take when putting it offers a choice, else ZERO: the two
    cards of a two-way match; the wild Lightning with no willow on the field, any field card
    (when there are two or more)."""
    if wild and bit(card) == tb.cards[K_LIGHTNING] and (field & tb.cards[K_WILLOW]) == ZERO:
        return field if count(field) > 1 else ZERO
    mm = field & month_nibble(card)
    return mm if count(mm) == 2 else ZERO


@hot
def greedy_take(card, field, wild, tb):
    """The field card greedy's put of ``card`` takes among :func:`take_options` (non-empty)."""
    _, c = put_call(np.int64(GREEDY), card, field, ZERO, wild, tb)
    return lowest(c & take_options(card, field, wild, tb))


@hot
def put_as(card, field, take, wild, tb):
    """:func:`put` of ``card`` taking the field card ``take`` where the put offers a choice
    (``take`` >= 0, one of :func:`take_options`), else as greedy puts it."""
    if take < 0:
        return put_call(np.int64(GREEDY), card, field, ZERO, wild, tb)
    t = bit(take)
    cb = bit(card)
    if wild and cb == tb.cards[K_LIGHTNING] and (field & tb.cards[K_WILLOW]) == ZERO:
        return field & ~t, cb | t
    mm = field & month_nibble(card)
    return capture(card, field, ZERO if t == (mm & (~mm + ONE)) else ~ZERO)


@hot
def turn_forced(pol, hand, field, drawn, tb, wild, pile_only):
    """:func:`kturn` of a forced turn ``pol``: every turn structure, each choice as given,
    the others greedy's (the same steps as :func:`turn_variant`)."""
    mode = -1 if pile_only else tb.params[P_TURN]
    if mode == TURN_DRAW_TWO:
        hand |= bit(drawn)
    cap = ZERO
    for step in range(3):
        if step == 1:
            if mode == TURN_DRAW_TWO:
                continue
            f2, c = put_as(drawn, field, given(pol, F_DTAKE), wild, tb)
            if c != ZERO or mode != TURN_UNMATCHED:
                return hand, f2, cap | c
            hand |= bit(drawn)  # unmatched: into the hand, and a second hand card
            continue
        if step == 0 and pile_only:
            continue
        sh = F_CARD1 if step == 0 else F_CARD2
        card = given(pol, sh)
        if card < 0:
            card = greedy_hand_card(playable(hand, field, wild, tb), field, tb.gscore)
        hand &= ~bit(card)
        field, c = put_as(card, field, given(pol, sh + 8), wild, tb)
        cap |= c
    return hand, field, cap


@hot(inline="always")
def kturn(pol, hand, field, drawn, rng, tb, wild, pile_only, forcing):
    """One turn (``turn_structure``): (hand, field, captured).  ``pile_only``: a turn after
    the hands ran out (``after_hands=draw_pile``), the turned card alone.  ``forcing``: None
    where no turn can be forced (the play kernel without a lookahead player: numba prunes the
    forced turn, about a second of its compile), else True.  The standard turn draws the same
    random word as ``engine.play.turn``; draw_then_two and unmatched_to_hand draw one more for
    the second hand card."""
    r = next64(rng) if pol == RANDOM else ZERO
    if forcing is not None and (pol & 0xF) == FORCED:
        # a lookahead's choices for this turn (a call: only lookahead runs reach it)
        return turn_forced(pol, hand, field, drawn, tb, wild, pile_only)
    if pile_only or tb.params[P_TURN] != TURN_STANDARD:
        return turn_variant(pol, hand, field, drawn, r, rng, tb, wild, pile_only)
    card = hand_card(pol, playable(hand, field, wild, tb), field, r, tb.gscore)
    hand &= ~bit(card)
    field, c1 = put(pol, card, field, r, wild, tb)
    field, c2 = put(pol, drawn, field, r >> ONE, wild, tb)
    return hand, field, c1 | c2


def forced_choices(pol) -> dict:
    """The choices of a forced turn id: {"card1", "take1", "drawn_take", "card2", "take2"},
    each a card id or -1 (greedy's)."""
    pol = int(pol)
    return {name: ((pol >> sh) & 0x7F) - 1 for name, sh in
            (("card1", F_CARD1), ("take1", F_TAKE1), ("drawn_take", F_DTAKE),
             ("card2", F_CARD2), ("take2", F_TAKE2))}
