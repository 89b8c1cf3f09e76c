"""Positions of a Taoshi round at a three-player table, its result in points.

Every step is the game's own kernel code (``games.taoshi``), called from Python:

* the deal-time teyaku: each hand's best (``teyaku.teyaku_formed``, ``teyaku.best_teyaku``);
  each active player holding one, in turn order from the dealer, claims it or not
  ("Teyaku Showdown"): ``round.claim_teyaku`` (a botta ends the round before play);
* the play: the shared turn of the Toppa family (``fishing``: ``engine.play.play_turns`` run
  for the seat to move with greedy tables forcing the chosen card and captures), on the play
  state Taoshi's ``round.play_round`` builds (``engine.state``, 3 seats, the draw pile its own
  buffer);
* the result: ``score.settle_botta`` (a botta round) or ``score.settle_play``, each seat's
  score in points (the kernels count 1/unit points: ``burden_unit``).

Reached: three players (the default table), from the deal or any later moment of the play.
Not reached (refused in one line): tables of four to six (join or drop, the dropped hands
shuffled into the pile, fees, a forced-out player's botta).
"""
from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace

import numpy as np

from ..engine import state
from ..engine.bits import has_full_nibble
from .core import Action, Position, PositionError, bits, card_places, mask
from .fishing import FishingGame

TR = import_module("hanasim.games.taoshi.round")
TL = import_module("hanasim.games.taoshi.lower")
TS = import_module("hanasim.games.taoshi.score")
TT = import_module("hanasim.games.taoshi.teyaku")
SL = import_module("hanasim.games.taoshi.slots")
RU = import_module("hanasim.games.taoshi.rules")
ACTIVE = RU.ACTIVE


