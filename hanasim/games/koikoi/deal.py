"""The deal and what it decides before play: the shuffle and deal until the deal stands
(misdeals), the cut for the first dealer, lucky hands in a dealt hand, a four of a month dealt
to the field (``field_four``)."""
import numpy as np

from ...engine.bits import ONE, ZERO, bit, count, has_full_nibble, pairs_only
from ...engine.deal import deal_into
from ...engine.jit import hot
from ...engine.rng import deal_shuffle, partial_shuffle
from ...engine.where import where_ok
from .layout import (END_FIELD, FIELD, FIELD4_MISDEAL, FIELD4_WIN, P_FIELD_FOUR, P_HAND,
                     P_MIS_FIELD_FOUR, P_MIS_FIELD_PAIRS, P_MIS_HAND_FOUR, P_MIS_HAND_PAIRS,
                     P_SHUFFLE_STOP, P_ZERO_SUM, R_END, R_POINTS, R_WINNER)
from .rules import FIELD_WIN_POINTS
from .scoring import _pay


@hot(inline="always")
def is_misdeal(groups, p):
    """Four of a month / four pairs in a hand or on the field, as the options make them."""
    # as arithmetic on bools, not short-circuits: fewer statements (compile time), and the
    # scalar tests are cheap enough to make every deal
    f = groups[FIELD]
    g0 = groups[0]
    g1 = groups[1]
    return (((p[P_MIS_FIELD_FOUR] != 0) & has_full_nibble(f))
            | ((p[P_MIS_FIELD_PAIRS] != 0) & pairs_only(f))
            | ((p[P_MIS_HAND_FOUR] != 0) & (has_full_nibble(g0) | has_full_nibble(g1)))
            | ((p[P_MIS_HAND_PAIRS] != 0) & (pairs_only(g0) | pairs_only(g1))))


@hot
def deal_round(rng, order, groups, pattern, params, cond):
    """Shuffle and deal until the deal is not a misdeal; returns the number of misdeals.  Only
    the dealt cards are shuffled until the deal stands, then the cards the round may draw.
    ``cond``: the run's given cards and ``--where`` (``engine.rng``, "conditional deals";
    empty: none): a deal failing ``--where`` is dealt again, not counted as a misdeal."""
    n_dealt = pattern.shape[0]
    n = order.shape[0]
    misdeals = 0
    lo = 0
    hi = n_dealt
    # one site of the (inlined) shuffle: the dealt cards until the deal stands, then the
    # cards the round may draw (each inlined site is compiled again)
    while True:
        deal_shuffle(rng, order, n, lo, hi, cond)
        if lo > 0:
            return misdeals
        deal_into(order, pattern, groups)  # the three groups in registers, no call
        if is_misdeal(groups, params):
            misdeals += 1
        elif where_ok(order, cond):
            lo = n_dealt
            hi = params[P_SHUFFLE_STOP]


@hot
def first_dealer(rng, order, earlier):
    """Each player cuts a card (player 0 the first).  The 1997 text: "whoever gets the card of
    the later month is first dealer; repeat the process in the case of a tie".  ``earlier``:
    the earlier month deals, and of one month the higher card (the lower card index) (rule
    page)."""
    while True:
        partial_shuffle(rng, order, 2)
        a = np.int64(order[0])
        b = np.int64(order[1])
        ma = a >> 2
        mb = b >> 2
        if earlier:
            if ma != mb:
                return 0 if ma < mb else 1
            return 0 if a < b else 1
        if ma != mb:
            return 0 if ma > mb else 1


@hot
def lucky_bits(hand):
    """1: four of a kind (teshi), 2: four pairs (kuttsuki: every month in the hand even).
    Scalars only: a call LLVM inlines (``engine.jit``), compiled once for its four sites."""
    return np.int64(has_full_nibble(hand)) | (np.int64((hand != ZERO) & pairs_only(hand)) << 1)


@hot
def field_four(st, order, res, tb):
    """A four of a month dealt to the field (``field_four``), after the lucky hands: False
    when it ends the round (dealer_wins), True when the round is played (the dealer having
    captured any fours under dealer_captures; under field_four=misdeal a four reaches play
    only under misdeal=none, and stays on the field).  A call, not inlined: the round and the
    lookahead's lucky-hand choice each compiled it again; callers test ``has_full_nibble``
    of the field first (a field four is rare)."""
    p = tb.params
    if not has_full_nibble(st[2]):
        return True
    if p[P_FIELD_FOUR] == FIELD4_WIN:
        _pay(res, 0, FIELD_WIN_POINTS, p[P_ZERO_SUM] != 0)
        res[R_WINNER] = 0
        res[R_POINTS] = FIELD_WIN_POINTS
        res[R_END] = END_FIELD
        return False
    if p[P_FIELD_FOUR] == FIELD4_MISDEAL:
        return True  # misdeal=none: the deal stands and the four stays on the field
    # "the dealer immediately captures these four cards, and deals four more to the
    # table to replace them" (rule page): from the draw pile, until no four is left.
    # A replacement that would leave the pile short of the turns' draws is not made
    # (it needs three fours in a row: never seen); that four stays on the field.
    top = np.int64(st[5])
    field = st[2]
    n_turns = 2 * p[P_HAND]
    while has_full_nibble(field):
        fours = field & (field >> ONE) & (field >> np.uint64(2)) & (field >> np.uint64(3))
        fours &= np.uint64(0x1111111111111111)
        if top + 4 * count(fours) + n_turns > order.shape[0]:
            break
        quad = fours * np.uint64(15)
        st[3] |= quad
        field &= ~quad
        for _ in range(4 * count(fours)):
            field |= bit(order[top])
            top += 1
    st[2] = field
    st[5] = top
    return True
