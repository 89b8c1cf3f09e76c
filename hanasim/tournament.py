"""Policy strength: every pairing of policies on the same deals (``hanasim tournament``).

A pairing ``A vs B`` seats policy A as player 1 and B at every other seat, and runs the game on
the tournament's seed, so every pairing plays the same deals (the first-dealer draws and the
deals come from the same random streams; only the play differs).  The table has one row per
pairing and quantity: player 1's mean score and win rate, each with its standard error and
99.9% interval, as :func:`hanasim.simulate` reports them.  A significantly positive mean score
means A beats B at this game.  Two-player games play each unordered pairing once (the mirror
adds nothing); games of more players every ordered one (:func:`pairings_of`).
"""
from __future__ import annotations

import time
from typing import Mapping

import numpy as np
import pandas as pd

from .games import get_game

#: player 1's strength, by the name each game gives it (the first one present is used): where
#: scores are not zero-sum (koi-koi's winner-only scoring: a score is never negative) it is
#: player 1's score less the opponent's, ``mean_advantage``; elsewhere the score itself
SCORE_NAMES = ("player1.mean_advantage", "player1.mean_score", "player1.mean_net",
               "player1.mean_chips")
WIN_NAME = "player1.win_rate"
#: the table's name for each: what a positive value says is "player 1 beats the opponent"
STRENGTH = {"player1.mean_advantage": "mean_advantage"}
#: how a table, a chart and a report say the strength quantity
STRENGTH_WORDS = {"mean_advantage": "mean score less the opponent's",
                  "mean_score": "mean score"}


def tournament(game: str = "toppa", policies=("random", "greedy", "lookahead"),
               rounds: int = 20_000, seed: int | None = None, *, rules=None,
               preset: str | None = None, expose="always", threads: int | None = None,
               progress: bool | None = None) -> pd.DataFrame:
    """Every pairing (:func:`pairings_of`) of ``policies`` (at least two, each one player's policy, e.g.
    ``"greedy"``, ``"lookahead:16"``) over ``rounds`` rounds of ``game`` on the same deals.

    Returns a tidy table: ``policy`` (player 1), ``opponent`` (every other seat), ``quantity``
    (``mean_score``, or ``mean_advantage`` where scores are not zero-sum (koi-koi: player 1's
    score less the opponent's, which is what decides who is stronger; see
    :func:`strength_quantity`), and ``win_rate``), ``estimate``, ``std_error``, ``ci_low``,
    ``ci_high`` (99.9%), ``n``, ``rounds``, ``seed``; ``df.attrs`` holds the provenance."""
    from . import api

    g = get_game(game)
    if isinstance(policies, str) or not isinstance(policies, (list, tuple)):
        raise TypeError(f"policies must be a list of two or more policy names, got "
                        f"{api._show(policies)}")
    names = [str(p).strip() for p in policies]
    if len(names) < 2:
        raise ValueError("a tournament needs at least two policies (--policy greedy "
                         "--policy lookahead)")
    for p in names:
        if "," in p:
            raise ValueError(f"policy {p!r}: a tournament policy is one player's (no commas)")
    if len(set(names)) < len(names):
        raise ValueError(f"a policy is given twice: {', '.join(names)}")
    rounds = api.check_rounds(rounds)
    seed = api.normalize_seed(api.check_seed(seed))
    if rules is not None and not isinstance(rules, Mapping):
        raise TypeError(f"rules must be a dict of {{option: value}} (e.g. {{'five_brights': "
                        f"40}}), got {api._show(rules)}")
    n = seated(g, rules, preset)
    api._expose(expose, n, g)
    threads = api.check_threads(threads)
    # Every pairing is checked before the first one runs.
    pairings = pairings_of(names, n)
    for a, b in pairings:
        api._policies(",".join([a] + [b] * (n - 1)), n, g)
    from .reading import reading_of

    reading = reading_of(g)
    rows = []
    run_rules = ""
    misdeals = set()
    start = time.perf_counter()
    for a, b in pairings:
        df = api.simulate(game, rounds=rounds, seed=seed, policy=",".join([a] + [b] * (n - 1)),
                          rules=rules, preset=preset, expose=expose, threads=threads,
                          progress=progress)
        run_rules = df.attrs.get("rules", "")
        d = df.set_index("quantity")
        if "misdeal_rate" in d.index:  # a deal's own event: pairings dealt alike agree on it
            misdeals.add(float(d.loc["misdeal_rate", "estimate"]))
        score = next(q for q in SCORE_NAMES if q in d.index)
        for q, name in ((score, STRENGTH.get(score, "mean_score")), (WIN_NAME, "win_rate")):
            r = d.loc[q]
            rows.append(dict(game=g.name, policy=a, opponent=b, quantity=name,
                             estimate=r["estimate"], std_error=r["std_error"], ci_low=r["ci_low"],
                             ci_high=r["ci_high"], n=r["n"],
                             reference=_reference(reading, name, score, d, n)))
    out = pd.DataFrame(rows)
    # beating the opponent is scoring above the fair value (0 where scores are zero-sum; an
    # equal share of the round's points where they are not: Bakappana's additive scoring)
    out["significant"] = (out.ci_low > out.reference) | (out.ci_high < out.reference)
    out.loc[out.quantity == "win_rate", "significant"] = False
    out["rounds"] = rounds
    out["seed"] = np.uint64(seed)  # exact for any seed (an int64 column stops at 2**63)
    out.attrs.update(dict(game=g.name, run_type="tournament", rounds=rounds, seed=seed,
                          policies=" ".join(names), players=n, rules=run_rules,
                          # games of several rounds (Bakappana's 12) deal a game's later
                          # rounds from the stream its play draws from: pairings differ there
                          same_deals=len(misdeals) <= 1,
                          preset=preset or "",
                          wall_time_s=round(time.perf_counter() - start, 3)))
    return out


