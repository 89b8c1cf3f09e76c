"""Positions of a Kushiro Toppa round at a table of two to four, its result in chips.

Every step is the game's own kernel code (``games.kushiro``), called from Python on the play's
resumable state (``slots``' ``ks``), in the order of ``round.play_round``:

* the four-in-hand swap (a hand dealt four of a month): ``round.swap_card``, each seat in
  turn order from the dealer, its fours by month; the action names the card of the four that
  went onto the pile (the other player's pick: ``swap_pick``), or keeps the four;
* join or drop (three or four players): the seats speak from the dealer's right round to the
  dealer, each forced in or out as ``engine.join.forced_choice`` says (``undecided``); the
  others join or drop.  Fewer than two joined (``undecided=redeal``): the deal is void, a
  round of no chips.  The dropped hands go under the pile, into it, or aside
  (``dropped_cards``): the draw pile the play then starts from is the record's ``play_pile``
  (its order is the table's shuffle), checked against the rule;
* teyaku: each of the two players holding some (``teyaku.teyaku_bits``), the first mover
  first, claims them or not: ``round.claim`` (their chips, the cards face up);
  ``round.teyaku_end`` says whether a claim ends the round (``teyaku_effect``);
* the play: ``turn.start_play``; a turn is ``turn._turn``, the kernels' turn (the hand card,
  then the pile's top), run with greedy tables that make greedy play the chosen card and
  captures (``fishing._forced_tables``; the choices are the captures ``engine.play.capture``
  leaves open), then ``turn._end_turn`` (a new dekiyaku: the decision); Iku or Yoroshii is
  ``turn._decide``, the decisions open as the kernels' play loop says (``last_card``);
* the result: ``turn.settle`` and ``round.stop_chips`` on top of the claimed teyaku's chips,
  the two players' by their table seats (a seat out of the round: 0).

Seats are the table's, relative to the dealer; in the play, the two players are the play's
slots 0 (the first mover: the earlier seat from the dealer) and 1.
"""
from __future__ import annotations

import numpy as np

