"""The public Python API: validate at the edge, lower to arrays, run kernels, return tables."""
from __future__ import annotations

import math
import os
import re
import time
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from . import rules as _rules
from .engine.lookahead import uses_lookahead
from .engine.rng import normalize_seed
from .games import available_games, get_game
from .numtext import decimal
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
            # text: ASCII digits only, as every number (hanasim.numtext): float() would also
            # read '١٠٠' and '1_000', which a seed or a rule value refuses
            f = text if isinstance(text, float) else decimal(text)
            if f is None:
                raise ValueError(f"{what} (ASCII digits, e.g. 100000 or 1e5), got "
                                 f"{_show(rounds)}")
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


def _check_progress(value):
    """``progress``: True or False, or None for a bar in a Jupyter notebook only (a run over
    two seconds; a widget with ipywidgets installed, else text)."""
    if value is None:
        from .compiling import in_notebook

        return in_notebook()
    return _check_flag(value, "progress")


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
        # the documented names (a former name stays accepted without being offered)
        raise ValueError(f"unknown preset {_show(preset)} for {g.name}; presets: "
                         + (", ".join(getattr(g, "preset_docs", None) or presets)
                            or "none (this game has none)"))
    if rules is None:
        rules = {}
    if not isinstance(rules, Mapping):
        return rules  # make_rules names the problem
    return {**presets[preset.strip()], **rules}


def _expose(expose, n, g=None):
    names = _per_seat(expose, n, "expose choice", "expose", tuple(EXPOSE))
    ids = np.array([expose_id(e) for e in names], dtype=np.int64)
    if g is not None and not getattr(g, "expose", True):
        # a game without teyaku has no expose decision: only the default is accepted, and the
        # run's metadata says "none" rather than a choice that was never made
        if any(e != "always" for e in names):
            raise ValueError(f"{g.name} has no teyaku, so no expose decision: leave expose out")
        return ["none"], ids
    return names, ids


def check_threads(threads, name: str = "threads"):
    """None (every thread numba may use), or a whole number from 1 to that many."""
    if threads is None:
        return None
    import numba

    most = int(numba.config.NUMBA_NUM_THREADS)
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer, str)):
        raise TypeError(f"{name} must be a whole number from 1 to {most}, got {_show(threads)}")
    text = str(threads).strip()
    if not _WHOLE.fullmatch(text) or not 1 <= int(text) <= most:
        raise ValueError(f"{name} must be a whole number from 1 to {most} (the threads numba "
                         f"can use here; set NUMBA_NUM_THREADS for more), got {_show(threads)}")
    return int(text)


class _threads:
    """Run with ``n`` numba threads (None: leave them as they are).  Tables do not depend on
    it (per-session random streams, integer counters): only the speed does."""

    def __init__(self, n):
        self.n = n

    def __enter__(self):
        if self.n is not None:
            import numba

            self.before = numba.get_num_threads()
            numba.set_num_threads(self.n)
        return self

    def __exit__(self, *exc):
        if self.n is not None:
            import numba

            numba.set_num_threads(self.before)


def notes(g, rule_obj) -> list[str]:
    """Sentences a table must carry about its rules (printed with it, kept in ``attrs``)."""
    out = []
    deck = getattr(g, "deck_points", None)
    par = getattr(rule_obj, "par", None)
    if deck is not None and par is not None:
        pars = _rules.seat_values(par, g.n_players)
        if sum(pars) != deck:
            out.append(f"the pars ({', '.join(map(str, pars))}) add up to {sum(pars)}, not the "
                       f"deck's {deck} card points: the game is not zero-sum (the scores of a "
                       f"round add up to {deck - sum(pars):+d})")
    more = getattr(g, "rule_notes", None)  # a game's own notes (taoshi: its burdens)
    if more is not None:
        out += more(rule_obj)
    return out


def _run(g, rule_obj, session_rounds=1, fixed_dealer=False) -> _rules.Run:
    """The run context an option's applicability is judged in (``rules.Run``)."""
    players = g.players_of(rule_obj) if hasattr(g, "players_of") else g.n_players
    return _rules.Run(players=int(players), session_rounds=int(session_rounds),
                      fixed_dealer=bool(fixed_dealer))


def _preset_options(g, preset) -> tuple:
    """(the preset's name, the options it sets) for the notes of ``rules.check_inert``."""
    if not preset:
        return None, ()
    return preset.strip(), tuple((getattr(g, "presets", None) or {}).get(preset.strip(), {}))

def whole_sessions_note(g, rounds, session_rounds, deals_only=False) -> list[str]:
    """Session quantities (Baka: game quantities) count whole sessions only: the note a table
    carries when the run ends inside one (10 rounds in sessions of 7: one session, and 3
    rounds that count only per round).  Koi-koi and Taipa play every game they start to its
    end, so they have no cut-off game."""
    import sys

    if deals_only or getattr(g, "rounds_per_session", None):
        return []
    per, word = session_rounds, "session"
    fixed = getattr(sys.modules[type(g).__module__], "ROUNDS_PER_GAME", None)
    if fixed:
        per, word = fixed, "game"
    whole, rest = divmod(rounds, per)
    if per <= 1 or rest == 0:
        return []
    cut = (f"the last {rest:,} rounds (a {word} cut off by the end of the run) count only "
           f"in the per-round quantities" if rest > 1 else
           f"the last round (a {word} cut off by the end of the run) counts only in the "
           f"per-round quantities")
    if whole == 0:
        return [f"no whole {word} of {per} rounds was played, so there are no {word} "
                f"quantities; {cut}"]
    return [f"{word} quantities count the {whole:,} whole {word}{'s' if whole > 1 else ''} "
            f"of {per} rounds; {cut}"]


