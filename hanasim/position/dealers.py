"""Who deals (plays first in) the next round, as the rules name them, from a finished round's
position: what a replay checks each round after the first against.

Each game's rule is what its sources say (the kernels' ``next_dealer`` plays the same, in
the session machinery, ``engine.sessions``); where the sources leave the next dealer open, any
player it could be is accepted (the kernels then follow an option's reading, named below):

- Toppa: the round's winner deals ("Choosing the Dealer"); after a tied round (both 0) the
  rule page names no dealer: either (the kernels: ``tie_dealer``, keep by default).
- Baka: the deal passes to the dealer's right every round, "regardless of whoever wins"
  ("Choosing the Dealer").
- Bakappana, Ishikari Toppa: the highest scorer deals (Ishikari: of the three who played); a
  tied top score is "frequently unspecified": any of the tied (the kernels: ``tie_dealer``).
- koi-koi: the round's scorer deals ("the winner of each round becomes the dealer"); a round
  nobody scores keeps the dealer ("the next round begins with the same dealer"), or passes
  the deal under ``draw_dealer=pass`` (the rule page's "Draws" variant).
- Kushiro Toppa: neither text says who deals next: any player (the kernels: ``dealer_next``,
  the round's scorer by default).
- Taoshi: the round's winner deals (the greatest score, "End of Round and Scoring"); a shared
  greatest score has "no tie-break given": any of the tied (the kernels: ``tie_winner``).
- Taipa: the player with fewer coins plays first ("Ending the round"); equal coins are not
  mentioned: either (the kernels: ``tie_first``).

A record's first round's dealer is free (a record may start within a game).
"""
from __future__ import annotations

import numpy as np


def next_dealers(g, pos, dealer: int, coins=None):
    """``(players, why)``: the player indices the rules let deal the round after ``pos``
    (finished; ``dealer`` its dealer's player index), and the rule in words.  ``coins``:
    Taipa's coins by player after the round."""
    n = g.n
    seat = _SEATS[g.name](g, pos, coins=coins, dealer=dealer)
    seats, why = seat
    return {(dealer + s) % n for s in seats}, why


def _toppa(g, pos, **_):
    d = pos.result()[0]
    if d > 0:
        return (0,), "the round's winner deals: the dealer won"
    if d < 0:
        return (1,), "the round's winner deals: the opponent won"
    # the rule page says only that the winner deals: after a tie either may deal (the kernels
    # keep the deal, or pass it under tie_dealer=pass)
    return (0, 1), "a tied round: the rule page names no dealer"


def _baka(g, pos, **_):
    return (1,), "the deal passes to the dealer's right every round"


def _top_scorer(scores, order, what):
    """The seats of ``order`` (turn order) with the top score."""
    top = max(scores[s] for s in order)
    tied = [s for s in order if scores[s] == top]
    if len(tied) == 1:
        return tuple(tied), f"the highest scorer{what} deals"
    # the page: "frequently unspecified": any of the tied (the kernels: the first in turn
    # order under tie_dealer=keep, one at random under random)
    return tuple(tied), f"a tied top score{what}: one of the tied deals, the page names none"


def _bakappana(g, pos, **_):
    return _top_scorer(pos.result(), range(g.n), "")


def _ishikari(g, pos, **_):
    return _top_scorer(pos.result(), list(pos.data["active"]), " of the three who played")


def _koikoi(g, pos, **_):
    from ..games import koikoi as K

    res = pos.data["res"].copy()
    if not pos.data["ended"]:
        K.settle_round(pos.data["st"], g.adapter.tb, res)
    w = int(res[K.R_WINNER])
    if w >= 0:
        return (w,), "the round's scorer deals: the " + ("dealer" if w == 0 else "opponent")
    # the rule page: "the next round begins with the same dealer" (an exhaustive draw, both
    # lucky hands); its "Draws" variant passes the deal (draw_dealer=pass)
    if g.adapter.rules.draw_dealer == "pass":
        return (1,), "a round nobody scores passes the deal (draw_dealer=pass)"
    return (0,), "a round nobody scores keeps the dealer"


def _kushiro(g, pos, **_):
    # neither Kushiro Toppa text says who deals next: any player may (the kernels: the
    # round's scorer under dealer_next=scorer, the default reading; the dealer's right under
    # rotate)
    return tuple(range(g.n)), "neither text names the next dealer"


def _taoshi(g, pos, **_):
    from .taoshi import ACTIVE, SL, TS

    a = g.adapter
    d = pos.data
    n = a.table
    res = d["res"].copy()
    if d["botta"]:
        TS.settle_botta(res, np.int64(n), a.tb)
    else:
        TS.settle_play(d["st"], res, np.int64(n), a.tb)
    # score.round_winner's candidates: the active players in turn order, then the
    # forced-out players who claimed a botta, in seat order
    cands = [int(res[SL.R_ACT_SEAT + j]) for j in range(ACTIVE)]
    cands += [s for s in range(n) if res[SL.R_POS + s] < 0 and TS._botta_holder(res, s)]
    top = max(int(res[SL.R_SCORE + s]) for s in cands)
    tied = [s for s in cands if int(res[SL.R_SCORE + s]) == top]
    if len(tied) == 1:
        return tuple(tied), "the round's winner (the greatest score) deals"
    # "no tie-break given": any of the tied (the kernels: by tie_winner, first, last or random)
    return tuple(tied), "a shared greatest score: one of the tied deals, the sources name none"


def _taipa(g, pos, coins=None, dealer=0, **_):
    # ``coins``: by player; the round's seats are from its first player (``dealer``)
    n = g.n
    c0, c1 = (coins[(dealer + s) % n] for s in range(2))
    if c0 != c1:
        return ((0 if c0 < c1 else 1),), "the player with fewer coins plays first"
    # the rule page does "not mention what happens when the players' scores are tied":
    # either (the kernels: by tie_first, alternate, same or random)
    return (0, 1), "equal coins: the rule page names no first player"


_SEATS = {"toppa": _toppa, "baka": _baka, "bakappana": _bakappana,
          "ishikari_toppa": _ishikari, "koikoi": _koikoi, "kushiro_toppa": _kushiro,
          "taoshi": _taoshi, "taipa": _taipa}
