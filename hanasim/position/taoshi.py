"""Positions of a Taoshi round at a table of three to six, its result in points.

Every step is the game's own kernel code (``games.taoshi``), called from Python, in the order
of ``round.play_round``:

* join or drop (four to six players): from the dealer round the table, each seat forced in or
  out as ``engine.join.forced_choice`` says (three play); the others join or drop.  The
  dropped hands go on top of the draw pile, shuffled or not (``dropped_cards``): the draw
  pile the play starts from is the record's ``play_pile`` (its order is the table's shuffle),
  checked against the rule.  The fees between active and dropped players (``drop_fee``,
  ``forced_out_pay``) are ``round.play_round``'s, written out here (the kernel has them
  inline) and checked against it by the tests;
* the deal-time teyaku: each hand's best (``teyaku.teyaku_formed``, ``teyaku.best_teyaku``);
  each active player holding one, in turn order from the dealer, claims it or not
  ("Teyaku Showdown"): ``round.claim_teyaku`` (a botta ends the round before play); then,
  under ``forced_out_botta=claimed``, each forced-out player holding a botta, in seat order;
* the play: the shared turn of the Toppa family (``fishing``: ``engine.play.play_turns`` run
  for the seat to move with greedy tables forcing the chosen card and captures), on the play
  state Taoshi's ``round.play_round`` builds (``engine.state``, 3 seats, the draw pile its own
  buffer);
* the result: ``score.settle_botta`` (a botta round) or ``score.settle_play``, each table
  seat's score in points (the kernels count 1/unit points: ``burden_unit``).

Three players: from the deal or any later moment of the play.  Four to six: from the deal
(give the actions since).
"""
from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace

import numpy as np

from ..engine import state
from ..engine.bits import has_full_nibble
from ..engine.join import CH_DROP, CH_FORCED_OUT, CH_JOIN, forced_choice
from .core import Action, Position, PositionError, bits, card_places, mask
from .fishing import FishingGame

TR = import_module("hanasim.games.taoshi.round")
TL = import_module("hanasim.games.taoshi.lower")
TS = import_module("hanasim.games.taoshi.score")
TT = import_module("hanasim.games.taoshi.teyaku")
SL = import_module("hanasim.games.taoshi.slots")
RU = import_module("hanasim.games.taoshi.rules")
ACTIVE = RU.ACTIVE
ZERO = np.uint64(0)


