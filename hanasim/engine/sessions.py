"""The session machinery, once for every game: chunks, sessions, their stream keys, the dealer
rotation, session totals by player and whole-session counting.

A game supplies its round and its tallies as functions of its own module, by fixed names (the
hooks below); the engine's loops call them as ``game.<hook>(...)``, where ``game`` is the
game's module.  The loops are numba templates (``inline="always"``): a game's two kernels,
``run_chunks`` and ``play_sessions``, are two-line calls of :func:`run_chunks` and
:func:`play_sessions` with the game's module as the first argument, and numba's inliner
replaces every ``game.<hook>`` call by the game's own code.  So the compiled kernel is what
the game would have written out: one call per chunk, the round inlined (the tables travel
into a call as dozens of scalar arguments), typed once, cached in the game's file like any
kernel, and the engine never imports a game.  See ``ADDING_A_GAME.md``.

Hooks (``tb``: the game's Tables NamedTuple; all ``@hot(inline="always")`` functions, the two
that allocate ``@njit(inline="always")``)::

    new_work(tb) -> work                 per-chunk scratch: a tuple of arrays (allocates)
    look_context(tb, work) -> look       the lookahead context (tables, res, scratch, ...)
    chunk_counters(tb, counters, ch)     chunk ch's row of every counter array, a tuple
    session_length(tb) -> int            rounds in a whole session
    n_players(tb) -> int                 players at the table (seat s is (dealer + s) % n)
    start_session(tb, work, key, n_rounds) -> dealer
                                         point the generators at the session's stream key,
                                         put the deck in order, draw the first dealer
    play_round(tb, work, players, key, i, dealer, look)
                                         round i: deal, play from the state, score into work
    tally_round(tb, work, counts, dealer)    add the round to the chunk's counters
    seat_score(tb, work, seat) -> int    the round's score of a seat (relative to the dealer)
    next_dealer(tb, work, dealer) -> int the next round's dealer (the rotation)
    tally_session(tb, counts, first, totals) add a whole session: first dealer, player totals

What the engine does, per chunk of sessions ``s0 .. s1-1``::

    work = new_work(tb); counts = chunk_counters(tb, counters, ch)
    look = None, or look_context(tb, work)        # a lookahead kernel of its own
    for s in s0 .. s1-1:
        key = stream_state(seed, s)               # the session's random-stream key
        n_rounds = min(L, total_rounds - s * L)   # L = session_length(tb): the last one cut off
        dealer = start_session(tb, work, key, n_rounds); first = dealer; totals[:] = 0
        for i in range(n_rounds):
            play_round(tb, work, players, key, i, dealer, look)
            tally_round(tb, work, counts, dealer)
            totals[(dealer + seat) % n] += seat_score(tb, work, seat)   for each seat < n
            dealer = next_dealer(tb, work, dealer)
        if n_rounds == L:                         # a cut-off session counts its rounds only
            tally_session(tb, counts, first, totals)

``players`` is whatever the game's rounds need to know about the players (Toppa: the tuple
``(policy, expose)``); ``counters`` a tuple of int64 arrays whose first axis is the chunk.  How
a game draws its random numbers stays its own: ``start_session`` and ``play_round`` get the
session's key, the round's index and ``work`` (where the game keeps its generator states), so
one stream per session (Toppa, Baka) and one per round (``rng.round_stream``: Kushiro Toppa,
Taoshi) are both written in the game, unchanged.
"""
import numpy as np
from numba import njit

from .rng import stream_state

#: the most players at a table (the length of the session totals)
MAX_SEATS = 8

#: the functions a game's module defines for the engine (see the module docstring)
HOOKS = ("new_work", "look_context", "chunk_counters", "session_length", "n_players",
         "start_session", "play_round", "tally_round", "seat_score", "next_dealer",
         "tally_session")


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
        else:
            game.play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals,
                               game.look_context(tb, work))


@njit(inline="always")
def play_sessions(game, seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    """Sessions ``s0 .. s1-1``, session s on the stream key ``stream_state(seed, s)``, each
    counted whole only when it is not cut off by the end of the run.  Inlined into the game's
    ``play_sessions`` (``@hot``), with every hook inlined into it."""
    length = game.session_length(tb)
    n = game.n_players(tb)
    for s in range(s0, s1):
        key = stream_state(seed, s)
        n_rounds = min(length, total_rounds - s * length)
        dealer = game.start_session(tb, work, key, n_rounds)
        first = dealer
        for q in range(n):
            totals[q] = 0
        for i in range(n_rounds):
            game.play_round(tb, work, players, key, i, dealer, look)
            game.tally_round(tb, work, counts, dealer)
            for seat in range(n):
                q = dealer + seat
                q = q - n if q >= n else q
                totals[q] += game.seat_score(tb, work, seat)
            dealer = game.next_dealer(tb, work, dealer)
        if n_rounds == length:  # a session cut off by the end of the run: its rounds count only
            game.tally_session(tb, counts, first, totals)


def check_game(module):
    """Raise if ``module`` lacks a hook or defines one that numba would not inline (a game's
    module is checked when it registers: a missing hook would fail deep inside numba)."""
    missing = [h for h in HOOKS + ("play_sessions", "run_chunks") if not hasattr(module, h)]
    if missing:
        raise TypeError(f"{module.__name__} lacks the engine hooks {', '.join(missing)}")
    for h in HOOKS:
        opts = getattr(getattr(module, h), "targetoptions", {})
        if opts.get("inline") != "always":
            raise TypeError(f"{module.__name__}.{h} must be compiled with inline='always' "
                            "(@hot(inline='always') or @njit(inline='always'))")
