"""Koi-koi on the engine's session machinery (``engine.sessions``): its hooks (the round, the
dealer rotation, the end of a game, the tallies), its two kernels, and a run's counters.

A game
------
The first dealer is drawn by a cut (``first_dealer``); the round's scorer deals next (a round
nobody scores: ``draw_dealer``).  A game ends at ``target`` points, after ``game_rounds``
rounds, or when a player's ``stake`` runs out, whichever comes first; the player with more
points wins it.  Round ``r`` of a game (from 0) is month ``r mod 12 + 1`` (cards of the month).

Simulation unit
---------------
A session ("series") is ``lower.SERIES_ROUNDS`` rounds of whole games played back to back; round
i of session s cuts, deals and plays on random streams keyed by (seed, s, i), so variants run on
one seed see the same deals round by round (``engine.rng.round_stream``). Round quantities count
exactly the session's first ``SERIES_ROUNDS`` rounds, so ``rounds`` is exact; the game in
progress when the session's rounds are used up is played to its end for the game quantities
only, so every game a session starts is counted whole (cutting games off would leave out long
games more often than short ones).

"""
from __future__ import annotations

import sys
from functools import partial

import numpy as np
from numba import njit

from ...engine import lookahead as engine_lookahead
from ...engine import card_tally, sessions
from ...engine.bits import count
from ...engine.jit import hot
from ...engine.rng import round_stream, round_streams
from ...policies import split_policy
from .deal import deal_round, first_dealer, lucky_bits
from .layout import (FIELD, K_BRIGHTS, KS_N, P_DEALS_ONLY, P_DRAW_PASS, P_FIRST_EARLIER,
                     P_FIXED_DEALER, P_GAME_ROUNDS, P_SERIES, P_STAKE, P_TARGET,
                     R_FIELD_BRIGHTS, R_LUCKY, R_MISDEALS, R_N, R_SCORE, R_WINNER)
from .lookahead import new_look_scratch
from .lower import SERIES_ROUNDS, lower
from .round import play_dealt
from .rules import N_PLAYERS, NAME, TEYAKU
from .tally import (C_CAPPED, C_FIRST_MARGIN, C_FIRST_MARGIN_SQ, C_FIRST_WINS, C_GAME_ROUNDS,
                    C_GAME_ROUNDS_SQ, C_GAME_TIES, C_GAMES, C_N, C_P0_FIRST, C_P0_GAME_WINS, H_N,
                    tally_deal)
from .tally import tally_round as tally_play

MAX_GAME_ROUNDS = 1000   # a game still running after this many rounds is stopped (counted)


# ---- the engine's hooks (``engine.sessions``; ``engine/ADDING_A_GAME.md``)

@njit(inline="always")
def new_work(tb):
    """Per-chunk scratch: the round's generator, the deal's generator, the deck order, the dealt
    groups, the round state, the round's result, the round of the game (its month)."""
    # the deck order: any contents (every round's stream puts it in order first); np.empty
    # rather than np.arange(48).astype: two numpy functions fewer to compile
    return (np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.uint64),
            np.empty(48, dtype=np.int8), np.zeros(3, dtype=np.uint64),
            np.zeros(KS_N, dtype=np.uint64), np.zeros(R_N, dtype=np.int64),
            np.zeros(1, dtype=np.int64))


@njit(inline="always")
def look_context(tb, work, players):
    return (tb, work[5], new_look_scratch(tb, 48))


@hot(inline="always")
def start_game(tb, work, key, i, n_rounds):
    """A game starts at the session's round ``i``: the first dealer's cut on stream 3i+2 (0
    with a fixed dealer).  A deals-only run has no games: every round stands alone."""
    p = tb.params
    rng, drng, order, groups, st, res, game_round = work
    game_round[0] = 0
    if p[P_FIXED_DEALER] != 0 or p[P_DEALS_ONLY] != 0:
        return 0
    round_stream(drng, key, 3 * i + 2, order)
    return first_dealer(drng, order, p[P_FIRST_EARLIER])


