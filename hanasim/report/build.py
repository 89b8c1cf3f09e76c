"""``hanasim report``: simulate, compare with the exact values, chart, and write HTML + Markdown.

Layout of the report folder for ``build_report("toppa", out="reports")``::

    reports/toppa/toppa.html        self-contained (charts embedded as base64 PNG)
    reports/toppa/toppa.md          the same content; charts are the PNG files below
    reports/toppa/toppa-files/toppa-teyaku.png, toppa-dekiyaku.png, toppa-edges.png,
                              toppa-distribution.png       (PNG at twice screen resolution)
    reports/toppa/toppa-files/toppa-table.csv      the tidy table, for reuse
    reports/toppa/hanasim-report.json              what the folder holds (seed, command...)

``build_report("all")`` writes ``reports/all/`` (``all.html``, ``all.md``, ``all-files/``) with
one section per game.  The folder is written whole or not at all: a new report replaces an
older one in one step (:mod:`.folder`).
"""
from __future__ import annotations

import datetime as _dt
import shlex

import pandas as pd

from ..plot import exact_values as _exact_values
from .render import Bullets, Code, Heading, Image, Para, Table, to_html, to_markdown

#: Section headings of each game's part of a report (after "<Game title>: ").
SECTIONS = ("findings", "summary quantities", "exact vs simulated deal odds", "charts",
            "rules and options", "provenance")


def fmt(v) -> str:
    """A number for a table: 4 significant digits, whole numbers with thousands separators."""
    if v is None or (isinstance(v, float) and v != v):
        return ""
    if isinstance(v, (bool,)):
        return "yes" if v else "no"
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    if f != f or f in (float("inf"), float("-inf")):
        return str(f)
    if f == int(f) and abs(f) < 1e15 and not isinstance(v, float):
        return f"{int(f):,}"
    if f == 0:
        return "0"
    from ..readable import number

    return number(f)  # 4 significant digits, never e-notation (0.0000108, not 1.08e-05)


def _pm(row) -> str:
    return f"{fmt(row.estimate)} (99.9% CI {fmt(row.ci_low)} to {fmt(row.ci_high)})"


def _signed(row) -> str:
    return (f"{row.estimate:+.2f} (99.9% CI {row.ci_low:+.2f} to {row.ci_high:+.2f})")


def _who(quantity: str, g, players) -> str:
    """The seat a per-seat quantity is about, as the game's reading names it."""
    from ..stats.labels import label_of

    return label_of(quantity, g, players).split(":")[0]


def _reproduce(game_arg, rounds, seed, policy, rules, preset=None, cond=None,
               fixed_dealer=False) -> str:
    parts = ["hanasim", "report", game_arg, "--rounds", str(rounds), "--seed", str(seed)]
    if policy != "random":
        parts += ["--policy", policy]
    if fixed_dealer:
        parts += ["--fixed-dealer"]
    if preset:
        parts += ["--preset", preset]
    for k, v in rules.items():
        parts += ["--rule", f"{k}={v}"]
    if cond:  # the condition as parsed: the cards in the notation's own codes
        if cond.given:
            parts += [x for spec in cond.given.text().split() for x in ("--given", spec)]
        if cond.where:
            parts += [x for t in cond.where.texts for x in ("--where", t)]
    return " ".join(shlex.quote(p) for p in parts)


def _python_calls(games, rounds, seed, policy, rules, preset=None, cond=None,
                  fixed_dealer=False, exacts=None) -> str:
    """The report's "same tables from Python": ``exacts`` ``{game: (table, given, why)}`` of
    :func:`_exact` says with which given cards each exact call ran (or why none)."""
    args = [f"rounds={rounds:_}", f"seed={seed}"]
    if policy != "random":
        args.append(f"policy={policy!r}")
    if fixed_dealer:
        args.append("fixed_dealer=True")
    if rules:
        args.append(f"rules={dict(rules)!r}")
    exact_args = f", rules={dict(rules)!r}" if rules else ""
    if preset:
        args.append(f"preset={preset!r}")
        exact_args += f", preset={preset!r}"
    if cond and cond.given:
        args.append(f"given={cond.given.text().split()!r}")
    if cond and cond.where:
        args.append(f"where={list(cond.where.texts)!r}")
    lines = ["import hanasim", ""]
    for g in games:
        lines.append(f"{g} = hanasim.simulate({g!r}, {', '.join(args)})")
        _, given, why = (exacts or {}).get(g, (None, None, ""))
        if why:  # the exact call the report made: none
            lines.append(f"# no exact odds beside it: {why}")
        else:
            lines.append(f"{g}_exact = hanasim.exact({g!r}{exact_args}"
                         + (f", given={given!r}" if given else "")
                         + ")  # exact deal-time odds")
        lines.append(f"{g}_rules = hanasim.rules_table({g!r}"
                     + (f", preset={preset!r})" if preset else ")"))
    return "\n".join(lines)


