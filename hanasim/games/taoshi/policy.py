"""Taoshi's players: a policy's name -> one packed id -> a kernel policy row.  The forms and
their parsing are the shared ones of the join/drop games (``engine.join``: CARD[/JOIN[/CLAIM]]);
the join threshold's scale is Taoshi's."""
from __future__ import annotations

import numpy as np

from ...engine.join import (CLAIM_EXPOSE, CLAIM_FORM, CLAIM_LOOKAHEAD, CLAIMS,  # noqa: F401
                            EXPOSE_LOOKAHEAD, JOIN_FORM, PC_CARD, PC_EXPOSE, PC_JOIN, PC_JPARAM,
                            PC_N, decode_card_join_claim, parse_card_join_claim)
from .rules import MAX_PLAYERS

# A player is named CARD[/JOIN[/CLAIM]] (``engine.join``); greedy weighs a card by its Taoshi
# points; thresholdK joins when the hand's card points plus its best teyaku value is at least K
# (default 40); JOIN lookahead is ``_look_join``.  JOIN and CLAIM lookahead need a lookahead
# CARD.  The join decision is only asked with 4-6 players (``engine.join``).
JOIN_DEFAULT_K = 40
JOIN_MAX_K = 300
POLICY_FORMS = ("CARD[/JOIN[/CLAIM]]", "CARD: random, greedy, lookahead[:K]", JOIN_FORM,
                CLAIM_FORM)


def parse_taoshi_policy(name: str) -> int:
    """One packed int (``engine.join.parse_card_join_claim``), Taoshi's thresholds."""
    return parse_card_join_claim(name, JOIN_DEFAULT_K, JOIN_MAX_K, "; ".join(POLICY_FORMS))


def decode_policies(packed, expose) -> np.ndarray:
    """int64[6, PC_N] kernel policy rows (``engine.join.decode_card_join_claim``)."""
    return decode_card_join_claim(packed, expose, MAX_PLAYERS)
