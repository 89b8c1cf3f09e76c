"""``hanasim rules``, ``hanasim games`` and ``hanasim exact``: what the games are (their
house-rule options, the list of games, exact deal-time probabilities); printing only."""
from __future__ import annotations

import sys

from .common import PLAYERS_HELP, add_preset, emit, with_players


def register_rules(sub) -> None:
    p = sub.add_parser("rules", help="list a game's house-rule options, defaults and the values the rule texts name")
    p.add_argument("game")
    add_preset(p)
    p.set_defaults(handler=cmd_rules)


def register_games(sub) -> None:
    p = sub.add_parser("games", help="list the available games")
    p.set_defaults(handler=cmd_games)


def register_exact(sub) -> None:
    p = sub.add_parser("exact", help="exact deal-time probabilities (misdeal, teyaku; taipa: "
                                      "yaku cards in a hand or the field)")
    p.add_argument("game")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--removed", metavar="YAKU[*N],...",
                   help="taipa: the deck after these yaku left play (e.g. "
                        "three_brights,ribbons*2), as rounds 2 and 3 are dealt; sets the "
                        "removed_* rules")
    add_preset(p)
    p.add_argument("--players", default=None, metavar="N", help=PLAYERS_HELP)
    p.add_argument("--given", action="append", default=[], metavar="SEAT=CARDS",
                   help="cards a seat or the field is dealt (as simulate --given): the odds "
                   "conditional on them, where the game's combinatorics take them")
    p.add_argument("--format", choices=("table", "csv"), default="table")
    p.set_defaults(handler=cmd_exact)


def cmd_rules(a):
    from .. import api
    from ..games import get_game

    g = get_game(a.game)
    table = api.rules_table(a.game, preset=a.preset)
    print(f"{g.title}: house-rule options (source: {g.source})")
    presets = getattr(g, "preset_docs", None) or {}
    print("NAME = DEFAULT   [allowed values]; 'readings' are the values the rule texts "
          "themselves name")
    if a.preset:
        new = (getattr(g, "preset_aliases", None) or {}).get(a.preset)  # a former name
        doc = presets.get(new or a.preset, "") + (f" ({a.preset} is the former name of {new})"
                                                   if new else "")
        print(f"preset {a.preset}: {doc}; options it changes are marked *")
    for _, r in table.iterrows():
        if a.preset:
            mark = " *" if str(r.preset) != str(r.default) else ""
            print(f"  {r.option} = {r.preset}{mark}   (default {r.default}) [{r.allowed}]\n"
                  f"      {r.description}")
        else:
            print(f"  {r.option} = {r.default}   [{r.allowed}]\n      {r.description}")
        if r.readings.count("(") > 1:  # the rule texts name more than one value
            print(f"      readings: {r.readings}")
    if presets and not a.preset:
        print("presets (--preset NAME; 'hanasim rules GAME --preset NAME' shows one):")
        for name, doc in presets.items():
            print(f"  {name}: {doc}")
    from ..games import readings

    text = readings(a.game)
    if text:
        print()
        print(text.rstrip())


def cmd_games(a):
    from ..games import available_games, get_game

    names = available_games()
    games = [get_game(n) for n in names]
    w_name = max(len(n) for n in names)
    w_title = max(len(g.title) for g in games)
    print(f"{'name':<{w_name}}  {'game':<{w_title}}  source")
    for name, g in zip(names, games):
        print(f"{name:<{w_name}}  {g.title:<{w_title}}  {g.source}")


def cmd_exact(a):
    from .. import api, rules

    given = with_players(rules.parse_assignments(a.rule), a.players)
    if a.removed is not None:
        from ..games import get_game

        g = get_game(a.game)
        if not hasattr(g, "removed_rules"):
            raise ValueError(f"--removed applies to taipa (a deck that shrinks), not {a.game}")
        removed = g.removed_rules(a.removed)
        both = [k for k in removed if k in given]
        if both:  # the flag sets these rules: it must not quietly override a --rule
            raise ValueError(f"--removed sets the removed_* rules, so it contradicts --rule "
                             f"{both[0]}={given[both[0]]}: give one of them")
        given.update(removed)
    df = api.exact(a.game, rules=given, preset=a.preset, given=list(a.given) or None)
    if a.format == "csv":
        emit(lambda: df.to_csv(sys.stdout, index=False))
    else:  # four significant digits, in plain decimals (1/139449 is 0.000007171, not 0.000007)
        from ..readable import number

        shown = df.assign(value=[number(v) for v in df["value"]]) if "value" in df else df
        emit(lambda: print(shown.to_string(index=False)))
        for line in df.attrs.get("notes", ()):  # what the odds are conditioned on
            emit(lambda: print(line))
