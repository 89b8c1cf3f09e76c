"""A slow, plain-Python koi-koi round written from the rules (seed 004_3c58717347331a26 and the
koi-koi rule page, with the options documented in ``hanasim/games/koikoi/rules.py``), not from the
kernel: cards are ints, piles are sets, yaku are written per table by card *names*.

Capturing and the card policies come from the Toppa reference ``tests/naive.py``.  Random draws
are consumed in the kernel's protocol:

* lucky hands (only when they score: ``win6``/``stack12``), seat 0 then seat 1, only for a hand
  holding one: expose choice 2 (random) declares iff ``below(rng, 2) == 1``;
* each turn, a random card player draws one word (``naive.play_turn``);
* a stop-or-continue decision with both choices legal, decided at random: ``below(rng, 2)``,
  1 = continue.
"""
from __future__ import annotations

from naive import (ALL, ALWAYS, EXPOSE_RANDOM, RANDOM, C, below, choose_hand, matches_of, month,
                   play_card)

from hanasim.engine.rng import next64

from hanasim.decks import ANIMAL, BRIGHT, CHAFF, HANAFUDA as D, RIBBON

ACT_NONE, ACT_CONTINUE, ACT_STOP = 0, 1, 2
DEC_RANDOM, DEC_STOP, DEC_CONTINUE, DEC_THRESHOLD = 0, 1, 2, 3
END_STOP, END_EXHAUSTED, END_LUCKY, END_LUCKY_DRAW, END_FIELD = 0, 1, 2, 3, 4

BRIGHTS = {c for c in ALL if D.kind[c] == BRIGHT}
RAIN = C("willow.rain_man")
DRY = BRIGHTS - {RAIN}
ANIMALS = {c for c in ALL if D.kind[c] == ANIMAL}
RIBBONS = {c for c in ALL if D.kind[c] == RIBBON}
CHAFFS = {c for c in ALL if D.kind[c] == CHAFF}
SAKE = C("chrysanthemum.sake_cup")
CURTAIN, MOON = C("cherry.curtain"), C("susuki.moon")
BDB = {C("bush_clover.boar"), C("maple.deer"), C("peony.butterflies")}
POETRY = {C("pine.poetry_ribbon"), C("plum.poetry_ribbon"), C("cherry.poetry_ribbon")}
BLUE = {C("peony.blue_ribbon"), C("chrysanthemum.blue_ribbon"), C("maple.blue_ribbon")}
WILLOW = {c for c in ALL if month(c) == 11}
PAULOWNIA = {c for c in ALL if month(c) == 12}
LIGHTNING = C("willow.lightning")
YELLOW = C("paulownia.chaff1")  # the yellow Paulownia (koikoi/yaku.py: one of the three stands for it)
assert len(DRY) == 4 and len(ANIMALS) == 9 and len(RIBBONS) == 10 and len(CHAFFS) == 24

DEFAULTS = dict(yaku="game_cabinet", meld_growth="none", viewing="off", viewing_points=5,
                viewing_after_call="same", sake_cup="animal_only", cards_of_month="off",
                yaku_counting="all", field_multiplier="count", seven_double="off",
                koikoi_bonus="none", scoring="winner_only", decision_on="new", koikoi_min=0,
                last_turn="choose", opponent_stops="forfeit", exhausted="nobody",
                dealer_privilege=1, draw_dealer="keep", hand_size=8, lucky_hands="none",
                both_lucky="draw", field_four="misdeal", field_pairs="ok",
                first_dealer="later_month", target=50, game_rounds=0, stake=0,
                omit_yaku="none", double_chaff="none", koikoi_calls=0,
                improve_call="koikoi_or_stop", turn_structure="standard", after_hands="end",
                wild_lightning="off", must_match="yes", misdeal="hand_or_field")


def full_rules(rules=None):
    out = dict(DEFAULTS)
    for k in out:
        if isinstance(rules, dict):
            out[k] = rules.get(k, out[k])
        elif rules is not None:
            out[k] = getattr(rules, k)
    return out


