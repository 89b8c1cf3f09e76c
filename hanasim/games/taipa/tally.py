"""Taipa's counters: the slots a chunk adds rounds, games and deals into (``C_*`` scalars,
``RK_*`` per round number, ``H_*`` histograms), and the round, game and deal tallies.  ``table.py``
turns them into quantities."""
import numpy as np

from ...engine.jit import hot
from ...engine.tally import tally_hits
from .round import (R_CALLS, R_DEALT, R_DECISIONS, R_DECK, R_EXHAUSTED, R_SCORE, R_TURNS,
                    R_WINNER, R_YAKU)
from .rules import FULL_ROUND, MAX_ROUNDS, YAKU

COIN_LO, COIN_BINS = -100, 241  # histogram of player 1's final coins

# counters
(C_ROUNDS, C_FIRST_WINS, C_SECOND_WINS, C_EXHAUSTED, C_TURNS, C_TURNS_SQ, C_CALLS, C_DECISIONS,
 C_PAID, C_WON_PTS, C_WON_PTS_SQ, C_COINS_MOVED, C_DECK, C_DECK_SQ, C_SHORT_PILE, C_P0_WINS,
 C_P0_NET, C_P0_NET_SQ, C_REMOVED, C_REMOVED_SQ, C_GAMES, C_GAME_ROUNDS, C_GAME_ROUNDS_SQ,
 C_GAME_TURNS, C_GAME_TURNS_SQ, C_EARLY, C_DECK_END, C_FIRST_GAME_WINS, C_GAME_TIES,
 C_P0_GAME_WINS, C_P0_FIRST, C_P0_COINS, C_P0_COINS_SQ, C_FIRST_MARGIN, C_FIRST_MARGIN_SQ,
 C_CAPPED_PAY, C_FIRST_NET, C_FIRST_NET_SQ, C_DEALS) = range(39)
C_DEAL_UNION = 39  # + kind (4: any): deals where a hand or the field holds the yaku's cards
C_YC_DECISIONS = C_DEAL_UNION + len(YAKU) + 1  # lookahead's yaku_cards=choice decisions
C_YC_CHANGED = C_YC_DECISIONS + 1              # ... that differ from greedy's choice
C_N = C_YC_CHANGED + 1
# runs given cards only (the counters are C_N + MAX_ROUNDS long, so an unconditioned run's are
# unchanged): per round number k, the rounds dealt unconditioned, their deck holding no copy
# of a given card (engine.rng.shuffle_given)
C_GIVEN_UNMET = C_N
# per round number k: rk[k, RK_*]
(RK_ROUNDS, RK_FIRST_WINS, RK_SECOND_WINS, RK_EXHAUSTED, RK_DECK, RK_DECK_SQ, RK_YAKU,
 RK_TURNS, RK_TURNS_SQ, RK_SHORT, RK_FNET, RK_FNET_SQ, RK_REMOVED, RK_REMOVED_SQ) = range(14)
RK_KIND = 14  # + 2 * kind: player-rounds ending with the kind's yaku (sum, sum of squares)
RK_N = RK_KIND + 2 * len(YAKU)
H_COINS = 0
H_ROUNDS = COIN_BINS
H_N = H_ROUNDS + MAX_ROUNDS + 1


@hot
def count_round(scal, rk, ycount, dcount, res, k, first, paid):
    w = res[R_WINNER]
    t = res[R_TURNS]
    n = res[R_DECK]
    scal[C_ROUNDS] += 1
    scal[C_FIRST_WINS] += w == 0
    scal[C_SECOND_WINS] += w == 1
    scal[C_EXHAUSTED] += res[R_EXHAUSTED]
    scal[C_TURNS] += t
    scal[C_TURNS_SQ] += t * t
    scal[C_CALLS] += res[R_CALLS] + res[R_CALLS + 1]
    scal[C_DECISIONS] += res[R_DECISIONS]
    scal[C_DECK] += n
    scal[C_DECK_SQ] += n * n
    scal[C_SHORT_PILE] += n < FULL_ROUND
    if w >= 0:
        v = res[R_SCORE]
        scal[C_PAID] += res[R_CALLS + w] > 0
        scal[C_WON_PTS] += v
        scal[C_WON_PTS_SQ] += v * v
        scal[C_COINS_MOVED] += paid
        scal[C_CAPPED_PAY] += paid < v
        scal[C_P0_WINS] += (w ^ first) == 0
    net = 0
    if w >= 0:
        net = paid if (w ^ first) == 0 else -paid
    scal[C_P0_NET] += net
    scal[C_P0_NET_SQ] += net * net
    fnet = 0
    if w >= 0:
        fnet = paid if w == 0 else -paid
    scal[C_FIRST_NET] += fnet
    scal[C_FIRST_NET_SQ] += fnet * fnet
    rk[k, RK_ROUNDS] += 1
    rk[k, RK_FIRST_WINS] += w == 0
    rk[k, RK_SECOND_WINS] += w == 1
    rk[k, RK_EXHAUSTED] += res[R_EXHAUSTED]
    rk[k, RK_DECK] += n
    rk[k, RK_DECK_SQ] += n * n
    rk[k, RK_TURNS] += t
    rk[k, RK_TURNS_SQ] += t * t
    rk[k, RK_SHORT] += n < FULL_ROUND
    rk[k, RK_FNET] += fnet
    rk[k, RK_FNET_SQ] += fnet * fnet
    ha = 0
    hb = 0
    for y in range(4):
        ha |= np.int64(res[R_YAKU + y] > 0) << y
        hb |= np.int64(res[R_YAKU + 4 + y] > 0) << y
        x = np.int64(res[R_YAKU + y] > 0) + np.int64(res[R_YAKU + 4 + y] > 0)
        rk[k, RK_KIND + 2 * y] += x
        rk[k, RK_KIND + 2 * y + 1] += x * x
    rk[k, RK_YAKU] += (ha | hb) != 0
    tally_hits(ycount, ha, hb, 0, 4)
    if k == 0:  # round 1 is dealt from the start deck: the deal-time odds (hanasim exact)
        count_deal(scal, dcount, res[R_DEALT], res[R_DEALT + 1], res[R_DEALT + 2])


@hot
def count_deal(scal, dcount, b0, b1, b2):
    """One deal's yaku bits of the two hands and the field: per place (pooled) and the union."""
    scal[C_DEALS] += 1
    tally_hits(dcount, b0, b1, b2, 4)
    u = b0 | b1 | b2
    for y in range(4):
        scal[C_DEAL_UNION + y] += (u >> y) & 1
    scal[C_DEAL_UNION + 4] += u != 0


@hot(inline="always")
def count_game(scal, hist, r, reason, coins0, coins1, first1, turns):
    """One whole game: ``r`` rounds, its end ``reason``, each player's final coins, round 1's
    first player, its turns."""
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
