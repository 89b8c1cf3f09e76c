"""The lookahead hooks of Taipa's kernels: pure-Python stubs that the round (``round.py``) and
the game (``game.py``) call, compiled in kernels only.

Each is a numba ``@overload`` whose implementation depends on the lookahead context ``look``:
for ``look=None`` (no lookahead player) one that does not refer to the lookahead code at all,
so a kernel without lookahead players never compiles it.  The implementations are registered
by ``lookahead.py`` (a lookahead player's turn, its agari or koi-koi, the coins it values a
round in) and ``yaku_choice.py`` (which cards leave play between rounds): those import the
round they roll out, so the round imports only these stubs (no import circle); and the
chunk's count of the lookahead's yaku_cards decisions (``yaku_choice.py``).  The package
imports both before any kernel compiles."""


def turn_by_look(st, order, n, seat, rng, k, tb, look):
    """A lookahead player's turn: (hand, field, captured by the hand card, by the turned card)
    (``lookahead._look_turn``)."""
    raise NotImplementedError("compiled in kernels only (numba overload in taipa/lookahead.py)")


def continue_by_look(st, order, n, seat, rng, k, tb, look):
    """A lookahead player's agari (False) or koi-koi (True) (``lookahead._look_continue``)."""
    raise NotImplementedError("compiled in kernels only (numba overload in taipa/lookahead.py)")


def set_coins(look, c0, c1):
    """Each round seat's coins into the lookahead context (``aux[A_COINS + seat]``); nothing
    without one."""
    raise NotImplementedError("compiled in kernels only (numba overload in taipa/lookahead.py)")


def removals(deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0, coins1, played,
             look):
    """The cards the round's yaku take out of play: ``removals.round_removals``, or with a
    lookahead context ``yaku_choice._look_removals``."""
    raise NotImplementedError("compiled in kernels only (numba overload in taipa/yaku_choice.py)")


def count_yaku_choices(scal, look):
    """Add the lookahead's yaku_cards decisions, kept in ``look``'s scratch over a chunk, to
    the chunk's counters (``C_YC_*``); nothing without a lookahead context."""
    raise NotImplementedError("compiled in kernels only (numba overload in taipa/yaku_choice.py)")