#: what each policy does, in a sentence a reader who never ran the tool follows
POLICY_TEXT = {
    "random": "plays every card and chooses every capture uniformly at random",
    "greedy": "always takes the capture worth the most points and yaku progress now",
}


def policy_text(meta, policy: str) -> str:
    """What every player playing ``policy`` does: the game's own words (its reading's), else
    the common ones."""
    from ..games import get_game
    from ..reading import reading_of

    try:
        own = reading_of(get_game(meta.get("game"))).policy_text(policy)
    except (ValueError, TypeError):
        own = None
    return own or POLICY_TEXT.get(policy, f"plays {policy}")


def policy_finding(df: pd.DataFrame) -> tuple[str, bool]:
    """(the sentence saying which play the numbers assume, whether the pairing is lopsided)."""
    pols = [p.strip() for p in str(df.attrs.get("policies", "random")).split(",")]
    fixed = df.attrs.get("dealing") == "fixed"
    if len(set(pols)) == 1:
        p = pols[0]
        return (f"These numbers assume that every player {policy_text(df.attrs, p)} "
                f"(policy '{p}'): they measure the rules under that play, not under expert "
                "play.", False)
    who = ", ".join(f"player {i + 1} '{p}'" for i, p in enumerate(pols))
    seats = ("player 1 deals every round, so the seat numbers are the pairing's"
             if fixed else "the players take turns to deal, so every seat's numbers mix the "
             "rules' edge with the gap in skill")
    return (f"Lopsided pairing: the players do not play alike ({who}); {seats}. Read the "
            "player rows for who gains from better play, and a run with one policy for all "
            "for the rules alone.", True)


def _pct(x) -> str:
    return f"{100 * float(x):.2f}%" if abs(float(x)) >= 0.001 else f"{100 * float(x):.3g}%"


