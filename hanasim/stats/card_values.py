"""What each card is worth: the tidy table of card values from the counters of
:mod:`hanasim.engine.card_tally`.

For a seat and a card, with ``S`` the seat's round score (in the game's unit) and ``p`` the
share of rounds in which the card was dealt to the seat (or to the field)::

    value = E[S | card] - E[S] = (1 - p) (E[S | card] - E[S | not card])

since ``E[S] = p E[S | card] + (1 - p) E[S | not card]``.  The estimate is the first form on
the counters (the mean score of the rounds with the card less the mean of all rounds).  Its
interval comes from the second form: the rounds with the card and the rounds without it are
two disjoint groups of independent rounds, so the difference of their means has the standard
error ``sqrt(var1 / n1 + var0 / n0)`` (each group's own sample variance: Welch), scaled by
``1 - p`` taken as fixed (it is known to within ``sqrt(p (1 - p) / N)``, a far smaller error
than the means').  The 99.9% interval is the estimate plus or minus Student's t quantile with
``min(n1, n0) - 1`` degrees of freedom (conservative for Welch's) times that error.

Weighted by the shares, the values add up to 0 for a seat whose hand always holds the same
number of cards: ``sum_c p_c value_c = Cov(hand size, S) = 0``, exactly on the counters (the
sum over the cards of the score sums is the hand size times the seat's score sum).
"""
from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from . import intervals

WHERE = ("hand", "field")
COLUMNS = ["game", "dealt_to", "seat", "code", "card", "month", "kind", "share", "mean_score", "value",
           "std_error", "ci_low", "ci_high", "n", "rounds_seat"]


def deck_of(g):
    """The deck a game is played with (``g.deck`` if the game names it, else by the game's
    name: Taipa's six-suit deck, Taoshi's mekurifuda, the hanafuda deck otherwise)."""
    from .. import decks

    deck = getattr(g, "deck", None)
    if isinstance(deck, decks.Deck):
        return deck
    return {"taipa": decks.TAIPA, "taoshi": decks.MEKURIFUDA}.get(g.name, decks.HANAFUDA)


def card_labels(deck) -> list[tuple[str, str, str]]:
    """``(card, month, kind)`` of every card of ``deck``: its name in the deck (``pine.crane``),
    its month (suit, or mekurifuda number) and its kind (bright ... chaff; the suit on the
    mekurifuda deck, whose cards have no kind)."""
    from .. import decks

    out = []
    for i, name in enumerate(deck.names):
        m = int(deck.month[i])
        if deck.name == "mekurifuda":
            suit, number = name.split(".")
            out.append((name, number, suit))
        elif deck.name == "taipa":
            out.append((name, decks.TAIPA_SUITS[m - 1], decks.KIND_NAMES[int(deck.kind[i])]))
        else:
            out.append((name, decks.MONTH_NAMES[m - 1], decks.KIND_NAMES[int(deck.kind[i])]))
    return out


def seat_tokens(g, n_seats: int) -> list[str]:
    """The seat tokens (``stats.labels``) of seats ``0 .. n_seats-1`` relative to the dealer:
    the game's table seats, else its seats, else its reading's (koi-koi names its seats only
    there: ``dealer``, ``opponent``)."""
    names = tuple(getattr(g, "table_seats", None) or getattr(g, "seats", ()) or ())
    if not names:
        from ..reading import reading_of

        names = tuple(getattr(reading_of(g), "seats", ()) or ())
    return [names[s] if s < len(names) else f"seat{s}" for s in range(n_seats)]


def _t(df: int) -> float:
    return intervals.t_value(intervals.LEVEL, int(df))


def value_stats(n1, s1, q1, n, s, q) -> dict:
    """The value of a card from integer sums: ``n1, s1, q1`` rounds, score sum and sum of squares
    of the rounds the card was dealt; ``n, s, q`` those of all the seat's rounds (module
    docstring).  NaN where a group has fewer than two rounds."""
    n1, s1, q1, n, s, q = (int(x) for x in (n1, s1, q1, n, s, q))
    nan = dict(share=n1 / n if n else math.nan, mean_score=math.nan, value=math.nan,
               std_error=math.nan, ci_low=math.nan, ci_high=math.nan, n=n1)
    if n1 == 0 or n == 0:
        return nan
    p = n1 / n
    m1 = s1 / n1
    # exact integer differences first, then one division: the weighted sum is 0 to rounding
    value = (s1 * n - s * n1) / (n1 * n)
    n0, s0, q0 = n - n1, s - s1, q - q1
    out = dict(share=p, mean_score=m1, value=value, std_error=math.nan, ci_low=math.nan,
               ci_high=math.nan, n=n1)
    if n1 < 2 or n0 < 2:
        return out
    var1 = max((q1 - s1 * s1 / n1) / (n1 - 1), 0.0)
    var0 = max((q0 - s0 * s0 / n0) / (n0 - 1), 0.0)
    se = (1 - p) * math.sqrt(var1 / n1 + var0 / n0)
    half = _t(min(n1, n0) - 1) * se
    out.update(std_error=se, ci_low=value - half, ci_high=value + half)
    return out


