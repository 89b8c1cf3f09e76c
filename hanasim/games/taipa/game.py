"""A Taipa game on the engine's sessions (``engine/sessions.py``): the first player, the coins,
the deck that shrinks between rounds; the engine's hooks and this game's two kernels.

Simulation unit
---------------
As koi-koi: a session is :data:`SERIES_ROUNDS` counted rounds of whole games back to back, the
last game finished for the game quantities.  Round i of a session deals on stream 3i, plays on
3i+1 and draws the first player and the removed cards on 3i+2 (keyed by (seed, session)).
Seats: seat 0 is the round's first player; ``first ^ seat`` is the player in a seat.
Deals only (``deals_only``, ``deals.py``): sessions of :data:`DEALS_PER_SESSION` deals of
round 1 on stream ``session``, no play.

Each round's streams are pointed with ``engine.rng.stream_state`` itself: the engine's
``round_stream`` also puts a 48-card order back in card order, which Taipa must not do (its
deck is a shrinking subset laid out from a card mask, and two of a round's three streams are
pointed while the round's deck is in play).

On the engine
-------------
The engine's games back to back (``sessions.play_series``): the engine's game is a Taipa game,
its last one in a session finished past the session's counted rounds (played for the game's
quantities, never counted).  The game is played whole at its first round (``play_round`` calls
:func:`play_game`: its rounds into ``work``'s rows) and each later session round of it hands
out its next row: a game stepped a round per session round (its state in ``work``) gave the
same tables at 8% fewer rounds a second.  ``tally_round`` counts a row, ``game_over`` says the
game's rows are used up, ``tally_game`` counts the game from ``work``.  The engine's
dealer, its rotation and its totals are not used (the first player is drawn or follows the
coins inside the game).  The lookahead's yaku_cards decisions are counted in its context's
scratch and added to the counters once a chunk (``end_chunk``).
"""
import sys
from functools import partial

import numpy as np
from numba import njit

from ...engine import card_tally, sessions
from ...engine.bits import ONE, ZERO, count, lowest
from ...engine.jit import hot
from ...engine.lookahead import MAX_CHOICES, new_scratch, uses_lookahead
from ...engine.rng import G_K, below, deal_shuffle_copies, shuffle_steps, stream_state
from ...policies import DEC_STOP
from .coins import dealable, next_first, payment
from .deals import run_deal_chunks
from .hooks import count_yaku_choices, removals, set_coins
from .lower import (P_CHECKED, P_COINS, P_DECK, P_FIXED_FIRST, P_KEEP_EXH, P_ROUNDS, P_SERIES,
                    lower)
from .policy import decode_policies
from .round import R_CARDS, R_N, R_SCORE, R_TURNS, R_WINNER, ST_N, check_round
from .round import play_round as deal_and_play  # the hook is play_round
from .rules import (DEALS_PER_SESSION, FULL_ROUND, MAX_ROUNDS, N_PLAYERS, NAME, SERIES_ROUNDS,
                    YAKU)
from .tally import (C_GIVEN_UNMET, C_N, C_REMOVED, C_REMOVED_SQ, H_N, RK_N, RK_REMOVED,
                    RK_REMOVED_SQ, count_game, count_round)
from .yaku_choice import MAX_KEEPS

GAME = sys.modules[__name__]  # the hooks (engine.sessions.HOOKS) the engine inlines
LOOP = sessions.SERIES  # games back to back (engine.sessions.play runs them)
chunk_counters = sessions.counter_rows(6)  # scal, rk, ycount, dcount, hist, cards
session_length = sessions.param_hook(P_SERIES)
n_players = sessions.constant_hook(N_PLAYERS)

# The game (``work[W_GAME]``, int64): its rounds (rows of ``out``), the next row to hand out,
# the row this session round counts (-1: none), the game's end reason, each player's final
# coins, round 1's first player, its turns.
(G_R, G_NEXT, G_ROW, G_REASON, G_COINS0, G_COINS1, G_FIRST1, G_TURNS) = range(8)
G_N = G_TURNS + 1
# work: the generators, the deck order, a shuffle's scratch, capture times, the round state,
# its result, the game's rows (round k's res, its first player, coins paid, cards removed),
# the game
(W_RNG, W_XRNG, W_ORDER, W_TMP, W_CAP, W_ST, W_RES, W_OUT, W_GAME) = range(9)


