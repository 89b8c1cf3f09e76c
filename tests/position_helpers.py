"""Rounds played by a game's own kernel and the same rounds played through positions: the
kernel's policies' choices read back as actions (the random player's turn word replayed from
its stream, greedy's by its tables), so a position played by them must end as the kernel's
round did."""
import numpy as np

from hanasim.engine.bits import has_full_nibble, month_nibble
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
    mult = 1  # Ishikari Toppa's chase multiplier, carried as its session carries it
    dealer = 0  # each later round's: the one the rules name (``next_dealer``)
    while len(rounds) < len(seeds):
        i = len(rounds)
        if game.name == "koikoi":
            out = koikoi_round(a, seed, policy, decide, expose, round_number=i + 1)
        elif game.name == "ishikari_toppa":
            t = a.table
            out = ishikari_round(a, seed, [(seed >> s) & 1 for s in range(t)],
                                 [0 if (seed >> s) & 2 else 10**6 for s in range(t)],
                                 [1] * t, mult=mult)
        else:
            out = fishing_round(a, seed, (list(policy) + [0] * a.n)[:a.n],
                                (list(expose) + [1] * a.n)[:a.n])
        seed += 1
        if out is None:
            continue
        kernel, pos, actions, deal = out
        n = game.n  # the table's seats
        rounds.append(R.round_json(game, dealer + 1, *deal, actions,
                                   month=i + 1 if game.name == "koikoi" else None))
        if game.name == "ishikari_toppa":
            from hanasim.position.ishikari import R as IR

            rounds[-1]["multiplier"] = mult
            chased = a.tb.params[IR.P_CHASE] and a.chasers(pos) > 0
            mult = mult + 1 if chased else 1
            if (i + 1) % int(a.tb.params[IR.P_GAME_ROUNDS]) == 0:
                mult = 1
        pts = [0] * n
        for s, v in enumerate(kernel):
            pts[(dealer + s) % n] = v
        points.append(pts)
        dealer = next_dealer(game, pos, dealer)
    return R.record_json(game, rounds, game.rules_given, game.preset), points


def next_dealer(game, pos, dealer, coins=None):
    """The next round's dealer as the rules name it after the finished round ``pos``
    (player indices; of several the rules leave open, the lowest)."""
    from hanasim.position.dealers import next_dealers

    return min(next_dealers(game, pos, dealer, coins)[0])


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
    if a.hachihachi and any(has_full_nibble(g32[k]) for k in range(R.ACTIVE)):
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