def findings(df: pd.DataFrame, exact_df: pd.DataFrame | None = None, g=None) -> list[str]:
    """Plain sentences a player cares about, from whatever quantities the game measures:
    display names, percentages (the exact fractions are in the report's table), fairness
    judged by the fair par's interval against the par played.

    ``df``: a :func:`hanasim.simulate` table; ``exact_df``: :func:`hanasim.exact` of the same
    game and rules (optional); ``g``: the game (name or object; default ``df.attrs["game"]``).
    """
    from ..games import get_game
    from ..reading import reading_of, rules_dict, verdict as _verdict
    from ..rules import parse_rules_string
    from ..stats.labels import display, seat_label
    from ..stats.table import players_of

    if g is None or isinstance(g, str):
        g = get_game(g or df.attrs.get("game") or df["game"].iloc[0])
    rd = reading_of(g)
    players = players_of(df.attrs)
    by = df.set_index("quantity")
    # a quantity that means nothing under these rules (koi-koi's field multiplier rows when
    # the multiplier is off) gets no sentence
    run_rules = rules_dict(df)
    by = by[[rd.applies(q, run_rules) for q in by.index]]
    exact = _exact_values(exact_df)
    policy, lopsided = policy_finding(df)
    out = [policy]  # first: every number below assumes it
    out += [f"Note: {n}." for n in df.attrs.get("notes") or ()]

    def row(q):
        return by.loc[q] if q in by.index else None

    r = row("misdeal_rate")
    if r is not None:
        text = f"Misdeals: {_pct(r.estimate)} of deals are redealt"
        if "misdeal_rate" in exact:
            text += f" (exact: {_pct(exact['misdeal_rate']['value'])})"
        out.append(text + ".")
    r = row("teyaku.any")
    if r is not None:
        text = (f"Teyaku: a dealt hand holds at least one teyaku {_pct(r.estimate)} of the time "
                f"(99.9% CI {_pct(r.ci_low)} to {_pct(r.ci_high)})")
        if "teyaku.any" in exact:
            text += f"; the exact value is {_pct(exact['teyaku.any']['value'])}"
        out.append(text + ".")
    ex_rows = [(q, e) for q, e in exact.items() if q in by.index and q != "misdeal_rate"]
    if ex_rows:
        outside = [display(q.split(".", 1)[1]) for q, e in ex_rows
                   if not by.loc[q, "ci_low"] <= float(e["value"]) <= by.loc[q, "ci_high"]]
        out.append(f"Check against combinatorics: {len(ex_rows) - len(outside)} of "
                   f"{len(ex_rows)} exact {getattr(g, 'exact_words', 'teyaku')} probabilities "
                   "lie inside the simulated 99.9% "
                   "intervals" + (f" (outside: {', '.join(outside)})" if outside else "") + ".")
    # the game's reading (hanasim.reading) says what its edge is, in what unit, against what
    r = row(rd.edge_quantity)
    if r is not None:
        verdict = _verdict(r, rd.edge_who, rd.edge_line(by))
        if rd.edge_metric == "mean_net":  # coins won minus lost: the opponent loses as much
            out.append(f"{rd.edge_title}: {rd.edge_who} wins {_signed(r)} {rd.unit} a round "
                       f"net on average (the opponent loses as much): {verdict}.")
        elif rd.edge_metric == "mean_advantage":
            # why a score less the opponent's, by the scoring played (koi-koi's winner-only
            # scores are never negative; under zero_sum the loser pays and the own score is fair)
            own = row(rd.edge_quantity.replace("mean_advantage", "mean_score"))
            if rd.never_negative(run_rules):
                why = ("only the player who collects scores, so a seat's own mean score is "
                       "never negative")
            elif own is not None:
                why = (f"the loser pays what the winner scores, so a seat's own mean score can "
                       f"be negative: {rd.edge_who}'s is {_signed(own)}")
            else:
                why = "the loser pays what the winner scores"
            out.append(f"{rd.edge_title}: {rd.edge_who} scores {_signed(r)} {rd.unit} a round "
                       f"more than the opponent on average ({why}): {verdict}.")
        else:
            verb = "scores" if rd.unit == "points" else "wins"
            ref = rd.edge_line(by)
            if abs(ref) > 1e-9:  # not zero-sum (Bakappana's additive scoring): say against what
                n = len(rd.seat_quantities(rd.edge_metric, by.index)) or len(rd.seats)
                words = rd.reference(rd.edge_metric, by, n)[1]
                out.append(f"{rd.edge_title}: {rd.edge_who} {verb} {r.estimate:.2f} (99.9% CI "
                           f"{r.ci_low:.2f} to {r.ci_high:.2f}) {rd.unit} a round on average, "
                           f"against {words}: {verdict}.")
            else:
                out.append(f"{rd.edge_title}: {rd.edge_who} {verb} {_signed(r)} {rd.unit} a "
                           f"round on average: {verdict}.")
    seats = [q for _, q in rd.seat_quantities(rd.edge_metric, by.index)]
    if len(seats) > 1:
        parts = [f"{_who(q, g, players).lower()} {by.loc[q, 'estimate']:+.2f}" for q in seats]
        what = {"mean_advantage": "Mean score less the opponent's",
                "mean_net": "Mean coins won (net)"}.get(rd.edge_metric, f"Mean {rd.unit} won"
                                                        if rd.unit != "points" else "Mean score")
        out.append(f"{what} per round, {rd.seat_words}: " + ", ".join(parts) + ".")
    out += who_plays(by, g, players)
    default_par = getattr(g, "par", None)
    pars = parse_rules_string(df.attrs.get("rules", "")).get("par")
    seat_names = list(getattr(g, "seats", ()))
    par_of = {}
    if seat_names:
        values = [float(v) for v in str(pars).split(",")] if pars else [default_par]
        values = values * len(seat_names) if len(values) == 1 else values
        par_of = dict(zip(seat_names, values))
    for q in [q for q in by.index if q.startswith("fair_par.")]:
        who = q.split(".", 1)[1]
        fair = by.loc[q]
        par = par_of.get(who, default_par)
        name = seat_label(who)
        text = (f"Par ({name}): the par that makes this seat's mean score zero is "
                f"{fair.estimate:.1f} (99.9% CI {fair.ci_low:.1f} to {fair.ci_high:.1f})")
        if par is not None:
            if fair.ci_low <= par <= fair.ci_high:
                text += f"; the par of {par:g} lies inside it: fair for this seat at this many rounds"
            else:
                side = "too high" if par > fair.ci_high else "too low"
                text += (f"; the par of {par:g} lies outside it ({side} for this seat): not fair "
                         "for this seat")
        pts = row(f"card_points.{who}")
        if pts is not None:
            text += (f". Before the yaku settlement the seat captures {pts.estimate:.1f} card "
                     "points on average")
        out.append(text + ".")
    dek = by[by.index.str.startswith("dekiyaku.") & (by.index != "dekiyaku.any")]
    if not dek.empty:
        top = dek["estimate"].sort_values(ascending=False).head(3)
        out.append("Most frequent dekiyaku: " + ", ".join(
            f"{display(q.split('.', 1)[1])} ({_pct(v)} of {rd.dekiyaku_of})"
            for q, v in top.items()) + ".")
    for seat in seat_names[:1]:
        qs = {k: row(f"round_score.{seat}.{k}") for k in ("q05", "q25", "q50", "q75", "q95")}
        if all(v is not None for v in qs.values()):
            plays = row(f"seat.{seat}.play_rate")
            out_share = "" if plays is None or not rd.sits_out_as_zero or plays.estimate >= 1 \
                else (f" (counting as 0 the {1 - plays.estimate:.1%} of rounds the seat sits "
                      "out; the chart draws the rounds it plays)")
            out.append(f"How swingy a round is ({seat_label(seat).lower()}): the median score is "
                       f"{qs['q50'].estimate:+g}; half the rounds end between "
                       f"{qs['q25'].estimate:+g} and {qs['q75'].estimate:+g}, nine in ten "
                       f"between {qs['q05'].estimate:+g} and {qs['q95'].estimate:+g}"
                       f"{out_share}.")
    game_findings = getattr(g, "findings", None)  # a game's own questions (koi-koi: koi-koi calls)
    if game_findings is not None:
        out += game_findings(by)
    r = row("settlement.uncovered_rate")
    if r is not None:
        out.append(f"Settlement: in {_pct(r.estimate)} of rounds the yaku payment cannot be "
                   "covered with captured cards and is settled in points.")
    return out


