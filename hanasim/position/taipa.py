"""Positions of a Taipa round (``games/taipa``), its result in coins.

Every step is Taipa's own kernel code, called from Python on the round's state array
(``round.ST_N`` slots):

* a card taking a field card: ``engine.match.capture_one``, the kernels' capture step (the
  match group's cards on the field are the choices: the Taipa rule page, "the player may
  choose which one they capture"), for the hand card and then the turned card, as the
  kernels' ``engine.match.group_turn`` runs them;
* the turn written into the state and whether a decision is due: ``round.end_turn`` (the
  round's loop calls it after every turn); which decisions are open: ``round.call_legal``
  (``last_turn``); koi-koi or agari: ``round.call_or_stop``;
* the result: ``round.settle`` (the round's loop's own settlement), then the coins the agari
  takes: ``coins.payment`` (``coin_cap``), from the coins each seat holds (``coins``, by
  default ``start_coins`` each);
* under ``yaku_cards=choice``, after the round, which of its ribbons and chaff each seat's
  yaku take out of play (``leave``; the ways: ``yaku_choice._removal_options``, greedy's:
  ``removals._take``), when the game goes on; ``next_deck`` is then the next round's deck.

The deck is whatever the places hold: a later round's deck, smaller after the cards that left
play (``yaku_cards``), is given by its cards; the rest of the 48 are out of play.  Seats are
the round's: seat 0 plays first.
"""
from __future__ import annotations

import numpy as np

from ..engine.bits import count
from ..engine.match import capture_one
from ..games.taipa import coins as C
from ..games.taipa import round as TR
from ..games.taipa.lower import (P_COINS, P_KEEP_EXH, P_ROUNDS, P_YAKU_MODE, YC_CHOICE,
                                  YC_GREEDY, lower)
from ..games.taipa.removals import _take, set_yaku_cards
from ..games.taipa.yaku_choice import MAX_KEEPS, _removal_options, _same_suits
from ..games.taipa.rules import DEALT, HAND
from ..games.taipa.yaku import yaku_points
from ..policies import LEGAL_STOP
from .core import Action, Position, PositionError, bits, card_places, koikoi, mask, play, turned

ZERO = np.uint64(0)


