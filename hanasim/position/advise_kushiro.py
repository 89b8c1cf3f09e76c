"""The Kushiro Toppa lookahead's values of every choice at a position, one per
determinisation and choice (``games.kushiro.lookahead`` keeps only their sums): the same
determinisations (``engine.lookahead.determinise``: the opponent's hand less its shown teyaku
cards and the rest of the pile dealt again from the set of unseen cards) and the same
rollouts (``play._rest_of_turn``, ``play.rollout``: greedy cards, Yoroshii at once), the
value the seat's dekiyaku chips (``turn.play_value``; a claim's chips are added where the
choice is the claim), on a stream of its own (``seed``).  The choices before the play (join
or drop, the four-in-hand swap) deal the whole table again, as ``lookahead._look_join`` and
``lookahead._look_swap`` do, and value the round as ``lookahead._dealt_value`` plays it."""
from importlib import import_module

import numpy as np
from numba import njit

from ..engine.bits import ZERO, bit, count
from ..engine.lookahead import deal_others, determinise, gather, new_scratch, shuffle
from ..engine.play import capture
from ..games.kushiro.rules import HAND_SIZE, MAX_PLAYERS
from ..games.kushiro.slots import K_CUR, K_FIELD, K_N_ALL, K_TOP, KS_N, PILE_N, R_N

KP = import_module("hanasim.games.kushiro.play")
KT = import_module("hanasim.games.kushiro.turn")
KLA = import_module("hanasim.games.kushiro.lookahead")
KLO = import_module("hanasim.games.kushiro.lower")
KPO = import_module("hanasim.games.kushiro.policy")
KTE = import_module("hanasim.games.kushiro.teyaku")


@njit(inline="always")
def _look(tb):
    return (tb, np.zeros(R_N, dtype=np.int64), new_scratch(KS_N, PILE_N, 2),
            KLA.greedy_rows(np.zeros((MAX_PLAYERS, KPO.PC_N), dtype=np.int64)))


@njit(cache=True)
def kushiro_play(tb, ks, pile, seed, cards, highs, out):
    """``out[i, j]``: the seat to move's chips when it plays ``cards[j]`` (two-way pick
    ``highs[j]``), the turned card taken as greedy takes it, then greedy/stop play
    (``play._look_turn``'s first loop)."""
    _t, _r, sc, gpol = _look(tb)
    cur = np.int64(ks[K_CUR])
    hand = ks[cur]
    field = ks[K_FIELD]
    top = np.int64(ks[K_TOP])
    seen = pile[:np.int64(ks[K_N_ALL])]
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s = determinise(ks, 2, cur, seen, top, s, sc)
        for j in range(cards.shape[0]):
            for x in range(KS_N):
                sc.st[x] = sc.base[x]
            c = cards[j]
            f, c1 = capture(c, field, highs[j])
            out[i, j] = KP._rest_of_turn(sc, tb, gpol, cur, hand & ~bit(c), f, c1, top, ZERO,
                                         False)


@njit(cache=True)
def kushiro_turned(tb, ks, pile, seed, hand, field, cap, highs, out):
    """``out[i, j]``: the value of the turned card (the pile's top) taking with pick
    ``highs[j]``, after the hand card left ``hand``, ``field`` and its capture ``cap``
    (``play._look_turn``'s second loop)."""
    _t, _r, sc, gpol = _look(tb)
    cur = np.int64(ks[K_CUR])
    top = np.int64(ks[K_TOP])
    seen = pile[:np.int64(ks[K_N_ALL])]
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s = determinise(ks, 2, cur, seen, top + 1, s, sc)
        for j in range(highs.shape[0]):
            for x in range(KS_N):
                sc.st[x] = sc.base[x]
            out[i, j] = KP._rest_of_turn(sc, tb, gpol, cur, hand, field, cap, top, highs[j],
                                         True)


@njit(cache=True)
def kushiro_call(tb, ks, pile, seed, v, h, out):
    """``out[i, 0]`` Yoroshii now (the dekiyaku's ``v`` chips), ``out[i, 1]`` Iku and the play
    on by greedy/stop (``play._look_continue``'s loop); ``ks`` right after the turn."""
    _t, _r, sc, gpol = _look(tb)
    cur = np.int64(ks[K_CUR])
    top = np.int64(ks[K_TOP])
    seen = pile[:np.int64(ks[K_N_ALL])]
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s = determinise(ks, 2, cur, seen, top, s, sc)
        for x in range(KS_N):
            sc.st[x] = sc.base[x]
        KT._decide(sc.st, cur, True, v, h)
        sc.st[K_CUR] = np.uint64(cur ^ 1)
        KP.rollout(sc.st, sc.order, sc.rng, tb, gpol)
        out[i, 0] = float(v)
        out[i, 1] = KT.play_value(sc.st, tb, cur)