@hot(inline="always")
def play_round(tb, work, players, key, i, dealer, look):
    """The session's round ``i``: dealt on stream 3i, played on stream 3i+1; round ``r`` of the
    game (from 0) is month ``r mod 12 + 1``."""
    rng, drng, order, groups, st, res, game_round = work
    policy, decide, expose = players
    round_streams(drng, rng, key, i, order)
    mis = deal_round(drng, order, groups, tb.pattern, tb.params, tb.cond)
    if tb.params[P_DEALS_ONLY] != 0:
        res[R_LUCKY] = lucky_bits(groups[0])
        res[R_LUCKY + 1] = lucky_bits(groups[1])
        res[R_FIELD_BRIGHTS] = count(groups[FIELD] & tb.cards[K_BRIGHTS])
    else:
        r = game_round[0]
        month_mask = np.uint64(0xF) << np.uint64(4 * (r % 12))
        play_dealt(rng, order, groups, st, tb, policy, decide, expose, dealer, month_mask, res,
                   look)
        game_round[0] = r + 1
    res[R_MISDEALS] = mis


@hot(inline="always")
def tally_round(tb, work, counts, dealer):
    scal, tcount, ycount, hist, cards = counts
    res = work[5]
    tally_deal(scal, tcount, hist, res, res[R_MISDEALS])
    if tb.params[P_DEALS_ONLY] == 0:
        tally_play(scal, ycount, hist, res, dealer)
        card_tally.tally_round(GAME, tb, work, cards, N_PLAYERS)


@hot(inline="always")
def dealt(tb, work, g):
    # the dealt groups (card values): seat g relative to the dealer, g == FIELD the field
    return work[3][g]


@hot(inline="always")
def next_dealer(tb, work, dealer):
    """The round's scorer deals next; a round nobody scores keeps the dealer (``draw_dealer``)."""
    p = tb.params
    if p[P_FIXED_DEALER] != 0:
        return dealer
    w = work[5][R_WINNER]
    if w >= 0:
        return dealer ^ w
    return dealer ^ 1 if p[P_DRAW_PASS] != 0 else dealer


@hot(inline="always")
def game_over(tb, work, counts, r, n_rounds, totals):
    """After the game's ``r``-th round: over at ``game_rounds`` rounds, at ``target`` points, when
    a ``stake`` runs out (the totals count from 0, a stake from ``stake``), or (counted as
    capped) after ``MAX_GAME_ROUNDS``.  A session finishes its last game (1, never -1); a
    deals-only run's rounds are no games (-1: counted, no game tallied)."""
    p = tb.params
    if p[P_DEALS_ONLY] != 0:
        return -1
    stake = p[P_STAKE]
    target = p[P_TARGET]
    limit = p[P_GAME_ROUNDS]
    # bools combined by & and |, not short-circuits: fewer statements to compile
    done = (((limit > 0) & (r >= limit)) | ((target > 0) & (max(totals[0], totals[1]) >= target))
            | ((stake > 0) & (min(totals[0], totals[1]) + stake <= 0)))
    if not done and r < MAX_GAME_ROUNDS:
        return 0
    counts[0][C_CAPPED] += not done  # (every game that ends here is tallied: 1)
    return 1


@hot(inline="always")
def tally_game(tb, work, counts, first, totals):
    scal = counts[0]
    r = work[6][0]  # the game's rounds (play_round)
    scal[C_GAME_ROUNDS] += r
    scal[C_GAME_ROUNDS_SQ] += r * r
    t0 = totals[0]
    t1 = totals[1]
    margin = t0 - t1 if first == 0 else t1 - t0
    scal[C_GAMES] += 1
    scal[C_FIRST_WINS] += margin > 0
    scal[C_GAME_TIES] += margin == 0
    scal[C_FIRST_MARGIN] += margin
    scal[C_FIRST_MARGIN_SQ] += margin * margin
    scal[C_P0_FIRST] += first == 0
    scal[C_P0_GAME_WINS] += t0 > t1


