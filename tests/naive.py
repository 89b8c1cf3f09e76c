"""A slow, plain-Python Toppa round written from the rules (seed 000_a569c68da0494d09, section
"Toppa (for 2 players)"), not from the kernel.

Cards are ints (deck index), sets of cards are Python sets; card facts come from
``hanasim.decks.HANAFUDA`` and yaku are defined here by card *names* so that nothing is shared
with the kernel's tables except the two things a policy is defined by: greedy's card
``weights`` (``hanasim.policies.card_weights``) and the random generator ``below``, whose draws
must be consumed in exactly the kernel's protocol so that both sides see the same random
decisions:

* teyaku exposure, seat 0 then seat 1, only for a hand holding some teyaku: choice 2 (random)
  exposes iff ``below(rng, 2) == 1``; 1 always exposes; 0 never;
* a random player draws one 64-bit word ``r`` per turn (``next64``): the hand card is the
  ``(r >> 32) * len(hand) >> 32``-th card of the hand sorted by card id; when the played card
  matches exactly two field cards it takes the higher id iff bit 0 of ``r`` is set, and the
  turned card likewise with bit 1;  greedy draws nothing;
* a card matching exactly two field cards under greedy: the higher weight (tie: the lower id);
* greedy hand card: among cards with a match, maximise weight[card] + (weight of the single
  match | max weight of two | sum of weights of three), ties to the lowest id; with no match,
  discard the lowest weight (ties lowest id).
"""
from __future__ import annotations


from hanasim.decks import ANIMAL, BRIGHT, CHAFF, HANAFUDA as D, RIBBON
from hanasim.engine.rng import below, next64

PAR = 120
HAND = 10
# "the dealer gives five to their opponent, four to the table, five to themselves, and then
# repeat": deck position -> 'o' opponent, 'f' field, 'd' dealer
DEAL = ("o" * 5 + "f" * 4 + "d" * 5) * 2
N_DEALT = len(DEAL)

RANDOM, GREEDY = 0, 1
NEVER, ALWAYS, EXPOSE_RANDOM = 0, 1, 2

TEYAKU_BITS = {"triplet": 0, "one_ribbon": 1, "one_animal": 2, "one_bright": 3, "empty_hand": 4}

ALL = range(48)


def month(c):
    return int(D.month[c])


def kind(c):
    return int(D.kind[c])


def name(c):
    return D.names[c]


def C(n):
    return D.card(n)


# Card points: "Bright 20, Animal 10, Ribbon 5, Chaff 0" (Counting the Card Points).
POINTS = {BRIGHT: 20, ANIMAL: 10, RIBBON: 5, CHAFF: 0}


def points(cards):
    return sum(POINTS[kind(c)] for c in cards)


BRIGHTS = {c for c in ALL if kind(c) == BRIGHT}
RIBBONS = {c for c in ALL if kind(c) == RIBBON}
CHAFFS = {c for c in ALL if kind(c) == CHAFF}
WILLOW = {c for c in ALL if month(c) == 11}
RAIN_MAN = C("willow.rain_man")
DRY_FOUR = {C("pine.crane"), C("cherry.curtain"), C("susuki.moon"), C("paulownia.phoenix")}
BDB = {C("bush_clover.boar"), C("maple.deer"), C("peony.butterflies")}
POETRY = {C("pine.poetry_ribbon"), C("plum.poetry_ribbon"), C("cherry.poetry_ribbon")}
BLUE = {C("peony.blue_ribbon"), C("chrysanthemum.blue_ribbon"), C("maple.blue_ribbon")}
ROWS = {"wisteria_row": 4, "iris_row": 5, "bush_clover_row": 7}

assert len(BRIGHTS) == 5 and BRIGHTS == DRY_FOUR | {RAIN_MAN}
assert len(RIBBONS) == 10 and len(CHAFFS) == 24 and len(WILLOW) == 4


def opt(rules, key):
    return rules[key] if isinstance(rules, dict) else getattr(rules, key)


