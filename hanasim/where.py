"""``--where CONDITION``: deals conditioned on what a seat or the field holds, by rejection.

A condition is ``SEAT.WHAT OP N`` (``dealer.brights>=2``, ``field.brights>=1``,
``opponent.pine==0``), or a teyaku the game checks at the deal, ``SEAT.NAME`` (``dealer.
triplet``: the hand holds it); several ``--where`` must all hold.  WHAT is a number of cards:

* a kind: ``brights``, ``animals``, ``ribbons``, ``chaff`` (hanafuda and Taipa);
  ``poetry``, ``blue``, ``plain`` (ribbons of that colour);
* a month or suit by name or number (``pine``, ``month11``; Taipa ``suit3``); mekurifuda:
  a suit (``clubs``), ``reds``, ``junk``, ``bakefuda``, a number (``number6``);
* ``cards(11b,8b,3b)``: how many of the named cards (``hanasim.notation``);
* ``singles``, ``pairs``, ``triplets``, ``fours``: months of which the seat holds exactly 1,
  2, 3, 4 cards.

A teyaku is named where the game's teyaku are counts of the dealt hand: Toppa's, Baka's and
Ishikari Toppa's under ``teyaku=toppa`` (their exact odds' ``TeyakuSpec``), and a game's
:class:`CountTeyaku` (``hanasim.given_layouts.WHERE_TEYAKU``: Kushiro Toppa's, koi-koi's lucky
hands), each a conjunction of clauses written in this very language; and where counts cannot
say it, a :class:`KernelTeyaku`, read by the game's own teyaku kernel (Taoshi's, a hand's best
teyaku with the bakefuda wild; Ishikari Toppa's Hachi-hachi list, the best of each group).  A
teyaku a game cannot name (one worth nothing under the rules, the field's) is refused in one
line saying why.

OP is one of ``>= <= == != > <`` (``=`` is ``==``).  A deal that fails the condition is dealt
again (misdeals are still redealt and counted as before), so the rounds played are uniform
among the deals that meet it.  Before the run, a pilot of deals (numba, a second or less)
measures the acceptance rate; the table's notes give it and the deals the run will draw, and
a condition met too rarely to finish is refused in one line with its rate.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from . import decks, notation as _notation
from .engine import where as W
from .given import GivenError, Layout, seat_list, seat_phrase

OPS = {">=": W.OP_GE, "<=": W.OP_LE, "==": W.OP_EQ, "=": W.OP_EQ, "!=": W.OP_NE,
       ">": W.OP_GT, "<": W.OP_LT}
OP_TEXT = {W.OP_GE: "at least", W.OP_LE: "at most", W.OP_EQ: "exactly", W.OP_NE: "not",
           W.OP_GT: "more than", W.OP_LT: "fewer than"}
#: pilot deals measuring the acceptance rate; fewer accepted than MIN_ACCEPTED is refused
PILOT_DEALS = 200_000
MIN_ACCEPTED = 20
_CLAUSE = re.compile(r"\s*([a-z_0-9]+)\.([a-z_0-9]+(?:\([^)]*\))?)\s*(?:(>=|<=|==|!=|=|>|<)\s*"
                     r"(\d+))?\s*")


@dataclass(frozen=True)
class CountTeyaku:
    """A teyaku decided by counts of the dealt hand: ``clauses``, ``(WHAT, OP, N)`` as a
    ``--where`` clause writes them (``("ribbons", "==", 1), ("chaff", "==", 9)``), all
    holding; ``refused``: why it cannot be named as a condition (then no clauses)."""

    name: str
    clauses: tuple = ()
    refused: str = ""


@dataclass(frozen=True)
class KernelTeyaku:
    """A teyaku the game's own kernel reads in a dealt hand: a ``W_TEYAKU`` clause on bit
    ``bit`` of the teyaku bits its kernel finds (``engine.where``), checked in the game's deal;
    ``held(hands: uint64[N]) -> int64[N]`` the same bits for the pilot (the same kernel
    functions, batched); ``refused``: why it cannot be named as a condition."""

    name: str
    bit: int = 0
    held: object = None
    refused: str = ""


@dataclass(frozen=True)
class Where:
    """Parsed ``--where`` texts (checked against a game's deck; seats against layouts)."""

    game: str
    texts: tuple

    def __bool__(self):
        return bool(self.texts)

    def text(self) -> str:
        return " and ".join(self.texts)


def parse(game, value) -> Where | None:
    """``value``: a text or a list of texts; None or empty: no condition."""
    from .games import get_game

    g = get_game(game) if isinstance(game, str) else game
    if value is None:
        return None
    if isinstance(value, Where):
        return value
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise GivenError(f"where must be a condition text such as 'dealer.brights>=2' (or a "
                         f"list of them), got {value!r}")
    texts = tuple(" ".join(v.split()) for v in value if v.strip())
    for t in texts:
        for part in _split(t):
            if not _CLAUSE.fullmatch(part.lower()):
                raise GivenError(f"--where {t!r}: write 'SEAT.WHAT OP N' in quotes (e.g. "
                                 "--where 'dealer.brights>=2') or SEAT.TEYAKU (e.g. "
                                 "dealer.triplet)")
    return Where(g.name, texts) if texts else None


def _split(text):
    return [p for p in re.split(r"\s+and\s+|\s*&&?\s*", text.strip(), flags=re.I) if p]


def _quantity(what: str, deck, teyaku) -> tuple:
    """(clauses without group and op: [(type, arg, op, value)] or a (type, arg) for an
    op to fill, words)."""
    n = _notation.notation_of(deck)
    mask = lambda sel: int(deck.mask(np.flatnonzero(sel)))  # noqa: E731
    m = re.fullmatch(r"cards\((.*)\)", what)
    if m:
        try:
            cards = n.parse_list([c for c in m.group(1).split(",") if c.strip()])
        except _notation.CardError as e:
            raise GivenError(f"--where cards(...): {e}") from None
        return (W.W_COUNT, sum(1 << c for c in cards)), "of " + ", ".join(n.codes[c] for c in cards)
    multi = {"singles": 1, "pairs": 2, "triplets": 3, "fours": 4}
    family = n.family
    if what in multi:
        group = {"hanafuda": "month", "taipa": "suit", "mekurifuda": "number"}[family]
        k = multi[what]
        return (W.W_MONTHS, k), f"{group}s with exactly {k} card" + ("s" if k > 1 else "")
    if family != "mekurifuda":
        kinds = {"brights": decks.BRIGHT, "bright": decks.BRIGHT, "animals": decks.ANIMAL,
                 "animal": decks.ANIMAL, "ribbons": decks.RIBBON, "ribbon": decks.RIBBON,
                 "chaff": decks.CHAFF}
        if what in kinds:
            k = kinds[what]
            return (W.W_COUNT, mask(deck.kind == k)), decks.KIND_NAMES[k] + (
                "" if k == decks.CHAFF else "s")
        flags = {"poetry": decks.POETRY, "blue": decks.BLUE, "plain": decks.PLAIN}
        f = flags.get(what.replace("_ribbons", ""))
        if f is not None:
            return (W.W_COUNT, mask(deck.flags & f)), f"{what.replace('_ribbons', '')} ribbons"
    else:
        flags = {"coins": decks.COINS, "cups": decks.CUPS, "swords": decks.SWORDS,
                 "clubs": decks.CLUBS, "reds": decks.RED, "red": decks.RED, "junk": decks.JUNK,
                 "bakefuda": decks.BAKEFUDA}
        if what in flags:
            return (W.W_COUNT, mask(deck.flags & flags[what])), what
    m = re.fullmatch(r"(?:month|suit|number)?_?(\d+)|([a-z_]+)", what)
    if m:
        if m.group(1):
            grp = int(m.group(1))
        else:
            grp = None if family == "mekurifuda" else _notation._month_number(m.group(2), deck)
        if grp is not None and 1 <= grp <= deck.n_months:
            word = {"hanafuda": "month", "taipa": "suit", "mekurifuda": "number"}[family]
            return (W.W_COUNT, mask(deck.month == grp)), f"cards of {word} {grp}"
    if teyaku is not None and what in {t.name for t in teyaku}:
        return "teyaku", what
    kinds_text = ("coins, cups, swords, clubs, reds, junk, bakefuda, number6" if family ==
                  "mekurifuda" else "brights, animals, ribbons, chaff, poetry, blue, plain, pine, "
                  "month11")
    # a teyaku the game refuses as a condition (Taoshi's) is not offered
    named = [t.name for t in teyaku or () if not getattr(t, "refused", "")]
    tey = ((", or a teyaku: " + ", ".join(named)) if named else
           "; no teyaku is named here: write a hand as counts, e.g. dealer.pairs>=3")
    example = {"mekurifuda": "cards(1cl,12cl)", "taipa": "cards(1b1,2b1)"}.get(family,
                                                                               "cards(11b,8b)")
    raise GivenError(f"--where: no quantity {what!r} (counts: {kinds_text}, {example}, "
                     f"singles, pairs, triplets, fours{tey})")


def _teyaku_clauses(spec, deck) -> list:
    if isinstance(spec, KernelTeyaku):
        if spec.refused:
            raise GivenError(f"--where: the teyaku {spec.name} cannot be a condition: "
                             f"{spec.refused}")
        return [(W.W_TEYAKU, spec.bit, W.OP_EQ, 1)]
    if isinstance(spec, CountTeyaku):
        if spec.refused:
            raise GivenError(f"--where: the teyaku {spec.name} cannot be a condition: "
                             f"{spec.refused}")
        out = []
        for what, op, value in spec.clauses:
            q, _ = _quantity(what, deck, None)
            out.append((q[0], q[1], OPS[op], int(value)))
        return out
    if spec.kind == "month_count":
        return [(W.W_MONTHS, spec.count, W.OP_GE, spec.min_months)]
    out = []
    for k, v in enumerate(spec.kinds):
        out.append((W.W_COUNT, int(deck.kind_mask(k)), W.OP_EQ, int(v)))
    return out


def clauses(where: Where, layout: Layout, teyaku=None) -> tuple:
    """([(type, group, arg, op, value)], [words]) for ``layout``; GivenError on a seat the
    game (or its players) does not have or an unknown quantity."""
    if layout.where_refused:
        raise GivenError(f"--where: {layout.where_refused}")
    deck = _notation.for_game(where.game).deck
    out, words = [], []
    for text in where.texts:
        for part in _split(text):
            m = _CLAUSE.fullmatch(part.lower())
            seat, what, op, value = m.groups()
            g = layout.seats.get(seat)
            if g is None:
                raise GivenError(f"--where {part}: {where.game} has no seat {seat!r} (its seats: "
                                 f"{seat_list(layout)})")
            q, said = _quantity(what, deck, teyaku)
            who = seat_phrase(layout, g, where.game)
            if q == "teyaku":
                if op is not None:
                    raise GivenError(f"--where {part}: a teyaku is held or not: write "
                                     f"{seat}.{what}")
                spec = next(t for t in teyaku if t.name == said)
                if isinstance(spec, KernelTeyaku) and layout.names.get(g) == "field":
                    raise GivenError(f"--where {part}: the field holds no teyaku (a teyaku is "
                                     "a hand's); name a seat, e.g. dealer." + said)
                out += [(t, g, a, o, v) for t, a, o, v in _teyaku_clauses(spec, deck)]
                words.append(f"{who} holds the teyaku {said.replace('_', ' ')}")
                continue
            if op is None:
                raise GivenError(f"--where {part}: say how many, e.g. --where "
                                 f"'{seat}.{what}>=1' (in quotes: the shell reads > and < as "
                                 "redirections)")
            out.append((q[0], g, q[1], OPS[op], int(value)))
            if int(value) == 1 and said in ("brights", "animals", "ribbons"):
                said = said[:-1]
            for group in ("months ", "suits ", "numbers "):
                if int(value) == 1 and said.startswith(group):
                    said = group[:-2] + said[len(group) - 1:]
            words.append(f"{who} holds {OP_TEXT[OPS[op]]} {value} {said}")
    return out, words


def array_part(cl, layout: Layout, stride: int) -> list:
    pattern = [int(p) for p in np.asarray(layout.pattern)]
    if max(pattern) >= W.MAX_GROUPS:
        raise GivenError("--where: the game deals more groups than a condition can name")
    flat = [len(pattern), stride, len(cl)] + pattern
    for c in cl:
        flat += [int(x) for x in c]
    return flat


def stride_of(deck) -> int:
    return deck.n // deck.n_months

