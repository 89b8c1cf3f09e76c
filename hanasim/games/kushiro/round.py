"""One round of Kushiro Toppa (the package docstring's "A round"): the deal, the four-in-hand
swap, join or drop (``engine.join``), teyaku, the play and its result; and the session's first
dealer."""
from __future__ import annotations

import numpy as np

from ...engine.bits import ONE, ZERO, bit, count, has_full_nibble, lowest
from ...engine.deal import draw_for_dealer
from ...engine.jit import hot
from ...engine.join import (CH_DROP, CH_FORCED_IN, CH_JOIN, CH_SEATED, JOIN_LOOKAHEAD,
                            forced_choice, join_by_policy)
from ...engine.lookahead import samples
from ...engine.rng import below, deal_shuffle, shuffle_steps
from ...engine.where import where_ok
from ...policies import choose_expose
from .lookahead import SWAP_MAX_SAMPLES, SWAP_SAMPLES_PER_K, _look_expose, _look_join, _look_swap
from .lower import (DROP_ASIDE, DROP_SHUFFLED, DROP_UNDER, P_DEALS_ONLY, P_DROPPED,
                    P_PAIRS, P_PICK_LOWEST, P_PLAYERS, P_READING, P_TEY_ENDS, P_TEY_VALUE,
                    P_UNDECIDED)
from .play import play_from
from .policy import (EXPOSE_LOOKAHEAD, PC_CARD, PC_EXPOSE, PC_JOIN, PC_JPARAM, PC_SWAP,
                     SWAP_LOOKAHEAD, SWAP_NEVER, SWAP_RANDOM, join_strength)
from .rules import FIELD_SIZE, HAND_SIZE, MAX_PLAYERS, MAX_REDEALS
from .slots import (END_TEYAKU, K_CALLS, K_DECISIONS, K_FIELD, K_KNOWN, K_PA, K_TOP, K_TURNS,
                    R_ASIDE, R_CHIPS, R_CHOICE, R_CONT, R_DECISIONS, R_END, R_END_PILE, R_FIELD,
                    R_FIRST, R_FOURS, R_HAND_A, R_HAND_B, R_HITS, R_MISDEALS, R_N, R_N_PLAYERS,
                    R_PAID, R_PILE_A, R_PILE_B, R_PLAYS, R_POINTS, R_REDEALS, R_SECOND, R_STOPPER,
                    R_SWAPS, R_SWAP_IN, R_SWAP_OUT, R_TEY_CLAIMED, R_TEY_DEALT, R_TOP, R_TURNS,
                    R_WINNER)
from .teyaku import teyaku_bits, teyaku_shown
from .turn import settle, start_play


@hot
def deal_round(drng, order, n, cond):
    """Shuffle and deal 10 per seated player and 8 to the field until the field holds no four
    of a month; returns the misdeals.  Seat s holds order[10s:10s+10], the field the next 8.
    ``cond``: the run's given cards and ``--where`` (``engine.rng``, "conditional deals";
    empty: none): a deal failing ``--where`` is dealt again, not counted as a misdeal.  None
    (``counters``, a run without either): a kernel of its own, compiled without the given
    cards' shuffle and the ``--where`` test (``is None`` branches are pruned at compile time),
    which a run never given cards never needs: a shorter first compile."""
    n_dealt = HAND_SIZE * n + FIELD_SIZE
    size = order.shape[0]
    misdeals = 0
    while True:
        if cond is None:  # a run with neither: the same draws (deal_shuffle without gv)
            drng[0] = shuffle_steps(order, drng[0], size, 0, n_dealt)
        else:
            deal_shuffle(drng, order, size, 0, n_dealt, cond)
        f = ZERO
        for i in range(HAND_SIZE * n, n_dealt):
            f |= bit(order[i])
        if has_full_nibble(f):
            misdeals += 1
        elif cond is None:
            break
        elif where_ok(order, cond):
            break
    if cond is None:
        drng[0] = shuffle_steps(order, drng[0], size, n_dealt, size)
    else:
        deal_shuffle(drng, order, size, n_dealt, size, cond)
    return misdeals


@hot
def shuffle_span(rng, cards, lo, hi):
    """Fisher-Yates on ``cards[lo:hi]``: position i takes ``i + below(rng, hi - i)``."""
    for i in range(lo, hi - 1):
        j = i + below(rng, hi - i)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


