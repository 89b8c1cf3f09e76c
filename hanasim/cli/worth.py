"""What each card is worth, as ``hanasim cards GAME`` prints it (the work is
:func:`hanasim.card_values`): the command's options, its handler and its printing.

    hanasim cards toppa --rounds 200000 --seed 1 --policy greedy
    hanasim cards toppa --vs-rule five_brights=40 --chart change.png
"""
from __future__ import annotations

import sys

from .common import (add_out_options, add_play_options, add_threads_option, changed_rules, check_output, emit, print_notes,
                     with_players, write_chart, write_out)

DEFAULT_ROUNDS = 200_000  # hanasim.worth.DEFAULT_ROUNDS (not imported: --help stays quick)
DESCRIPTION = (
    "For every card and seat: the seat's mean round score in the rounds it was dealt the card, "
    "less its mean round score in all rounds, in the game's unit, with a 99.9% interval; the "
    "same for the cards dealt to the field where the game has one. One run; printed as a tidy "
    "table after a sentence naming the most and least valuable cards of the dealer (or of "
    "--seat; --dealt-to field: as field cards), saying when their intervals hold 0. --vs-rule "
    "compares a second rule set (the first one's rules with these changed) on the same random seed, "
    "the change of each card's value. Example: hanasim cards toppa --policy greedy --vs-rule "
    "five_brights=40.")


#: players who play each round where more are seated (the games' join/drop phase: Kushiro
#: Toppa "only 2 people participate in a round", Taoshi and Ishikari Toppa three)
ACTIVE = {"kushiro_toppa": 2, "taoshi": 3, "ishikari_toppa": 3}