DEFAULTS = dict(five_brights=60, four_brights=40, rainy_four_brights=20, boar_deer_butterfly=20,
                poetry_ribbons=20, blue_ribbons=20, real_seven_ribbons=40,
                real_seven_ribbons_extra=10, seven_ribbons=20, seven_ribbons_extra=10, chaff=20,
                chaff_count=12, chaff_extra=10, wisteria_row=20, iris_row=20,
                bush_clover_row=20, triplet=20, one_ribbon=20, one_animal=20, one_bright=20,
                empty_hand=30, par=120, willow_chaff="none", teyaku_combine="add",
                card_transfer="exact", uncovered="opponent_yaku")
WORDS = {"on": 20, "off": 0}  # boar_deer_butterfly's old on/off values


def value(rules, name):
    """A numeric rule's value (a word such as 'off' stands for its number)."""
    v = rules[name]
    if isinstance(v, str):
        return WORDS[v] if v in WORDS else int(v)
    return v


def pars(rules, n=2):
    """Each seat's par: one value for all, or 'a,b' / a tuple, one per seat."""
    p = rules["par"]
    if isinstance(p, str):
        p = tuple(int(x) for x in p.split(","))
    p = tuple(p) if isinstance(p, tuple) else (int(p),)
    return p * n if len(p) == 1 else p


def full_rules(rules=None):
    out = dict(DEFAULTS)
    if rules is not None:
        for k in DEFAULTS:
            out[k] = opt(rules, k) if not isinstance(rules, dict) else rules.get(k, out[k])
    return out


# ------------------------------------------------------------------ teyaku
def teyaku(hand, rules):
    """(value, held bitmask) of a dealt hand (Checking for Teyaku).

    Triplet: three cards of one month (20; under "add" each triplet counts, so two are 40).
    Chaff teyaku: willow cards count by their own kind: one ribbon/animal/bright with nine
    chaff (20 each), ten chaff (30).  "add" sums every teyaku held, "highest" keeps the best.
    """
    rules = full_rules(rules)
    found = []  # (name, value)
    per_month = {}
    for c in hand:
        per_month[month(c)] = per_month.get(month(c), 0) + 1
    for m, n in per_month.items():
        if n == 3:
            found.append(("triplet", value(rules, "triplet")))
    kinds = [kind(c) for c in hand]
    nb, na, nr, nc = (kinds.count(k) for k in (BRIGHT, ANIMAL, RIBBON, CHAFF))
    if len(hand) == HAND:
        if nc == 9 and nr == 1:
            found.append(("one_ribbon", value(rules, "one_ribbon")))
        if nc == 9 and na == 1:
            found.append(("one_animal", value(rules, "one_animal")))
        if nc == 9 and nb == 1:
            found.append(("one_bright", value(rules, "one_bright")))
        if nc == 10:
            found.append(("empty_hand", value(rules, "empty_hand")))
    held = 0
    for n, _ in found:
        held |= 1 << TEYAKU_BITS[n]
    if not found:
        return 0, 0
    if rules["teyaku_combine"] == "add":
        return sum(v for _, v in found), held
    return max(v for _, v in found), held


# ------------------------------------------------------------------ dekiyaku
def _best(out, candidates):
    """A group of which only the highest counts: the candidates are listed highest first (the
    rules refuse values that break this order), so the first one made counts (a yaku valued 0
    is not played)."""
    made = [(name, worth) for name, base, ok, worth in candidates if ok and base > 0]
    if made:
        name, worth = made[0]
        out[name] = worth