def variant_notes(g, labelled) -> list[str]:
    """The notes of several variants (``[(label, rules)]``) in one sentence each, not one per
    variant: which variants make the game not zero-sum."""
    uneven = [label for label, r in labelled if notes(g, r)]
    if not uneven:
        return []
    shown = ", ".join(uneven[:4]) + (f" and {len(uneven) - 4} more" if len(uneven) > 4 else "")
    return [f"the {getattr(g, 'par_word', 'pars')} do not add up to the deck's "
            f"{g.deck_points} card points in "
            f"{len(uneven)} of {len(labelled)} variants ({shown}): the game is not zero-sum "
            f"there (a round's scores add up to the deck's points minus the "
            f"{getattr(g, 'par_word', 'pars')})"]


def _outside_store(path, what, store=None):
    """Refuse a checkpoint in (or holding) the results store: its batch files would mix with
    saved runs."""
    from .store import store_path

    p = os.path.realpath(path)
    root = os.path.realpath(store_path(store))
    if p == root or p.startswith(root + os.sep) or root.startswith(p + os.sep):
        raise ValueError(f"{what} {path} is (or holds) the results store {store_path(store)}; "
                         "give another folder")


def simulate(game: str = "toppa", rounds: int = 1_000_000, seed: int | None = None, *,
             policy="random", expose="always", rules: Mapping | None = None,
             session_rounds: int = 1, fixed_dealer: bool = False, checked: bool = False,
             deals_only: bool = False, progress: bool | None = None, checkpoint: str | None = None,
             resume: bool = False, cluster: str | None = None,
             preset: str | None = None, threads: int | None = None,
             precision=None, given=None, where=None) -> pd.DataFrame:
    """Simulate ``rounds`` played rounds of ``game`` and return a tidy table.

    Parameters
    ----------
    game : name of a registered game (see :func:`available_games`).
    rounds : number of played rounds (misdeals are redealt and counted separately); as text,
        ASCII digits, e.g. ``"200000"`` or ``"2e5"`` (every number hanasim reads from text is
        written in ASCII digits: see ``hanasim.numtext``).
    seed : whole number; the same seed gives the same table on any machine and thread count.
        ``None`` draws a fresh seed, recorded in the table.
    policy : a policy name for every player, or one per seated player ('greedy,random'):
        random, greedy, lookahead[:K] (Kushiro Toppa and Taoshi: one per player the ``players``
        rule seats, as in every command; see :func:`seated`).
    expose : whether players expose a teyaku they hold: always, never, random (per player too).
    rules : house-rule options, ``{name: value}``; see :func:`rules_table`.
    preset : a named set of rule options of the game (koi-koi: game-cabinet-1997, modern,
        nintendo, koikoi-japan); ``rules`` are applied on top of it.
    session_rounds : rounds per session; within a session the winner deals next, each session
        starts with the first-dealer draw.  Session quantities count whole sessions only: when
        ``rounds`` is not a multiple, the cut-off last session's rounds count per round only,
        and ``df.attrs["notes"]`` says so.
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
    threads : numba threads to use here (default: all); the table does not depend on it.
    progress : show a progress bar for a run over two seconds (default: in Jupyter notebooks
        only).  The first run of a kernel waits for numba to compile it: a line on stderr says
        so, with about how long it takes (``hanasim warmup`` compiles ahead of time).
    precision : ``{quantity: half-width}`` (or ``"dealer.mean_score=0.5"``): play stages of
        10,000 rounds, doubling, until the quantity's 99.9% interval is at most that
        half-width, with ``rounds`` as the cap; ``df.attrs["precision"]`` and a note say how
        many rounds it took, or that the cap came first (see :mod:`hanasim.precision`).
    given : cards dealt to a seat or the field in every round: ``{"dealer": "11b,8b"}``
        (or ``["dealer=11b,8b", "field=3b"]``), cards in the notation of
        :mod:`hanasim.notation`, seats in the game's table words (``dealer``, ``opponent``,
        ``seat1`` ..., ``field``).  Every deal is drawn uniformly among the deals consistent
        with them (:mod:`hanasim.given`); the notes and ``df.attrs["given"]`` say so.
    where : a condition on the deal, ``"dealer.brights>=2"`` (or a list, all to hold):
        deals that fail are dealt again (:mod:`hanasim.where`); the notes give the
        acceptance rate and the deals drawn.

    Every argument is checked before any work: ``TypeError`` or ``ValueError`` naming the
    argument and the accepted values.

    Returns
    -------
    DataFrame with columns game, quantity, estimate, std_error, ci_low, ci_high, n (99.9%
    intervals, Wilson for proportions), seat (the seat or player a quantity is about, or "")
    and label (a readable name), and the run's metadata (rounds, seed, policies, rules);
    ``df.attrs`` holds the full metadata, ``notes`` (e.g. pars that make the game not
    zero-sum) and ``distributions`` (histograms of round scores and game or session totals:
    :func:`distributions` makes them a table).
    """
    # Every argument is checked before any work (or any lock) starts.
    g = get_game(game)
    rounds = check_rounds(rounds)
    seed = check_seed(seed)
    rule_obj = _rules.make_rules(g.Rules, _with_preset(g, rules, preset))
    # a game whose table size is a rule (Kushiro Toppa's players) takes one policy per seated player
    n_players = seated(g, rule_obj)
    pol, pol_ids = _policies(policy, n_players, g)
    exp, exp_ids = _expose(expose, n_players, g)
    session_rounds = check_rounds(session_rounds, "session_rounds")
    fixed_dealer, checked, deals_only, resume = (
        _check_flag(v, k) for k, v in [("fixed_dealer", fixed_dealer), ("checked", checked),
                                       ("deals_only", deals_only), ("resume", resume)])
    progress = _check_progress(progress)
    cond = _condition(g, given, where, [rule_obj])
    inert = _rules.check_inert(rule_obj, _run(g, rule_obj, session_rounds, fixed_dealer),
                               rules if isinstance(rules, Mapping) else (),
                               *_preset_options(g, preset))
    if cluster is not None and not isinstance(cluster, str):
        raise TypeError(f"cluster must be 'local:N' or 'tcp://host:port', got {_show(cluster)}")
    threads = check_threads(threads)
    from .distributed import check_address, dask_executor
    if cluster:
        check_address(cluster)
    from functools import partial

    from . import precision as _precision
    goals = _precision.goals(precision)
    count = partial(g.counters, rule_obj, policy=pol_ids, expose=exp_ids,
                    session_rounds=session_rounds, fixed_dealer=fixed_dealer, checked=checked,
                    progress=progress, deals_only=deals_only, **_cond_options(cond, rule_obj))
    if goals:  # the quantities are known before any lock or work
        per = _precision.check(goals, [(count, partial(g.quantities, rules=rule_obj))],
                               "simulate", sessions=session_rounds > 1)
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
                          **({"preset": preset.strip()} if preset else {}),
                          **(cond.meta() if cond else {}))
        if goals:  # rounds is the cap; the goal is part of the run (and of its checkpoint)
            meta["precision"] = ",".join(map(str, goals))
        run_options = {}
        if uses_lookahead(pol_ids):
            run_options["slow"] = True  # smaller chunks: every thread gets work
        if ck is not None:
            ck.bind({k: v for k, v in meta.items() if k not in ("numba_version",)},
                    seed_drawn=seed_drawn)
            run_options["checkpoint"] = ck
        start = time.perf_counter()
        with dask_executor(cluster) as executor, _threads(threads):
            count = partial(count, seed=seed, executor=executor, **run_options)
            if goals:
                counters, rounds, meta["precision"] = _precision.run(
                    goals, rounds, per,
                    lambda r, grow: grow(0, partial(count, rounds=r)),
                    lambda c: _precision.widths(g.quantities(c, rule_obj)))
                meta["rounds"] = rounds
            else:
                counters = count(rounds=rounds)
    finally:
        if ck is not None:
            ck.close()
    meta["wall_time_s"] = round(time.perf_counter() - start, 3)
    if cluster:
        meta["cluster"] = cluster
    meta["notes"] = (notes(g, rule_obj) + inert
                     + whole_sessions_note(g, rounds, session_rounds, deals_only)
                     + (cond.notes(rule_obj, rounds) if cond else []))
    if goals:
        meta["notes"].append(_precision.note(meta["precision"]))
    if hasattr(g, "distributions"):
        meta["distributions"] = g.distributions(counters, rule_obj)
    rows = list(g.quantities(counters, rule_obj))
    # read from the rows, not the table: every pandas operation on a table deep-copies its
    # attrs (the score distributions), which was a third of a short run's own cost
    share = next((float(s["estimate"]) for q, s in rows if q == "player1.deal_share"), None)
    df = _table.build(g.name, rows, meta)
    df.attrs["notes"] = list(df.attrs.get("notes") or []) + _mix_notes(
        given, where, fixed_dealer, [] if deals_only else [("", pol, exp, share)])
    return df


