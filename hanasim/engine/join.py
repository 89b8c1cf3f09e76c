"""Join or drop: the phase of the games where more players sit at the table than play a round
(Kushiro Toppa: two of 2-4 play; Taoshi and Ishikari Toppa: three of 3-6).

After the deal each seated player, in the game's speaking order, says join or drop having seen
its hand.  Once enough have joined, the rest are forced out; once the undecided are exactly as
many as the places still open, they are forced in (a game may redeal instead: ``force_in``
false).  What a dropped hand does, and any fees, are the game's rules.

A player's join decision is one of its policy's parts (``JOIN`` in the policy's name):
``join`` (always), ``random`` (1/2, one draw on the play stream), ``thresholdK`` (join when the
game's strength of the hand is at least K) or ``lookahead`` (the game's own determinised
choice, starting from the threshold's); a game's kernel policy row holds its id and K.
"""
from __future__ import annotations

import numpy as np

from ..policies import K_SHIFT, LOOKAHEAD, POLICIES, RANDOM, policy_id
from .jit import hot
from .rng import below

#: a seat's choice (a round's result slots): 0 seated (no join phase: as many seated as play),
#: 1 chose join, 2 chose drop, 3 forced in, 4 forced out
CH_SEATED, CH_JOIN, CH_DROP, CH_FORCED_IN, CH_FORCED_OUT = 0, 1, 2, 3, 4
#: the rates of the four choices, in CH_JOIN .. CH_FORCED_OUT order (``tally_choice``)
CHOICE_RATES = ("join_rate", "drop_rate", "forced_in_rate", "forced_out_rate")

JOIN_ALWAYS, JOIN_RANDOM, JOIN_THRESHOLD, JOIN_LOOKAHEAD = 0, 1, 2, 3
JOINS = {"join": JOIN_ALWAYS, "random": JOIN_RANDOM, "threshold": JOIN_THRESHOLD,
         "lookahead": JOIN_LOOKAHEAD}
JOIN_FORM = "JOIN: join, random, threshold[K], lookahead (a lookahead CARD's default)"


def default_join(card: int) -> int:
    """The JOIN part a policy takes when its name gives none: random for a random CARD,
    lookahead for a lookahead one, else the threshold (``card``: the CARD id, bits 0-3)."""
    return {RANDOM: JOIN_RANDOM, LOOKAHEAD: JOIN_LOOKAHEAD}.get(card & 0xF, JOIN_THRESHOLD)


def parse_join(part: str, text: str, default_k: int, high: int) -> tuple[int, int]:
    """(join id, threshold) of the JOIN part ``part`` of the policy named ``text``: join,
    random, threshold[K] (K from 0 to ``high``; ``default_k`` if not given) or lookahead.
    Whether a lookahead JOIN has a lookahead CARD is the caller's check
    (``needs_lookahead_card``)."""
    word = part.rstrip("0123456789")
    digits = part[len(word):]
    if word not in JOINS or (digits and word != "threshold"):
        raise ValueError(f"unknown join decision {part!r} in policy {text!r}; "
                         "choose join, random, threshold[K] or lookahead")
    k = default_k
    if digits:
        k = int(digits)
        if not 0 <= k <= high:
            raise ValueError(f"join threshold must be 0 to {high}, got {k} in {text!r}")
    return JOINS[word], k


def needs_lookahead_card(what: str, text: str) -> ValueError:
    """The error of a ``what`` decision by lookahead in a policy without a lookahead CARD."""
    return ValueError(f"{what} decision lookahead in policy {text!r} needs a lookahead CARD "
                      "(lookahead[:K]/...)")