# ------------------------------------------------------------------ yaku
def table_yaku(pile, r, sake_as):
    """{name: points} of the table yaku (not viewing, not cards of the month)."""
    animals = ANIMALS if sake_as in ("animal", "both") else ANIMALS - {SAKE}
    chaff = CHAFFS | {SAKE} if sake_as in ("chaff", "both") else CHAFFS
    nA, nR, nC = len(pile & animals), len(pile & RIBBONS), len(pile & chaff)
    nC += len(pile & chaff & doubled(r))  # double_chaff: these count two
    nD = len(pile & DRY)
    out = {}
    t = r["yaku"]
    no_bdb = r["omit_yaku"] != "none"
    no_three = r["omit_yaku"] == "flower_card_game"
    if t == "game_cabinet":
        grow = r["meld_growth"] != "none"
        if nD >= 3:
            out["three_brights"] = 8 + (nD - 3 if r["meld_growth"] == "all" else 0)
        if POETRY <= pile:
            out["poetry_ribbons"] = 3
        if BLUE <= pile:
            out["blue_ribbons"] = 3
        for name, n, need in (("animals", nA, 5), ("ribbons", nR, 5), ("chaff", nC, 10)):
            if n >= need:
                out[name] = 1 + (n - need if grow else 0)
        return out
    five, three = {"modern": (15, 6), "older": (15, 6), "nintendo": (10, 5),
                   "koikoi_japan": (10, 5)}[t]
    # one bright yaku, the best
    if BRIGHTS <= pile:
        out["five_brights"] = five
    elif DRY <= pile:
        out["four_brights"] = 8
    elif RAIN in pile and nD >= 3 and not no_three:
        out["rainy_four_brights"] = 7
    elif nD >= 3 and not no_three:
        out["three_brights"] = three
    if t in ("modern", "nintendo"):
        if BDB <= pile and not no_bdb:
            out["boar_deer_butterfly"] = 5 + nA - 3
        elif nA >= 5:
            out["animals"] = 1 + nA - 5
        if POETRY <= pile and BLUE <= pile:
            out["poetry_blue_ribbons"] = 10 + nR - 6
        elif POETRY <= pile:
            out["poetry_ribbons"] = 5 + nR - 3
        elif BLUE <= pile:
            out["blue_ribbons"] = 5 + nR - 3
        elif nR >= 5:
            out["ribbons"] = 1 + nR - 5
    else:
        if BDB <= pile and not no_bdb:
            out["boar_deer_butterfly"] = 5
        if nA >= 5:
            out["animals"] = 1 + nA - 5
        if t == "koikoi_japan" and POETRY <= pile and BLUE <= pile:
            out["poetry_blue_ribbons"] = 10
        if POETRY <= pile:
            out["poetry_ribbons"] = 5
        if BLUE <= pile:
            out["blue_ribbons"] = 5
        if nR >= 5:
            out["ribbons"] = 1 + nR - 5
    if nC >= 10:
        out["chaff"] = 1 + nC - 10
    return out


def doubled(r):
    """The cards double_chaff counts as two chaff."""
    words = r["double_chaff"].split("+")
    return {card for word, card in (("sake", SAKE), ("lightning", LIGHTNING),
                                    ("paulownia", YELLOW)) if word in words}


def yaku(pile, field, calls, round_month, r):
    """{name: points} of everything a pile scores now."""
    pile = set(pile)
    if r["sake_cup"] == "animal_or_chaff":
        a, c = table_yaku(pile, r, "animal"), table_yaku(pile, r, "chaff")
        out = c if sum(c.values()) > sum(a.values()) else a
    else:
        out = table_yaku(pile, r, {"animal_only": "animal", "animal_and_chaff": "both"}[r["sake_cup"]])
    out = dict(out)
    if r["cards_of_month"] == "on" and all(c in pile for c in ALL if month(c) == round_month):
        out["cards_of_the_month"] = 4
    if r["viewing"] != "off":
        pts = r["viewing_points"]
        if calls > 0 and r["viewing_after_call"] != "same":
            pts = int(r["viewing_after_call"])
        other = sum(out.values()) > 0
        for name, card, spoiler in (("flower_viewing", CURTAIN, WILLOW),
                                    ("moon_viewing", MOON, PAULOWNIA)):
            ok = SAKE in pile and card in pile
            if r["viewing"] == "weather":
                ok = ok and not (set(field) & spoiler)
            if r["viewing"] == "need_other":
                ok = ok and other
            if ok:
                out[name] = pts
    return out