def who_plays(by: pd.DataFrame, g, players) -> list[str]:
    """With more seated than play (Kushiro Toppa's join/drop, Taoshi with 4-6): the share of
    rounds each table seat plays, the game's own question "who joins?"."""
    rows = [q for q in by.index if q.endswith(".play_rate") and not q.startswith("player")
            and "first_player" not in q]
    if len(rows) < 3 or not (by.loc[rows, "estimate"] < 0.999).any():
        return []
    active = int(round(float(by.loc[rows, "estimate"].sum())))
    parts = [f"{_who(q, g, players).lower()} {_pct(by.loc[q, 'estimate'])}" for q in rows]
    return [f"Who plays, by table seat ({len(rows)} seated, {active} play each round): "
            + ", ".join(parts) + " of rounds; the others sit the round out."]


def _summary_table(df):
    t = pd.DataFrame({
        "quantity": df["label"] if "label" in df.columns else df["quantity"],
        "code": df["quantity"],
        "estimate": df["estimate"].map(fmt),
        "std error": df["std_error"].map(fmt),
        "99.9% CI low": df["ci_low"].map(fmt),
        "99.9% CI high": df["ci_high"].map(fmt),
        "n": df["n"].map(fmt),
    })
    return t


def _exact_note(cmp) -> str:
    """What the exact rows are conditioned on: a game without teyaku (Bakappana) has only
    the misdeal, and no sentence about teyaku."""
    if cmp is not None and not cmp.empty and \
            cmp["quantity"].astype(str).str.startswith("teyaku.").any():
        return ("Teyaku are counted in played rounds, so the exact value is conditioned on no "
                "misdeal; the misdeal rate is over all deals.")
    return "The misdeal rate is over all deals (the only deal-time quantity under these rules)."


def exact_comparison(df: pd.DataFrame, exact_df: pd.DataFrame) -> pd.DataFrame:
    """One row per exact quantity the simulation also measures: exact fraction and value,
    the simulated estimate and interval, z-score and whether the exact value is inside."""
    exact = _exact_values(exact_df)
    by = df.set_index("quantity")
    rows = []
    for q, e in exact.items():
        if q not in by.index:
            continue
        s = by.loc[q]
        value = float(e["value"])
        z = (s.estimate - value) / s.std_error if s.std_error > 0 else float("nan")
        rows.append(dict(quantity=q, condition=e["condition"], exact_fraction=str(e["fraction"]),
                         exact=value, simulated=s.estimate, ci_low=s.ci_low, ci_high=s.ci_high,
                         z=z, inside=bool(s.ci_low <= value <= s.ci_high)))
    return pd.DataFrame(rows, columns=["quantity", "condition", "exact_fraction", "exact",
                                       "simulated", "ci_low", "ci_high", "z", "inside"])


def _exact_table(cmp):
    return pd.DataFrame({
        "quantity": cmp["quantity"],
        "condition": cmp["condition"],
        "exact (fraction)": cmp["exact_fraction"],
        "exact": cmp["exact"].map(fmt),
        "simulated": cmp["simulated"].map(fmt),
        "99.9% CI low": cmp["ci_low"].map(fmt),
        "99.9% CI high": cmp["ci_high"].map(fmt),
        "z": cmp["z"].map(lambda v: f"{v:+.2f}" if v == v else ""),
        "exact inside CI": cmp["inside"].map(lambda v: "yes" if v else "NO"),
    })


def _rules_table(rt: pd.DataFrame, used: str) -> pd.DataFrame:
    from ..rules import parse_rules_string

    values = parse_rules_string(used)
    return pd.DataFrame({
        "option": rt["option"],
        "used": [values.get(o, "") + ("" if values.get(o, "") == str(d) else " (changed)")
                 for o, d in zip(rt["option"], rt["default"])],
        "default": rt["default"].map(str),
        "allowed": rt["allowed"],
        "the rule texts' values": rt["readings"] if "readings" in rt.columns else "",
        "description": rt["description"],
    })


