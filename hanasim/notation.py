"""A short card notation for each deck, read case-insensitively by every command.

Hanafuda (Toppa, Baka, Kushiro Toppa, Koi-koi, Bakappana, Ishikari Toppa): the month, as a
number 1-12 or its name (``pine`` ... ``paulownia``), then the card's kind: ``b`` bright, ``a``
animal, ``r`` ribbon, ``c`` chaff, with the chaff's number where a month has more than one
(``1c1``, ``1c2``, ``12c3``; willow has one chaff, ``11c``).  ``3b`` is the cherry curtain,
``11b`` the Rain Man, ``9a`` the sake cup, ``pine-r`` the pine poetry ribbon.  The named cards
are accepted by name too (``rain-man``, ``moon``, ``crane``, ``sake-cup``, ``boar`` ...), and so
are the deck's own names (``willow.rain_man``).

Taipa's deck (6 suits of 8, the Taipa rule page, "The deck"): the suit as a number 1-6 in the
deck's order (1 pine, 2 cherry, 3 susuki, 4 bush clover, 5 maple, 6 peony) or its name, the
kind, and the copy's number: the four identical brights of pine are ``1b1`` to ``1b4``.

Mekurifuda (Taoshi): the number 1-12 (or ``dragon`` 1, ``maid`` 10, ``horse`` 11, ``king``
12) and the suit as two letters, ``co`` coins, ``cu`` cups, ``sw`` swords, ``cl`` clubs:
``6cl`` is the 6 of clubs; ``6 of clubs`` and ``clubs.6`` are read too, and the two bakefuda
by their names ``pinbake`` (1 of clubs) and ``kiribake`` (12 of clubs).

Cards a game cannot tell apart (the two pine chaff; Taipa's copies) may be named without their
number: each mention takes the next copy not named yet (``1c,1c`` is both pine chaff).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import decks

KIND_LETTERS = {"b": decks.BRIGHT, "a": decks.ANIMAL, "r": decks.RIBBON, "c": decks.CHAFF}
KIND_WORDS = {"bright": "b", "light": "b", "animal": "a", "tane": "a", "ribbon": "r",
              "tanzaku": "r", "chaff": "c", "plain": "c", "kasu": "c", "junk": "c"}
LETTER_OF_KIND = {v: k for k, v in KIND_LETTERS.items()}
SUIT_LETTERS = {"co": "coins", "cu": "cups", "sw": "swords", "cl": "clubs"}
NUMBER_WORDS = {"dragon": 1, "ace": 1, "maid": 10, "horse": 11, "knight": 11, "king": 12}
MONTH_ALIASES = {"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6,
                 "july": 7, "august": 8, "september": 9, "october": 10, "november": 11,
                 "december": 12, "sakura": 3, "fuji": 4, "ayame": 5, "botan": 6, "hagi": 7,
                 "pampas": 8, "kiku": 9, "momiji": 10, "yanagi": 11, "rain": 11, "kiri": 12,
                 "matsu": 1, "ume": 2, "iris": 5, "clover": 7}
#: the named hanafuda cards (the deck's card names, and how players say them)
HANAFUDA_ALIASES = {
    "crane": "1b", "poetry_pine": "1r", "bush_warbler": "2a", "warbler": "2a",
    "nightingale": "2a", "uguisu": "2a", "curtain": "3b", "cherry_curtain": "3b",
    "cuckoo": "4a", "bridge": "5a", "eight_plank_bridge": "5a", "butterflies": "6a",
    "butterfly": "6a", "boar": "7a", "moon": "8b", "full_moon": "8b", "geese": "8a",
    "sake_cup": "9a", "sake": "9a", "cup": "9a", "deer": "10a", "rain_man": "11b",
    "rainman": "11b", "ono_no_michikaze": "11b", "michikaze": "11b", "swallow": "11a",
    "lightning": "11c", "phoenix": "12b", "chinese_phoenix": "12b",
}
MEKURI_ALIASES = {"pinbake": "1cl", "kiribake": "12cl", "aza": "1cl"}


class CardError(ValueError):
    """A card name the deck does not hold (one line, naming the text and the notation)."""


@dataclass(frozen=True)
class Notation:
    """The notation of one deck: ``codes[i]`` is card ``i``'s short code."""

    deck: decks.Deck
    codes: tuple
    family: str  # "hanafuda", "taipa" or "mekurifuda"

    def parse(self, text, taken=()) -> int:
        """Card index of ``text``; ``taken`` (card indices already named) lets an unnumbered
        copy take the next free one.  Raises :class:`CardError` in one line."""
        raw = str(text)
        key = _key(raw)
        if not key:
            raise CardError(f"empty card name (cards are written like {self.example})")
        code = self._canonical(key)
        if code in self._index:
            return self._index[code]
        if code in self._copies:
            for i in self._copies[code]:
                if i not in taken:
                    return i
            n = len(self._copies[code])
            raise CardError(f"{raw.strip()!r}: the {self.deck.name} deck has only {n} such "
                            f"card{'s' if n > 1 else ''}, all named already")
        m = re.fullmatch(r"(\d+)[a-z]+\d*", code)
        if m and any(int(v) == int(m.group(1)) for v in self.deck.month):
            g = int(m.group(1))
            same = [c for i, c in enumerate(self.codes) if int(self.deck.month[i]) == g]
            raise CardError(f"{raw.strip()!r} is not a card of the {self.deck.name} deck "
                            f"({self._group_word} {g} holds {', '.join(same)})")
        raise CardError(f"{raw.strip()!r} is not a card of the {self.deck.name} deck "
                        f"(cards are written like {self.example}; 'hanasim cards GAME --list' "
                        "lists them)")

    def parse_list(self, items, taken=()) -> list:
        """Card indices of several names, each distinct (copies take the next free one)."""
        out, seen = [], set(taken)
        for it in items:
            c = self.parse(it, seen)
            if c in seen:
                raise CardError(f"{str(it).strip()!r} ({self.describe(c)}) is named twice")
            out.append(c)
            seen.add(c)
        return out

    def describe(self, card: int) -> str:
        """``11b (willow rain man, a bright)``: the code and the card in words."""
        w = words(self.deck, card)
        if w.endswith(")"):
            w = w[:w.rindex(" (")] + ", a " + w[w.rindex(" (") + 2:-1]
        return f"{self.codes[card]} ({w})"

    @property
    def _group_word(self) -> str:
        return {"hanafuda": "month", "taipa": "suit", "mekurifuda": "number"}[self.family]

    @property
    def example(self) -> str:
        return {"hanafuda": "'11b' (the Rain Man), '8b' (the moon), '1c2' or 'rain-man'",
                "taipa": "'1b1' (a pine crane), '3c4' or 'moon3'",
                "mekurifuda": "'6cl' (the 6 of clubs), '12co' or 'king of cups'"}[self.family]

    # ---------------------------------------------------------------- reading
    @property
    def _index(self) -> dict:
        return _tables(self)[0]

    @property
    def _copies(self) -> dict:
        return _tables(self)[1]

    def _canonical(self, key: str) -> str:
        if self.family == "mekurifuda":
            return _mekuri_key(key)
        return _hana_key(key, self.family, self.deck)