def _mix_notes(given, where, fixed_dealer, settings) -> list[str]:
    """The note of a conditioned run whose players play differently while the seat the
    condition names goes to each player in turn (:func:`hanasim.conditions.player_mix_note`).
    ``settings``: ``[(variant label, policy names, expose names, player 1's deal share or
    None)]``, one per variant; a note that holds for some variants of a grid only names them."""
    if (given is None and where is None) or fixed_dealer:
        return []
    from .conditions import player_mix_note

    found = {}
    for label, pol, exp, share in settings:
        meta = {"policies": ",".join(map(str, pol)), "expose": ",".join(map(str, exp)),
                "dealing": "winner"}
        note = player_mix_note(meta, given, where, share)
        if note:
            found.setdefault(note, []).append(label)
    return [note if len(labels) == len(settings) else
            f"{note} (in {'the variant' if len(labels) == 1 else 'the variants'} "
            f"{', '.join(labels)})" for note, labels in found.items()]


def _condition(g, given, where, rule_objs):
    """The run's condition on its deals (``given`` cards, ``where``), checked against every
    rule set that will run (see :mod:`hanasim.conditions`); None without one."""
    if given is None and where is None:
        return None
    from .conditions import check

    return check(g, given, where, rule_objs)


def _cond_options(cond, rule_obj) -> dict:
    """The counters' keyword for a condition (none without one: the call is unchanged)."""
    return {} if cond is None else {"cond": cond.array(rule_obj)}


def _raw_values(name, values, sweep=False):
    """The values given for one rule of a comparison or sweep, not yet checked: a list, a
    single value, a string ``"60,40"`` (per-seat values: ``"120|104,136"``) or, for a sweep,
    ``"A:B:STEP"`` or a range (kept a ``range``: it is counted before anything is built)."""
    if isinstance(values, range):
        return values
    if isinstance(values, str):
        text = values.strip()
        if sweep and ":" in text:
            return _span(name, text)
        if "|" in text:
            return [v.strip() for v in text.split("|")]
        return [v.strip() for v in text.split(",")]
    if isinstance(values, (int, np.integer)) and not isinstance(values, bool):
        return [values]
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"rules[{name!r}] must be a value or a list of values, got "
                        f"{_show(values)}")
    return values


