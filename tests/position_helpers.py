"""Rounds played by a game's own kernel and the same rounds played through positions: the
kernel's policies' choices read back as actions (the random player's turn word replayed from
its stream, greedy's by its tables), so a position played by them must end as the kernel's
round did."""
import numpy as np

from hanasim.engine.bits import month_nibble
from hanasim.engine.rng import GOLDEN, mix64
from hanasim.policies import RANDOM, hand_card, take_high
from hanasim.position import core

ZERO = np.uint64(0)


def two_way(card, field):
    mm = int(field) & int(month_nibble(card))
    return core.bits(mm) if bin(mm).count("1") == 2 else []


def fishing_round(game, seed, policy, expose):
    """(kernel's scores by seat, the final position, its actions, the deal) of one
    Toppa-family round (Toppa, Baka, Bakappana) dealt on ``seed``, the dealer player 0;
    ``policy``/``expose`` per player (expose always/never; games without teyaku ignore it)."""
    from hanasim.engine.play import capture

    m, tb, n = game.m, game.tb, game.n
    rng = np.array([np.uint64(seed)], dtype=np.uint64)
    order = np.arange(game.n_cards).astype(np.int8)
    groups = np.zeros(n + 1, dtype=np.uint64)
    if game.teyaku:
        m.deal_round(rng, order, groups, tb.pattern, tb.cond)
    else:
        m.deal_round(rng, order, groups, tb.pattern, n, tb.cond)
    start_rng = rng.copy()
    st = np.zeros(3 * n + 3, dtype=np.uint64)
    res = np.zeros(m.R_N, dtype=np.int64)
    pol = np.array(policy, dtype=np.int64)
    exp = np.array(expose, dtype=np.int64)
    if game.teyaku:
        m.play_dealt(rng, order.copy(), groups.copy(), st, tb, pol, exp, 0, res, None)
    else:
        m.play_dealt(rng, order.copy(), groups.copy(), st, tb, pol, 0, res, None)
    kernel = [int(res[m.R_SCORE + s]) for s in range(n)]
    deal = ([core.bits(g) for g in groups[:n]], core.bits(groups[n]),
            [int(c) for c in order[game.n_dealt:]])
    pos = game.from_cards(*deal)
    actions = []
    s = int(start_rng[0])
    r = ZERO
    worded = game.n_dealt  # the next turn (its deck position) whose word is not drawn yet

    def word(upto):
        # a random player draws one word a turn (engine.play.turn_word), turns played
        # without a choice (the pile's alone) included
        nonlocal s, r, worded
        while worded <= upto:
            if int(pol[(worded - game.n_dealt) % n]) == RANDOM:
                s = (s + int(GOLDEN)) % 2**64
                r = np.uint64(mix64(np.uint64(s)))
            worded += 1

    while not pos.is_over():
        seat = pos.seat
        p = int(pol[seat])
        st_ = pos.data["st"]
        top = int(st_[2 * n + 1])
        if pos.phase == "expose":
            a = core.expose(exp[seat] == 1)
        elif pos.phase == "play":
            word(top)
            field = st_[n]
            hand = st_[seat]
            card = int(hand_card(p, hand, field, r, tb.gscore))
            two = two_way(card, field)
            a = core.play(card, two[1] if int(take_high(p, card, field, r, tb.ghigh)) else two[0]
                          ) if two else core.play(card)
        else:
            legal = pos.legal_actions()
            drawn = legal[0].card
            if pos.data["pending"] is None:  # a turn of the pile alone: bit 0 of its word
                word(top)
                f, rr = st_[n], r
            else:
                card, high = pos.data["pending"]
                f, rr = np.uint64(capture(card, st_[n], high)[0]), r >> np.uint64(1)
            two = two_way(drawn, f)
            a = core.turned(drawn, two[1] if int(take_high(p, drawn, f, rr, tb.ghigh))
                            else two[0])
        actions.append(a)
        pos = pos.apply(a)
    return kernel, pos, actions, deal