def rows(acc: np.ndarray, g, field: bool | None = None, scale: int = 1) -> list[dict]:
    """One row per (dealt_to, seat, card) from a run's summed counter ``acc[2, seats, cards + 1,
    3]`` (:mod:`engine.card_tally`).  ``field``: whether the game deals a field (default: any
    card was counted there).  ``scale``: kernel score units per unit of the game (Baka and
    Taoshi count scores in fractions of a point: the values are divided by it)."""
    acc = np.asarray(acc, dtype=np.int64)
    deck = deck_of(g)
    labels = card_labels(deck)
    from ..notation import notation_of

    codes = notation_of(deck).codes  # the card notation every command reads (--given ...)
    n_seats, n_cards = acc.shape[1], acc.shape[2] - 1
    if n_cards != deck.n:
        raise ValueError(f"card counters for {n_cards} cards, but the {deck.name} deck has "
                         f"{deck.n}")
    if field is None:
        field = bool(acc[1, :, :n_cards, 0].any())
    seats = seat_tokens(g, n_seats)
    out = []
    for w, where in enumerate(WHERE[:2 if field else 1]):
        for seat in range(n_seats):
            n, s, q = acc[0, seat, n_cards]
            for c in range(n_cards):
                n1, s1, q1 = acc[w, seat, c]
                card, month, kind = labels[c]
                st = value_stats(n1, s1, q1, n, s, q)
                if scale != 1:
                    for k in ("mean_score", "value", "std_error", "ci_low", "ci_high"):
                        st[k] = st[k] / scale
                out.append(dict(game=g.name, dealt_to=where, seat=seats[seat], code=codes[c], card=card,
                                month=month, kind=kind, **st, rounds_seat=int(n)))
    return out


def table(acc, g, metadata: dict, field: bool | None = None, scale: int = 1) -> pd.DataFrame:
    """The tidy table of card values (``COLUMNS``, then the run's rounds, seed, policies and
    rules as every hanasim table; ``attrs``: the metadata, the unit, the headline)."""
    df = pd.DataFrame(rows(acc, g, field, scale), columns=COLUMNS)
    for key in ("rounds", "seed", "policies", "rules"):
        if key in metadata:
            df[key] = metadata[key]
    if "seed" in metadata:
        df["seed"] = np.uint64(metadata["seed"])
    df.attrs.update(metadata)
    df.attrs["unit"] = unit_of(g)
    df.attrs["headline"] = headline(df)
    return df


def unit_of(g) -> str:
    """The game's score unit (points, chips, coins) as its reading says."""
    from ..reading import reading_of

    r = reading_of(g)
    return getattr(r, "unit", None) or "points"


def _fmt(v: float) -> str:
    return "unknown" if math.isnan(v) else f"{v:+.2f}"


def copies_pooled(df: pd.DataFrame) -> bool:
    """Whether a card-values table is of Taipa's deck, whose copies (the four pine cranes
    ``1b1``-``1b4`` ...) are the same card to every rule (the Taipa rule page: "4 (identical)
    bright or animal cards"): their values are one value measured once per copy."""
    codes = set(df["code"]) if "code" in df.columns else set()
    return "1b4" in codes and "6c2" in codes and "12b" not in codes


def pooled(hand: pd.DataFrame) -> pd.DataFrame:
    """One seat's rows with Taipa's copies pooled: one row per card (code without the copy's
    number, ``1b``), its value the mean of its copies' values, its interval that mean plus or
    minus the mean of the copies' half-widths (conservative: the error of a mean of estimates
    is at most the mean of their errors, however they are correlated)."""
    col = "difference" if "difference" in hand.columns else "value"
    base = hand["code"].str.replace(r"\d+$", "", regex=True)
    rows = []
    for code, grp in hand.groupby(base, sort=False):
        half = ((grp["ci_high"] - grp["ci_low"]) / 2).mean()
        v = grp[col].mean()
        first = grp.iloc[0]
        row = {k: first[k] for k in hand.columns}
        row.update(code=code, card=re.sub(r"\d+$", "", str(first["card"])), ci_low=v - half,
                   ci_high=v + half, copies=len(grp), codes=f"{grp['code'].iloc[0]}-"
                   f"{grp['code'].iloc[-1]}" if len(grp) > 1 else grp["code"].iloc[0])
        row[col] = v
        if col == "difference":
            row["value_a"] = grp["value_a"].mean()
            row["value_b"] = grp["value_b"].mean()
        rows.append(row)
    return pd.DataFrame(rows)


def _sure(r) -> bool:
    return bool(r["ci_low"] > 0 or r["ci_high"] < 0)