@hot
def dealt_hand(order, s):
    h = ZERO
    for i in range(HAND_SIZE * s, HAND_SIZE * s + HAND_SIZE):
        h |= bit(order[i])
    return h


@hot
def play_round(drng, rng, order, pile, hands, ks, tb, pol, dealer, res, look):
    """Deal and play one round (module docstring, "A round"); results in ``res``.

    ``drng``: the deal stream (shuffles: the deal, the dropped cards); ``rng``: the play stream
    (every decision and random card play).  ``pol[player]``: policy row (PC_* columns)."""
    p = tb.params
    n = p[P_PLAYERS]
    km = tb.kind_masks
    for i in range(R_N):
        res[i] = 0
    res[R_N_PLAYERS] = n
    misdeals = 0
    redeals = 0
    a = -1
    b = -1
    top = HAND_SIZE * n + FIELD_SIZE
    field = ZERO
    while True:
        misdeals += deal_round(drng, order, n, tb.cond)
        top = HAND_SIZE * n + FIELD_SIZE
        field = ZERO
        for i in range(HAND_SIZE * n, top):
            field |= bit(order[i])
        for s in range(MAX_PLAYERS):
            hands[s] = ZERO
        fours = ZERO
        # deal-time facts on the dealt hands, before any swap
        for s in range(n):
            h = dealt_hand(order, s)
            hands[s] = h
            res[R_TEY_DEALT + s] = teyaku_bits(h, km[0], km[1], km[2], km[3], p[P_READING],
                                               p[P_PAIRS])
            fm = h & (h >> np.uint64(1)) & (h >> np.uint64(2)) & (h >> np.uint64(3)) & np.uint64(0x111111111111)
            fours |= fm
            res[R_FOURS + s] = count(fm)
            res[R_SWAPS + s] = 0
            res[R_CHOICE + s] = CH_SEATED
            res[R_PLAYS + s] = 0
        if p[P_DEALS_ONLY]:
            res[R_MISDEALS] = misdeals
            return
        if fours != ZERO:  # a hand holds four of a month: the swap (rare: a call)
            swap_fours(rng, order, hands, field, top, n, dealer, pol, tb, res, look)
        # join or drop: seats 1, 2, ..., n-1, then the dealer (three or four players: a call)
        if n == 2:
            a = 0
            b = 1
            res[R_PLAYS] = 1
            res[R_PLAYS + 1] = 1
            break
        a, b = join_or_drop(rng, hands, field, n, dealer, redeals, pol, tb, res, look)
        if a >= 0:
            break
        redeals += 1
    # the dropped hands and the draw pile
    end = 0
    for i in range(top, order.shape[0]):
        pile[end] = order[i]
        end += 1
    aside = ZERO
    if n > 2:
        end, aside = drop_hands(drng, pile, hands, end, n, res, p)
    qa = dealer + a
    qa = qa - n if qa >= n else qa
    qb = dealer + b
    qb = qb - n if qb >= n else qb
    ha = hands[a]
    hb = hands[b]
    # teyaku: each player holding some may expose (claim) them
    ta = teyaku_bits(ha, km[0], km[1], km[2], km[3], p[P_READING], p[P_PAIRS])
    tbits = teyaku_bits(hb, km[0], km[1], km[2], km[3], p[P_READING], p[P_PAIRS])
    # the play, as a resumable state (the lookahead copies it and plays determinisations on)
    n_all = end
    m = aside  # the cards set aside follow the pile in its buffer: unseen, never drawn
    while m != ZERO:
        pile[n_all] = lowest(m)
        m &= m - ONE
        n_all += 1
    start_play(ks, ha, hb, field, end, n_all)
    ca = 0
    cb = 0
    if ta != 0:
        shown = False
        asked = False
        if look is not None:  # noqa: SIM102  (pruned with None)
            if pol[qa, PC_EXPOSE] == EXPOSE_LOOKAHEAD:
                shown = _look_expose(ks, pile, rng, tb, 0, samples(pol[qa, PC_CARD]),
                                     count(np.uint64(ta)) * p[P_TEY_VALUE], np.int64(-1), look)
                asked = True
        if not asked:
            shown = choose_expose(pol[qa, PC_EXPOSE], rng)
        if shown:  # the cards shown are face up from now on (teyaku_shown)
            ca = claim(ks, res, 0, a, ha, ta, p)
    if tbits != 0:
        shown = False
        asked = False
        if look is not None:  # noqa: SIM102  (pruned with None)
            if pol[qb, PC_EXPOSE] == EXPOSE_LOOKAHEAD:
                shown = _look_expose(ks, pile, rng, tb, 1, samples(pol[qb, PC_CARD]),
                                     count(np.uint64(tbits)) * p[P_TEY_VALUE],
                                     res[R_TEY_CLAIMED + a], look)
                asked = True
        if not asked:
            shown = choose_expose(pol[qb, PC_EXPOSE], rng)
        if shown:
            cb = claim(ks, res, 1, b, hb, tbits, p)
    chips_a = ca - cb
    winner = -1
    stopper = -1
    points = 0
    hits = 0
    paid = 0
    calls_a = 0
    calls_b = 0
    if teyaku_end(p, res[R_TEY_CLAIMED + a], res[R_TEY_CLAIMED + b]):
        end_kind = END_TEYAKU
        winner = a if chips_a > 0 else (b if chips_a < 0 else -1)
    else:
        play_from(ks, pile, rng, tb, pol, qa, qb, look)
        end_kind, stopper, points, hits = settle(ks, tb)
        calls_a = np.int64(ks[K_CALLS])
        calls_b = np.int64(ks[K_CALLS + 1])
        if stopper >= 0:
            paid = calls_a if stopper == 0 else calls_b
            chips_a += stop_chips(stopper, points)
            stopper = a if stopper == 0 else b
            winner = stopper
    field = ks[K_FIELD]
    top = np.int64(ks[K_TOP])
    turns = np.int64(ks[K_TURNS])
    decisions = np.int64(ks[K_DECISIONS])
    pa = ks[K_PA]
    pb = ks[K_PA + 1]
    ha = ks[0]
    hb = ks[1]
    res[R_CHIPS + a] = chips_a
    res[R_CHIPS + b] = -chips_a
    res[R_CONT + a] = calls_a
    res[R_CONT + b] = calls_b
    res[R_WINNER] = winner
    res[R_STOPPER] = stopper
    res[R_END] = end_kind
    res[R_POINTS] = points
    res[R_HITS] = hits
    res[R_TURNS] = turns
    res[R_DECISIONS] = decisions
    res[R_MISDEALS] = misdeals
    res[R_REDEALS] = redeals
    res[R_FIRST] = a
    res[R_SECOND] = b
    res[R_PAID] = paid
    res[R_FIELD] = np.int64(field)
    res[R_TOP] = top
    res[R_END_PILE] = end
    res[R_PILE_A] = np.int64(pa)
    res[R_PILE_B] = np.int64(pb)
    res[R_HAND_A] = np.int64(ha)
    res[R_HAND_B] = np.int64(hb)
    res[R_ASIDE] = np.int64(aside)


