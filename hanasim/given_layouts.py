"""Each game's deal as a :class:`hanasim.given.Layout`: which group every dealt deck position
goes to, the seat words of the game's tables, and which groups a misdeal checks.  Seats are
the round's, relative to its dealer (Taipa: the round's first and second player), as in the
game's tables; the numbers ``1``, ``2`` ... (or ``seat1`` ...) name the seats to the dealer's
right in turn order where the tables use other words.

The patterns are the games' own (their ``deal_pattern`` / ``DEAL_PATTERN`` / ``deal_sequence``),
so a given card goes to a deal position of its seat as the kernel deals it."""
from __future__ import annotations

from importlib import import_module

import numpy as np

from .given import Layout


def _mod(name):
    """A game's module by its dotted name (a package's ``lower`` function shadows its module
    of that name as an attribute)."""
    return import_module(f"hanasim.games.{name}")


def _seats(words, field_group=None, aliases=True):
    """{word: group} and {group: word} from the table words in seat order (group k = word k);
    each seat k >= 1 is also ``seatk`` and ``k``, the dealer ``0``."""
    seats, names = {}, {}
    for k, w in enumerate(words):
        seats[w] = k
        names[k] = w
        if aliases:
            seats.setdefault(f"seat{k}" if k else "dealer", k)
            seats.setdefault(str(k), k)
    if field_group is not None:
        seats["field"] = field_group
        names[field_group] = "field"
    return seats, names


def toppa(rules):
    t = _mod("toppa")

    seats, names = _seats(t.SEATS, t.FIELD)
    return Layout(pattern=np.asarray(t.DEAL_PATTERN), seats=seats, names=names,
                  four_checked=(0, 1, t.FIELD), players=2)


def baka(rules):
    b = _mod("baka")

    seats, names = _seats(b.SEATS, b.FIELD)
    return Layout(pattern=np.asarray(b.DEAL_PATTERN), seats=seats, names=names,
                  four_checked=(0, 1, 2, b.FIELD), players=3)


def koikoi(rules):
    kl = _mod("koikoi.lower")

    flags = kl.misdeal_flags(rules)
    pattern = kl.deal_pattern(rules.hand_size)
    field = int(max(pattern))
    seats, names = _seats(("dealer", "opponent"), field)
    checked = ((0, 1) if flags["hand_four_misdeal"] else ()) + (
        (field,) if flags["field_four_misdeal"] else ())

    def pairs(groups):
        # four pairs (every month even) in a full hand or field is a misdeal under the rules
        for g, mask in groups.items():
            size = int((pattern == g).sum())
            want = flags["field_pairs_misdeal"] if g == field else flags["hand_pairs_misdeal"]
            if want and bin(mask).count("1") == size and all(
                    bin((mask >> 4 * m) & 0xF).count("1") % 2 == 0 for m in range(12)):
                return (f"the given {names[g]} is all pairs, a misdeal under these rules, so no "
                        "deal with it is ever played")
        return None

    return Layout(pattern=pattern, seats=seats, names=names, four_checked=checked,
                  players=2, extra_check=pairs)


def _rotating(words, n, pattern):
    seats, names = _seats(tuple(words[:n]), n)
    # the words other tables use for the same seats
    seats.setdefault("right", 1)
    seats.setdefault("left", n - 1)
    if n == 2:
        seats.setdefault("opponent", 1)
    return Layout(pattern=np.asarray(pattern), seats=seats, names=names, four_checked=(n,),
                  players=n)


def bakappana(rules):
    br = _mod("bakappana.rules")

    n = rules.players
    hand, _ = br.deal_sizes(rules)
    return _rotating(br.SEATS, n, br.deal_pattern(n, hand))


def ishikari_toppa(rules):
    ir = _mod("ishikari.rules")

    n = rules.players
    return _rotating(ir.SEATS, n, ir.deal_pattern(n))


def kushiro_toppa(rules):
    kr = _mod("kushiro.rules")

    n = rules.players
    # seat s holds order[10 s: 10 s + 10], the field the next 8 (the kernel's deal_round)
    pattern = [s for s in range(n) for _ in range(kr.HAND_SIZE)] + [n] * kr.FIELD_SIZE
    return _rotating(kr.SEATS, n, np.array(pattern, dtype=np.int64))


def taoshi(rules):
    tl, tr = _mod("taoshi.lower"), _mod("taoshi.rules")

    n = rules.players
    return _rotating(tr.TABLE_SEATS, n, tl.deal_sequence(n))


def taipa(rules):
    pr = _mod("taipa.rules")

    # hands order[0:6] (the round's first player), order[6:12], the field order[12:18]
    pattern = np.array([0] * pr.HAND + [1] * pr.HAND + [2] * pr.HAND, dtype=np.int64)
    seats = {"first_player": 0, "first": 0, "second_player": 1, "second": 1, "field": 2}
    names = {0: "first_player", 1: "second_player", 2: "field"}
    deck = int(_mod("taipa.lower").start_deck(rules))
    return Layout(pattern=pattern, seats=seats, names=names, four_checked=(), players=2,
                  deck_mask=deck,
                  where_refused="Taipa's deck shrinks between a game's rounds, so a condition "
                  "on a deal could become impossible; name the cards with --given instead",
                  # a lost card's identical copy stands for it (engine.rng.shuffle_given)
                  given_caveat="a game's later rounds deal from a deck that has lost the "
                  "yaku of earlier rounds: where it has lost a given card, an identical copy "
                  "still in it is dealt in its place, and a round whose deck holds no copy of "
                  "a given card is dealt unconditioned (round.given_unmet_rate counts those "
                  "rounds, round.K.given_unmet_rate by round); round 1's quantities "
                  "(round.1.*) are conditioned in every game")


