"""Kushiro Toppa's players: a policy's name -> one packed id -> a kernel policy row, and what
the simple (non-lookahead) join and Iku/Yoroshii decisions look at.  The join/drop part is the
shared one (``engine.join``)."""
from __future__ import annotations

import numpy as np

from ...engine.bits import count
from ...engine.jit import hot
from ...engine.join import (JOIN_FORM, JOIN_LOOKAHEAD, default_join, needs_lookahead_card,
                            parse_join)
from ...engine.yaku import D_BASE, D_COND, D_MIN, D_REQUIRED
from ...policies import (K_SHIFT, LOOKAHEAD, RANDOM, parse_policy, policy_id, split_policy)
from .rules import MAX_PLAYERS
from .teyaku import month_count

# A player is named CARD[/DECISION[/JOIN[/SWAP]]]: CARD/DECISION as koi-koi
# (policies.parse_policy), or CARD lookahead[:K] with DECISION, JOIN and SWAP lookahead by
# default (``lookahead``, ``play``), JOIN one of join, random, thresholdK (join when the hand's
# strength, its non-chaff cards plus its cards whose month is on the field, is at least K;
# default 10) or lookahead (``engine.join``), SWAP one of always, never, random or lookahead.
# Defaults: random -> random/random/random/random, greedy -> greedy/stop/threshold10/always,
# lookahead:K -> lookahead:K/lookahead/lookahead/lookahead.  The expose choice (``--expose``)
# is per player; a lookahead CARD player's teyaku are exposed by lookahead instead (as in
# Toppa and Baka: ``EXPOSE_LOOKAHEAD``, set by decode_policies).
JOIN_DEFAULT_K = 10
JOIN_MAX_K = 30
SWAP_NEVER, SWAP_ALWAYS, SWAP_RANDOM, SWAP_LOOKAHEAD = 0, 1, 2, 3
SWAPS = {"never": SWAP_NEVER, "always": SWAP_ALWAYS, "random": SWAP_RANDOM,
         "lookahead": SWAP_LOOKAHEAD}
DEC_LOOKAHEAD = 4  # Iku/Yoroshii by lookahead (policies' DEC_* are 0-3)
EXPOSE_LOOKAHEAD = 3  # a lookahead player's expose column (policies' EXPOSE_* are 0-2)
POLICY_FORMS = ("CARD[/DECISION[/JOIN[/SWAP]]]", "CARD: random, greedy, lookahead[:K]",
                "DECISION: as koi-koi's, or lookahead (a lookahead CARD's default)",
                JOIN_FORM,
                "SWAP: always, never, random, lookahead (a lookahead CARD's default)")
# decoded policy columns (kernel array int64[4, PC_N])
PC_CARD, PC_DEC, PC_DPARAM, PC_JOIN, PC_JPARAM, PC_SWAP, PC_EXPOSE = range(7)
PC_N = 7


def parse_kushiro_policy(name: str) -> int:
    """One packed int: parse_policy(CARD/DECISION) in bits 0-15, join id 16-19, its
    threshold 20-27, swap id 28-29, a lookahead's K in 32-47.  CARD ``lookahead[:K]`` decides
    Iku/Yoroshii, join/drop and the swap by lookahead too unless those parts are given
    (``lookahead:16/stop/threshold10/always``)."""
    text = str(name).strip()
    parts = text.split("/")
    forms = "; ".join(POLICY_FORMS)
    if len(parts) > 4:
        raise ValueError(f"unknown policy {text!r}; use {forms}")
    if parts[0].partition(":")[0] == "lookahead":
        look = policy_id(parts[0])  # K in bits 32-47; a bad K is one clear error
        if len(parts) == 1 or parts[1] == "lookahead":
            base = LOOKAHEAD | DEC_LOOKAHEAD << 4
        else:
            base = LOOKAHEAD | (parse_policy("greedy/" + parts[1]) & ~0xF)
        base |= look & (0xFFFF << K_SHIFT)
    else:
        try:
            base = parse_policy("/".join(parts[:2]))
        except ValueError as e:  # its own forms, with JOIN and SWAP
            raise ValueError(f"{str(e).split('; choose from')[0]}; use {forms}") from None
    card = base & 0xF
    join = default_join(card)
    k = JOIN_DEFAULT_K
    if len(parts) >= 3:
        join, k = parse_join(parts[2], text, JOIN_DEFAULT_K, JOIN_MAX_K)
        if join == JOIN_LOOKAHEAD and card != LOOKAHEAD:
            raise needs_lookahead_card("join", text)
    swap = {RANDOM: SWAP_RANDOM, LOOKAHEAD: SWAP_LOOKAHEAD}.get(card, SWAP_ALWAYS)
    if len(parts) == 4:
        if parts[3] not in SWAPS:
            raise ValueError(f"unknown swap decision {parts[3]!r} in policy {text!r}; "
                             "choose always, never, random or lookahead")
        swap = SWAPS[parts[3]]
        if swap == SWAP_LOOKAHEAD and card != LOOKAHEAD:
            raise needs_lookahead_card("swap", text)
    return base | join << 16 | k << 20 | swap << 28


def decode_policies(packed, expose) -> np.ndarray:
    """int64[4, PC_N] kernel policy rows from packed ids and expose ids (one per player); a
    lookahead CARD player exposes by lookahead (``EXPOSE_LOOKAHEAD``) whatever its expose id,
    as Toppa's and Baka's lookahead players do."""
    out = np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)
    for i, x in enumerate(packed):
        x = int(x)
        card, dec, dparam = split_policy(x & 0xFFFF)
        e = EXPOSE_LOOKAHEAD if card == LOOKAHEAD else int(expose[i])
        card |= x & (0xFFFF << K_SHIFT)  # a lookahead's K
        out[i] = (card, dec, dparam, (x >> 16) & 0xF, (x >> 20) & 0xFF, (x >> 28) & 0x3, e)
    return out


@hot
def join_strength(hand, field, chaff):
    """The join threshold's view: non-chaff cards in hand plus hand cards whose month is on
    the field."""
    s = count(hand & ~chaff)
    for m in range(12):
        if month_count(field, m) > 0:
            s += month_count(hand, m)
    return s


@hot
def cards_missing(pile, masks, ints):
    """The fewest cards ``pile`` lacks for any dekiyaku played (the threshold policy's view of
    the opponent)."""
    best = 99
    for i in range(masks.shape[0]):
        if ints[i, D_BASE] == 0:
            continue
        cond = masks[i, D_COND]
        need = max(0, ints[i, D_MIN] - count(pile & cond)) + count(
            masks[i, D_REQUIRED] & ~pile & ~cond)
        best = min(best, need)
    return best
