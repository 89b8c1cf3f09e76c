"""Kushiro Toppa's rules lowered for the kernels: plain arrays and ints (``Tables``)."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...decks import HANAFUDA
from ...engine.rng import NO_GIVEN
from ...policies import card_weights, greedy_tables
from .. import toppa
from .rules import KushiroRules, _toppa_values


class Tables(NamedTuple):
    kind_masks: np.ndarray   # uint64[4] by printed kind (willow cards by their own type)
    yaku_masks: np.ndarray   # uint64[Y, 3] Toppa's rows
    yaku_ints: np.ndarray    # int64[Y, 5]
    params: np.ndarray       # int64[P_N]
    gscore: np.ndarray       # greedy's tables (policies.greedy_tables)
    ghigh: np.ndarray
    cond: np.ndarray = NO_GIVEN  # int64[]: the run's conditioned deal (engine.rng; empty: none)


(P_PLAYERS, P_READING, P_PAIRS, P_TEY_VALUE, P_TEY_ENDS, P_DROPPED, P_UNDECIDED,
 P_EXHAUSTED, P_ROTATE, P_PICK_LOWEST, P_BIGGER, P_FIXED_DEALER, P_SESSION, P_DEALS_ONLY,
 P_LAST_FREE) = range(15)
P_N = 15
READ_TEN, READ_SUBSET, READ_OFF = 0, 1, 2
PAIRS_EXACT, PAIRS_AT_LEAST, PAIRS_IN_SETS, PAIRS_DISJOINT = 0, 1, 2, 3
DROP_UNDER, DROP_SHUFFLED, DROP_ASIDE = 0, 1, 2


def lower(rules: KushiroRules, *, fixed_dealer=False, session_rounds=1, deals_only=False):
    """(Tables, dekiyaku names) for the kernels."""
    names, ymasks, yints = toppa.dekiyaku_table(_toppa_values(rules)).build()
    toppa.check_yaku_shapes(names, ymasks, yints)
    kind_masks = np.array([HANAFUDA.kind_mask(k) for k in range(4)], dtype=np.uint64)
    p = np.zeros(P_N, dtype=np.int64)
    p[P_PLAYERS] = rules.players
    p[P_READING] = ("ten_card", "subset", "off").index(rules.teyaku_reading)
    p[P_PAIRS] = ("exact", "at_least", "pairs_in_sets", "disjoint").index(rules.three_pairs)
    p[P_TEY_VALUE] = rules.teyaku_value
    p[P_TEY_ENDS] = rules.teyaku_effect == "round_ends"
    p[P_DROPPED] = ("under_pile", "shuffled", "aside").index(rules.dropped_cards)
    p[P_UNDECIDED] = rules.undecided == "redeal"
    p[P_EXHAUSTED] = rules.exhausted == "last_caller"
    p[P_ROTATE] = rules.dealer_next == "rotate"
    p[P_PICK_LOWEST] = rules.swap_pick == "lowest"
    p[P_BIGGER] = rules.decision_on == "bigger"
    p[P_LAST_FREE] = rules.last_card == "free"
    p[P_FIXED_DEALER] = bool(fixed_dealer)
    p[P_SESSION] = int(session_rounds)
    p[P_DEALS_ONLY] = bool(deals_only)
    # no card points: greedy weighs a card by its share of the dekiyaku it belongs to
    weights = card_weights(np.zeros(48, dtype=np.int64), ymasks, yints)
    return Tables(kind_masks, ymasks, yints, p, *greedy_tables(weights)), names
