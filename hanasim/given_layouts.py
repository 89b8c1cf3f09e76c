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
                  # the kernel places them "while the deck holds them all" (taipa.game)
                  given_caveat="but a game's later rounds deal from a deck that has lost the "
                  "yaku of earlier rounds, and a round deals the given cards only while its "
                  "deck still holds them all (a round whose deck has lost one of them, that "
                  "very copy, is dealt unconditioned); round 1's quantities (round.1.*) are "
                  "conditioned in every game")


LAYOUTS = {"toppa": toppa, "baka": baka, "koikoi": koikoi, "bakappana": bakappana,
           "ishikari_toppa": ishikari_toppa, "kushiro_toppa": kushiro_toppa, "taoshi": taoshi,
           "taipa": taipa}
