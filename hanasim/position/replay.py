"""Replaying a recorded game (``record``): every action played on positions, so every action
is checked by the game's own kernel code; each round's points per player and the game's totals.

With ``advise``, every recorded choice among two or more legal actions is valued by the
lookahead (``advice``), and a choice whose value is below the best action's beyond the 99.9%
paired interval is marked.
"""
from __future__ import annotations

from dataclasses import dataclass

from .core import PositionError
from .dealers import next_dealers
from . import record as R


#: the games whose records give the draw pile after the join or drop (``play_pile``)
JOIN_DROP = ("kushiro_toppa", "taoshi")


class IllegalAction(Exception):
    """A recorded action the rules do not allow here (one line: round, turn, player, card)."""


class WrongDealer(IllegalAction):
    """A round after the first dealt by a player the rules do not name (one line: the round,
    the record's dealer, the rules' and why)."""


@dataclass
class Replay:
    points: object          # DataFrame: round, player, dealer, points (then the totals)
    advice: object = None   # DataFrame of the recorded choices' values, with --advise


def replay(data, game_name=None, rules=None, preset=None, advise=False, samples=64, seed=0):
    """Replay the record ``data`` (a dict, as ``record.load`` reads it)."""
    import pandas as pd

    from . import game as make_game

    R.check(data)
    name = game_name or data.get("game")
    if not name:
        raise R.RecordError("the record names no game: give GAME")
    if game_name and data.get("game") and _norm(data["game"]) != _norm(game_name):
        raise R.RecordError(f"the record is of {data['game']}, not {game_name}")
    merged = {**(data.get("rules") or {}), **(rules or {})}
    g = make_game(name, merged, preset if preset is not None else data.get("preset"))
    players = R.player_names(data, g.n)
    seat_names = g.seat_names()
    rows, advice_rows = [], []
    # Taipa: each player's coins, carried from round to round (a capped agari takes at most
    # what the payer holds)
    start = getattr(g.adapter, "start_coins", None)
    coins = None if start is None else [start] * g.n
    mult = None  # Ishikari Toppa: the last round's chase multiplier (None: a game's start)
    deck = None  # Taipa: the cards the last round left in play, where the record says which
    want = None  # the players the rules let deal this round (None: the record's first)
    for i, r in enumerate(data["rounds"], 1):
        dealer = R.dealer_index(r, players, i)
        if want is not None and dealer not in want[0]:
            named = " or ".join(players[p] for p in sorted(want[0]))
            role = "first player" if g.name == "taipa" else "dealer"
            raise WrongDealer(f"round {i}: the {role} is {players[dealer]}, but the rules "
                              f"name {named} ({want[1]})")
        held = None if coins is None else [coins[(dealer + s) % g.n] for s in range(g.n)]
        if g.name == "ishikari_toppa":
            r = dict(r, multiplier=_multiplier(g.adapter, r, i, mult))
        pos = _play_round(g, r, i, players, dealer, seat_names, advise, samples, seed,
                          advice_rows, held, deck)
        if g.name == "taipa":
            deck = g.adapter.next_deck(pos)
        if g.name == "ishikari_toppa":
            mult = (r["multiplier"], g.adapter.chasers(pos))
        pts = pos.result()
        if coins is not None:
            for s, p in enumerate(pts):
                coins[(dealer + s) % g.n] += p
        want = next_dealers(g, pos, dealer, coins)
        for s, p in enumerate(pts):
            player = (dealer + s) % g.n
            rows.append(dict(round=str(i), player=players[player], seat=seat_names[s],
                             points=p))
    df = pd.DataFrame(rows)
    totals = df.groupby("player", sort=False)["points"].sum()
    df = pd.concat([df, pd.DataFrame([dict(round="total", player=p, seat="", points=v)
                                      for p, v in totals.items()])], ignore_index=True)
    df.attrs["game"] = g.name
    df.attrs["unit"] = points_words(g)
    adv = pd.DataFrame(advice_rows) if advise else None
    return Replay(df, adv)


def points_words(g) -> str:
    """What a replay's points are, in the unit of the game and the rules in force."""
    if g.name == "taipa":
        return "coins won (+) or paid (-) in the round (zero-sum)"
    if g.name == "kushiro_toppa":
        return "chips won (+) or paid (-) in the round (zero-sum)"
    if g.name == "koikoi":
        if g.adapter.rules.scoring == "zero_sum":
            return ("points won (+) or paid (-) in the round (zero-sum: scoring=zero_sum, the "
                    "loser pays what the winner scores)")
        return ("points collected in the round (only the player who collects scores: never "
                "negative under scoring=winner_only)")
    if g.name == "ishikari_toppa":
        return ("the round's settled score times its chase multiplier (zero-sum; 0 for a "
                "player out of the round)")
    if g.name == "taoshi":
        from ..games.taoshi.rules import DECK_POINTS, burdens_of

        b = burdens_of(g.adapter.rules)
        if sum(b) != DECK_POINTS:  # burdens not summing to the deck's points: not zero-sum
            return (f"the round's score: card points, yaku and fees less the burden (not "
                    f"zero-sum: the burdens sum to {float(sum(b)):g}, the deck's points to "
                    f"{DECK_POINTS})")
        return ("the round's score: card points, yaku and fees less the burden (zero-sum: "
                "what one player wins, the others pay)")
    if g.name == "bakappana" and g.adapter.rules.scoring == "additive":
        return "the round's card points (scoring=additive: not zero-sum)"
    par = getattr(g.adapter.rules, "par", None)  # Toppa, Baka: one par, or one per seat
    if par is not None:
        total = sum(par) if isinstance(par, (tuple, list)) else par * g.n
        if total != 240:
            return (f"the round's settled score (not zero-sum: the pars sum to {total}, the "
                    f"deck's points to 240)")
    return "the round's settled score (zero-sum: what one player wins, the others pay)"


