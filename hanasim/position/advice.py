"""Advice on a position: every legal action of the player to act valued by the lookahead.

Each action's value is its mean over ``samples`` determinisations of what the player cannot
see (the other hands, less any exposed cards, and the undrawn pile, dealt again from the set
of unseen cards: ``engine.lookahead.determinise``, never the hidden cards themselves), the
round played out by the game's own kernels with greedy players (``advise_kernels``).  The same
determinisations serve every action, so differences between actions are paired.

What a value is: the game's lookahead value of the round for the player, in the game's unit:
Toppa and Baka the seat's settled round score (Taoshi's in points, the kernels' 1/unit points
divided as its tables divide them); koi-koi the seat's points less the opponent's
(what decides a game; the points alone under zero-sum scoring); Taipa the coins the seat wins
or pays (what the Taipa lookahead maximises); Kushiro Toppa the seat's dekiyaku chips from the
play (and a teyaku claim's chips where the choice is the claim), as its lookahead values them;
Ishikari Toppa the active player's settled round score before the chase multiplier (at the
join: joining against dropping, 0, as its lookahead join values them).

``chosen``: the action the lookahead policy would take with the same determinisations (greedy's
own unless another's paired mean gain is significant: ``engine.lookahead._pick``).
"""
from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from ..engine import lookahead as L
from .core import Action, PositionError, bits, play, turned

#: the two-sided 99.9% normal quantile of the intervals
Z999 = NormalDist().inv_cdf(1 - 0.001 / 2)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
ZERO = np.uint64(0)


@dataclass(frozen=True)
class Advice:
    """The advice at one position: ``rows`` in the game's enumeration, greedy's own first."""

    seat: int
    phase: str
    actions: list          # Action, one per row
    values: np.ndarray     # float64[samples, actions]
    chosen: int            # index of the lookahead's choice
    greedy: int = 0        # index of greedy's choice (an expose: exposing, ``--expose always``)
    unit: int = 1          # the values were divided by it (Taoshi: the kernels' 1/unit point)

    @property
    def means(self):
        return self.values.mean(axis=0)

    def interval(self, j):
        """(low, high): the 99.9% interval of action ``j``'s mean value."""
        v = self.values[:, j]
        half = Z999 * v.std(ddof=1) / np.sqrt(len(v)) if len(v) > 1 else np.inf
        return v.mean() - half, v.mean() + half

    @property
    def best(self) -> int:
        return int(np.argmax(self.means))

    def gain_interval(self, j):
        """The 99.9% interval of action ``j``'s mean value less the best action's, paired on
        the same determinisations."""
        d = self.values[:, j] - self.values[:, self.best]
        if len(d) < 2 or j == self.best:
            return 0.0, 0.0
        half = Z999 * d.std(ddof=1) / np.sqrt(len(d))
        return d.mean() - half, d.mean() + half

    def index(self, action: Action) -> int:
        """The row of ``action`` (a swap of any card of the four: the swap's row, when the
        card is the other player's pick)."""
        if action not in self.actions and action.kind == "swap" and action.yes:
            action = Action("swap", yes=True)
        return self.actions.index(action)

    def clearly_below(self, action: Action) -> bool:
        """Whether ``action``'s value is below the best action's beyond the 99.9% interval."""
        return self.gain_interval(self.index(action))[1] < 0

    def table(self, code):
        """A tidy table: one row per action."""
        import pandas as pd

        rows = []
        for j, a in enumerate(self.actions):
            lo, hi = self.interval(j)
            glo, ghi = self.gain_interval(j)
            rows.append(dict(action=a.words(code), value=self.means[j], value_low=lo,
                             value_high=hi, vs_best=self.means[j] - self.means[self.best],
                             vs_best_low=glo, vs_best_high=ghi,
                             lookahead=j == self.chosen, greedy=j == self.greedy))
        df = pd.DataFrame(rows)
        df.attrs["samples"] = self.values.shape[0]
        return df