def missing(pile, round_month, r):
    """Fewest cards the pile lacks for some yaku (the threshold policy's view)."""
    pile = set(pile)
    # The kernel reads its first table: the sake cup counts as an animal (also under
    # animal_or_chaff), and as chaff only under animal_and_chaff.
    nA = len(pile & ANIMALS)
    chaff = CHAFFS | {SAKE} if r["sake_cup"] == "animal_and_chaff" else CHAFFS
    nD, nR, nC = len(pile & DRY), len(pile & RIBBONS), len(pile & chaff)
    nC += len(pile & chaff & doubled(r))
    lack = lambda cards: len(set(cards) - pile)  # noqa: E731
    t = r["yaku"]
    no_three = r["omit_yaku"] == "flower_card_game"
    needs = [lack(POETRY), lack(BLUE), 5 - nA, 5 - nR, 10 - nC]
    if not no_three:
        needs.append(3 - nD)
    if t != "game_cabinet":
        needs += [lack(BRIGHTS), 4 - nD]
        if not no_three:
            needs.append(max(0, 3 - nD) + (RAIN not in pile))
        if r["omit_yaku"] == "none":
            needs.append(lack(BDB))
        if t != "older":
            needs.append(lack(POETRY | BLUE))
    if r["viewing"] != "off":
        needs += [lack({SAKE, CURTAIN}), lack({SAKE, MOON})]
    if r["cards_of_month"] == "on":
        needs.append(lack({c for c in ALL if month(c) == round_month}))
    return max(0, min(needs))


def counted_points(pile, opp_pile, field, calls, opp_calls, round_month, r):
    """(yaku points counted, names held) of a player collecting."""
    ys = yaku(pile, field, calls, round_month, r)
    base = sum(ys.values())
    if r["yaku_counting"] == "best":
        singles = list(ys.values())
        if r["sake_cup"] == "animal_or_chaff":  # the cup may take either role for one yaku
            singles += list(table_yaku(set(pile), r, "chaff").values())
            singles += list(table_yaku(set(pile), r, "animal").values())
        base = max(singles) if singles else 0
    elif r["yaku_counting"] == "both_players":
        base += sum(yaku(opp_pile, field, opp_calls, round_month, r).values())
    return base, set(ys)


def score(base, calls, opp_calls, fmult, r):
    pts = base
    if r["seven_double"] == "on" and base >= 7:
        pts *= 2
    b = r["koikoi_bonus"]
    if b == "add_per_call":
        pts = pts + calls if calls <= 3 else pts * (calls - 2)
    elif b == "opponent_x2" and opp_calls:
        pts *= 2
    elif b == "own_x2" and calls:
        pts *= 2
    elif b == "anyone_x2" and calls + opp_calls:
        pts *= 2
    elif b == "calls_plus_one":
        pts *= 1 + calls + opp_calls
    return pts * fmult


# ------------------------------------------------------------------ the deal
def deal_groups(order, hand_size=8):
    """(dealer hand, opponent hand, field) of a deck order: to the opponent, to the dealer, to
    the field, twice (seed)."""
    h = hand_size // 2
    pat = ("o" * h + "d" * h + "f" * 4) * 2
    g = {"d": set(), "o": set(), "f": set()}
    for i, ch in enumerate(pat):
        g[ch].add(int(order[i]))
    return g["d"], g["o"], g["f"], len(pat)


def month_counts(cards):
    out = {}
    for c in cards:
        out[month(c)] = out.get(month(c), 0) + 1
    return out


def four(cards):
    return 4 in month_counts(cards).values()


def pairs(cards):
    return bool(cards) and all(n % 2 == 0 for n in month_counts(cards).values())


def is_misdeal(order, rules):
    """A deal thrown in: a four of a month on the field (field_four=misdeal) unless
    misdeal=none; four pairs on the field (field_pairs=misdeal); a four in a hand when it is
    no lucky hand and misdeal=hand_or_field, or under lucky_hands=misdeal, which also throws
    in four pairs in a hand."""
    r = full_rules(rules)
    d, o, f, _ = deal_groups(order, r["hand_size"])
    if r["field_four"] == "misdeal" and r["misdeal"] != "none" and four(f):
        return True
    if r["field_pairs"] == "misdeal" and pairs(f):
        return True
    hand_four = r["lucky_hands"] == "misdeal" or (r["lucky_hands"] == "none"
                                                  and r["misdeal"] == "hand_or_field")
    if hand_four and (four(d) or four(o)):
        return True
    return r["lucky_hands"] == "misdeal" and (pairs(d) or pairs(o))