def koikoi_round(game, seed, policy, decide, expose, round_number=1):
    """(kernel's scores by seat, the final position, its actions, the deal) of one koi-koi
    round on a
    random deal (``seed``), the dealer player 0, as :func:`fishing_round`; ``decide`` per
    player: ``policies.DEC_STOP`` or ``DEC_CONTINUE`` (called with K=0: always)."""
    from hanasim.engine.deal import deal
    from hanasim.engine.rng import next64
    from hanasim.games import koikoi as K
    from hanasim.position.koikoi_game import month_mask

    tb = game.tb
    order = np.random.default_rng(seed).permutation(48).astype(np.int8)
    groups = np.zeros(3, np.uint64)
    deal(order, tb.pattern, groups)
    if K.is_misdeal(groups, tb.params):
        return None
    rng = np.array([np.uint64(seed)], dtype=np.uint64)
    start_rng = rng.copy()
    res = np.zeros(K.R_N, np.int64)
    pol = np.array(policy, np.int64)
    dec = np.array([[d, 0] for d in decide], np.int64)
    K.play_dealt(rng, order.copy(), groups.copy(), np.zeros(K.KS_N, np.uint64), tb, pol, dec,
                 np.array(expose, np.int64), 0, month_mask(round_number), res, None)
    kernel = [int(res[K.R_SCORE]), int(res[K.R_SCORE + 1])]
    deal = ([core.bits(g) for g in groups[:2]], core.bits(groups[2]),
            [int(c) for c in order[game.n_dealt:]])
    pos = game.from_cards(*deal, round_number=round_number)
    actions = []
    r_rng = start_rng.copy()
    r = ZERO
    while not pos.is_over():
        seat = pos.seat
        p = int(pol[seat])
        st = pos.data["st"]
        wild = st[K.KS_WILD] != ZERO
        if pos.phase == "expose":
            a = core.expose(expose[seat] == 1)
        elif pos.phase == "koikoi":
            a = core.koikoi(decide[seat] != 1)  # DEC_STOP is 1
        elif pos.phase == "play":
            # a random player's word at the turn's start, one more for a second hand card
            # (games.koikoi.turn: kturn, turn_variant)
            if p == RANDOM:
                r = np.uint64(next64(r_rng))
            hand, field = game.hand_and_field(pos.data)
            hand = np.uint64(K.playable(hand, field, wild, tb))
            card = int(hand_card(p, hand, field, r, tb.gscore))
            opts = int(K.take_options(card, field, wild, tb))
            take = None
            if opts:
                _, c = K.put(p, card, field, r, wild, tb)
                take = core.bits(int(c) & opts)[0]
            a = core.play(card, take)
        else:
            _, f = game.hand_and_field(pos.data)
            drawn = int(pos.data["order"][int(st[5])])
            opts = int(K.take_options(drawn, f, wild, tb))
            _, c = K.put(p, drawn, f, r >> np.uint64(1), wild, tb)
            a = core.turned(drawn, core.bits(int(c) & opts)[0])
        actions.append(a)
        pos = pos.apply(a)
    return kernel, pos, actions, deal


def kernel_record(game, seeds, policy=(0, 1), decide=(2, 1), expose=(1, 1)):
    """A record (dict) of kernel-played rounds, the deal passing round by round, and each
    player's kernel points by round: ``(record, [[points by player] by round])``."""
    from hanasim.position import record as R

    a = game.adapter
    rounds, points = [], []
    seed = seeds[0]
    while len(rounds) < len(seeds):
        i = len(rounds)
        if game.name == "koikoi":
            out = koikoi_round(a, seed, policy, decide, expose, round_number=i + 1)
        elif game.name == "ishikari_toppa":
            t = a.table
            out = ishikari_round(a, seed, [(seed >> s) & 1 for s in range(t)],
                                 [0 if (seed >> s) & 2 else 10**6 for s in range(t)],
                                 [1] * t)
        else:
            out = fishing_round(a, seed, (list(policy) + [0] * a.n)[:a.n],
                                (list(expose) + [1] * a.n)[:a.n])
        seed += 1
        if out is None:
            continue
        kernel, pos, actions, deal = out
        n = game.n  # the table's seats
        dealer = i % n
        rounds.append(R.round_json(game, dealer + 1, *deal, actions,
                                   month=i + 1 if game.name == "koikoi" else None))
        pts = [0] * n
        for s, v in enumerate(kernel):
            pts[(dealer + s) % n] = v
        points.append(pts)
    return R.record_json(game, rounds, game.rules_given, game.preset), points