def advise(position, samples: int = 64, seed: int = 0) -> Advice:
    """The lookahead's values of every legal action at ``position`` (see the module)."""
    samples = int(samples)
    if samples < 2:
        raise PositionError("advice needs at least 2 samples (determinisations)")
    ph = position.phase
    if ph == "over":
        raise PositionError("the round is over: there is nothing to advise")
    g = position.game
    seat = position.seat
    if g.name == "koikoi":
        actions, values = _koikoi(position, seat, samples, seed)
    elif g.name == "taipa":
        actions, values = _taipa(position, seat, samples, seed)
    elif g.name == "kushiro_toppa":
        actions, values = _kushiro(position, seat, samples, seed)
    elif g.name == "taoshi" and g.inner_seat(position) < 0:  # join, a forced-out botta
        actions, values = _taoshi_table(position, seat, samples, seed)
    elif g.name == "ishikari_toppa" and ph == "join":  # join or drop, or a chase
        actions, values = _ishikari_join(position, seat, samples, seed)
    else:  # the seat in the round's state (Ishikari Toppa: the active player's place)
        actions, values = _fishing(position, g.inner_seat(position), samples, seed)
    sc = L.new_scratch(1, 1, 1)
    m = len(actions)
    chosen = 0
    if m > 1:
        gains = values[:, 1:] - values[:, :1]
        sc.total[1:m] = gains.sum(axis=0)
        sc.total2[1:m] = (gains * gains).sum(axis=0)
        chosen = int(L._pick(sc, m, samples))
    # greedy's own choice: the lookahead's default (row 0), except at an expose, where the
    # greedy player exposes (``--expose always``, the default) while a fishing game's
    # lookahead keeps hiding unless exposing clears its bar
    greedy = 0
    if ph == "expose" and Action("expose", yes=True) in actions:
        greedy = actions.index(Action("expose", yes=True))
    unit = 1
    if g.name == "taoshi":  # the kernels count 1/unit points (burden=proportional): points
        from .taoshi import TL

        unit = int(g.tb.params[TL.P_UNIT])
        values = values / unit
    return Advice(seat, ph, actions, values, chosen, greedy, unit)


def _fishing(pos, seat, k, seed):
    g, d = pos.game, pos.data
    n, tb = g.n, g.tb
    st, order, res = d["st"], d["order"], d["res"].copy()
    from . import advise_kernels as AK
    from ..engine import play as engine_play

    if pos.phase == "expose":
        for s, yes in zip(d["ask"], d["shown"]):
            res[g.m.R_TEY_SCORED + s] = g.teyaku_value(st[s]) if yes else 0
        v = g.teyaku_value(st[seat])
        out = np.zeros((k, 2))
        slot = g.m.R_TEY_SCORED + seat
        AK.per_game(AK.fishing_expose, g.name)(tb, st, order, n, seat, seed, slot, v, res, out)
        # hiding first: the lookahead's own default (a tie hides: exposing shows cards)
        return [Action("expose", yes=False), Action("expose", yes=True)], out[:, ::-1].copy()
    if pos.phase == "turned":
        st2 = st.copy()
        f = st[n]
        if d["pending"] is not None:  # the played card's capture first
            card, high = d["pending"]
            f, c1 = engine_play.capture(card, st[n], high)
            st2[seat] = st[seat] & ~np.uint64(1 << card)
            st2[n] = np.uint64(f)
            st2[n + 1 + seat] |= np.uint64(c1)
        drawn = int(order[int(st[2 * n + 1])])
        g_high = ALL if int(L.policies.take_high(L.GREEDY, drawn, np.uint64(f), ZERO,
                                                 tb.ghigh)) else ZERO
        highs = np.array([g_high, ~g_high], dtype=np.uint64)
        two = bits(int(np.uint64(f)) & int(_nibble(drawn)))
        actions = [turned(drawn, two[1] if h else two[0]) for h in highs]
        out = np.zeros((k, 2))
        AK.per_game(AK.fishing_turned, g.name)(tb, st2, order, n, seat, seed, highs, res, out)
        return actions, out
    sc = L.new_scratch(1, 1, 1)
    m = L.card_choices(sc, st[seat], st[n], tb.gscore, tb.ghigh)
    cards = sc.card[:m].copy()
    highs = sc.high[:m].copy()
    actions = []
    for c, h in zip(cards, highs):
        two = bits(int(st[n]) & int(_nibble(int(c))))
        actions.append(play(int(c), (two[1] if h else two[0]) if len(two) == 2 else None))
    out = np.zeros((k, m))
    AK.per_game(AK.fishing_play, g.name)(tb, st, order, n, seat, seed, cards, highs, res, out)
    return actions, out


