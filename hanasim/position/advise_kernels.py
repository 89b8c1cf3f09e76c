"""The lookahead's values of every choice at a position, one value per determinisation and
choice (the kernels' lookahead keeps only their sums): the same determinisations
(``engine.lookahead.determinise``: what the player cannot see dealt again from the *set* of
unseen cards, never from where they lie) and the same rollouts (the game's own kernels played
out by greedy), on a stream of its own (``seed``)."""
import types

import numpy as np
from numba import njit

from ..engine import lookahead as L
from ..engine import play, state
from ..engine.bits import ZERO, bit
from ..games.koikoi import lookahead as KL
from ..games.koikoi.scoring import settle_round
from ..games.koikoi.layout import R_N as KR_N
from ..policies import GREEDY, take_high


def per_game(fn, game: str):
    """``fn`` compiled for one game's tables.  Every game's tables class is named ``Tables``:
    numba's on-disk cache keys a compiled function by its signature's text, so one cached
    function taking two games' tables would load the first game's code for the second (Baka
    scored as Toppa: a test caught it).  A copy of ``fn`` named for the game is cached apart."""
    key = (fn.__name__, game)
    if key not in _PER_GAME:
        clone = types.FunctionType(fn.__code__, fn.__globals__, f"{fn.__name__}_{game}",
                                   fn.__defaults__, fn.__closure__)
        clone.__qualname__ = f"{fn.__qualname__}_{game}"
        clone.__doc__ = fn.__doc__
        _PER_GAME[key] = njit(cache=True)(clone)
    return _PER_GAME[key]


_PER_GAME = {}


def fishing_play(tb, st, order, n, seat, seed, cards, highs, res, out):
    """``out[i, j]``: ``seat``'s round value when it plays ``cards[j]`` (two-way pick
    ``highs[j]``), the turned card taken as greedy takes it and the round played out by greedy,
    in determinisation ``i`` (``engine.lookahead.choose_card``'s loop)."""
    sc = L.new_scratch(st.shape[0], order.shape[0], n)
    look = (tb, res, sc)
    hand = st[seat]
    field = st[n]
    top = np.int64(st[state.top(n)])
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s = L.determinise(st, n, seat, order, top, s, sc)
        drawn = sc.order[top]
        for j in range(cards.shape[0]):
            c = cards[j]
            f, c1 = play.capture(c, field, highs[j])
            f, c2 = play.capture(drawn, f, take_high(GREEDY, drawn, f, ZERO, tb.ghigh))
            out[i, j] = L._after_turn(n, seat, hand & ~bit(c), f, c1 | c2, top, tb.gscore,
                                      tb.ghigh, look)


def fishing_turned(tb, st, order, n, seat, seed, highs, res, out):
    """``out[i, j]``: the value of taking the turned card ``order[top]`` with pick
    ``highs[j]``; ``st`` holds the hand, field and pile after the played card
    (``engine.lookahead.choose_drawn``'s loop)."""
    sc = L.new_scratch(st.shape[0], order.shape[0], n)
    look = (tb, res, sc)
    field = st[n]
    top = np.int64(st[state.top(n)])
    drawn = order[top]
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s = L.determinise(st, n, seat, order, top + 1, s, sc)
        for j in range(highs.shape[0]):
            f, c2 = play.capture(drawn, field, highs[j])
            out[i, j] = L._after_turn(n, seat, st[seat], f, c2, top, tb.gscore, tb.ghigh,
                                      look)


def fishing_expose(tb, st, order, n, seat, seed, slot, v, res, out):
    """``out[i, 0]`` exposing the teyaku worth ``v`` (scored in ``res[slot]``), ``out[i, 1]``
    hiding it, on the state right after the deal (``engine.lookahead.choose_expose``)."""
    sc = L.new_scratch(st.shape[0], order.shape[0], n)
    top = np.int64(st[state.top(n)])
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s = L.determinise(st, n, seat, order, top, s, sc)
        for x in range(st.shape[0]):
            sc.st[x] = sc.base[x]
        play.play_turns(sc.st, n, sc.order, sc.rng, sc.greedy, 0, tb.gscore, tb.ghigh, None,
                        None)
        res[slot] = v
        out[i, 0] = L.round_value(tb, sc.st, seat, res)
        res[slot] = 0
        out[i, 1] = L.round_value(tb, sc.st, seat, res)


