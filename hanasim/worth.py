"""What each card is worth (``hanasim.card_values``, ``hanasim cards GAME``): one run tallies,
per seat and card, the seat's round scores in the rounds it was dealt the card (and in those
the card was dealt to the field), and :mod:`hanasim.stats.card_values` turns them into each
card's value with its 99.9% interval."""
from __future__ import annotations

import time
from typing import Mapping

import pandas as pd

#: rounds a card-values run plays unless told
DEFAULT_ROUNDS = 200_000


def _check_game(g):
    if not getattr(g, "card_values", False):
        raise ValueError(f"{g.name} does not tally card values")


def _prepare(game, rules, preset, policy, expose):
    """(game, rules object, policy names and ids, expose names and ids), all checked."""
    from . import api, rules as _rules
    from .games import get_game

    g = get_game(game)
    _check_game(g)
    rule_obj = _rules.make_rules(g.Rules, api._with_preset(g, rules, preset))
    n = api.seated(g, rule_obj)
    pol, pol_ids = api._policies(policy, n, g)
    exp, exp_ids = api._expose(expose, n, g)
    return g, rule_obj, (pol, pol_ids), (exp, exp_ids)


def seats(game: str, rules: Mapping | None = None, preset: str | None = None) -> list[str]:
    """The seat tokens a card-values table of ``game`` under these rules has (``dealer`` ...),
    known before the run (the command checks ``--seat`` against them)."""
    from . import api, rules as _rules
    from .games import get_game
    from .stats.card_values import seat_tokens

    g = get_game(game)
    rule_obj = _rules.make_rules(g.Rules, api._with_preset(g, rules, preset))
    return seat_tokens(g, api.seated(g, rule_obj))


def seat_token(game, word: str, there, rules: Mapping | None = None,
               preset: str | None = None) -> str:
    """The card-values token (one of ``there``) for a seat word, the words ``--given`` takes
    included (Taoshi's ``right`` is its table seat ``seat1``, Baka's ``seat1`` its ``right``);
    a ValueError in one line, naming the words, when there is none."""
    if word in there:
        return word
    from . import api, rules as _rules
    from .conditions import layout_of
    from .games import get_game
    from .given import GivenError, seat_list

    g = get_game(game)
    try:
        lay = layout_of(g, _rules.make_rules(g.Rules, api._with_preset(g, rules, preset)))
    except GivenError:
        lay = None
    group = lay.seats.get(str(word).strip().lower()) if lay is not None else None
    if group is not None and lay.names.get(group) != "field" and group < len(there):
        return there[group]
    words = seat_list(lay).replace(", field", "") if lay is not None else ", ".join(there)
    raise ValueError(f"--seat {word!r} is not a seat of {g.name} here; seats: {words}")


def card_values(game: str = "toppa", rounds: int = DEFAULT_ROUNDS, seed: int | None = None, *,
                policy="random", expose="always", rules: Mapping | None = None,
                preset: str | None = None, vs_rules: Mapping | None = None,
                vs_preset: str | None = None, threads: int | None = None,
                progress: bool | None = None) -> pd.DataFrame:
    """What each card is worth to each seat: the seat's mean round score in the rounds it was
    dealt the card, less its mean round score in all rounds, in the game's unit (points,
    chips, coins), with 99.9% intervals; the same for the cards dealt to the field, where the
    game has one.  One run of ``rounds`` rounds (every round counts for every card).

    Parameters are those of :func:`hanasim.simulate` (``rules``, ``preset``, ``policy``,
    ``expose``, ``seed``, ``threads``, ``progress``).  ``vs_rules`` / ``vs_preset``: compare
    with a second rule set, ``rules`` updated by ``vs_rules`` (on ``vs_preset`` if given, else
    on ``preset``), played on the same seed: the result is then the difference table
    (:func:`hanasim.stats.card_values.difference`: the second rule set's values less the
    first's).

    Returns
    -------
    DataFrame with one row per (dealt_to, seat, card): game, dealt_to (``hand`` or ``field``), seat
    (relative to the dealer: ``dealer`` deals), card (the deck's name for it), month, kind,
    share (of the seat's rounds in which the card was dealt there), mean_score (the seat's mean
    round score in those rounds), value (that less its mean in all rounds), std_error, ci_low,
    ci_high (99.9%), n (rounds the card was dealt there), rounds_seat (all the seat's rounds),
    and the run's rounds, seed, policies and rules; ``attrs`` holds the metadata, ``unit`` and
    ``headline`` (the dealer's most and least valuable cards in a sentence).  How the values
    and intervals are computed: :mod:`hanasim.stats.card_values`.

    Every argument is checked before any work: ``TypeError`` or ``ValueError`` naming it.
    """
    from . import api
    from .engine.rng import normalize_seed

    rounds = api.check_rounds(rounds)
    seed = api.check_seed(seed)
    threads = api.check_threads(threads)
    progress = api._check_progress(progress)
    runs = [_prepare(game, rules, preset, policy, expose)]
    compare = vs_rules is not None or vs_preset is not None
    if compare:
        if vs_rules is not None and not isinstance(vs_rules, Mapping):
            raise TypeError(f"vs_rules must be a mapping of rule options, got "
                            f"{api._show(vs_rules)}")
        base = dict(rules) if isinstance(rules, Mapping) else {}
        runs.append(_prepare(game, {**base, **(vs_rules or {})},
                             vs_preset if vs_preset is not None else preset, policy, expose))
    seed = normalize_seed(seed)
    tables = [_run(*r, rounds=rounds, seed=seed, threads=threads, progress=progress,
                   preset=p) for r, p in zip(runs, (preset, vs_preset or preset))]
    if not compare:
        return tables[0]
    from .stats.card_values import difference

    return difference(*tables)


def _run(g, rule_obj, pol, exp, *, rounds, seed, threads, progress, preset):
    from . import api
    from .engine.lookahead import uses_lookahead
    from .stats.card_values import table

    (pol_names, pol_ids), (exp_names, exp_ids) = pol, exp
    n = api.seated(g, rule_obj)
    meta = api.provenance(g, rule_obj, rounds=rounds, seed=seed, policies=",".join(pol_names),
                          expose=",".join(exp_names), players=n,
                          **({"preset": preset.strip()} if preset else {}))
    run_options = {"slow": True} if uses_lookahead(pol_ids) else {}
    start = time.perf_counter()
    with api._threads(threads):
        counters = g.counters(rule_obj, rounds=rounds, seed=seed, policy=pol_ids,
                              expose=exp_ids, progress=progress, card_values=True,
                              **run_options)
    meta["wall_time_s"] = round(time.perf_counter() - start, 3)
    meta["notes"] = api.notes(g, rule_obj)
    # a game that counts scores in fractions of its unit says how many (Baka, Taoshi)
    return table(counters["cards"], g, meta, scale=int(counters.get("cards_scale", 1)))
