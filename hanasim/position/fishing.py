"""Positions of the fishing games played on the engine's turn (``engine.play``): Toppa, Baka,
Bakappana, and Ishikari Toppa's active round (``ishikari``).

Every step is the kernels' own code, called from Python on the round's state array
(``engine.state``):

* the deal-time teyaku: ``engine.yaku.teyaku_by_nibbles`` says who holds one, and
  ``engine.teyaku.expose_step`` (the kernels' step) exposes or hides it, each seat's choice
  given as its ``expose`` policy (always or never);
* a turn: ``engine.play.play_turns``, the kernels' turn loop, run for the one seat to move
  (the other hands set aside for the call, so the loop stops after that turn) with greedy
  tables that make greedy play the chosen card and captures (:func:`_forced_tables`); the
  choices offered are the captures ``engine.play.capture`` leaves open (a card matching two
  field cards takes either);
* Bakappana's two-player draw-out: its ``round.draw_out`` kernel, given the pile up to the one
  card to turn (a choice only when it matches two field cards; the others are turned at once);
* the result: the game's ``round_value`` (``engine.lookahead``), the settled score of a
  finished round that the kernels' lookahead rolls out to, for each seat.

Tests check that a round played through positions ends with the points the game's
``play_dealt`` kernel gives the same deal and the same choices (many random rounds).
"""
from __future__ import annotations

import numpy as np
from ..engine import play as engine_play
from ..engine import state
from ..engine.bits import month_nibble
from ..engine.deal import is_misdeal
from ..engine.teyaku import expose_step
from ..engine.yaku import teyaku_by_nibbles
from ..policies import EXPOSE_ALWAYS, EXPOSE_NEVER, GREEDY
from .core import Action, Position, PositionError, bits, card_places, mask, play, turned

ZERO = np.uint64(0)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


def _two_way(card, field) -> list:
    """The two field cards ``card`` may take, or [] (the capture is then fixed)."""
    mm = int(field) & int(month_nibble(card))
    return bits(mm) if bin(mm).count("1") == 2 else []


def _high(card, field, take) -> np.uint64:
    """``engine.play.capture``'s two-way pick that takes ``take``: all ones the higher card."""
    if take is None:
        return ZERO
    two = _two_way(card, field)
    return ALL if take == two[1] else ZERO