def add_options(p) -> None:
    """The options of the card-values view (``game`` included)."""
    add_play_options(p, DEFAULT_ROUNDS, "played rounds")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="house rule option, repeatable (see 'hanasim rules GAME')")
    p.add_argument("--vs-rule", action="append", default=[], metavar="NAME=VALUE",
                   help="compare with these rules changed (repeatable): prints the change of "
                   "each card's value")
    p.add_argument("--vs-preset", default=None, metavar="NAME",
                   help="compare with this preset (and the --rule options on top of it)")
    p.add_argument("--seat", default=None, metavar="SEAT",
                   help="print only this seat's rows (dealer, opponent, right, seat1 ...)")
    p.add_argument("--dealt-to", dest="dealt_to", choices=("hand", "field", "both"), default="both",
                   help="print the cards dealt to the seat (hand), to the field, or both "
                   "(default)")
    p.add_argument("--chart", default=None, metavar="PATH",
                   help="draw the deck as a grid coloured by each card's value to --seat (default "
                   "the dealer), dealt to it (--dealt-to field: to the field), into PATH (.png, .svg)")
    add_out_options(p, "the tidy table (every row, whatever --seat and --dealt-to say)")
    add_threads_option(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def cmd_values(a):
    from .. import outputs, rules
    from ..worth import card_values, seats

    # everything is checked before the work: a bad output must not cost a finished run
    given = with_players(rules.parse_assignments(a.rule), a.players)
    vs = rules.parse_assignments(a.vs_rule) if a.vs_rule else None
    if a.seat is not None:
        there = seats(a.game, given, a.preset)
        a.seat = _seat_token(a.game, given, a.preset, a.seat, there)
    chart = None if a.chart is None else outputs.chart_format(a.chart)
    fmt = check_output(a, None, others={"--chart": a.chart})
    df = card_values(a.game, rounds=a.rounds, seed=a.seed, policy=a.policy, expose=a.expose,
                     rules=given, preset=a.preset, vs_rules=vs, vs_preset=a.vs_preset,
                     threads=a.threads, progress=not a.no_progress and sys.stderr.isatty())
    shown = _shown(df, a.seat, a.dealt_to)
    rc = 0
    if a.out is not None:
        rc = write_out(df, a, fmt, None)
    if a.format == "csv" and a.out is None:
        emit(lambda: shown.to_csv(sys.stdout, index=False))
    elif a.format in (None, "table") and not outputs.is_stdout(a.out):
        emit(lambda: print_cards(df, shown, seat=a.seat, dealt_to=a.dealt_to))
    if chart:
        where = "field" if a.dealt_to == "field" else "hand"
        rc = write_chart(a.chart, chart, lambda: _figure(df, a.seat, where),
                         force=a.force) or rc
    return rc


def _seat_token(game, rules, preset, word, there) -> str:
    """The table's token for a seat word (:func:`hanasim.worth.seat_token`)."""
    from ..worth import seat_token

    return seat_token(game, word, there, rules=rules, preset=preset)


def _shown(df, seat, where):
    rows = df
    if seat is not None:
        seats = list(dict.fromkeys(df["seat"]))
        if seat not in seats:
            raise ValueError(f"--seat {seat!r} is not a seat of this table; seats: "
                             f"{', '.join(seats)}")
        rows = rows[rows["seat"] == seat]
    if where != "both":
        if where not in set(df["dealt_to"]):
            raise ValueError(f"{df.attrs.get('game')} deals no field: --dealt-to field has no rows")
        rows = rows[rows["dealt_to"] == where]
    return rows


def _figure(df, seat, where):
    from .. import plot

    fig, axes = plot.new_figure(11, 5)
    plot.card_values(df, seat=seat, dealt_to=where, ax=axes[0, 0])
    return fig


def _num(v, signed=True):
    import math

    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    return f"{v:+.2f}" if signed else f"{v:.2f}"


def _rules_words(game, rules) -> str:
    changed = changed_rules(game, rules)
    return "the defaults" if changed == "default" else f"{changed} (the rest default)"


def print_cards(df, shown, out=None, seat=None, dealt_to="both"):
    from ..readable import columns_text

    out = sys.stdout if out is None else out
    m = df.attrs
    vs = m.get("vs")
    print(f"{m.get('game')}: {m.get('rounds'):,} rounds, seed {m.get('seed')}, policies "
          f"{m.get('policies')}, {m.get('wall_time_s')} s"
          + (f" (and {vs.get('wall_time_s')} s)" if vs else ""), file=out)
    game = m.get("game")
    print(f"rules: {_rules_words(game, m.get('rules'))}", file=out)
    if vs:
        print(f"against: {_rules_words(game, vs.get('rules'))}", file=out)
    print_notes(m, out)
    unit = m.get("unit", "points")
    if vs:
        from ..stats.card_values import change_headline

        print(change_headline(df, seat, "field" if dealt_to == "field" else "hand"), file=out)
        cols = dict(dealt_to="dealt to", seat="seat", code="code", card="card", month="month", kind="kind",
                    value_a="value", value_b="value vs", difference="change",
                    ci_low="low", ci_high="high")
    else:
        from ..stats.card_values import headline

        # the headline is about the seat printed (--seat), else the dealer's
        print(headline(df, seat, "field") if dealt_to == "field" else
              headline(df, seat) if seat is not None else m.get("headline", ""), file=out)
        cols = dict(dealt_to="dealt to", seat="seat", code="code", card="card", month="month", kind="kind",
                    share="share dealt", value="value", ci_low="low", ci_high="high", n="n")
    print(f"value: the seat's mean round score when dealt the card less its mean, in {unit} "
          "a round; low, high: 99.9% interval", file=out)
    from ..stats.card_values import copies_pooled

    active = ACTIVE.get(game)
    if active and int(m.get("players") or 0) > active:
        print(f"every seat is dealt a hand and {active} of them play each round: a seat that "
              "sits a round out scores 0 in it, and that 0 counts in its means", file=out)
    if copies_pooled(df):
        print("Taipa's copies of a card (1b1-1b4 the four pine cranes ...) are the same card to "
              "the rules: their rows differ by chance and by which copy the simulation takes "
              "out of play after a yaku; the headline and the chart pool them", file=out)
    t = shown[list(cols)].rename(columns=cols).copy()
    for c in t.columns:
        if c == "share dealt":
            t[c] = [f"{100 * v:.1f}%" for v in t[c]]
        elif c == "n":
            t[c] = [f"{int(v):,}" for v in t[c]]
        elif c in ("value", "value vs", "change", "low", "high"):
            t[c] = [_num(v) for v in t[c]]
    print(columns_text(t), file=out)