def ishikari_round(game, seed, policy, join, expose, mult=1):
    """(kernel's scores by table seat, the final position, its actions, the deal) of one
    Ishikari Toppa round on ``seed`` (dealer player 0): per table seat ``policy`` (random or
    greedy), ``join`` (a join threshold K: 0 always joins; a large K drops) and ``expose``
    (always/never).  None when an active hand holds a Hachi-hachi Four of a Kind (its swap is
    not reached)."""
    from hanasim.engine.join import JOIN_ALWAYS, JOIN_THRESHOLD, PC_CARD, PC_EXPOSE, PC_JOIN, \
        PC_JPARAM, PC_N
    from hanasim.position.ishikari import R

    a = game
    tb, n = a.tb, a.table
    pol = np.zeros((n, PC_N), dtype=np.int64)
    for s in range(n):
        pol[s, PC_CARD] = policy[s]
        pol[s, PC_JOIN] = JOIN_ALWAYS if join[s] == 0 else JOIN_THRESHOLD
        pol[s, PC_JPARAM] = join[s]
        pol[s, PC_EXPOSE] = expose[s]
    work = lambda: (np.array([np.uint64(seed)], dtype=np.uint64),  # noqa: E731
                    np.arange(48).astype(np.int8), np.zeros(48, np.int8),
                    np.zeros(n + 1, np.uint64), np.zeros(R.ACTIVE + 1, np.uint64),
                    np.zeros(3 * R.ACTIVE + 3, np.uint64), np.zeros(R.ACTIVE, np.int64),
                    np.zeros(R.ACTIVE, np.int64), np.zeros(R.R_N, np.int64))
    rng, order, order3, groups, g3, st, pol3, exp3, res = work()
    R.play_round(rng, order, order3, groups, g3, st, tb, pol, pol3, exp3, 0, mult, res, None)
    kernel = [0] * n
    for k in range(R.ACTIVE):
        kernel[int(res[R.R_ACT_SEAT + k])] = int(res[R.R_SCORE + k])
    # the same steps up to the play on a copy: the play's random stream
    rng2, order2, order32, groups2, g32, st2, pol32, exp32, res2 = work()
    R.deal_round(rng2, order2, groups2, tb.pattern, n, tb.cond)
    R.join_phase(groups2, tb, pol, 0, rng2, res2)
    R.active_round(rng2, order2, groups2, g32, order32, st2, tb, pol, pol32, exp32, 0, res2)
    if a.hachihachi and any(R.has_full_nibble(g32[k]) for k in range(R.ACTIVE)):
        return None
    deal = ([core.bits(g) for g in groups[:n]], core.bits(groups[n]),
            [int(c) for c in order3[a.n_dealt:]])
    pos = a.from_cards(*deal, multiplier=mult)
    actions = []
    s = int(rng2[0])
    r = ZERO
    worded = a.n_dealt
    active = None
    while not pos.is_over():
        seat = pos.seat
        p = int(pol[seat, PC_CARD])
        if pos.phase == "join":
            ch = int(res[R.R_CHOICE + seat])
            act = core.Action("join", yes=ch in (R.CH_JOIN, R.CH_CHASE))
        elif pos.phase == "expose":
            act = core.expose(expose[seat] == 1)
        else:
            active = pos.data["active"]
            st_ = pos.data["st"]
            top = int(st_[2 * R.ACTIVE + 1])
            while worded <= top:  # a random player's word a turn (engine.play.turn_word)
                if int(pol[active[(worded - a.n_dealt) % R.ACTIVE], PC_CARD]) == RANDOM:
                    s = (s + int(GOLDEN)) % 2**64
                    r = np.uint64(mix64(np.uint64(s)))
                worded += 1
            k = a.inner_seat(pos)
            field = st_[R.ACTIVE]
            if pos.phase == "play":
                card = int(hand_card(p, st_[k], field, r, tb.gscore))
                two = two_way(card, field)
                act = core.play(card, two[1] if int(take_high(p, card, field, r, tb.ghigh))
                                else two[0]) if two else core.play(card)
            else:
                from hanasim.engine.play import capture
                card, high = pos.data["pending"]
                f = np.uint64(capture(card, field, high)[0])
                drawn = pos.legal_actions()[0].card
                two = two_way(drawn, f)
                act = core.turned(drawn, two[1] if int(take_high(p, drawn, f, r >> np.uint64(1),
                                                                 tb.ghigh)) else two[0])
        actions.append(act)
        pos = pos.apply(act)
    return kernel, pos, actions, deal
