"""The session machinery, once for every game: chunks, sessions, their stream keys, games back to
back within a session, the dealer rotation, the players' totals and counting only whole games.

A game supplies its round and its tallies as functions of its own module, by fixed names (the
hooks below); the engine's loops call them as ``game.<hook>(...)``, where ``game`` is the
game's module.  The loops are numba templates (``inline="always"``): a game's two kernels,
``run_chunks`` and ``play_sessions``, are two-line calls of :func:`run_chunks` and
:func:`play` with the game's module as the first argument, and numba's inliner
replaces every ``game.<hook>`` call by the game's own code.  So the compiled kernel is what
the game would have written out: one call per chunk, the round inlined (the tables travel
into a call as dozens of scalar arguments), typed once, cached in the game's file like any
kernel, and the engine never imports a game.  See ``ADDING_A_GAME.md``.

Hooks (``tb``: the game's Tables NamedTuple; all ``@hot(inline="always")`` functions, the two
that allocate ``@njit(inline="always")``)::

    new_work(tb) -> work                 per-chunk scratch: a tuple of arrays (allocates)
    look_context(tb, work, players)      the lookahead context (tables, res, scratch, ...)
    chunk_counters(tb, counters, ch)     chunk ch's row of every counter array, a tuple
    session_length(tb) -> int            rounds a session counts
    n_players(tb) -> int                 players at the table (seat s is (dealer + s) % n)
    start_game(tb, work, key, i, n_rounds) -> dealer
                                         a game starts after i rounds of the session: point
                                         the generators, put the deck in order, draw the
                                         first dealer
    play_round(tb, work, players, key, i, dealer, look)
                                         the session's round i: deal, play from the state,
                                         score into work
    tally_round(tb, work, counts, dealer)    add the round to the chunk's counters
    seat_score(tb, work, seat) -> int    the round's score of a seat (relative to the dealer)
    next_dealer(tb, work, dealer) -> int the next round's dealer (the rotation)
    game_over(tb, work, counts, r, n_rounds, totals) -> int
                                         after the game's r-th round: 0 play on, 1 the game is
                                         over (tally it), -1 cut off by the end of the run
                                         (its rounds count, the game does not)
    tally_game(tb, work, counts, first, totals)
                                         a whole game: first dealer, player totals (and
                                         what the game kept of it in work)
    end_chunk(tb, counts, look)          after a chunk's sessions (counts kept in ``look``)

What the engine does, per chunk of sessions ``s0 .. s1-1``::

    work = new_work(tb); counts = chunk_counters(tb, counters, ch)
    look = None, or look_context(tb, work, players)   # a lookahead kernel of its own
    for s in s0 .. s1-1:
        key = stream_state(seed, s)               # the session's random-stream key
        n_rounds = min(L, total_rounds - s * L)   # L = session_length(tb): the last one cut off
        i = counted = 0
        while counted < n_rounds:                 # games back to back (Toppa: one a session)
            dealer = start_game(tb, work, key, i, n_rounds); first = dealer; totals[:] = 0
            for r = 1, 2, ...:
                play_round(tb, work, players, key, i, dealer, look); i += 1
                if counted < n_rounds: counted += 1; tally_round(tb, work, counts, dealer)
                totals[(dealer + seat) % n] += seat_score(tb, work, seat)   for each seat < n
                dealer = next_dealer(tb, work, dealer)
                over = game_over(tb, work, counts, r, n_rounds, totals)
                if over: break
            if over > 0: tally_game(tb, work, counts, first, totals)
    end_chunk(tb, counts, look)

Which loop runs is the game's declaration, ``LOOP`` in its hook module, and the engine's
choice (:func:`play`; the game's ``play_sessions`` kernel names no loop):

- ``LOOP = ONE_GAME``: a session is one game of its rounds (Toppa's session, Baka's game of
  3); it ends at ``r == n_rounds`` and :func:`whole_session` says whether it was whole.
  :func:`play_sessions` is the loop above written as a counted loop (faster for Toppa's greedy
  rounds); it still asks ``game_over`` after every round and raises if the game says other
  than :func:`whole_session` (a game with an end of its own declared ``ONE_GAME``).
- ``LOOP = SERIES``: games back to back (koi-koi's target, Taipa's coins):
  :func:`play_series`; ``game_over`` says when a game ends, and the rounds it plays after the
  run's rounds are counted finish the game without being tallied.

``players`` is whatever the game's rounds need to know about the players (Toppa: the tuple
``(policy, expose)``); ``counters`` a tuple of int64 arrays whose first axis is the chunk.  How
a game draws its random numbers stays its own: ``start_game`` and ``play_round`` get the
session's key, the round's index in the session and ``work`` (where the game keeps its
generator states), so one stream per session (Toppa, Baka) and one per round
(``rng.round_stream``: Kushiro Toppa, Taoshi, koi-koi) are both written in the game.
"""
import inspect