@hot
def play_game(key, i0, rng, xrng, order, tmp, cap_time, st, res, tb, policy, decide, out, deck,
              look, cond):
    """One whole game from round index ``i0`` of session ``key``, round 1 dealt from ``deck``
    (a card mask: the full deck, or a smaller one in the tests); per-round results are
    handed to the caller through ``out[k, :]`` (round k's ``res``, its first player and the
    coins paid) and the game's facts through the return value: (rounds, end reason, coins of
    player 0, coins of player 1, round 1's first player, turns).  End reason: 0 rounds done,
    1 a player ran out of coins, 2 the deck could not be dealt.  ``cond``: the run's given
    cards (``tb.cond``), or None in a run without any (:func:`counters`): a kernel compiled
    without the given cards' shuffle (the ``is None`` branch is pruned at compile time), which
    such a run never needs: a shorter first compile."""
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
        if not dealable(deck, p):
            reason = 2
            break
        n = count(deck)
        xrng[0] = stream_state(key, np.uint64(3 * i + 2))
        if r == 0:
            first = 0 if p[P_FIXED_FIRST] != 0 else below(xrng, 2)
            first1 = first
        else:
            first = next_first(first, coins0, coins1, p, xrng)
        j = 0
        m = deck
        while m:
            order[j] = lowest(m)
            m &= m - ONE
            j += 1
        rng[0] = stream_state(key, np.uint64(3 * i))
        # the given cards (cond) stand where given, or an identical copy where the deck
        # has lost the very card; a deck without any copy deals the round unconditioned
        given_met = True
        if cond is None:  # the same draws as deal_shuffle_copies without given cards
            rng[0] = shuffle_steps(order, rng[0], n, 0, min(n, FULL_ROUND))
        else:
            given_met = deal_shuffle_copies(rng, order, n, 0, min(n, FULL_ROUND), cond)
        rng[0] = stream_state(key, np.uint64(3 * i + 1))
        set_coins(look, coins0 if first == 0 else coins1, coins1 if first == 0 else coins0)
        deal_and_play(order, n, rng, tb, policy, decide, first, res, cap_time, st, look)
        if p[P_CHECKED]:
            check_round(order, n, deck, res)
        w = res[R_WINNER]
        paid = 0
        if w >= 0:
            winner = w ^ first
            paid = payment(res[R_SCORE], coins1 if winner == 0 else coins0, p)
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
        out[r, R_N + 3] = 0 if given_met else 1
        turns += res[R_TURNS]
        r += 1
        if min(coins0, coins1) <= 0:
            reason = 1
            break
        if r >= p[P_ROUNDS]:
            break
    return r, reason, coins0, coins1, first1, turns


# ---------------------------------------------------------------- the engine's hooks

@njit(inline="always")
def new_work(tb):
    return (np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.uint64),
            np.zeros(48, dtype=np.int8), np.zeros(48, dtype=np.int8),
            np.zeros(48, dtype=np.int64), np.zeros(ST_N, dtype=np.uint64),
            np.zeros(R_N, dtype=np.int64), np.zeros((MAX_ROUNDS, R_N + 4), dtype=np.int64),
            np.zeros(G_N, dtype=np.int64))


@njit(inline="always")
def look_context(tb, work, players):
    """(tables, the rollouts' res, the scratch, their cap_time, the rollouts' decisions:
    greedy's agari at once, the yaku_cards choices' work slots, one determinisation's value
    of each choice).  The scratch also keeps the chunk's count of yaku_cards decisions
    (:func:`end_chunk` adds it to the counters)."""
    rdec = np.zeros((N_PLAYERS, 2), dtype=np.int64)
    rdec[:, 0] = DEC_STOP
    return (tb, np.zeros(R_N, dtype=np.int64), new_scratch(ST_N, 48, N_PLAYERS),
            np.zeros(48, dtype=np.int64), rdec, np.zeros(2 * MAX_KEEPS, dtype=np.uint64),
            np.zeros(MAX_CHOICES, dtype=np.float64))


@hot(inline="always")
def start_game(tb, work, key, i, n_rounds):
    g = work[W_GAME]
    g[G_R] = 0  # no rows to hand out: the game's first session round plays it (play_round)
    g[G_NEXT] = 0
    return 0  # (the engine's dealer is not used: the game draws its first player)


@hot(inline="always")
def play_round(tb, work, players, key, i, dealer, look):
    """Session round ``i``: the game's first plays the whole game from round index ``i`` (its
    rounds into ``out``); each hands out the game's next row."""
    rng, xrng, order, tmp, cap_time, st, res, out, g = work
    policy, decide = players
    if g[G_NEXT] >= g[G_R]:
        r, reason, coins0, coins1, first1, turns = play_game(
            key, i, rng, xrng, order, tmp, cap_time, st, res, tb, policy, decide, out,
            np.uint64(tb.params[P_DECK]), look, tb.cond)
        g[G_R] = r
        g[G_NEXT] = 0
        g[G_REASON] = reason
        g[G_COINS0] = coins0
        g[G_COINS1] = coins1
        g[G_FIRST1] = first1
        g[G_TURNS] = turns
    row = g[G_NEXT]
    # a game of no round (a deck that cannot be dealt at all, never with 48 cards) takes one
    # session round
    g[G_ROW] = row if row < g[G_R] else -1
    g[G_NEXT] = row + 1


