"""The ``seat`` and human ``label`` of a quantity name, so tables filter and charts label
without parsing ``quantity`` strings.

Quantity names are dotted: ``dealer.mean_score``, ``seat.right.win_rate``, ``fair_par.dealer``,
``round_score.dealer.q05``, ``player2.game.mean_total``, ``dekiyaku.five_brights``.  The seat
is the one token that names a seat or a player (relative to the round's dealer, or a position
in a game's dealing order); a quantity of the whole table (``misdeal_rate``) has none.
"""
from __future__ import annotations

import re

#: seat and player tokens and how to say them
SEATS = {
    "dealer": "Dealer", "opponent": "Opponent", "right": "Dealer's right",
    "left": "Dealer's left", "first_dealer": "First dealer", "second_dealer": "Second dealer",
    "third_dealer": "Third dealer",
    # taipa: who plays first in a round (round.*) or in round 1 (game.*)
    "first_player": "First player", "second_player": "Second player",
    # kushiro_toppa, taoshi: table seat k, k places to the dealer's right (turn order)
    "seat1": "Seat 1 (dealer's right)", "seat2": "Seat 2", "seat3": "Seat 3", "seat4": "Seat 4",
    "seat5": "Seat 5",
}
_PLAYER = re.compile(r"player(\d+)$")

#: taipa's deal-time quantities: which places of the deal hold a yaku's cards
DEAL_PLACES = {"one_place_holds": "a given hand (or the field) holds",
               "any_place_holds": "a hand or the field holds"}
#: names whose plain title case is not how players write them
SPECIAL = {"boar_deer_butterfly": "Boar-Deer-Butterfly", "any": "any"}

#: what a metric token means, for labels
METRICS = {
    "mean_score": "mean score per round", "win_rate": "win rate", "tie_rate": "tie rate",
    "deal_share": "share of rounds dealt", "first_dealer_share": "share of games dealt first",
    "card_points": "card points", "par_balance": "card points minus par",
    "fair_par": "fair par", "yaku_score": "yaku score", "sd": "standard deviation",
    "mean_abs": "mean absolute score", "uncovered_rate": "yaku payment not covered by cards",
    "mean_abs_yaku_transfer": "mean points moved by the yaku settlement",
    "low_man_out_rate": "Low Man Out rate", "two_low_rate": "two players low",
    "misdeal_rate": "misdeal rate (share of deals)", "total": "total",
    "dealer_minus_opponent": "dealer minus opponent",
    "mean_net": "mean coins won a round (net)",
    "mean_chips": "mean chips won a round", "mean_advantage": "mean score less the opponent's", "mean_margin": "mean margin",
    "fair_burden": "fair burden", "burden_balance": "card points minus burden",
    "botta_paid_inactive_rate": "paid a botta while sitting out",
    "yaku_cards_changed_rate": "share of lookahead's yaku_cards choices unlike greedy's",
}
#: context tokens: what the metric is counted over
NOUNS = {"game": "game", "session": "session", "round_score": "round score",
         "settlement": "settlement", "low_man_out": "Low Man Out", "yaku_score": "yaku score"}


def display(name: str) -> str:
    """A yaku or option code name as players write it: ``seven_ribbons`` -> Seven Ribbons."""
    if name in SPECIAL:
        return SPECIAL[name]
    return " ".join(w.capitalize() for w in name.split("_"))


def seat_of(quantity: str) -> str:
    """The seat or player a quantity is about (``""`` if it is about the whole table)."""
    for tok in str(quantity).split("."):
        if tok in SEATS or _PLAYER.match(tok):
            return tok
    return ""


def seat_label(seat: str, game=None, players: int | None = None) -> str:
    """How to say a seat token.  ``game`` (name or object) and ``players`` (seated) make it
    exact where the table's size changes what a seat is: a Kushiro or Taoshi table seat is
    named by its place from the dealer (the dealer's right, opposite, the dealer's left), and
    Taoshi's burden positions by what they are (see :func:`position_label`)."""
    m = _PLAYER.match(seat)
    if m:
        return f"Player {m.group(1)}"
    t = re.fullmatch(r"seat(\d)", seat)
    if t and players:
        k = int(t.group(1))
        if players == 2 and k == 1:
            return "Opponent"
        if k == 1:
            return "Dealer's right (seat 1)"
        if k == players - 1:
            return f"Dealer's left (seat {k})"
        if 2 * k == players:
            return f"Opposite the dealer (seat {k})"
        return f"Seat {k} ({_ordinal(k)} to the dealer's right)"
    return SEATS.get(seat, display(seat))


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def position_label(seat: str, game=None, players: int | None = None) -> str:
    """A per-round position token (not under ``seat.``): the game's reading may name its
    positions by what they are when the table is large enough (Taoshi with 4-6 players: the
    burden positions are the first, second and third active player in turn order, not the
    dealer's seats); otherwise :func:`seat_label`."""
    r = _reading(game)
    if r is not None and r.positions and seat in r.positions and players is not None \
            and players > r.positions_above:
        return r.positions[seat]
    return seat_label(seat, game, players)


