"""A Taipa game and the sessions of games: the first player, the coins, the deck that shrinks
between rounds; the chunk runners the registry's ``counters`` runs.

Simulation unit
---------------
As koi-koi: a session is :data:`SERIES_ROUNDS` counted rounds of whole games back to back, the
last game finished for the game quantities.  Round i of a session deals on stream 3i, plays on
3i+1 and draws the first player and the removed cards on 3i+2 (keyed by (seed, session)).
Seats: seat 0 is the round's first player; ``first ^ seat`` is the player in a seat.
Deals only (``deals_only``): sessions of :data:`DEALS_PER_SESSION` deals of round 1 on stream
``session``, no play.

Each round's streams are pointed with ``engine.rng.stream_state`` itself: the engine's
``round_stream`` also puts a 48-card order back in card order, which Taipa must not do (its
deck is a shrinking subset laid out from a card mask, and two of a round's three streams are
pointed while the round's deck is in play).
"""
from functools import partial

import numpy as np
from numba import njit

from ...engine.bits import ONE, ZERO, bit, count, lowest
from ...engine.jit import hot
from ...engine.lookahead import new_scratch, uses_lookahead
from ...engine.rng import below, shuffle_first, stream_state
from ...policies import DEC_STOP
from .hooks import removals, set_coins
from .lookahead import A_YC_CHANGED, A_YC_DECISIONS
from .lower import (P_CHECKED, P_COINS, P_DECK, P_FIXED_FIRST, P_KEEP_EXH, P_ROUNDS, P_SERIES,
                    P_SHORT_END, P_TIE, P_UNCAPPED, TIE_ALTERNATE, TIE_RANDOM, lower)
from .policy import decode_policies
from .round import R_N, R_SCORE, R_TURNS, R_WINNER, ST_N, check_round, play_round, yaku_bits
from .rules import (DEALS_PER_SESSION, DEALT, FULL_ROUND, HAND, MAX_ROUNDS, N_PLAYERS, NAME,
                    SERIES_ROUNDS, YAKU)
from .tally import (C_DECK_END, C_EARLY, C_FIRST_GAME_WINS, C_FIRST_MARGIN, C_FIRST_MARGIN_SQ,
                    C_GAME_ROUNDS, C_GAME_ROUNDS_SQ, C_GAME_TIES, C_GAME_TURNS, C_GAME_TURNS_SQ,
                    C_GAMES, C_N, C_P0_COINS, C_P0_COINS_SQ, C_P0_FIRST, C_P0_GAME_WINS,
                    C_REMOVED, C_REMOVED_SQ, C_ROUNDS, C_YC_CHANGED, C_YC_DECISIONS, COIN_BINS,
                    COIN_LO, H_COINS, H_N, H_ROUNDS, RK_N, RK_REMOVED, RK_REMOVED_SQ, tally_deal,
                    tally_round)
from .yaku_choice import MAX_KEEPS


@hot
def play_game(key, i0, rng, xrng, order, tmp, cap_time, st, res, tb, policy, decide, out, deck,
              look):
    """One whole game from round index ``i0`` of session ``key``, round 1 dealt from ``deck``
    (a card mask: the full deck, or a smaller one in the tests); per-round results are
    handed to the caller through ``out[k, :]`` (round k's ``res``, its first player and the
    coins paid) and the game's facts through the return value: (rounds, end reason, coins of
    player 0, coins of player 1, round 1's first player, turns).  End reason: 0 rounds done,
    1 a player ran out of coins, 2 the deck could not be dealt."""
    p = tb.params
    coins0 = p[P_COINS]
    coins1 = p[P_COINS]
    first = 0
    first1 = 0
    r = 0
    turns = 0
    reason = 0
    while True:
        i = i0 + r
        n = count(deck)
        if n < DEALT or (p[P_SHORT_END] != 0 and n < FULL_ROUND):
            reason = 2
            break
        xrng[0] = stream_state(key, np.uint64(3 * i + 2))
        if r == 0:
            first = 0 if p[P_FIXED_FIRST] != 0 else below(xrng, 2)
            first1 = first
        elif coins0 != coins1:
            first = 0 if coins0 < coins1 else 1
        elif p[P_TIE] == TIE_ALTERNATE:
            first ^= 1
        elif p[P_TIE] == TIE_RANDOM:
            first = below(xrng, 2)
        j = 0
        m = deck
        while m:
            order[j] = lowest(m)
            m &= m - ONE
            j += 1
        rng[0] = stream_state(key, np.uint64(3 * i))
        shuffle_first(rng, order, n, 0, min(n, FULL_ROUND))
        rng[0] = stream_state(key, np.uint64(3 * i + 1))
        set_coins(look, coins0 if first == 0 else coins1, coins1 if first == 0 else coins0)
        play_round(order, n, rng, tb, policy, decide, first, res, cap_time, st, look)
        if p[P_CHECKED]:
            check_round(order, n, deck, res)
        w = res[R_WINNER]
        paid = 0
        if w >= 0:
            winner = w ^ first
            have = coins1 if winner == 0 else coins0
            paid = res[R_SCORE]
            if p[P_UNCAPPED] == 0:
                paid = min(paid, max(have, 0))
            if winner == 0:
                coins0 += paid
                coins1 -= paid
            else:
                coins1 += paid
                coins0 -= paid
        if p[P_CHECKED] and coins0 + coins1 != 2 * p[P_COINS]:
            raise AssertionError("coins are not conserved")
        removed = ZERO
        if w >= 0 or p[P_KEEP_EXH] == 0:
            removed = removals(deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0,
                                coins1, r + 1, look)
        deck &= ~removed
        for c in range(R_N):
            out[r, c] = res[c]
        out[r, R_N] = first
        out[r, R_N + 1] = paid
        out[r, R_N + 2] = count(removed)
        turns += res[R_TURNS]
        r += 1
        if min(coins0, coins1) <= 0:
            reason = 1
            break
        if r >= p[P_ROUNDS]:
            break
    return r, reason, coins0, coins1, first1, turns