def _count(values) -> int:
    """How many values a list or a range holds (a range of 10**30 values too: ``len`` of a
    range fails beyond sys.maxsize)."""
    if isinstance(values, range):
        return max(0, -(-(values.stop - values.start) // values.step))
    return len(values)


def _values(name, values, g) -> list:
    """The canonical values of one rule (60 and "60" are one value); no value twice."""
    if _count(values) == 0:
        raise ValueError(f"rules[{name!r}] lists no values")
    canon = [_rules.coerce(g.Rules, name, v) for v in values]
    if len(set(canon)) != len(canon):
        raise ValueError(f"rule {name!r} lists a value twice: {list(values)}")
    return canon


def _span(name, text) -> range:
    """``"A:B:STEP"``: A, A+STEP, ... up to B (included when it is on the grid)."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) != 3 or not all(_WHOLE.fullmatch(p.lstrip("-")) for p in parts):
        raise ValueError(f"rule {name!r}: a range is A:B:STEP in whole numbers (e.g. "
                         f"100:140:5), got {text!r}")
    a, b, step = (int(p) for p in parts)
    if step <= 0 or b < a:
        raise ValueError(f"rule {name!r}: the range {text!r} must go up from A to B by a "
                         "positive STEP")
    return range(a, b + 1, step)


#: the most variants ``max_variants`` may allow: each is a whole simulation, and their rule
#: objects and tables are held at once
MAX_VARIANTS_ALLOWED = 100_000


def _grid(g, rules, sweep=False, *, n_policies=1, max_variants=None,
          what="comparison") -> dict:
    """``{rule: canonical values}``.  The variants (combinations x policies) are counted from
    the values as given, before any list of values or combinations is built: a range of 10**12
    values or 6 rules of 41 values are refused in a moment, not after filling the memory."""
    if rules is None:
        rules = {}
    if not isinstance(rules, Mapping):
        raise TypeError(f"rules must be a dict of {{option: value or list of values}}, got "
                        f"{type(rules).__name__} {_show(rules)}")
    raw = {name: _raw_values(name, values, sweep) for name, values in rules.items()}
    if max_variants is None:
        max_variants = MAX_VARIANTS
    max_variants = check_rounds(max_variants, "max_variants")
    if max_variants > MAX_VARIANTS_ALLOWED:
        raise ValueError(f"max_variants must be at most {MAX_VARIANTS_ALLOWED:,} (each variant "
                         f"is a whole simulation), got {max_variants:,}")
    combos = 1
    for values in raw.values():
        combos *= _count(values)
    n_variants = combos * n_policies
    if n_variants > max_variants:
        how = (f"allow them with max_variants={n_variants} (--max-variants {n_variants})"
               if n_variants <= MAX_VARIANTS_ALLOWED else
               f"at most {MAX_VARIANTS_ALLOWED:,} can be allowed: give fewer values")
        raise ValueError(f"this {what} has {n_variants:,} variants ({combos:,} rule "
                         f"combinations x {n_policies} {'policy' if n_policies == 1 else 'policies'}"
                         f"), more than the limit of {max_variants:,}; {how}")
    return {name: _values(name, values, g) for name, values in raw.items()}


def _seated_players(g, rule_objs):
    """The players every variant seats (labels name seats by them), or None when the
    variants seat different numbers."""
    counts = {seated(g, r) for _, r in rule_objs}
    return counts.pop() if len(counts) == 1 else None


def seated(g, rule_obj) -> int:
    """How many players ``g`` seats under ``rule_obj`` (Kushiro Toppa and Taoshi: the
    ``players`` rule).  The one rule every command (simulate, compare, sweep, report,
    tournament) follows: a policy and an expose choice are given for all players at once, or
    one per seated player, never more or fewer."""
    return g.players_of(rule_obj) if hasattr(g, "players_of") else g.n_players


def _per_variant(parse, value, g, rule_objs) -> list:
    """``parse(value, n)`` for every variant's seated players ``n`` (see :func:`seated`);
    when the variants seat different numbers of players, an error names the variant."""
    counts = {}
    for given, r in rule_objs:
        counts.setdefault(seated(g, r), given)
    parsed = {}
    for n, given in counts.items():
        try:
            parsed[n] = parse(value, n)
        except ValueError as e:
            if len(counts) == 1:
                raise
            raise ValueError(f"{e} (the variant {_label(given)} seats {n} players)") from None
    return [parsed[seated(g, r)] for _, r in rule_objs]


def _policy_list(policies, g, rule_objs):
    """The policy settings to try, each parsed for every variant: ``settings[j][i]`` is the
    ``(names, ids)`` of policy ``i`` in variant ``j``."""
    policies = _policy_texts(policies)
    per_policy = [_per_variant(lambda v, n: _policies(v, n, g), p, g, rule_objs)
                  for p in policies]
    seen = {}
    for p, parsed in zip(policies, per_policy):
        names = parsed[0][0]
        if names in seen:
            raise ValueError(f"policy {p!r} is given twice (as {seen[names]!r})")
        seen[names] = p
    return policies, [list(v) for v in zip(*per_policy)]


def _policy_texts(policies) -> list:
    if isinstance(policies, str):
        policies = [policies]
    elif not isinstance(policies, (list, tuple)):
        raise TypeError(f"policies must be a list of policy settings (e.g. ['random', "
                        f"'greedy,random']), got {_show(policies)}")
    policies = list(policies)
    if not policies:
        raise ValueError("give at least one policy")
    return policies


def _combos(grid) -> list:
    import itertools

    return list(itertools.product(*grid.values())) or [()]


def _label(given: dict, names=None) -> str:
    return " ".join([f"{k}={_rules.value_text(v)}" for k, v in given.items()]
                    + ([f"policy={','.join(names)}"] if names else []))


def compare(game: str = "toppa", rounds: int = 1_000_000, seed: int | None = None, *,
            rules: Mapping[str, Sequence] | None = None, policies: Sequence = ("random",),
            expose="always", session_rounds: int = 1, fixed_dealer: bool = False,
            blocks: int = 100, progress: bool | None = None,
            max_variants: int | None = None, preset: str | None = None,
            threads: int | None = None, negligible: float | None = None,
            precision=None, given=None, where=None) -> pd.DataFrame:
    """Run every combination of rule values and policies on the same deals and compare.

    ``rules`` maps an option to the values to try (``{"five_brights": [60, 40]}``, or the text
    ``"60,40"``; a per-seat value in a list of text is written ``"120|104,136"``; a single
    value is held fixed); ``policies`` lists policy settings to try (each as in
    :func:`simulate`, e.g. ``["random", "greedy,random"]``).  The first combination is the
    baseline; there must be at least two variants.  More than ``max_variants`` variants
    (default :data:`MAX_VARIANTS`, 64) are refused.  Returns a tidy table: one ``value`` row
    per variant and quantity, and one ``difference`` row (variant − baseline) with a paired
    99.9% interval and ``significant``; ``seat`` and ``label`` as in :func:`simulate`.
    ``preset``: the game's named option set under every variant.  ``negligible``: a
    significant difference smaller than this many standard deviations of one round reads
    "significant but negligible" (default :data:`hanasim.stats.compare.NEGLIGIBLE`, 0.01).
    ``precision`` (``{quantity: half-width}``): stages of rounds, doubling, until every
    difference row of the quantity has a 99.9% interval at most that half-width, ``rounds``
    being the cap (as in :func:`simulate`; ``blocks`` is then made even: a stage's blocks are
    its predecessor's, merged in pairs).  ``given``, ``where``: every variant is dealt under
    the condition (as in :func:`simulate`), on the same deals.
    """
    import sys

    from .stats.compare import NEGLIGIBLE, block_estimates, comparison_table

    negligible = _negligible(NEGLIGIBLE if negligible is None else negligible)

    # Every argument and every variant is checked before the first variant runs.
    g = get_game(game)
    rounds = check_rounds(rounds)
    seed = normalize_seed(check_seed(seed))
    session_rounds = check_rounds(session_rounds, "session_rounds")
    fixed_dealer = _check_flag(fixed_dealer, "fixed_dealer")
    progress = _check_progress(progress)
    threads = check_threads(threads)
    if isinstance(blocks, bool) or not isinstance(blocks, (int, np.integer)) or blocks < 2:
        raise ValueError(f"blocks must be a whole number of at least 2, got {_show(blocks)}")
    policies = _policy_texts(policies)
    grid = _grid(g, rules, n_policies=len(policies), max_variants=max_variants)
    combos = _combos(grid)
    if len(combos) * len(policies) < 2:
        raise ValueError("compare needs at least two variants: give a rule two or more values "
                         "(--rule five_brights=60,40) or give two or more policies (--policy "
                         "random --policy greedy)")
    # A session is the unit of a block; Baka always plays whole 3-round games.
    per = getattr(g, "rounds_per_session", None) or getattr(
        sys.modules[type(g).__module__], "ROUNDS_PER_GAME", session_rounds)
    n_sessions = -(-rounds // per)
    if n_sessions < 2:
        raise ValueError(f"compare needs at least 2 sessions for its paired intervals; {rounds:,} "
                         f"rounds of {per} per session are {n_sessions}: give more rounds")
    from functools import partial

    from . import precision as _precision
    goals = _precision.goals(precision)
    asked_blocks = blocks
    blocks = max(2, min(int(blocks), n_sessions))
    # the runner cuts the sessions into equal batches of ceil(sessions / blocks): that many
    # blocks are made (150 sessions asked in 100 blocks are 75 blocks of 2)
    blocks = -(-n_sessions // -(-n_sessions // blocks))
    if goals:  # stages double: each one's blocks are its predecessor's, merged in pairs
        blocks = max(2, int(asked_blocks) - int(asked_blocks) % 2)
    base = _with_preset(g, {}, preset)
    rule_objs = [(dict(zip(grid, values)),
                  _rules.make_rules(g.Rules, {**base, **dict(zip(grid, values))}))
                 for values in combos]
    inert_notes = _rules.grid_inert_notes(
        [(_label(given) or "baseline", r, _run(g, r, session_rounds, fixed_dealer))
         for given, r in rule_objs], grid, *_preset_options(g, preset))

    cond = _condition(g, given, where, [r for _, r in rule_objs])
    # policies and expose choices: for all players or one per seated player, in every variant
    policies, pol_settings = _policy_list(policies, g, rule_objs)
    exposes = _per_variant(lambda v, n: _expose(v, n, g), expose, g, rule_objs)
    counts = []  # (label, rules, its run with every argument but the rounds) per variant
    # (the variant's rule values are not ``given``, the condition's cards, named again below)
    for (values, rule_obj), settings, (exp, exp_ids) in zip(rule_objs, pol_settings, exposes):
        for names, pol_ids in settings:
            label = _label(values, names if len(policies) > 1 else None)
            counts.append((label or "baseline", rule_obj, partial(
                g.counters, rule_obj, seed=seed, policy=pol_ids, expose=exp_ids,
                session_rounds=session_rounds, fixed_dealer=fixed_dealer, progress=progress,
                blocks=blocks, **_cond_options(cond, rule_obj))))
    if goals:
        per = _precision.check(goals, [(c, partial(g.quantities, rules=r))
                                       for _, r, c in counts], "compare",
                               sessions=session_rounds > 1)

    def measure(rounds, grow=_precision.plain):
        variants, used_blocks = [], set()
        for i, (label, rule_obj, count) in enumerate(counts):
            with variant(i, len(counts)):
                c = grow(i, partial(count, rounds=rounds))
            # the blocks the run was cut into (equal blocks of whole batches: 150
            # sessions asked in 100 blocks are 75 blocks of 2), as used, not as asked
            used_blocks.add(next(iter(c["blocks"].values())).shape[0])
            variants.append((label, g.quantities(c, rule_obj),
                             block_estimates(g.quantities, c, rule_obj)))
        return variants, used_blocks

    start = time.perf_counter()
    from .engine.runner import variant
    with _threads(threads):
        if goals:
            (variants, used_blocks), rounds, reached = _precision.run(
                goals, rounds, per, measure, lambda v: _precision.widths(
                    comparison_table(g.name, v[0]).query("kind == 'difference'")),
                blocks=blocks)
        else:
            variants, used_blocks = measure(rounds)
    blocks = used_blocks.pop() if len(used_blocks) == 1 else blocks
    df = comparison_table(g.name, variants, negligible)
    _table.add_labels(df, g, _seated_players(g, rule_objs))
    df["rounds"] = rounds
    df["seed"] = np.uint64(seed)  # exact for any seed (an int64 column stops at 2**63)
    import numba

    from . import __version__
    all_notes = (variant_notes(g, [(_label(given) or "baseline", r) for given, r in rule_objs])
                 + whole_sessions_note(g, rounds, session_rounds))
    all_notes += inert_notes
    all_notes += _cond_notes(cond, rule_objs, rounds)
    mixes = []  # (label, policy names, expose names, deal share) per variant, as labelled
    for (values, _), settings, (exp, _) in zip(rule_objs, pol_settings, exposes):
        for names, _ in settings:
            label = _label(values, names if len(policies) > 1 else None) or "baseline"
            mixes.append((label, names, exp, None))
    all_notes += _mix_notes(given, where, fixed_dealer, mixes)
    if goals:
        df.attrs["precision"] = reached
        all_notes.append(_precision.note(reached))
    df.attrs.update(dict(game=g.name, game_version=g.version, run_type="compare",
                         rounds=rounds, seed=seed, blocks=blocks,
                         **_grid_attrs(grid, "compare", preset),
                         policies=" vs ".join(str(p) for p in policies),
                         expose=_played(exposes, expose),
                         **({"preset": preset.strip()} if preset else {}),
                         session_rounds=session_rounds,
                         dealing="fixed" if fixed_dealer else "winner",
                         hanasim_version=__version__,
                         numba_version=numba.__version__, notes=all_notes,
                         negligible=negligible, **(cond.meta() if cond else {}),
                         wall_time_s=round(time.perf_counter() - start, 3)))
    return df


def _cond_notes(cond, rule_objs, rounds) -> list:
    """A condition's notes once for a grid (the same words for every variant seating the same
    players; per variant otherwise)."""
    if cond is None:
        return []
    out = []
    for _, r in rule_objs:
        for line in cond.notes(r, rounds):
            if line not in out:
                out.append(line)
    return out


def _negligible(value) -> float:
    """The negligible-size threshold: a number of standard deviations, 0 or more."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"negligible must be a number of standard deviations (e.g. 0.01), "
                         f"got {_show(value)}") from None
    if isinstance(value, bool) or not math.isfinite(v) or v < 0:
        raise ValueError(f"negligible must be 0 or more standard deviations, got "
                         f"{_show(value)}")
    return v


def sweep(game: str = "toppa", rules: Mapping | None = None, rounds: int = 200_000,
          seed: int | None = None, *, policy="random", expose="always", session_rounds: int = 1,
          fixed_dealer: bool = False, solve: Mapping | str | None = None,
          progress: bool | None = None, max_variants: int | None = None,
          preset: str | None = None, threads: int | None = None,
          precision=None, quantities=None, given=None, where=None) -> pd.DataFrame:
    """Simulate every value of one or more rules on the same deals (common random numbers).

    ``rules``: ``{name: values}``; values are a list, a ``range``, or text ``"A:B:STEP"`` (A to
    B by STEP) or ``"v1,v2"``; a single value is held fixed; names may address one seat of a
    per-seat rule (``"par.dealer"``).  ``solve``: ``{quantity: target}`` or the text
    ``"quantity=target"``: where each quantity crosses its target, with an interval (see
    :func:`solve`).  ``preset``: the game's named option set under every value (a value row
    equals :func:`simulate` with the same preset, rules and seed).  ``precision``
    (``{quantity: half-width}``): stages of rounds, doubling, until every value's 99.9%
    interval of the quantity is at most that half-width, ``rounds`` (per value) being the
    cap.  ``quantities``: names the caller will read (``hanasim sweep --quantity``): like the
    ``solve`` quantities, a name the sweep would not have is refused before anything is played
    or compiled (the names come from the tables of zero counters).  Other arguments (``given``,
    ``where`` too) as in :func:`simulate`.

    Returns a tidy table, one row per combination of values and quantity: one column per swept
    rule (its value), then game, quantity, seat, label, estimate, std_error, ci_low, ci_high, n
    (every value's own 99.9% interval), variant.  ``df.attrs["swept"]`` names the swept rules
    and ``df.attrs["solved"]`` holds the solved values (also :func:`solve` on the table).
    """
    from .stats.sweep import solve as _solve, sweep_table

    g = get_game(game)
    rounds = check_rounds(rounds)
    seed = normalize_seed(check_seed(seed))
    session_rounds = check_rounds(session_rounds, "session_rounds")
    fixed_dealer = _check_flag(fixed_dealer, "fixed_dealer")
    progress = _check_progress(progress)
    threads = check_threads(threads)
    grid = _grid(g, rules, sweep=True, max_variants=max_variants, what="sweep")
    swept = [k for k, v in grid.items() if len(v) > 1]
    if not swept:
        raise ValueError("a sweep needs a rule with two or more values, e.g. "
                         "--rule par.dealer=100:140:5 (rules={'par.dealer': '100:140:5'})")
    targets = _targets(solve)
    wanted = _quantity_names(quantities)
    from functools import partial

    from . import precision as _precision
    goals = _precision.goals(precision)
    if targets and len(swept) != 1:
        raise ValueError(f"solve needs exactly one swept rule, got {len(swept)}: "
                         + ", ".join(swept))
    if targets and not all(isinstance(v, (int, np.integer)) for v in grid[swept[0]]):
        raise ValueError(f"solve needs a numeric rule; {swept[0]!r} takes named values")
    base = _with_preset(g, {}, preset)
    rule_objs = [(dict(zip(grid, values)),
                  _rules.make_rules(g.Rules, {**base, **dict(zip(grid, values))}))
                 for values in _combos(grid)]
    inert_notes = _rules.grid_inert_notes(
        [(_label(given), r, _run(g, r, session_rounds, fixed_dealer)) for given, r in rule_objs],
        grid)
    cond = _condition(g, given, where, [r for _, r in rule_objs])
    # the policy and expose choice: for all players or one per seated player, in every variant
    pols = _per_variant(lambda v, n: _policies(v, n, g), policy, g, rule_objs)
    exps = _per_variant(lambda v, n: _expose(v, n, g), expose, g, rule_objs)
    counts = [partial(g.counters, rule_obj, seed=seed, policy=pol_ids, expose=exp_ids,
                      session_rounds=session_rounds, fixed_dealer=fixed_dealer,
                      progress=progress, **_cond_options(cond, rule_obj))
              for (given, rule_obj), (pol, pol_ids), (exp, exp_ids) in zip(rule_objs, pols, exps)]
    probes = [(c, partial(g.quantities, rules=r)) for c, (_, r) in zip(counts, rule_objs)]
    if wanted or targets:  # a misspelt name must not cost the whole sweep
        _precision.known_names(
            probes, list(dict.fromkeys([*wanted, *targets])), session_rounds > 1,
            lambda q, near: f"no quantity {q!r} in a {g.name} sweep"
            + (f"; did you mean {', '.join(near)}?" if near else "")
            + f" ('hanasim simulate {g.name} --all' lists them all)")
    if goals:
        per = _precision.check(goals, probes, "sweep", sessions=session_rounds > 1)

    def measure(rounds, grow=_precision.plain):
        variants = []
        for i, (count, (given, rule_obj)) in enumerate(zip(counts, rule_objs)):
            with variant(i, len(rule_objs)):
                c = grow(i, partial(count, rounds=rounds))
            variants.append(({k: given[k] for k in swept}, _label(given),
                             g.quantities(c, rule_obj)))
        return variants

    start = time.perf_counter()
    from .engine.runner import variant
    with _threads(threads):
        if goals:
            variants, rounds, reached = _precision.run(
                goals, rounds, per, measure,
                lambda v: _precision.widths([row for _, _, rows in v for row in rows]))
        else:
            variants = measure(rounds)
    df = sweep_table(g.name, swept, variants)
    _table.add_labels(df, g, _seated_players(g, rule_objs))
    import numba

    from . import __version__
    fixed = {k: v[0] for k, v in grid.items() if len(v) == 1}
    all_notes = variant_notes(g, [(_label({k: given[k] for k in swept}), r)
                                  for given, r in rule_objs])
    all_notes += inert_notes
    all_notes += whole_sessions_note(g, rounds, session_rounds)
    all_notes += _cond_notes(cond, rule_objs, rounds)
    all_notes += _mix_notes(given, where, fixed_dealer, [
        (_label({k: gv[k] for k in swept}), pol, exp, None)
        for (gv, _), (pol, _), (exp, _) in zip(rule_objs, pols, exps)])
    if goals:
        df.attrs["precision"] = reached
        all_notes.append(_precision.note(reached))
    df.attrs.update(dict(game=g.name, game_version=g.version, run_type="sweep",
                         rounds=rounds, seed=seed, swept=swept,
                         **_grid_attrs(grid, "sweep", preset),
                         fixed={k: _rules.value_text(v) for k, v in fixed.items()},
                         # the players seated may differ between values: then one name
                         # was given for all of them, and is recorded as given
                         policies=_played(pols, policy), expose=_played(exps, expose),
                         **({"preset": preset.strip()} if preset else {}),
                         session_rounds=session_rounds,
                         dealing="fixed" if fixed_dealer else "winner",
                         hanasim_version=__version__, numba_version=numba.__version__,
                         notes=all_notes, **(cond.meta() if cond else {}),
                         wall_time_s=round(time.perf_counter() - start, 3)))
    df.attrs["solved"] = [_solve(df, q, t) for q, t in targets.items()]
    return df


def _played(parsed, given) -> str:
    """The names every variant played, or (variants seating different numbers of players)
    the one setting given for all of them."""
    names = {tuple(n) for n, _ in parsed}
    if len(names) == 1:
        return ",".join(names.pop())
    return given.strip() if isinstance(given, str) else ",".join(map(str, given))


def _grid_attrs(grid, run_type, preset=None) -> dict:
    """The ``grid`` and ``rules`` attributes of a compare or sweep table (as text); a preset
    under every variant is named first (the saved run's list shows it)."""
    return dict(grid={k: list(map(_rules.value_text, v)) for k, v in grid.items()},
                rules=f"{run_type} " + (f"preset={preset.strip()} " if preset else "")
                + " ".join(f"{k}={'|'.join(map(_rules.value_text, v))}"
                           for k, v in grid.items()))


def _quantity_names(quantities) -> list[str]:
    """A name or a list of quantity names (``sweep(quantities=...)``)."""
    if quantities is None:
        return []
    if isinstance(quantities, str):
        quantities = [quantities]
    if not isinstance(quantities, (list, tuple)) or \
            not all(isinstance(q, str) for q in quantities):
        raise TypeError(f"quantities must be a quantity name or a list of them, got "
                        f"{_show(quantities)}")
    return list(quantities)


def _targets(solve) -> dict:
    """``{quantity: target}`` from a mapping or ``"q=t"`` text (several: ``"a=0,b=1"``)."""
    if solve is None:
        return {}
    if isinstance(solve, str):
        out = {}
        for item in [x for x in solve.split(",") if x.strip()]:
            q, eq, t = item.partition("=")
            if not eq:
                raise ValueError(f"solve must look like quantity=target (e.g. "
                                 f"dealer.mean_score=0), got {_show(item)}")
            out[q.strip()] = t.strip()
        solve = out
    if not isinstance(solve, Mapping):
        raise TypeError(f"solve must be {{quantity: target}} or 'quantity=target', got "
                        f"{_show(solve)}")
    out = {}
    for q, t in solve.items():
        if isinstance(t, str):
            value = decimal(t)  # ASCII digits, as every number (hanasim.numtext)
        elif isinstance(t, (int, float, np.integer, np.floating)):
            value = float(t)
        else:
            value = None
        if value is None or isinstance(t, bool) or not np.isfinite(value):
            raise ValueError(f"solve: the target of {q!r} must be a number, got {_show(t)}")
        out[str(q)] = value
    return out


def solve(df: pd.DataFrame, quantity: str, target: float = 0.0) -> dict:
    """Where ``quantity`` crosses ``target`` in a :func:`sweep` table, with an interval (see
    ``stats.sweep.solve``)."""
    from .stats.sweep import solve as _solve

    return _solve(df, quantity, target)


def provenance(g, rule_obj, **extra) -> dict:
    import numba

    from . import __version__
    return dict(game=g.name, game_version=g.version, rules=_rules.rules_string(rule_obj),
                hanasim_version=__version__, numba_version=numba.__version__, **extra)


def rules_table(game: str = "toppa", preset: str | None = None) -> pd.DataFrame:
    """The house-rule options of a game: option, default, allowed (in words), readings (the
    values the rule texts name, and which text names them), numeric (a number any value in
    range may be given for: sweep it), description (citing the rule text's section); with a
    ``preset``, also the value the preset gives each option (column ``preset``)."""
    g = get_game(game)
    rows = _rules.options(g.Rules)
    df = pd.DataFrame([dict(option=r["name"], default=_rules.value_text(r["default"]),
                            allowed=r["allowed"],
                            readings=", ".join(f"{_rules.value_text(v)} ({what})"
                                               for v, what in r["readings"]),
                            numeric=r["numeric"], description=r["doc"])
                       for r in rows])
    if preset is not None:
        values = _rules.make_rules(g.Rules, _with_preset(g, {}, preset))
        df.insert(2, "preset", [_rules.value_text(getattr(values, o)) for o in df["option"]])
    return df


__all__ = ["simulate", "compare", "sweep", "solve", "exact", "available_games", "rules_table"]


def exact(game: str = "toppa", rules: Mapping | None = None,
          preset: str | None = None, given=None) -> pd.DataFrame:
    """Exact deal-time probabilities (misdeal, each teyaku) as fractions, by combinatorics.

    Columns: game, quantity, condition (``all_deals`` or ``no_misdeal``: the rounds actually
    played, which is what :func:`simulate` measures), fraction, value.  ``given`` (as in
    :func:`simulate`): the odds conditional on the given cards (every game), with per-seat
    rows ``QUANTITY.SEAT`` beside the per-hand ones.
    """
    from .compiling import said_if_slow, title
    from .stats.exact import exact_table

    g = get_game(game)
    rule_obj = _rules.make_rules(g.Rules, _with_preset(g, rules, preset))
    with said_if_slow(f"computing the exact deal-time odds of {title(g.name)} (exact fractions "
                      "over every deal: a few seconds)"):
        if given is not None:
            from .conditions import exact_given
            from .given import parse
            from .stats.exact_given_cache import exact_given_table

            gv = parse(g, given)  # the key: the cards, however they were written
            return exact_given_table(g, rule_obj, gv, lambda: exact_given(g, rule_obj, gv))
        if hasattr(g, "exact_table"):  # a game with its own deal-time combinatorics (koi-koi)
            return g.exact_table(rule_obj)
        return exact_table(g.deal_spec(rule_obj), g.name)