@njit(cache=True)
def kushiro_expose(tb, ks, pile, seed, cur, mine, opp, out):
    """``out[i, 0]`` claiming the teyaku worth ``mine`` chips, ``out[i, 1]`` hiding them, for
    the play's seat ``cur`` before the first turn (``opp``: the opponent's claimed teyaku
    bits, -1 undecided: it then claims any it holds, as greedy does), as
    ``lookahead._look_expose`` values them: under ``teyaku_effect=round_ends`` a claim ends
    the round (the claims' chips), hiding plays on unless the opponent claims; under
    ``play_on`` both play on, the claim adding its chips."""
    _t, _r, sc, gpol = _look(tb)
    p = tb.params
    km = tb.kind_masks
    seen = pile[:np.int64(ks[K_N_ALL])]
    ends = p[KLO.P_TEY_ENDS] != 0
    s = np.uint64(seed)
    for i in range(out.shape[0]):
        s = determinise(ks, 2, cur, seen, 0, s, sc)
        ob = opp
        if opp < 0:
            ob = KTE.teyaku_bits(sc.base[1 - cur], km[0], km[1], km[2], km[3],
                                 p[KLO.P_READING], p[KLO.P_PAIRS])
        oc = float(count(np.uint64(ob)) * p[KLO.P_TEY_VALUE])
        if ends and ob != 0:
            out[i, 0] = float(mine) - oc
            out[i, 1] = -oc
            continue
        for x in range(KS_N):
            sc.st[x] = sc.base[x]
        KP.rollout(sc.st, sc.order, sc.rng, tb, gpol)
        play = KT.play_value(sc.st, tb, cur)
        out[i, 0] = float(mine) - oc if ends else float(mine) - oc + play
        out[i, 1] = play if ends else play - oc




@njit(cache=True)
def kushiro_join(tb, hands, field, s, j, res, seed, out):
    """``out[i, 0]`` joining, ``out[i, 1]`` dropping (0 chips) for seat ``s``, the ``j``-th
    to speak (``res``: the earlier seats' R_PLAYS), as ``lookahead._look_join`` values them:
    the round dealt again from the cards the seat cannot see (the other hands and the draw
    pile), the later seats speaking by greedy's threshold, both teyaku claimed, the play by
    greedy/stop (``lookahead._dealt_value``)."""
    _t, _r, sc, gpol = _look(tb)
    n = tb.params[KLO.P_PLAYERS]
    mine = hands[s]
    m = gather(sc.cards, ~(mine | field) & np.uint64(0xFFFFFFFFFFFF))
    st = np.uint64(seed)
    for i in range(out.shape[0]):
        st = shuffle(sc.cards, m, st)
        x = deal_others(sc.cards, sc.high, 0, n, s, mine, HAND_SIZE)
        out[i, 0] = KLA._dealt_value(sc, tb, gpol, n, s, j, res, field, x, m)
        out[i, 1] = 0.0


@njit(cache=True)
def kushiro_swap(tb, hands, field, s, c0, fm, known, seed, out):
    """``out[i, 0]`` swapping (a card of the four of ``c0``'s month, picked as ``swap_pick``
    says, for the pile's top), ``out[i, 1]`` keeping the four, for seat ``s`` right after the
    deal, as ``lookahead._look_swap`` values them: the other hands and the pile dealt again
    from what the seat cannot see (``known``: the pile's top when the seat's own earlier swap
    put it there, else -1), the seat's later fours (``fm``) and the later seats' swapped by
    greedy, then the round as ``lookahead._dealt_value`` plays it.  The same deals and picks
    serve both choices."""
    _t, res, sc, gpol = _look(tb)
    n = tb.params[KLO.P_PLAYERS]
    lowest_pick = tb.params[KLO.P_PICK_LOWEST] != 0
    mine = hands[s]
    seen = mine | field
    if known >= 0:
        seen |= bit(known)
    m = gather(sc.cards, ~seen & np.uint64(0xFFFFFFFFFFFF))
    st = np.uint64(seed)
    for i in range(out.shape[0]):
        st, v_swap, v_keep = KLA._swap_sample(sc, tb, gpol, n, s, c0, fm, known, res, field,
                                              mine, m, lowest_pick, st)
        out[i, 0] = v_swap
        out[i, 1] = v_keep


__all__ = ["kushiro_play", "kushiro_turned", "kushiro_call", "kushiro_expose", "kushiro_join",
           "kushiro_swap"]
