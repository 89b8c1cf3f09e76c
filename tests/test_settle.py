"""``settle.can_hand_over``'s greedy path (card values 20/10/5/0, one payment) gives the general
search's answer (``exact_from_counts``) for every pile composition and amount."""
import numpy as np
from numba import njit

from hanasim.decks import HANAFUDA
from hanasim.engine.settle import TRANSFER_EXACT, can_hand_over, exact_from_counts
from hanasim.games.toppa import deck_arrays


@njit
def _disagreements(kind_masks, kind_points, by_kind):
    bad = 0
    payable = 0
    for n0 in range(by_kind.shape[1]):
        for n1 in range(by_kind.shape[1]):
            for n2 in range(by_kind.shape[1]):
                if by_kind[0, n0] == 0 and n0 or by_kind[1, n1] == 0 and n1 \
                        or by_kind[2, n2] == 0 and n2:
                    continue  # more cards than the kind has
                pile = by_kind[0, n0] | by_kind[1, n1] | by_kind[2, n2] | by_kind[3, 3]
                for amount in range(-20, 260, 5):
                    want = amount <= 0 or exact_from_counts(
                        n0, n1, n2, 3, kind_points[0], kind_points[1], kind_points[2],
                        kind_points[3], amount)
                    got = can_hand_over(pile, amount, kind_masks, kind_points, TRANSFER_EXACT,
                                        True)
                    bad += want != got
                    payable += want
    return bad, payable


def test_greedy_hand_over_equals_general_search():
    _, _, kind_masks, kind_points = deck_arrays()
    assert [int(v) for v in kind_points] == [20, 10, 5, 0]
    by_kind = np.zeros((4, 25), np.uint64)  # [kind, n]: the first n cards of the kind
    for k in range(4):
        cards = [c for c in range(HANAFUDA.n) if int(kind_masks[k]) >> c & 1]
        for n in range(len(cards) + 1):
            by_kind[k, n] = sum(1 << c for c in cards[:n])
    bad, payable = _disagreements(kind_masks, kind_points, by_kind)
    assert bad == 0
    assert payable > 10_000  # the answers are not all one way
