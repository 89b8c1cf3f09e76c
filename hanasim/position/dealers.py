"""Who deals (plays first in) the next round, as the rules name them, from a finished round's
position: what a replay checks each round after the first against.

Each game's rule is its kernels' ``next_dealer`` (the session machinery, ``engine.sessions``),
read here from the round's position rather than from the kernels' work arrays:

- Toppa: the round's winner deals ("Choosing the Dealer"); a tied round (both 0) keeps the
  deal, or passes it under ``tie_dealer=pass``.
- Baka: the deal passes to the dealer's right every round, "regardless of whoever wins"
  ("Choosing the Dealer").
- Bakappana, Ishikari Toppa: the highest scorer deals (Ishikari: of the three who played); a
  tied top score goes to the tied player first in turn order from the dealer
  (``tie_dealer=keep``) or to any of them (``random``: the rules leave it to chance).
- koi-koi: the round's scorer deals; a round nobody scores keeps the dealer, or passes the
  deal under ``draw_dealer=pass``.
- Kushiro Toppa: the round's scorer deals (``dealer_next=scorer``: the stopper, or after a
  teyaku-ended round the player the claimed chips favour); a round nobody scores, and a void
  deal (fewer than two joined), keep the dealer; ``dealer_next=rotate``: the dealer's right.
- Taoshi: the round's winner deals (the greatest score, "End of Round and Scoring"); a shared
  greatest score goes by ``tie_winner`` (first or last of the tied in turn order, then the
  forced-out botta claimers in seat order; ``random``: any of them).
- Taipa: the player with fewer coins plays first ("Ending the round"); equal coins go by
  ``tie_first`` (``alternate``: the other player, ``same``: the same, ``random``: either).

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
    if g.adapter.rules.tie_dealer == "pass":
        return (1,), "a tied round passes the deal (tie_dealer=pass)"
    return (0,), "a tied round keeps the deal (tie_dealer=keep)"


def _baka(g, pos, **_):
    return (1,), "the deal passes to the dealer's right every round"


def _top_scorer(scores, order, tie, what):
    """The seats of ``order`` (turn order) with the top score: the first of them, or all
    under ``tie=random``."""
    top = max(scores[s] for s in order)
    tied = [s for s in order if scores[s] == top]
    if len(tied) == 1:
        return tuple(tied), f"the highest scorer{what} deals"
    if tie == "random":
        return tuple(tied), (f"a tied top score{what}: one of the tied deals, at random "
                             f"(tie_dealer=random)")
    return (tied[0],), (f"a tied top score{what}: the tied player first in turn order from "
                        f"the dealer deals (tie_dealer=keep)")


def _bakappana(g, pos, **_):
    return _top_scorer(pos.result(), range(g.n), g.adapter.rules.tie_dealer, "")


def _ishikari(g, pos, **_):
    return _top_scorer(pos.result(), list(pos.data["active"]), g.adapter.rules.tie_dealer,
                       " of the three who played")


def _koikoi(g, pos, **_):
    from ..games import koikoi as K

    res = pos.data["res"].copy()
    if not pos.data["ended"]:
        K.settle_round(pos.data["st"], g.adapter.tb, res)
    w = int(res[K.R_WINNER])
    if w >= 0:
        return (w,), "the round's scorer deals: the " + ("dealer" if w == 0 else "opponent")
    if g.adapter.rules.draw_dealer == "pass":
        return (1,), "a round nobody scores passes the deal (draw_dealer=pass)"
    return (0,), "a round nobody scores keeps the dealer (draw_dealer=keep)"


def _kushiro(g, pos, **_):
    from ..games.kushiro import turn as KT
    from ..games.kushiro.slots import END_TEYAKU

    a = g.adapter
    if a.rules.dealer_next == "rotate":
        return (1,), "the deal passes to the dealer's right every round (dealer_next=rotate)"
    d = pos.data
    if d.get("redeal"):
        return (0,), "a void deal (fewer than two joined) is dealt again by the same dealer"
    first, second = d["active"]
    if d.get("end") == END_TEYAKU:  # the claimed teyaku ended the round (round.play_round)
        chips = d["chips"]
        if chips:
            return ((first if chips > 0 else second),), \
                "the round's scorer deals: the claimed teyaku's chips favour them"
        return (0,), "a round nobody scores keeps the dealer"
    _e, stopper, _p, _h = KT.settle(d["ks"], a.tb)
    if stopper >= 0:
        return ((first, second)[int(stopper)],), "the round's scorer (who stopped) deals"
    return (0,), "a round nobody scores keeps the dealer"


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
    tie = a.rules.tie_winner
    if len(tied) == 1:
        return tuple(tied), "the round's winner (the greatest score) deals"
    if tie == "random":
        return tuple(tied), ("a shared greatest score: one of the tied deals, at random "
                             "(tie_winner=random)")
    pick = tied[0] if tie == "first" else tied[-1]
    return (pick,), (f"a shared greatest score: the tied player who plays {tie} deals "
                     f"(tie_winner={tie})")


def _taipa(g, pos, coins=None, dealer=0, **_):
    # ``coins``: by player; the round's seats are from its first player (``dealer``)
    n = g.n
    c0, c1 = (coins[(dealer + s) % n] for s in range(2))
    if c0 != c1:
        return ((0 if c0 < c1 else 1),), "the player with fewer coins plays first"
    tie = g.adapter.rules.tie_first
    if tie == "alternate":
        return (1,), "equal coins: the other player plays first (tie_first=alternate)"
    if tie == "same":
        return (0,), "equal coins: the same player plays first (tie_first=same)"
    return (0, 1), "equal coins: either plays first (tie_first=random)"


_SEATS = {"toppa": _toppa, "baka": _baka, "bakappana": _bakappana,
          "ishikari_toppa": _ishikari, "koikoi": _koikoi, "kushiro_toppa": _kushiro,
          "taoshi": _taoshi, "taipa": _taipa}