def _nibble(card):
    return np.uint64(0xF) << np.uint64(card & ~3)


def _koikoi(pos, seat, k, seed):
    from ..games import koikoi as K
    from . import advise_kernels as AK

    g, d = pos.game, pos.data
    tb, st, order = g.tb, d["st"], d["order"]
    if pos.phase == "expose":
        decided = dict(zip(d["ask"], d["shown"]))
        other = 1 - seat
        known = other in decided  # seat 0 declares first: seat 1 knows its choice
        out = np.zeros((k, 2))
        AK.koikoi_declare(tb, st, order, seat, seed, known, bool(decided.get(other, False)),
                          np.int64(d["res"][K.R_LUCKY + other]), out)
        # declaring first: what the rollouts' players do (expose=always)
        return [Action("expose", yes=True), Action("expose", yes=False)], out
    if pos.phase == "koikoi":
        stop_st, call_st, _ = d["options"]
        out = np.zeros((k, 2))
        AK.koikoi_call(tb, stop_st, call_st, order, seat, seed, out)
        # collecting first: the rollout policy's own
        return [Action("koikoi", yes=False), Action("koikoi", yes=True)], out[:, ::-1].copy()
    from .koikoi_game import forced_turn

    sc = L.new_scratch(1, 1, 1)
    wild = st[K.KS_WILD] != ZERO
    hand, field = g.hand_and_field(d)  # as the turn stands
    pending = d["pending"]
    seen = g.seen_from(pos)
    if pos.phase == "play" and pending is None:
        m = K.card_options(sc, np.int64(K.FORCED), K.F_CARD1, hand, field, wild, tb)
        shift = K.F_CARD1
    elif pos.phase == "play":  # the second hand card
        m = K.card_options(sc, np.int64(forced_turn(pending)), K.F_CARD2, hand, field, wild,
                           tb)
        shift = K.F_CARD2
    else:
        drawn = int(order[int(st[5])])
        m = K.drawn_options(sc, np.int64(forced_turn(pending)), drawn, field, wild, tb)
        shift = None
    pols = sc.card[:m].copy()
    actions = [_koikoi_action(pos, int(p), hand, field, wild, shift) for p in pols]
    out = np.zeros((k, m))
    AK.koikoi_turn(tb, st, order, seat, seed, pols, seen, out)
    return actions, out


def _koikoi_action(pos, pol, hand, field, wild, shift):
    """The position's action of a forced turn id: the choice at ``shift`` (the first or the
    second hand card; None: the turned card's take), greedy's where the id leaves it."""
    from ..games import koikoi as K

    d = pos.data
    tb = pos.game.tb
    ch = K.forced_choices(pol)
    if shift is not None:
        key = "card1" if shift == K.F_CARD1 else "card2"
        card = ch[key]
        if card < 0:
            card = int(K.greedy_hand_card(np.uint64(K.playable(hand, field, wild, tb)), field,
                                          tb.gscore))
        take = ch["take1" if key == "card1" else "take2"]
        if take < 0 and K.take_options(card, field, wild, tb):
            take = int(K.greedy_take(card, field, wild, tb))
        return play(card, take if take >= 0 else None)
    drawn = int(d["order"][int(d["st"][5])])
    t = ch["drawn_take"]
    if t < 0:
        t = int(K.greedy_take(drawn, field, wild, tb))
    return turned(drawn, t)


