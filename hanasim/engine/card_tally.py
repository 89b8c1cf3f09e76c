"""What each dealt card is worth: per seat and card, the rounds the card was dealt to the seat
(or to the field) and the sum and sum of squares of the seat's round score in those rounds.

The counter of a chunk is an int64 array ``acc[where, seat, card, k]``:

* ``where`` 0: the card was dealt into the seat's hand; 1: onto the field;
* ``seat`` relative to the round's dealer (0 deals), as every game counts seats;
* ``card`` the deck's card index; the last index (``n_cards``) counts every round of the seat
  (``where`` 0 only), so the complement of a card (the rounds it was not dealt) is a
  difference of integers;
* ``k``: 0 rounds, 1 sum of the seat's round score, 2 sum of its squares (in the game's own
  score unit).

Tallying is asked for at run time: a run that does not ask passes an empty array (``acc.shape
[0] == 0``, :func:`off`), and the game skips the tally on that test, so a default run adds one
branch a round and its tables do not change.  :mod:`hanasim.stats.card_values` turns the sums
into values with intervals.
"""
import numpy as np
from numba import njit

from .bits import lowest
from .jit import hot

HAND, FIELD = 0, 1
K_N = 3  # rounds, sum of scores, sum of squares


def shape(n_seats: int, n_cards: int) -> tuple:
    """A chunk's counter shape for ``n_seats`` seats and a deck of ``n_cards`` cards."""
    return (2, n_seats, n_cards + 1, K_N)


def off(n_chunks: int) -> np.ndarray:
    """The counter a run that does not tally card values passes: empty, so :func:`on` is
    false (the first axis is the chunk, as every counter's)."""
    return np.zeros((n_chunks, 0, 0, 0, 0), dtype=np.int64)


@hot(inline="always")
def on(acc):
    """Whether this run tallies card values (``acc`` is a chunk's counter)."""
    return acc.shape[0] != 0


@hot(inline="always")
def tally_seat(acc, seat, hand, field, score):
    """Add one round of ``seat``: its dealt ``hand`` and the dealt ``field`` (uint64 card masks;
    0 for a game without a field) and its round ``score``."""
    score = np.int64(score)
    sq = score * score
    last = acc.shape[2] - 1
    acc[HAND, seat, last, 0] += 1
    acc[HAND, seat, last, 1] += score
    acc[HAND, seat, last, 2] += sq
    m = np.uint64(hand)
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        acc[HAND, seat, c, 0] += 1
        acc[HAND, seat, c, 1] += score
        acc[HAND, seat, c, 2] += sq
    m = np.uint64(field)
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        acc[FIELD, seat, c, 0] += 1
        acc[FIELD, seat, c, 1] += score
        acc[FIELD, seat, c, 2] += sq


@njit(inline="always")
def tally_round(game, tb, work, acc, n):
    """Add the round just played to ``acc`` for each of its ``n`` seats, through the game's
    hooks: ``game.dealt(tb, work, g)`` (the mask dealt to seat ``g`` relative to the dealer,
    ``g == n`` the field: 0 when the game has none) and ``game.seat_score(tb, work, seat)``.
    Nothing when the run does not tally card values."""
    if acc.shape[0] != 0:
        field = game.dealt(tb, work, n)
        for seat in range(n):
            tally_seat(acc, seat, game.dealt(tb, work, seat), field,
                       game.seat_score(tb, work, seat))


def kernel_counter(out: dict) -> np.ndarray:
    """The card counter a game's batch kernel passes its chunk runner: ``out["cards"]`` when
    the run tallies card values, else an empty one (:func:`off`) with the batch's chunks."""
    acc = out.get("cards")
    if acc is not None:
        return acc
    return off(next(iter(out.values())).shape[0])