@hot
def swap_fours(rng, order, hands, field, top, n, dealer, pol, tb, res, look):
    """The four-in-hand swap (both texts, Distributing the Initial Cards), seats in turn order
    from the dealer: each four of a month a seat holds may go, one card of it, onto the draw
    pile's top (``order[top]``), whose card it takes.  A call: most deals hold no four."""
    p = tb.params
    for s in range(n):
        fm = (hands[s] & (hands[s] >> np.uint64(1)) & (hands[s] >> np.uint64(2))
              & (hands[s] >> np.uint64(3)) & np.uint64(0x111111111111))
        q = dealer + s
        q = q - n if q >= n else q
        known = -1  # the top of the pile, when this seat's own swap put it there
        while fm != ZERO and top < order.shape[0]:
            c0 = lowest(fm)
            fm &= fm - ONE
            sw = pol[q, PC_SWAP]
            if look is not None:  # noqa: SIM102  (pruned with None)
                if sw == SWAP_LOOKAHEAD and not _look_swap(
                        rng, hands, field, s, c0, fm, known, n, tb,
                        min(SWAP_SAMPLES_PER_K * samples(pol[q, PC_CARD]),
                            SWAP_MAX_SAMPLES), look):
                    continue
            if sw == SWAP_NEVER or (sw == SWAP_RANDOM and below(rng, 2) == 0):
                continue
            k = 0 if p[P_PICK_LOWEST] else below(rng, 4)
            c = c0 + k
            swap_card(hands, s, c, order, top, res)
            known = np.int64(c)


