"""Advice on a position: every legal action of the player to act valued by the lookahead.

Each action's value is its mean over ``samples`` determinisations of what the player cannot
see (the other hands, less any exposed cards, and the undrawn pile, dealt again from the set
of unseen cards: ``engine.lookahead.determinise``, never the hidden cards themselves), the
round played out by the game's own kernels with greedy players (``advise_kernels``).  The same
determinisations serve every action, so differences between actions are paired.

What a value is: the game's lookahead value of the round for the player, in the game's unit:
Toppa and Baka the seat's settled round score; koi-koi the seat's points less the opponent's
(what decides a game; the points alone under zero-sum scoring).

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

    def clearly_below(self, action: Action) -> bool:
        """Whether ``action``'s value is below the best action's beyond the 99.9% interval."""
        j = self.actions.index(action)
        return self.gain_interval(j)[1] < 0

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
                             lookahead=j == self.chosen, greedy=j == 0))
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
    return Advice(seat, ph, actions, values, chosen)


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