def taipa_round(game, seed, policy, decide, deck_size=48, first=0):
    """(kernel's result slots, the final position, its actions, the deal) of one Taipa round
    played by ``games.taipa.round.play_round`` on a deck of ``deck_size`` cards (a random
    subset: a later round's deck), ``policy``/``decide`` per player (card policy ids,
    (decision, parameter) rows); the same round played through positions, the kernel's
    choices replayed from its random stream."""
    from hanasim.engine.rng import next64
    from hanasim.games.taipa import round as TR
    from hanasim.games.taipa.yaku import cards_missing, yaku_points
    from hanasim.policies import CONTINUE, group_hand_card, group_pick

    tb = game.tb
    gen = np.random.default_rng(seed)
    deck = gen.permutation(48)[:deck_size]
    order = np.zeros(48, dtype=np.int8)
    order[:deck_size] = deck
    pol = np.array(policy, dtype=np.int64)
    dec = np.array(decide, dtype=np.int64)
    rng = np.array([np.uint64(seed * 7919 + 1)], dtype=np.uint64)
    rng0 = rng.copy()
    res = np.zeros(TR.R_N, dtype=np.int64)
    st = np.zeros(TR.ST_N, dtype=np.uint64)
    cap = np.zeros(48, dtype=np.int64)
    TR.play_round(order, deck_size, rng, tb, pol, dec, first, res, cap, st, None)
    h = [int(c) for c in deck]
    dealt = ([h[:6], h[6:12]], h[12:18], h[18:])
    pos = game.from_cards(*dealt)
    rng = rng0
    actions = []
    gm, go = tb.group_masks, tb.group_of
    while not pos.is_over():
        d = pos.data
        st_ = d["st"]
        seat = pos.seat
        q = first ^ seat
        if pos.phase == "play":
            r = np.uint64(next64(rng)) if pol[q] == RANDOM else ZERO
            hand, field = st_[seat], st_[TR.S_FIELD]
            card = int(group_hand_card(pol[q], hand, field, r, go, gm, tb.weights))
            mm = field & gm[go[card]]
            take = None
            if core.bits(mm):
                take = core.bits(mm)[int(group_pick(pol[q], mm, r, tb.weights))]
            legal = pos.legal_actions()
            a = core.play(card, take if core.play(card, take) in legal else None)
            word = r
        elif pos.phase == "leave":  # yaku_cards=choice after the round: greedy's way
            a = pos.legal_actions()[0]
        elif pos.phase == "turned":
            f, _ = game._capture(d["pending"][0], st_[TR.S_FIELD], d["pending"][1])
            drawn = pos.legal_actions()[0].card
            mm = np.uint64(f) & gm[go[drawn]]
            take = core.bits(mm)[int(group_pick(pol[q], mm, word >> np.uint64(16),
                                                tb.weights))]
            a = core.turned(drawn, take)
        else:
            left = bin(int(st_[seat])).count("1")
            v, _ = yaku_points(st_[TR.S_PILE + seat], tb)
            om = cards_missing(st_[TR.S_PILE + (seat ^ 1)], tb)
            from hanasim.policies import LEGAL_BOTH, choose_continue
            a = core.koikoi(choose_continue(dec[q, 0], dec[q, 1], LEGAL_BOTH, left, v, om,
                                            rng) == CONTINUE)
        actions.append(a)
        pos = pos.apply(a)
    return res, pos, actions, dealt