def dekiyaku(pile, rules):
    """{name: value} of the dekiyaku a captured pile makes (List of Dekiyaku), each valued by
    ``rules`` (a yaku valued 0 is not played)."""
    rules = full_rules(rules)
    pile = set(pile)
    out = {}
    v = {n: value(rules, n) for n in DEFAULTS if isinstance(DEFAULTS[n], int)}
    # Bright yaku: only the highest scoring one counts.
    brights = pile & BRIGHTS
    _best(out, [("five_brights", v["five_brights"], len(brights) == 5, v["five_brights"]),
                ("four_brights", v["four_brights"], DRY_FOUR <= pile, v["four_brights"]),
                ("rainy_four_brights", v["rainy_four_brights"],
                 RAIN_MAN in pile and len(pile & DRY_FOUR) >= 3, v["rainy_four_brights"])])
    for name, cards in (("boar_deer_butterfly", BDB), ("poetry_ribbons", POETRY),
                        ("blue_ribbons", BLUE)):
        if v[name] and cards <= pile:
            out[name] = v[name]
    # Ribbons and willow cards ("strong cards", all count as ribbons): only the higher counts.
    true_ribbons = len(pile & RIBBONS)
    strong = len(pile & (RIBBONS | WILLOW))
    _best(out, [("real_seven_ribbons", v["real_seven_ribbons"], true_ribbons >= 7,
                 v["real_seven_ribbons"] + v["real_seven_ribbons_extra"] * (strong - 7)),
                ("seven_ribbons", v["seven_ribbons"], strong >= 7,
                 v["seven_ribbons"] + v["seven_ribbons_extra"] * (strong - 7))])
    # Chaff: chaff_count chaff cards (12), + chaff_extra per extra card.
    chaff = chaff_cards(pile, rules)
    if v["chaff"] and len(chaff) >= v["chaff_count"]:
        out["chaff"] = v["chaff"] + v["chaff_extra"] * (len(chaff) - v["chaff_count"])
    for n, m in ROWS.items():
        if v[n] and all(month(c) != m or c in pile for c in ALL):
            out[n] = v[n]
    return out


def chaff_cards(pile, rules):
    """The cards of a pile that count towards Chaff under ``willow_chaff``: none (willow
    cards are ribbons only: the lightning, printed as chaff, does not count), lightning (the
    lightning by its printed kind), all (every willow card too)."""
    chaff = set(pile) & CHAFFS
    if rules["willow_chaff"] == "none":
        return chaff - WILLOW
    if rules["willow_chaff"] == "all":
        return chaff | (set(pile) & WILLOW)
    return chaff


# ------------------------------------------------------------------ settlement
def can_pay(pile, amount, transfer):
    if amount <= 0:
        return True
    if transfer == "total":
        return points(pile) >= amount
    sums = {0}
    for c in pile:
        sums |= {s + POINTS[kind(c)] for s in sums}
    return amount in sums


def settle(pts, yaku, piles, transfer, uncovered="opponent_yaku", par=(PAR, PAR)):
    """(scores, uncovered) per seat (Yaku Settlement; Settlement when it cannot be Done).

    ``par``: each seat's par.  When the loser cannot cover, his score is his card points minus
    the winner's yaku score minus his par, and the winner's his card points plus his yaku score
    minus his par (the loser's score negated when the pars add up to 240)."""
    if yaku[0] == yaku[1]:
        return [pts[0] - par[0], pts[1] - par[1]], False
    loser = 0 if yaku[0] < yaku[1] else 1
    winner = 1 - loser
    diff = yaku[winner] - yaku[loser]
    covered = can_pay(piles[loser], diff, transfer)
    if covered or uncovered == "difference":
        after = list(pts)
        after[loser] -= diff
        after[winner] += diff
        return [after[0] - par[0], after[1] - par[1]], not covered
    scores = [0, 0]
    scores[loser] = pts[loser] - yaku[winner] - par[loser]
    scores[winner] = pts[winner] + yaku[winner] - par[winner]
    return scores, True


# ------------------------------------------------------------------ play
def matches_of(card, field):
    return sorted(f for f in field if month(f) == month(card))


def choose_two(policy, pair, weights, high_bit):
    a, b = pair
    if policy == RANDOM:
        return b if high_bit else a
    return a if weights[a] >= weights[b] else b