# ---------------------------------------------------------------- CARD[/JOIN[/CLAIM]] players
# Taoshi's players, and Ishikari Toppa's (the same join/drop and teyaku claim): a CARD policy
# (``policies``: random, greedy, lookahead[:K]), a JOIN part as above and a CLAIM part, whether
# to claim a held teyaku: expose (as ``--expose`` says) or lookahead
# (``engine.lookahead.choose_expose``).  Each part defaults on its own: random ->
# random/random/expose, greedy -> greedy/thresholdK/expose, lookahead[:K] ->
# lookahead:K/lookahead/lookahead.  A kernel row has the columns PC_*.
CLAIM_EXPOSE, CLAIM_LOOKAHEAD = 0, 1
CLAIMS = {"expose": CLAIM_EXPOSE, "lookahead": CLAIM_LOOKAHEAD}
CLAIM_FORM = "CLAIM: expose (as --expose says), lookahead (a lookahead CARD's default)"
EXPOSE_LOOKAHEAD = 3  # PC_EXPOSE of a player claiming by lookahead (policies' EXPOSE ids: 0-2)
PC_CARD, PC_JOIN, PC_JPARAM, PC_EXPOSE = range(4)
PC_N = 4


def parse_card_join_claim(name, default_k: int, high: int, forms: str) -> int:
    """A CARD[/JOIN[/CLAIM]] policy's name as one packed int: card id in bits 0-3 (a
    lookahead's K in 32-47), join id 4-7, its threshold 8-23, claim id 24-27.  ``default_k``
    and ``high``: the game's default and highest join threshold; ``forms``: the game's policy
    forms, for the error."""
    text = str(name).strip()
    parts = text.split("/")
    if len(parts) > 3 or (parts[0] not in POLICIES and not parts[0].startswith("lookahead")):
        raise ValueError(f"unknown policy {text!r}; use {forms}")
    card = policy_id(parts[0])  # random, greedy, lookahead[:K] (K in bits 32-47)
    look = card & 0xF == LOOKAHEAD
    join = default_join(card)
    claim = CLAIM_LOOKAHEAD if look else CLAIM_EXPOSE
    k = default_k
    if len(parts) >= 2:
        join, k = parse_join(parts[1], text, default_k, high)
    if len(parts) == 3:
        if parts[2] not in CLAIMS:
            raise ValueError(f"unknown claim decision {parts[2]!r} in policy {text!r}; "
                             "choose expose or lookahead")
        claim = CLAIMS[parts[2]]
    for what, by in (("join", join == JOIN_LOOKAHEAD), ("claim", claim == CLAIM_LOOKAHEAD)):
        if by and not look:
            raise needs_lookahead_card(what, text)
    return card | join << 4 | k << 8 | claim << 24


def decode_card_join_claim(packed, expose, rows: int) -> np.ndarray:
    """int64[rows, PC_N] kernel policy rows from packed ids and expose ids (one per player); a
    player claiming by lookahead has EXPOSE_LOOKAHEAD in PC_EXPOSE (its --expose is unused)."""
    out = np.zeros((rows, PC_N), dtype=np.int64)
    for i, x in enumerate(packed):
        x = int(x)
        card = (x & 0xF) | (x & (0xFFFF << K_SHIFT))
        claim = (x >> 24) & 0xF
        out[i] = (card, (x >> 4) & 0xF, (x >> 8) & 0xFFFF,
                  EXPOSE_LOOKAHEAD if claim == CLAIM_LOOKAHEAD else int(expose[i]))
    return out


# ---------------------------------------------------------------- kernels

@hot
def forced_choice(joined, left, active, force_in):
    """The choice a seat is given, or -1 when it decides: forced out once ``active`` players
    have joined; forced in (``force_in``) when the ``left`` undecided seats, this one included,
    are all needed to fill the ``active - joined`` places still open."""
    if joined == active:
        return CH_FORCED_OUT
    if force_in and left <= active - joined:
        return CH_FORCED_IN
    return -1


@hot(inline="always")
def join_by_policy(jp, k, strength, rng):
    """A JOIN policy's choice (True: join): always; random (one draw of ``rng``, the play
    stream); else the threshold, ``strength >= k`` (a lookahead JOIN starts from it)."""
    if jp == JOIN_ALWAYS:
        return True
    if jp == JOIN_RANDOM:
        return below(rng, 2) == 1
    return strength >= k


@hot(inline="always")
def tally_choice(scal, at, ch):
    """Count a seat's choice ``ch`` in ``scal[at:at + 4]`` (CHOICE_RATES order)."""
    scal[at] += ch == CH_JOIN
    scal[at + 1] += ch == CH_DROP
    scal[at + 2] += ch == CH_FORCED_IN
    scal[at + 3] += ch == CH_FORCED_OUT
