"""Koi-koi's yaku: the deck's cards as masks, the yaku table of each ``yaku`` option (rows for
``engine.yaku.dekiyaku``), and the kernels that score a captured pile (the table's rows, the
chaff counted by ``double_chaff``, the viewing yaku, cards of the month).

The viewing yaku and cards of the month are not rows: they depend on the field, the calls and
the round (:func:`yaku_now`); they are the bits after the table's rows in a hits mask
(:data:`SPECIAL_YAKU`).
"""
import numpy as np

from ... import decks
from ...decks import HANAFUDA
from ...engine.bits import ONE, ZERO, count, lowest
from ...engine.jit import hot
from ...engine.yaku import (D_BASE, D_COND, D_COUNTED, D_EXTRA_FROM, D_MIN, D_PER_EXTRA,
                            D_REQUIRED, NEVER, DekiyakuTable, dekiyaku)
from .layout import (K_CHAFF1, K_CHAFF2, K_DOUBLE, K_FLOWER, K_MOONV, K_PAULOWNIA, K_SAKE,
                     K_WILLOW, P_CHAFF_GROW, P_CHAFF_ROW, P_MONTH_YAKU, P_SAKE_EITHER,
                     P_VIEW_CALLED, P_VIEW_PTS, P_VIEWING, VIEW_NEED_OTHER, VIEW_OFF,
                     VIEW_WEATHER)
from .rules import MONTH_POINTS, KoikoiRules

SPECIAL_YAKU = ("flower_viewing", "moon_viewing", "cards_of_the_month")

_D = HANAFUDA

BRIGHTS = int(_D.kind_mask(decks.BRIGHT))

RAIN = int(_D.flag_mask(decks.RAIN_MAN))

DRY = BRIGHTS & ~RAIN  # the 20-point cards other than November's

ANIMALS = int(_D.kind_mask(decks.ANIMAL))

RIBBONS = int(_D.kind_mask(decks.RIBBON))  # the 5-point cards: "All cards with tanzaku"

CHAFF = int(_D.kind_mask(decks.CHAFF))     # the 1-point "trash" cards, the lightning among them

SAKE = int(_D.flag_mask(decks.SAKE_CUP))

POETRY = int(_D.flag_mask(decks.POETRY))

BLUE = int(_D.flag_mask(decks.BLUE))

BDB = int(_D.flag_mask(decks.BOAR | decks.DEER | decks.BUTTERFLY))

CURTAIN = 1 << _D.card("cherry.curtain")

MOON = 1 << _D.card("susuki.moon")

WILLOW = int(_D.flag_mask(decks.WILLOW))

PAULOWNIA = int(_D.month_masks()[12])

LIGHTNING = 1 << _D.card("willow.lightning")

LIGHTNING_ID = _D.card("willow.lightning")

# "the Yellow Paulownia" (rule page): one of the three paulownia chaff, otherwise alike
YELLOW = 1 << _D.card("paulownia.chaff1")

AUGUST = int(_D.month_masks()[8])