class TaoshiGame(FishingGame):
    """The adapter of Taoshi under one rule set (three to six players, three active)."""

    def __init__(self, name, rules, code):
        tb = TL.lower(rules)
        # what the family's advice reads: the claimed teyaku's slot (R_YAKU + position; the
        # positions are the active players in turn order)
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
        self.on_top = bool(tb.params[TL.P_ON_TOP])

    def _best(self, hand) -> int:
        p = self.tb.params
        return int(TT.best_teyaku(TT.teyaku_formed(np.uint64(hand), np.uint64(p[TL.P_RED]),
                                                   np.uint64(p[TL.P_BAKE]), p[TL.P_READING],
                                                   p[TL.P_OVERLAP_NO]), self.tb.values))

    # ---------------------------------------------------------------- building
    def from_cards(self, hands, field, pile, captured=None, exposed=None, teyaku_points=None,
                   play_pile=None):
        """A position: the hands (the dealer's first, then turn order), the field, the
        undrawn pile top first, the captured piles; at a fresh deal each player holding a
        teyaku is asked to claim it; later (three players), ``teyaku_points`` gives each
        seat's claimed teyaku's value (default none) and ``exposed`` the cards its claim
        showed still in hand.  Four to six players: at the deal, ``pile`` the stock (the
        cards left after the deal) and ``play_pile`` the draw pile after the join or drop."""
        if self.table != ACTIVE:
            return self._table_deal(hands, field, pile, captured, exposed, teyaku_points,
                                    play_pile)
        if play_pile is not None:
            raise PositionError("'play_pile' is for tables of four to six (the draw pile "
                                "after the join or drop)")
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
        res = np.zeros(SL.R_N, dtype=np.int64)
        res[SL.R_N_PLAYERS] = n
        tey = []
        for s in range(n):
            res[SL.R_POS + s] = s
            res[SL.R_ACT_SEAT + s] = s
            t = self._best(mask(hands[s]))
            tey.append(t)
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
        d = dict(stage="play", st=st, order=order, res=res, ask=ask, ask_out=(), shown=(),
                 pending=None, botta=0, tey=tuple(tey), active=tuple(range(n)))
        return Position(self, d)

    def _table_deal(self, hands, field, pile, captured, exposed, teyaku_points, play_pile):
        """A position at the deal of a table of four to six: the join or drop first."""
        n = self.table
        if (captured and any(captured)) or exposed is not None or teyaku_points is not None:
            raise PositionError(f"Taoshi positions at tables of {n} start at the deal (give "
                                f"the actions since to reach a later moment)")
        size = 48 - RU.HAND_SIZE * n - RU.FIELD_SIZE
        if len(hands) != n or any(len(h) != RU.HAND_SIZE for h in hands) \
                or len(field) != RU.FIELD_SIZE or len(pile) != size:
            raise PositionError(f"at a table of {n} each hand holds {RU.HAND_SIZE} cards, the "
                                f"field {RU.FIELD_SIZE} and the stock {size} at the deal ({n} "
                                f"hands, the dealer's first)")
        card_places(self.code, hands, field, pile, [[]] * n, 48)
        if has_full_nibble(mask(field)):
            raise PositionError("four cards of one number on the field: a misdeal, redealt "
                                "before play")
        if play_pile is not None and len(set(play_pile)) != len(play_pile):
            dup = next(c for c in play_pile if play_pile.count(c) > 1)
            raise PositionError(f"{self.code(dup)} is twice in the draw pile after the drop "
                                f"('play_pile')")
        d = dict(stage="join", hands=[list(h) for h in hands], field=mask(field),
                 stock=[int(c) for c in pile], said=(),
                 play_pile=None if play_pile is None else [int(c) for c in play_pile])
        return Position(self, d if self._join(d)[1] is not None else self._after_join(d))

    def _join(self, d):
        """(each decided seat's choice, the next seat asked or None): from the dealer round
        the table (``round.play_round``), forced in or out by ``engine.join.forced_choice``."""
        n = self.table
        said = dict(d["said"])
        joined = 0
        choices = {}
        for s in range(n):
            ch = int(forced_choice(joined, n - s, ACTIVE, True))
            if ch < 0:
                if s not in said:
                    return choices, s
                ch = CH_JOIN if said[s] else CH_DROP
            choices[s] = ch
            joined += ch not in (CH_DROP, CH_FORCED_OUT)
        return choices, None

    def _after_join(self, d):
        """The active round: its seats, fees, draw pile (``dropped_cards``), claims."""
        n = self.table
        tb = self.tb
        p = tb.params
        choices, _ = self._join(d)
        res = np.zeros(SL.R_N, dtype=np.int64)
        res[SL.R_N_PLAYERS] = n
        for s in range(RU.MAX_PLAYERS):
            res[SL.R_POS + s] = -1
            res[SL.R_TEY + s] = RU.NONE
        masks = [mask(h) for h in d["hands"]]
        for s in range(n):
            res[SL.R_TEY + s] = self._best(masks[s])
        joined = 0
        for s in range(n):
            res[SL.R_CHOICE + s] = choices[s]
            if choices[s] not in (CH_DROP, CH_FORCED_OUT):
                res[SL.R_POS + s] = joined
                res[SL.R_ACT_SEAT + joined] = s
                joined += 1
        active = tuple(int(res[SL.R_ACT_SEAT + j]) for j in range(ACTIVE))
        # the draw pile: the dropped hands on top, in seat order, then the stock; shuffled
        # unless dropped_cards=on_top (round.play_round)
        out = [s for s in range(n) if s not in active]
        on_top = [c for s in out for c in d["hands"][s]] + d["stock"]
        given = d["play_pile"]
        code = self.code
        if given is None:
            if not self.on_top:
                raise PositionError("the draw pile after the drop is not given ('play_pile'): "
                                    "under dropped_cards=shuffled the dropped hands and the "
                                    "stock are shuffled together in the table's order")
            given = on_top
        if sorted(given) != sorted(on_top):
            extra = [c for c in given if c not in set(on_top)]
            missing = [c for c in on_top if c not in set(given)]
            raise PositionError("the draw pile after the drop ('play_pile') must hold the "
                                "dropped hands and the stock: "
                                + (f"{code(extra[0])} is not one of them" if extra else
                                   f"{code(missing[0])} is missing"))
        if self.on_top:
            at = 0
            for s in out:
                if sorted(given[at:at + RU.HAND_SIZE]) != sorted(d["hands"][s]):
                    raise PositionError("under dropped_cards=on_top the draw pile after the "
                                        "drop ('play_pile') holds the dropped hands on top, "
                                        "in seat order, then the stock: the cards from "
                                        f"{code(given[at])} are not the hand of seat {s}")
                at += RU.HAND_SIZE
            if given[at:] != d["stock"]:
                raise PositionError("under dropped_cards=on_top the stock lies under the "
                                    "dropped hands as dealt: " + " ".join(map(code,
                                                                              d["stock"])))
        # fees between active and dropped players (round.play_round's, inline there)
        for s in range(n):
            ch = choices[s]
            if ch == CH_DROP and p[TL.P_DROP_FEE] != 0:
                res[SL.R_RAW + s] -= ACTIVE * p[TL.P_DROP_FEE]
                for j in range(ACTIVE):
                    res[SL.R_RAW + active[j]] += p[TL.P_DROP_FEE]
            elif ch == CH_FORCED_OUT and p[TL.P_FORCED_PAY] != 0:
                res[SL.R_RAW + s] += ACTIVE * p[TL.P_FORCED_PAY]
                for j in range(ACTIVE):
                    res[SL.R_RAW + active[j]] -= p[TL.P_FORCED_PAY]
        st = np.zeros(SL.ST_N, dtype=np.uint64)
        for j in range(ACTIVE):
            st[j] = masks[active[j]]
        st[ACTIVE] = d["field"]
        order = np.array(given, dtype=np.int8)
        tey = tuple(int(res[SL.R_TEY + s]) for s in active)
        ask = tuple(j for j in range(ACTIVE) if tey[j] != RU.NONE)
        ask_out = ()
        if p[TL.P_FORCED_BOTTA] != 0:
            ask_out = tuple(s for s in range(n) if choices[s] == CH_FORCED_OUT
                            and self.tb.values[res[SL.R_TEY + s]] == RU.BOTTA)
        return dict(d, stage="play", st=st, order=order, res=res, ask=ask, ask_out=ask_out,
                    shown=(), pending=None, botta=0, tey=tey, active=active,
                    choices=choices)

    # ---------------------------------------------------------------- the round
    def phase(self, p) -> str:
        d = p.data
        if d["stage"] == "join":
            return "join"
        if len(d["shown"]) < len(d["ask"]) + len(d["ask_out"]):
            return "expose"
        if d["botta"]:
            return "over"
        return FishingGame.phase(self, p)

    def to_act(self, p) -> int:
        """The table seat to act."""
        ph = self.phase(p)
        d = p.data
        if ph == "join":
            return self._join(d)[1]
        if ph == "expose":
            k = len(d["shown"])
            return d["active"][d["ask"][k]] if k < len(d["ask"]) else \
                d["ask_out"][k - len(d["ask"])]
        if ph == "over":
            return -1
        return d["active"][int(d["st"][state.seat(ACTIVE)])]

    def inner_seat(self, p) -> int:
        """The active position to act (``engine.state``'s seat), or -1 for a forced-out
        player's botta claim."""
        d = p.data
        if d["stage"] == "join":
            return -1
        if self.phase(p) == "expose":
            k = len(d["shown"])
            return d["ask"][k] if k < len(d["ask"]) else -1
        return FishingGame.to_act(self, p)

    def legal(self, p) -> list:
        if p.data["stage"] == "join":
            return [Action("join", yes=True), Action("join", yes=False)]
        return FishingGame.legal(self, p)

    def _expose(self, d):
        """Each asked active position's claim by ``round.claim_teyaku``, in turn order; then a
        forced-out player's botta, as ``round.play_round`` claims it."""
        res = d["res"].copy()
        botta = 0
        shown = d["shown"]
        for j, yes in zip(d["ask"], shown):
            if yes:
                botta += int(TR.claim_teyaku(res, np.int64(j), np.int64(d["active"][j]),
                                             np.int64(d["tey"][j]), self.tb))
        for s, yes in zip(d["ask_out"], shown[len(d["ask"]):]):
            if yes:
                res[SL.R_CLAIM + s] = 1
                botta += 1
        d["botta"] = botta
        return d["st"], res

    def apply(self, p, a: Action):
        d = dict(p.data)
        if a.kind == "join":
            d["said"] = d["said"] + ((self._join(d)[1], a.yes),)
            return Position(self, d if self._join(d)[1] is not None else self._after_join(d))
        if a.kind == "expose":
            d["shown"] = d["shown"] + (a.yes,)
            if len(d["shown"]) == len(d["ask"]) + len(d["ask_out"]):
                d["st"], d["res"] = self._expose(d)
            return Position(self, d)
        return FishingGame.apply(self, p, a)

    def result(self, p) -> list:
        """Each table seat's round score in points ("End of Round and Scoring")."""
        d = p.data
        res = d["res"].copy()
        n = self.table
        if d["botta"]:
            TS.settle_botta(res, np.int64(n), self.tb)
        else:
            TS.settle_play(d["st"], res, np.int64(n), self.tb)
        unit = int(self.tb.params[TL.P_UNIT])
        out = []
        for s in range(n):
            v = int(res[SL.R_SCORE + s])
            out.append(v // unit if v % unit == 0 else v / unit)
        return out

    # ---------------------------------------------------------------- views (table seats)
    def hands(self, p):
        d = p.data
        if d["stage"] == "join":
            return [mask(h) for h in d["hands"]]
        out = [ZERO] * self.table
        for j, s in enumerate(d["active"]):
            out[s] = d["st"][j]
        return out

    def field(self, p):
        d = p.data
        return d["field"] if d["stage"] == "join" else d["st"][ACTIVE]

    def piles(self, p):
        d = p.data
        out = [ZERO] * self.table
        if d["stage"] != "join":
            for j, s in enumerate(d["active"]):
                out[s] = d["st"][state.pile(ACTIVE, j)]
        return out

    def pile_left(self, p):
        d = p.data
        return list(d["stock"]) if d["stage"] == "join" else FishingGame.pile_left(self, p)

    def teyaku_value(self, hand) -> int:
        """The value of the best teyaku ``hand`` holds (what claiming it scores)."""
        p = self.tb.params
        t = TT.best_teyaku(TT.teyaku_formed(np.uint64(hand), np.uint64(p[TL.P_RED]),
                                            np.uint64(p[TL.P_BAKE]), p[TL.P_READING],
                                            p[TL.P_OVERLAP_NO]), self.tb.values)
        return int(self.tb.values[t])

    def turn(self, p) -> int:
        return 0 if p.data["stage"] == "join" else int(p.data["st"][state.top(self.n)]) + 1


__all__ = ["TaoshiGame", "bits"]
