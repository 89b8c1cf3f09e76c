"""A lookahead player's ``yaku_cards=choice``: which of its ribbons and chaff leave play between
rounds, by rollouts of the rest of the game; and the ``removals`` hook (``hooks.py``).

The yaku_cards=choice decision between rounds (which of a completed ribbon / chaff yaku's
cards leave play; the rest go back into the next round's deck) is by lookahead too
(_look_removals).  Its result is the player's coins at the end of the GAME: a game is the
unit that pays (the seed: more coins win after three rounds, or when a player runs out),
each game of a session starts afresh from the full deck and start_coins, so nothing after
the game depends on the choice, and the coins already held are the same for every choice
(so the mean final coins compare as the mean coins still to win; a win / loss result would
be noisier and ignore margins, which the round decisions also value in coins).  Each choice
(every way up to identical cards: two ribbons, or two chaff, of one suit differ in nothing
the rules read) is played on from its next deck by greedy with the game's own kernels:
round after round (rollout_from) until the game ends as play_game ends it (game_rounds,
coins, short deck), first player, coin_cap and greedy's yaku_cards choice included.  The
next round's deal is unknown, so a determinisation is a random deal of the shrunk deck:
the same K shuffles for every choice (common random numbers; the cards all choices keep
are laid out first, so deals differ only in where the kept ribbons / chaff fall).  Nothing
is hidden here: the piles, the coins and the deck (every card not out of play) are public.
Not decided when the game is over anyway (its last round, a player without coins).
"""
import numpy as np
from numba import types
from numba.extending import overload

from ...engine import lookahead
from ...engine.bits import ONE, ZERO, bit, count, lowest
from ...engine.jit import hot
from ...engine.rng import GOLDEN, mix64, shuffle_first
from ...policies import RANDOM
from .coins import dealable, next_first, payment
from .hooks import count_yaku_choices, removals
from .lookahead import A_YC_CHANGED, A_YC_DECISIONS
from .lower import P_KEEP_EXH, P_LOOK_YC, P_ROUNDS, P_YAKU_MODE, YC_CHOICE, YC_GREEDY, YC_RANDOM
from .removals import _take, round_removals, set_yaku_cards
from .round import R_PILE, R_SCORE, R_WINNER, S_FIELD, S_TOP, ST_N, rollout_from
from .rules import DEALT, FULL_ROUND, HAND
from .tally import C_YC_CHANGED, C_YC_DECISIONS

#: work slots of the yaku_cards choice: a pile's ribbon ways, then its chaff ways (15, 21 at most)
MAX_KEEPS = 32


@overload(removals)
def _ov_removals(deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0, coins1,
                 played, look):
    if isinstance(look, types.NoneType):
        return (lambda deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0, coins1,
                played, look: round_removals(deck, res, tb, policy, first, xrng, cap_time, tmp))
    return (lambda deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0, coins1,
            played, look: _look_removals(deck, res, tb, policy, first, rng, xrng, cap_time,
                                         tmp, coins0, coins1, played, look))


@overload(count_yaku_choices)
def _ov_count_yaku_choices(scal, look):
    if isinstance(look, types.NoneType):
        return lambda scal, look: None

    def impl(scal, look):  # once a chunk (game.end_chunk): the scratch counts over the chunk
        aux = look[2].aux
        scal[C_YC_DECISIONS] += aux[A_YC_DECISIONS]
        scal[C_YC_CHANGED] += aux[A_YC_CHANGED]
        aux[A_YC_DECISIONS] = 0
        aux[A_YC_CHANGED] = 0
    return impl


@hot
def _same_suits(a, b, tb):
    """Whether the removals ``a`` and ``b`` (of one pile's ribbons and chaff) take as many
    ribbons and as many chaff of every suit: the same next deck up to identical cards."""
    for g in range(1, tb.group_masks.shape[0]):
        for kd in range(2, 4):
            km = tb.group_masks[g] & tb.kinds[kd]
            if count(a & km) != count(b & km):
                return False
    return True


@hot
def _removal_options(pk, tb, out, o0):
    """Every way, up to identical cards, that the cards ``pk`` (a pile's ribbons, or its
    chaff) can leave play: the pile keeps ``count % 3`` of them (0, 1 or 2), one of each
    suit kept or two of one suit (the lowest cards of a suit stand for it).  The removals
    into ``out[o0:]``; returns how many (at most 15 for ribbons, 21 for chaff)."""
    n = count(pk)
    if n < 3:
        out[o0] = ZERO
        return 1
    t = n % 3
    if t == 0:
        out[o0] = pk
        return 1
    m = 0
    ng = tb.group_masks.shape[0]
    for g1 in range(1, ng):
        a = pk & tb.group_masks[g1]
        if a == ZERO:
            continue
        la = a & (~a + ONE)
        if t == 1:
            out[o0 + m] = pk & ~la
            m += 1
            continue
        rest = a & ~la
        if rest != ZERO:
            out[o0 + m] = pk & ~(la | (rest & (~rest + ONE)))
            m += 1
        for g2 in range(g1 + 1, ng):
            b = pk & tb.group_masks[g2]
            if b != ZERO:
                out[o0 + m] = pk & ~(la | (b & (~b + ONE)))
                m += 1
    return m