@hot
def play_series(key, rng, xrng, order, tmp, cap_time, st, res, out, tb, policy, decide, n_rounds,
                scal, rk, ycount, dcount, hist, look):
    counted = 0
    i = 0
    while counted < n_rounds:
        r, reason, coins0, coins1, first1, turns = play_game(
            key, i, rng, xrng, order, tmp, cap_time, st, res, tb, policy, decide, out,
            np.uint64(tb.params[P_DECK]), look)
        i += max(r, 1)
        for k in range(r):
            if counted < n_rounds:
                counted += 1
                for c in range(R_N):
                    res[c] = out[k, c]
                tally_round(scal, rk, ycount, dcount, res, k, out[k, R_N], out[k, R_N + 1])
                n_rm = out[k, R_N + 2]
                scal[C_REMOVED] += n_rm
                scal[C_REMOVED_SQ] += n_rm * n_rm
                rk[k, RK_REMOVED] += n_rm
                rk[k, RK_REMOVED_SQ] += n_rm * n_rm
        if r == 0:
            counted += 1  # a deck that cannot be dealt at all (never with 48 cards): no loop
        scal[C_GAMES] += 1
        scal[C_GAME_ROUNDS] += r
        scal[C_GAME_ROUNDS_SQ] += r * r
        scal[C_GAME_TURNS] += turns
        scal[C_GAME_TURNS_SQ] += turns * turns
        scal[C_EARLY] += reason == 1
        scal[C_DECK_END] += reason == 2
        margin = coins0 - coins1 if first1 == 0 else coins1 - coins0
        scal[C_FIRST_GAME_WINS] += margin > 0
        scal[C_GAME_TIES] += margin == 0
        scal[C_FIRST_MARGIN] += margin
        scal[C_FIRST_MARGIN_SQ] += margin * margin
        scal[C_P0_GAME_WINS] += coins0 > coins1
        scal[C_P0_FIRST] += first1 == 0
        scal[C_P0_COINS] += coins0
        scal[C_P0_COINS_SQ] += coins0 * coins0
        hist[H_COINS + min(max(coins0 - COIN_LO, 0), COIN_BINS - 1)] += 1
        hist[H_ROUNDS + r] += 1


@njit(cache=True, nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, policy, decide, scal,
               rk, ycount, dcount, hist, look):
    """Sessions ``first_session ..`` in chunks; counters per chunk, summed by the caller.
    ``look``: None, or True when a player plays by lookahead (a kernel of its own, with a
    lookahead context per chunk: (tables, the rollouts' res, the scratch, their cap_time, the
    rollouts' decisions: greedy's agari at once, the yaku_cards choices' work slots))."""
    n_chunks = scal.shape[0]
    for ch in range(n_chunks):
        rng = np.zeros(1, dtype=np.uint64)
        xrng = np.zeros(1, dtype=np.uint64)
        order = np.zeros(48, dtype=np.int8)
        tmp = np.zeros(48, dtype=np.int8)
        cap_time = np.zeros(48, dtype=np.int64)
        st = np.zeros(ST_N, dtype=np.uint64)
        res = np.zeros(R_N, dtype=np.int64)
        out = np.zeros((MAX_ROUNDS, R_N + 3), dtype=np.int64)
        s0 = first_session + ch * chunk
        s1 = min(s0 + chunk, first_session + n_sessions)
        if look is None:
            sessions(seed, s0, s1, total_rounds, rng, xrng, order, tmp, cap_time, st, res, out, tb,
                     policy, decide, scal[ch], rk[ch], ycount[ch], dcount[ch], hist[ch], None)
        else:
            rdec = np.zeros((N_PLAYERS, 2), dtype=np.int64)
            rdec[:, 0] = DEC_STOP
            ctx = (tb, np.zeros(R_N, dtype=np.int64), new_scratch(ST_N, 48, N_PLAYERS),
                   np.zeros(48, dtype=np.int64), rdec, np.zeros(2 * MAX_KEEPS, dtype=np.uint64))
            sessions(seed, s0, s1, total_rounds, rng, xrng, order, tmp, cap_time, st, res, out, tb,
                     policy, decide, scal[ch], rk[ch], ycount[ch], dcount[ch], hist[ch], ctx)
            scal[ch, C_YC_DECISIONS] += ctx[2].aux[A_YC_DECISIONS]
            scal[ch, C_YC_CHANGED] += ctx[2].aux[A_YC_CHANGED]