class TaipaGame:
    """The adapter of Taipa under one rule set."""

    def __init__(self, name, rules, code):
        self.name = name
        self.rules = rules
        self.tb = lower(rules)
        self.n = 2
        self.n_cards = 48
        self.code = code
        self.start_coins = int(self.tb.params[P_COINS])  # each player's coins at the start

    # ---------------------------------------------------------------- building
    def from_cards(self, hands, field, pile, captured=None, calls=None, coins=None,
                   round_number=1):
        """A position from explicit cards (card ids): ``hands`` by seat from the first player,
        the ``field``, the undrawn ``pile`` top first, ``captured`` piles by seat; ``calls``:
        each seat's koi-koi calls so far this round; ``coins``: each seat's coins (what a
        capped agari can take); ``round_number``: the round's place in the game (whether the
        game goes on after it: the cards that leave play are then chosen)."""
        if not isinstance(round_number, int) or isinstance(round_number, bool) \
                or not 1 <= round_number:
            raise PositionError(f"the round's place in the game is a whole number from 1, "
                                f"not {round_number!r}")
        n = self.n
        captured = captured if captured is not None else [[] for _ in range(n)]
        if len(hands) != n or len(captured) != n:
            raise PositionError(f"taipa has {n} seats: give {n} hands and {n} captured piles "
                                f"(the first player's first)")
        seen = card_places(self.code, hands, field, pile, captured)
        deck = len(seen)  # the round's deck: the cards out of play are in no place
        if deck < DEALT:
            raise PositionError(f"a round's deck holds at least {DEALT} cards (6 to each hand "
                                f"and 6 to the field); these places hold {deck}")
        sizes = [len(h) for h in hands]
        k = max(sizes)
        mover = 1 if sizes[0] == k - 1 else 0
        if k > HAND or sizes[1] != k or sizes[0] not in (k, k - 1):
            raise PositionError(f"hand sizes {sizes} cannot occur: each hand holds {HAND} at "
                                f"the deal, and the seats play one card each in turn, the "
                                f"first player first")
        turns = 2 * HAND - sum(sizes)
        want = deck - DEALT - min(turns, deck - DEALT)  # a turn draws while the pile lasts
        if len(pile) != want:
            raise PositionError(f"a draw pile of {len(pile)} cards cannot go with {sum(sizes)} "
                                f"cards in hand and a deck of {deck} (every turn draws one "
                                f"card while the pile lasts: {want} left)")
        calls = [0, 0] if calls is None else [int(x) for x in calls]
        if len(calls) != n or min(calls) < 0:
            raise PositionError("calls: each seat's koi-koi calls so far, two numbers")
        have = [self.start_coins] * n if coins is None else [int(x) for x in coins]
        if len(have) != n:
            raise PositionError("coins: each seat's coins, two numbers")
        rest = [c for c in seen if c not in set(pile)]
        order = np.zeros(48, dtype=np.int8)
        order[:deck] = np.array(rest + list(pile), dtype=np.int8)
        st = np.zeros(TR.ST_N, dtype=np.uint64)
        for s in range(n):
            st[s] = mask(hands[s])
            st[TR.S_PILE + s] = mask(captured[s])
            st[TR.S_CALLS + s] = calls[s]
            # the yaku held at the seat's last decision: every capture that raised the count
            # brought a decision (``round.new_yaku``), so it is the count held now
            st[TR.S_NY + s] = yaku_points(st[TR.S_PILE + s], self.tb)[1]
        st[TR.S_FIELD] = mask(field)
        st[TR.S_TOP] = deck - len(pile)
        st[TR.S_SEAT] = mover
        st[TR.S_TURNS] = turns
        d = dict(st=st, order=order, n=deck, pending=None, decision=False, over=0,
                 coins=tuple(have), round=round_number, left=())
        return Position(self, d)

    # ---------------------------------------------------------------- the round
    def phase(self, p) -> str:
        ph = self._play_phase(p)
        if ph == "over" and len(p.data["left"]) < len(self._leavers(p)):
            return "leave"
        return ph

    def _play_phase(self, p) -> str:
        d = p.data
        if d["over"]:
            return "over"
        if d["decision"]:
            return "koikoi"
        if d["pending"] is not None:
            return "turned"
        st = d["st"]
        return "play" if st[int(st[TR.S_SEAT])] != ZERO else "over"

    def to_act(self, p) -> int:
        ph = self.phase(p)
        if ph == "leave":
            return self._leavers(p)[len(p.data["left"])]
        return -1 if ph == "over" else int(p.data["st"][TR.S_SEAT])

    # ---------------------------------------------------------------- yaku_cards=choice
    def _leavers(self, p) -> tuple:
        """The seats that choose which of their ribbons and chaff leave play, in seat order
        (``yaku_cards=choice``: the Taipa rule page, "Ending the round", has both players put
        their yaku aside): as ``game.play_game`` removes cards (a round with a winner, or any
        under ``exhausted_removal=remove``) when the game goes on (rounds left, both players
        with coins: the lookahead decides only then, ``yaku_choice._look_removals``), each
        seat whose pile leaves play more than one way up to identical cards
        (``yaku_choice._removal_options``)."""
        prm = self.tb.params
        if prm[P_YAKU_MODE] != YC_CHOICE or self._play_phase(p) != "over":
            return ()
        res = self.settled(p)
        if res[TR.R_WINNER] < 0 and prm[P_KEEP_EXH] != 0:
            return ()
        if not self._goes_on(p):
            return ()
        return tuple(s for s in range(2) if len(self._ways(res, s)) > 1)

    def _goes_on(self, p) -> bool:
        """Whether the game goes on after this round (``game.play_game``): rounds left and
        both players with coins."""
        after = [c + v for c, v in zip(p.data["coins"], self.result(p))]
        return min(after) > 0 and p.data["round"] < self.tb.params[P_ROUNDS]

    def _ways(self, res, s) -> list:
        """Every way seat ``s``'s ribbons and chaff can leave play, up to identical cards."""
        tb = self.tb
        pile = np.uint64(res[TR.R_PILE + s])
        out = np.zeros(2 * MAX_KEEPS, dtype=np.uint64)
        nr = int(_removal_options(pile & tb.kinds[2], tb, out, 0))
        nc = int(_removal_options(pile & tb.kinds[3], tb, out, MAX_KEEPS))
        return [int(out[i]) | int(out[MAX_KEEPS + j]) for i in range(nr) for j in range(nc)]

    def _greedy_leave(self, p, res, s) -> int:
        """Greedy's choice (``removals._take``, ``YC_GREEDY``: it keeps the cards whose suits
        hold the most bright and animal points left in play; the other pile's bright and
        animal yaku gone too)."""
        tb = self.tb
        d = p.data
        p0, p1 = np.uint64(res[TR.R_PILE]), np.uint64(res[TR.R_PILE + 1])
        deck = mask(int(c) for c in d["order"][:d["n"]])
        sets = np.uint64(set_yaku_cards(p0, tb)) | np.uint64(set_yaku_cards(p1, tb))
        nxt = deck & ~sets & (tb.kinds[0] | tb.kinds[1])
        pile = p0 if s == 0 else p1
        tmp = np.zeros(64, dtype=np.int64)
        cap = np.zeros(48, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        g = ZERO
        for kd in (2, 3):
            k = 3 * (count(pile & tb.kinds[kd]) // 3)
            g |= np.uint64(_take(pile & tb.kinds[kd], np.int64(k), rng, np.int64(YC_GREEDY),
                                 cap, tmp, tb, nxt))
        return int(g)

    def _same(self, a, b) -> bool:
        return bool(_same_suits(np.uint64(a), np.uint64(b), self.tb))

    def same_as_legal(self, p, action, legal):
        """The legal action ``action`` stands for (the same ribbons and chaff of each suit
        leaving play from the seat's pile: identical cards), or None."""
        if action.kind != "leave" or self.phase(p) != "leave":
            return None
        res = self.settled(p)
        s = self.to_act(p)
        pile = int(res[TR.R_PILE + s])
        tb = self.tb
        m = int(mask(action.cards))
        if m & ~pile & int(tb.kinds[2] | tb.kinds[3]) or m & int(tb.kinds[0] | tb.kinds[1]):
            return None
        for a in legal:
            if self._same(m, mask(a.cards)) and \
                    all(bin(m & int(tb.kinds[k])).count("1") == len([c for c in a.cards
                                                                      if tb.kinds[k] >> c & 1])
                        for k in (2, 3)):
                return a
        return None

    def leave_words(self, p) -> str:
        res = self.settled(p)
        s = self.to_act(p)
        tb = self.tb
        pile = np.uint64(res[TR.R_PILE + s])
        code = self.code
        parts = []
        for kd, word in ((2, "ribbons"), (3, "chaff")):
            have = bits(pile & tb.kinds[kd])
            k = 3 * (len(have) // 3)
            if have:
                parts.append(f"{k} of its {word} ({' '.join(map(code, have))})")
        return "the yaku take " + " and ".join(parts) + " out of play"

    def _matches(self, card, field) -> list:
        tb = self.tb
        return bits(np.uint64(field) & tb.group_masks[tb.group_of[card]])

    def _capture(self, card, field, take):
        """``engine.match.capture_one`` taking ``take`` (None: the one match, or none)."""
        tb = self.tb
        gm = tb.group_masks[tb.group_of[card]]
        pick = 0 if take is None else self._matches(card, field).index(take)
        return capture_one(np.int64(card), np.uint64(field), gm, np.int64(pick))

    def _drawn(self, d):
        top = int(d["st"][TR.S_TOP])
        return int(d["order"][top]) if top < d["n"] else -1

    def legal(self, p) -> list:
        ph = self.phase(p)
        d = p.data
        st = d["st"]
        if ph == "leave":  # greedy's first, then every other way up to identical cards
            res = self.settled(p)
            s = self.to_act(p)
            g = self._greedy_leave(p, res, s)
            ways = [g] + [w for w in self._ways(res, s) if not self._same(w, g)]
            return [Action("leave", cards=tuple(bits(w))) for w in ways]
        if ph == "koikoi":
            return [koikoi(True), koikoi(False)]
        field = st[TR.S_FIELD]
        if ph == "turned":
            card, take = d["pending"]
            f, _ = self._capture(card, field, take)
            drawn = self._drawn(d)
            return [turned(drawn, t) for t in self._matches(drawn, f)]
        out = []
        for c in bits(st[int(st[TR.S_SEAT])]):
            m = self._matches(c, field)
            out += [play(c, t) for t in m] if len(m) > 1 else [play(c)]
        return out

    def apply(self, p, a: Action):
        d = dict(p.data)
        if a.kind == "leave":  # the cards as the record names them (identical cards differ)
            d["left"] = d["left"] + (int(mask(a.cards)),)
            return Position(self, d)
        st = d["st"].copy()
        d["st"] = st
        seat = int(st[TR.S_SEAT])
        if a.kind == "koikoi":
            d["decision"] = False
            d["over"] = int(TR.call_or_stop(st, np.int64(seat), a.yes))
            if not d["over"]:
                st[TR.S_SEAT] = seat ^ 1
            return Position(self, d)
        field = st[TR.S_FIELD]
        if a.kind == "play":
            f, _ = self._capture(a.card, field, a.take)
            drawn = self._drawn(d)
            if drawn >= 0 and len(self._matches(drawn, f)) > 1:
                d["pending"] = (a.card, a.take)
                return Position(self, d)
            card, take, take2 = a.card, a.take, None
        else:
            (card, take), take2 = d["pending"], a.take
            d["pending"] = None
        # the turn as the kernels' group_turn plays it: the hand card, then the turned card
        hand = st[seat] & ~np.uint64(1 << card)
        f, c1 = self._capture(card, field, take)
        drawn = self._drawn(d)
        top = int(st[TR.S_TOP])
        c2 = ZERO
        if drawn >= 0:
            f, c2 = self._capture(drawn, f, take2)
            top += 1
        cap_time = np.zeros(48, dtype=np.int64)
        due = TR.end_turn(st, np.int64(seat), np.uint64(hand), np.uint64(f), np.uint64(c1),
                          np.uint64(c2), np.int64(top), cap_time, self.tb)
        if due:
            if TR.call_legal(count(np.uint64(hand)), self.tb.params) == LEGAL_STOP:
                d["over"] = int(TR.call_or_stop(st, np.int64(seat), False))
            else:
                d["decision"] = True
            return Position(self, d)
        st[TR.S_SEAT] = seat ^ 1
        return Position(self, d)

    def settled(self, p):
        """The round's result slots (``round.settle``)."""
        res = np.zeros(TR.R_N, dtype=np.int64)
        TR.settle(p.data["st"], np.int64(p.data["n"]), self.tb, res, np.int64(p.data["over"]))
        return res

    def result(self, p) -> list:
        """Each seat's coins won (+) or paid (-) this round."""
        res = self.settled(p)
        w = int(res[TR.R_WINNER])
        out = [0, 0]
        if w >= 0:
            paid = int(C.payment(np.int64(res[TR.R_SCORE]), np.int64(p.data["coins"][w ^ 1]),
                                 self.tb.params))
            out[w] = paid
            out[w ^ 1] = -paid
        return out

    def next_deck(self, p) -> int:
        """The cards left in play for the next round (``game.play_game``): the round's deck
        less what its yaku take out (``removals.set_yaku_cards`` and the ribbons and chaff:
        the choices made, a seat without a choice its only way), or the whole deck after an
        exhausted round under ``exhausted_removal=keep``.  None when the game ends with the round,
        and under the other ``yaku_cards`` readings (the ribbons and chaff that leave are not
        in the record)."""
        d = p.data
        tb = self.tb
        if tb.params[P_YAKU_MODE] != YC_CHOICE or not self._goes_on(p):
            return None
        deck = int(mask(int(c) for c in d["order"][:d["n"]]))
        res = self.settled(p)
        if res[TR.R_WINNER] < 0 and tb.params[P_KEEP_EXH] != 0:
            return deck
        out = 0
        chose = dict(zip(self._leavers(p), d["left"]))
        for s in range(2):
            pile = np.uint64(res[TR.R_PILE + s])
            out |= int(set_yaku_cards(pile, tb))
            out |= chose[s] if s in chose else self._ways(res, s)[0]
        return deck & ~out

    # ---------------------------------------------------------------- views
    def hands(self, p):
        return [p.data["st"][s] for s in range(self.n)]

    def field(self, p):
        return p.data["st"][TR.S_FIELD]

    def piles(self, p):
        return [p.data["st"][TR.S_PILE + s] for s in range(self.n)]

    def pile_left(self, p):
        top = int(p.data["st"][TR.S_TOP])
        return [int(c) for c in p.data["order"][top:p.data["n"]]]

    def turn(self, p) -> int:
        return int(p.data["st"][TR.S_TURNS]) + 1

    def inner_seat(self, p) -> int:
        return self.to_act(p)