def _multiplier(game, r, i, last):
    """Ishikari Toppa's chase multiplier of round ``i`` as the rules make it (the rule page,
    "Chasing"; ``session.play_round``): 1 at a game's start (the record's first round, then
    every ``rounds_per_game`` rounds), else one more than the last round's after a round with
    a chase and 1 after one without (``chase=off``: always 1).  The record's first round may
    give its own (a record starting within a game); a later round's ``multiplier``, if given,
    must be the rules'."""
    given = r.get("multiplier")
    if given is not None and (not isinstance(given, int) or isinstance(given, bool)
                              or given < 1):
        raise R.RecordError(f"round {i}: 'multiplier' is a whole number from 1, not {given!r}")
    if last is None:
        return 1 if given is None else given
    per_game = int(game.tb.params[game.R.P_GAME_ROUNDS])
    prev, chasers = last
    if (i - 1) % per_game == 0:
        want, why = 1, f"a game of {per_game} rounds starts"
    elif not game.tb.params[game.R.P_CHASE]:
        want, why = 1, "chase=off"
    elif chasers:
        want, why = prev + 1, f"round {i - 1} had a chase at {prev}"
    else:
        want, why = 1, f"round {i - 1} had no chase"
    if given is not None and given != want:
        raise R.RecordError(f"round {i}: the chase multiplier is {want} ({why}), not {given}")
    return want


def _norm(name) -> str:
    return str(name).strip().lower().replace("-", "_")


def _play_round(g, r, i, players, dealer, seat_names, advise, samples, seed, advice_rows,
                coins=None, deck=None):
    where = f"round {i}"
    try:
        extra = {} if coins is None else {"coins": coins, "round_number": i}
        if g.name == "koikoi":
            extra["round_number"] = int(r.get("month", i))
        elif "month" in r:
            raise PositionError("'month' is a koi-koi round's key")
        if g.name == "ishikari_toppa":
            extra["multiplier"] = r.get("multiplier", 1)
        elif "multiplier" in r:
            raise PositionError("'multiplier' is an Ishikari Toppa round's key")
        if g.name in JOIN_DROP:
            extra["play_pile"] = r.get("play_pile")
        elif "play_pile" in r:
            raise PositionError("'play_pile' is a Kushiro Toppa or Taoshi round's key (the "
                                "draw pile after the join or drop)")
        pos = g.deal(r["hands"], r["field"], r["pile"], r.get("captured"), **extra)
    except (PositionError, ValueError) as e:
        raise R.RecordError(f"{where}: {e}") from None
    if deck is not None:  # Taipa: the deck is what the last round's yaku left in play
        d = pos.data
        have = sum(1 << int(c) for c in d["order"][:d["n"]])
        if have != deck:
            extra_ = [c for c in range(48) if have >> c & 1 and not deck >> c & 1]
            gone = [c for c in range(48) if deck >> c & 1 and not have >> c & 1]
            raise R.RecordError(
                f"{where}: its cards are not the ones round {i - 1} left in play: "
                + (f"{g.code(extra_[0])} left play after round {i - 1}" if extra_ else
                   f"{g.code(gone[0])} is in no place"))
    for k, item in enumerate(r["actions"], 1):
        try:
            a = g.action(item)
        except (PositionError, ValueError) as e:
            raise R.RecordError(f"{where}, action {k}: {e}") from None
        at = ("the deal" if pos.phase in ("join", "expose", "swap") else
              "the round's end" if pos.phase == "leave" else f"turn {pos.turn}")
        if pos.is_over():
            raise IllegalAction(f"{where}, action {k}: {a.words(g.code)} comes after the "
                                f"round ended (its last action is {k - 1})")
        seat = pos.seat
        who = f"{players[(dealer + seat) % g.n]}, the {seat_names[seat]}"
        legal = pos.legal_actions()
        if not pos.is_legal(a, legal):
            raise IllegalAction(f"{where}, {at} ({who}): "
                                + pos.illegal_words(a, legal, seat_names))
        if advise and len(legal) > 1:
            _advise_row(g, pos, a, i, at, players[(dealer + seat) % g.n], samples, seed,
                        advice_rows)
        try:
            pos = pos.apply(a)
        except PositionError as e:  # what the record gives cannot follow this action
            raise R.RecordError(f"{where}, {at}, action {k} ({a.words(g.code)}): {e}") \
                from None
    if not pos.is_over():
        seat = pos.seat
        raise IllegalAction(f"{where} stops before the round ends: "
                            f"{players[(dealer + seat) % g.n]}, the {seat_names[seat]}, "
                            f"must {pos.phase} next (after action {len(r['actions'])})")
    return pos


def _advise_row(g, pos, a, i, at, player, samples, seed, rows):
    from .advice import advise as run

    try:
        adv = run(pos, samples=samples, seed=seed)
    except PositionError:  # a decision the advice does not reach (said in the notes)
        return
    same = getattr(g.adapter, "same_as_legal", None)
    if a not in adv.actions and same is not None:  # Taipa: an identical card named instead
        a = same(pos, a, adv.actions) or a
    j = adv.index(a)
    best = adv.best
    lo, hi = adv.gain_interval(j)
    rows.append(dict(round=i, at=at, player=player, action=a.words(g.code),
                     value=adv.means[j], best_action=adv.actions[best].words(g.code),
                     best_value=adv.means[best], vs_best=adv.means[j] - adv.means[best],
                     vs_best_low=lo, vs_best_high=hi, clearly_below=hi < 0,
                     lookahead_action=adv.actions[adv.chosen].words(g.code)))
