"""The Taipa lookahead's values of every choice at a position, one per determinisation and
choice (``games.taipa.lookahead`` keeps only their sums): one determinisation of a choice is
valued by the kernel's own code (``lookahead._turn_sample``, ``_call_sample``: the opponent's
hand and the rest of the round's deck dealt again from the set of unseen cards, the turn
finished, the round played out by greedy cards and greedy's agari with Taipa's own round, the
value the seat's coins won or paid), on a stream of its own (``seed``).
Which ribbons and chaff leave play (``yaku_cards=choice``) is valued as ``yaku_choice`` values
it: the player's coins at the game's end, the rest of the game played by greedy."""
from importlib import import_module

import numpy as np
from numba import njit

from ..engine.bits import ONE, ZERO, lowest
from ..engine.rng import GOLDEN, mix64
from ..games.taipa import lookahead as TL
from ..games.taipa.game import look_context
from ..games.taipa.round import S_PILE

YC = import_module("hanasim.games.taipa.yaku_choice")


@njit(inline="always")
def _look(tb, coins):
    look = look_context(tb, None, None)
    sc = look[2]
    sc.aux[TL.A_COINS] = coins[0]
    sc.aux[TL.A_COINS + 1] = coins[1]
    return look


@njit(cache=True)
def taipa_play(tb, st, order, n, seat, seed, coins, cards, picks, out):
    """``out[i, j]``: ``seat``'s coins when it plays ``cards[j]`` taking its field match
    ``picks[j]`` (index in card order), the turned card taken as greedy takes it, then the
    round by greedy, in determinisation ``i`` (``lookahead._turn_sample``, the kernel's)."""
    look = _look(tb, coins)
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s = TL._turn_sample(look, st, order, n, seat, s, False, ZERO, cards, picks,
                            cards.shape[0], out[i])


@njit(cache=True)
def taipa_turned(tb, st, order, n, seat, seed, coins, card, cap, picks, out):
    """``out[i, j]``: the value of the turned card ``order[top]`` taking its field match
    ``picks[j]``; ``st`` holds the hand, field and pile after the hand card ``card`` (its
    captures ``cap``) (``lookahead._turn_sample``, the kernel's)."""
    look = _look(tb, coins)
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s = TL._turn_sample(look, st, order, n, seat, s, True, cap, picks, picks, picks.shape[0],
                            out[i])


@njit(cache=True)
def taipa_call(tb, st, order, n, seat, seed, coins, out):
    """``out[i, 0]`` agari now, ``out[i, 1]`` koi-koi and the round played on by greedy
    (``lookahead._call_sample``, the kernel's); ``st``: right after the turn, the yaku
    counted."""
    look = _look(tb, coins)
    stop = TL._value(st, seat + 1, seat, tb, look[2].aux)
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s, v = TL._call_sample(look, st, order, n, seat, s)
        out[i, 0] = stop
        out[i, 1] = v


__all__ = ["taipa_play", "taipa_turned", "taipa_call", "taipa_leave", "S_PILE"]


@njit(cache=True)
def taipa_leave(tb, base, pile, ways, q, c0, c1, first, played, seed, out):
    """``out[i, j]``: player ``q``'s coins at the game's end when ``pile``'s ribbons and chaff
    ``ways[j]`` leave play (``base``: the next deck before them), the rest of the game played
    by greedy from random deals of its deck, the same deals for every way
    (``yaku_choice._eval_removals``' loop: the deck laid out as the cards every way keeps,
    then the pile's kept cards; ``yaku_choice._rest_of_game``); ``c0``, ``c1`` the coins
    after the round, ``first`` its first player, ``played`` the rounds played."""
    look = look_context(tb, None, None)
    sc = look[2]
    tmp = np.zeros(64, dtype=np.int64)
    v_all = pile & (tb.kinds[2] | tb.kinds[3])
    common = base & ~v_all
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s += GOLDEN
        sd = mix64(s)
        for j in range(ways.shape[0]):
            kept = v_all & ~ways[j]
            k = 0
            for part in (common, kept):
                x = part
                while x:
                    sc.order[k] = lowest(x)
                    x &= x - ONE
                    k += 1
            sc.rng[0] = sd
            out[i, j] = float(YC._rest_of_game(common | kept, c0, c1, first, played, q, look,
                                               tmp))
