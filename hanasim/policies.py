"""Playing policies.  Inside kernels a policy is an integer id; this module is the only place
that knows what each id does, and every game calls the same functions.

* ``random``: every decision uniform: the hand card to play uniformly among the hand, then the
  capture target uniformly among the two candidates when a card matches two field cards.
* ``greedy``: plays the capture that gains the most *weight* now (the played card plus what it
  takes); a card's weight is its card points plus its share of every dekiyaku it belongs to
  (``base / cards needed``), so it chases yaku as well as points.  With no capture available it
  discards the lightest card.  Ties go to the lowest card index, so greedy is deterministic.

Decisions the rules leave open are separate per-seat choices, also integer ids: exposing a
teyaku (``expose``: always, never, random).

Stop-or-continue (koi-koi's "shobu or koi-koi", and any game that offers it) is a decision of
the same shape as the card choice: ``choose_continue(policy, parameter, legal choices, the
player's view, random stream) -> choice``.  A player of such a game is named
``CARD[/DECISION]`` (``greedy/stop``, ``random/continue3``); :func:`parse_policy` packs both
into one int per player (card id in bits 0-3, decision id in bits 4-7, its parameter above):

* ``random``: stop or continue with probability 1/2 each (one draw, only when both are legal);
* ``stop``: always collect;
* ``continueK``: continue while the player still holds at least K cards (default 1: every
  time a later turn of theirs could still improve the yaku), else stop;
* ``thresholdT``: continue while the yaku points now are below T (default 5), the opponent
  still lacks at least 2 cards for every yaku, and the player holds a card; else stop.

A bare ``random`` decides at random; a bare ``greedy`` collects at once (``stop``): it takes
the sure points now, as its card play takes the biggest capture now.
"""
import numpy as np
from .engine.jit import hot

from .engine.bits import count, lowest, nth_card
from .engine.rng import below, below_word
from .numtext import is_digits

RANDOM, GREEDY = 0, 1
# lookahead (engine.lookahead): K determinisations a decision, in bits 32-47 of the id
LOOKAHEAD, K_SHIFT, DEFAULT_K, MAX_K = 2, 32, 16, 4096
# forced: one turn with a given hand card (bits 8-13) and two-way pick (bit 16), then greedy:
# how a lookahead's rollout plays the choice it scores (games with their own turn: koi-koi)
FORCED = 3


def forced(card, high):
    """The policy id of a forced turn: ``card``, then take the higher card id of a two-way
    match if ``high`` is non-zero."""
    return FORCED | (card << 8) | ((1 if high else 0) << 16)
POLICIES = {"random": RANDOM, "greedy": GREEDY}

EXPOSE_NEVER, EXPOSE_ALWAYS, EXPOSE_RANDOM = 0, 1, 2
EXPOSE = {"never": EXPOSE_NEVER, "always": EXPOSE_ALWAYS, "random": EXPOSE_RANDOM}


def policy_id(name: str) -> int:
    """A card-play policy's id: ``random``, ``greedy``, or ``lookahead[:K]`` (K determinisations
    a decision, default 16: ``engine.lookahead``; K in bits 32-47 of the id)."""
    text = str(name).strip()
    if text in POLICIES:
        return POLICIES[text]
    word, sep, k = text.partition(":")
    if word == "lookahead":
        if not sep:
            return LOOKAHEAD | DEFAULT_K << K_SHIFT
        if is_digits(k) and 1 <= int(k) <= MAX_K:  # ASCII digits only (hanasim.numtext)
            return LOOKAHEAD | int(k) << K_SHIFT
        raise ValueError(f"policy {text!r}: lookahead:K takes K, the determinisations a "
                         f"decision, a whole number from 1 to {MAX_K}")
    raise ValueError(f"unknown policy {text!r}; choose from random, greedy, lookahead, "
                     f"lookahead:K")


def policy_name(pid: int) -> str:
    """The name of a :func:`policy_id` (``lookahead:16``)."""
    pid = int(pid)
    if pid & 0xF == LOOKAHEAD:
        return f"lookahead:{pid >> K_SHIFT & 0xFFFF}"
    return {v: k for k, v in POLICIES.items()}[pid & 0xF]


def expose_id(name: str) -> int:
    try:
        return EXPOSE[name]
    except KeyError:
        raise ValueError(f"unknown expose choice {name!r}; choose from {', '.join(EXPOSE)}") from None


DEC_RANDOM, DEC_STOP, DEC_CONTINUE, DEC_THRESHOLD, DEC_LOOKAHEAD = 0, 1, 2, 3, 4
DECISIONS = {"random": DEC_RANDOM, "stop": DEC_STOP, "continue": DEC_CONTINUE,
             "threshold": DEC_THRESHOLD, "lookahead": DEC_LOOKAHEAD}
