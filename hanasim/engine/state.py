"""The resumable state of a round, shared by every fishing game.

A round is written as ``deal`` then ``play_from(state)``: dealing fills a state, and playing
runs the turns from whatever state it is given to the end of the round.  A lookahead policy
copies a state, fills the cards its player cannot see with a determinisation (the draw pile
order and the other hands), and calls the same ``play_from``.

A state for ``n`` seats (seat 0 is the dealer, then turn order) is a ``uint64[3 n + 3]`` array:

=================  =========================================
``hand(s)``        seat s's hand (a card mask)
``field(n)``       the field
``pile(n, s)``     seat s's captured pile
``top(n)``         deck position of the top of the draw pile
``seat(n)``        the seat to move next
``known(n, s)``    seat s's hand cards everybody has seen
                   (an exposed teyaku's cards, while in hand)
=================  =========================================
"""
from .bits import ZERO
from .jit import hot


def size(n):
    return 3 * n + 3


@hot
def field(n):
    return n


@hot
def pile(n, s):
    return n + 1 + s


@hot
def top(n):
    return 2 * n + 1


@hot
def seat(n):
    return 2 * n + 2


@hot
def known(n, s):
    return 2 * n + 3 + s


@hot(inline="always")
def start(st, groups, n, first_undealt):
    """The state right after the deal: hands and field from ``groups`` (seats, then the field),
    empty piles, nothing exposed, the dealer to move."""
    for s in range(n):
        st[s] = groups[s]
        st[n + 1 + s] = ZERO
        st[2 * n + 3 + s] = ZERO
    st[n] = groups[n]
    st[2 * n + 1] = first_undealt
    st[2 * n + 2] = 0