@hot
def join_or_drop(rng, hands, field, n, dealer, redeals, pol, tb, res, look):
    """Join or drop at a table of three or four: seats 1, 2, ..., n-1, then the dealer
    (``engine.join``); ``redeals``: the redeals so far in a row.  Returns the two seats that
    play (first mover first), or (-1, -1) when the round is dealt again."""
    p = tb.params
    joined = 0
    for j in range(n):
        s = j + 1 if j + 1 < n else 0
        q = dealer + s
        q = q - n if q >= n else q
        # undecided: this seat and the later ones; under undecided=redeal the last are
        # forced in only after MAX_REDEALS redeals in a row
        ch = forced_choice(joined, n - j, 2,
                           p[P_UNDECIDED] == 0 or redeals >= MAX_REDEALS)
        if ch < 0:
            jp = pol[q, PC_JOIN]
            yes = join_by_policy(jp, pol[q, PC_JPARAM],
                                 join_strength(hands[s], field, tb.kind_masks[3]), rng)
            if look is not None:  # noqa: SIM102  (pruned with None)
                if jp == JOIN_LOOKAHEAD:
                    yes = _look_join(rng, hands, field, s, j, n, res, tb, yes,
                                     samples(pol[q, PC_CARD]), look)
            ch = CH_JOIN if yes else CH_DROP
        res[R_CHOICE + s] = ch
        if ch == CH_JOIN or ch == CH_FORCED_IN:
            res[R_PLAYS + s] = 1
            joined += 1
    a = -1
    b = -1
    if joined == 2:
        for s in range(n):
            if res[R_PLAYS + s] != 0:
                if a < 0:
                    a = s
                else:
                    b = s
    return a, b


@hot
def drop_hands(drng, pile, hands, end, n, res, p):
    """The dropped hands (``dropped``): set aside, or onto the draw pile (``pile[:end]``)
    under it or shuffled in.  Returns (the pile's length, the cards set aside)."""
    aside = ZERO
    under = end
    for s in range(n):
        if res[R_PLAYS + s] == 0:
            if p[P_DROPPED] == DROP_ASIDE:
                aside |= hands[s]
            else:
                m = hands[s]
                while m != ZERO:
                    pile[end] = lowest(m)
                    m &= m - ONE
                    end += 1
            hands[s] = ZERO
    if p[P_DROPPED] == DROP_UNDER:
        shuffle_span(drng, pile, under, end)
    elif p[P_DROPPED] == DROP_SHUFFLED:
        shuffle_span(drng, pile, 0, end)
    return end, aside


@hot(inline="always")
def swap_card(hands, s, c, order, top, res):
    """The four-in-hand swap (both texts, Distributing the Initial Cards): seat ``s``'s card
    ``c`` goes onto the draw pile's top, whose card ``order[top]`` it takes in hand."""
    res[R_SWAP_IN] |= np.int64(bit(order[top]))
    res[R_SWAP_OUT] |= np.int64(bit(c))
    hands[s] = (hands[s] & ~bit(c)) | bit(order[top])
    order[top] = c
    res[R_SWAPS + s] += 1


@hot(inline="always")
def claim(ks, res, slot, s, h, tbits, p):
    """Seat ``s`` (the play's ``slot``: 0 the first mover) exposes the teyaku ``tbits`` of
    its hand ``h``: claimed, their cards face up from now on (``teyaku_shown``); returns the
    chips they are worth."""
    res[R_TEY_CLAIMED + s] = tbits
    ks[K_KNOWN + slot] = teyaku_shown(h, tbits, p[P_PAIRS])
    return count(np.uint64(tbits)) * p[P_TEY_VALUE]


@hot(inline="always")
def teyaku_end(p, claimed_a, claimed_b):
    """Whether the claims end the round before play (``teyaku_ends``)."""
    return p[P_TEY_ENDS] != 0 and (claimed_a | claimed_b) != 0


@hot(inline="always")
def stop_chips(stopper, points):
    """The first mover's chips from a play won by the play's seat ``stopper`` (0 or 1) with
    dekiyaku worth ``points``."""
    return points if stopper == 0 else -points


#: the first dealer's draw: the earliest month deals (both texts, Choosing the Dealer)
LATEST_DEALS = False


@hot
def first_dealer(drng, order, n):
    """The first dealer (both texts, Choosing the Dealer): each player draws one card, the
    earliest month deals.  Neither text settles two cards of one month: the tied players draw
    again (``engine.deal.draw_for_dealer``), as the 1997 koi-koi text does for its cut."""
    return draw_for_dealer(drng, order, n, LATEST_DEALS)
