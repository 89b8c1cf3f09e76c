"""Rounds played by a game's own kernel and the same rounds played through positions: the
kernel's policies' choices read back as actions (the random player's turn word replayed from
its stream, greedy's by its tables), so a position played by them must end as the kernel's
round did."""
import numpy as np

from hanasim.engine.bits import month_nibble
from hanasim.engine.rng import GOLDEN, mix64
from hanasim.policies import GREEDY, RANDOM, hand_card, take_high
from hanasim.position import core

ZERO = np.uint64(0)


def two_way(card, field):
    mm = int(field) & int(month_nibble(card))
    return core.bits(mm) if bin(mm).count("1") == 2 else []


def fishing_round(game, seed, policy, expose):
    """(kernel's scores by seat, the position's actions) of one Toppa-family round dealt on
    ``seed``, the dealer player 0; ``policy``/``expose`` per player (expose always/never)."""
    m, tb, n = game.m, game.tb, game.n
    rng = np.array([np.uint64(seed)], dtype=np.uint64)
    order = np.arange(game.n_cards).astype(np.int8)
    groups = np.zeros(n + 1, dtype=np.uint64)
    m.deal_round(rng, order, groups, tb.pattern)
    start_rng = rng.copy()
    st = np.zeros(3 * n + 3, dtype=np.uint64)
    res = np.zeros(m.R_N, dtype=np.int64)
    pol = np.array(policy, dtype=np.int64)
    exp = np.array(expose, dtype=np.int64)
    m.play_dealt(rng, order.copy(), groups.copy(), st, tb, pol, exp, 0, res, None)
    kernel = [int(res[m.R_SCORE + s]) for s in range(n)]
    pos = game.from_cards([core.bits(g) for g in groups[:n]], core.bits(groups[n]),
                          [int(c) for c in order[game.n_dealt:]])
    actions = []
    s = int(start_rng[0])
    r = ZERO
    while not pos.is_over():
        seat = pos.seat
        p = int(pol[seat])
        if pos.phase == "expose":
            a = core.expose(exp[seat] == 1)
        elif pos.phase == "play":
            if p == RANDOM:
                s = (int(s) + int(GOLDEN)) % 2**64
                r = np.uint64(mix64(np.uint64(s)))
            field = pos.data["st"][n]
            hand = pos.data["st"][seat]
            card = int(hand_card(p, hand, field, r, tb.gscore))
            two = two_way(card, field)
            a = core.play(card, two[1] if int(take_high(p, card, field, r, tb.ghigh)) else two[0]
                          ) if two else core.play(card)
        else:
            legal = pos.legal_actions()
            card, high = pos.data["pending"]
            from hanasim.engine.play import capture
            f, _ = capture(card, pos.data["st"][n], high)
            drawn = legal[0].card
            two = two_way(drawn, f)
            a = core.turned(drawn, two[1] if int(take_high(p, drawn, f, r >> np.uint64(1),
                                                           tb.ghigh)) else two[0])
        actions.append(a)
        pos = pos.apply(a)
    return kernel, pos, actions