# ------------------------------------------------------------------ a round
def put(card, field, policy, weights, r, wild):
    """``card`` onto the field (updated in place); the captured cards.  The wild Lightning
    (koikoi/rules.py ``wild_lightning``): with no willow on the field it takes one field card (random:
    bits 8..23 of ``r`` pick among the field cards in ascending order; greedy: the heaviest,
    ties to the lowest); a non-willow card matching nothing by month takes it from the field."""
    if wild:
        if card == LIGHTNING:
            if field and not (field & WILLOW):
                cands = sorted(field)
                if policy == RANDOM:
                    t = cands[(((r >> 8) & 0xFFFF) * len(cands)) >> 16]
                else:
                    t = max(cands, key=lambda c: (weights[c], -c))
                field.remove(t)
                return {card, t}
        elif LIGHTNING in field and month(card) != 11 and not matches_of(card, field):
            field.remove(LIGHTNING)
            return {card, LIGHTNING}
    return play_card(card, field, policy, weights, r & 1)


def captures_something(card, field, wild):
    """Whether playing ``card`` onto ``field`` takes a card: a field card of its month; when
    the Lightning is wild, the Lightning onto a field with no willow (and some card), or any
    other non-willow card onto a field holding the Lightning."""
    if matches_of(card, field):
        return True
    if wild:
        if card == LIGHTNING:
            return bool(field) and not (field & WILLOW)
        return LIGHTNING in field and month(card) != 11
    return False


def choices(hand, field, wild, r):
    """The hand cards a player may choose from: under must_match=yes those that capture, if
    any (seed: 'if he can't make a match, he discards one to the table'), else the hand."""
    if r["must_match"] == "yes":
        matching = {c for c in hand if captures_something(c, field, wild)}
        if matching:
            return matching
    return set(hand)


def koikoi_turn(policy, hand, field, drawn, weights, rng, wild, structure, pile_only, rules):
    """One turn by ``turn_structure`` (hand and field updated in place); the captured cards."""
    r = int(next64(rng)) if policy == RANDOM else 0
    if pile_only:
        return put(drawn, field, policy, weights, r >> 1, wild)
    if structure == "draw_then_two":
        hand.add(drawn)
    card = choose_hand(policy, choices(hand, field, wild, rules), field, weights, r)
    hand.remove(card)
    cap = put(card, field, policy, weights, r, wild)
    if structure == "standard":
        return cap | put(drawn, field, policy, weights, r >> 1, wild)
    if structure == "unmatched_to_hand":
        trial = set(field)
        got = put(drawn, trial, policy, weights, r >> 1, wild)
        if got:
            field.clear()
            field.update(trial)
            return cap | got
        hand.add(drawn)  # it captures nothing: into the hand, and a second hand card
    r = int(next64(rng)) if policy == RANDOM else 0
    card = choose_hand(policy, choices(hand, field, wild, rules), field, weights, r)
    hand.remove(card)
    return cap | put(card, field, policy, weights, r, wild)


