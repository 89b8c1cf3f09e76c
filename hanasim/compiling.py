"""Saying so when a run waits for numba to compile a kernel.

A game's kernels are compiled the first time they are used (and then loaded from numba's
on-disk cache, see ``_cache``); a compile takes seconds to minutes, which looks like a hang
unless something says so.  Whether a call compiles is decided by numba itself: the
``numba:compile`` event fires exactly when a kernel is not in memory and not in the cache for
these argument types (``Dispatcher.compile``), so the notice is printed exactly when the wait
happens, for every kernel, the lookahead ones included, from the CLI and from Python alike.

:func:`notice` is a context manager the runner wraps around a run's batches; it names the
kernel being compiled (from the compile itself: which chunk runner, with or without a
lookahead player) and about how long it takes (:data:`ESTIMATE_S`, measured).
"""
from __future__ import annotations

import sys
import time
from contextlib import contextmanager

from numba.core import event

#: CPU seconds to compile each game's kernels from an empty cache: (the play kernel serving
#: random and greedy, the lookahead kernel on top of it, the deals-only kernel; 0: deals-only
#: runs use the play kernel).  Measured on an AMD EPYC VM (2 cores, numba 0.68.1) in a fresh
#: process per game (``hanasim bench``, median of 3), 2026-11-26 22:52-23:08 UTC at load 1.0;
#: on one free core the wait is about the same, on a loaded machine longer, which the notice
#: says.  A game's kernel for runs with given cards or ``--where`` (a kernel of its own, see
#: :func:`conditioned`) takes about :data:`GIVEN_EXTRA_S` more than its plain one.
ESTIMATE_S = {
    "toppa": (9, 15, 2),
    "baka": (8, 12, 2),
    "koikoi": (10, 16, 0),
    "kushiro_toppa": (8, 18, 0),
    "taipa": (7, 16, 1),
    "taoshi": (8, 15, 0),
    "bakappana": (5, 9, 2),
    "ishikari_toppa": (8, 13, 0),
}
GIVEN_EXTRA_S = 2
KINDS = ("play", "lookahead", "deals")
#: CPU seconds, measured as :data:`ESTIMATE_S` (2026-11-26 21:45 UTC, load 2.5, the journeys'
#: records), of the many small kernels a replay compiles (``replay``: checking a record's
#: actions and scoring its rounds) and of those and the lookahead's from a position
#: (``advice``: ``hanasim advise``, ``replay --advise``), announced once for all of them
SCOPE_S = {
    "replay": {"toppa": 3, "baka": 3, "koikoi": 6, "kushiro_toppa": 2, "taipa": 1,
               "taoshi": 2, "bakappana": 1, "ishikari_toppa": 2},
    "advice": {"toppa": 7, "baka": 7, "koikoi": 16, "kushiro_toppa": 8, "taipa": 8,
               "taoshi": 5, "bakappana": 4, "ishikari_toppa": 6},
}
_WHAT = {"play": "{title} kernel (random and greedy play)",
         "lookahead": "{title} kernel for lookahead play",
         "deals": "{title} deals-only kernel",
         "replay": "{title} kernels for replaying a record",
         "advice": "{title} kernels for replay and advice (the lookahead from a position)"}


def kind_of(dispatcher, args) -> str:
    """Which of a game's kernels a compile is: ``play``, ``lookahead`` or ``deals``.

    Every game's chunk runner is ``run_chunks`` and takes its lookahead context last (``None``
    without a lookahead player: a kernel of its own); the deals-only runners are
    ``run_deal_chunks``.  Anything else (a helper compiled on its own) is ``other``."""
    name = getattr(getattr(dispatcher, "py_func", None), "__name__", "")
    if name == "run_deal_chunks":
        return "deals"
    if name == "run_chunks":
        from numba.core import types

        return "play" if args and isinstance(args[-1], (types.NoneType, types.Omitted)) \
            else "lookahead"
    return "other"


def conditioned(kind: str, args) -> bool:
    """Whether a compile is a kernel for runs with given cards or ``--where``.  Every game's
    plain runs give their kernels ``cond`` None (``conditions.kernel_cond``), compiled without
    the conditioned deal's code, so a run with either compiles a kernel of its own: its
    tables' ``cond`` (or the engine's deals-only runner's last argument) is an array."""
    from numba.core import types

    for a in args or ():
        if isinstance(a, types.BaseNamedTuple) and "cond" in getattr(a, "fields", ()):
            return not isinstance(a.types[a.fields.index("cond")], types.NoneType)
    # engine.deal_only.run_deal_chunks takes the condition itself, last
    return kind == "deals" and bool(args) and isinstance(args[-1], types.Array)


def estimate(game: str, kind: str) -> float | None:
    """The measured seconds of a cold compile of ``game``'s ``kind`` kernel, or None."""
    if kind in SCOPE_S:
        return SCOPE_S[kind].get(game)
    row = ESTIMATE_S.get(game)
    if row is None or kind not in KINDS:
        return None
    return row[KINDS.index(kind)] or None


def _where_refused(game: str) -> bool:
    """True for a game that takes no ``--where`` (Taipa: its deck shrinks between rounds)."""
    try:
        from .conditions import layout_of
        from .games import get_game

        g = get_game(game)
        return bool(layout_of(g, g.Rules()).where_refused)
    except Exception:  # a name the registry does not know, or no conditioned deals
        return False


def title(game: str) -> str:
    """The game's title without its note: 'Toppa', 'Taipa hanafuda'."""
    try:
        from .games import get_game

        return get_game(game).title.split(" (")[0]
    except Exception:  # a name the registry does not know: say the name
        return game