def _key(text: str) -> str:
    """Lower case, one separator style: ``Rain-Man`` / ``rain man`` / ``rain_man`` alike."""
    t = str(text).strip().lower()
    t = re.sub(r"[\s\-]+", "_", t)
    return t


def _month_number(tok: str, deck) -> int | None:
    if tok.isdigit():
        return int(tok)
    names = decks.TAIPA_SUITS if deck.name == "taipa" else decks.MONTH_NAMES
    tok = tok.strip("_.")
    alias = {"bush_clover": "bush_clover", "clover": "bush_clover", "susuki": "susuki",
             "pampas": "susuki"}.get(tok, tok)
    if alias in names:
        return names.index(alias) + 1
    if deck.name != "taipa" and tok in MONTH_ALIASES:
        return MONTH_ALIASES[tok]
    return None


_HANA = re.compile(r"(?P<month>[a-z_]+?|\d+)[._]?(?P<kind>bright|light|animal|tane|ribbon|"
                   r"tanzaku|chaff|plain|kasu|junk|b|a|r|c)(?P<n>\d*)")


def _hana_key(key: str, family, deck) -> str:
    """A hanafuda or Taipa name as ``<month><kind letter><copy>`` (the copy may be empty)."""
    if family == "hanafuda" and key in HANAFUDA_ALIASES:
        return HANAFUDA_ALIASES[key]
    if key in _deck_names(deck):
        return _deck_names(deck)[key]
    if family == "taipa":
        # a named Taipa card: crane, moon3, poetry_ribbon ... with an optional copy number
        m = re.fullmatch(r"([a-z_]+?)_?(\d*)", key)
        if m:
            hits = {c for name, c in _deck_names(deck).items()
                    if name.split(".")[-1].rstrip("0123456789") == m.group(1)}
            hits = {re.sub(r"\d+$", "", c) for c in hits}
            if len(hits) == 1:
                return hits.pop() + m.group(2)
    m = _HANA.fullmatch(key)
    if not m:
        return key
    month = _month_number(m.group("month"), deck)
    if month is None:
        return key
    kind = KIND_WORDS.get(m.group("kind"), m.group("kind"))
    return f"{month}{kind}{m.group('n')}"


_MEKURI = re.compile(r"(?P<num>\d+|dragon|ace|maid|horse|knight|king)[._]?(?:of_)?"
                     r"(?P<suit>coins?|cups?|swords?|clubs?|co|cu|sw|cl)")
_MEKURI_SUIT_FIRST = re.compile(r"(?P<suit>coins?|cups?|swords?|clubs?|co|cu|sw|cl)[._]?"
                                r"(?P<num>\d+|dragon|ace|maid|horse|knight|king)")