def play_round(order, dealer, round_month, policy, decide, expose, rules, weights, rng):
    """Play a dealt round.  ``policy``: card policy per player; ``decide``: (decision, param)
    per player; seat 0 is the dealer, player ``dealer ^ seat``.  Returns the facts the kernel
    writes (see ``res_facts`` in the test)."""
    r = full_rules(rules)
    hand_size = r["hand_size"]
    d, o, field, top = deal_groups(order, hand_size)
    dealt_field = set(field)
    hands = [d, o]
    piles = [set(), set()]
    player = [dealer, dealer ^ 1]
    out = dict(score=[0, 0], winner=-1, end=END_STOP, base=0, points=0, hits=set(),
               collected=0, kept=0, paid=0, calls=[0, 0], decisions=0, turns=0)
    nb = len(field & BRIGHTS)
    out["field_brights"] = nb
    fmult = {"count": 1 + nb, "double": 2 if nb else 1, "off": 1}[r["field_multiplier"]]
    lucky = [(1 if four(h) else 0) | (2 if pairs(h) else 0) for h in hands]
    out["lucky"] = list(lucky)
    zero_sum = r["scoring"] == "zero_sum"

    def pay(s, pts):
        out["score"][s] += pts
        if zero_sum:
            out["score"][1 - s] -= pts

    def finish():
        out.update(captured=[set(p) for p in piles], field=set(field), top=top,
                   hands=hands[0] | hands[1])
        return out

    if r["lucky_hands"] in ("win6", "stack12"):
        declared = []
        for s in range(2):
            e = expose[player[s]]
            declared.append(bool(lucky[s]) and ((below(rng, 2) == 1) if e == EXPOSE_RANDOM
                                                else e == ALWAYS))
        if any(declared):
            if all(declared) and r["both_lucky"] == "privilege":
                pay(0, r["dealer_privilege"])
                out.update(winner=0, points=r["dealer_privilege"], end=END_LUCKY_DRAW)
            elif all(declared) and r["both_lucky"] == "draw":
                out["end"] = END_LUCKY_DRAW
            else:
                w = 0 if declared[0] else 1
                kinds = (lucky[w] & 1) + (lucky[w] >> 1)
                v = 6 * kinds if r["lucky_hands"] == "stack12" else 6
                pay(w, v)
                out.update(winner=w, points=v, end=END_LUCKY)
            return finish()
    if four(field) and r["field_four"] != "misdeal":  # misdeal=none: the four stays
        if r["field_four"] == "dealer_wins":
            pay(0, 6)
            out.update(winner=0, points=6, end=END_FIELD)
            return finish()
        while four(field):
            full = [m for m, n in month_counts(field).items() if n == 4]
            if top + 4 * len(full) + 2 * hand_size > 48:
                break
            for m in full:
                quad = {c for c in field if month(c) == m}
                piles[0] |= quad
                field -= quad
            for _ in range(4 * len(full)):
                field.add(int(order[top]))
                top += 1

    wild = r["wild_lightning"] == "on" or (
        r["wild_lightning"] == "august_field" and any(month(c) == 8 for c in dealt_field))
    after = r["after_hands"] == "draw_pile"
    calls = [0, 0]
    held = [set(), set()]
    best = [0, 0]
    last = -1
    seat = 0
    over = None
    while True:
        pile_only = not hands[seat]
        extra = 0  # the player's turns after the hands run out (after_hands=draw_pile)
        if pile_only:
            if not after or top >= 48:
                over = "exhausted"
                break
            extra = (48 - top - 1) // 2
        elif after:
            rest = 48 - top - 1 - len(hands[0]) - len(hands[1]) + 1
            extra = (rest + (1 if seat == 0 else 0)) // 2
        p = player[seat]
        cap = koikoi_turn(policy[p], hands[seat], field, int(order[top]), weights, rng, wild,
                          r["turn_structure"], pile_only, r)
        top += 1
        out["turns"] += 1
        piles[seat] |= cap
        if cap or r["viewing"] == "weather":
            ys = yaku(piles[seat], field, calls[seat], round_month, r)
            v = sum(ys.values())
            new = bool(set(ys) - held[seat])
            improved = new if r["decision_on"] == "new" else v > best[seat]
            held[seat] |= set(ys)
            best[seat] = max(best[seat], v)
            if improved:
                last = seat
                out["decisions"] += 1
                left = len(hands[seat]) + extra
                forced = ((left == 0 and r["last_turn"] == "stop") or v < r["koikoi_min"]
                          or (r["koikoi_calls"] and calls[seat] >= r["koikoi_calls"])
                          or (r["improve_call"] == "stop_only" and not new))
                dec, param = decide[p]
                if forced or dec == DEC_STOP:
                    go_on = False
                elif dec == DEC_RANDOM:
                    go_on = below(rng, 2) == 1
                elif dec == DEC_CONTINUE:
                    go_on = left >= param
                else:
                    go_on = (v < param and missing(piles[1 - seat], round_month, r) >= 2
                             and left >= 1)
                if not go_on:
                    over = seat
                    break
                calls[seat] += 1
                if r["viewing_after_call"] != "same":
                    ys = yaku(piles[seat], field, calls[seat], round_month, r)
                    held[seat] |= set(ys)
                    best[seat] = max(best[seat], sum(ys.values()))
        seat ^= 1
    out["calls"] = list(calls)

    def collect(s):
        base, names = counted_points(piles[s], piles[1 - s], field, calls[s], calls[1 - s],
                                     round_month, r)
        return score(base, calls[s], calls[1 - s], fmult, r), base, names

    scorer = None
    if over != "exhausted":
        scorer = over
    else:
        out["end"] = END_EXHAUSTED
        if r["exhausted"] == "last_yaku" and last >= 0:
            scorer = last
        elif r["exhausted"] == "dealer":
            pay(0, r["dealer_privilege"])
            out.update(winner=0, points=r["dealer_privilege"])
    if scorer is not None:
        pts, base, names = collect(scorer)
        pay(scorer, pts)
        out.update(winner=scorer, base=base, points=pts, hits=names, collected=1,
                   paid=calls[scorer])
        o = 1 - scorer
        if over != "exhausted" and r["opponent_stops"] == "keeps" and calls[o]:
            kept = collect(o)[0]
            pay(o, kept)
            out["kept"] = kept
    return finish()