def kushiro_round(game, seed, rows):
    """(kernel's chips by seat, the final position, its actions, the deal) of one Kushiro
    Toppa round played by ``games.kushiro.round.play_round`` (dealer player 0) at the game's
    table (2-4 players), ``rows`` each player's policy row (PC_* columns; swap never, always
    or random; join always, random or a threshold; expose always or never).  The deal is
    (hands, field, stock[, the draw pile after the drop]); None when the kernel redealt (a
    void deal under ``undecided=redeal``: the kernel deals again within its round)."""
    from hanasim.engine.play import capture
    from importlib import import_module
    KR = import_module("hanasim.games.kushiro.round")
    from hanasim.engine.join import JOIN_ALWAYS, JOIN_RANDOM
    from hanasim.engine.rng import below
    from hanasim.games.kushiro.lower import P_PICK_LOWEST
    from hanasim.games.kushiro.policy import (PC_CARD, PC_DEC, PC_DPARAM, PC_EXPOSE, PC_JOIN,
                                              PC_JPARAM, PC_N, PC_SWAP, cards_missing,
                                              join_strength)
    from hanasim.games.kushiro.slots import (K_FIELD, K_PA, KS_N, PILE_N, R_CHIPS,
                                             R_END_PILE, R_N, R_REDEALS)
    from hanasim.policies import CONTINUE, DEC_THRESHOLD, LEGAL_BOTH, choose_continue

    tb = game.tb
    n = game.table
    drng = np.array([np.uint64(seed * 104729 + 3)], dtype=np.uint64)
    rng = np.array([np.uint64(seed * 7919 + 5)], dtype=np.uint64)
    rng0 = rng.copy()
    order = np.arange(48).astype(np.int8)
    pile = np.zeros(PILE_N, dtype=np.int8)
    hands = np.zeros(4, dtype=np.uint64)
    ks = np.zeros(KS_N, dtype=np.uint64)
    pol = np.zeros((4, PC_N), dtype=np.int64)
    for q, row in enumerate(rows[:n]):
        pol[q, :len(row)] = row
    res = np.zeros(R_N, dtype=np.int64)
    dealt = np.arange(48).astype(np.int8)
    KR.deal_round(drng.copy(), dealt, n, tb.cond)  # the deal as dealt (a swap changes order)
    KR.play_round(drng, rng, order, pile, hands, ks, tb, pol, 0, res, None)
    if res[R_REDEALS]:
        return None
    o = [int(c) for c in dealt]
    top = 10 * n + 8
    deal = ([o[10 * s:10 * s + 10] for s in range(n)], o[10 * n:top], o[top:])
    play_pile = None
    if n > 2 and game.dropped != "aside":
        play_pile = [int(c) for c in pile[:int(res[R_END_PILE])]]
        deal = deal + (play_pile,)
    kernel = [int(res[R_CHIPS + s]) for s in range(n)]
    pos = game.from_cards(*deal[:3], play_pile=play_pile)
    rng = rng0
    actions = []
    r = ZERO
    while not pos.is_over():
        d = pos.data
        seat = pos.seat
        if pos.phase == "swap":
            sw = int(pol[seat, PC_SWAP])
            c0 = d["swaps"][len(d["swapped"])][1]
            if sw == 0 or (sw == 2 and below(rng, 2) == 0):
                a = core.swap(None)
            else:
                a = core.swap(c0 + (0 if tb.params[P_PICK_LOWEST] else int(below(rng, 4))))
        elif pos.phase == "join":
            jp = int(pol[seat, PC_JOIN])
            if jp == JOIN_ALWAYS:
                yes = True
            elif jp == JOIN_RANDOM:
                yes = below(rng, 2) == 1
            else:
                yes = join_strength(d["groups"][seat], d["field"], tb.kind_masks[3]) \
                    >= pol[seat, PC_JPARAM]
            a = core.Action("join", yes=bool(yes))
        elif pos.phase == "expose":
            a = core.expose(pol[seat, PC_EXPOSE] == 1)
        elif pos.phase == "play":
            k = game.inner_seat(pos)
            cp = int(pol[seat, PC_CARD])
            r = ZERO
            if cp == RANDOM:
                rng[0] = np.uint64((int(rng[0]) + int(GOLDEN)) % 2**64)
                r = np.uint64(mix64(rng[0]))
            ks_ = d["ks"]
            field = ks_[K_FIELD]
            card = int(hand_card(cp, ks_[k], field, r, tb.gscore))
            two = two_way(card, field)
            a = core.play(card, two[1] if int(take_high(cp, card, field, r, tb.ghigh))
                          else two[0]) if two else core.play(card)
        elif pos.phase == "turned":
            cp = int(pol[seat, PC_CARD])
            card, high = d["pending"]
            f = np.uint64(capture(card, d["ks"][K_FIELD], high)[0])
            drawn = pos.legal_actions()[0].card
            two = two_way(drawn, f)
            a = core.turned(drawn, two[1] if int(take_high(cp, drawn, f, r >> np.uint64(1),
                                                             tb.ghigh)) else two[0])
        else:
            k = game.inner_seat(pos)
            ks_ = d["ks"]
            v, h = d["decision"]
            dec = int(pol[seat, PC_DEC])
            om = 99
            if dec == DEC_THRESHOLD:
                om = cards_missing(ks_[K_PA + 1 - k], tb.yaku_masks, tb.yaku_ints)
            left = bin(int(ks_[k])).count("1")
            a = core.koikoi(choose_continue(dec, int(pol[seat, PC_DPARAM]), LEGAL_BOTH, left,
                                            v, om, rng) == CONTINUE)
        actions.append(a)
        pos = pos.apply(a)
    return kernel, pos, actions, deal