def yaku_table(rules: KoikoiRules, sake_as: str = "default") -> DekiyakuTable:
    """The yaku of ``rules.yaku`` as table rows (viewing yaku and cards of the month are not
    rows: they depend on the field, the calls and the round, see :func:`yaku_now`).

    ``sake_as``: ``animal``, ``chaff`` or ``both`` (default: from ``rules.sake_cup``; the
    ``animal_or_chaff`` rule evaluates an ``animal`` and a ``chaff`` table and keeps the better).
    """
    if sake_as == "default":
        sake_as = {"animal_only": "animal", "animal_and_chaff": "both",
                   "animal_or_chaff": "animal"}[rules.sake_cup]
    animals = ANIMALS if sake_as in ("animal", "both") else ANIMALS & ~SAKE
    chaff = CHAFF | SAKE if sake_as in ("chaff", "both") else CHAFF
    t = DekiyakuTable()
    table = rules.yaku
    if table == "game_cabinet":
        # "three of the five 20-point cards, not including November's (worth eight points); the
        # three ... poetry slips (three points); the three ... blue tanzaku (three points); any
        # five 10-point cards (one point); any five five-point cards (one point); and any 10
        # trash cards (one point)" (seed).
        grow = 1 if rules.meld_growth in ("counts", "all") else 0
        t.add("three_brights", DRY, 3, 8, per_extra=1 if rules.meld_growth == "all" else 0)
        t.add("poetry_ribbons", POETRY, 3, 3)
        t.add("blue_ribbons", BLUE, 3, 3)
        t.add("animals", animals, 5, 1, per_extra=grow)
        t.add("ribbons", RIBBONS, 5, 1, per_extra=grow)
        _chaff_row(t, rules, chaff, grow)
        return t
    five, three = {"modern": (15, 6), "older": (15, 6), "nintendo": (10, 5),
                   "koikoi_japan": (10, 5)}[table]
    # Bright yaku: one per group, the most valuable (rule page, "Bright Yaku").
    t.add("five_brights", BRIGHTS, 5, five, group=0)
    t.add("four_brights", DRY, 4, 8, group=0)
    old = rules.omit_yaku == "flower_card_game"  # no three brights, no rainy four (page)
    bdb = 0 if rules.omit_yaku != "none" else 5   # the 1960s leaflet: no boar-deer-butterfly
    t.add("rainy_four_brights", DRY, 3, 0 if old else 7, required=RAIN, group=0)
    t.add("three_brights", DRY, 3, 0 if old else three, group=0)
    if table in ("modern", "nintendo"):
        # "worth 1 extra point for each additional Animal / Ribbon card"; groups exclusive.
        t.add("boar_deer_butterfly", BDB, 3, bdb, counted=animals, per_extra=1, group=1)
        t.add("animals", animals, 5, 1, per_extra=1, group=1)
        t.add("poetry_blue_ribbons", POETRY | BLUE, 6, 10, counted=RIBBONS, per_extra=1, group=2)
        t.add("poetry_ribbons", POETRY, 3, 5, counted=RIBBONS, per_extra=1, group=2)
        t.add("blue_ribbons", BLUE, 3, 5, counted=RIBBONS, per_extra=1, group=2)
        t.add("ribbons", RIBBONS, 5, 1, per_extra=1, group=2)
    else:
        # older: no extras on the named sets, which stack with the counts; koikoi_japan the
        # same, plus 10 for poetry and blue together ("all three score").
        t.add("boar_deer_butterfly", BDB, 3, bdb)
        t.add("animals", animals, 5, 1, per_extra=1)
        if table == "koikoi_japan":
            t.add("poetry_blue_ribbons", POETRY | BLUE, 6, 10)
        t.add("poetry_ribbons", POETRY, 3, 5)
        t.add("blue_ribbons", BLUE, 3, 5)
        t.add("ribbons", RIBBONS, 5, 1, per_extra=1)
    _chaff_row(t, rules, chaff, 1)
    return t


def _chaff_row(t, rules, chaff, grow):
    """Ten chaff, +``grow`` per extra.  Under ``double_chaff`` the row never scores in the
    table: the kernel counts the chaff itself (:func:`chaff_value`, two for a doubled card)."""
    if rules.double_chaff != "none":
        t.never("chaff")
    else:
        t.add("chaff", chaff, 10, 1, per_extra=grow)


def double_chaff_mask(rules) -> int:
    """The cards ``double_chaff`` counts twice (the sake cup only where it is chaff)."""
    m = 0
    for word, card in (("sake", SAKE), ("lightning", LIGHTNING), ("paulownia", YELLOW)):
        if word in rules.double_chaff.split("+"):
            m |= card
    return m


@hot(inline="always")
def yaku_now(pile, field, calls, month_mask, tb):
    """(points, rows held) of a captured pile now: the table's rows, then the viewing yaku and
    cards of the month as bits Y, Y+1, Y+2 (``calls``: the holder's koi-koi calls so far)."""
    p = tb.params
    v, h = dekiyaku(pile, tb.yaku_masks, tb.yaku_ints)
    crow = p[P_CHAFF_ROW]
    if crow >= 0:
        c = chaff_value(pile, tb.cards[K_CHAFF1], tb)
        v += c
        h |= np.int64(c > 0) << crow
    if p[P_SAKE_EITHER] != 0 and (pile & tb.cards[K_SAKE]) != ZERO:
        v2, h2 = sake_as_chaff(pile, tb)
        if v2 > v:  # the sake cup counts where it scores more (animal_or_chaff)
            v = v2
            h = h2
    n = tb.yaku_masks.shape[0]
    if p[P_MONTH_YAKU] != 0 and (pile & month_mask) == month_mask:
        v += MONTH_POINTS
        h |= np.int64(1) << (n + 2)
    # the viewing yaku as arithmetic on their two bools, not branches: fewer statements in
    # each of this function's inlined copies (compile time)
    view = p[P_VIEWING]
    if view != VIEW_OFF:
        cards = tb.cards
        fv = (pile & cards[K_FLOWER]) == cards[K_FLOWER]
        mv = (pile & cards[K_MOONV]) == cards[K_MOONV]
        if view == VIEW_WEATHER:
            fv = fv & ((field & cards[K_WILLOW]) == ZERO)
            mv = mv & ((field & cards[K_PAULOWNIA]) == ZERO)
        elif view == VIEW_NEED_OTHER:
            fv = fv & (v > 0)
            mv = mv & (v > 0)
        pts = p[P_VIEW_CALLED] if calls > 0 else p[P_VIEW_PTS]
        v += pts * (np.int64(fv) + np.int64(mv))
        h |= (np.int64(fv) << n) | (np.int64(mv) << (n + 1))
    return v, h