# --- teyaku a --where may name, where the game's exact odds give no TeyakuSpec ------------------
# Each is the kernel's own test written as counts of the dealt hand (hanasim.where.CountTeyaku),
# willow cards by their own kind as the kernels count them; where counts cannot say it, the
# game's own teyaku kernel reads it (hanasim.where.KernelTeyaku: Taoshi, Hachi-hachi).

def _count(name, *clauses, refused=""):
    from .where import CountTeyaku

    return CountTeyaku(name, tuple(clauses), refused)


def kushiro_teyaku(rules):
    """Kushiro Toppa (games/kushiro/teyaku.py ``teyaku_bits``, Checking for Teyaku)."""
    kr = _mod("kushiro.rules")

    if rules.teyaku_reading == "off":
        return ()
    n = kr.HAND_SIZE
    pairs = {"exact": (("pairs", "==", 3),), "at_least": (("pairs", ">=", 3),)}.get(
        rules.three_pairs)
    out = [_count("three_pairs", *pairs) if pairs else _count(
        "three_pairs", refused=f"under three_pairs={rules.three_pairs} it counts "
        + ("the months of two or more cards" if rules.three_pairs == "pairs_in_sets" else
           "a month's cards two by two (a four as two pairs)")
        + ", which no conjunction of counts says; write the hand as counts, e.g. "
        "dealer.pairs>=3")]
    if rules.teyaku_reading == "ten_card":  # one of the kind and nine chaff; ten chaff
        out += [_count(f"one_{k}", (f"{k}s", "==", 1), ("chaff", "==", n - 1))
                for k in ("ribbon", "animal", "bright")]
        out.append(_count("empty_hand", ("chaff", "==", n)))
    else:  # subset: some eight of the ten: at least one of the kind and seven chaff
        out += [_count(f"one_{k}", (f"{k}s", ">=", 1), ("chaff", ">=", 7))
                for k in ("ribbon", "animal", "bright")]
        out.append(_count("empty_hand", ("chaff", ">=", 8)))
    return tuple(out)


def koikoi_teyaku(rules):
    """Koi-koi's lucky hands (games/koikoi/deal.py ``lucky_bits``; the rule page, Checking for
    Lucky Hands): named where they are lucky hands (lucky_hands=win6 or stack12)."""
    if rules.lucky_hands not in ("win6", "stack12"):
        why = (f"under lucky_hands={rules.lucky_hands} there are no lucky hands ("
               + ("they throw the deal in; " if rules.lucky_hands == "misdeal" else "")
               + "lucky_hands=win6 or stack12 has them, as the presets modern and nintendo); "
               "write the hand as counts, e.g. dealer.fours>=1")
        return (_count("four_of_a_kind", refused=why), _count("four_pairs", refused=why))
    # teshi: four cards of a month; kuttsuki: every month of the hand even (none of 1 or 3)
    return (_count("four_of_a_kind", ("fours", ">=", 1)),
            _count("four_pairs", ("singles", "==", 0), ("triplets", "==", 0)))


def _kernel(name, bit, held, refused=""):
    from .where import KernelTeyaku

    return KernelTeyaku(name, bit, held, refused)


def taoshi_teyaku(rules):
    """Taoshi (games/taoshi/teyaku.py, "Teyaku", "Bakefuda"): a hand's teyaku is its best one
    (its tables' and exact odds' teyaku rows: a hand of five reds holds five_reds, not
    four_reds), the sets reading the bakefuda wild as the rules say: no conjunction of counts
    says it, so the game's deal reads it with its own teyaku kernel (``round.where_teyaku``)."""
    tl, tr = _mod("taoshi.lower"), _mod("taoshi.rules")

    tb = tl.lower(rules)
    p = tb.params
    args = (np.uint64(p[tl.P_RED]), np.uint64(p[tl.P_BAKE]), int(p[tl.P_READING]),
            int(p[tl.P_OVERLAP_NO]), tb.values)

    def held(hands):
        from .where_kernels import taoshi_held

        return taoshi_held(np.asarray(hands, dtype=np.uint64), *args)

    return tuple(_kernel(t, i, held, "" if tb.values[i] > 0 else
                         "it is worth nothing under these rules, so no hand's best teyaku is it")
                 for i, t in enumerate(tr.TEYAKU))


def ishikari_teyaku(rules):
    """Ishikari Toppa: under teyaku=toppa its exact odds' specs name them (``deal_spec``);
    Hachi-hachi's list scores the best of each group, which no conjunction of counts says, so
    the game's deal reads it with its own kernel (``hachihachi.teyaku``)."""
    if rules.teyaku != "hachihachi":
        return None
    from .decks import HANAFUDA

    names = _mod("ishikari.hachihachi").NAMES
    kinds = np.array([HANAFUDA.kind_mask(k) for k in range(4)], dtype=np.uint64)

    def held(hands):
        from .where_kernels import hachihachi_held

        return hachihachi_held(np.asarray(hands, dtype=np.uint64), kinds)

    return tuple(_kernel(t, i, held) for i, t in enumerate(names))


#: a game's teyaku as --where conditions (None: its exact odds' TeyakuSpec, if any)
WHERE_TEYAKU = {"kushiro_toppa": kushiro_teyaku, "koikoi": koikoi_teyaku,
                "taoshi": taoshi_teyaku, "ishikari_toppa": ishikari_teyaku}


LAYOUTS = {"toppa": toppa, "baka": baka, "koikoi": koikoi, "bakappana": bakappana,
           "ishikari_toppa": ishikari_toppa, "kushiro_toppa": kushiro_toppa, "taoshi": taoshi,
           "taipa": taipa}