@hot
def _rest_of_game(deck, c0, c1, first, played, q, look, tmp):
    """Play the rest of a game by greedy (cards, agari at the first new yaku, greedy's
    ``yaku_cards`` choice) from ``deck``, whose cards the caller laid out in ``sc.order`` (its
    first round's shuffle starts from them; ``sc.rng``: the rollout's stream), the players
    holding ``c0``, ``c1`` coins after ``played`` rounds, the last one's first player
    ``first``: player ``q``'s final coins.  The game's own rules (``game.play_game``): the
    first player, ``coin_cap``, the end on coins, rounds or a short deck, what leaves play."""
    tb, rres, sc, rcap, rdec, yk, _v = look
    p = tb.params
    order = sc.order
    st = sc.st
    laid = True
    while True:
        if not dealable(deck, p):
            break
        n = count(deck)
        first = next_first(first, c0, c1, p, sc.rng)
        if not laid:
            lookahead.gather(order, deck)
        laid = False
        shuffle_first(sc.rng, order, n, 0, min(n, FULL_ROUND))
        for i in range(ST_N):
            st[i] = ZERO
        for i in range(HAND):
            st[0] |= bit(order[i])
            st[1] |= bit(order[HAND + i])
            st[S_FIELD] |= bit(order[2 * HAND + i])
        st[S_TOP] = DEALT
        rollout_from(st, order, n, sc.rng, tb, sc.greedy, rdec, rres, rcap)
        w = rres[R_WINNER]
        if w >= 0:
            winner = w ^ first
            paid = payment(rres[R_SCORE], c1 if winner == 0 else c0, p)
            c0 += paid if winner == 0 else -paid
            c1 += paid if winner == 1 else -paid
        played += 1
        if min(c0, c1) <= 0 or played >= p[P_ROUNDS]:
            break
        if w >= 0 or p[P_KEEP_EXH] == 0:
            deck &= ~round_removals(deck, rres, tb, sc.greedy, first, sc.rng, rcap, tmp)
    return c0 if q == 0 else c1


@hot
def _eval_removals(base, pile, m, q, c0, c1, first, played, k, s, tmp, look):
    """Choose among the removals ``sc.high[:m]`` of ``pile``'s ribbons and chaff (greedy's
    first) with the next deck ``base`` less the removal: each choice's result is player
    ``q``'s final coins of the game, played on by greedy (:func:`_rest_of_game`) from K
    random deals of its deck, the same K for every choice (the deck laid out as the cards
    every choice keeps, then the pile's kept cards, in card order, and shuffled on the same
    stream: the deals differ only where the kept cards lie).  Returns (the index chosen by
    ``engine.lookahead._pick``, generator state)."""
    tb, rres, sc, rcap, rdec, yk, _v = look
    v_all = pile & (tb.kinds[2] | tb.kinds[3])
    common = base & ~v_all
    for j in range(m):
        sc.total[j] = 0.0
        sc.total2[j] = 0.0
    for _ in range(k):
        s += GOLDEN
        seed = mix64(s)
        v0 = 0.0
        for j in range(m):
            kept = v_all & ~sc.high[j]
            i = 0
            for part in (common, kept):
                x = part
                while x:
                    sc.order[i] = lowest(x)
                    x &= x - ONE
                    i += 1
            sc.rng[0] = seed
            v = float(_rest_of_game(common | kept, c0, c1, first, played, q, look, tmp))
            v0 = lookahead._add_gain(sc, j, v, v0)
    return lookahead._pick(sc, m, k), s


@hot
def _fill_removals(g, r0, nr, c0, nc, tb, sc, yk):
    """The removal choices into ``sc.high``: ``g`` first, then each ribbon removal
    ``yk[r0:r0 + nr]`` with each chaff removal ``yk[c0:c0 + nc]`` that differs from ``g``
    beyond identical cards; returns how many."""
    sc.high[0] = g
    m = 1
    for i in range(nr):
        for j in range(nc):
            x = yk[r0 + i] | yk[c0 + j]
            if not _same_suits(x, g, tb):
                sc.high[m] = x
                m += 1
    return m


