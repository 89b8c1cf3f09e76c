"""The hana-awase matching step, one turn, and a round's turns, shared by every fishing game.

A card put onto the field (from the hand or turned from the draw pile) captures by month:
no match, it stays; one match, both are captured; two, the player picks one (a policy choice);
three, all four are captured (the Toppa rule page, "Turns").
"""
import numpy as np
from numba import types
from numba.extending import intrinsic

from ..policies import RANDOM, hand_card, take_high
from .bits import ONE, ZERO, bit, count, month_nibble, nth_card, popcount
from .jit import hot
from .rng import GOLDEN, below_word, mix64, next64


_TWO = np.uint64(2)


@intrinsic
def pick(typingctx, cond, a, b):
    """``a if cond else b`` for uint64 (or int64) values, as a select LLVM keeps a select.

    Marked unpredictable (LLVM's ``!unpredictable``): x86 code generation otherwise turns a
    select on the critical path of an innermost loop into a branch (its cmov conversion, which
    assumes branches are predicted), and the capture's cases are random: a turn loop of its
    own ran a fifth slower with them as branches."""
    if cond != types.boolean or a != b or a not in (types.uint64, types.int64):
        return None

    def codegen(context, builder, sig, args):
        inst = builder.select(args[0], args[1], args[2])
        inst.set_metadata("unpredictable", builder.module.add_metadata([]))
        return inst

    return a(types.boolean, a, a), codegen


@hot
def capture(card, field, high):
    """Put ``card`` onto ``field``; returns (new field, captured mask).

    ``high`` decides a two-way match: all ones takes the higher card id of the two, zero the
    lower.  Written with masks rather than branches: which case occurs is random, and
    mispredicted branches were most of the cost of a turn.
    """
    cb = ONE << np.uint64(card)
    mm = field & month_nibble(card)
    lo = mm & (~mm + ONE)
    two = ZERO - (ONE if count(mm) == 2 else ZERO)
    sel = mm ^ (two & (mm ^ (lo ^ (high & mm))))
    has = ZERO - (ONE if mm != ZERO else ZERO)
    return field ^ sel ^ (cb & ~has), sel | (cb & has)


@hot
def capture_picked(card, field, high):
    """:func:`capture` by :func:`pick`, for a turn loop of its own (:func:`random_pair_turns`):
    there, an innermost loop, LLVM turned :func:`capture`'s selects into branches (a fifth
    slower); inlined into a whole round, :func:`capture` ran faster than this (7%)."""
    cb = ONE << np.uint64(card)
    mm = field & month_nibble(card)
    lo = mm & (ZERO - mm)
    # two cards of the month on the field: the higher (mm ^ lo) or the lower (lo); one or
    # three: all of them
    sel = pick(popcount(mm) == _TWO, lo ^ (high & mm), mm)
    empty = mm == ZERO  # no match: the card stays on the field
    return field ^ pick(empty, cb, sel), pick(empty, ZERO, sel | cb)


@hot(inline="always")
def turn(policy, hand, field, drawn, rng, gscore, ghigh):
    """One turn: a hand card, then the turned top card of the draw pile (the Toppa rule page,
    "Turns").

    Returns (hand, field, captured).  A random player draws one random word for the whole
    turn: its high half picks the hand card, bits 0 and 1 the two-way matches of the played
    and the turned card; greedy draws nothing (see ``policies``).  A loop of turns is faster
    with the generator state in a local: :func:`turn_word` and :func:`turn_with`.
    """
    r = next64(rng) if policy == RANDOM else ZERO
    return turn_with(policy, hand, field, drawn, r, gscore, ghigh)


@hot
def turn_word(policy, s):
    """(generator state, the turn's random word) from state ``s`` (``rng[0]``): a random
    player draws one word per turn, greedy none.  Kept in a local across a round's turns, the
    state is a register; through ``rng[0]`` each draw waits for the last one's store."""
    if policy == RANDOM:
        s = s + GOLDEN
        return s, mix64(s)
    return s, ZERO


@hot(inline="always")
def turn_with(policy, hand, field, drawn, r, gscore, ghigh):
    """:func:`turn` with the turn's random word ``r`` given (from :func:`turn_word`)."""
    card = hand_card(policy, hand, field, r, gscore)
    hand &= ~bit(card)
    field, c1 = capture(card, field, take_high(policy, card, field, r, ghigh))
    field, c2 = capture(drawn, field, take_high(policy, drawn, field, r >> ONE, ghigh))
    return hand, field, c1 | c2