def _provenance_table(attrs: dict, generated: str) -> pd.DataFrame:
    # the histograms behind the quantiles are data, not provenance (they are in the saved run)
    items = [("generated", generated)] + [
        (k, str(v).replace(",", ", ") if k in ("rules", "policies", "expose") else
         ("; ".join(v) or "none") if k == "notes" else v)
        for k, v in attrs.items() if k != "distributions"]
    return pd.DataFrame(items, columns=["key", "value"]).astype(str)


NUMERIC = {"estimate", "std error", "99.9% CI low", "99.9% CI high", "n", "exact", "simulated",
           "z"}


def game_section(game, df, exact_df, rules_df, files_rel: str, no_exact: str = ""):
    """The blocks of one game's section, and the chart PNGs ``{file name: bytes}``.
    ``no_exact``: why no exact odds stand beside the table (a conditioned run's), said in
    place of an empty comparison."""
    from ..games import get_game

    g = get_game(game)
    title = g.title
    blocks = [Heading(2, title, f"{game}"),
              Para(f"{df.attrs.get('rounds', 0):,} simulated rounds, seed {df.attrs.get('seed')}, "
                   f"policies {df.attrs.get('policies')}, "
                   + (f"expose {df.attrs.get('expose')}, " if getattr(g, "expose", True) else "")
                   + f"simulated in {df.attrs.get('wall_time_s')} s. Source: {g.source}.")]
    blocks += [Heading(3, f"{title}: findings", f"{game}-findings"),
               Bullets(findings(df, exact_df, g))]
    blocks += [Heading(3, f"{title}: summary quantities", f"{game}-summary-quantities"),
               Para("Estimates with standard errors and 99.9% intervals (Wilson for "
                    "proportions, t for means, chi-square for the standard deviation)."),
               Table(_summary_table(df), f"{title}: every quantity the simulation measures",
                     f"{game}-summary-table", NUMERIC)]
    cmp = exact_comparison(df, exact_df)
    blocks.append(Heading(3, f"{title}: exact vs simulated deal odds", f"{game}-exact-teyaku"))
    if cmp.empty:  # nothing to set side by side: say why rather than draw an empty table
        blocks.append(Para("No exact probabilities stand beside these estimates: "
                           + (no_exact or "the exact odds measure none of this run's "
                              "quantities") + "."))
    else:
        blocks += [Para("Exact probabilities from combinatorics (`hanasim.exact`) next to the "
                        "simulated estimates. " + getattr(g, "exact_note", _exact_note(cmp))
                        + " z is (simulated - exact) / standard error."),
                   Table(_exact_table(cmp), f"{title}: exact vs simulated",
                         f"{game}-exact-table", NUMERIC)]
    blocks.append(Heading(3, f"{title}: charts", f"{game}-charts"))
    pngs = {}
    from .charts import charts_for  # matplotlib: not for a command that only reads policy_text

    for chart in charts_for(df, exact_df, title, g.n_players):
        name = f"{game}-{chart.name}.png"
        png = chart.png()
        pngs[name] = png
        blocks.append(Image(f"{files_rel}/{name}", f"{title}: {chart.title}",
                            f"{chart.title}. {chart.caption}", png, f"{game}-chart-{chart.name}"))
    blocks += [Heading(3, f"{title}: rules and options", f"{game}-rules-and-options"),
               Para(f"The house-rule options of {title} (`hanasim rules {game}`); 'used' is the "
                    "value this report ran with."),
               Table(_rules_table(rules_df, df.attrs.get("rules", "")),
                     f"{title}: rules used", f"{game}-rules-table")]
    generated = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    blocks += [Heading(3, f"{title}: provenance", f"{game}-provenance"),
               Para(f"The run's metadata (`df.attrs`); the full table is in "
                    f"`{files_rel}/{game}-table.csv`."),
               Table(_provenance_table(df.attrs, generated), f"{title}: provenance",
                     f"{game}-provenance-table")]
    return blocks, pngs


SKILLS = ("random", "greedy", "lookahead:16")


