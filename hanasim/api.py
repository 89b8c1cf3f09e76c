"""The public Python API: validate at the edge, lower to arrays, run kernels, return tables."""
from __future__ import annotations

import os
import re
import time
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from . import rules as _rules
from .engine.rng import normalize_seed
from .games import available_games, get_game
from .policies import EXPOSE, POLICIES, expose_id, policy_id
from .stats import table as _table

MAX_ROUNDS = 10**12
#: compare refuses more variants than this unless ``max_variants`` (``--max-variants``) allows
#: them: rule grids multiply (8 two-value options are 256 runs).
MAX_VARIANTS = 64
_WHOLE = re.compile(r"\+?[0-9]+", re.ASCII)


def _show(value, limit=24) -> str:
    """A user's value for an error message, cut short (``1e300`` must not print 300 digits)."""
    text = value if isinstance(value, str) else repr(value)
    return repr(text) if isinstance(value, str) and len(text) <= limit else (
        text if len(text) <= limit else text[:limit] + "...")


def _per_seat(value, n: int, what: str, name: str = "policy", choices=()) -> tuple:
    """'greedy' or ('greedy', 'random') or 'greedy,random' -> one name per player."""
    accepted = f"one of {', '.join(choices)}, for all players or one per player"
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",")]
    elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        value = [v.strip() for v in value]
    else:
        raise TypeError(f"{name} must be {accepted} (e.g. 'random' or 'greedy,random'), "
                        f"got {_show(value)}")
    if len(value) == 1:
        value = value * n
    if len(value) != n:
        raise ValueError(f"give one {what} for every player or {n} comma-separated ones, got {len(value)}")
    return tuple(value)


def check_rounds(rounds, name: str = "rounds") -> int:
    """A positive whole number of rounds from an int, a whole float or text ("2e6")."""
    what = f"{name} must be a positive whole number"
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer, float, str)):
        raise TypeError(f"{what}, got {_show(rounds)}")
    if isinstance(rounds, (int, np.integer)):
        value = int(rounds)
    else:
        text = rounds.strip() if isinstance(rounds, str) else rounds
        if isinstance(text, str) and _WHOLE.fullmatch(text):
            value = int(text)
        else:
            try:
                f = float(text)
            except (TypeError, ValueError):
                raise ValueError(f"{what}, got {_show(rounds)}") from None
            if not np.isfinite(f) or not f.is_integer():
                raise ValueError(f"{what}, got {_show(rounds)}")
            if abs(f) > MAX_ROUNDS:
                raise ValueError(f"{name} must be at most {MAX_ROUNDS:.0e}, got {_show(rounds)}")
            value = int(f)
    if value <= 0:
        raise ValueError(f"{what}, got {_show(rounds)}")
    if value > MAX_ROUNDS:
        raise ValueError(f"{name} must be at most {MAX_ROUNDS:.0e}, got {_show(rounds)}")
    return value


def check_seed(seed):
    """None (a fresh seed is drawn later), or the whole number from an int or ASCII digits."""
    what = "seed must be a whole number from 0 to 2**64-1"
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer, str)):
        raise TypeError(f"{what}, got {_show(seed)}")
    if isinstance(seed, str):
        if not _WHOLE.fullmatch(seed.strip()):
            raise ValueError(f"{what}, got {_show(seed)}")
        seed = int(seed.strip())
    seed = int(seed)
    if not 0 <= seed < 2**64:
        raise ValueError(f"{what}, got {_show(seed)}")
    return seed


