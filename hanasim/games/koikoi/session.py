"""Sessions of whole games, the chunk runner and the run's counters.

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

from functools import partial

import numpy as np
from numba import njit

from ...engine import lookahead as engine_lookahead
from ...engine.bits import count
from ...engine.jit import hot
from ...engine.rng import round_stream, stream_state
from ...policies import split_policy
from .deal import deal_round, first_dealer, lucky_bits
from .layout import (FIELD, K_BRIGHTS, KS_N, P_DEALS_ONLY, P_DRAW_PASS, P_FIRST_EARLIER,
                     P_FIXED_DEALER, P_GAME_ROUNDS, P_SERIES, P_STAKE, P_TARGET,
                     R_FIELD_BRIGHTS, R_LUCKY, R_N, R_SCORE, R_WINNER)
from .lookahead import new_look_scratch
from .lower import SERIES_ROUNDS, lower
from .round import play_dealt
from .rules import NAME, TEYAKU
from .tally import (C_CAPPED, C_FIRST_MARGIN, C_FIRST_MARGIN_SQ, C_FIRST_WINS, C_GAME_ROUNDS,
                    C_GAME_ROUNDS_SQ, C_GAME_TIES, C_GAMES, C_N, C_P0_FIRST, C_P0_GAME_WINS, H_N,
                    tally_deal, tally_round)

MAX_GAME_ROUNDS = 1000   # a game still running after this many rounds is stopped (counted)


@hot
def play_sessions(seed, s0, s1, total_rounds, rng, drng, order, groups, st, res, tb, policy,
                  decide, expose, scal, tcount, ycount, hist, look):
    """Sessions ``s0 .. s1-1``; session s's streams are keyed by ``stream_state(seed, s)``."""
    series = tb.params[P_SERIES]
    for s in range(s0, s1):
        key = stream_state(seed, s)
        n_rounds = min(series, total_rounds - s * series)
        if tb.params[P_DEALS_ONLY]:
            for i in range(n_rounds):
                round_stream(drng, key, 3 * i, order)
                mis = deal_round(drng, order, groups, tb.pattern, tb.params)
                res[R_LUCKY] = lucky_bits(groups[0])
                res[R_LUCKY + 1] = lucky_bits(groups[1])
                res[R_FIELD_BRIGHTS] = count(groups[FIELD] & tb.cards[K_BRIGHTS])
                tally_deal(scal, tcount, hist, res, mis)
        else:
            play_series(key, rng, drng, order, groups, st, res, tb, policy, decide, expose,
                        n_rounds, scal, tcount, ycount, hist, look)


@hot
def play_series(key, rng, drng, order, groups, st, res, tb, policy, decide, expose, n_rounds,
                scal, tcount, ycount, hist, look):
    """Whole games back to back until ``n_rounds`` rounds are counted (see the module's
    "Simulation unit"): the last game is finished for the game quantities.  Round i of the
    session cuts (when a game starts), deals and plays on streams 3i+2, 3i and 3i+1."""
    p = tb.params
    fixed = p[P_FIXED_DEALER] != 0
    stake = p[P_STAKE]
    target = p[P_TARGET]
    limit = p[P_GAME_ROUNDS]
    counted = 0
    i = 0
    while counted < n_rounds:
        dealer = 0
        if not fixed:
            round_stream(drng, key, 3 * i + 2, order)
            dealer = first_dealer(drng, order, p[P_FIRST_EARLIER])
        first = dealer
        t0 = stake
        t1 = stake
        r = 0
        while True:
            round_stream(drng, key, 3 * i, order)
            mis = deal_round(drng, order, groups, tb.pattern, tb.params)
            rng[0] = stream_state(key, np.uint64(3 * i + 1))
            i += 1
            month_mask = np.uint64(0xF) << np.uint64(4 * (r % 12))
            play_dealt(rng, order, groups, st, tb, policy, decide, expose, dealer, month_mask,
                       res, look)
            if counted < n_rounds:
                counted += 1
                tally_deal(scal, tcount, hist, res, mis)
                tally_round(scal, ycount, hist, res, dealer)
            if dealer == 0:
                t0 += res[R_SCORE]
                t1 += res[R_SCORE + 1]
            else:
                t1 += res[R_SCORE]
                t0 += res[R_SCORE + 1]
            w = res[R_WINNER]
            # The round's scorer deals next; a round nobody scores keeps the dealer (draw_dealer).
            if not fixed:
                if w >= 0:
                    dealer ^= w
                elif p[P_DRAW_PASS]:
                    dealer ^= 1
            r += 1
            done = ((limit > 0 and r >= limit) or (target > 0 and max(t0, t1) - stake >= target)
                    or (stake > 0 and min(t0, t1) <= 0))
            if done or r >= MAX_GAME_ROUNDS:
                scal[C_CAPPED] += not done
                break
        margin = t0 - t1 if first == 0 else t1 - t0
        scal[C_GAMES] += 1
        scal[C_GAME_ROUNDS] += r
        scal[C_GAME_ROUNDS_SQ] += r * r
        scal[C_FIRST_WINS] += margin > 0
        scal[C_GAME_TIES] += margin == 0
        scal[C_FIRST_MARGIN] += margin
        scal[C_FIRST_MARGIN_SQ] += margin * margin
        scal[C_P0_FIRST] += first == 0
        scal[C_P0_GAME_WINS] += t0 > t1