import numpy as np
from numba import njit

from .rng import stream_state

#: the most players at a table (the length of the session totals)
MAX_SEATS = 8

#: the functions a game's module defines for the engine, with their arguments
HOOKS = {
    "new_work": ("tb",),
    "look_context": ("tb", "work", "players"),
    "chunk_counters": ("tb", "counters", "ch"),
    "session_length": ("tb",),
    "n_players": ("tb",),
    "start_game": ("tb", "work", "key", "i", "n_rounds"),
    "play_round": ("tb", "work", "players", "key", "i", "dealer", "look"),
    "tally_round": ("tb", "work", "counts", "dealer"),
    "seat_score": ("tb", "work", "seat"),
    "next_dealer": ("tb", "work", "dealer"),
    "game_over": ("tb", "work", "counts", "r", "n_rounds", "totals"),
    "tally_game": ("tb", "work", "counts", "first", "totals"),
    "end_chunk": ("tb", "counts", "look"),
}
#: what the one-game loop raises when a game ends before its session does
WRONG_LOOP = ("the game ended before its session's last round (game_over): its hook module "
              "must declare LOOP = sessions.SERIES, not ONE_GAME")

#: hooks of the first version, and what replaced them
RENAMED = {"start_session": "start_game(tb, work, key, i, n_rounds)",
           "tally_session": "tally_game(tb, work, counts, first, totals)"}


@njit(inline="always")
def whole_session(r, n_rounds, length):
    """``game_over`` of a game that is the whole session (``length`` rounds, the last session
    ``n_rounds`` < ``length`` when the run ends inside it): 0 before its last round, then 1 if
    it was whole, -1 if cut off (its rounds count, the session does not)."""
    if r < n_rounds:
        return 0
    return 1 if n_rounds == length else -1


@njit(inline="always")
def run_chunks(game, seed, first_session, n_sessions, chunk, total_rounds, tb, players,
               counters, look):
    """Sessions ``first_session ..`` in chunks of ``chunk`` sessions, one chunk per iteration;
    counters are per chunk (first axis) and summed by the caller, so results never depend on
    threads.  ``look``: None, or True when a player plays by lookahead (a kernel of its own:
    numba prunes the lookahead code from the other).

    Inlined into the game's ``run_chunks`` (``@njit(cache=True, nogil=True)``), which calls
    the game's ``play_sessions`` (a ``@hot`` function: no reference counting) once a chunk."""
    n_chunks = counters[0].shape[0]
    totals = np.zeros(MAX_SEATS, dtype=np.int64)
    for ch in range(n_chunks):
        work = game.new_work(tb)
        counts = game.chunk_counters(tb, counters, ch)
        s0 = first_session + ch * chunk
        s1 = min(s0 + chunk, first_session + n_sessions)
        if look is None:
            game.play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals,
                               None)
            game.end_chunk(tb, counts, None)
        else:
            ctx = game.look_context(tb, work, players)
            game.play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals,
                               ctx)
            game.end_chunk(tb, counts, ctx)