#: parameter of a decision policy: default and allowed range (continueK: cards, thresholdT: points)
DECISION_PARAM = {DEC_CONTINUE: (1, 0, 10), DEC_THRESHOLD: (5, 1, 99)}
DEFAULT_DECISION = {RANDOM: DEC_RANDOM, GREEDY: DEC_STOP, LOOKAHEAD: DEC_LOOKAHEAD}
LEGAL_STOP, LEGAL_CONTINUE = 1, 2
LEGAL_BOTH = LEGAL_STOP | LEGAL_CONTINUE
STOP, CONTINUE = 0, 1
#: the forms parse_policy takes (stop-or-continue games): CARD is random, greedy or lookahead[:K]
POLICY_FORMS = ("random", "greedy", "lookahead[:K]", "CARD/random", "CARD/stop",
                "CARD/continue[K]", "CARD/threshold[T]", "lookahead[:K]/lookahead")


def per_seat(policy, expose, seats: int, players: int) -> tuple[list, list]:
    """The policies and expose choices of a table of ``seats`` seats, ``players`` of them
    seated: one given for all is repeated; fewer than the players is refused."""
    policy, expose = list(policy), list(expose)
    if len(policy) == 1:
        policy = policy * seats
    if len(expose) == 1:
        expose = expose * seats
    if len(policy) < players or len(expose) < players:
        raise ValueError(f"give one policy and one expose choice for each of the {players} "
                         "players (or one for all)")
    return policy, expose


def parse_policy(name: str) -> int:
    """``CARD[/DECISION]`` (``greedy/continue3``) as one int: card | decision << 4 | param << 8
    (a lookahead card's K in bits 32-47).  CARD ``lookahead[:K]`` decides by lookahead unless
    a DECISION is given."""
    text = str(name).strip()
    card_name, sep, dec_name = text.partition("/")
    forms = ", ".join(POLICY_FORMS)
    look = card_name.partition(":")[0] == "lookahead"
    if dec_name == "lookahead" and not look:
        raise ValueError(f"policy {text!r}: the lookahead decision comes with lookahead card "
                         f"play: write lookahead[:K] (or lookahead:K/lookahead)")
    if card_name not in POLICIES and not look:
        raise ValueError(f"unknown policy {text!r}; choose from {forms} (CARD is random, "
                         "greedy or lookahead[:K])")
    card = policy_id(card_name)
    if look:
        k = card >> K_SHIFT
        if not sep:
            return card | DEC_LOOKAHEAD << 4
        card &= 0xF
    if not sep:
        return card | DEFAULT_DECISION[card] << 4
    word = dec_name.rstrip("0123456789")
    digits = dec_name[len(word):]
    if word not in DECISIONS or (digits and DECISIONS[word] not in DECISION_PARAM):
        raise ValueError(f"unknown decision {dec_name!r} in policy {text!r}; choose from {forms}")
    dec = DECISIONS[word]
    param = 0
    if dec in DECISION_PARAM:
        default, low, high = DECISION_PARAM[dec]
        param = int(digits) if digits else default
        if not low <= param <= high:
            raise ValueError(f"policy {text!r}: {word} takes a number from {low} to {high}")
    if look:
        card |= k << K_SHIFT
    return card | dec << 4 | param << 8


def split_policy(packed: int) -> tuple:
    """(card policy id, decision id, decision parameter) of a :func:`parse_policy` value."""
    packed = int(packed)
    return ((packed & 0xF) | (packed & (0xFFFF << K_SHIFT)), (packed >> 4) & 0xF,
            (packed >> 8) & 0xFFFFFF)


def card_weights(points, yaku_masks, yaku_ints):
    """Greedy's per-card weights: points plus each dekiyaku's value shared over its cards."""
    w = points.astype(np.float64).copy()
    for (cond, _req, _cnt), (minimum, _ef, base, _pe, _g) in zip(yaku_masks, yaku_ints):
        for c in range(len(points)):
            if int(cond) >> c & 1:
                w[c] += base / max(int(minimum), 1)
    return w