def skill_section(game, rounds, seed, rules, preset, threads, files_rel):
    """"Does skill change the answer?" for a game the lookahead policy plays: a tournament of
    random, greedy and lookahead:16 on the same deals, the game's key quantities (its
    reading's headline) with every seat greedy against every seat lookahead, and one plain
    sentence with the answer.  Lookahead is about a thousand times slower than greedy (a few
    thousand rounds a second a thread), so it runs ``rounds // 100`` rounds (at least 1,000)
    a pairing: 10,000 for the default million."""
    from .. import api, plot
    from ..games import get_game
    from ..reading import reading_of
    from ..tournament import pairing_table, tournament

    g = get_game(game)
    rd = reading_of(g)
    look_rounds = max(1_000, rounds // 100)
    t = tournament(game, list(SKILLS), rounds=look_rounds, seed=seed, rules=rules or None,
                   preset=preset, threads=threads)
    pairs = pairing_table(t)
    by_skill = {}
    for skill in ("greedy", "lookahead:16"):
        df = api.simulate(game, rounds=look_rounds, seed=seed, rules=rules or None,
                          preset=preset, threads=threads, policy=skill)  # every seat
        by_skill[skill] = df.set_index("quantity")
    rows = key_rows(rd, by_skill)
    n = len(pairs)
    fig, axes = plot.new_figure(9, 0.45 * n + 2.2)
    plot.tournament(t, ax=axes[0, 0])
    name = f"{game}-skill.png"
    png = plot.figure_bytes(fig, "png")
    title = g.title
    pairing_words = pairings_played(t)
    deals = ("on the same deals" if t.attrs.get("same_deals", True) else
             "from the same seed (a game of several rounds deals its later rounds from the "
             "random stream its play draws from, so the pairings share only its first deal)")
    blocks = [Heading(3, f"{title}: does skill change the answer?", f"{game}-skill"),
              Para(f"Random, greedy and lookahead:16 play (`hanasim rules {game}` and the "
                   f"README's Policies say how): {pairing_words} {deals}, "
                   f"{look_rounds:,} rounds a pairing; player 1 plays the first policy, every "
                   f"other seat the second. Then the key quantities with every seat greedy and "
                   f"every seat lookahead:16 ({look_rounds:,} rounds each)."),
              Table(pairs, f"{title}: who beats whom, by pairing", f"{game}-skill-table"),
              Image(f"{files_rel}/{name}", f"{title}: tournament",
                    "Player 1's strength per pairing, 99.9% intervals; red: significant.",
                    png, f"{game}-chart-skill"),
              Table(pd.DataFrame(rows, columns=["every seat plays", "quantity", "estimate",
                                                "99.9% interval"]),
                    f"{title}: key quantities by skill", f"{game}-skill-keys"),
              Para(skill_answer(rd, by_skill, pairs))]
    return blocks, {name: png}, t


def pairings_played(t: pd.DataFrame) -> str:
    """How the tournament ``t`` paired the policies, from the players it seated (Kushiro Toppa
    seats two by default, though up to four may sit at its table)."""
    return ("each pairing once (with two players the mirror pairing adds nothing)"
            if t.attrs.get("players") == 2 else "every ordered pairing")


def key_rows(rd, by_skill: dict) -> list[dict]:
    """The "key quantities by skill" rows: the game's headline quantities (its reading, up to
    four) for every skill, as printed."""
    from ..readable import is_share, number

    from ..reading import rules_dict

    rows = []
    for skill, d in by_skill.items():
        # the lines true under the rules played (Bakappana's additive lines are not its
        # zero-sum ones), each quantity once
        lines = [x for x in rd.lines(rules_dict(d)) if x.quantity in d.index]
        seen = set()
        lines = [x for x in lines if not (x.quantity in seen or seen.add(x.quantity))]
        for line in lines[:4]:
            r = d.loc[line.quantity]
            share = is_share(line.quantity)
            rows.append({"every seat plays": skill,
                         "quantity": d.loc[line.quantity, "label"] if "label" in d.columns
                         else line.quantity,
                         "estimate": number(r.estimate, share),
                         "99.9% interval": f"{number(r.ci_low, share)} to "
                                           f"{number(r.ci_high, share)}"})
    return rows


def skill_answer(rd, by_skill: dict, pairs: pd.DataFrame) -> str:
    """One plain sentence: does the game's edge change from greedy to lookahead play, and
    does lookahead beat greedy?"""
    q = rd.edge_quantity
    a, b = (by_skill.get(k) for k in ("greedy", "lookahead:16"))
    if a is None or b is None or q not in a.index or q not in b.index:
        return "The answer: this table has no edge quantity to compare."
    from ..reading import value_text

    ra, rb = a.loc[q], b.loc[q]
    from ..reading import rules_dict

    line = next((x for x in rd.lines(rules_dict(a)) if x.quantity == q), None)
    kind = line.kind if line else "signed"
    said = (line.text.format(value=value_text(ra, kind), unit=rd.unit) if line else
            f"{a.loc[q, 'label'] if 'label' in a.columns else q} is {value_text(ra, kind)}")
    overlap = not (ra.ci_high < rb.ci_low or rb.ci_high < ra.ci_low)
    change = ("skill does not detectably change it at this many rounds" if overlap else
              "skill changes the answer")
    both = {"lookahead:16", "greedy"}
    beat = pairs[[{a, b} == both for a, b in zip(pairs["player 1 plays"],
                                                   pairs["every other seat plays"])]]
    beat_text = ""
    if not beat.empty:
        col = [c for c in beat.columns if c.startswith("player 1's") and "win" not in c][0]
        a = beat["player 1 plays"].iloc[0]
        beat_text = (f"; {a} as player 1 against {({*both} - {a}).pop()}: "
                     f"{beat[col].iloc[0]} {rd.unit} a round ({beat['verdict'].iloc[0]})")
    return (f"The answer: with every player greedy, {said[:1].lower() + said[1:]}; with every "
            f"player lookahead:16, {value_text(rb, kind)}: {change}{beat_text}.")


def build_report(game: str = "all", rounds: int = 1_000_000, seed=None, *, policy="random",
                 rules=None, out="reports", progress: bool = False,
                 threads: int | None = None, preset: str | None = None,
                 skill: bool = True, store=None, on_run=None, given=None,
                 where=None, fixed_dealer: bool = False) -> dict:
    """Simulate ``game`` (or every game, ``"all"``) and write the report folder
    ``<out>/<game>/``: ``<game>.html`` and ``<game>.md`` with charts and tables, the charts and
    the table in ``<game>-files/``, and ``hanasim-report.json`` (what the folder holds).
    Return the paths written (``folder``, ``html``, ``markdown``, ``charts``, ``data``,
    ``files_dir``) and the simulated ``tables`` (to save in the results store).  ``skill``: add
    the "does skill change the answer?" section (:func:`skill_section`) for games the lookahead
    policy plays.

    The folder is written whole or not at all (see :mod:`hanasim.report.folder`): checked
    before any simulation (not inside the results ``store``, default the project's), written
    into a hidden folder next to it and swapped in, so a failure (a full disk, Ctrl-C,
    ``kill -9``) leaves the earlier report as it was.  ``on_run``: called with each simulated
    table as soon as it is made (the CLI saves it in the store), so a report that cannot be
    written still keeps its runs.  ``given``, ``where``: the deals are conditioned (as in
    :func:`hanasim.simulate`; one game only), and the report says on what.  ``fixed_dealer``:
    player 1 deals every round (as in :func:`hanasim.simulate`: a per-player policy then
    plays the conditioned seat every round)."""
    from .. import __version__, api
    from .. import rules as _rules
    from ..engine.rng import normalize_seed
    from ..games import available_games, get_game
    from .folder import Staging, check_folder

    game_arg = str(game).strip().lower()
    games = available_games() if game_arg == "all" else [get_game(game_arg).name]
    rounds = api.check_rounds(rounds)
    seed = normalize_seed(api.check_seed(seed))
    rules = dict(rules or {})
    threads = api.check_threads(threads)
    fixed_dealer = api._check_flag(fixed_dealer, "fixed_dealer")
    if preset is not None and game_arg == "all":
        raise ValueError("a preset belongs to one game: give the game (e.g. 'hanasim report "
                         "koikoi --preset modern'), not 'all'")
    if (given or where) and game_arg == "all":
        raise ValueError("given cards and conditions belong to one game's deal: name the game "
                         "(e.g. 'hanasim report toppa --given dealer=11b'), not 'all'")
    cond = None
    for name in games:  # fail on a bad option before simulating anything (or making folders)
        g = get_game(name)
        rule_obj = _rules.make_rules(g.Rules, api._with_preset(g, rules, preset))
        cond = api._condition(g, given, where, [rule_obj])
        _rules.check_inert(rule_obj, api._run(g, rule_obj), rules)  # as simulate will refuse
        # one policy for all players or one per seated player (api.seated), as simulate
        names, _ = api._policies(policy, api.seated(g, rule_obj), g)
    if not isinstance(policy, str):
        policy = ",".join(names)
    stem = game_arg
    folder = check_folder(out, stem, store)  # before the work: a report that cannot be written
    command = _reproduce(game_arg, rounds, seed, policy, rules, preset, cond, fixed_dealer)
    staging = Staging(folder, dict(report=stem, games=games, rounds=rounds, seed=seed,
                                   policy=policy, preset=preset, rules=rules, command=command,
                                   hanasim_version=__version__))
    try:
        paths = _write_report(staging, games, game_arg, rounds, seed, policy, rules, preset,
                              threads, progress, skill, on_run, command, cond, fixed_dealer)
        paths["replaced"] = staging.commit()
    except BaseException:
        staging.discard()  # the earlier report, if any, stays as it was
        raise
    paths.update(folder=str(folder), files_dir=str(folder / f"{stem}-files"),
                 html=str(folder / f"{stem}.html"), markdown=str(folder / f"{stem}.md"),
                 charts=[str(folder / c) for c in paths["charts"]],
                 data=[str(folder / d) for d in paths["data"]])
    return paths


def _rules_of(games, rules, preset):
    from .. import api, rules as _rules
    from ..games import get_game

    g = get_game(games[0])
    return _rules.make_rules(g.Rules, api._with_preset(g, rules, preset))


def _exact(api, name, rules, preset, cond):
    """The exact deal odds beside the table, ``(table, given, why)``: conditioned on the given
    cards where the game's combinatorics take them (``given``: the cards the call passes, or
    None); with ``--where``, or where they do not, the unconditioned odds would mislead, so
    none (an empty table, and ``why`` says so in words a report prints)."""
    import pandas as pd

    empty = pd.DataFrame(columns=["game", "quantity", "condition", "fraction", "value"])
    if cond is None:
        return api.exact(name, rules=rules, preset=preset), None, ""
    if cond.where:
        return empty, None, ("the deals are conditioned with --where, which the exact odds "
                             "do not take (unconditioned odds would not be comparable)")
    given = cond.given.text().split()
    try:
        return api.exact(name, rules=rules, preset=preset, given=given), given, ""
    except ValueError as e:
        return empty, None, f"the exact odds are not computed with these given cards ({e})"


def _write_report(staging, games, game_arg, rounds, seed, policy, rules, preset, threads,
                  progress, skill, on_run, command, cond=None, fixed_dealer=False) -> dict:
    """Simulate and write every file of the report into ``staging`` (paths relative to it)."""
    import numba

    from .. import __version__ as version, api
    from ..games import get_game
    from ..store import table_bytes

    stem = game_arg
    files_rel = f"{stem}-files"
    numba_version = numba.__version__
    # the exact odds first: the Python snippet shows the call that made them
    exacts = {name: _exact(api, name, rules, preset, cond) for name in games}
    title = ("hanasim report: all games" if game_arg == "all"
             else f"hanasim report: {get_game(games[0]).title}")
    generated = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    blocks = [Heading(1, title, "top"),
              Para(f"Generated {generated} by hanasim {version} (numba {numba_version}). "
                   f"{rounds:,} simulated rounds per game, seed {seed}, policy {policy}"
                   + (", player 1 deals every round" if fixed_dealer else "")
                   + (f", preset {preset}" if preset else "")
                   + (", rule options " + ", ".join(f"{k}={v}" for k, v in rules.items())
                      if rules else ", default rule options" if not preset else "")
                   + (f". Every deal is conditioned: {cond.words(_rules_of(games, rules, preset))}"
                      if cond else "")
                   + ". Every interval is 99.9%."),
              Heading(2, "Reproduce", "reproduce"),
              Para(f"This exact command (hanasim {version}) writes this report again with the "
                   "same numbers: the same seed gives the same tables on any machine, thread "
                   "count or chunking."),
              Code(command),
              Para("The same tables from Python:"),
              Code(_python_calls(games, rounds, seed, policy, rules, preset, cond,
                                 fixed_dealer, exacts))]
    paths = dict(charts=[], data=[], tables=[])
    for name in games:
        cargs = {} if cond is None else dict(
            given=cond.given.text().split() if cond.given else None,
            where=list(cond.where.texts) if cond.where else None)
        df = api.simulate(name, rounds=rounds, seed=seed, policy=policy, rules=rules,
                          progress=progress, threads=threads, preset=preset,
                          fixed_dealer=fixed_dealer, **cargs)
        paths["tables"].append(df)
        if on_run is not None:  # kept (saved) before anything can go wrong with the files
            on_run(df)
        exact_df, _, why = exacts[name]
        rules_df = api.rules_table(name)
        section, pngs = game_section(name, df, exact_df, rules_df, files_rel, why)
        if skill and (cond is not None or fixed_dealer):
            # a tournament deals unconditioned, the winner dealing next: leave it out
            section.append(Para("The section on skill (a tournament with the lookahead policy) "
                                "is left out: its deals would not be "
                                + ("conditioned" if cond is not None else "dealt")
                                + " like these."))
        elif skill and getattr(get_game(name), "lookahead", False):
            extra, more, t = skill_section(name, rounds, seed, rules, preset, threads,
                                           files_rel)
            at = next(i for i, b in enumerate(section) if isinstance(b, Heading)
                      and b.anchor == f"{name}-rules-and-options")
            section[at:at] = extra  # a whole section, before the rules and provenance
            pngs.update(more)
            paths["tables"].append(t)  # saved in the store like every run
        blocks += section
        for fname, png in pngs.items():
            staging.put(f"{files_rel}/{fname}", png)
            paths["charts"].append(f"{files_rel}/{fname}")
        csv_rel = f"{files_rel}/{name}-table.csv"
        staging.put(csv_rel, table_bytes(df, "csv"))
        paths["data"].append(csv_rel)
    staging.put(f"{stem}.html", to_html(title, blocks).encode("utf-8"))
    staging.put(f"{stem}.md", to_markdown(blocks).encode("utf-8"))
    paths.update(command=command, seed=seed, games=games)
    return paths