def _taipa(pos, seat, k, seed):
    """Taipa's choices valued as its lookahead values them (``advise_taipa``): greedy's own
    first (the lookahead's default)."""
    from ..engine.match import capture_one
    from ..games.taipa import round as TR
    from ..games.taipa.lookahead import _greedy_pick
    from ..policies import GREEDY, group_hand_card
    from . import advise_taipa as AT

    g, d = pos.game, pos.data
    if pos.phase == "leave":
        return _taipa_leave(pos, seat, k, seed)
    tb, st, order, n = g.tb, d["st"], d["order"], np.int64(d["n"])
    coins = np.array(d["coins"], dtype=np.int64)
    field = st[TR.S_FIELD]
    out = np.zeros((k, 2))
    if pos.phase == "koikoi":
        AT.taipa_call(tb, st, order, n, np.int64(seat), seed, coins, out)
        return [Action("koikoi", yes=False), Action("koikoi", yes=True)], out
    if pos.phase == "turned":
        card, take = d["pending"]
        st2 = st.copy()
        f, c1 = g._capture(card, field, take)
        st2[seat] = st[seat] & ~np.uint64(1 << card)
        st2[TR.S_FIELD] = f
        st2[TR.S_PILE + seat] |= c1
        drawn = g._drawn(d)
        matches = g._matches(drawn, f)
        greedy = int(_greedy_pick(np.int64(drawn), np.uint64(f), tb))
        picks = [greedy] + [i for i in range(len(matches)) if i != greedy]
        out = np.zeros((k, len(picks)))
        AT.taipa_turned(tb, st2, order, n, np.int64(seat), seed, coins, np.int64(card),
                        np.uint64(c1), np.array(picks, dtype=np.int64), out)
        return [turned(drawn, matches[i]) for i in picks], out
    hand = st[seat]
    gc = int(group_hand_card(GREEDY, hand, field, ZERO, tb.group_of, tb.group_masks,
                             tb.weights))
    choices = [(gc, int(_greedy_pick(np.int64(gc), field, tb)))]
    for c in bits(hand):
        for i in range(max(len(g._matches(c, field)), 1)):
            if (c, i) != choices[0]:
                choices.append((c, i))
    actions = []
    for c, i in choices:
        m = g._matches(c, field)
        actions.append(play(c, m[i] if len(m) > 1 else None))
    out = np.zeros((k, len(choices)))
    AT.taipa_play(tb, st, order, n, np.int64(seat), seed, coins,
                  np.array([c for c, _ in choices], dtype=np.int64),
                  np.array([i for _, i in choices], dtype=np.int64), out)
    del capture_one
    return actions, out


def _kushiro(pos, seat, k, seed):
    """Kushiro Toppa's choices valued as its lookahead values them (``advise_kushiro``):
    greedy's own first (claiming a teyaku: the default of a claiming player)."""
    from ..engine import play as engine_play
    from . import advise_kushiro as AK
    from .kushiro import KR, KT

    g, d = pos.game, pos.data
    if pos.phase == "swap":
        return _kushiro_swap(pos, seat, k, seed)
    if pos.phase == "join":
        return _kushiro_join(pos, seat, k, seed)
    tb, ks, pile = g.tb, d["ks"], d["pile"]
    out = np.zeros((k, 2))
    seat = g.inner_seat(pos)  # the play's slot: 0 the first mover
    if pos.phase == "expose":
        res = d["res"]
        opp = -1
        if seat == 1:  # the first mover has decided: its claim is known
            opp = int(res[KR.R_TEY_CLAIMED + d["active"][0]])
        mine = int(KR.claim(ks.copy(), res.copy(), np.int64(seat), np.int64(seat), ks[seat],
                            np.int64(d["tey"][seat]), tb.params))  # the claim's chips
        AK.kushiro_expose(tb, ks, pile, seed, np.int64(seat), np.int64(mine), np.int64(opp),
                          out)
        return [Action("expose", yes=True), Action("expose", yes=False)], out
    if pos.phase == "koikoi":
        v, h = d["decision"]
        AK.kushiro_call(tb, ks, pile, seed, np.int64(v), np.int64(h), out)
        return [Action("koikoi", yes=False), Action("koikoi", yes=True)], out
    field = ks[KT.K_FIELD]
    if pos.phase == "turned":
        card, high = d["pending"]
        f, c1 = engine_play.capture(card, field, high)
        drawn = g._drawn(d)
        g_high = ALL if int(L.policies.take_high(L.GREEDY, drawn, np.uint64(f), ZERO,
                                                 tb.ghigh)) else ZERO
        highs = np.array([g_high, ~g_high], dtype=np.uint64)
        two = bits(int(np.uint64(f)) & int(_nibble(drawn)))
        hand = ks[seat] & ~np.uint64(1 << card)
        AK.kushiro_turned(tb, ks, pile, seed, hand, np.uint64(f), np.uint64(c1), highs, out)
        return [turned(drawn, two[1] if h else two[0]) for h in highs], out
    sc = L.new_scratch(1, 1, 1)
    m = L.card_choices(sc, ks[seat], field, tb.gscore, tb.ghigh)
    cards = sc.card[:m].copy()
    highs = sc.high[:m].copy()
    actions = []
    for c, h in zip(cards, highs):
        two = bits(int(field) & int(_nibble(int(c))))
        actions.append(play(int(c), (two[1] if h else two[0]) if len(two) == 2 else None))
    out = np.zeros((k, m))
    AK.kushiro_play(tb, ks, pile, seed, cards, highs, out)
    return actions, out


