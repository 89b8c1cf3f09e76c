"""Join or drop: the phase of the games where more players sit at the table than play a round
(Kushiro Toppa: two of 2-4 play; Taoshi: three of 3-6).

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

from ..policies import LOOKAHEAD, RANDOM
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