def _reference(reading, name: str, score: str, d: pd.DataFrame, n: int) -> float:
    """Player 1's fair value of ``name``: the line of the game's reading (0 for a zero-sum
    score or a score less the opponent's; an equal share of the round's score sum where the
    scores do not add up to 0; an equal share of the rounds someone wins for the win rate)."""
    metric = "win_rate" if name == "win_rate" else score.split(".", 1)[1]
    ref, _ = reading.reference(metric, d, n)
    return 0.0 if ref is None else float(ref)


def pairings_of(names, n_players: int) -> list[tuple[str, str]]:
    """The pairings a tournament plays: with two players, one per unordered pair (B vs A is A
    vs B with the seats swapped on the same deals: its mirror adds nothing); with more, every
    ordered pair (one A against several Bs is not one B against several As)."""
    if n_players == 2:
        return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    return [(a, b) for a in names for b in names if a != b]


def seated(g, rules=None, preset=None) -> int:
    """How many players ``g`` seats under ``rules`` (and ``preset``): the policies a run takes."""
    from . import api
    from . import rules as _rules

    rule_obj = _rules.make_rules(g.Rules, {**api._with_preset(g, {}, preset), **(rules or {})})
    return api.seated(g, rule_obj)


def strength_quantity(df: pd.DataFrame) -> str:
    """The quantity of a tournament table that says who beats whom: ``mean_advantage`` where
    the game has it (koi-koi), else ``mean_score``."""
    return "mean_advantage" if (df["quantity"] == "mean_advantage").any() else "mean_score"


def strength_table(df: pd.DataFrame, quantity: str | None = None) -> pd.DataFrame:
    """The tournament as a square table: rows player 1's policy, columns the opponents';
    ``quantity`` by default :func:`strength_quantity`."""
    quantity = quantity or strength_quantity(df)
    sub = df[df.quantity == quantity]
    order = list(dict.fromkeys(list(sub.policy) + list(sub.opponent)))
    return sub.pivot(index="policy", columns="opponent", values="estimate").reindex(
        index=order, columns=order)


def strength_words(df: pd.DataFrame) -> str:
    """How the strength quantity is said, in the game's unit: "mean score less the
    opponent's (points a round)", "mean chips won (chips a round)"..."""
    from .reading import reading_of

    unit = reading_of(get_game(df.attrs.get("game") or df["game"].iloc[0])).unit
    quantity = strength_quantity(df)
    words = STRENGTH_WORDS[quantity] if unit == "points" or quantity != "mean_score" else \
        f"mean {unit} won"
    return f"{words} ({unit} a round)"


def pairing_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per pairing of a tournament table, as a reader wants it: player 1's policy, the
    opponents', the strength (player 1's mean score, or in koi-koi its score less the
    opponent's) and the win rate, each with its 99.9% interval, and who wins it."""
    from .reading import pct

    quantity = strength_quantity(df)
    column = f"player 1's {strength_words(df)}"
    rows = []
    for (a, b), part in df.groupby(["policy", "opponent"], sort=False):
        by = part.set_index("quantity")
        s = by.loc[quantity]
        w = by.loc["win_rate"] if "win_rate" in by.index else None
        ref = _fair(s)
        if s.ci_low > ref:
            verdict = f"{a} beats {b}"
        elif s.ci_high < ref:
            verdict = f"{b} beats {a}"
        else:
            verdict = "no difference detectable"
        rows.append({
            "player 1 plays": a, "every other seat plays": b,
            column: f"{s.estimate:+.2f} [{s.ci_low:+.2f}, {s.ci_high:+.2f}]" if ref == 0 else
                f"{s.estimate:.2f} [{s.ci_low:.2f}, {s.ci_high:.2f}] (fair {ref:.2f})",
            "player 1's win rate": "" if w is None else
                f"{pct(w.estimate)} [{pct(w.ci_low)}, {pct(w.ci_high)}]",
            "verdict": verdict})
    return pd.DataFrame(rows)


def _fair(row) -> float:
    """A row's fair value (0 in a table stored before tournaments kept one)."""
    ref = row.get("reference", 0.0)
    return 0.0 if ref is None or pd.isna(ref) else float(ref)


def fair_words(df: pd.DataFrame) -> str:
    """What the strength is judged against, in words, when it is not 0 (Bakappana's additive
    scoring: an equal share of the round's points)."""
    if "reference" not in df.columns:
        return ""
    sub = df[df.quantity == strength_quantity(df)]
    if not (sub["reference"].fillna(0).abs() > 1e-9).any():
        return ""
    return ("scores do not add up to 0 under these rules: player 1 beats the others when his "
            "mean score is above the fair value, an equal share of the round's points")


def title(df: pd.DataFrame) -> str:
    """A tournament's title: the game, the policies, the rounds and the shared deals."""
    from .rules_text import changed_rules

    m = df.attrs
    g = get_game(m.get("game") or df["game"].iloc[0])
    # the rules played, when they are not the defaults (a Bakappana tournament under additive
    # scoring is another question than one under the page's zero-sum score)
    changed = changed_rules(g.name, m.get("rules") or "") if m.get("rules") else "default"
    deals = "on the same deals" if m.get("same_deals", True) else "from the same seed"
    return (f"{g.title}: tournament of {', '.join(str(m.get('policies', '')).split())}, "
            f"{int(m.get('rounds', 0)):,} rounds a pairing {deals} "
            f"(seed {m.get('seed')}" + ("" if changed == "default" else f"; {changed}") + ")")
