"""Positions of koi-koi, every step the game's own kernel code called on its round state
(``games.koikoi``: ``KS_*`` slots):

* at the deal, as ``round.play_dealt`` orders it: the lucky hands (``deal.lucky_bits``) each
  holder declares or hides, settled by ``scoring.lucky_end``; then a field four
  (``deal.field_four``); the field multiplier (``scoring.field_multiplier``);
* a turn: ``play.play_out``, the kernels' turn loop, given the turn's choices as a forced turn
  (``policies.FORCED``, ``turn.give``: the hand card and its take, the turned card's take, a
  second hand card and its take under the turn structures that have one) and
  run for the seat to move alone (the other hand set aside for the call, so the loop stops
  after the turn); the choices offered are ``turn.playable`` (``must_match``) and
  ``turn.take_options`` (two-way matches, the wild Lightning); the stop-or-continue offered
  after a new yaku is the kernel's own: the turn is run once collecting and once calling
  (``policies.DEC_STOP`` / ``DEC_CONTINUE``), and a call the rules refuse comes back stopped;
* the result: ``scoring.settle_round``.

Every ``turn_structure`` is reached (standard; draw_then_two: the turned card into the hand
first, then two hand cards; unmatched_to_hand: a turned card that takes nothing goes to the
hand and a second hand card is played).  Not reached: ``after_hands=draw_pile`` (turns of the
draw pile alone): a position under it is refused in one line.
"""
from __future__ import annotations

import numpy as np

from ..engine.bits import count
from ..games import koikoi as K
from ..policies import DEC_CONTINUE, DEC_STOP, FORCED, GREEDY
from .core import Action, Position, PositionError, bits, card_places, mask, play, turned

ZERO = np.uint64(0)


def month_mask(round_number: int) -> np.uint64:
    """Round ``r`` (from 1) of a game is month ``(r - 1) mod 12 + 1`` (``session.play_round``)."""
    return np.uint64(0xF) << np.uint64(4 * ((round_number - 1) % 12))