# ------------------------------------------------------------------ games, in sessions
def first_dealer(rng, order, earlier):
    """Both players cut (player 0 first): the later month deals, a tie cuts again (seed); or
    the earlier month, the higher card of one month (rule page)."""
    from hanasim.engine.rng import partial_shuffle

    while True:
        partial_shuffle(rng, order, 2)
        a, b = int(order[0]), int(order[1])
        if earlier:
            return 0 if (month(a), a) < (month(b), b) else 1
        if month(a) != month(b):
            return 0 if month(a) > month(b) else 1


def play_session(seed, session, n_rounds, rules, policy, decide, expose, weights,
                 fixed_dealer=False, series=128):
    """The rounds and games of one session (series of whole games), drawing from the same
    stream as the kernel; returns (counted round records, game records)."""
    import numpy as np

    from hanasim.engine.rng import shuffle_range, stream_state

    r = full_rules(rules)
    key = np.uint64(stream_state(np.uint64(seed), np.uint64(session)))
    rng = np.zeros(1, dtype=np.uint64)

    def stream(index):  # round i: deal 3i, play 3i + 1, cut 3i + 2; the deck back in order
        rng[0] = stream_state(key, np.uint64(index))
        return np.arange(48, dtype=np.int8)

    n_dealt = 2 * r["hand_size"] + 8  # two hands and 8 field cards
    stop = min(48, n_dealt + 2 * r["hand_size"]
               + (48 if r["field_four"] == "dealer_captures" or r["after_hands"] == "draw_pile"
                  else 0))
    rounds, games = [], []
    i = 0
    while len(rounds) < n_rounds:
        dealer = 0
        if not fixed_dealer:
            order = stream(3 * i + 2)
            dealer = first_dealer(rng, order, r["first_dealer"] == "earlier_month")
        first = dealer
        totals = [r["stake"], r["stake"]]
        k = 0
        while True:
            order = stream(3 * i)
            mis = 0
            while True:
                shuffle_range(rng, order, 0, n_dealt)
                if not is_misdeal(order, r):
                    break
                mis += 1
            shuffle_range(rng, order, n_dealt, stop)
            stream(3 * i + 1)
            i += 1
            f = play_round(list(order), dealer, k % 12 + 1, policy, decide, expose, r, weights,
                           rng)
            if len(rounds) < n_rounds:
                rounds.append(dict(f, dealer=dealer, misdeals=mis))
            for s in range(2):
                totals[dealer ^ s] += f["score"][s]
            if f["winner"] >= 0:
                dealer ^= 0 if fixed_dealer else f["winner"]
            elif r["draw_dealer"] == "pass" and not fixed_dealer:
                dealer ^= 1
            k += 1
            gains = [t - r["stake"] for t in totals]
            done = ((r["game_rounds"] and k >= r["game_rounds"])
                    or (r["target"] and max(gains) >= r["target"])
                    or (r["stake"] and min(totals) <= 0))
            if done or k >= 1000:
                games.append(dict(rounds=k, first=first, totals=list(totals), capped=not done))
                break
    return rounds, games
