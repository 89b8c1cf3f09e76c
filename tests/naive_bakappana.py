"""A slow, plain-Python Bakappana round and next-dealer choice written from the Bakappana rule
page and the options documented in ``hanasim/games/bakappana/rules.py``, not from the kernel.

The turn (a hand card, then the turned card; two matches a pick, three all captured) and the
policies' random-draw protocol are the Toppa reference's (``tests/naive.py``); what is
Bakappana's is written here: 2-4 seats and their deals, the table misdeal, the 2-player
draw-out of the 8 cards left, chaff worth 1 or 0, par = deck points / players or additive.
"""
from __future__ import annotations

from naive import RANDOM, below, kind, month, next64, play_card, play_turn

POINTS = {0: 20, 1: 10, 2: 5}  # bright, animal, ribbon; chaff by the chaff_points rule


def deal_string(n, hand):
    """The page's dealing conventions, deck position -> seat digit or 'f' (Distributing the
    Initial Cards): 2 players 4 opponent, 4 table, 4 dealer, twice (5/4/5 for 10-card hands);
    3 players 4 each from the dealer's right, 3 table, 3 each, 3 table; 4 players (no
    convention given) 3 each, 4 table, 2 each, 4 table."""
    if n == 2:
        a = 4 if hand == 8 else 5
        return ("1" * a + "ffff" + "0" * a) * 2
    order = [str(s) for s in range(1, n)] + ["0"]
    if n == 3:
        return "".join(s * 4 for s in order) + "fff" + "".join(s * 3 for s in order) + "fff"
    return "".join(s * 3 for s in order) + "ffff" + "".join(s * 2 for s in order) + "ffff"


def split(order, n, hand):
    d = deal_string(n, hand)
    hands = [set() for _ in range(n)]
    field = set()
    for i, c in enumerate(int(x) for x in order[:len(d)]):
        (field if d[i] == "f" else hands[int(d[i])]).add(c)
    return hands, field, [int(x) for x in order[len(d):]]


def is_misdeal(order, n, hand):
    """Four cards of a month on the field (Misdeals); a hand may hold four."""
    _, field, _ = split(order, n, hand)
    months = [month(c) for c in field]
    return any(months.count(m) == 4 for m in months)


def card_points(cards, chaff):
    return sum(POINTS.get(kind(c), chaff) for c in cards)


def play_round(order, dealer, n, policies, rules, weights, rng):
    """One round; ``policies`` by player, seat s is player (dealer + s) % n.  Returns dict of
    per-seat ``pts``, ``score``, ``captured`` and the final ``field`` and ``top``."""
    hand = rules.get("two_player_deal", 8) if n == 2 else (7 if n == 3 else 5)
    chaff = rules.get("chaff_points", 1)
    additive = rules.get("scoring", "zero_sum") == "additive"
    hands, field, pile = split(order, n, hand)
    top = 48 - len(pile)
    piles = [set() for _ in range(n)]
    seat = 0
    # Turns: the dealer first, then anticlockwise, until the hands are empty
    while hands[seat]:
        pol = policies[(dealer + seat) % n]
        piles[seat] |= play_turn(pol, hands[seat], field, pile.pop(0), weights, rng)
        seat = (seat + 1) % n
    # 2 players dealt 8: the 8 cards left are turned one a turn until the pile is exhausted
    draw_out = n == 2 and hand == 8 and rules.get("two_player_end", "draw_out") == "draw_out"
    while draw_out and pile:
        pol = policies[(dealer + seat) % n]
        r = int(next64(rng)) if pol == RANDOM else 0
        piles[seat] |= play_card(pile.pop(0), field, pol, weights, r & 1)
        seat = (seat + 1) % n
    par = 0 if additive else (240 + 24 * chaff) // n
    pts = [card_points(p, chaff) for p in piles]
    return dict(pts=pts, score=[p - par for p in pts], captured=piles, field=field,
                top=48 - len(pile))


def next_dealer(scores, tie_random, rng):
    """(seat, tied): the highest score deals; a tie to the first in turn order, or at random
    among the tied (one ``below`` draw, only when tied)."""
    top = max(scores)
    tied = [s for s, x in enumerate(scores) if x == top]
    pick = below(rng, len(tied)) if tie_random and len(tied) > 1 else 0
    return tied[pick], len(tied) > 1