def _check_flag(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {_show(value)}")
    return bool(value)


def _check_path(value, name):
    """A directory argument: a non-empty str or path (an empty one must not mean 'none')."""
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a directory path, got {_show(value)}")
    if not str(os.fspath(value)).strip():
        raise ValueError(f"{name} must name a directory, got an empty path")
    return os.fspath(value)


def _policies(policy, n, game=None):
    """Policy names per player and their kernel ids; a game with decisions of its own
    (koi-koi's stop-or-continue) parses its names itself (``game.policy_ids``)."""
    parse = getattr(game, "policy_ids", None)
    if parse is None:
        names = _per_seat(policy, n, "policy", "policy", tuple(POLICIES))
        return names, np.array([policy_id(p) for p in names], dtype=np.int64)
    from .policies import POLICY_FORMS
    names = _per_seat(policy, n, "policy", "policy", POLICY_FORMS)
    return names, parse(names)


def _with_preset(g, rules, preset):
    """``rules`` on top of the game's named option set ``preset`` (None: the defaults)."""
    if preset is None:
        return rules
    presets = getattr(g, "presets", None) or {}
    if not isinstance(preset, str) or preset.strip() not in presets:
        raise ValueError(f"unknown preset {_show(preset)} for {g.name}; presets: "
                         + (", ".join(presets) or "none (this game has none)"))
    if rules is None:
        rules = {}
    if not isinstance(rules, Mapping):
        return rules  # make_rules names the problem
    return {**presets[preset.strip()], **rules}


def _expose(expose, n):
    names = _per_seat(expose, n, "expose choice", "expose", tuple(EXPOSE))
    return names, np.array([expose_id(e) for e in names], dtype=np.int64)


def _outside_store(path, what):
    """Refuse a checkpoint in (or holding) the results store: its batch files would mix with
    saved runs."""
    from .store import store_path

    p = os.path.realpath(path)
    root = os.path.realpath(store_path())
    if p == root or p.startswith(root + os.sep) or root.startswith(p + os.sep):
        raise ValueError(f"{what} {path} is (or holds) the results store {store_path()}; "
                         "give another folder")


def simulate(game: str = "toppa", rounds: int = 1_000_000, seed: int | None = None, *,
             policy="random", expose="always", rules: Mapping | None = None,
             session_rounds: int = 1, fixed_dealer: bool = False, checked: bool = False,
             deals_only: bool = False, progress: bool = False, checkpoint: str | None = None,
             resume: bool = False, cluster: str | None = None,
             preset: str | None = None) -> pd.DataFrame:
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
    preset : a named set of rule options of the game (koi-koi: seed004, modern, nintendo,
        koikoi-japan); ``rules`` are applied on top of it.
    session_rounds : rounds per session; within a session the winner deals next, each session
        starts with the first-dealer draw.
    fixed_dealer : player 1 deals every round (to measure a policy pairing by seat).
    checked : check the round invariants in the kernel (slower); raises on a violation.
    deals_only : skip play: only the deal-time quantities (misdeal rate, teyaku), much faster.
    checkpoint : a directory where finished batches are kept as the run goes; running the same
        call again continues from them (after Ctrl-C or a crash) and gives the identical table.
        The directory is locked for the run (a second run on it is refused), and with
        ``seed=None`` the seed drawn by the first call is kept there and reused.
    resume : require ``checkpoint`` to hold an earlier, matching run.
    cluster : run batches on Dask: ``"local:N"`` (a LocalCluster of N processes) or
        ``"tcp://host:8786"`` (an existing scheduler); the table is identical to a local run.

    Every argument is checked before any work: ``TypeError`` or ``ValueError`` naming the
    argument and the accepted values.

    Returns
    -------
    DataFrame with columns game, quantity, estimate, std_error, ci_low, ci_high, n (99.9%
    intervals, Wilson for proportions) and the run's metadata (rounds, seed, policies, rules);
    ``df.attrs`` holds the full metadata.
    """
    # Every argument is checked before any work (or any lock) starts.
    g = get_game(game)
    rounds = check_rounds(rounds)
    seed = check_seed(seed)
    rule_obj = _rules.make_rules(g.Rules, _with_preset(g, rules, preset))
    pol, pol_ids = _policies(policy, g.n_players, g)
    exp, exp_ids = _expose(expose, g.n_players)
    session_rounds = check_rounds(session_rounds, "session_rounds")
    fixed_dealer, checked, deals_only, progress, resume = (
        _check_flag(v, k) for k, v in [("fixed_dealer", fixed_dealer), ("checked", checked),
                                       ("deals_only", deals_only), ("progress", progress),
                                       ("resume", resume)])
    if cluster is not None and not isinstance(cluster, str):
        raise TypeError(f"cluster must be 'local:N' or 'tcp://host:port', got {_show(cluster)}")
    from .distributed import check_address, dask_executor
    if cluster:
        check_address(cluster)
    ck = None
    if checkpoint is not None:
        from .engine.runner import Checkpoint
        checkpoint = _check_path(checkpoint, "checkpoint")
        _outside_store(checkpoint, "checkpoint")
        ck = Checkpoint(checkpoint, resume_only=resume)  # locked until the run ends
    elif resume:
        raise ValueError("resume needs the checkpoint directory of the run to continue")
    try:
        seed_drawn = seed is None
        if seed_drawn and ck is not None:
            seed = ck.drawn_seed()  # the same command, no seed: resume the earlier draw
        seed = normalize_seed(seed)
        meta = provenance(g, rule_obj, rounds=rounds, seed=seed, policies=",".join(pol),
                          expose=",".join(exp), session_rounds=session_rounds,
                          dealing="fixed" if fixed_dealer else "winner", deals_only=deals_only,
                          **({"preset": preset.strip()} if preset else {}))
        run_options = {}
        if ck is not None:
            ck.bind({k: v for k, v in meta.items() if k not in ("numba_version",)},
                    seed_drawn=seed_drawn)
            run_options["checkpoint"] = ck
        start = time.perf_counter()
        with dask_executor(cluster) as executor:
            counters = g.counters(rule_obj, rounds=rounds, seed=seed, policy=pol_ids,
                                  expose=exp_ids, session_rounds=session_rounds,
                                  fixed_dealer=fixed_dealer, checked=checked, progress=progress,
                                  deals_only=deals_only, executor=executor, **run_options)
    finally:
        if ck is not None:
            ck.close()
    meta["wall_time_s"] = round(time.perf_counter() - start, 3)
    if cluster:
        meta["cluster"] = cluster
    return _table.build(g.name, g.quantities(counters, rule_obj), meta)


def compare(game: str = "toppa", rounds: int = 1_000_000, seed: int | None = None, *,
            rules: Mapping[str, Sequence] | None = None, policies: Sequence = ("random",),
            expose="always", session_rounds: int = 1, fixed_dealer: bool = False,
            blocks: int = 100, progress: bool = False,
            max_variants: int | None = None, preset: str | None = None) -> pd.DataFrame:
    """Run every combination of rule values and policies on the same deals and compare.

    ``rules`` maps an option to the values to try (``{"five_brights": [60, 40]}``; a single
    value is held fixed); ``policies`` lists policy settings to try (each as in
    :func:`simulate`, e.g. ``["random", "greedy,random"]``).  ``preset``: the game's named
    option set under every variant.  The first combination is the baseline.  More than ``max_variants`` variants (default :data:`MAX_VARIANTS`, 64) are
    refused.  Returns a tidy table: one ``value`` row per variant and quantity, and one
    ``difference`` row (variant − baseline) with a paired 99.9% interval and ``significant``.
    """
    import itertools
    import sys

    from .stats.compare import block_estimates, comparison_table

    # Every argument and every variant is checked before the first variant runs.
    g = get_game(game)
    rounds = check_rounds(rounds)
    seed = normalize_seed(check_seed(seed))
    session_rounds = check_rounds(session_rounds, "session_rounds")
    fixed_dealer = _check_flag(fixed_dealer, "fixed_dealer")
    progress = _check_flag(progress, "progress")
    if rules is None:
        rules = {}
    if not isinstance(rules, Mapping):
        raise TypeError(f"rules must be a dict of {{option: value or list of values}}, got "
                        f"{type(rules).__name__} {_show(rules)}")
    grid = {}
    for name, values in rules.items():
        if isinstance(values, str):
            values = [v.strip() for v in values.split(",")]
        elif isinstance(values, (int, np.integer)) and not isinstance(values, bool):
            values = [values]
        elif not isinstance(values, (list, tuple)):
            raise TypeError(f"rules[{name!r}] must be a value or a list of values, got "
                            f"{_show(values)}")
        if not values:
            raise ValueError(f"rules[{name!r}] lists no values")
        canon = [_rules.coerce(g.Rules, name, v) for v in values]  # 60, "60" are one value
        if len(set(canon)) != len(canon):
            raise ValueError(f"rule {name!r} lists a value twice: {list(values)}")
        grid[name] = canon
    if isinstance(policies, str):
        policies = [policies]
    elif not isinstance(policies, (list, tuple)):
        raise TypeError(f"policies must be a list of policy settings (e.g. ['random', "
                        f"'greedy,random']), got {_show(policies)}")
    policies = list(policies)
    if not policies:
        raise ValueError("give at least one policy")
    pol_settings = [_policies(p, g.n_players, g) for p in policies]
    seen = {}
    for p, (names, _) in zip(policies, pol_settings):
        if names in seen:
            raise ValueError(f"policy {p!r} is given twice (as {seen[names]!r})")
        seen[names] = p
    exp, exp_ids = _expose(expose, g.n_players)
    if isinstance(blocks, bool) or not isinstance(blocks, (int, np.integer)) or blocks < 2:
        raise ValueError(f"blocks must be a whole number of at least 2, got {_show(blocks)}")
    if max_variants is None:
        max_variants = MAX_VARIANTS
    max_variants = check_rounds(max_variants, "max_variants")
    combos = list(itertools.product(*grid.values())) or [()]
    n_variants = len(combos) * len(policies)
    if n_variants > max_variants:
        raise ValueError(f"this comparison has {n_variants} variants ({len(combos)} rule "
                         f"combinations x {len(policies)} policies), more than the limit of "
                         f"{max_variants}; allow them with max_variants={n_variants} "
                         f"(--max-variants {n_variants})")
    # A session is the unit of a block; Baka always plays whole 3-round games.
    per = getattr(g, "rounds_per_session", None) or getattr(
        sys.modules[type(g).__module__], "ROUNDS_PER_GAME", session_rounds)
    n_sessions = -(-rounds // per)
    if n_sessions < 2:
        raise ValueError(f"compare needs at least 2 sessions for its paired intervals; {rounds:,} "
                         f"rounds of {per} per session are {n_sessions}: give more rounds")
    blocks = max(2, min(int(blocks), n_sessions))
    base = _with_preset(g, {}, preset)
    rule_objs = [(dict(zip(grid, values)),
                  _rules.make_rules(g.Rules, {**base, **dict(zip(grid, values))}))
                 for values in combos]
    variants = []
    start = time.perf_counter()
    for given, rule_obj in rule_objs:
        for pol, (names, pol_ids) in zip(policies, pol_settings):
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
                         **({"preset": preset.strip()} if preset else {}),
                         session_rounds=session_rounds, hanasim_version=__version__,
                         numba_version=numba.__version__,
                         wall_time_s=round(time.perf_counter() - start, 3)))
    return df


def provenance(g, rule_obj, **extra) -> dict:
    import numba

    from . import __version__
    return dict(game=g.name, game_version=g.version, rules=_rules.rules_string(rule_obj),
                hanasim_version=__version__, numba_version=numba.__version__, **extra)


def rules_table(game: str = "toppa", preset: str | None = None) -> pd.DataFrame:
    """The house-rule options of a game: name, default, allowed values, description; with a
    ``preset``, also the value the preset gives each option (column ``preset``)."""
    g = get_game(game)
    rows = _rules.options(g.Rules)
    df = pd.DataFrame([dict(option=r["name"], default=r["default"],
                            allowed=", ".join(map(str, r["choices"])), description=r["doc"])
                       for r in rows])
    if preset is not None:
        values = _rules.make_rules(g.Rules, _with_preset(g, {}, preset))
        df.insert(2, "preset", [getattr(values, o) for o in df["option"]])
    return df


__all__ = ["simulate", "compare", "exact", "available_games", "rules_table"]


def exact(game: str = "toppa", rules: Mapping | None = None,
          preset: str | None = None) -> pd.DataFrame:
    """Exact deal-time probabilities (misdeal, each teyaku) as fractions, by combinatorics.

    Columns: game, quantity, condition (``all_deals`` or ``no_misdeal``: the rounds actually
    played, which is what :func:`simulate` measures), fraction, value.
    """
    from .stats.exact import exact_table

    g = get_game(game)
    rule_obj = _rules.make_rules(g.Rules, _with_preset(g, rules, preset))
    if hasattr(g, "exact_table"):  # a game with its own deal-time combinatorics (koi-koi)
        return g.exact_table(rule_obj)
    return exact_table(g.deal_spec(rule_obj), g.name)