from ..engine.bits import count, has_full_nibble
from ..engine.join import CH_DROP, CH_FORCED_IN, CH_JOIN, forced_choice
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
FOUR = np.uint64(0x111111111111)
DROPPED = ("under_pile", "shuffled", "aside")


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
        self.table = int(self.tb.params[KL.P_PLAYERS])
        self.n = self.table
        self.n_cards = 48
        self.code = code
        self.top = HAND_SIZE * self.table + FIELD_SIZE  # the stock's first card in the deal
        self.dropped = DROPPED[int(self.tb.params[KL.P_DROPPED])]

    # ---------------------------------------------------------------- building
    def from_cards(self, hands, field, pile, captured=None, play_pile=None):
        """A position at the deal: every seat's hand (the dealer's first, then turn order),
        the field and the stock top first (the cards left after the deal); ``play_pile``:
        the draw pile as the play starts, after the join or drop, top first (three or four
        players, when the dropped hands go into the pile)."""
        n = self.table
        if captured and any(captured):
            raise PositionError("Kushiro Toppa positions start at the deal (give the actions "
                                "since to reach a later moment)")
        if len(hands) != n or any(len(h) != HAND_SIZE for h in hands) \
                or len(field) != FIELD_SIZE:
            raise PositionError(f"each hand holds {HAND_SIZE} cards and the field "
                                f"{FIELD_SIZE} at the deal ({n} hands at a table of {n}, "
                                f"the dealer's first)")
        _check_partition(self.code, hands, field, list(pile), [[]] * n)
        if has_full_nibble(mask(field)):
            raise PositionError("four cards of one month on the field: a misdeal, redealt "
                                "before play")
        if play_pile is not None:
            if n == 2:
                raise PositionError("'play_pile' is for tables of three or four (the draw "
                                    "pile after the join or drop)")
            if len(set(play_pile)) != len(play_pile):
                dup = next(c for c in play_pile if play_pile.count(c) > 1)
                raise PositionError(f"{self.code(dup)} is twice in the draw pile after the "
                                    f"drop ('play_pile')")
            in_field = [c for c in play_pile if c in set(field)]
            if in_field:
                raise PositionError(f"{self.code(in_field[0])} is on the field, not in the "
                                    f"draw pile after the drop ('play_pile')")
        # the deal as the kernel's order: the hands, the field, the stock
        order = np.array([c for h in hands for c in h] + list(field) + list(pile),
                         dtype=np.int8)
        groups = np.zeros(4, dtype=np.uint64)
        for s in range(n):
            groups[s] = mask(hands[s])
        # the four-in-hand swaps asked: each seat in turn order from the dealer, its fours
        # by month (the fours of the hand as dealt: round.play_round); none without a stock
        swaps = ()
        if self.top < 48:
            swaps = tuple((s, c) for s in range(n) for c in bits(_fours(groups[s])))
        d = dict(groups=groups, order=order, field=mask(field), swaps=swaps, swapped=(),
                 said=(), res=np.zeros(R_N, dtype=np.int64), over=False,
                 play_pile=None if play_pile is None else [int(c) for c in play_pile])
        return Position(self, self._after_swaps(d) if not swaps else d)

    def _after_swaps(self, d):
        if self.table == 2:
            return self._start(d, (0, 1), d["order"][self.top:], ZERO)
        return d if self._join(d)[1] is not None else self._after_join(d)

    def _join(self, d):
        """(each decided seat's choice, the next seat asked or None): the seats speak from
        the dealer's right round to the dealer (``round.play_round``), forced in or out by
        ``engine.join.forced_choice``."""
        n = self.table
        said = dict(d["said"])
        force_in = self.tb.params[KL.P_UNDECIDED] == 0
        joined = 0
        choices = {}
        for j in range(n):
            s = j + 1 if j + 1 < n else 0
            ch = int(forced_choice(joined, n - j, 2, force_in))
            if ch < 0:
                if s not in said:
                    return choices, s
                ch = CH_JOIN if said[s] else CH_DROP
            choices[s] = ch
            joined += ch in (CH_JOIN, CH_FORCED_IN)
        return choices, None

    def _after_join(self, d):
        """The two players, the draw pile after the drop (``dropped_cards``), the play."""
        choices, _ = self._join(d)
        plays = [s for s in range(self.table) if choices[s] in (CH_JOIN, CH_FORCED_IN)]
        d = dict(d, choices=choices)
        if len(plays) < 2:  # undecided=redeal: the cards are dealt again, no chips
            return dict(d, over=True, redeal=True, active=())
        stock = [int(c) for c in d["order"][self.top:]]
        out = [s for s in range(self.table) if s not in plays]
        gone = [c for s in out for c in bits(d["groups"][s])]
        given = d["play_pile"]
        code = self.code
        if self.dropped == "aside":
            if given is not None and given != stock:
                raise PositionError("under dropped_cards=aside the draw pile after the drop is "
                                    "the stock as it stands: " + " ".join(map(code, stock)))
            return self._start(d, tuple(plays), stock, mask(gone))
        if given is None:
            raise PositionError(f"the draw pile after the drop is not given ('play_pile'): "
                                f"under dropped_cards={self.dropped} the dropped hands go "
                                f"{'under' if self.dropped == 'under_pile' else 'into'} the "
                                f"pile in the table's order")
        if sorted(given) != sorted(stock + gone):
            extra = [c for c in given if c not in set(stock + gone)]
            missing = [c for c in stock + gone if c not in set(given)]
            raise PositionError("the draw pile after the drop ('play_pile') must hold the "
                                "stock and the dropped hands: "
                                + (f"{code(extra[0])} is not one of them" if extra else
                                   f"{code(missing[0])} is missing"))
        if self.dropped == "under_pile" and given[:len(stock)] != stock:
            raise PositionError("under dropped_cards=under_pile the draw pile after the drop "
                                "('play_pile') starts with the stock as it stands ("
                                + " ".join(map(code, stock)) + "), the dropped hands under it")
        return self._start(d, tuple(plays), given, ZERO)

    def _start(self, d, active, pile, aside):
        """The teyaku held, the play's state (``turn.start_play``): the draw pile ``pile``,
        top first, then the cards set aside (unseen, never drawn) as ``round.play_round``
        lays them in its buffer."""
        groups = d["groups"]
        p = self.tb.params
        km = self.tb.kind_masks
        a, b = active
        tey = [int(teyaku_bits(groups[s], km[0], km[1], km[2], km[3], p[KL.P_READING],
                               p[KL.P_PAIRS])) for s in active]
        end = len(pile)
        pbuf = np.zeros(PILE_N, dtype=np.int8)
        pbuf[:end] = pile
        rest = bits(aside)
        pbuf[end:end + len(rest)] = rest
        ks = np.zeros(KS_N, dtype=np.uint64)
        KT.start_play(ks, groups[a], groups[b], d["field"], np.int64(end),
                      np.int64(end + len(rest)))
        return dict(d, ks=ks, pile=pbuf, tey=tuple(tey), active=active,
                    ask=tuple(k for k in range(2) if tey[k]), shown=(), chips=0,
                    pending=None, decision=None, over=False)

    # ---------------------------------------------------------------- the round
    def phase(self, p) -> str:
        d = p.data
        if len(d["swapped"]) < len(d["swaps"]):
            return "swap"
        if "ks" not in d and not d["over"]:
            return "join"
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

    def slot(self, p) -> int:
        """The play's slot to act (0 the first mover, 1 the other)."""
        d = p.data
        if self.phase(p) == "expose":
            return d["ask"][len(d["shown"])]
        return int(d["ks"][K_CUR])

    def to_act(self, p) -> int:
        ph = self.phase(p)
        d = p.data
        if ph == "swap":
            return d["swaps"][len(d["swapped"])][0]
        if ph == "join":
            return self._join(d)[1]
        return -1 if ph == "over" else d["active"][self.slot(p)]

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
        if ph == "join":
            return [Action("join", yes=True), Action("join", yes=False)]
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
                KR.swap_card(groups, np.int64(s), np.int64(a.card), order, np.int64(self.top),
                             d["res"].copy())
                d.update(groups=groups, order=order)
            return Position(self, self._after_swaps(d) if len(d["swapped"]) == len(d["swaps"])
                            else d)
        if a.kind == "join":
            d["said"] = d["said"] + ((self._join(d)[1], a.yes),)
            return Position(self, d if self._join(d)[1] is not None else self._after_join(d))
        if a.kind == "expose":
            k = self.slot(p)
            d["shown"] = d["shown"] + (a.yes,)
            if a.yes:
                ks = d["ks"].copy()
                res = d["res"].copy()
                s = d["active"][k]
                v = int(KR.claim(ks, res, np.int64(k), np.int64(s), ks[k],
                                 np.int64(d["tey"][k]), self.tb.params))
                d.update(ks=ks, res=res, chips=d["chips"] + (v if k == 0 else -v))
            if len(d["shown"]) == len(d["ask"]):
                res = d["res"]
                a_, b_ = d["active"]
                d["over"] = bool(KR.teyaku_end(self.tb.params, res[KR.R_TEY_CLAIMED + a_],
                                               res[KR.R_TEY_CLAIMED + b_]))
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
        """Each table seat's chips won (+) or paid (-): the claimed teyaku's, then a stop's
        dekiyaku (``turn.settle``; exhausted: as ``exhausted`` says); 0 for a seat out of the
        round, and for every seat of a void deal (fewer than two joined)."""
        d = p.data
        out = [0] * self.table
        if d.get("redeal"):
            return out
        chips = d["chips"]
        if d.get("end") != END_TEYAKU:
            _e, stopper, points, _h = KT.settle(d["ks"], self.tb)
            if stopper >= 0:
                chips += int(KR.stop_chips(np.int64(stopper), np.int64(points)))
        a, b = d["active"]
        out[a], out[b] = chips, -chips
        return out

    def redealt(self, p) -> bool:
        """Whether the deal is void: fewer than two joined (``undecided=redeal``)."""
        return bool(p.data.get("redeal"))

    # ---------------------------------------------------------------- views
    def hands(self, p):
        d = p.data
        if "ks" not in d:
            return [d["groups"][s] for s in range(self.table)]
        out = [ZERO] * self.table
        for k, s in enumerate(d["active"]):
            out[s] = d["ks"][k]
        return out

    def field(self, p):
        return p.data["ks"][K_FIELD] if "ks" in p.data else p.data["field"]

    def piles(self, p):
        d = p.data
        out = [ZERO] * self.table
        if "ks" in d:
            for k, s in enumerate(d["active"]):
                out[s] = d["ks"][K_PA + k]
        return out

    def pile_left(self, p):
        d = p.data
        if "ks" not in d:
            return [int(c) for c in d["order"][self.top:]]
        ks = d["ks"]
        return [int(c) for c in d["pile"][int(ks[K_TOP]):int(ks[K_END_PILE])]]

    def turn(self, p) -> int:
        return int(p.data["ks"][K_TURNS]) + 1 if "ks" in p.data else 0

    def inner_seat(self, p) -> int:
        return self.slot(p)


__all__ = ["KushiroGame", "count"]