GAME = sys.modules[__name__]  # the module whose hooks the engine inlines
LOOP = sessions.SERIES  # games back to back (engine.sessions.play runs them)
chunk_counters = sessions.counter_rows(5)  # scal, tcount, ycount, hist, cards
session_length = sessions.param_hook(P_SERIES)
n_players = sessions.constant_hook(N_PLAYERS)
seat_score = sessions.result_hook(5, R_SCORE)
end_chunk = sessions.end_chunk  # nothing kept in the lookahead context


@hot
def play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    sessions.play(GAME, seed, s0, s1, total_rounds, tb, work, players, counts, totals,
                  look)


@njit(cache=True, nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, policy, decide, expose,
               scal, tcount, ycount, hist, cards, look):
    """Sessions ``first_session ..`` in chunks of ``chunk`` sessions (``engine.sessions``);
    ``cards``: ``engine.card_tally`` (empty unless the run tallies card values); ``look``:
    None, or True when a player plays by lookahead (a kernel of its own)."""
    sessions.run_chunks(GAME, seed, first_session, n_sessions, chunk, total_rounds, tb,
                        (policy, decide, expose), (scal, tcount, ycount, hist, cards), look)


def play_kernel(tb, seed, rounds, policy, decide, expose, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, policy, decide, expose,
               out["scal"], out["tcount"], out["ycount"], out["hist"],
               card_tally.kernel_counter(out), engine_lookahead.uses_lookahead(policy))


def decode_policies(packed) -> tuple:
    """(card policy ids, decisions int64[2, 2]) from :func:`policies.parse_policy` values."""
    parts = [split_policy(int(x)) for x in packed]
    policy = np.array([c for c, _, _ in parts], dtype=np.int64)
    decide = np.array([[d, k] for _, d, k in parts], dtype=np.int64)
    return policy, decide


def counters(rules, *, rounds, seed, policy, expose, session_rounds=1,
             fixed_dealer=False, checked=False, progress=False, deals_only=False,
             cond=None, card_values=False, **run_options):
    """Integer counters of ``rounds`` counted rounds (dict of arrays), summed over chunks;
    ``card_values``: also ``cards`` (``engine.card_tally``: each seat's scores by dealt card).

    Sessions are series of whole games (module docstring); ``session_rounds`` does not
    apply (only 1 is accepted).  ``policy``: packed ids (``policy_ids``)."""
    from ...conditions import kernel_cond
    from ...engine.runner import run_batches

    if int(session_rounds) != 1:
        raise ValueError("koikoi plays whole games (the winner deals next, the game ends by "
                         "its rules); session_rounds does not apply (leave it at 1)")
    tb, names = lower(rules, fixed_dealer=fixed_dealer, checked=checked,
                      deals_only=deals_only)
    tb = tb._replace(cond=kernel_cond(cond))  # None: no conditioned-deal code
    card, decide = decode_policies(policy)
    expose = np.ascontiguousarray(expose, dtype=np.int64)
    n_sessions = -(-rounds // SERIES_ROUNDS)
    shapes = dict(scal=(C_N,), tcount=(len(TEYAKU) + 1, 2), ycount=(len(names) + 1, 2),
                  hist=(H_N,))
    if card_values:
        shapes["cards"] = card_tally.shape(N_PLAYERS, 48)
    totals = run_batches(partial(play_kernel, tb, seed, rounds, card, decide, expose),
                         n_sessions, shapes, rounds_per_session=SERIES_ROUNDS,
                         progress=progress, desc=NAME, **run_options)
    totals["yaku_names"] = names
    totals["deals_only"] = bool(deals_only)
    totals["hand_size"] = rules.hand_size
    return totals


sessions.check_game(GAME)  # every hook there, inlinable, with its arguments