@hot(inline="always")
def tally_round(tb, work, counts, dealer):
    res, out, g = work[W_RES], work[W_OUT], work[W_GAME]
    scal, rk, ycount, dcount, hist, cards = counts
    k = g[G_ROW]
    if k >= 0:
        for c in range(R_N):
            res[c] = out[k, c]
        count_round(scal, rk, ycount, dcount, res, k, out[k, R_N], out[k, R_N + 1])
        n_rm = out[k, R_N + 2]
        scal[C_REMOVED] += n_rm
        scal[C_REMOVED_SQ] += n_rm * n_rm
        rk[k, RK_REMOVED] += n_rm
        rk[k, RK_REMOVED_SQ] += n_rm * n_rm
        if out[k, R_N + 3]:  # only in a run given cards, whose scal has the slots
            scal[C_GIVEN_UNMET + k] += 1
        if card_tally.on(cards):
            # card values: each seat's coins this round (+ what the winner is paid, - what the
            # other pays, 0 when exhausted); seat 0 plays first
            w = res[R_WINNER]
            paid = out[k, R_N + 1]
            for seat in range(N_PLAYERS):
                coins = 0 if w < 0 else (paid if w == seat else -paid)
                card_tally.tally_seat(cards, seat, res[R_CARDS + seat], res[R_CARDS + 2], coins)


@hot(inline="always")
def seat_score(tb, work, seat):
    return 0  # a session has no totals: coins are counted per game (count_game)


@hot(inline="always")
def next_dealer(tb, work, dealer):
    return dealer  # the first player is chosen in the round (game_round): coins, tie_first


@hot(inline="always")
def game_over(tb, work, counts, r, n_rounds, totals):
    """1 when the game's rows are used up, else 0; never -1: a game cut by the end of the run
    is finished past it."""
    g = work[W_GAME]
    return 0 if g[G_NEXT] < g[G_R] else 1


@hot(inline="always")
def tally_game(tb, work, counts, first, totals):
    g = work[W_GAME]  # the game's quantities (play_game), not the engine's totals
    count_game(counts[0], counts[4], g[G_R], g[G_REASON], g[G_COINS0], g[G_COINS1],
               g[G_FIRST1], g[G_TURNS])


@hot(inline="always")
def end_chunk(tb, counts, look):
    count_yaku_choices(counts[0], look)  # the lookahead's yaku_cards decisions, kept in look


@hot
def play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    """Sessions ``s0 .. s1-1`` of a chunk, whole games back to back (``engine.sessions.play``
    by ``LOOP``, this module's hooks inlined): compiled without reference counting."""
    sessions.play(GAME, seed, s0, s1, total_rounds, tb, work, players, counts, totals, look)


@njit(cache=True, nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, policy, decide, scal,
               rk, ycount, dcount, hist, cards, look):
    """Sessions ``first_session ..`` in chunks (``engine.sessions``); counters per chunk,
    summed by the caller (``cards``: ``engine.card_tally``, empty unless the run tallies card
    values).  ``look``: None, or True when a player plays by lookahead (a kernel of its own,
    with a lookahead context per chunk: :func:`look_context`)."""
    sessions.run_chunks(GAME, seed, first_session, n_sessions, chunk, total_rounds, tb,
                        (policy, decide), (scal, rk, ycount, dcount, hist, cards), look)


def play_kernel(tb, seed, rounds, policy, decide, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, policy, decide, out["scal"],
               out["rk"], out["ycount"], out["dcount"], out["hist"],
               card_tally.kernel_counter(out), uses_lookahead(policy))


def deal_kernel(tb, seed, rounds, first, n, chunk, out):
    run_deal_chunks(np.uint64(seed), first, n, chunk, rounds, tb, out["scal"], out["dcount"])


def counters(rules, *, rounds, seed, policy, expose=None, session_rounds=1,
             fixed_dealer=False, checked=False, progress=False, deals_only=False,
             card_values=False, cond=None, **run_options):
    """The run's counters; ``card_values``: also ``cards`` (``engine.card_tally``: each
    seat's coins by the cards dealt it, seat 0 the round's first player)."""
    from ...conditions import kernel_cond
    from ...engine.runner import run_batches

    if int(session_rounds) != 1:
        raise ValueError("taipa plays whole games (three rounds on a shrinking deck); "
                         "session_rounds does not apply (leave it at 1)")
    tb = lower(rules, fixed_dealer=fixed_dealer, checked=checked)
    tb = tb._replace(cond=kernel_cond(cond))  # the given cards; None: no conditioned-deal code
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
    given = cond is not None and cond.shape[0] > 0 and cond[G_K] > 0
    if not given:  # a kernel of its own, without the given cards' code (play_game)
        tb = tb._replace(cond=None)
    # a run given cards counts its rounds dealt unconditioned past C_N (tally.C_GIVEN_UNMET)
    shapes = dict(scal=(C_N + (MAX_ROUNDS if given else 0),), rk=(MAX_ROUNDS, RK_N),
                  ycount=(len(YAKU) + 1, 2),
                  dcount=(len(YAKU) + 1, 2), hist=(H_N,))
    if card_values:
        shapes["cards"] = card_tally.shape(N_PLAYERS, 48)
    totals = run_batches(partial(play_kernel, tb, seed, rounds, card, decide),
                         n_sessions, shapes, rounds_per_session=SERIES_ROUNDS,
                         progress=progress, desc=NAME, **run_options)
    totals["game_rounds"] = rules.game_rounds
    if given:
        totals["given"] = True  # the table counts the rounds dealt unconditioned
    return totals


sessions.check_game(GAME)  # every hook there, and inlinable: fails at import, not in numba