class TaoshiGame(FishingGame):
    """The adapter of Taoshi under one rule set (three players)."""

    def __init__(self, name, rules, code):
        tb = TL.lower(rules)
        # what the family's advice reads: the claimed teyaku's slot (R_YAKU + position; the
        # positions are the seats at a table of three)
        module = SimpleNamespace(R_N=SL.R_N, R_TEY_SCORED=SL.R_YAKU, R_TEY_HELD=SL.R_TEY)
        self.name = name
        self.m = module
        self.rules = rules
        self.tb = tb
        self.table = int(tb.params[TL.P_PLAYERS])
        self.n = ACTIVE
        self.n_dealt = 0  # the play state's top counts the draw pile buffer from its start
        self.hand_size = RU.HAND_SIZE
        self.n_cards = 48
        self.code = code
        self.teyaku = True
        self.draw_out = False
        self.misdeal = lambda groups: False

    # ---------------------------------------------------------------- building
    def from_cards(self, hands, field, pile, captured=None, exposed=None, teyaku_points=None):
        """A position: the three hands (the dealer's first, then turn order), the field, the
        undrawn pile top first, the captured piles; at a fresh deal each player holding a
        teyaku is asked to claim it; later, ``teyaku_points`` gives each seat's claimed
        teyaku's value (default none) and ``exposed`` the cards its claim showed still in
        hand."""
        if self.table != ACTIVE:
            raise PositionError(f"Taoshi positions reach three-player tables; with "
                                f"{self.table} players the join or drop is not reached")
        n = ACTIVE
        captured = captured if captured is not None else [[] for _ in range(n)]
        if len(hands) != n or len(captured) != n:
            raise PositionError("Taoshi has 3 active seats: give 3 hands and 3 captured piles "
                                "(the dealer's first)")
        card_places(self.code, hands, field, pile, captured, 48)
        sizes = [len(h) for h in hands]
        k = max(sizes)
        turns = SL.PBUF - len(pile)
        mover = turns % n
        if k > self.hand_size or any(sizes[s] != (k - 1 if s < mover else k)
                                     for s in range(n)) or len(pile) != 3 * k - mover:
            raise PositionError(f"hand sizes {sizes} and a pile of {len(pile)} cannot occur: "
                                f"each hand holds {self.hand_size} at the deal, the pile "
                                f"{SL.PBUF}, and each turn plays a card and draws one, from "
                                f"the dealer in turn")
        fresh = turns == 0
        if fresh and has_full_nibble(mask(field)):
            raise PositionError("four cards of one number on the field: a misdeal, redealt "
                                "before play")
        p = self.tb.params
        res = np.zeros(SL.R_N, dtype=np.int64)
        res[SL.R_N_PLAYERS] = n
        tey = []
        for s in range(n):
            res[SL.R_POS + s] = s
            res[SL.R_ACT_SEAT + s] = s
            t = TT.best_teyaku(TT.teyaku_formed(mask(hands[s]), np.uint64(p[TL.P_RED]),
                                                np.uint64(p[TL.P_BAKE]), p[TL.P_READING],
                                                p[TL.P_OVERLAP_NO]), self.tb.values)
            tey.append(int(t))
            res[SL.R_TEY + s] = t
        order = np.array(list(pile) + [0] * (SL.PBUF - len(pile)), dtype=np.int8)
        st = np.zeros(SL.ST_N, dtype=np.uint64)
        for s in range(n):
            st[s] = mask(hands[s])
            st[state.pile(n, s)] = mask(captured[s])
        st[n] = mask(field)
        st[state.seat(n)] = mover
        # the undrawn pile from the buffer's start (top 0), as the kernel's pbuf
        st[state.top(n)] = 0
        ask = ()
        if fresh and teyaku_points is None and exposed is None:
            ask = tuple(s for s in range(n) if tey[s] != RU.NONE)
        if teyaku_points is not None:
            # claims made at the deal: their values as given (the hands now no longer show
            # them); a botta's round has no play, so none is given here
            if any(v >= RU.BOTTA for v in teyaku_points):
                raise PositionError("a claimed botta ends the round before play")
            for s in range(n):
                if teyaku_points[s]:
                    res[SL.R_CLAIM + s] = 1
                    res[SL.R_YAKU + s] = int(teyaku_points[s])
        if exposed is not None:
            for s in range(n):
                st[state.known(n, s)] = mask(exposed[s])
        d = dict(st=st, order=order, res=res, ask=ask, shown=(), pending=None, botta=0,
                 tey=tuple(tey))
        return Position(self, d)

    # ---------------------------------------------------------------- the round
    def phase(self, p) -> str:
        if p.data["botta"] and len(p.data["shown"]) == len(p.data["ask"]):
            return "over"
        return FishingGame.phase(self, p)

    def _expose(self, d):
        """Each asked seat's claim by ``round.claim_teyaku``, in turn order."""
        res = d["res"].copy()
        botta = 0
        for s, yes in zip(d["ask"], d["shown"]):
            if yes:
                botta += int(TR.claim_teyaku(res, np.int64(s), np.int64(s),
                                             np.int64(d["tey"][s]), self.tb))
        d["botta"] = botta
        return d["st"], res

    def apply(self, p, a: Action):
        if a.kind == "expose":
            d = dict(p.data)
            d["shown"] = d["shown"] + (a.yes,)
            if len(d["shown"]) == len(d["ask"]):
                d["st"], d["res"] = self._expose(d)
            return Position(self, d)
        return FishingGame.apply(self, p, a)

    def result(self, p) -> list:
        """Each seat's round score in points ("End of Round and Scoring")."""
        d = p.data
        res = d["res"].copy()
        if d["botta"]:
            TS.settle_botta(res, np.int64(ACTIVE), self.tb)
        else:
            TS.settle_play(d["st"], res, np.int64(ACTIVE), self.tb)
        unit = int(self.tb.params[TL.P_UNIT])
        out = []
        for s in range(ACTIVE):
            v = int(res[SL.R_SCORE + s])
            out.append(v // unit if v % unit == 0 else v / unit)
        return out

    def teyaku_value(self, hand) -> int:
        """The value of the best teyaku ``hand`` holds (what claiming it scores)."""
        p = self.tb.params
        t = TT.best_teyaku(TT.teyaku_formed(np.uint64(hand), np.uint64(p[TL.P_RED]),
                                            np.uint64(p[TL.P_BAKE]), p[TL.P_READING],
                                            p[TL.P_OVERLAP_NO]), self.tb.values)
        return int(self.tb.values[t])

    def turn(self, p) -> int:
        return int(p.data["st"][state.top(self.n)]) + 1


__all__ = ["TaoshiGame", "bits"]
