"""Positions of Ishikari Toppa: the table's join or drop, then a three-player round of the
Toppa family (``fishing``), every step the game's own kernel code (``games.ishikari.round``):

* join or drop: ``round.join_phase``, run with each asked seat's answer as its policy (join
  always, or a threshold no hand reaches); a seat the rules force in or out (or seat at a
  table of three) is not asked; after three have joined, a later seat's "join" is a chase;
* the three active hands and the field (``round.active_round``'s order); the draw pile is the
  record's (the inactive hands and the undealt cards, shuffled at the table: the pile must hold
  exactly those cards);
* teyaku: the Hachi-hachi list claimed by ``round.claim_hachihachi``, or Toppa's list exposed
  by ``engine.teyaku.expose_step``, each active player's choice as its policy;
* the play and its result as every game of the family (``fishing``), the result by the game's
  ``round_value`` for each active player times the round's chase multiplier; a seat out of
  the round scores 0.

Not reached: a Hachi-hachi Four of a Kind in an active hand (another player picks the card
swapped for the pile's top: ``round.swap_fours``); a position is refused in one line there.
"""
from __future__ import annotations

from importlib import import_module

import numpy as np

from ..engine import state
from ..engine.bits import has_full_nibble
from ..engine.join import JOIN_ALWAYS, JOIN_THRESHOLD, PC_JOIN, PC_JPARAM, PC_N
from ..policies import EXPOSE_ALWAYS, EXPOSE_NEVER, GREEDY
from .core import Action, Position, PositionError, bits, mask
from .fishing import FishingGame
from .koikoi_game import _check_partition

R = import_module("hanasim.games.ishikari.round")
NEVER = 10 ** 9  # a join threshold no hand reaches: the seat drops


