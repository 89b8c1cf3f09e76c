"""The coins of a Taipa game, shared by the game (``game.py``) and the lookahead's rollouts of
the rest of a game (``yaku_choice.py``): who plays a round first, what an agari pays, whether
the deck left can be dealt."""
from ...engine.bits import count
from ...engine.jit import hot
from ...engine.rng import below
from .lower import P_SHORT_END, P_TIE, P_UNCAPPED, TIE_ALTERNATE, TIE_RANDOM
from .rules import DEALT, FULL_ROUND


@hot(inline="always")
def dealable(deck, p):
    """Whether a round can be dealt from ``deck`` (18 cards; ``short_deck=end_game``: a full
    round's 30)."""
    n = count(deck)
    return not (n < DEALT or (p[P_SHORT_END] != 0 and n < FULL_ROUND))


@hot(inline="always")
def next_first(first, c0, c1, p, rng):
    """A later round's first player: the one with fewer coins (the rule page, "Ending the
    round"); equal coins: ``tie_first`` (alternate, same, or drawn from ``rng``)."""
    if c0 != c1:
        return 0 if c0 < c1 else 1
    if p[P_TIE] == TIE_ALTERNATE:
        return first ^ 1
    if p[P_TIE] == TIE_RANDOM:
        return below(rng, 2)
    return first


@hot(inline="always")
def payment(score, have, p):
    """The coins an agari of ``score`` takes from a payer holding ``have``: all of it under
    ``coin_cap=uncapped``, at most what the payer has under ``capped``."""
    return score if p[P_UNCAPPED] != 0 else min(score, max(have, 0))
