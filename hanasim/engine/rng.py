"""A small counter-seeded generator for kernels: SplitMix64 (Steele, Lea & Flood 2014).

Every session of rounds gets its own stream, keyed by (user seed, session index), so a table
depends only on the seed and the number of rounds: not on threads, chunk sizes or batch order.
The state is one uint64 held in a 1-element array so kernels can advance it in place.
SplitMix64 passes BigCrush; streams start at hashed, effectively random points of its 2**64
cycle, so two sessions overlapping is as unlikely as a 64-bit collision.
"""
import numpy as np
from numba import types
from numba.extending import overload

from .jit import hot

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)


@hot
def mix64(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@hot
def stream_state(seed, index):
    """Initial state of stream ``index`` for user seed ``seed`` (both uint64)."""
    return mix64(np.uint64(seed) ^ mix64(np.uint64(index) * GOLDEN + GOLDEN))


@hot(inline="always")
def next64(rng):
    s = rng[0] + GOLDEN
    rng[0] = s
    return mix64(s)


@hot(inline="always")
def below(rng, n):
    """Uniform integer in [0, n) for 0 < n < 2**32 (Lemire's multiply-shift on 32 bits).

    The bias is at most n / 2**32 (about 1e-8 for a 48-card deck): far below any interval.
    """
    return np.int64(((next64(rng) >> _S32) * np.uint64(n)) >> _S32)


def normalize_seed(seed) -> int:
    """The one place a user's seed is checked: None draws a fresh one (and it is recorded)."""
    if seed is None:
        return int(np.random.SeedSequence().entropy % (2**63))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        if isinstance(seed, str) and seed.strip().lstrip("+").isdigit():
            seed = int(seed)
        else:
            raise ValueError(f"seed must be a whole number from 0 to 2**64-1, got {seed!r}")
    seed = int(seed)
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be a whole number from 0 to 2**64-1, got {seed}")
    return seed


@hot
def shuffle_range(rng, cards, start, stop):
    """Fisher-Yates steps ``start .. stop-1``: position i gets a uniform pick among
    ``cards[i:]``; two 32-bit draws per 64-bit output.  Steps 0..k-1 from any starting order
    put a uniform random ordered sample in ``cards[:k]``; steps k..n-1 then finish a uniform
    shuffle.  A deal shuffles only the dealt cards, checks for a misdeal, then finishes the
    draw pile (a misdeal redeals without shuffling a pile it throws away)."""
    shuffle_first(rng, cards, cards.shape[0], start, stop)


@hot
def partial_shuffle(rng, cards, k):
    """Put a uniform random ordered sample (without replacement) in ``cards[:k]``, from any
    starting order (:func:`shuffle_range` steps 0..k-1)."""
    shuffle_range(rng, cards, 0, k)


@hot
def below_word(r, n):
    """Uniform integer in [0, n) from the high 32 bits of the random word ``r`` (as
    :func:`below` does from a fresh word): one word serves several choices of a turn."""
    return np.int64(((r >> _S32) * np.uint64(n)) >> _S32)


@hot
def shuffle_first(rng, cards, n, start, stop):
    """:func:`shuffle_range` over the first ``n`` entries of ``cards`` only (a deck smaller
    than its array: Taipa's deck shrinks between rounds).  The same draws as
    ``shuffle_range(rng, cards[:n], start, stop)``."""
    rng[0] = shuffle_steps(cards, rng[0], n, start, stop)


@hot(inline="always")
def shuffle_steps(cards, s, n, start, stop):
    """The steps of :func:`shuffle_first` from generator state ``s``; returns the new state.
    Inlined where a deal shuffles (:func:`deal_shuffle`): called, the steps of a Toppa deal took
    about 30 ns a round more (interleaved stage timings)."""
    # The state lives in a register for the loop: through rng[0], every draw would wait for the
    # previous one's store (the compiler cannot tell that ``cards`` does not alias ``rng``).
    # Unsigned positions: numba indexes with a signed integer through a check for negative
    # indexes (a select per access), with an unsigned one directly.
    i = np.uint64(start)
    end = np.uint64(stop)
    size = np.uint64(n)
    while i < end:
        s += GOLDEN
        r = mix64(s)
        j = i + (((r & _LOW32) * (size - i)) >> _S32)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
        i += _ONE
        if i >= end:
            break
        j = i + (((r >> _S32) * (size - i)) >> _S32)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
        i += _ONE
    return s


@hot(inline="always")
def restart(rng, key, order):
    """Point ``rng`` at the state ``key`` and put the deck back in order: a session (or game)
    on one stream starts from its key and the unshuffled deck, whatever came before it."""
    rng[0] = key
    for j in range(order.shape[0]):
        order[j] = j


@hot(inline="always")
def round_streams(drng, rng, key, i, order):
    """Round ``i`` of the session ``key`` in the layout of three streams a round: the deal on
    stream 3i (``drng``, from the deck in order: :func:`round_stream`), the play on stream
    3i+1 (``rng``); stream 3i+2 is the round's own cut or draw, where a game has one."""
    round_stream(drng, key, 3 * i, order)
    rng[0] = stream_state(key, np.uint64(3 * i + 1))


@hot(inline="always")
def round_stream(rng, key, index, order):
    """Point ``rng`` at stream ``index`` of the session ``key`` and put the deck back in order.

    Every round of a session draws its cut, its deal and its play from streams of its own,
    keyed by (seed, session, round index), from the unshuffled deck: so round i of a session
    is dealt the same cards whatever happened before it, and two variants compared on the
    same seed (stop against continue, one house rule against another) play the same deals
    round by round even where their games end at different rounds (common random numbers)."""
    restart(rng, stream_state(key, np.uint64(index)), order)


# ---------------------------------------------------------------- conditional deals
# A conditioned deal (``hanasim.given``) is one int64 array ``cond`` (empty: no condition):
#   cond[0] k, the given cards; cond[1] f, the free positions (those no given card takes);
#   cond[2] s, the entries of ``within``; cond[3] the offset of the ``--where`` part
#   (``engine.where``; 0: none); then pos[k], card[k], free[f] (ascending), within[s],
#   twins[k].
# ``within`` lists, group by group, every dealt position of each group holding a given card,
# each group's run preceded by its length: after the free positions are shuffled, each such
# group's positions are shuffled among themselves, so the order inside a hand is uniform too
# (Taoshi puts dropped hands on the draw pile in dealt order).  ``twins[t]``: a card mask of
# the cards identical to given card t (itself included), which may stand for it when a deck
# has lost that very card (Taipa's copies, between a game's rounds).
G_K, G_F, G_S, G_W, G_HEAD = 0, 1, 2, 3, 4
NO_GIVEN = np.zeros(0, dtype=np.int64)


@hot
def shuffle_given(rng, cards, n, start, stop, gv):
    """:func:`shuffle_first` for a conditional deal: the steps of positions ``start .. stop-1``
    over the free positions only (positions below ``n``), the given cards standing where
    ``gv`` puts them.  A step from position 0 first moves every given card to its position
    (from any order of the deck), and after its steps shuffles the positions of each hand
    holding a given card among themselves.  Fisher-Yates over the free positions from any
    starting order is a uniform permutation of the free cards, so the deal is uniform among
    the deals consistent with the given cards: exact, no rejection; a misdeal's redeal draws
    again from position 0 and keeps the given cards.  A deck that does not hold every given
    card is dealt unconditioned (Taipa's, which loses cards between a game's rounds, deals by
    :func:`shuffle_given_copies`)."""
    k = gv[G_K]
    f = gv[G_F]
    s = gv[G_S]
    pos0 = G_HEAD
    card0 = pos0 + k
    free0 = card0 + k
    within0 = free0 + f
    placed = True
    if start == 0:
        for t in range(k):
            p = gv[pos0 + t]
            c = cards[p]
            want = gv[card0 + t]
            if c != want:
                placed = False
                for j in range(n):
                    if cards[j] == want:
                        cards[j] = c
                        cards[p] = want
                        placed = True
                        break
            if not placed:
                break
    else:
        for t in range(k):
            placed = placed and cards[gv[pos0 + t]] == gv[card0 + t]
    if not placed:
        # a deck without a given card (a Taipa round after the card left play): the deal
        # is not conditioned
        shuffle_first(rng, cards, n, start, stop)
        return
    # free positions below n (the deck may be smaller than its array: Taipa)
    nf = 0
    a0 = 0
    a1 = 0
    for a in range(f):
        q = gv[free0 + a]
        if q < n:
            nf += 1
        if q < start:
            a0 += 1
        if q < stop:
            a1 += 1
    a1 = min(a1, nf)
    for a in range(a0, a1):
        j = a + below(rng, nf - a)
        p = gv[free0 + a]
        q = gv[free0 + j]
        t = cards[p]
        cards[p] = cards[q]
        cards[q] = t
    if start == 0:
        i = within0
        while i < within0 + s:
            m = gv[i]
            for a in range(m - 1):
                j = a + below(rng, m - a)
                p = gv[i + 1 + a]
                q = gv[i + 1 + j]
                t = cards[p]
                cards[p] = cards[q]
                cards[q] = t
            i += m + 1


@hot(inline="always")
def deal_shuffle(rng, cards, n, start, stop, gv):
    """The deal's shuffle: :func:`shuffle_first` with no given cards (``gv`` None or empty,
    or a ``--where`` condition only: the same draws, so an unconditioned table is unchanged),
    :func:`shuffle_given` with some.  One branch a call.  ``gv`` None (a run with neither
    given cards nor ``--where``) is decided when the kernel is typed (:func:`_no_given`), so
    such a kernel holds no code of the conditioned deal, wherever its ``gv`` came from."""
    if _no_given(gv):
        rng[0] = shuffle_steps(cards, rng[0], n, start, stop)
    else:
        _given_shuffle(rng, cards, n, start, stop, gv)


# numba prunes ``gv is None`` only where gv is the compiled function's own argument, not a
# field of the tables (where kernels read it): these two choose their code by gv's type.
def _no_given(gv):
    return gv is None or gv.shape[0] == 0 or gv[G_K] == 0


def _given_shuffle(rng, cards, n, start, stop, gv):
    if gv is not None:
        shuffle_given(rng, cards, n, start, stop, gv)


@overload(_no_given)
def _no_given_typed(gv):
    if isinstance(gv, types.NoneType):
        return lambda gv: True
    return lambda gv: gv.shape[0] == 0 or gv[G_K] == 0


@overload(_given_shuffle)
def _given_shuffle_typed(rng, cards, n, start, stop, gv):
    if isinstance(gv, types.NoneType):
        return lambda rng, cards, n, start, stop, gv: None
    return lambda rng, cards, n, start, stop, gv: shuffle_given(rng, cards, n, start, stop, gv)


@hot(inline="always")
def deal_shuffle_copies(rng, cards, n, start, stop, gv):
    """:func:`deal_shuffle` for a deck that may have lost given cards (Taipa's, shrunk by a
    game's earlier rounds): :func:`shuffle_given_copies`.  True when the deal is conditioned;
    False when a given card had no copy left, so the deal is unconditioned (the caller counts
    it).  The other games' decks are always whole: they call :func:`deal_shuffle`, whose
    compile this does not touch."""
    if gv.shape[0] == 0 or gv[G_K] == 0:
        rng[0] = shuffle_steps(cards, rng[0], n, start, stop)
        return True
    return shuffle_given_copies(rng, cards, n, start, stop, gv)


@hot
def shuffle_given_copies(rng, cards, n, start, stop, gv):
    """:func:`shuffle_given` where the deck may have lost a given card: an identical copy
    still in it (``twins``) stands for it, drawn uniformly among the copies no other given
    card takes (the given cards the deck holds keep their own places).  The copy is relabelled
    as the lost card for :func:`shuffle_given`, which places it and shuffles the rest, and then
    labelled back: the deal is uniform among those holding the copy where the card was given,
    as a deal of round 1 is among those holding the given card (the copies alike in play, the
    odds of the card's face: ``hanasim exact taipa --given`` of that deck); drawing the copy
    uniformly keeps the copies exchangeable in a tally by card.  A deck without any spare copy
    of a given card is dealt unconditioned (:func:`shuffle_first`, False).  Taipa deals from
    position 0 once a round; a later step (``start`` > 0) is :func:`shuffle_given`'s."""
    if start != 0:
        shuffle_given(rng, cards, n, start, stop, gv)
        return True
    k = gv[G_K]
    card0 = G_HEAD + k
    twins0 = card0 + k + gv[G_F] + gv[G_S]
    one = np.uint64(1)
    deck = np.uint64(0)
    for j in range(n):
        deck |= one << np.uint64(cards[j])
    taken = np.uint64(0)
    lost = 0
    for t in range(k):
        b = one << np.uint64(gv[card0 + t])
        if deck & b:
            taken |= b
        else:
            lost += 1
    if lost == 0:
        shuffle_given(rng, cards, n, start, stop, gv)
        return True
    # every lost card needs a spare copy (two lost copies of one face need two)
    check = taken
    for t in range(k):
        if not (deck >> np.uint64(gv[card0 + t])) & one:
            spare = np.uint64(gv[twins0 + t]) & deck & ~check
            if spare == 0:
                shuffle_first(rng, cards, n, start, stop)
                return False
            check |= spare & (~spare + one)  # its lowest copy
    # draw each lost card's copy and label it as the lost card
    chosen = np.uint64(0)
    for t in range(k):
        c = gv[card0 + t]
        if (deck >> np.uint64(c)) & one:
            continue
        spare = np.uint64(gv[twins0 + t]) & deck & ~(taken | chosen)
        m = 0
        x = spare
        while x:
            x &= x - one
            m += 1
        x = spare
        for _ in range(below(rng, m) if m > 1 else 0):
            x &= x - one
        x &= ~x + one  # the drawn copy
        chosen |= x
        for j in range(n):
            if (one << np.uint64(cards[j])) == x:
                cards[j] = c
                break
    shuffle_given(rng, cards, n, start, stop, gv)
    # label the copies back: each lost card's place gets a drawn copy of its face (the hand's
    # places are shuffled among themselves, so which of two drawn copies goes where is even)
    for t in range(k):
        c = gv[card0 + t]
        if (deck >> np.uint64(c)) & one:
            continue
        x = chosen & np.uint64(gv[twins0 + t])
        x &= ~x + one
        chosen &= ~x
        cx = 0
        while not (x >> np.uint64(cx)) & one:
            cx += 1
        for j in range(n):
            if cards[j] == c:
                cards[j] = cx
                break
    return True