class IshikariGame(FishingGame):
    R = R  # the kernel module (its slots and params), for the replay's multiplier

    def __init__(self, name, rules, code):
        from ..games import ishikari

        tb = ishikari.lower(rules)
        super().__init__(name, R, rules, code, tb=tb, n=R.ACTIVE,
                         misdeal=lambda groups: False)
        self.table = int(tb.params[R.P_PLAYERS])
        self.n_dealt = 7 * R.ACTIVE + 6  # the active round's dealt cards (its hands, field)
        self.hand_size = 7
        self.hachihachi = bool(tb.params[R.P_HACHIHACHI])

    # ---------------------------------------------------------------- building
    def from_cards(self, hands, field, pile, captured=None, multiplier=1):
        """A position at the deal: every table seat's hand (the dealer's first), the field,
        and the active round's draw pile top first (the inactive hands and the undealt cards
        as the table shuffled them); ``multiplier``: the chase multiplier of the round."""
        n = self.table
        if captured:
            raise PositionError("Ishikari Toppa positions start at the deal (give the actions "
                                "since to reach a later moment)")
        if len(hands) != n:
            raise PositionError(f"{self.name} with {n} players: give {n} hands, the dealer's "
                                f"first")
        if any(len(h) != 7 for h in hands) or len(field) != 6:
            raise PositionError("each hand holds 7 cards and the field 6 at the deal")
        undealt = [c for c in range(48) if c not in set(field).union(*map(set, hands))]
        _check_partition(self.code, hands, field, undealt, [[]] * n)
        if len(pile) != 48 - self.n_dealt or len(set(pile)) != len(pile):
            raise PositionError(f"the draw pile holds {48 - self.n_dealt} distinct cards (the "
                                f"inactive hands and the undealt cards), not {len(pile)}")
        if has_full_nibble(mask(field)):
            raise PositionError("four cards of one month on the field: a misdeal, redealt "
                                "before play")
        if not isinstance(multiplier, int) or multiplier < 1:
            raise PositionError("the chase multiplier is a whole number from 1")
        groups = np.array([mask(h) for h in hands] + [mask(field)], dtype=np.uint64)
        d = dict(stage="join", groups=groups, pile=[int(c) for c in pile], said=(),
                 mult=int(multiplier))
        return Position(self, self._after_join(d) if self._asked(d) is None else d)

    def _join(self, d, extra=()):
        """``round.join_phase`` with the answers so far (and ``extra``); unasked seats join."""
        n = self.table
        said = dict(d["said"] + tuple(extra))
        pol = np.zeros((n, PC_N), dtype=np.int64)
        for s in range(n):
            yes = said.get(s, True)
            pol[s, PC_JOIN] = JOIN_ALWAYS if yes else JOIN_THRESHOLD
            pol[s, PC_JPARAM] = 0 if yes else NEVER
        res = np.zeros(R.R_N, dtype=np.int64)
        chasers = R.join_phase(d["groups"], self.tb, pol, 0, np.zeros(1, np.uint64), res)
        return res, int(chasers), pol

    def _asked(self, d):
        """The next seat the rules ask to join or drop, or None."""
        said = dict(d["said"])
        for s in range(self.table):
            if s in said:
                continue
            res, _, _ = self._join(d)
            if res[R.R_CHOICE + s] in (R.CH_JOIN, R.CH_CHASE):
                return s
        return None

    def _after_join(self, d):
        """The active round: its hands, field and pile, and the teyaku to claim."""
        res, chasers, pol = self._join(d)
        active = [int(res[R.R_ACT_SEAT + k]) for k in range(R.ACTIVE)]
        g3 = np.array([d["groups"][s] for s in active] + [d["groups"][self.table]],
                      dtype=np.uint64)
        used = int(np.bitwise_or.reduce(g3))
        if sorted(d["pile"]) != [c for c in range(48) if not used >> c & 1]:
            raise PositionError("the draw pile must hold exactly the inactive hands and the "
                                "undealt cards (" + " ".join(self.code(c) for c in range(48)
                                                             if not used >> c & 1) + ")")
        if self.hachihachi and any(has_full_nibble(g3[k]) for k in range(R.ACTIVE)):
            raise PositionError("a Four of a Kind in an active hand under the Hachi-hachi "
                                "list (another player picks the card swapped for the pile's "
                                "top) is not reached by positions yet")
        order = np.array(bits(used) + d["pile"], dtype=np.int8)
        st = np.zeros(state.size(R.ACTIVE), dtype=np.uint64)
        state.start(st, g3, R.ACTIVE, np.int64(self.n_dealt))
        res[R.R_CHASERS] = chasers
        res[R.R_MULT] = d["mult"]
        ask = tuple(k for k in range(R.ACTIVE) if R.hand_teyaku(st[k], self.tb)[1] != 0)
        return dict(stage="play", groups=d["groups"], said=d["said"], st=st, order=order,
                    res=res, ask=ask, shown=(), pending=None, active=tuple(active),
                    mult=d["mult"])

    def join_words(self, p) -> str:
        """What the seat asked at the join says: after three have joined, whether it chases."""
        d = p.data
        s = self._asked(d)
        res, _, _ = self._join(d)
        if s is not None and res[R.R_CHOICE + s] == R.CH_CHASE:
            return ("say whether it chases, three having joined: {\"join\": true} (a chase "
                    "raises the next round's chase multiplier) or false")
        return "say whether it joins: {\"join\": true} or false"

    # ---------------------------------------------------------------- the round
    def phase(self, p):
        return "join" if p.data["stage"] == "join" else super().phase(p)

    def to_act(self, p):
        """The table seat to act (active players by their table seat)."""
        if p.data["stage"] == "join":
            return self._asked(p.data)
        s = super().to_act(p)
        return -1 if s < 0 else p.data["active"][s]

    def legal(self, p):
        if p.data["stage"] == "join":
            return [Action("join", yes=True), Action("join", yes=False)]
        return super().legal(p)

    def apply(self, p, a):
        d = dict(p.data)
        if a.kind == "join":
            d["said"] = d["said"] + ((self._asked(d), a.yes),)
            return Position(self, self._after_join(d) if self._asked(d) is None else d)
        return super().apply(p, a)

    def _expose(self, d):
        """The claims: Hachi-hachi's (``round.claim_hachihachi``) or Toppa's list
        (``engine.teyaku.expose_step``), each active player's choice as its policy."""
        st, res = d["st"].copy(), d["res"].copy()
        exp3 = np.full(R.ACTIVE, EXPOSE_NEVER, dtype=np.int64)
        for k, yes in zip(d["ask"], d["shown"]):
            exp3[k] = EXPOSE_ALWAYS if yes else EXPOSE_NEVER
        rng = np.zeros(1, dtype=np.uint64)
        tb = self.tb
        if self.hachihachi:
            R.claim_hachihachi(st, tb, exp3, rng, res)
        else:
            R.expose_step(st, R.ACTIVE, 0, d["order"], rng, tb.teyaku, tb.month_masks,
                          tb.kind_masks, tb.params[R.P_COMBINE],
                          np.full(R.ACTIVE, GREEDY, dtype=np.int64), exp3, res, R.R_TEY_HELD,
                          R.R_TEY_SCORED, tb.gscore, tb.ghigh, None)
        return st, res

    def chasers(self, p) -> int:
        """The round's chasers (``round.join_phase``): a chase multiplies the next round's
        payments (the session's rule, ``session.play_round``)."""
        return int(p.data["res"][R.R_CHASERS]) if p.data["stage"] != "join" else 0

    def inner_seat(self, p):
        """The active position to act (``engine.state``'s seat), or -1 at the join (a table
        seat's decision: ``advice._ishikari_join``)."""
        if p.data["stage"] == "join":
            return -1
        return FishingGame.to_act(self, p)

    def join_res(self, p):
        """The round's result slots as ``round.join_table`` has them when the seat to act
        speaks: the earlier seats' R_CHOICE (what the lookahead join reads)."""
        d = p.data
        res, _, _ = self._join(d)
        s = self._asked(d)
        out = np.zeros(R.R_N, dtype=np.int64)
        out[R.R_CHOICE:R.R_CHOICE + s] = res[R.R_CHOICE:R.R_CHOICE + s]
        return out

    def teyaku_value(self, hand):
        return int(R.hand_teyaku(hand, self.tb)[0])

    def result(self, p):
        per_active = super().result(p)
        out = [0] * self.table
        for k, s in enumerate(p.data["active"]):
            out[s] = per_active[k] * p.data["mult"]
        return out

    # views by table seat
    def hands(self, p):
        if p.data["stage"] == "join":
            return list(p.data["groups"][:self.table])
        out = [np.uint64(0)] * self.table
        for k, s in enumerate(p.data["active"]):
            out[s] = p.data["st"][k]
        return out

    def field(self, p):
        d = p.data
        return d["groups"][self.table] if d["stage"] == "join" else d["st"][R.ACTIVE]

    def piles(self, p):
        out = [np.uint64(0)] * self.table
        if p.data["stage"] != "join":
            for k, s in enumerate(p.data["active"]):
                out[s] = p.data["st"][state.pile(R.ACTIVE, k)]
        return out

    def pile_left(self, p):
        return list(p.data["pile"]) if p.data["stage"] == "join" else super().pile_left(p)

    def turn(self, p):
        return 0 if p.data["stage"] == "join" else super().turn(p)