def _forced_tables(n_cards, card, high, field, drawn, high2, field2):
    """Greedy's tables (``policies.greedy_tables``' shape) under which greedy plays ``card``
    and picks ``high`` for it, then ``high2`` for the turned card ``drawn`` on ``field2``.  A
    played and a turned card of one month never both face a two-way match (the played card
    leaves at most one of its month), so the two picks never share a table slot."""
    gscore = np.zeros(16 * n_cards, dtype=np.float64)
    gscore[16 * card: 16 * card + 16] = 1.0
    ghigh = np.zeros(16 * (n_cards // 4), dtype=np.uint64)
    ghigh[16 * (card >> 2) + (int(field) >> (card & ~3) & 0xF)] = high
    if int(high2):
        ghigh[16 * (drawn >> 2) + (int(field2) >> (drawn & ~3) & 0xF)] = high2
    return gscore, ghigh


class FishingGame:
    """The adapter of one game of this family (its module's names and lowered tables).

    ``module``: the game's kernel module (``deal_round``, ``play_dealt``, ``R_N``; with
    teyaku ``R_TEY_HELD``, ``R_TEY_SCORED``, ``P_COMBINE``); ``tb``: its lowered tables;
    ``misdeal(groups)``: whether a deal is one the game redeals; ``draw_out``: whether the
    pile left when the hands are empty is turned, a card a turn (two-player Bakappana)."""

    def __init__(self, name, module, rules, code, tb=None, n=None, misdeal=None,
                 draw_out=False):
        self.name = name
        self.m = module
        self.rules = rules
        self.tb = tb if tb is not None else module.lower(rules)[0]
        self.n = n if n is not None else module.N_PLAYERS
        pattern = np.asarray(self.tb.pattern)
        self.n_dealt = pattern.shape[0]
        self.hand_size = int(np.sum(pattern == 0))
        self.n_cards = 48
        self.code = code
        self.teyaku = hasattr(module, "R_TEY_SCORED")
        self.misdeal = misdeal or (lambda groups: bool(is_misdeal(
            groups, self.n + 1, self.tb.month_masks, 4)))
        self.draw_out = bool(draw_out)

    # ---------------------------------------------------------------- building
    def from_cards(self, hands, field, pile, captured=None, exposed=None, teyaku_points=None):
        """A position from explicit cards (card ids): ``hands`` by seat from the dealer,
        ``field``, the undrawn ``pile`` top first, ``captured`` piles by seat.  At a fresh deal
        the seats holding a teyaku are asked to expose it; later, ``exposed`` gives each
        seat's exposed teyaku cards still in hand and ``teyaku_points`` its exposed teyaku's
        value (both default none)."""
        n = self.n
        captured = captured if captured is not None else [[] for _ in range(n)]
        if len(hands) != n or len(captured) != n:
            raise PositionError(f"{self.name} has {n} seats: give {n} hands and {n} "
                                f"captured piles (dealer first)")
        card_places(self.code, hands, field, pile, captured, self.n_cards)
        sizes = [len(h) for h in hands]
        k = max(sizes)
        dealt_pile = self.n_cards - self.n_dealt
        extra = dealt_pile - n * self.hand_size  # the cards left when the hands are empty
        turns = dealt_pile - len(pile)  # every turn draws one card
        mover = turns % n
        if k > self.hand_size or any(sizes[s] != (k - 1 if s < mover else k) for s in range(n)):
            raise PositionError(f"hand sizes {sizes} cannot occur: each hand holds "
                                f"{self.hand_size} at the deal, and seats play one card each "
                                f"in turn from the dealer")
        if (len(pile) - sum(sizes) != extra if k else not 0 <= len(pile) <= extra):
            raise PositionError(f"a draw pile of {len(pile)} cards cannot go with {sum(sizes)} "
                                f"cards in hand (every turn draws one card)")
        fresh = k == self.hand_size and mover == 0 and len(pile) == dealt_pile
        groups = np.array([mask(h) for h in hands] + [mask(field)], dtype=np.uint64)
        if fresh and self.misdeal(groups):
            raise PositionError("four cards of one month in a hand or on the field: "
                                "a misdeal, redealt before play")
        rest = [c for c in range(self.n_cards) if c not in set(pile)]
        order = np.array(rest + list(pile), dtype=np.int8)
        st = np.zeros(state.size(n), dtype=np.uint64)
        state.start(st, groups, n, np.int64(self.n_cards - len(pile)))
        for s in range(n):
            st[state.pile(n, s)] = mask(captured[s])
            if exposed is not None:
                st[state.known(n, s)] = mask(exposed[s])
        st[state.seat(n)] = mover
        res = np.zeros(self.m.R_N, dtype=np.int64)
        ask = []
        if not self.teyaku:
            pass
        elif fresh and exposed is None:
            for s in range(n):
                _, h = teyaku_by_nibbles(groups[s], self.tb.teyaku, self.tb.month_masks,
                                         self.tb.kind_masks, self.tb.params[self.m.P_COMBINE])
                if h:
                    ask.append(s)
        elif teyaku_points is not None:
            for s in range(n):
                res[self.m.R_TEY_SCORED + s] = int(teyaku_points[s])
        d = dict(st=st, order=order, res=res, ask=tuple(ask), shown=(), pending=None)
        return Position(self, self._advance(d))

    # ---------------------------------------------------------------- the round
    def phase(self, p) -> str:
        d = p.data
        if len(d["shown"]) < len(d["ask"]):
            return "expose"
        if d["pending"] is not None:
            return "turned"
        st = d["st"]
        if st[int(st[state.seat(self.n)])] != ZERO:
            return "play"
        return "turned" if self._drawing(d) else "over"

    def _drawing(self, d) -> bool:
        """The hands are empty and the pile is turned out, a card a turn."""
        st = d["st"]
        return (self.draw_out and st[int(st[state.seat(self.n)])] == ZERO
                and int(st[state.top(self.n)]) < d["order"].shape[0])

    def to_act(self, p) -> int:
        ph = self.phase(p)
        if ph == "expose":
            return p.data["ask"][len(p.data["shown"])]
        return -1 if ph == "over" else int(p.data["st"][state.seat(self.n)])

    def legal(self, p) -> list:
        ph = self.phase(p)
        if ph == "expose":
            return [Action("expose", yes=True), Action("expose", yes=False)]
        st = p.data["st"]
        field = st[self.n]
        if ph == "turned":
            f = field
            if p.data["pending"] is not None:
                card, high = p.data["pending"]
                f = np.uint64(engine_play.capture(card, field, high)[0])
            drawn = int(p.data["order"][int(st[state.top(self.n)])])
            return [turned(drawn, t) for t in _two_way(drawn, f)]
        out = []
        for c in bits(st[int(st[state.seat(self.n)])]):
            two = _two_way(c, field)
            out += [play(c, t) for t in two] if two else [play(c)]
        return out

    def apply(self, p, a: Action):
        d = dict(p.data)
        if a.kind == "expose":
            d["shown"] = d["shown"] + (a.yes,)
            if len(d["shown"]) == len(d["ask"]):
                d["st"], d["res"] = self._expose(d)
            return Position(self, d)
        st = d["st"]
        field = st[self.n]
        if a.kind == "play":
            high = _high(a.card, field, a.take)
            f = np.uint64(engine_play.capture(a.card, field, high)[0])
            drawn = int(d["order"][int(st[state.top(self.n)])])
            if _two_way(drawn, f):
                d["pending"] = (a.card, high)
                return Position(self, d)
            d["st"] = self._turn(d, a.card, high, ZERO)
            return Position(self, self._advance(d))
        if d["pending"] is None:  # a turn of the pile alone
            d["st"] = self._pile_turn(d, _high(a.card, field, a.take))
            return Position(self, self._advance(d))
        card, high = d["pending"]
        f = np.uint64(engine_play.capture(card, field, high)[0])
        d["st"] = self._turn(d, card, high, _high(a.card, f, a.take))
        d["pending"] = None
        return Position(self, self._advance(d))

    def _expose(self, d):
        """``engine.teyaku.expose_step`` with each asked seat's choice as its policy."""
        st = d["st"].copy()
        res = d["res"].copy()
        expose = np.full(self.n, EXPOSE_NEVER, dtype=np.int64)
        for s, yes in zip(d["ask"], d["shown"]):
            expose[s] = EXPOSE_ALWAYS if yes else EXPOSE_NEVER
        policy = np.full(self.n, GREEDY, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        tb = self.tb
        expose_step(st, self.n, 0, d["order"], rng, tb.teyaku, tb.month_masks, tb.kind_masks,
                    tb.params[self.m.P_COMBINE], policy, expose, res, self.m.R_TEY_HELD,
                    self.m.R_TEY_SCORED, tb.gscore, tb.ghigh, None)
        return st, res

    def _turn(self, d, card, high, high2):
        """The turn of the seat to move, by ``engine.play.play_turns`` (see the module)."""
        n = self.n
        st = d["st"].copy()
        seat = int(st[state.seat(n)])
        field = st[n]
        drawn = int(d["order"][int(st[state.top(n)])])
        f2 = np.uint64(engine_play.capture(card, field, high)[0])
        gscore, ghigh = _forced_tables(self.n_cards, card, high, field, drawn, high2, f2)
        others = {s: st[s] for s in range(n) if s != seat}
        for s in others:
            st[s] = ZERO  # the loop stops at the next seat with no cards
        rng = np.zeros(1, dtype=np.uint64)
        policy = np.full(n, GREEDY, dtype=np.int64)
        engine_play.play_turns(st, n, d["order"], rng, policy, 0, gscore, ghigh, None, None)
        for s, h in others.items():
            st[s] = h
        return st

    def _advance(self, d):
        """Turns of the pile alone that offer no choice are played at once."""
        while self._drawing(d) and len(d["ask"]) == len(d["shown"]):
            st = d["st"]
            drawn = int(d["order"][int(st[state.top(self.n)])])
            if _two_way(drawn, st[self.n]):
                break
            d = dict(d, st=self._pile_turn(d, ZERO))
        return d

    def _pile_turn(self, d, high):
        """A turn of the pile alone by the game's ``draw_out`` kernel, given the pile up to
        this turn's card only (so it turns that one) and greedy's pick made ``high``."""
        n = self.n
        st = d["st"].copy()
        top = int(st[state.top(n)])
        drawn = int(d["order"][top])
        ghigh = np.zeros(16 * 12, dtype=np.uint64)
        ghigh[16 * (drawn >> 2) + (int(st[n]) >> (drawn & ~3) & 0xF)] = high
        policy = np.full(n, GREEDY, dtype=np.int64)
        self.m.draw_out(st, n, d["order"][:top + 1].copy(), np.zeros(1, dtype=np.uint64),
                        policy, 0, ghigh)
        return st

    def result(self, p) -> list:
        out = np.zeros(self.n, dtype=np.float64)
        from .advise_kernels import per_game, round_values

        per_game(round_values, self.name)(self.tb, p.data["st"], self.n, p.data["res"].copy(),
                                          out)
        return [int(v) if float(v).is_integer() else float(v) for v in out]

    # ---------------------------------------------------------------- views
    def hands(self, p):
        return [p.data["st"][s] for s in range(self.n)]

    def field(self, p):
        return p.data["st"][self.n]

    def piles(self, p):
        return [p.data["st"][state.pile(self.n, s)] for s in range(self.n)]

    def pile_left(self, p):
        top = int(p.data["st"][state.top(self.n)])
        return [int(c) for c in p.data["order"][top:]]

    def inner_seat(self, p) -> int:
        """The seat to act in the round's state (``to_act`` in the table's seats)."""
        return FishingGame.to_act(self, p)

    def teyaku_value(self, hand) -> int:
        """The value of the teyaku ``hand`` holds (what exposing it scores)."""
        v, _ = teyaku_by_nibbles(hand, self.tb.teyaku, self.tb.month_masks, self.tb.kind_masks,
                                 self.tb.params[self.m.P_COMBINE])
        return int(v)

    def turn(self, p) -> int:
        return int(p.data["st"][state.top(self.n)]) - self.n_dealt + 1  # a card a turn

    def seen_from(self, p) -> int:
        """The first deck position the seat to act cannot see (the undrawn pile; a pending
        turn's turned card is seen)."""
        top = int(p.data["st"][state.top(self.n)])
        return top + (1 if p.data["pending"] is not None else 0)


def fishing_game(name, rules, code) -> FishingGame:
    """The adapter of the game ``name`` under ``rules``."""
    from importlib import import_module

    if name == "bakappana":
        from ..engine.bits import has_full_nibble
        bk_lower = import_module("hanasim.games.bakappana.lower")
        bk_round = import_module("hanasim.games.bakappana.round")

        tb = bk_lower.lower(rules)
        n = int(tb.params[bk_lower.P_PLAYERS])
        # Bakappana redeals only a four of a month on the field (``round.deal_round``)
        return FishingGame(name, bk_round, rules, code, tb=tb, n=n,
                           misdeal=lambda groups: bool(has_full_nibble(groups[n])),
                           draw_out=bool(tb.params[bk_lower.P_DRAW_OUT]))
    return FishingGame(name, import_module(f"hanasim.games.{name}"), rules, code)
