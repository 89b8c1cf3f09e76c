"""``hanasim cards GAME``: what each card is worth to each seat (:mod:`.worth`), and with
``--list`` the game's deck in the card notation every command reads (:mod:`hanasim.notation`);
printing only."""
from __future__ import annotations

import sys

from .common import emit


def register(sub) -> None:
    from . import worth

    p = sub.add_parser(
        "cards", help="what each card is worth to each seat when dealt (and on the field); "
        "--list: the cards in the notation --given and --where read",
        description=worth.DESCRIPTION + " With --list: every card of the game's deck with its "
        "short code (what --given, --where and 'exact --given' read), the card in words, its "
        "month (suit, number), kind and other accepted names; codes are read "
        "case-insensitively.")
    worth.add_options(p)  # the game argument, the run's options, --format
    add_list_option(p)
    p.set_defaults(handler=cmd_cards)


def add_list_option(p) -> None:
    """--list (the game argument and --format are the command's)."""
    p.add_argument("--list", action="store_true",
                   help="list every card with its code (the card notation) instead of valuing "
                   "them (with --format csv: as CSV)")


def list_cards(game):
    """The deck of ``game`` as a table: code, card, month (suit, number), kind, also."""
    from ..notation import cards_table

    return cards_table(game)


def print_list(game, fmt="table") -> None:
    from ..games import get_game
    from ..notation import __doc__ as doc, for_game

    g = get_game(game)
    df = list_cards(g.name)
    if fmt == "csv":
        emit(lambda: df.to_csv(sys.stdout, index=False))
        return
    n = for_game(g)

    def show():
        print(f"{g.title}: the {n.deck.name} deck, {n.deck.n} cards. Write a card by its code "
              f"(any case), e.g. {n.example}.")
        print(df.to_string(index=False))
        print(_rule_of(n.family, doc).replace("``", "'"))

    emit(show)


def _rule_of(family, doc) -> str:
    """The notation's paragraph for one deck family (from :mod:`hanasim.notation`)."""
    paras = [" ".join(p.split()) for p in doc.split("\n\n")]
    key = {"hanafuda": "Hanafuda (", "taipa": "Taipa's deck", "mekurifuda": "Mekurifuda"}[family]
    main = next((p for p in paras if p.startswith(key)), "")
    # the mekurifuda deck has no copies: the paragraph on them would only puzzle
    copies = "" if family == "mekurifuda" else next(
        (p for p in paras if p.startswith("Cards a game cannot tell apart")), "")
    return "\n".join(x for x in (main, copies) if x)


def cmd_list(a) -> int:
    """``--list``: print the deck in the notation."""
    if a.format == "parquet":
        raise ValueError("--list prints a table or csv: --format table or csv")
    print_list(a.game, a.format or "table")
    return 0


def cmd_cards(a):
    if a.list:
        return cmd_list(a)
    from . import worth

    return worth.cmd_values(a)