@hot
def sessions(seed, s0, s1, total_rounds, rng, xrng, order, tmp, cap_time, st, res, out, tb, policy,
             decide, scal, rk, ycount, dcount, hist, look):
    series = tb.params[P_SERIES]
    for s in range(s0, s1):
        key = stream_state(seed, s)
        n_rounds = min(series, total_rounds - s * series)
        play_series(key, rng, xrng, order, tmp, cap_time, st, res, out, tb, policy, decide,
                    n_rounds, scal, rk, ycount, dcount, hist, look)


@njit(cache=True, nogil=True)
def run_deal_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, scal, dcount):
    """Deals only (``--deals-only``): round 1's deal from the start deck, no play; each
    session of :data:`DEALS_PER_SESSION` deals starts from the deck in card order."""
    deck = np.uint64(tb.params[P_DECK])
    n = count(deck)
    for ch in range(scal.shape[0]):
        rng = np.zeros(1, dtype=np.uint64)
        order = np.zeros(48, dtype=np.int8)
        s0 = first_session + ch * chunk
        s1 = min(s0 + chunk, first_session + n_sessions)
        for s in range(s0, s1):
            rng[0] = stream_state(seed, s)
            n_rounds = min(DEALS_PER_SESSION, total_rounds - s * DEALS_PER_SESSION)
            deal_session(rng, order, deck, n, tb, n_rounds, scal[ch], dcount[ch])


@hot
def deal_session(rng, order, deck, n, tb, n_rounds, scal, dcount):
    j = 0
    m = deck
    while m:
        order[j] = lowest(m)
        m &= m - ONE
        j += 1
    for _ in range(n_rounds):
        # a partial shuffle of any arrangement leaves a uniform sample in front
        shuffle_first(rng, order, n, 0, DEALT)
        h0 = ZERO
        h1 = ZERO
        field = ZERO
        for i in range(HAND):
            h0 |= bit(order[i])
            h1 |= bit(order[HAND + i])
            field |= bit(order[2 * HAND + i])
        scal[C_ROUNDS] += 1
        tally_deal(scal, dcount, yaku_bits(h0, tb), yaku_bits(h1, tb), yaku_bits(field, tb))


def play_kernel(tb, seed, rounds, policy, decide, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, policy, decide, out["scal"],
               out["rk"], out["ycount"], out["dcount"], out["hist"], uses_lookahead(policy))


def deal_kernel(tb, seed, rounds, first, n, chunk, out):
    run_deal_chunks(np.uint64(seed), first, n, chunk, rounds, tb, out["scal"], out["dcount"])


def counters(rules, *, rounds, seed, policy, expose=None, session_rounds=1,
             fixed_dealer=False, checked=False, progress=False, deals_only=False,
             **run_options):
    from ...engine.runner import run_batches

    if int(session_rounds) != 1:
        raise ValueError("taipa plays whole games (three rounds on a shrinking deck); "
                         "session_rounds does not apply (leave it at 1)")
    tb = lower(rules, fixed_dealer=fixed_dealer, checked=checked)
    if deals_only:
        shapes = dict(scal=(C_N,), dcount=(len(YAKU) + 1, 2))
        totals = run_batches(partial(deal_kernel, tb, seed, rounds),
                             -(-rounds // DEALS_PER_SESSION), shapes,
                             rounds_per_session=DEALS_PER_SESSION, progress=progress,
                             desc=f"{NAME} deals", **run_options)
        totals["deals_only"] = True
        return totals
    card, decide = decode_policies(policy)
    n_sessions = -(-rounds // SERIES_ROUNDS)
    shapes = dict(scal=(C_N,), rk=(MAX_ROUNDS, RK_N), ycount=(len(YAKU) + 1, 2),
                  dcount=(len(YAKU) + 1, 2), hist=(H_N,))
    totals = run_batches(partial(play_kernel, tb, seed, rounds, card, decide),
                         n_sessions, shapes, rounds_per_session=SERIES_ROUNDS,
                         progress=progress, desc=NAME, **run_options)
    totals["game_rounds"] = rules.game_rounds
    return totals