@hot(inline="always")
def play_turns(st, n, order, rng, policy, dealer, gscore, ghigh, look, chooser):
    """Play the round in state ``st`` (``engine.state``, ``n`` seats) to its end, in place.

    Seats move in turn order from ``seat(n)``; a turn is :func:`turn_with` with the turned
    card ``order[top]``; the round ends when the seat to move has no cards (every fishing game
    here deals equal hands and draws one card a turn, so the hands run out together).  Seat s
    is played by player ``(dealer + s) % n`` (``policy`` is indexed by player).

    ``look``: ``None``, or the lookahead context ``(tables, res, scratch)`` when a player's
    policy is ``lookahead``; with ``None`` numba prunes that branch.  ``chooser``: the module
    that decides a lookahead player's turn (``engine.lookahead``, whose ``play_out`` calls
    this; None where ``look`` is None): passed in, not imported, so that this module stays
    below the lookahead, which plays its rollouts out with it.

    One turn call site for every seat: the turn is inlined wherever it is called, and a call
    per seat made the kernels several times larger and slower to compile, for no speed.
    """
    field = st[n]
    top = np.int64(st[2 * n + 1])
    seat = np.int64(st[2 * n + 2])
    s = rng[0]
    while True:
        hand = st[seat]
        if hand == ZERO:
            break
        player = dealer + seat
        p = policy[player - n if player >= n else player]
        if look is not None and chooser.is_lookahead(p):
            s, hand, field, cap = chooser.look_turn(st, n, seat, order, s, chooser.samples(p),
                                                    hand, field, top, gscore, ghigh, look)
        else:
            s, r = turn_word(p, s)
            hand, field, cap = turn_with(p, hand, field, order[top], r, gscore, ghigh)
        st[seat] = hand
        st[n + 1 + seat] |= cap
        top += 1
        seat = seat + 1 if seat + 1 < n else 0
    rng[0] = s
    st[n] = field
    st[2 * n + 1] = top
    st[2 * n + 2] = seat


@hot(inline="always")
def play_pair(st, order, rng, policy, dealer, gscore, ghigh):
    """:func:`play_turns` for two seats and no lookahead player (Toppa), the same turns and
    draws: both hands and piles stay in registers across the turns, the seat picking them by
    selects (still one turn call site).  Through the state array, every turn loaded its hand
    and added to its pile in memory: the random Toppa round's 20 turns took about 20 ns more
    (interleaved stage timings).  Two random players: :func:`random_pair_turns`, a call."""
    field = st[2]
    top = np.int64(st[5])
    seat = np.int64(st[6])
    h0 = st[0]
    h1 = st[1]
    c0 = st[3]
    c1 = st[4]
    p0 = policy[np.uint64(dealer)]  # (unsigned: no check for a negative index)
    p1 = policy[np.uint64(1 - dealer)]
    s = rng[0]
    if p0 == RANDOM and p1 == RANDOM and seat == 0:  # (a round starts with seat 0)
        h0, h1, field, c0, c1, top, seat, s = random_pair_turns(order, h0, h1, field, c0, c1,
                                                                top, s)
    else:
        while True:
            hand = h1 if seat else h0
            if hand == ZERO:
                break
            p = p1 if seat else p0
            s, r = turn_word(p, s)
            # (an unsigned position: no check for a negative index)
            hand, field, cap = turn_with(p, hand, field, order[np.uint64(top)], r, gscore, ghigh)
            h0 = h0 if seat else hand
            h1 = hand if seat else h1
            c0 = c0 if seat else c0 | cap
            c1 = c1 | cap if seat else c1
            top += 1
            seat ^= 1
    rng[0] = s
    st[0] = h0
    st[1] = h1
    st[2] = field
    st[3] = c0
    st[4] = c1
    st[5] = top
    st[6] = seat


@hot
def random_turn(hand, field, drawn, s):
    """A random player's turn (:func:`turn_word` and :func:`turn_with` for ``RANDOM``) on
    scalars, the generator state ``s`` in and out: (hand, field, captured, s).  A function of
    scalars, which LLVM inlines: :func:`random_pair_turns` calls it for both seats and is
    typed and lowered with one copy of it."""
    s += GOLDEN
    r = mix64(s)
    card = nth_card(hand, below_word(r, count(hand)))
    field, c1 = capture_picked(card, field, ZERO - (r & ONE))
    field, c2 = capture_picked(np.int64(drawn), field, ZERO - ((r >> ONE) & ONE))
    return hand & ~bit(card), field, c1 | c2, s


@hot
def random_pair_turns(order, h0, h1, field, c0, c1, top, s):
    """The turns of :func:`play_pair` when both players are random and seat 0 moves first,
    from its state in scalars; returns the state after them (hands, field, piles, the draw
    pile's top, the seat to move, the generator).  The same draws and captures as the general
    loop, both seats' turns an iteration, and a call once a round: its registers are its own
    (inlined into the whole round, the loop's state was spilled)."""
    while h0 != ZERO:
        h0, field, cap, s = random_turn(h0, field, order[np.uint64(top)], s)
        c0 |= cap
        top += 1
        if h1 == ZERO:
            return h0, h1, field, c0, c1, top, 1, s
        h1, field, cap, s = random_turn(h1, field, order[np.uint64(top)], s)
        c1 |= cap
        top += 1
    return h0, h1, field, c0, c1, top, 0, s