def greedy_tables(weights):
    """Greedy's decisions as lookups on (card, the field's cards of its month as a nibble).

    ``score[16 * card + nibble]``: the capture gain ``weight[card] + weight taken`` (the single
    match, the heavier of two, the sum of three, added in ascending card order) when the card
    matches, else ``-1e6 - weight[card]``, so one argmax (ties to the lowest card) plays the best
    capture, or with none the lightest discard.  ``high[16 * month + nibble]``: all ones when
    greedy takes the higher card id of a two-way match (strictly heavier), else 0.  Assumes four
    cards a month in card order (``engine.bits``).
    """
    w = np.asarray(weights, dtype=np.float64)
    n = len(w)
    score = np.empty(16 * n, dtype=np.float64)
    high = np.zeros(16 * (n // 4), dtype=np.uint64)
    for c in range(n):
        base = c & ~3
        for nib in range(16):
            m = [base + k for k in range(4) if nib >> k & 1]
            if not m:
                score[16 * c + nib] = -1e6 - w[c]
            elif len(m) == 2:
                score[16 * c + nib] = w[c] + max(w[m[0]], w[m[1]])
            else:
                take = 0.0
                for x in m:
                    take += w[x]
                score[16 * c + nib] = w[c] + take
    for month in range(n // 4):
        for nib in range(16):
            m = [4 * month + k for k in range(4) if nib >> k & 1]
            if len(m) == 2 and w[m[1]] > w[m[0]]:
                high[16 * month + nib] = np.uint64(0xFFFFFFFFFFFFFFFF)
    return score, high


@hot
def _nibble(field, card):
    """The field's cards of ``card``'s month, as 4 bits."""
    return np.int64((field >> np.uint64(card & ~3)) & np.uint64(0xF))


@hot(inline="always")
def hand_card(policy, hand, field, r, gscore):
    """The card a player plays from ``hand`` (non-empty); ``r`` is the turn's random word."""
    if policy == RANDOM:
        return nth_card(hand, below_word(r, count(hand)))
    return greedy_hand_card(hand, field, gscore)


@hot(inline="always")
def greedy_hand_card(hand, field, gscore):
    """Argmax of greedy's table score over the hand, ties to the lowest card, without branches
    on the scores (which case wins is unpredictable)."""
    best = np.int64(0)
    best_score = -np.inf
    m = hand
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        sc = gscore[16 * c + _nibble(field, c)]
        better = sc > best_score
        best = c if better else best
        best_score = sc if better else best_score
    return best


@hot(inline="always")
def take_high(policy, card, field, r, ghigh):
    """For a two-way match of ``card``: all ones to take the higher card id, zero the lower.
    Random: bit 0 of ``r``; greedy: the heavier card (a table lookup)."""
    if policy == RANDOM:
        return np.uint64(0) - (r & np.uint64(1))
    return ghigh[16 * (card >> 2) + _nibble(field, card)]


@hot(inline="always")
def choose_continue(decision, param, legal, cards_left, score, opp_missing, rng):
    """Stop (0) or continue (1).  ``legal``: LEGAL_STOP | LEGAL_CONTINUE; a single legal
    choice is taken without consulting the policy (and without a random draw).  The view:
    ``cards_left`` in the player's hand, ``score`` the yaku points they would collect now,
    ``opp_missing`` the fewest cards the opponent still lacks for any yaku."""
    if legal != LEGAL_BOTH:
        return CONTINUE if legal == LEGAL_CONTINUE else STOP
    if decision == DEC_RANDOM:
        return below(rng, 2)
    if decision == DEC_STOP:
        return STOP
    if decision == DEC_CONTINUE:
        return CONTINUE if cards_left >= param else STOP
    return CONTINUE if (score < param and opp_missing >= 2 and cards_left >= 1) else STOP


@hot
def choose_expose(expose, rng):
    if expose == EXPOSE_RANDOM:
        return below(rng, 2) == 1
    return expose == EXPOSE_ALWAYS


# ---- match groups: decks whose suits are not four cards in card order (Taipa: eight a suit)
# A card's group is ``group_of[card]`` and the group's cards are ``group_masks[group]``; the
# field cards a card matches are ``field & group_masks[group_of[card]]``, any number of them.
# A random player draws one word a turn: its high half picks the hand card (as ``hand_card``),
# bits 0-15 the capture target of the played card and bits 16-31 that of the turned card.

_LOW16 = np.uint64(0xFFFF)


@hot
def group_pick(policy, mm, r, weights):
    """Index (in ascending card order) of the field card taken among the matches ``mm``
    (non-empty): random uniformly from 16 bits of ``r``, greedy the heaviest (ties: the
    lowest card)."""
    n = count(mm)
    if policy == RANDOM:
        return np.int64(((r & _LOW16) * np.uint64(n)) >> np.uint64(16))
    best = np.int64(0)
    best_w = -np.inf
    i = np.int64(0)
    m = mm
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        if weights[c] > best_w:
            best_w = weights[c]
            best = i
        i += 1
    return best


@hot(inline="always")
def group_hand_card(policy, hand, field, r, group_of, group_masks, weights):
    """The card a player plays from ``hand`` (non-empty).  Greedy: the largest capture weight
    (the card plus the heaviest card it matches), with no capture the lightest card; ties to
    the lowest card."""
    if policy == RANDOM:
        return nth_card(hand, below_word(r, count(hand)))
    best = np.int64(0)
    best_score = -np.inf
    m = hand
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        mm = field & group_masks[group_of[c]]
        if mm:
            take = -np.inf
            k = mm
            while k:
                t = lowest(k)
                k &= k - np.uint64(1)
                take = max(take, weights[t])
            sc = weights[c] + take
        else:
            sc = -1e6 - weights[c]
        if sc > best_score:
            best_score = sc
            best = c
    return best
