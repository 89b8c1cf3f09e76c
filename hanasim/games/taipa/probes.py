"""The tests' entries into Taipa's kernels: one whole game, a lookahead player's turn, its agari /
koi-koi and its ``yaku_cards`` choice, from a position the test builds."""
import numpy as np
from numba import njit

from ...engine.rng import stream_state
from .game import look_context, play_game
from .lookahead import A_COINS, _look_continue, _look_turn
from .round import R_N, R_PILE, S_SEAT, ST_N
from .rules import MAX_ROUNDS
from .yaku_choice import _look_removals


@njit(cache=True)
def one_game(seed, session, i0, tb, policy, decide, deck):
    """One game for the tests: (per-round rows ``out``, rounds, reason, coins0, coins1, first,
    turns) on the streams of session ``session`` from round index ``i0``, from ``deck``."""
    rng = np.zeros(1, dtype=np.uint64)
    xrng = np.zeros(1, dtype=np.uint64)
    order = np.zeros(48, dtype=np.int8)
    tmp = np.zeros(48, dtype=np.int8)
    cap_time = np.zeros(48, dtype=np.int64)
    st = np.zeros(ST_N, dtype=np.uint64)
    res = np.zeros(R_N, dtype=np.int64)
    out = np.zeros((MAX_ROUNDS, R_N + 4), dtype=np.int64)
    key = stream_state(seed, session)
    r, reason, c0, c1, f, t = play_game(key, i0, rng, xrng, order, tmp, cap_time, st, res, tb,
                                        policy, decide, out, deck, None, tb.cond)
    return out, r, reason, c0, c1, f, t


#: the tests' default coins of both seats: more than any round can pay (no cap)
TEST_COINS = 1 << 40


@njit(cache=True)
def _test_look(tb, c0, c1):
    look = look_context(tb, None, None)
    look[2].aux[A_COINS] = c0
    look[2].aux[A_COINS + 1] = c1
    return look


@njit(cache=True)
def _lookahead_turn(tb, st, order, n, seed, k, c0, c1):
    rng = np.full(1, np.uint64(seed), dtype=np.uint64)
    x = st.copy()
    return _look_turn(x, order, n, np.int64(x[S_SEAT]), rng, k, tb, _test_look(tb, c0, c1))


@njit(cache=True)
def _lookahead_continue(tb, st, order, n, seed, k, c0, c1):
    rng = np.full(1, np.uint64(seed), dtype=np.uint64)
    x = st.copy()
    return _look_continue(x, order, n, np.int64(x[S_SEAT]), rng, k, tb, _test_look(tb, c0, c1))


def lookahead_turn(tb, st, order, n, seed, k, coins=(TEST_COINS, TEST_COINS)):
    """The tests' entry: a lookahead player's turn in state ``st`` (the seat to move in
    ``st``) with the deck ``order[:n]``, its determinisations drawn from ``seed``, the two
    seats holding ``coins``: (hand, field, captured by the hand card, by the turned card)."""
    return _lookahead_turn(tb, st, order, n, seed, k, int(coins[0]), int(coins[1]))


def lookahead_continue(tb, st, order, n, seed, k, coins=(TEST_COINS, TEST_COINS)):
    """The tests' entry: a lookahead player's koi-koi (True) or agari right after its turn in
    ``st`` (the seat that moved in ``st``), the two seats holding ``coins``."""
    return _lookahead_continue(tb, st, order, n, seed, k, int(coins[0]), int(coins[1]))


@njit(cache=True)
def _lookahead_removals(tb, deck, res, policy, first, seed, coins0, coins1, played):
    rng = np.full(1, np.uint64(seed), dtype=np.uint64)
    xrng = np.zeros(1, dtype=np.uint64)
    tmp = np.zeros(48, dtype=np.int8)
    cap_time = np.zeros(48, dtype=np.int64)
    look = _test_look(tb, 0, 0)
    return _look_removals(deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0,
                          coins1, played, look)


def lookahead_removals(tb, deck, piles, policy, first=0, seed=1, coins=(10, 10), played=1,
                       res=None):
    """The tests' entry: the cards that leave play after a round (``yaku_cards``), the decks
    and piles as card masks: ``deck`` the round's deck, ``piles`` the two round seats' piles,
    ``policy`` the two players' card policy ids (``policy.decode_policies``), ``first`` the
    round's first player, ``coins`` the players' coins after the round, ``played`` the rounds
    of the game played so far; ``res`` (optional) the round's other result slots."""
    r = np.zeros(R_N, dtype=np.int64) if res is None else np.array(res, dtype=np.int64)
    r[R_PILE], r[R_PILE + 1] = int(piles[0]), int(piles[1])
    return int(_lookahead_removals(tb, np.uint64(deck), r, np.asarray(policy, dtype=np.int64),
                                   int(first), int(seed), int(coins[0]), int(coins[1]),
                                   int(played)))