def _kushiro_swap(pos, seat, k, seed):
    """The four-in-hand swap valued as ``lookahead._look_swap`` values it
    (``advise_kushiro.kushiro_swap``): swapping (greedy's own) first.  The card that goes is
    the other player's pick, so the swap's row stands for any of them (under
    ``swap_pick=lowest``, the lowest)."""
    from . import advise_kushiro as AK
    from .kushiro import KL

    g, d = pos.game, pos.data
    done = len(d["swapped"])
    c0 = d["swaps"][done][1]
    # the seat's later fours (after c0's, as the deal offers them), and the pile's top when
    # the seat's own earlier swap put it there (round.play_round's ``known``)
    fm = 0
    for s, c in d["swaps"][done + 1:]:
        if s == seat:
            fm |= 1 << c
    known = -1
    for (s, _c), put in zip(d["swaps"][:done], d["swapped"]):
        if s == seat and put is not None:
            known = put
    out = np.zeros((k, 2))
    AK.kushiro_swap(g.tb, d["groups"], d["field"], np.int64(seat), np.int64(c0),
                    np.uint64(fm), np.int64(known), np.uint64(seed), out)
    lowest = bool(g.tb.params[KL.P_PICK_LOWEST])
    return [Action("swap", card=c0 if lowest else None, yes=True),
            Action("swap", yes=False)], out


def _kushiro_join(pos, seat, k, seed):
    """Join or drop valued as ``lookahead._look_join`` values them
    (``advise_kushiro.kushiro_join``): greedy's own choice (its join threshold) first."""
    from ..engine.join import CH_FORCED_IN, CH_JOIN
    from ..games.kushiro.policy import JOIN_DEFAULT_K, join_strength
    from ..games.kushiro.slots import R_PLAYS
    from . import advise_kushiro as AK

    g, d = pos.game, pos.data
    n = g.table
    choices, _ = g._join(d)
    res = np.zeros(d["res"].shape[0], dtype=np.int64)
    for s, ch in choices.items():
        res[R_PLAYS + s] = ch in (CH_JOIN, CH_FORCED_IN)
    j = (seat - 1) % n  # the seats speak from the dealer's right round to the dealer
    out = np.zeros((k, 2))
    AK.kushiro_join(g.tb, d["groups"], d["field"], np.int64(seat), np.int64(j), res,
                    np.uint64(seed), out)
    greedy = join_strength(d["groups"][seat], d["field"], g.tb.kind_masks[3]) >= JOIN_DEFAULT_K
    acts = [Action("join", yes=True), Action("join", yes=False)]
    return (acts, out) if greedy else (acts[::-1], out[:, ::-1].copy())


def _ishikari_join(pos, seat, k, seed):
    """Join or drop (once three have joined: chase or not) valued as Ishikari Toppa's
    ``lookahead._look_join`` values them (``advise_ishikari.ishikari_join``): joining, the
    round's score before the chase multiplier; dropping 0 (no fee); a chase changes only the
    next round, so both of its answers are worth 0.  The threshold's choice (greedy's join
    threshold, the lookahead's default) first."""
    from ..games.ishikari.lookahead import JOIN_DEFAULT_K
    from . import advise_ishikari as AI
    from .ishikari import R as IR

    g = pos.game
    groups = np.asarray(pos.data["groups"], dtype=np.uint64)
    out = np.zeros((k, 2))
    AI.ishikari_join(g.tb, groups, np.int64(seat), g.join_res(pos), np.uint64(seed), out)
    greedy = IR.join_strength(groups[seat], g.tb) >= JOIN_DEFAULT_K
    acts = [Action("join", yes=True), Action("join", yes=False)]
    return (acts, out) if greedy else (acts[::-1], out[:, ::-1].copy())