@njit(inline="always")
def play(game, seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    """Sessions ``s0 .. s1-1`` of a chunk by the loop the game declares, ``game.LOOP``:
    ``ONE_GAME`` (:func:`play_sessions`) or ``SERIES`` (:func:`play_series`).  The
    declaration is the loop itself, a global of the game's module, so numba inlines that loop
    and no other (a branch on a number inlined both loops before pruning one: Toppa's play
    kernel compiled in 21 s of CPU instead of 13).  Inlined into the game's ``play_sessions``
    (``@hot``), every hook into it."""
    game.LOOP(game, seed, s0, s1, total_rounds, tb, work, players, counts, totals, look)


@njit(inline="always")
def play_sessions(game, seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    """Sessions ``s0 .. s1-1`` that are one game of the session's rounds each (the Toppa
    family), session s on the stream key ``stream_state(seed, s)``: :func:`play_series` with
    ``game_over`` = :func:`whole_session`, written as a counted loop.  Kept apart because the
    general loop cost Toppa's greedy rounds about a tenth of their speed.  ``game_over`` is
    asked after every round only to refuse a game declared ``ONE_GAME`` that ends on its own
    (``WRONG_LOOP``, raised after the chunk's sessions).  Inlined by :func:`play`."""
    length = game.session_length(tb)
    n = game.n_players(tb)
    wrong = False  # a game ended before its session: raised after the loop (see below)
    for s in range(s0, s1):
        key = stream_state(seed, s)
        n_rounds = min(length, total_rounds - s * length)
        dealer = game.start_game(tb, work, key, 0, n_rounds)
        first = dealer
        for q in range(n):
            totals[q] = 0
        # (unsigned positions below: no check for a negative index)
        for i in range(n_rounds):
            game.play_round(tb, work, players, key, i, dealer, look)
            game.tally_round(tb, work, counts, dealer)
            for seat in range(n):
                q = dealer + seat
                q = q - n if q >= n else q
                totals[np.uint64(q)] += game.seat_score(tb, work, seat)
            dealer = game.next_dealer(tb, work, dealer)
            over = game.game_over(tb, work, counts, i + 1, n_rounds, totals)
            wrong |= over != whole_session(i + 1, n_rounds, length)
        if n_rounds == length:  # a session cut off by the end of the run: its rounds count only
            game.tally_game(tb, work, counts, first, totals)
    # Raised once a chunk, not from the round loop: an exit there cost Kushiro Toppa's random
    # rounds about 5% (interleaved runs); a compare a round does not.
    if wrong:
        raise ValueError(WRONG_LOOP)


@njit(inline="always")
def play_series(game, seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    """Sessions ``s0 .. s1-1``, session s on the stream key ``stream_state(seed, s)``: games
    back to back until the session's rounds are counted, the last one finished (koi-koi,
    Taipa: the module docstring).  Inlined by :func:`play`."""
    length = game.session_length(tb)
    n = game.n_players(tb)
    for s in range(s0, s1):
        key = stream_state(seed, s)
        n_rounds = min(length, total_rounds - s * length)
        i = 0  # rounds dealt in the session: the index of the round's streams
        counted = 0  # rounds counted in the run's rounds
        while counted < n_rounds:
            dealer = game.start_game(tb, work, key, i, n_rounds)
            first = dealer
            for q in range(n):
                totals[q] = 0
            r = 0
            over = 0
            while over == 0:
                game.play_round(tb, work, players, key, i, dealer, look)
                i += 1
                r += 1
                if counted < n_rounds:  # rounds that only finish the last game: not counted
                    counted += 1
                    game.tally_round(tb, work, counts, dealer)
                for seat in range(n):
                    q = dealer + seat
                    q = q - n if q >= n else q
                    totals[q] += game.seat_score(tb, work, seat)
                dealer = game.next_dealer(tb, work, dealer)
                over = game.game_over(tb, work, counts, r, n_rounds, totals)
            if over > 0:  # (-1: a game cut off by the end of the run: its rounds count only)
                game.tally_game(tb, work, counts, first, totals)


# ---------------------------------------------------------------- hooks a game takes whole
# Hooks that are the same line in many games, written once: a game's hook module assigns them
# (``n_players = sessions.param_hook(P_PLAYERS)``, ``end_chunk = sessions.end_chunk``).  The
# ones made here are never compiled alone: numba inlines them into the game's kernels, where
# ``slot`` and ``value`` are constants.

def param_hook(slot):
    """A hook ``(tb) -> tb.params[slot]`` (``session_length``, ``n_players``)."""
    @njit(inline="always", _nrt=False)
    def hook(tb):
        return tb.params[slot]
    return hook


def result_hook(w, slot):
    """The ``seat_score`` hook ``(tb, work, seat) -> work[w][slot + seat]``: the round's
    result array is ``work[w]``, its seats' scores from ``slot`` on."""
    @njit(inline="always", _nrt=False)
    def hook(tb, work, seat):
        return work[w][slot + seat]
    return hook


def one_game_over(session_length):
    """The ``game_over`` hook of a game declared ``ONE_GAME``: :func:`whole_session` of the
    game's ``session_length`` hook."""
    @njit(inline="always", _nrt=False)
    def hook(tb, work, counts, r, n_rounds, totals):
        return whole_session(r, n_rounds, session_length(tb))
    return hook


def constant_hook(value):
    """A hook ``(tb) -> value`` (a game of a fixed number of players or rounds)."""
    @njit(inline="always", _nrt=False)
    def hook(tb):
        return value
    return hook


@njit(inline="always", _nrt=False)
def rows1(tb, counters, ch):
    return (counters[0][ch],)


@njit(inline="always", _nrt=False)
def rows2(tb, counters, ch):
    return counters[0][ch], counters[1][ch]


@njit(inline="always", _nrt=False)
def rows3(tb, counters, ch):
    return counters[0][ch], counters[1][ch], counters[2][ch]


@njit(inline="always", _nrt=False)
def rows4(tb, counters, ch):
    return counters[0][ch], counters[1][ch], counters[2][ch], counters[3][ch]


@njit(inline="always", _nrt=False)
def rows5(tb, counters, ch):
    return (counters[0][ch], counters[1][ch], counters[2][ch], counters[3][ch],
            counters[4][ch])


@njit(inline="always", _nrt=False)
def rows6(tb, counters, ch):
    return (counters[0][ch], counters[1][ch], counters[2][ch], counters[3][ch],
            counters[4][ch], counters[5][ch])


def counter_rows(k):
    """The ``chunk_counters`` hook of a game with ``k`` counter arrays: chunk ``ch``'s row of
    each, in order."""
    return {1: rows1, 2: rows2, 3: rows3, 4: rows4, 5: rows5, 6: rows6}[k]


@njit(inline="always", _nrt=False)
def end_chunk(tb, counts, look):
    """The ``end_chunk`` hook of a game that keeps no counts in its lookahead context."""
    pass


#: the two shapes of a session; a game's hook module declares one as ``LOOP``
ONE_GAME, SERIES = play_sessions, play_series
LOOPS = {ONE_GAME: "ONE_GAME (one game of the session's rounds)",
         SERIES: "SERIES (games back to back, each with an end of its own)"}


def check_game(module):
    """Raise if ``module`` lacks a hook, takes other arguments, or defines one that numba would
    not inline (a game's module calls this when it registers: a missing or mistyped hook would
    otherwise fail deep inside numba)."""
    name = module.__name__
    old = [f"{h} (now {new})" for h, new in RENAMED.items() if hasattr(module, h)]
    if old:
        raise TypeError(f"{name} defines engine hooks that were renamed: {', '.join(old)}")
    missing = [h for h in (*HOOKS, "play_sessions", "run_chunks") if not hasattr(module, h)]
    if missing:
        raise TypeError(f"{name} lacks the engine hooks {', '.join(missing)}")
    loop = getattr(module, "LOOP", None)
    if not any(loop is known for known in LOOPS):
        raise TypeError(f"{name} must declare LOOP = sessions.ONE_GAME or sessions.SERIES "
                        f"(got {loop!r}): " + "; ".join(LOOPS.values()))
    kernel = getattr(module.play_sessions, "py_func", module.play_sessions)
    named = {"play_sessions", "play_series"} & set(kernel.__code__.co_names)
    if named:
        raise TypeError(f"{name}.play_sessions calls the engine's {min(named)} itself; call "
                        "sessions.play, which runs the loop the game's LOOP declares")
    for h, args in HOOKS.items():
        fn = getattr(module, h)
        if getattr(fn, "targetoptions", {}).get("inline") != "always":
            raise TypeError(f"{name}.{h} must be compiled with inline='always' "
                            "(@hot(inline='always') or @njit(inline='always'))")
        got = tuple(inspect.signature(fn.py_func).parameters)
        if got != args:
            raise TypeError(f"{name}.{h} takes {got}; the engine calls it with {args}")
