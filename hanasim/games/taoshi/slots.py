"""The layout of Taoshi's kernel arrays: a round's result slots (``res``), the draw pile
buffer and the play state's size."""
from __future__ import annotations

from ...engine import state
# R_CHOICE holds a seat's join/drop choice: engine.join's CH_* (re-exported here)
from ...engine.join import (CH_DROP, CH_FORCED_IN, CH_FORCED_OUT, CH_JOIN,  # noqa: F401
                            CH_SEATED)
from .rules import ACTIVE

# result slots; per-seat blocks are MAX_PLAYERS wide (seats relative to the dealer), per-position
# blocks ACTIVE wide (active positions in turn order)
R_SCORE, R_RAW, R_CHOICE, R_POS, R_TEY, R_CLAIM = (0, 6, 12, 18, 24, 30)
R_PTS, R_YAKU, R_ACT_SEAT = 36, 39, 42
(R_WINNER, R_BOTTA, R_MISDEALS, R_FIELD, R_TOP, R_PILE0, R_PILE1, R_PILE2, R_HAND0, R_HAND1,
 R_HAND2, R_N_PLAYERS) = range(45, 57)
R_DEKI, R_TIED = 57, 60
R_N = 61
# R_SCORE: score in 1/unit points (burden included); R_RAW: score without the burden (points)
# R_DEKI: per active position, the dekiyaku scored (bit 0 Four '2's, bit 1 Four '3's)
# R_TIED: 1 when the greatest score of the round's candidates for winner is shared
# R_CHOICE: 0 seated (3 players), 1 chose join, 2 chose drop, 3 forced in, 4 forced out
PBUF = 21  # the draw pile after the drops: 48 - 3 x 7 - 6
ST_N = state.size(ACTIVE)  # the play's state (engine.state), 3 seats