def _mekuri_key(key: str) -> str:
    if key in MEKURI_ALIASES:
        return MEKURI_ALIASES[key]
    m = _MEKURI.fullmatch(key) or _MEKURI_SUIT_FIRST.fullmatch(key)
    if not m:
        return key
    num = m.group("num")
    num = NUMBER_WORDS.get(num, None) or int(num)
    suit = m.group("suit")[:2]
    return f"{num}{suit}"


def _deck_names(deck) -> dict:
    """The deck's own card names (``willow.rain_man``, ``clubs.6``) -> canonical code."""
    got = _NAMES.get(deck.name)
    if got is None:
        n = notation_of(deck)
        got = _NAMES[deck.name] = {name.lower(): n.codes[i] for i, name in enumerate(deck.names)}
    return got


_NAMES: dict = {}
_TABLES: dict = {}
_NOTATIONS: dict = {}


def _tables(n: Notation):
    got = _TABLES.get(n.deck.name)
    if got is None:
        index = {c: i for i, c in enumerate(n.codes)}
        copies = {}
        for i, c in enumerate(n.codes):
            base = re.sub(r"\d+$", "", c) if n.family != "mekurifuda" else c
            # only copies that no rule tells apart share an unnumbered name
            if base != c:
                copies.setdefault(base, []).append(i)
        copies = {b: cs for b, cs in copies.items()
                  if len({(int(n.deck.flags[i]), int(n.deck.points[i])) for i in cs}) == 1}
        got = _TABLES[n.deck.name] = (index, copies)
    return got


def _codes(deck) -> tuple:
    if deck.name == "mekurifuda":
        return tuple(f"{int(deck.month[i])}{name.split('.')[0][:2]}"
                     for i, name in enumerate(deck.names))
    codes = []
    for i in range(deck.n):
        m, k = int(deck.month[i]), int(deck.kind[i])
        same = [j for j in range(deck.n) if deck.month[j] == m and deck.kind[j] == k]
        base = f"{m}{LETTER_OF_KIND[k]}"
        codes.append(base if len(same) == 1 else f"{base}{same.index(i) + 1}")
    return tuple(codes)


def notation_of(deck) -> Notation:
    got = _NOTATIONS.get(deck.name)
    if got is None:
        family = "mekurifuda" if deck.name == "mekurifuda" else (
            "taipa" if deck.name == "taipa" else "hanafuda")
        got = _NOTATIONS[deck.name] = Notation(deck, _codes(deck), family)
    return got


def deck_of(game) -> decks.Deck:
    """The deck a game plays with (its ``deck`` attribute; hanafuda otherwise)."""
    from .games import get_game

    g = get_game(game) if isinstance(game, str) else game
    deck = getattr(g, "deck", None)
    if deck is not None:
        return deck
    return {"taipa": decks.TAIPA, "taoshi": decks.MEKURIFUDA}.get(g.name, decks.HANAFUDA)


def for_game(game) -> Notation:
    """The card notation of ``game``'s deck."""
    return notation_of(deck_of(game))


def words(deck, card: int) -> str:
    """A card in words: ``willow rain man (bright)``, ``6 of clubs``."""
    name = deck.names[card]
    if deck.name == "mekurifuda":
        suit, num = name.split(".")
        num = int(num)
        word = {1: "dragon (1)", 10: "maid (10)", 11: "horse (11)", 12: "king (12)"}.get(num, num)
        return f"{word} of {suit}"
    month, what = name.split(".")
    kind = decks.KIND_NAMES[int(deck.kind[card])]
    what = what.replace("_", " ")
    month = month.replace("_", " ")
    plain = re.sub(r"\d+$", "", what)
    copy = what[len(plain):]
    text = f"{month} {plain}" + (f" {copy}" if copy else "")
    # the kind in brackets where the name does not say it ("pine poetry ribbon" does)
    return text if plain in (kind, "chaff") or plain.endswith(kind) else f"{text} ({kind})"


def cards_table(game):
    """Every card of ``game``'s deck with its code, name, month (suit, number), kind and aliases:
    the table ``hanasim cards GAME --list`` prints (a DataFrame)."""
    import pandas as pd

    n = for_game(game)
    deck = n.deck
    group = {"hanafuda": "month", "taipa": "suit", "mekurifuda": "number"}[n.family]
    rows = []
    aliases = {"hanafuda": HANAFUDA_ALIASES, "taipa": {},
               "mekurifuda": MEKURI_ALIASES}[n.family]
    for i in range(deck.n):
        also = sorted(a.replace("_", "-") for a, c in aliases.items() if c == n.codes[i])
        rows.append({"code": n.codes[i], "card": words(deck, i), group: int(deck.month[i]),
                     "kind": (deck.names[i].split(".")[0] if n.family == "mekurifuda"
                              else decks.KIND_NAMES[int(deck.kind[i])]),
                     "also": ", ".join(also[:3])})
    return pd.DataFrame(rows)
