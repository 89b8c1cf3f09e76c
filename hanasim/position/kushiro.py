"""Positions of a Kushiro Toppa round at a two-player table, its result in chips.

Every step is the game's own kernel code (``games.kushiro``), called from Python on the play's
resumable state (``slots``' ``ks``):

* teyaku: each player holding some (``teyaku.teyaku_bits``), the first mover first, claims
  them or not: ``round.claim`` (their chips, the cards face up); ``round.teyaku_end`` says
  whether a claim ends the round (``teyaku_effect``);
* the play: ``turn.start_play``; a turn is ``turn._turn``, the kernels' turn (the hand card,
  then the pile's top), run with greedy tables that make greedy play the chosen card and
  captures (``fishing._forced_tables``; the choices are the captures ``engine.play.capture``
  leaves open), then ``turn._end_turn`` (a new dekiyaku: the decision); Iku or Yoroshii is
  ``turn._decide``, the decisions open as the kernels' play loop says (``last_card``);
* the result: ``turn.settle`` and ``round.stop_chips`` on top of the claimed teyaku's chips.

* the four-in-hand swap (a hand dealt four of a month): ``round.swap_card``, each seat in
  turn order from the dealer, its fours by month; the action names the card of the four that
  went onto the pile (the other player's pick: ``swap_pick``), or keeps the four.

Reached: two players (the default table), from the deal.  Not reached (refused in one line):
tables of three or four (join or drop, the dropped hands in the pile).
"""
from __future__ import annotations

import numpy as np

from ..engine.bits import count, has_full_nibble
from ..engine.play import capture
from importlib import import_module

from ..games.kushiro.rules import FIELD_SIZE, HAND_SIZE
from ..games.kushiro.slots import (END_TEYAKU, K_CUR, K_END_PILE, K_FIELD, K_PA, K_TOP,
                                   K_TURNS, KS_N, PILE_N, R_N)
from ..games.kushiro.teyaku import teyaku_bits
from ..policies import GREEDY
from .core import Action, Position, PositionError, bits, koikoi, mask, play, swap, turned
from .fishing import _forced_tables, _high, _two_way
from .koikoi_game import _check_partition

# the modules (the package exports functions of the same names)
KL = import_module("hanasim.games.kushiro.lower")
KR = import_module("hanasim.games.kushiro.round")
KT = import_module("hanasim.games.kushiro.turn")
ZERO = np.uint64(0)
TOP = 2 * HAND_SIZE + FIELD_SIZE  # the draw pile's first card in the deal's order
FOUR = np.uint64(0x111111111111)


def _fours(h):
    """The lowest card of each month the hand ``h`` holds all four of (as the kernel's
    ``play_round`` finds them)."""
    h = np.uint64(h)
    return h & (h >> np.uint64(1)) & (h >> np.uint64(2)) & (h >> np.uint64(3)) & FOUR