def play_card(card, field, policy, weights, high_bit=0):
    """Put ``card`` on the table; returns the captured cards (field is updated in place)."""
    ms = matches_of(card, field)
    if not ms:
        field.add(card)
        return set()
    if len(ms) == 1:
        taken = ms
    elif len(ms) == 2:
        taken = [choose_two(policy, ms, weights, high_bit)]
    else:  # three: all are captured with the played card
        taken = ms
    for t in taken:
        field.remove(t)
    return set(taken) | {card}


def play_turn(policy, hand, field, drawn, weights, rng):
    """One turn (hand and field updated in place); returns the captured cards."""
    r = int(next64(rng)) if policy == RANDOM else 0
    card = choose_hand(policy, hand, field, weights, r)
    hand.remove(card)
    captured = play_card(card, field, policy, weights, r & 1)
    return captured | play_card(drawn, field, policy, weights, (r >> 1) & 1)


def choose_hand(policy, hand, field, weights, r):
    cards = sorted(hand)
    if policy == RANDOM:
        return cards[((r >> 32) * len(cards)) >> 32]
    best, best_gain = None, None
    for c in cards:
        ms = matches_of(c, field)
        if not ms:
            continue
        if len(ms) == 1:
            take = weights[ms[0]]
        elif len(ms) == 2:
            take = max(weights[ms[0]], weights[ms[1]])
        else:
            take = sum(weights[m] for m in ms)
        gain = weights[c] + take
        if best is None or gain > best_gain:
            best, best_gain = c, gain
    if best is not None:
        return best
    return min(cards, key=lambda c: (weights[c], c))


def is_misdeal(order):
    hands, field, _ = split(order)
    for g in (hands[0], hands[1], field):
        months = [month(c) for c in g]
        if any(months.count(m) >= 4 for m in set(months)):
            return True
    return False


def split(order):
    """(hands by seat, field, draw pile top first) of a deck order."""
    order = [int(c) for c in order]
    hands = [set(), set()]
    field = set()
    for i, c in enumerate(order[:N_DEALT]):
        if DEAL[i] == "d":
            hands[0].add(c)
        elif DEAL[i] == "o":
            hands[1].add(c)
        else:
            field.add(c)
    return hands, field, order[N_DEALT:]


def play_round(order, dealer, policy, expose, rules, weights, rng):
    """Play a dealt round; ``policy``/``expose`` are per player, ``rng`` the 1-element state.

    Returns per-seat facts (seat 0 is the dealer): score, pts, yaku, tey_held, tey_scored,
    deki_hits (set of names), deki, captured (set), and uncovered, field (set), top.
    """
    rules = full_rules(rules)
    hands, field, pile = split(order)
    player = [dealer % 2, (dealer + 1) % 2]
    tey_held, tey_scored = [0, 0], [0, 0]
    for s in range(2):
        v, h = teyaku(hands[s], rules)
        tey_held[s] = h
        if h:
            e = expose[player[s]]
            shown = (below(rng, 2) == 1) if e == EXPOSE_RANDOM else (e == ALWAYS)
            tey_scored[s] = v if shown else 0
    captured = [set(), set()]
    s = 0
    top = 0
    for _turn in range(2 * HAND):  # dealer first, alternating; both hands have 10 cards
        captured[s] |= play_turn(policy[player[s]], hands[s], field, pile[top], weights, rng)
        top += 1
        s ^= 1
    assert not hands[0] and not hands[1]
    out = dict(captured=captured, tey_held=tey_held, tey_scored=tey_scored,
               field=set(field), top=N_DEALT + top)
    deki = [dekiyaku(captured[s], rules) for s in range(2)]
    out["deki_hits"] = [set(d) for d in deki]
    out["deki"] = [sum(d.values()) for d in deki]
    out["yaku"] = [out["deki"][s] + tey_scored[s] for s in range(2)]
    out["pts"] = [points(captured[s]) for s in range(2)]
    out["score"], out["uncovered"] = settle(out["pts"], out["yaku"], captured,
                                            rules["card_transfer"], rules["uncovered"],
                                            pars(rules))
    return out