def headline(df: pd.DataFrame, seat: str | None = None, dealt_to: str = "hand") -> str:
    """The most and the least valuable card dealt to ``seat`` (default: the dealer, the first
    seat; ``dealt_to="field"``: dealt to the field), in the game's unit, with their 99.9%
    intervals; a value whose interval holds 0 says so (the ranking is then the noise's).
    Taipa's copies are pooled (:func:`pooled`)."""
    unit = df.attrs.get("unit", "points")
    hand = df[(df["dealt_to"] == dealt_to) & df["value"].notna()]
    if seat is None and len(hand):
        seat = hand["seat"].iloc[0]
    hand = hand[hand["seat"] == seat]
    if hand.empty:
        return "no card was dealt often enough to be valued"
    pool = copies_pooled(hand)
    if pool:
        hand = pooled(hand)
    best = hand.loc[hand["value"].idxmax()]
    worst = hand.loc[hand["value"].idxmin()]

    def say(r):
        each = f"each of its {r['copies']} copies, " if pool and r.get("copies", 1) > 1 else ""
        return (f"{_named(r)} ({each}{_fmt(r['value'])} {unit} a round, 99.9% interval "
                f"{_fmt(r['ci_low'])} to {_fmt(r['ci_high'])}"
                + ("" if _sure(r) else ": not distinguishable from 0 at this many rounds")
                + ")")

    from .labels import seat_label

    who = seat_label(seat, df.attrs.get("game"), df.attrs.get("players"))
    if dealt_to == "field":
        return (f"{who}: the card worth most to this seat when dealt to the field is "
                f"{say(best)}, the least {say(worst)}")
    return (f"{who}: the most valuable card to be dealt is {say(best)}, the least valuable "
            f"{say(worst)}" + ("; Taipa's copies of a card (1b1-1b4 ...) are pooled, the same "
                               "card to the rules" if pool else ""))


def difference(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """``b``'s card values less ``a``'s (two rule sets of the same game), row by row on (dealt_to,
    seat, card): columns value_a, value_b, difference, std_error, ci_low, ci_high.  The two runs'
    errors are added as if independent; runs on the same seed share their deals, which
    correlates them positively, so the interval is then conservative."""
    keys = ["dealt_to", "seat", "code", "card"]
    m = a.merge(b, on=keys, suffixes=("_a", "_b"), how="inner", validate="one_to_one")
    out = m[["game_a", *keys, "month_a", "kind_a"]].rename(
        columns={"game_a": "game", "month_a": "month", "kind_a": "kind"})
    out["value_a"] = m["value_a"]
    out["value_b"] = m["value_b"]
    out["difference"] = m["value_b"] - m["value_a"]
    se = np.sqrt(m["std_error_a"] ** 2 + m["std_error_b"] ** 2)
    n = np.minimum(m["n_a"], m["n_b"]).astype("int64")
    t = np.array([_t(int(k) - 1) if k >= 2 else math.nan for k in n])
    out["std_error"] = se
    out["ci_low"] = out["difference"] - t * se
    out["ci_high"] = out["difference"] + t * se
    out["n_a"] = m["n_a"].astype("int64")
    out["n_b"] = m["n_b"].astype("int64")
    out.attrs.update(a.attrs)
    out.attrs.pop("headline", None)
    out.attrs["vs"] = {k: v for k, v in b.attrs.items() if k != "headline"}
    return out


def change_headline(diff: pd.DataFrame, seat: str | None = None, dealt_to: str = "hand") -> str:
    """The card whose value to ``seat`` (default: the dealer) changed most between the two
    rule sets of a :func:`difference` table (``dealt_to="field"``: as a field card), in a
    sentence."""
    unit = diff.attrs.get("unit", "points")
    hand = diff[(diff["dealt_to"] == dealt_to) & diff["difference"].notna()]
    if seat is None and len(hand):
        seat = hand["seat"].iloc[0]
    hand = hand[hand["seat"] == seat]
    if hand.empty:
        return "no card was dealt often enough in both runs to be compared"
    if copies_pooled(hand):
        hand = pooled(hand)
    r = hand.loc[hand["difference"].abs().idxmax()]
    from .labels import seat_label

    who = seat_label(seat, diff.attrs.get("game"), diff.attrs.get("players"))
    sure = r["ci_low"] > 0 or r["ci_high"] < 0
    on = " on the field" if dealt_to == "field" else ""
    return (f"{who}: the card whose value{on} changes most is {_named(r)}, "
            f"{_fmt(r['value_a'])} to {_fmt(r['value_b'])} {unit} a round (change "
            f"{_fmt(r['difference'])}, 99.9% interval {_fmt(r['ci_low'])} to "
            f"{_fmt(r['ci_high'])}{'' if sure else ': not distinguishable from no change'})")


def _named(r) -> str:
    """A card in a sentence: the deck's name in words and its code ("willow rain man '11b'")."""
    head, _, tail = str(r["card"]).partition(".")
    if head in ("coins", "cups", "swords", "clubs"):  # the mekurifuda deck: "6 of clubs"
        name = f"{tail} of {head}"
    else:
        name = str(r["card"]).replace(".", " ").replace("_", " ")
    code = r.get("code") if hasattr(r, "get") else None
    return f"{name} '{code}'" if isinstance(code, str) and code else name