class KoikoiGame:
    def __init__(self, name, rules, code):
        self.name = name
        self.rules = rules
        self.tb, _ = K.lower(rules)
        p = self.tb.params
        if p[K.P_AFTER_PILE] != 0:
            raise PositionError(f"positions of koi-koi do not reach after_hands="
                                f"{rules.after_hands} yet (the round ends with the hands)")
        self.n = 2
        self.n_dealt = self.tb.pattern.shape[0]
        self.hand_size = int(p[K.P_HAND])
        self.code = code

    # ---------------------------------------------------------------- building
    def from_cards(self, hands, field, pile, captured=None, round_number=1, calls=(0, 0),
                   last_yaku=None, field_multiplier=None, wild=None):
        """A position from explicit cards: ``hands`` (dealer first), ``field``, the undrawn
        ``pile`` top first, ``captured`` piles; ``round_number`` of the game (its month);
        later in a round: each seat's koi-koi ``calls``, ``last_yaku`` (the last seat to make
        or improve a yaku, for ``exhausted=last_yaku``), the round's ``field_multiplier`` and
        whether the Lightning is ``wild`` (at a fresh deal all are the deal's)."""
        tb, p = self.tb, self.tb.params
        captured = captured if captured is not None else [[], []]
        if len(hands) != 2 or len(captured) != 2:
            raise PositionError("koi-koi has 2 seats: give 2 hands and 2 captured piles "
                                "(dealer first)")
        _check_partition(self.code, hands, field, pile, captured)
        sizes = [len(h) for h in hands]
        if max(sizes) > self.hand_size or sizes[0] not in (sizes[1], sizes[1] - 1):
            raise PositionError(f"hand sizes {sizes} cannot occur: each hand holds "
                                f"{self.hand_size} at the deal, the dealer plays first")
        if len(pile) < sum(sizes):
            raise PositionError(f"a draw pile of {len(pile)} cards is too short for the "
                                f"{sum(sizes)} cards in hand (every turn draws one)")
        mover = 0 if sizes[0] == sizes[1] else 1
        groups = np.array([mask(hands[0]), mask(hands[1]), mask(field)], dtype=np.uint64)
        fresh = (sizes == [self.hand_size] * 2 and not any(captured)
                 and len(pile) == 48 - self.n_dealt)
        if fresh and K.is_misdeal(groups, p):
            raise PositionError("this deal is a misdeal under these rules (four of a month or "
                                "four pairs where the rules redeal)")
        rest = [c for c in range(48) if c not in set(pile)]
        order = np.array(rest + list(pile), dtype=np.int8)
        st = np.zeros(K.KS_N, dtype=np.uint64)
        res = np.zeros(K.R_N, dtype=np.int64)
        res[K.R_WINNER] = -1
        nb = count(groups[K.FIELD] & tb.cards[K.K_BRIGHTS])
        if fresh:
            w = p[K.P_WILD]
            wild = w == K.WILD_ON or (w == K.WILD_AUGUST
                                      and (groups[K.FIELD] & tb.cards[K.K_AUGUST]) != ZERO)
            fmult = K.field_multiplier(nb, p[K.P_FIELD_MULT])
            res[K.R_FIELD_BRIGHTS] = nb
        else:
            wild = bool(wild) if wild is not None else p[K.P_WILD] == K.WILD_ON
            fmult = 1 if field_multiplier is None else int(field_multiplier)
        mm = month_mask(int(round_number))
        K.start(st, groups, np.int64(48 - len(pile)), mm, np.int64(fmult))
        st[K.KS_WILD] = 1 if wild else 0
        st[6] = mover
        ask = []
        if fresh:
            for s in range(2):
                res[K.R_LUCKY + s] = K.lucky_bits(groups[s])
            if p[K.P_LUCKY] in (K.LUCKY_WIN, K.LUCKY_STACK):
                ask = [s for s in range(2) if res[K.R_LUCKY + s]]
        else:
            for s in range(2):
                st[3 + s] = mask(captured[s])
                st[K.KS_CALLS + s] = int(calls[s])
                v, h = K.yaku_now(st[3 + s], st[2], np.int64(calls[s]), mm, tb)
                st[K.KS_HITS + s] = np.uint64(h)
                st[K.KS_BEST + s] = v
            if last_yaku is not None:
                st[K.KS_LAST] = int(last_yaku) + 1
        d = dict(st=st, order=order, res=res, ask=tuple(ask), shown=(), pending=None,
                 options=None, ended=False)
        if not ask:
            d = self._after_deal(d)
        return Position(self, d)

    def _after_deal(self, d):
        """The lucky hands settled, then a field four, as ``round.play_dealt`` does."""
        d = dict(d)
        st, res = d["st"].copy(), d["res"].copy()
        decl = {s: yes for s, yes in zip(d["ask"], d["shown"])}
        d0, d1 = bool(decl.get(0, False)), bool(decl.get(1, False))
        played = K.lucky_end(d0, d1, res[K.R_LUCKY], res[K.R_LUCKY + 1], res, self.tb)
        if played:
            played = K.field_four(st, d["order"], res, self.tb)
        d["st"], d["res"], d["ended"] = st, res, not played
        return self._settle_if_exhausted(d)

    # ---------------------------------------------------------------- the round
    def phase(self, p) -> str:
        d = p.data
        if len(d["shown"]) < len(d["ask"]):
            return "expose"
        if d["ended"] or d["st"][K.KS_OVER] != ZERO:
            return "over"
        if d["options"] is not None:
            return "koikoi"
        pending = d["pending"]
        return "turned" if pending is not None and pending["step"] == "turned" else "play"

    def to_act(self, p) -> int:
        ph = self.phase(p)
        if ph == "expose":
            return p.data["ask"][len(p.data["shown"])]
        if ph == "koikoi":
            return p.data["options"][2]
        return -1 if ph == "over" else int(p.data["st"][6])

    def legal(self, p) -> list:
        ph = self.phase(p)
        if ph == "expose":
            return [Action("expose", yes=True), Action("expose", yes=False)]
        if ph == "koikoi":
            return [Action("koikoi", yes=True), Action("koikoi", yes=False)]
        st, tb = p.data["st"], self.tb
        field, wild = st[2], st[K.KS_WILD] != ZERO
        hand, field = self.hand_and_field(p.data)
        if ph == "turned":
            drawn = int(p.data["order"][int(st[5])])
            return [turned(drawn, t) for t in bits(K.take_options(drawn, field, wild, tb))]
        out = []
        for c in bits(K.playable(hand, field, wild, tb)):
            o = bits(K.take_options(c, field, wild, tb))
            out += [play(c, t) for t in o] if o else [play(c)]
        return out

    def hand_and_field(self, d):
        """The hand the player chooses from and the field, as the turn stands (the turn's
        structure: ``turn.turn_forced``'s steps): under draw_then_two the turned card is in
        the hand from the start; after the first card its put is made (``turn.put_as``); a
        second hand card (draw_then_two, or unmatched_to_hand when the turned card took
        nothing) is chosen from the hand with the turned card in it."""
        st, tb = d["st"], self.tb
        hand, field, wild = st[int(st[6])], st[2], st[K.KS_WILD] != ZERO
        drawn = np.uint64(1 << int(d["order"][int(st[5])]))
        two = tb.params[K.P_TURN] == K.TURN_DRAW_TWO
        if two:
            hand = hand | drawn
        pending = d["pending"]
        if pending is None:
            return hand, field
        hand = hand & ~np.uint64(1 << pending["card1"])
        field = np.uint64(K.put_as(pending["card1"], field, np.int64(pending["take1"]), wild,
                                   tb)[0])
        if pending["step"] == "play2" and not two:
            hand = hand | drawn  # unmatched_to_hand: the turned card took nothing
        return hand, field

    def apply(self, p, a: Action):
        d = dict(p.data)
        if a.kind == "expose":
            d["shown"] = d["shown"] + (a.yes,)
            if len(d["shown"]) == len(d["ask"]):
                d = self._after_deal(d)
            return Position(self, d)
        if a.kind == "koikoi":
            stop_st, call_st, _ = d["options"]
            d["st"] = call_st if a.yes else stop_st
            d["options"] = None
            return Position(self, self._settle_if_exhausted(d))
        st, tb = d["st"], self.tb
        wild = st[K.KS_WILD] != ZERO
        take = -1 if a.take is None else a.take
        pending = d["pending"]
        if a.kind == "turned":
            d["pending"] = dict(pending, dtake=take)
            return Position(self, self._turn(d))
        if pending is not None:  # the second hand card
            d["pending"] = dict(pending, card2=a.card, take2=take)
            return Position(self, self._turn(d))
        d["pending"] = dict(card1=a.card, take1=take, dtake=-1, card2=-1, take2=-1,
                            step="play2")
        _, f = self.hand_and_field(d)
        mode = tb.params[K.P_TURN]
        if mode == K.TURN_DRAW_TWO:
            return Position(self, d)  # a second hand card follows
        drawn = int(d["order"][int(st[5])])
        _, c = K.put_as(drawn, f, np.int64(-1), wild, tb)
        if c == 0 and mode == K.TURN_UNMATCHED:
            return Position(self, d)  # the turned card into the hand; a second hand card
        if K.take_options(drawn, f, wild, tb) != ZERO:
            d["pending"] = dict(d["pending"], step="turned")
            return Position(self, d)
        return Position(self, self._turn(d))

    def _turn(self, d):
        """The pending turn by ``play.play_out`` (see the module): collecting and calling."""
        pol = forced_turn(d["pending"])
        seat = int(d["st"][6])
        stop_st = self._run(d, seat, pol, DEC_STOP)
        d = dict(d, pending=None)
        if stop_st[K.KS_OVER] != seat + 1:  # no yaku made: no decision
            d["st"] = stop_st
            return self._settle_if_exhausted(d)
        call_st = self._run(d, seat, pol, DEC_CONTINUE)
        if call_st[K.KS_OVER] == seat + 1:  # the rules allow only collecting
            d["st"] = stop_st
            return d
        d["options"] = (stop_st, call_st, seat)
        return d

    def _run(self, d, seat, pol, decision):
        st = d["st"].copy()
        other = st[1 - seat]
        st[1 - seat] = ZERO  # the loop stops when the next seat has no cards
        policy = np.array([GREEDY, GREEDY], dtype=np.int64)
        policy[seat] = pol
        decide = np.zeros((2, 2), dtype=np.int64)
        decide[seat, 0] = decision  # DEC_CONTINUE with K=0: call whenever the rules allow
        rng = np.zeros(1, dtype=np.uint64)
        K.play_out(st, d["order"], rng, self.tb, policy, decide, np.int64(0))
        st[1 - seat] = other
        if st[K.KS_OVER] == K.OVER_EXHAUSTED:
            st[K.KS_OVER] = 0  # set only because the other hand was set aside
        return st

    def _settle_if_exhausted(self, d):
        """When the seat to move has no card, the kernel's loop ends the round."""
        st = d["st"]
        if d["ended"] or st[K.KS_OVER] != ZERO or d["options"] is not None:
            return d
        if st[int(st[6])] == ZERO:
            st = st.copy()
            policy = np.array([GREEDY, GREEDY], dtype=np.int64)
            decide = np.full((2, 2), DEC_STOP, dtype=np.int64)
            K.play_out(st, d["order"], np.zeros(1, dtype=np.uint64), self.tb, policy, decide,
                       np.int64(0))
            d = dict(d, st=st)
        return d

    def result(self, p) -> list:
        res = p.data["res"].copy()
        if not p.data["ended"]:
            K.settle_round(p.data["st"], self.tb, res)
        return [int(res[K.R_SCORE]), int(res[K.R_SCORE + 1])]

    # ---------------------------------------------------------------- views
    def hands(self, p):
        return [p.data["st"][0], p.data["st"][1]]

    def field(self, p):
        return p.data["st"][2]

    def piles(self, p):
        return [p.data["st"][3], p.data["st"][4]]

    def pile_left(self, p):
        return [int(c) for c in p.data["order"][int(p.data["st"][5]):]]

    def turn(self, p) -> int:
        return int(p.data["st"][K.KS_TURNS]) + 1

    def seen_from(self, p) -> int:
        """The first deck position the player has not seen (the turned card is seen once
        drawn: after the first card, or from the start under draw_then_two)."""
        top = int(p.data["st"][5])
        seen = (p.data["pending"] is not None
                or self.tb.params[K.P_TURN] == K.TURN_DRAW_TWO)
        return top + (1 if seen else 0)


def forced_turn(pending) -> int:
    """The forced turn id (``turn.give``) of a turn's choices (-1: none made)."""
    pol = np.int64(FORCED)
    for key, shift in (("card1", K.F_CARD1), ("take1", K.F_TAKE1), ("dtake", K.F_DTAKE),
                       ("card2", K.F_CARD2), ("take2", K.F_TAKE2)):
        if pending[key] >= 0:
            pol = np.int64(K.give(pol, shift, np.int64(pending[key])))
    return int(pol)


def _check_partition(code, hands, field, pile, captured, n_cards=48):
    card_places(code, hands, field, pile, captured, n_cards)