@njit(cache=True, nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, policy, decide, expose,
               scal, tcount, ycount, hist, look):
    """Sessions ``first_session ..`` in chunks of ``chunk`` sessions, one chunk per
    iteration; counters are per chunk and summed by the caller, so results never depend on
    threads or chunking.  ``look``: None, or True when a player plays by lookahead (a kernel
    of its own)."""
    n_chunks = scal.shape[0]
    for ch in range(n_chunks):
        rng = np.zeros(1, dtype=np.uint64)
        drng = np.zeros(1, dtype=np.uint64)
        order = np.arange(48).astype(np.int8)
        groups = np.zeros(3, dtype=np.uint64)
        st = np.zeros(KS_N, dtype=np.uint64)
        res = np.zeros(R_N, dtype=np.int64)
        s0 = first_session + ch * chunk
        s1 = min(s0 + chunk, first_session + n_sessions)
        if look is None:
            play_sessions(seed, s0, s1, total_rounds, rng, drng, order, groups, st, res, tb,
                          policy, decide, expose, scal[ch], tcount[ch], ycount[ch], hist[ch],
                          None)
        else:
            ctx = (tb, res, new_look_scratch(tb, 48))
            play_sessions(seed, s0, s1, total_rounds, rng, drng, order, groups, st, res, tb,
                          policy, decide, expose, scal[ch], tcount[ch], ycount[ch],
                          hist[ch], ctx)


def play_kernel(tb, seed, rounds, policy, decide, expose, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, policy, decide, expose,
               out["scal"], out["tcount"], out["ycount"], out["hist"],
               engine_lookahead.uses_lookahead(policy))


def decode_policies(packed) -> tuple:
    """(card policy ids, decisions int64[2, 2]) from :func:`policies.parse_policy` values."""
    parts = [split_policy(int(x)) for x in packed]
    policy = np.array([c for c, _, _ in parts], dtype=np.int64)
    decide = np.array([[d, k] for _, d, k in parts], dtype=np.int64)
    return policy, decide


def counters(rules, *, rounds, seed, policy, expose, session_rounds=1,
             fixed_dealer=False, checked=False, progress=False, deals_only=False,
             **run_options):
    """Integer counters of ``rounds`` counted rounds (dict of arrays), summed over chunks.

    Sessions are series of whole games (module docstring); ``session_rounds`` does not
    apply (only 1 is accepted).  ``policy``: packed ids (``policy_ids``)."""
    from ...engine.runner import run_batches

    if int(session_rounds) != 1:
        raise ValueError("koikoi plays whole games (the winner deals next, the game ends by "
                         "its rules); session_rounds does not apply (leave it at 1)")
    tb, names = lower(rules, fixed_dealer=fixed_dealer, checked=checked,
                      deals_only=deals_only)
    card, decide = decode_policies(policy)
    expose = np.ascontiguousarray(expose, dtype=np.int64)
    n_sessions = -(-rounds // SERIES_ROUNDS)
    shapes = dict(scal=(C_N,), tcount=(len(TEYAKU) + 1, 2), ycount=(len(names) + 1, 2),
                  hist=(H_N,))
    totals = run_batches(partial(play_kernel, tb, seed, rounds, card, decide, expose),
                         n_sessions, shapes, rounds_per_session=SERIES_ROUNDS,
                         progress=progress, desc=NAME, **run_options)
    totals["yaku_names"] = names
    totals["deals_only"] = bool(deals_only)
    totals["hand_size"] = rules.hand_size
    return totals