def _taoshi_table(pos, seat, k, seed):
    """Taoshi's decisions outside the play's seats: join or drop, valued as
    ``lookahead._look_join`` values them (``advise_taoshi.taoshi_join``; greedy's threshold's
    choice first), and a forced-out player's botta claim (``forced_out_botta=claimed``),
    whose values are exact: the round settled (``score.settle_botta``) with the claim, and
    without it (the other bottas claimed so far, or the fees of a seat out of the round)."""
    from . import advise_taoshi as AT
    from .taoshi import SL, TS

    g, d = pos.game, pos.data
    tb = g.tb
    if pos.phase == "join":
        from ..games.taoshi.policy import JOIN_DEFAULT_K
        from ..games.taoshi.score import hand_points

        choices, _ = g._join(d)
        res = np.zeros(SL.R_N, dtype=np.int64)
        for s, ch in choices.items():
            res[SL.R_CHOICE + s] = ch
        hands = np.zeros(7, dtype=np.uint64)
        for s, h in enumerate(d["hands"]):
            hands[s] = int(np.uint64(sum(1 << c for c in h)))
        hands[g.table] = d["field"]
        out = np.zeros((k, 2))
        AT.taoshi_join(tb, hands, np.int64(seat), res, np.uint64(seed), out)
        mine = hands[seat]
        greedy = hand_points(mine, tb.pmask) + g.teyaku_value(mine) >= JOIN_DEFAULT_K
        acts = [Action("join", yes=True), Action("join", yes=False)]
        return (acts, out) if greedy else (acts[::-1], out[:, ::-1].copy())
    # a forced-out player's botta: both values settled exactly
    n = g.table
    vals = []
    for yes in (True, False):
        dd = dict(d, shown=d["shown"] + (yes,) + (False,) * (
            len(d["ask"]) + len(d["ask_out"]) - len(d["shown"]) - 1))
        _st, res = g._expose(dd)
        if dd["botta"]:
            TS.settle_botta(res, np.int64(n), tb)
        else:  # the round plays on: a seat out of it scores its fees whatever the play
            TS.settle_play(d["st"], res, np.int64(n), tb)
        vals.append(float(res[SL.R_SCORE + seat]))  # in 1/unit points, as the lookahead's
    out = np.tile(np.array(vals), (k, 1))
    return [Action("expose", yes=True), Action("expose", yes=False)], out


def _taipa_leave(pos, seat, k, seed):
    """Which ribbons and chaff leave play (``yaku_cards=choice``) valued as
    ``yaku_choice._eval_removals`` values them (``advise_taipa.taipa_leave``): the seat's
    coins at the game's end; the other pile's cards as its owner chose them, or greedy's
    until it has (``yaku_choice._look_removals``); greedy's way first."""
    from ..games.taipa import round as TR
    from ..games.taipa.removals import set_yaku_cards
    from . import advise_taipa as AT

    g, d = pos.game, pos.data
    tb = g.tb
    res = g.settled(pos)
    legal = pos.legal_actions()
    p0, p1 = np.uint64(res[TR.R_PILE]), np.uint64(res[TR.R_PILE + 1])
    deck = np.uint64(sum(1 << int(c) for c in d["order"][:d["n"]]))
    sets = np.uint64(set_yaku_cards(p0, tb)) | np.uint64(set_yaku_cards(p1, tb))
    chose = dict(zip(g._leavers(pos), d["left"]))
    other = 1 - seat
    if other in chose:
        rem = chose[other]
    elif other in g._leavers(pos):
        rem = g._greedy_leave(pos, res, other)
    else:
        rem = g._ways(res, other)[0]
    base = deck & ~sets & ~np.uint64(rem)
    after = [c + v for c, v in zip(d["coins"], g.result(pos))]
    ways = np.array([sum(1 << c for c in a.cards) for a in legal], dtype=np.uint64)
    out = np.zeros((k, len(legal)))
    AT.taipa_leave(tb, base, p0 if seat == 0 else p1, ways, np.int64(seat),
                   np.int64(after[0]), np.int64(after[1]), np.int64(0), np.int64(d["round"]),
                   np.uint64(seed), out)
    return legal, out