def _reading(game):
    if game is None:
        return None
    try:
        from ..games import get_game
        from ..reading import reading_of

        g = get_game(game) if isinstance(game, str) else game
        return reading_of(g)
    except (ValueError, ImportError):
        return None


def _metric(noun: str, toks: list) -> str:
    """``noun`` (game, session...) and the remaining tokens as words."""
    q = next((int(t[1:]) for t in toks if re.fullmatch(r"q\d\d", t)), None)
    toks = [t for t in toks if not re.fullmatch(r"q\d\d", t)]
    metric = toks[-1] if toks else ""
    if metric == "mean" and len(toks) > 1:  # deck_size.mean: mean deck size
        text = "mean " + " ".join(t.replace("_", " ") for t in toks[:-1])
        text = f"{noun}: {text}" if noun else text
    elif metric == "mean_total":
        text = f"mean {noun} total".replace("  ", " ") if noun else "mean total"
    elif metric in ("win_rate", "tie_rate", "total") and noun:
        text = f"{noun} {METRICS[metric]}"
    elif noun and not metric:
        text = noun
    else:
        words = METRICS.get(metric, metric.replace("_", " "))
        text = f"{noun}: {words}" if noun and noun != "Low Man Out" else (
            f"{noun} {words}" if noun else words)
    if q is not None:
        text += ", median" if q == 50 else f", {q}th percentile"
    return text


def label_of(quantity: str, game=None, players: int | None = None) -> str:
    """A readable label: ``fair_par.dealer`` -> "Dealer: fair par"; ``dekiyaku.chaff`` ->
    "Dekiyaku: Chaff"; ``round_score.dealer.q05`` -> "Dealer: round score, 5th percentile"."""
    r = _reading(game)
    own = r.label(str(quantity)) if r is not None else None
    if own:
        return own
    toks = str(quantity).split(".")
    if len(toks) > 2 and toks[0] == "round" and toks[1].isdigit():  # round.2.x: round 2 only
        return f"Round {toks[1]}: " + label_of(".".join(toks[2:]), game, players)
    if toks[0] in ("teyaku", "dekiyaku", "yaku") and len(toks) == 2 and \
            toks[1].endswith("_rate"):  # teyaku.claim_rate: a rate, not a yaku's name
        return f"{toks[0].capitalize()}: {toks[1][:-5].replace('_', ' ')} rate"
    if toks[0] in ("teyaku", "dekiyaku", "yaku") and len(toks) == 2:
        return f"{toks[0].capitalize()}: {display(toks[1])}"
    if toks[0] == "deal" and len(toks) == 3 and toks[1] in DEAL_PLACES:  # taipa's deal odds
        return f"Deal: {DEAL_PLACES[toks[1]]} " + ("any yaku" if toks[2] == "any" else
                                                   display(toks[2]))
    if toks[:2] == ["game", "rounds"] and len(toks) == 3 and toks[2].isdigit():  # taipa
        return f"Game: share lasting {toks[2]} round" + ("" if toks[2] == "1" else "s")
    if toks[0] == "teyaku_score" and len(toks) == 2 and toks[1].isdigit():  # taoshi
        return f"Teyaku worth {toks[1]}"
    seat = seat_of(quantity)
    # a table seat (seat.X.*) is a seat; any other seat token may be a position in turn order
    who = (seat_label(seat, game, players) if "seat" in toks[:toks.index(seat)] else
           position_label(seat, game, players)) if seat else ""
    if len(toks) == 3 and toks[1] == "final_coins" and toks[2].isdigit() and seat:
        return f"{who}: share of games ending with {toks[2]} coins"
    rest = [t for t in toks if t not in (seat, "seat")]
    noun = NOUNS.get(rest[0], "") if rest else ""
    if noun:
        rest = rest[1:]
    if seat:
        if noun == "Low Man Out" and not rest:
            return f"{who}: Low Man Out rate"
        return f"{who}: {_metric(noun, rest)}"
    if toks[0] == "seat":  # seat.tie_rate: over the seats of a round
        noun = "round"
    text = _metric(noun, rest) if rest else (noun or quantity)
    if noun and ":" not in text and rest:
        text = f"{noun[:1].upper() + noun[1:]}: {text[len(noun):].strip()}"
    return text[:1].upper() + text[1:]