def taoshi_round(game, seed, cards, claims, joins=None):
    """(kernel's scores by seat in points, the final position, its actions, the deal) of one
    Taoshi round played by ``games.taoshi.round.play_round`` (dealer player 0) at the game's
    table: ``cards`` each player's card policy (random, greedy), ``claims`` each one's claim
    choice (always, never), ``joins`` (4-6 players) each one's join threshold (0: always);
    the same round through positions, the random stream replayed.  The deal is (hands in
    dealt order, field, stock[, the draw pile after the drop])."""
    from importlib import import_module

    from hanasim.engine.join import JOIN_ALWAYS, JOIN_THRESHOLD
    from hanasim.engine.play import capture
    from hanasim.games.taoshi.policy import PC_CARD, PC_EXPOSE, PC_JOIN, PC_JPARAM, PC_N
    from hanasim.games.taoshi.slots import PBUF, R_N, R_SCORE, ST_N

    TR = import_module("hanasim.games.taoshi.round")
    TL = import_module("hanasim.games.taoshi.lower")
    tb = game.tb
    n = game.table
    drng = np.array([np.uint64(seed * 104729 + 7)], dtype=np.uint64)
    rng = np.array([np.uint64(seed * 7919 + 11)], dtype=np.uint64)
    r_rng = rng.copy()
    order = np.arange(48).astype(np.int8)
    hands = np.zeros(7, dtype=np.uint64)
    pbuf = np.zeros(PBUF, dtype=np.int8)
    st = np.zeros(ST_N, dtype=np.uint64)
    pol3 = np.zeros(3, dtype=np.int64)
    pol = np.zeros((6, PC_N), dtype=np.int64)
    for q in range(n):
        pol[q, PC_CARD] = cards[q]
        pol[q, PC_EXPOSE] = claims[q]
        if joins is not None:
            pol[q, PC_JOIN] = JOIN_ALWAYS if joins[q] == 0 else JOIN_THRESHOLD
            pol[q, PC_JPARAM] = joins[q]
    res = np.zeros(R_N, dtype=np.int64)
    TR.play_round(drng, rng, order, hands, pbuf, st, pol3, tb, pol, 0, res, None)
    unit = int(tb.params[TL.P_UNIT])
    kernel = [int(res[R_SCORE + s]) / unit for s in range(n)]
    if n == 3:
        deal = ([core.bits(h) for h in hands[:3]], core.bits(hands[3]), [int(c) for c in pbuf])
        pos = game.from_cards(*deal)
    else:
        nd = 7 * n + 6
        dealt = [[int(order[i]) for i in range(nd) if tb.deal_to[i] == s] for s in range(n)]
        deal = (dealt, core.bits(hands[n]), [int(c) for c in order[nd:]],
                [int(c) for c in pbuf])
        pos = game.from_cards(*deal[:3], play_pile=deal[3])
    actions = []
    s = int(r_rng[0])
    r = ZERO
    while not pos.is_over():
        seat = pos.seat
        d = pos.data
        p = int(cards[seat])
        if pos.phase == "join":
            from hanasim.games.taoshi.score import hand_points

            v = hand_points(np.uint64(core.mask(d["hands"][seat])), tb.pmask) + \
                game.teyaku_value(core.mask(d["hands"][seat]))
            a = core.Action("join", yes=bool(v >= joins[seat]))
        elif pos.phase == "expose":
            a = core.expose(claims[seat] == 1)
        elif pos.phase == "play":
            st_ = d["st"]
            k = game.inner_seat(pos)
            r = ZERO
            if p == RANDOM:
                s = (s + int(GOLDEN)) % 2**64
                r = np.uint64(mix64(np.uint64(s)))
            field = st_[3]
            card = int(hand_card(p, st_[k], field, r, tb.gscore))
            two = two_way(card, field)
            a = core.play(card, two[1] if int(take_high(p, card, field, r, tb.ghigh))
                          else two[0]) if two else core.play(card)
        else:
            st_ = d["st"]
            card, high = d["pending"]
            f = np.uint64(capture(card, st_[3], high)[0])
            drawn = pos.legal_actions()[0].card
            two = two_way(drawn, f)
            a = core.turned(drawn, two[1] if int(take_high(p, drawn, f, r >> np.uint64(1),
                                                            tb.ghigh)) else two[0])
        actions.append(a)
        pos = pos.apply(a)
    return kernel, pos, actions, deal
