"""The public Python API: validate at the edge, lower to arrays, run kernels, return tables."""
from __future__ import annotations

import time
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from . import rules as _rules
from .engine.rng import normalize_seed
from .games import available_games, get_game
from .policies import expose_id, policy_id
from .stats import table as _table

MAX_ROUNDS = 10**12


def _per_seat(value, n: int, what: str) -> tuple:
    """'greedy' or ('greedy', 'random') or 'greedy,random' -> one name per player."""
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",")]
    value = list(value)
    if len(value) == 1:
        value = value * n
    if len(value) != n:
        raise ValueError(f"give one {what} for every player or {n} comma-separated ones, got {len(value)}")
    return tuple(value)


def check_rounds(rounds) -> int:
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)):
        try:
            f = float(rounds)
        except (TypeError, ValueError):
            raise ValueError(f"rounds must be a positive whole number, got {rounds!r}") from None
        if not f.is_integer():
            raise ValueError(f"rounds must be a positive whole number, got {rounds!r}")
        rounds = int(f)
    rounds = int(rounds)
    if rounds <= 0:
        raise ValueError(f"rounds must be a positive whole number, got {rounds}")
    if rounds > MAX_ROUNDS:
        raise ValueError(f"rounds must be at most {MAX_ROUNDS:.0e}, got {rounds}")
    return rounds


def simulate(game: str = "toppa", rounds: int = 1_000_000, seed: int | None = None, *,
             policy="random", expose="always", rules: Mapping | None = None,
             session_rounds: int = 1, fixed_dealer: bool = False, checked: bool = False,
             deals_only: bool = False, progress: bool = False, checkpoint: str | None = None,
             resume: bool = False, cluster: str | None = None) -> pd.DataFrame:
    """Simulate ``rounds`` played rounds of ``game`` and return a tidy table.

    Parameters
    ----------
    game : name of a registered game (see :func:`available_games`).
    rounds : number of played rounds (misdeals are redealt and counted separately).
    seed : whole number; the same seed gives the same table on any machine and thread count.
        ``None`` draws a fresh seed, recorded in the table.
    policy : a policy name for every player, or one per player ('greedy,random'): random, greedy.
    expose : whether players expose a teyaku they hold: always, never, random (per player too).
    rules : house-rule options, ``{name: value}``; see :func:`rules_table`.
    session_rounds : rounds per session; within a session the winner deals next, each session
        starts with the first-dealer draw.
    fixed_dealer : player 1 deals every round (to measure a policy pairing by seat).
    checked : check the round invariants in the kernel (slower); raises on a violation.
    deals_only : skip play: only the deal-time quantities (misdeal rate, teyaku), much faster.
    checkpoint : a directory where finished batches are kept as the run goes; running the same
        call again continues from them (after Ctrl-C or a crash) and gives the identical table.
    resume : require ``checkpoint`` to hold an earlier, matching run.
    cluster : run batches on Dask: ``"local:N"`` (a LocalCluster of N processes) or
        ``"tcp://host:8786"`` (an existing scheduler); the table is identical to a local run.

    Returns
    -------
    DataFrame with columns game, quantity, estimate, std_error, ci_low, ci_high, n (99.9%
    intervals, Wilson for proportions) and the run's metadata (rounds, seed, policies, rules);
    ``df.attrs`` holds the full metadata.
    """
    g = get_game(game)
    rounds = check_rounds(rounds)
    seed = normalize_seed(seed)
    rule_obj = _rules.make_rules(g.Rules, rules)
    pol = _per_seat(policy, g.n_players, "policy")
    exp = _per_seat(expose, g.n_players, "expose choice")
    pol_ids = np.array([policy_id(p) for p in pol], dtype=np.int64)
    exp_ids = np.array([expose_id(e) for e in exp], dtype=np.int64)
    session_rounds = check_rounds(session_rounds)
    meta = provenance(g, rule_obj, rounds=rounds, seed=seed, policies=",".join(pol),
                      expose=",".join(exp), session_rounds=session_rounds,
                      dealing="fixed" if fixed_dealer else "winner", deals_only=deals_only)
    run_options = {}
    if checkpoint:
        from .engine.runner import Checkpoint
        identity = {k: v for k, v in meta.items() if k not in ("numba_version",)}
        run_options["checkpoint"] = Checkpoint(checkpoint, identity, resume_only=resume)
    elif resume:
        raise ValueError("resume needs the checkpoint directory of the run to continue")
    from .distributed import dask_executor

    start = time.perf_counter()
    with dask_executor(cluster) as executor:
        counters = g.counters(rule_obj, rounds=rounds, seed=seed, policy=pol_ids, expose=exp_ids,
                              session_rounds=session_rounds, fixed_dealer=fixed_dealer,
                              checked=checked, progress=progress, deals_only=deals_only,
                              executor=executor, **run_options)
    meta["wall_time_s"] = round(time.perf_counter() - start, 3)
    if cluster:
        meta["cluster"] = cluster
    return _table.build(g.name, g.quantities(counters, rule_obj), meta)