@hot
def sake_as_chaff(pile, tb):
    """(points, rows held) of ``pile`` with the sake cup counted as chaff (the second table,
    ``sake_cup=animal_or_chaff``).  A call, not inlined: it runs only under that rule and when
    the pile holds the sake cup, and inlined it was a second copy of the yaku rows at every
    site of :func:`yaku_now` (compile time)."""
    v, h = table_rows(pile, tb.yaku_masks2, tb.yaku_ints2)
    crow = tb.params[P_CHAFF_ROW]
    if crow >= 0:
        c = chaff_value(pile, tb.cards[K_CHAFF2], tb)
        v += c
        h |= (np.int64(1) << crow) if c > 0 else 0
    return v, h


@hot(inline="always")
def chaff_count(pile, chaff, tb):
    """Chaff cards held, a ``double_chaff`` card counting two."""
    return count(pile & chaff) + count(pile & chaff & tb.cards[K_DOUBLE])


@hot(inline="always")
def chaff_value(pile, chaff, tb):
    """The chaff yaku under ``double_chaff``: ten chaff, +P_CHAFF_GROW per extra."""
    n = chaff_count(pile, chaff, tb)
    return (1 + tb.params[P_CHAFF_GROW] * (n - 10)) * np.int64(n >= 10)


@hot
def yaku_value(pile, field, calls, month_mask, tb):
    """:func:`yaku_now` as a call (for the once-a-round scoring, not the turn loop)."""
    return yaku_now(pile, field, calls, month_mask, tb)


@hot
def table_rows(pile, masks, ints):
    """``engine.yaku.dekiyaku`` of a table, as a call: one compiled copy of the rows for the
    rare paths (the sake cup's second table, ``yaku_counting=best``); the turn's scoring
    (:func:`yaku_now`) inlines its own."""
    return dekiyaku(pile, masks, ints)


@hot(inline="always")
def _best_row(pile, masks, ints):
    _, h = table_rows(pile, masks, ints)
    best = 0
    m = np.uint64(h)
    while m != ZERO:
        i = lowest(m)
        m &= m - ONE
        v = ints[i, D_BASE] + ints[i, D_PER_EXTRA] * (count(pile & masks[i, D_COUNTED])
                                                       - ints[i, D_EXTRA_FROM])
        best = max(best, v)
    return best


@hot
def best_single(pile, field, calls, month_mask, tb):
    """The value of the single most valuable yaku held (yaku_counting=best)."""
    p = tb.params
    best = 0
    for k in range(2 if p[P_SAKE_EITHER] != 0 else 1):  # one site of the rows (compile time)
        best = max(best, _best_row(pile, tb.yaku_masks2 if k else tb.yaku_masks,
                                   tb.yaku_ints2 if k else tb.yaku_ints))
    if p[P_CHAFF_ROW] >= 0:
        best = max(best, max(chaff_value(pile, tb.cards[K_CHAFF1], tb),
                             chaff_value(pile, tb.cards[K_CHAFF2], tb)))
    _, h = yaku_value(pile, field, calls, month_mask, tb)
    n = tb.yaku_masks.shape[0]
    pts = p[P_VIEW_CALLED] if calls > 0 else p[P_VIEW_PTS]
    if (h >> n) & 3:
        best = max(best, pts)
    if (h >> (n + 2)) & 1:
        best = max(best, np.int64(MONTH_POINTS))
    return best


@hot
def cards_missing(pile, month_mask, tb):
    """The fewest cards ``pile`` still lacks for any yaku (0: it holds one): the part of a
    player's view the threshold policy reads about the opponent."""
    p = tb.params
    masks = tb.yaku_masks
    ints = tb.yaku_ints
    best = 99
    for i in range(masks.shape[0]):
        cond = masks[i, D_COND]
        if cond == NEVER:  # a yaku the rules do not play
            continue
        need = max(np.int64(0), ints[i, D_MIN] - count(pile & cond)) + count(
            masks[i, D_REQUIRED] & ~pile & ~cond)
        best = min(best, need)
    if p[P_VIEWING] != VIEW_OFF:
        best = min(best, min(count(tb.cards[K_FLOWER] & ~pile), count(tb.cards[K_MOONV] & ~pile)))
    if p[P_MONTH_YAKU] != 0:
        best = min(best, count(month_mask & ~pile))
    if p[P_CHAFF_ROW] >= 0:
        best = min(best, max(np.int64(0), 10 - chaff_count(pile, tb.cards[K_CHAFF1], tb)))
    return best
