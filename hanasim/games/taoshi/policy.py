"""Taoshi's players: a policy's name -> one packed id -> a kernel policy row.  The join/drop
part is the shared one (``engine.join``)."""
from __future__ import annotations

import numpy as np

from ...engine.join import (JOIN_FORM, JOIN_LOOKAHEAD, default_join, needs_lookahead_card,
                            parse_join)
from ...policies import K_SHIFT, LOOKAHEAD, POLICIES, policy_id
from .rules import MAX_PLAYERS

# A player is named CARD[/JOIN[/CLAIM]]: CARD random, greedy (``policies``; greedy weighs a card
# by its Taoshi points) or lookahead[:K] (``engine.lookahead``); JOIN one of join (always),
# random (1/2), thresholdK (join when the hand's card points plus its best teyaku value is at
# least K; default 40), lookahead (``_look_join``); CLAIM, whether to claim a held teyaku:
# expose (as ``--expose`` says) or lookahead (``engine.lookahead.choose_expose``).  Defaults:
# random -> random/random/expose, greedy -> greedy/threshold40/expose, lookahead[:K] ->
# lookahead:K/lookahead/lookahead; each part defaults on its own (``lookahead:16/threshold40``
# claims by lookahead, ``lookahead:16/threshold40/expose`` as --expose says).  JOIN and CLAIM
# lookahead need a lookahead CARD.  The join decision is only asked with 4-6 players
# (``engine.join``).
JOIN_DEFAULT_K = 40
JOIN_MAX_K = 300
CLAIM_EXPOSE, CLAIM_LOOKAHEAD = 0, 1
CLAIMS = {"expose": CLAIM_EXPOSE, "lookahead": CLAIM_LOOKAHEAD}
EXPOSE_LOOKAHEAD = 3  # PC_EXPOSE of a player claiming by lookahead (policies' EXPOSE ids: 0-2)
POLICY_FORMS = ("CARD[/JOIN[/CLAIM]]", "CARD: random, greedy, lookahead[:K]",
                JOIN_FORM,
                "CLAIM: expose (as --expose says), lookahead (a lookahead CARD's default)")
PC_CARD, PC_JOIN, PC_JPARAM, PC_EXPOSE = range(4)
PC_N = 4


def parse_taoshi_policy(name: str) -> int:
    """One packed int: card id in bits 0-3 (a lookahead's K in 32-47), join id 4-7, its
    threshold 8-23, claim id 24-27."""
    text = str(name).strip()
    parts = text.split("/")
    forms = "; ".join(POLICY_FORMS)
    if len(parts) > 3 or (parts[0] not in POLICIES and not parts[0].startswith("lookahead")):
        raise ValueError(f"unknown policy {text!r}; use {forms}")
    card = policy_id(parts[0])  # random, greedy, lookahead[:K] (K in bits 32-47)
    look = card & 0xF == LOOKAHEAD
    join = default_join(card)
    claim = CLAIM_LOOKAHEAD if look else CLAIM_EXPOSE
    k = JOIN_DEFAULT_K
    if len(parts) >= 2:
        join, k = parse_join(parts[1], text, JOIN_DEFAULT_K, JOIN_MAX_K)
    if len(parts) == 3:
        if parts[2] not in CLAIMS:
            raise ValueError(f"unknown claim decision {parts[2]!r} in policy {text!r}; "
                             "choose expose or lookahead")
        claim = CLAIMS[parts[2]]
    for what, by in (("join", join == JOIN_LOOKAHEAD), ("claim", claim == CLAIM_LOOKAHEAD)):
        if by and not look:
            raise needs_lookahead_card(what, text)
    return card | join << 4 | k << 8 | claim << 24


def decode_policies(packed, expose) -> np.ndarray:
    """int64[6, PC_N] kernel policy rows from packed ids and expose ids (one per player); a
    player claiming by lookahead has EXPOSE_LOOKAHEAD in PC_EXPOSE (its --expose is unused)."""
    out = np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)
    for i, x in enumerate(packed):
        x = int(x)
        card = (x & 0xF) | (x & (0xFFFF << K_SHIFT))
        claim = (x >> 24) & 0xF
        out[i] = (card, (x >> 4) & 0xF, (x >> 8) & 0xFFFF,
                  EXPOSE_LOOKAHEAD if claim == CLAIM_LOOKAHEAD else int(expose[i]))
    return out