def compare(game: str = "toppa", rounds: int = 1_000_000, seed: int | None = None, *,
            rules: Mapping[str, Sequence] | None = None, policies: Sequence = ("random",),
            expose="always", session_rounds: int = 1, fixed_dealer: bool = False,
            blocks: int = 100, progress: bool = False) -> pd.DataFrame:
    """Run every combination of rule values and policies on the same deals and compare.

    ``rules`` maps an option to the values to try (``{"five_brights": [60, 40]}``; a single
    value is held fixed); ``policies`` lists policy settings to try (each as in
    :func:`simulate`, e.g. ``["random", "greedy,random"]``).  The first combination is the
    baseline.  Returns a tidy table: one ``value`` row per variant and quantity, and one
    ``difference`` row (variant − baseline) with a paired 99.9% interval and ``significant``.
    """
    import itertools

    from .stats.compare import block_estimates, comparison_table

    g = get_game(game)
    rounds = check_rounds(rounds)
    seed = normalize_seed(seed)
    session_rounds = check_rounds(session_rounds)
    grid = {}
    for name, values in (rules or {}).items():
        if isinstance(values, (str, int)):
            values = [v.strip() for v in str(values).split(",")]
        grid[name] = list(values)
        if len(set(map(str, grid[name]))) != len(grid[name]):
            raise ValueError(f"rule {name!r} lists a value twice: {grid[name]}")
    policies = [policies] if isinstance(policies, str) else list(policies)
    if not policies:
        raise ValueError("give at least one policy")
    exp = _per_seat(expose, g.n_players, "expose choice")
    exp_ids = np.array([expose_id(e) for e in exp], dtype=np.int64)
    n_sessions = -(-rounds // session_rounds)
    blocks = max(2, min(int(blocks), n_sessions))
    combos = list(itertools.product(*grid.values())) or [()]
    variants = []
    start = time.perf_counter()
    for values in combos:
        given = dict(zip(grid, values))
        rule_obj = _rules.make_rules(g.Rules, given)
        for pol in policies:
            names = _per_seat(pol, g.n_players, "policy")
            pol_ids = np.array([policy_id(p) for p in names], dtype=np.int64)
            label = " ".join([f"{k}={v}" for k, v in given.items()]
                             + ([f"policy={','.join(names)}"] if len(policies) > 1 else []))
            c = g.counters(rule_obj, rounds=rounds, seed=seed, policy=pol_ids, expose=exp_ids,
                           session_rounds=session_rounds, fixed_dealer=fixed_dealer,
                           progress=progress, blocks=blocks)
            variants.append((label or "baseline", g.quantities(c, rule_obj),
                             block_estimates(g.quantities, c, rule_obj)))
    df = comparison_table(g.name, variants)
    df["rounds"] = rounds
    df["seed"] = seed
    import numba

    from . import __version__
    df.attrs.update(dict(game=g.name, game_version=g.version, run_type="compare",
                         rounds=rounds, seed=seed, blocks=blocks,
                         grid={k: list(map(str, v)) for k, v in grid.items()},
                         rules="compare " + " ".join(f"{k}={'|'.join(map(str, v))}"
                                                     for k, v in grid.items()),
                         policies=" vs ".join(str(p) for p in policies), expose=",".join(exp),
                         session_rounds=session_rounds, hanasim_version=__version__,
                         numba_version=numba.__version__,
                         wall_time_s=round(time.perf_counter() - start, 3)))
    return df


def provenance(g, rule_obj, **extra) -> dict:
    import numba

    from . import __version__
    return dict(game=g.name, game_version=g.version, rules=_rules.rules_string(rule_obj),
                hanasim_version=__version__, numba_version=numba.__version__, **extra)


def rules_table(game: str = "toppa") -> pd.DataFrame:
    """The house-rule options of a game: name, default, allowed values, description."""
    g = get_game(game)
    rows = _rules.options(g.Rules)
    return pd.DataFrame([dict(option=r["name"], default=r["default"],
                              allowed=", ".join(map(str, r["choices"])), description=r["doc"])
                         for r in rows])


__all__ = ["simulate", "compare", "exact", "available_games", "rules_table"]


def exact(game: str = "toppa", rules: Mapping | None = None) -> pd.DataFrame:
    """Exact deal-time probabilities (misdeal, each teyaku) as fractions, by combinatorics.

    Columns: game, quantity, condition (``all_deals`` or ``no_misdeal``: the rounds actually
    played, which is what :func:`simulate` measures), fraction, value.
    """
    from .stats.exact import exact_table

    g = get_game(game)
    rule_obj = _rules.make_rules(g.Rules, rules)
    return exact_table(g.deal_spec(rule_obj), g.name)
