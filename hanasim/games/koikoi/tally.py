"""What a run counts: the per-chunk counters (``C_*`` scalars, ``H_*`` histograms) and the
kernels that add a round to them (``table`` turns them into quantities)."""
from ...engine.jit import hot
from ...engine.tally import tally_hits
from .layout import (END_EXHAUSTED, END_FIELD, END_LUCKY, END_LUCKY_DRAW, R_CALLS, R_COLLECTED,
                     R_DECISIONS, R_END, R_FIELD_BRIGHTS, R_HITS, R_KEPT, R_LUCKY, R_PAID,
                     R_POINTS, R_SCORE, R_TURNS, R_WINNER)

# counters: scalars per chunk
(C_DEALS, C_MISDEALS, C_ROUNDS, C_DEALER_SCORE, C_DEALER_SCORE_SQ, C_OPP_SCORE, C_OPP_SCORE_SQ,
 C_ADV_SQ, C_DEALER_WINS, C_OPP_WINS, C_DRAWS, C_EXHAUSTED, C_LUCKY_END, C_LUCKY_DRAW,
 C_FIELD_END, C_WON, C_WON_PTS, C_WON_PTS_SQ, C_COLLECTS, C_TURNS, C_TURNS_SQ, C_CALLS,
 C_CALLS_SQ, C_PAID, C_DECISIONS, C_P0_SCORE, C_P0_SCORE_SQ, C_P0_DEALS, C_P0_WINS, C_GAMES,
 C_GAME_ROUNDS, C_GAME_ROUNDS_SQ, C_FIRST_WINS, C_GAME_TIES, C_FIRST_MARGIN, C_FIRST_MARGIN_SQ,
 C_CAPPED, C_P0_FIRST, C_KEPT, C_P0_GAME_WINS) = range(40)

C_N = 40

H_FIELD = 0         # hist[0..5]: rounds with k 20-point cards dealt to the field

H_TURNS = 6         # hist[6 + t]: rounds that ended after t turns (0: before play)

H_N = H_TURNS + 25  # at most 24 turns: one a card of the draw pile (8-card hands)


@hot(inline="always")
def tally_deal(scal, tcount, hist, res, mis):
    scal[C_DEALS] += mis + 1
    scal[C_MISDEALS] += mis
    scal[C_ROUNDS] += 1
    tally_hits(tcount, res[R_LUCKY], res[R_LUCKY + 1], 0, 2)
    hist[H_FIELD + res[R_FIELD_BRIGHTS]] += 1


@hot
def tally_round(scal, ycount, hist, res, dealer):
    d = res[R_SCORE]
    o = res[R_SCORE + 1]
    scal[C_DEALER_SCORE] += d
    scal[C_DEALER_SCORE_SQ] += d * d
    scal[C_OPP_SCORE] += o
    scal[C_OPP_SCORE_SQ] += o * o
    scal[C_ADV_SQ] += (d - o) * (d - o)
    w = res[R_WINNER]
    scal[C_DEALER_WINS] += w == 0
    scal[C_OPP_WINS] += w == 1
    scal[C_DRAWS] += w < 0
    end = res[R_END]
    scal[C_EXHAUSTED] += end == END_EXHAUSTED
    scal[C_LUCKY_END] += end == END_LUCKY
    scal[C_LUCKY_DRAW] += end == END_LUCKY_DRAW
    scal[C_FIELD_END] += end == END_FIELD
    if w >= 0:
        pts = res[R_POINTS]
        scal[C_WON] += 1
        scal[C_WON_PTS] += pts
        scal[C_WON_PTS_SQ] += pts * pts
    if res[R_COLLECTED]:
        scal[C_COLLECTS] += 1
        tally_hits(ycount, res[R_HITS], 0, 0, ycount.shape[0] - 1)
    t = res[R_TURNS]
    scal[C_TURNS] += t
    scal[C_TURNS_SQ] += t * t
    hist[H_TURNS + t] += 1
    calls = res[R_CALLS] + res[R_CALLS + 1]
    scal[C_CALLS] += calls
    scal[C_CALLS_SQ] += calls * calls
    scal[C_PAID] += res[R_PAID]
    scal[C_DECISIONS] += res[R_DECISIONS]
    scal[C_KEPT] += res[R_KEPT] > 0
    p0 = d if dealer == 0 else o
    scal[C_P0_SCORE] += p0
    scal[C_P0_SCORE_SQ] += p0 * p0
    scal[C_P0_DEALS] += dealer == 0
    scal[C_P0_WINS] += w >= 0 and (w ^ dealer) == 0