class KushiroGame:
    """The adapter of Kushiro Toppa under one rule set."""

    def __init__(self, name, rules, code):
        self.name = name
        self.rules = rules
        self.tb = KL.lower(rules)[0]
        self.n = int(self.tb.params[KL.P_PLAYERS])
        self.n_cards = 48
        self.code = code

    # ---------------------------------------------------------------- building
    def from_cards(self, hands, field, pile, captured=None):
        """A position at the deal: both hands (the dealer's first: the dealer moves first),
        the field and the draw pile top first."""
        if self.n != 2:
            raise PositionError(f"Kushiro Toppa positions reach two-player tables; with "
                                f"{self.n} players the join or drop is not reached")
        if captured and any(captured):
            raise PositionError("Kushiro Toppa positions start at the deal (give the actions "
                                "since to reach a later moment)")
        if len(hands) != 2 or any(len(h) != HAND_SIZE for h in hands) \
                or len(field) != FIELD_SIZE:
            raise PositionError(f"each hand holds {HAND_SIZE} cards and the field "
                                f"{FIELD_SIZE} at the deal (two hands, the dealer's first)")
        _check_partition(self.code, hands, field, list(pile), [[], []])
        if has_full_nibble(mask(field)):
            raise PositionError("four cards of one month on the field: a misdeal, redealt "
                                "before play")
        # the deal as the kernel's order: the hands, the field, the pile
        order = np.array(list(hands[0]) + list(hands[1]) + list(field) + list(pile),
                         dtype=np.int8)
        groups = np.zeros(4, dtype=np.uint64)
        groups[0], groups[1] = mask(hands[0]), mask(hands[1])
        # the four-in-hand swaps asked: each seat in turn order from the dealer, its fours
        # by month (the fours of the hand as dealt: round.play_round)
        swaps = tuple((s, c) for s in range(2) for c in bits(_fours(groups[s])))
        d = dict(groups=groups, order=order, field=mask(field), swaps=swaps, swapped=(),
                 res=np.zeros(R_N, dtype=np.int64))
        return Position(self, self._start(d) if not swaps else d)

    def _start(self, d):
        """After the swaps: the teyaku held, the play's state (``turn.start_play``)."""
        groups = d["groups"]
        p = self.tb.params
        km = self.tb.kind_masks
        tey = [int(teyaku_bits(groups[s], km[0], km[1], km[2], km[3], p[KL.P_READING],
                               p[KL.P_PAIRS])) for s in range(2)]
        n_pile = 48 - TOP
        pbuf = np.zeros(PILE_N, dtype=np.int8)
        pbuf[:n_pile] = d["order"][TOP:]
        ks = np.zeros(KS_N, dtype=np.uint64)
        KT.start_play(ks, groups[0], groups[1], d["field"], np.int64(n_pile),
                      np.int64(n_pile))
        return dict(d, ks=ks, pile=pbuf, tey=tuple(tey),
                    ask=tuple(s for s in range(2) if tey[s]), shown=(), chips=0,
                    pending=None, decision=None, over=False)

    # ---------------------------------------------------------------- the round
    def phase(self, p) -> str:
        d = p.data
        if len(d["swapped"]) < len(d["swaps"]):
            return "swap"
        if d["over"]:
            return "over"
        if len(d["shown"]) < len(d["ask"]):
            return "expose"
        if d["decision"] is not None:
            return "koikoi"
        if d["pending"] is not None:
            return "turned"
        ks = d["ks"]
        return "play" if ks[int(ks[K_CUR])] != ZERO else "over"

    def to_act(self, p) -> int:
        ph = self.phase(p)
        if ph == "swap":
            return p.data["swaps"][len(p.data["swapped"])][0]
        if ph == "expose":
            return p.data["ask"][len(p.data["shown"])]
        return -1 if ph == "over" else int(p.data["ks"][K_CUR])

    def _drawn(self, d):
        ks = d["ks"]
        top = int(ks[K_TOP])
        return int(d["pile"][top]) if top < int(ks[K_END_PILE]) else -1

    def legal(self, p) -> list:
        ph = self.phase(p)
        d = p.data
        if ph == "swap":
            # the card of the four that goes: the other player's pick (swap_pick: any of the
            # four laid face down, or the lowest)
            c0 = d["swaps"][len(d["swapped"])][1]
            picks = [c0] if self.tb.params[KL.P_PICK_LOWEST] else [c0 + k for k in range(4)]
            return [swap(c) for c in picks] + [swap(None)]
        if ph == "expose":
            return [Action("expose", yes=True), Action("expose", yes=False)]
        if ph == "koikoi":
            return [koikoi(True), koikoi(False)]
        ks = d["ks"]
        field = ks[K_FIELD]
        if ph == "turned":
            card, high = d["pending"]
            f = np.uint64(capture(card, field, high)[0])
            drawn = self._drawn(d)
            return [turned(drawn, t) for t in _two_way(drawn, f)]
        out = []
        for c in bits(ks[int(ks[K_CUR])]):
            two = _two_way(c, field)
            out += [play(c, t) for t in two] if two else [play(c)]
        return out

    def apply(self, p, a: Action):
        d = dict(p.data)
        if a.kind == "swap":
            s = d["swaps"][len(d["swapped"])][0]
            d["swapped"] = d["swapped"] + (a.card,)
            if a.yes:
                groups, order = d["groups"].copy(), d["order"].copy()
                KR.swap_card(groups, np.int64(s), np.int64(a.card), order, np.int64(TOP),
                             d["res"].copy())
                d.update(groups=groups, order=order)
            return Position(self, self._start(d) if len(d["swapped"]) == len(d["swaps"])
                            else d)
        if a.kind == "expose":
            d["shown"] = d["shown"] + (a.yes,)
            if a.yes:
                ks = d["ks"].copy()
                res = d["res"].copy()
                s = self.to_act(p)
                v = int(KR.claim(ks, res, np.int64(s), np.int64(s), ks[s],
                                 np.int64(d["tey"][s]), self.tb.params))
                d.update(ks=ks, res=res, chips=d["chips"] + (v if s == 0 else -v))
            if len(d["shown"]) == len(d["ask"]):
                res = d["res"]
                d["over"] = bool(KR.teyaku_end(self.tb.params, res[KR.R_TEY_CLAIMED],
                                               res[KR.R_TEY_CLAIMED + 1]))
                d["end"] = END_TEYAKU if d["over"] else None
            return Position(self, d)
        ks = d["ks"].copy()
        d["ks"] = ks
        cur = int(ks[K_CUR])
        if a.kind == "koikoi":
            v, h = d["decision"]
            d["decision"] = None
            if KT._decide(ks, np.int64(cur), a.yes, np.int64(v), np.int64(h)):
                ks[K_CUR] = np.uint64(cur ^ 1)
            else:
                d["over"] = True
            return Position(self, d)
        field = ks[K_FIELD]
        if a.kind == "play":
            high = _high(a.card, field, a.take)
            f = np.uint64(capture(a.card, field, high)[0])
            drawn = self._drawn(d)
            if drawn >= 0 and _two_way(drawn, f):
                d["pending"] = (a.card, high)
                return Position(self, d)
            card, high2 = a.card, ZERO
        else:
            (card, high) = d["pending"]
            f = np.uint64(capture(card, field, high)[0])
            high2 = _high(a.card, f, a.take)
            d["pending"] = None
        drawn = self._drawn(d)
        gscore, ghigh = _forced_tables(48, card, high, field, max(drawn, 0), high2, f)
        hand, field2, cap, top = KT._turn(np.int64(GREEDY), ks[cur], field, d["pile"],
                                          np.int64(ks[K_TOP]), np.int64(ks[K_END_PILE]),
                                          ZERO, gscore, ghigh)
        tb = self.tb
        improved, v, h = KT._end_turn(ks, np.int64(cur), hand, field2, cap, top,
                                      tb.yaku_masks, tb.yaku_ints, tb.params[KL.P_BIGGER])
        if improved:
            # no card left: only Yoroshii, unless last_card=free (the kernels' play loop)
            if hand != ZERO or tb.params[KL.P_LAST_FREE] != 0:
                d["decision"] = (int(v), int(h))
            else:
                KT._decide(ks, np.int64(cur), False, v, h)
                d["over"] = True
            return Position(self, d)
        ks[K_CUR] = np.uint64(cur ^ 1)
        return Position(self, d)

    def result(self, p) -> list:
        """Each seat's chips won (+) or paid (-): the claimed teyaku's, then a stop's
        dekiyaku (``turn.settle``; exhausted: as ``exhausted`` says)."""
        d = p.data
        chips = d["chips"]
        if d.get("end") != END_TEYAKU:
            _e, stopper, points, _h = KT.settle(d["ks"], self.tb)
            if stopper >= 0:
                chips += int(KR.stop_chips(np.int64(stopper), np.int64(points)))
        return [chips, -chips]

    # ---------------------------------------------------------------- views
    def hands(self, p):
        d = p.data
        return [d["ks"][s] if "ks" in d else d["groups"][s] for s in range(2)]

    def field(self, p):
        return p.data["ks"][K_FIELD] if "ks" in p.data else p.data["field"]

    def piles(self, p):
        return [p.data["ks"][K_PA + s] if "ks" in p.data else ZERO for s in range(2)]

    def pile_left(self, p):
        d = p.data
        if "ks" not in d:
            return [int(c) for c in d["order"][TOP:]]
        ks = d["ks"]
        return [int(c) for c in d["pile"][int(ks[K_TOP]):int(ks[K_END_PILE])]]

    def turn(self, p) -> int:
        return int(p.data["ks"][K_TURNS]) + 1 if "ks" in p.data else 0

    def inner_seat(self, p) -> int:
        return self.to_act(p)


__all__ = ["KushiroGame", "count"]