def _what(game: str, kind: str, name: str = "") -> str:
    return _WHAT.get(kind, "{title} kernel " + name).format(title=title(game))


def describe(game: str, kind: str, name: str = "", given: bool = False) -> str:
    """The notice's words: what is compiled and about how long it takes (``given``: the
    kernel for runs with given cards or ``--where``, see :func:`conditioned`)."""
    what = _what(game, kind, name)
    if given:
        what += " for runs with given cards" + ("" if _where_refused(game) else " or --where")
    s = estimate(game, kind)
    if given and s:
        s += GIVEN_EXTRA_S
    about = f"about {s:.0f} s on a free core" if s else "up to a minute or two"
    them = "them" if " kernels " in f"{what} " else "it"
    return (f"hanasim: compiling the {what}: the first time only, {about}; later runs load "
            f"{them} from the cache")


class _Listener(event.Listener):
    """Announces the first hanasim compile that starts in its scope (nested compiles are
    parts of it) and records how long each announced compile took."""

    #: (game, scope) said in this process with their estimate (``notice(scope=...)``)
    announced: set = set()

    def __init__(self, game, out, say, scope=None):
        self.game = game
        self.out = out
        self.say = say
        self.scope = scope  # a kind said once for every compile in the block (SCOPE_S)
        self.depth = 0
        self.started = None
        self.compiled = []  # (kind, seconds) of every outermost compile

    def on_start(self, ev):
        self.depth += 1
        if self.depth > 1:
            return
        d = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
        module = getattr(getattr(d, "py_func", None), "__module__", "") or ""
        if not module.startswith("hanasim"):
            self.started = None  # numba's own helpers (np.zeros ...): short, said nothing
            return
        kind = self.scope or kind_of(d, ev.data.get("args"))
        said = self.scope is not None and any(k == kind for k, _ in self.compiled)
        self.started = (kind, time.perf_counter())
        if self.say and not said:
            out = self.out if self.out is not None else sys.stderr
            given = self.scope is None and conditioned(kind, ev.data.get("args"))
            line = describe(self.game, kind, d.py_func.__name__, given)
            if self.scope is not None:
                # a scope's kernels compile over several calls (each advice asks for others):
                # the estimate of them all is said once a process, later calls say "more"
                if (self.game, kind) in self.announced:
                    line = f"hanasim: compiling more of the {_what(self.game, kind)} (the " \
                           "first time only)"
                self.announced.add((self.game, kind))
            print(line, file=out, flush=True)

    def on_end(self, ev):
        self.depth -= 1
        if self.depth == 0 and self.started is not None:
            kind, t0 = self.started
            self.compiled.append((kind, time.perf_counter() - t0))
            self.started = None


@contextmanager
def notice(game: str, out=None, say: bool = True, scope: str | None = None):
    """Within this block, every kernel numba compiles (not loads) is announced on ``out``
    (stderr by default) with its game, kind and expected time (``say=False``: only recorded).
    ``scope`` (a kind of :data:`SCOPE_S`): the block's many compiles are one wait, said once
    as that kind.  Yields the listener, whose ``compiled`` lists ``(kind, seconds)`` of the
    compiles that happened."""
    listener = _Listener(game, out, say, scope)
    event.register("numba:compile", listener)
    try:
        yield listener
    finally:
        event.unregister("numba:compile", listener)


def clock_past_compiles(bar, listener, counted: int = 0) -> int:
    """Move a progress bar's clock past the compiles ``listener`` recorded after the first
    ``counted``, so that its elapsed time and rate count running, not compiling: a first run
    that compiled for 9 s and then ran for 0.2 s would otherwise show "12k round/s" for a
    kernel that runs millions (the notice has said what the wait was).  Returns how many
    compiles are now counted, for the next call."""
    new = listener.compiled[counted:]
    if new and not getattr(bar, "disable", True):
        now = bar._time()
        wait = sum(seconds for _, seconds in new)
        bar.start_t = min(now, bar.start_t + wait)  # what tqdm's own unpause() moves
        bar.last_print_t = min(now, bar.last_print_t + wait)
    return len(listener.compiled)


#: seconds of silent work after which :func:`said_if_slow` says what the wait is
SAY_AFTER_S = 1.0


@contextmanager
def said_if_slow(words: str, out=None, after: float | None = None):
    """Within this block, work that is still going after ``after`` seconds
    (:data:`SAY_AFTER_S`) is said on ``out`` (stderr) in one line, ``hanasim: WORDS``: the
    waits that are not a compile (exact tables computed in Python) say so too."""
    import threading

    def say():
        print(f"hanasim: {words}", file=out if out is not None else sys.stderr, flush=True)

    timer = threading.Timer(SAY_AFTER_S if after is None else after, say)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def in_notebook() -> bool:
    """Whether this is a Jupyter kernel (an IPython kernel app; not a terminal IPython)."""
    ipython = sys.modules.get("IPython")  # never imported here: only asked if already loaded
    try:
        shell = ipython.get_ipython() if ipython is not None else None
        return shell is not None and "IPKernelApp" in shell.config
    except Exception:
        return False


def progress_bar():
    """The progress bar class: tqdm's notebook bar in Jupyter when ipywidgets is installed,
    else its text bar (``tqdm.auto`` would also fall back, but with a warning every run)."""
    if in_notebook():
        try:
            import ipywidgets  # noqa: F401
            from tqdm.notebook import tqdm as bar

            return bar
        except ImportError:
            pass
    from tqdm import tqdm as bar

    return bar