@hot
def _choose_removal(base, pile, g, q, c0, c1, first, played, k, s, tmp, look):
    """A lookahead player's ``yaku_cards=choice``: which of ``pile``'s ribbons and chaff leave
    play (``g``: greedy's choice; ``base``: the next deck before it).  Every way up to
    identical cards (:func:`_removal_options`) is scored by :func:`_eval_removals`; when the
    ribbon ways times the chaff ways exceed ``MAX_CHOICES`` (two kept ribbons and two kept
    chaff of many suits: rare), the ribbons are chosen first with greedy's chaff, then the
    chaff with the chosen ribbons.  Returns (removal, generator state)."""
    tb, rres, sc, rcap, rdec, yk, _v = look
    nr = _removal_options(pile & tb.kinds[2], tb, yk, 0)
    nc = _removal_options(pile & tb.kinds[3], tb, yk, MAX_KEEPS)
    if nr * nc == 1:
        return g, s
    g0 = g
    sc.aux[A_YC_DECISIONS] += 1
    if nr * nc <= lookahead.MAX_CHOICES:
        m = _fill_removals(g, 0, nr, MAX_KEEPS, nc, tb, sc, yk)
        best, s = _eval_removals(base, pile, m, q, c0, c1, first, played, k, s, tmp, look)
        sc.aux[A_YC_CHANGED] += best != 0
        return sc.high[best], s
    yk[2 * MAX_KEEPS - 1] = g & tb.kinds[3]   # greedy's chaff (past the 21 chaff ways)
    m = _fill_removals(g, 0, nr, 2 * MAX_KEEPS - 1, 1, tb, sc, yk)
    best, s = _eval_removals(base, pile, m, q, c0, c1, first, played, k, s, tmp, look)
    g = sc.high[best]
    yk[MAX_KEEPS - 1] = g & tb.kinds[2]       # the chosen ribbons (past the 15 ribbon ways)
    m = _fill_removals(g, MAX_KEEPS - 1, 1, MAX_KEEPS, nc, tb, sc, yk)
    best, s = _eval_removals(base, pile, m, q, c0, c1, first, played, k, s, tmp, look)
    sc.aux[A_YC_CHANGED] += not _same_suits(sc.high[best], g0, tb)
    return sc.high[best], s


@hot
def _look_removals(deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0, coins1,
                   played, look):
    """:func:`round_removals` with lookahead players: under ``yaku_cards=choice`` a lookahead
    player's ribbons and chaff leave play as :func:`_choose_removal` says, when the game goes
    on (``played`` rounds of ``game_rounds``, both players with coins: ``coins0``,
    ``coins1`` after the round's payment).  The other pile's cards leave first, by its
    owner's policy (a random owner draws from ``xrng`` as in :func:`round_removals`; another
    lookahead player's counts as greedy's until it has chosen, in seat order): the rule page has
    both players put their yaku aside, no order, and everything the choice reads is public
    (the piles, the coins, the deck: every card not yet out of play)."""
    p = tb.params
    la0 = lookahead.is_lookahead(policy[first]) and p[P_LOOK_YC + first] > 0
    la1 = lookahead.is_lookahead(policy[first ^ 1]) and p[P_LOOK_YC + (first ^ 1)] > 0
    if (p[P_YAKU_MODE] != YC_CHOICE or not (la0 or la1) or played >= p[P_ROUNDS]
            or min(coins0, coins1) <= 0):
        return round_removals(deck, res, tb, policy, first, xrng, cap_time, tmp)
    p0 = np.uint64(res[R_PILE])
    p1 = np.uint64(res[R_PILE + 1])
    sets = set_yaku_cards(p0, tb) | set_yaku_cards(p1, tb)
    nxt = deck & ~sets & (tb.kinds[0] | tb.kinds[1])
    rem0 = ZERO
    rem1 = ZERO
    for s in range(2):
        pile = p0 if s == 0 else p1
        mode = YC_RANDOM if policy[first ^ s] == RANDOM else YC_GREEDY
        x = _take(pile & tb.kinds[2], 3 * (count(pile & tb.kinds[2]) // 3), xrng, mode,
                  cap_time, tmp, tb, nxt)
        x |= _take(pile & tb.kinds[3], 3 * (count(pile & tb.kinds[3]) // 3), xrng, mode,
                   cap_time, tmp, tb, nxt)
        if s == 0:
            rem0 = x
        else:
            rem1 = x
    g = rng[0]
    for s in range(2):
        q = first ^ s
        if (la0 and s == 0) or (la1 and s == 1):
            k = lookahead.samples(policy[q]) * p[P_LOOK_YC + q]
            if s == 0:
                rem0, g = _choose_removal(deck & ~sets & ~rem1, p0, rem0, q, coins0, coins1,
                                          first, played, k, g, tmp, look)
            else:
                rem1, g = _choose_removal(deck & ~sets & ~rem0, p1, rem1, q, coins0, coins1,
                                          first, played, k, g, tmp, look)
    rng[0] = g
    return sets | rem0 | rem1