@njit(cache=True)
def koikoi_turn(tb, st, order, seat, seed, pols, seen, out):
    """``out[i, j]``: ``seat``'s value (``lookahead.look_value``) of the forced turn
    ``pols[j]`` played then the round by the rollout policy (``lookahead.look_eval``'s loop);
    ``seen``: the first deck position ``seat`` has not seen."""
    sc = KL.new_look_scratch(tb, order.shape[0])
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s = L.determinise(st, 2, seat, order, seen, s, sc)
        for j in range(pols.shape[0]):
            for x in range(st.shape[0]):
                sc.st[x] = sc.base[x]
            sc.greedy[seat] = pols[j]
            sc.greedy[1 - seat] = GREEDY
            out[i, j] = KL.rollout(tb, sc, seat)


@njit(cache=True)
def koikoi_call(tb, stop_st, call_st, order, seat, seed, out):
    """``out[i, 0]`` calling koi-koi (``call_st``, played out), ``out[i, 1]`` collecting now
    (``stop_st`` settled: every card it depends on is seen), as ``lookahead.look_continue``."""
    sc = KL.new_look_scratch(tb, order.shape[0])
    aux = np.zeros(KR_N, np.int64)
    settle_round(stop_st, tb, aux)
    stop = KL.look_value(aux, seat, tb)
    top = np.int64(call_st[5])
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s = L.determinise(call_st, 2, seat, order, top, s, sc)
        for x in range(call_st.shape[0]):
            sc.st[x] = sc.base[x]
        sc.greedy[0] = GREEDY
        sc.greedy[1] = GREEDY
        out[i, 0] = KL.rollout(tb, sc, seat)
        out[i, 1] = stop


def round_values(tables, st, n, res, out):
    """Each seat's settled score of the finished round ``st`` (the game's ``round_value``)."""
    for s in range(n):
        out[s] = L.round_value(tables, st, s, res)


@njit(cache=True)
def koikoi_declare(tb, st, order, seat, seed, other_known, other_declared, other_bits, out):
    """``out[i, 0]`` declaring the lucky hand ``seat`` holds, ``out[i, 1]`` hiding it, each
    finished as ``round.play_dealt`` finishes a round (the declarations settled, a field four,
    play by the rollout policy), on the same determinisations (``lookahead.look_declare``'s
    loop).  The other seat's declaration: known when it declared first, else the rollout's
    (it declares whatever its determinised hand holds)."""
    sc = KL.new_look_scratch(tb, order.shape[0])
    mine = KL.lucky_bits(st[seat])
    top = np.int64(st[5])
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s = L.determinise(st, 2, seat, order, top, s, sc)
        if other_known:
            ob = other_bits if other_declared else 0
            od = other_declared
        else:
            ob = KL.lucky_bits(sc.base[1 - seat])
            od = ob != 0
        for j in range(2):
            for x in range(st.shape[0]):
                sc.st[x] = sc.base[x]
            for x in range(KR_N):
                sc.aux[x] = 0
            me = j == 0
            if seat == 0:
                played = KL.lucky_end(me, od, mine, ob, sc.aux, tb)
            else:
                played = KL.lucky_end(od, me, ob, mine, sc.aux, tb)
            if played and KL.field_four(sc.st, sc.order, sc.aux, tb):
                sc.greedy[0] = GREEDY
                sc.greedy[1] = GREEDY
                KL.play_out(sc.st, sc.order, sc.rng, tb, sc.greedy, sc.decide, np.int64(0))
                settle_round(sc.st, tb, sc.aux)
            out[i, j] = KL.look_value(sc.aux, seat, tb)
