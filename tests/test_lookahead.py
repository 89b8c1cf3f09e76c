"""The lookahead policy (engine.lookahead): it never peeks, it finds clear choices, it beats
greedy, and its rounds keep every invariant."""
import numpy as np
import pytest

import hanasim
from hanasim.engine import state
from hanasim.games import toppa as T
from hanasim.policies import GREEDY, greedy_hand_card, policy_id, policy_name

TB, _ = T.lower(T.ToppaRules())


def position(d_hand, o_hand, field, pile, d_pile=()):
    """A Toppa state with the dealer to move: hands, field, the draw pile top first; every
    other card is captured, in the dealer's pile if listed in ``d_pile``, else the opponent's."""
    used = set(d_hand) | set(o_hand) | set(field) | set(pile)
    rest = [c for c in range(48) if c not in used]
    mask = lambda cs: np.uint64(sum(1 << c for c in cs))  # noqa: E731
    st = np.zeros(T.ST_N, np.uint64)
    st[0], st[1], st[2] = mask(d_hand), mask(o_hand), mask(field)
    st[3] = mask(d_pile)
    st[4] = mask([c for c in rest if c not in set(d_pile)])
    order = np.array([c for c in range(48) if c not in pile] + list(pile), np.int8)
    st[state.top(2)] = 48 - len(pile)
    return st, order


# The dealer holds the poetry ribbons of pine (1) and plum (5); on the field lie the cherry
# poetry ribbon (9) and the moon (28).  Greedy takes the moon (20 points) with its pampas chaff
# (30); the opponent would then take the ribbon (with 11), blocking the Poetry Ribbons yaku.
# Taking the ribbon first (with 10) makes the yaku, and the moon stays: only the dealer holds a
# pampas card.  The pile (14, 18, 22, 26) matches nothing.
POETRY = dict(d_hand=[10, 30], o_hand=[11, 47], field=[9, 28], pile=[14, 18, 22, 26],
              d_pile=[1, 5])


def test_lookahead_takes_the_capture_that_completes_a_yaku():
    st, order = position(**POETRY)
    res = np.zeros(T.R_N, np.int64)
    assert greedy_hand_card(st[0], st[2], TB.gscore) == 30  # greedy takes the moon
    for seed in range(5):
        card, _ = T.lookahead_card(TB, st, order, seed, 16, res)
        assert card == 10


def test_lookahead_completes_five_brights():
    # four brights captured, the phoenix (44) on the field: the paulownia chaff takes it
    st, order = position([45, 2], [12, 16], [44, 3, 20], [24, 32, 36, 46], d_pile=[0, 8, 28, 40])
    res = np.zeros(T.R_N, np.int64)
    assert T.lookahead_card(TB, st, order, 7, 16, res)[0] == 45


def test_lookahead_never_reads_a_hidden_card():
    """Permuting the unseen cards (the opponent's hand and the pile order) changes neither the
    determinisations nor the choice, on the same random stream."""
    rng = np.random.default_rng(5)
    res = np.zeros(T.R_N, np.int64)
    for trial in range(6):
        cards = rng.permutation(48)
        d_hand, o_hand = list(cards[:4]), list(cards[4:8])
        field, pile = list(cards[8:12]), list(cards[12:20])
        d_pile = list(cards[20:34])
        st, order = position(d_hand, o_hand, field, pile, d_pile)
        unseen = o_hand + pile
        want = T.lookahead_card(TB, st, order, trial, 8, res)
        for _ in range(3):
            shuffled = list(rng.permutation(unseen))
            st2, order2 = position(d_hand, shuffled[:4], field, shuffled[4:], d_pile)
            assert T.lookahead_card(TB, st2, order2, trial, 8, res) == want


def test_lookahead_beats_greedy_at_toppa(full):
    rounds = 40_000 if full else 4_000
    df = hanasim.simulate("toppa", rounds=rounds, seed=3, policy="lookahead:16,greedy").set_index(
        "quantity")
    assert df.loc["player1.mean_score", "ci_low"] > 0


def test_lookahead_rounds_keep_the_invariants_and_are_reproducible():
    """Checked mode: every card ends in exactly one place and the scores add up (Toppa), in
    rounds where both players look ahead; the same seed gives the same table."""
    a = hanasim.simulate("toppa", rounds=300, seed=11, policy="lookahead:4", checked=True)
    b = hanasim.simulate("toppa", rounds=300, seed=11, policy="lookahead:4", checked=True,
                         threads=1)
    assert a.estimate.equals(b.estimate)


def test_lookahead_runs_use_every_thread_and_give_the_same_table(monkeypatch):
    """A lookahead run is cut into small chunks (so a short run keeps every thread busy); the
    table does not depend on the chunks or the threads."""
    from hanasim.engine import runner

    assert runner.default_chunk(1, slow=True) < runner.default_chunk(1)
    kw = dict(rounds=700, seed=4, policy="lookahead:4,greedy")
    small = hanasim.simulate("toppa", **kw, threads=2)
    monkeypatch.setattr(runner, "SLOW_ROUNDS_PER_CHUNK", runner.TARGET_ROUNDS_PER_CHUNK)
    whole = hanasim.simulate("toppa", **kw, threads=1)
    assert small.estimate.equals(whole.estimate) and small.std_error.equals(whole.std_error)


def test_lookahead_at_baka(heavy):
    df = hanasim.simulate("baka", rounds=900, seed=2, policy="lookahead:8,greedy,greedy",
                          checked=True).set_index("quantity")
    assert df.loc["player1.mean_score", "estimate"] > 0


def test_policy_names_and_errors():
    assert policy_name(policy_id("lookahead")) == "lookahead:16"
    assert policy_name(policy_id("lookahead:5")) == "lookahead:5"
    assert policy_id("greedy") == GREEDY
    for bad in ("lookahead:0", "lookahead:x", "lookahead:99999", "look"):
        with pytest.raises(ValueError, match="lookahead|unknown policy"):
            policy_id(bad)


@pytest.mark.parametrize("game, bad, says", [
    ("koikoi", "lookahed:16,greedy", "lookahead[:K]"),
    ("koikoi", "greedy/lookahead,greedy", "comes with lookahead card play"),
    ("kushiro_toppa", "greedy/lookahead,greedy", "comes with lookahead card play"),
    ("kushiro_toppa", "lookahed,greedy", "JOIN"),
    ("taipa", "greedy/lookahead,greedy", "comes with lookahead card play"),
])
def test_policy_errors_offer_the_lookahead(game, bad, says):
    """Every game plays lookahead: a wrong policy's message names it, never 'not available'."""
    with pytest.raises(ValueError) as e:
        hanasim.simulate(game, rounds=10, policy=bad)
    assert says in str(e.value) and "not available" not in str(e.value)


def test_tournament_table_and_errors():
    t = hanasim.tournament("toppa", ["random", "greedy"], rounds=400, seed=1)
    assert set(t.quantity) == {"mean_score", "win_rate"}
    assert len(t) == 2  # one unordered pairing (two players: no mirror), two quantities
    row = t[(t.policy == "random") & (t.quantity == "mean_score")].iloc[0]
    assert row.opponent == "greedy" and row.estimate < 0 and row.significant
    with pytest.raises(ValueError, match="at least two"):
        hanasim.tournament("toppa", ["greedy"], rounds=10)
    with pytest.raises(ValueError, match="twice"):
        hanasim.tournament("toppa", ["greedy", "greedy"], rounds=10)
    with pytest.raises(ValueError, match="no commas"):
        hanasim.tournament("toppa", ["greedy,random", "random"], rounds=10)


def test_koikoi_tournament_ranks_by_advantage():
    """Koi-koi scores winner-only (never negative): its tournament ranks by player 1's score
    less the opponent's, so random loses to greedy."""
    from hanasim.tournament import strength_table

    t = hanasim.tournament("koikoi", ["random", "greedy"], rounds=2_000, seed=1)
    assert set(t.quantity) == {"mean_advantage", "win_rate"}
    sq = strength_table(t)
    assert sq.loc["random", "greedy"] < 0
    assert t[t.quantity == "mean_advantage"].significant.all()


def test_lookahead_plays_taoshi_on_the_same_deals(heavy):
    """Taoshi: the lookahead plays the cards of player 1 (the deals, drawn from their own
    stream, are the same as under greedy: every deal-time rate is identical), and the play
    differs."""
    look = hanasim.simulate("taoshi", rounds=600, seed=3,
                            policy="lookahead:4,greedy,greedy").set_index("quantity")
    greedy = hanasim.simulate("taoshi", rounds=600, seed=3,
                              policy="greedy,greedy,greedy").set_index("quantity")
    deal = [q for q in look.index if q.startswith(("teyaku.", "misdeal"))]
    assert deal and look.loc[deal, "estimate"].equals(greedy.loc[deal, "estimate"])
    assert look.loc["player1.mean_score", "estimate"] != greedy.loc["player1.mean_score",
                                                                     "estimate"]


def test_lookahead_joins_and_claims_at_taoshi(heavy):
    """Taoshi with 4 players, on the same deals: a bare lookahead:K joins or drops and claims
    by lookahead too (it claims with --expose never); ``lookahead:K/threshold40/expose`` joins
    by greedy's threshold (the same rounds played as greedy) and claims as --expose says."""
    kw = dict(rounds=400, seed=3, rules={"players": 4}, expose="never")
    others = ",greedy,greedy,greedy"
    runs = {p: hanasim.simulate("taoshi", policy=p + others, **kw).set_index("quantity")
            for p in ("lookahead:4", "lookahead:4/threshold40/expose", "greedy")}
    look, card, greedy = runs.values()
    deal = [q for q in look.index if q.startswith(("teyaku.", "misdeal"))
            and q != "teyaku.claim_rate"]
    assert deal and look.loc[deal, "estimate"].equals(greedy.loc[deal, "estimate"])
    assert card.loc["teyaku.claim_rate", "estimate"] == 0 < look.loc["teyaku.claim_rate",
                                                                      "estimate"]
    rate = "player1.play_rate"
    assert card.loc[rate, "estimate"] == greedy.loc[rate, "estimate"] != look.loc[rate,
                                                                                 "estimate"]


# ---------------------------------------------------------------- koi-koi
def koikoi_position(tb, p_pile, p_hand, o_pile, o_hand, field, pile, o_calls=0):
    """A koi-koi state after player 0's turn (the call not yet made), player 1 to move; every
    card not listed is in player 1's pile."""
    from hanasim.games import koikoi as K

    listed = set(p_pile) | set(p_hand) | set(o_pile) | set(o_hand) | set(field) | set(pile)
    o_pile = list(o_pile) + [c for c in range(48) if c not in listed]
    mask = lambda cs: np.uint64(sum(1 << c for c in cs))  # noqa: E731
    st = np.zeros(K.KS_N, np.uint64)
    groups = np.array([mask(p_hand), mask(o_hand), mask(field)], np.uint64)
    K.start(st, groups, 48 - len(pile), np.uint64(0), 1)
    st[3], st[4], st[6] = mask(p_pile), mask(o_pile), 1
    for s, pl, calls in ((0, st[3], 0), (1, st[4], o_calls)):
        v, h = K.yaku_now(pl, st[2], calls, np.uint64(0), tb)
        st[K.KS_CALLS + s], st[K.KS_HITS + s], st[K.KS_BEST + s] = calls, h, v
    order = np.array([c for c in range(48) if c not in pile] + list(pile), np.int8)
    return st, order


def test_koikoi_lookahead_stops_when_the_opponent_is_one_card_from_a_large_yaku(heavy):
    """Player 0 just made Ribbons (1 point); player 1, who called koi-koi, holds three brights
    and the phoenix lies on the field: of the six cards player 0 cannot see, three are
    paulownia cards that take it (Four Brights).  Collecting now is right; calling is not."""
    from hanasim.games import koikoi as K
    from hanasim.rules import make_rules

    tb, _ = K.lower(make_rules(K.KoikoiRules, K.PRESETS["modern"]))
    st, order = koikoi_position(tb, p_pile=[1, 5, 13, 17, 21, 40], p_hand=[2, 3, 10],
                                o_pile=[0, 8, 28], o_hand=[45, 46, 6],
                                field=[44, 14, 18, 22], pile=[47, 7, 11], o_calls=1)
    for seed in range(3):
        assert not K.lookahead_decision(tb, st, order, 0, seed, 16)
    # Player 0 holds the pampas chaff with the moon on the field (the other pampas cards are
    # player 1's): calling koi-koi, it takes the moon next turn for Three Brights, and player 1
    # (two cards captured, no bright left to take) cannot make a yaku before: calling is right.
    listed = [0, 8, 1, 5, 13, 17, 21, 30, 46, 47, 29, 31, 6, 7, 10, 28, 14, 18, 22]
    st, order = koikoi_position(tb, p_pile=[0, 8, 1, 5, 13, 17, 21], p_hand=[30, 46, 47],
                                o_pile=[29, 31], o_hand=[6, 7, 10], field=[28, 14, 18, 22],
                                pile=[c for c in range(48) if c not in listed])
    for seed in range(3):
        assert K.lookahead_decision(tb, st, order, 0, seed, 16)


def test_lookahead_beats_greedy_at_koikoi(full, heavy):
    """On the same deals, player 1 playing lookahead:16 (cards and stop-or-continue) scores
    more than playing greedy against greedy."""
    c = hanasim.compare("koikoi", rounds=40_000 if full else 4_000, seed=5, preset="modern",
                        policies=["greedy", "lookahead:16,greedy"])
    d = c[(c.kind == "difference") & (c.quantity == "player1.mean_advantage")].iloc[0]
    assert d.ci_low > 0
    if full:
        # the seed's own rules: a small gain (about +0.2 points a round), 200,000 rounds
        c = hanasim.compare("koikoi", rounds=200_000, seed=5,
                            policies=["greedy", "lookahead:16,greedy"])
        d = c[(c.kind == "difference") & (c.quantity == "player1.mean_advantage")].iloc[0]
        assert d.ci_low > 0


def test_lookahead_gate_rises_with_the_number_of_choices():
    """A choice gaining 1.2 standard errors over greedy's is taken when it is the only other
    choice, not when it is the best of nine others (the best of many noisy means is biased
    upward); 2.5 standard errors pass among ten choices."""
    from hanasim.engine import lookahead as L

    sc = L.new_scratch(8, 48, 2)
    k = 16

    def gain(t):  # choice 1's summed gain and squares: mean 1, t standard errors
        sd = 1.0 * np.sqrt(k) / t
        sc.total[1] = k * 1.0
        sc.total2[1] = k * (sd * sd + 1.0)

    for m in (2, 10):
        sc.total[:m] = 0.0
        sc.total2[:m] = 0.0
    gain(1.2)
    assert L._pick(sc, 2, k) == 1 and L._pick(sc, 10, k) == 0
    gain(2.5)
    assert L._pick(sc, 10, k) == 1
    assert np.sqrt(L.Z2_BY_M[2]) == L.Z and np.all(np.diff(L.Z2_BY_M[2:]) > 0)


def test_koikoi_lookahead_decision_needs_lookahead_cards():
    with pytest.raises(ValueError, match="comes with lookahead card play"):
        hanasim.simulate("koikoi", rounds=10, seed=1, policy="greedy/lookahead")


def koikoi_tables(**rules):
    from hanasim.games import koikoi as K
    from hanasim.rules import make_rules

    return K.lower(make_rules(K.KoikoiRules, {**K.PRESETS["modern"], **rules}))[0]


def test_koikoi_lookahead_takes_the_turned_cards_ribbon_that_completes_a_yaku(heavy):
    """Player 0 holds the pine and plum poetry ribbons; it plays its one hand card (a
    paulownia chaff that matches nothing) and turns the cherry chaff, which matches the
    curtain and the cherry poetry ribbon on the field.  Greedy takes the curtain (heavier);
    the ribbon makes Poetry Ribbons (5 points) at once, and no card left can take it later
    but the one unseen cherry card."""
    from hanasim.games import koikoi as K

    tb = koikoi_tables()
    st, order = koikoi_position(tb, p_pile=[1, 5], p_hand=[47], o_pile=[], o_hand=[11, 22, 26],
                                field=[8, 9, 14, 18], pile=[10, 12, 13, 15, 16])
    st[6] = 0  # player 0 to move
    assert K.greedy_take(10, st[2] | np.uint64(1 << 47), False, tb) == 8
    for seed in range(3):
        got = K.forced_choices(K.lookahead_turn(tb, st, order, 0, seed, 16))
        assert got["card1"] == -1 and got["drawn_take"] == 9


def test_koikoi_lookahead_never_reads_a_hidden_card(heavy):
    """Permuting the cards player 0 cannot see changes none of its turn's choices; the turned
    card is seen once it is turned (so it stays in place for the whole turn, and the first
    hand card must not move when it is permuted too), under each turn structure and the
    wild Lightning."""
    from hanasim.games import koikoi as K

    rng = np.random.default_rng(4)
    for trial, rules in enumerate([{}, {"turn_structure": "draw_then_two",
                                        "wild_lightning": "on"},
                                   {"turn_structure": "unmatched_to_hand"}, {}]):
        tb = koikoi_tables(**rules)
        c = [int(x) for x in rng.permutation(48)]
        p_hand, o_hand, field, pile = c[:5], c[5:10], c[10:18], c[18:28]
        p_pile, o_pile = c[28:38], c[38:]

        def turn(o_hand, pile, seed=trial):
            st, order = koikoi_position(tb, p_pile, p_hand, o_pile, o_hand, field, pile)
            st[6] = 0
            st[K.KS_WILD] = 1 if rules.get("wild_lightning") == "on" else 0
            return K.forced_choices(K.lookahead_turn(tb, st, order, 0, seed, 8))

        want = turn(o_hand, pile)
        for _ in range(3):
            u = [int(x) for x in rng.permutation(o_hand + pile[1:])]
            assert turn(u[:5], [pile[0]] + u[5:]) == want
            if rules.get("turn_structure") != "draw_then_two":
                u = [int(x) for x in rng.permutation(o_hand + pile)]
                got = turn(u[:5], u[5:])
                assert (got["card1"], got["take1"]) == (want["card1"], want["take1"])


def lucky_position(tb, hand, o_hand, field, rest=None):
    """The state right after the deal, player 0 (the dealer) holding ``hand``; the draw pile
    is ``rest`` (default: the other cards in card order)."""
    from hanasim.games import koikoi as K

    mask = lambda cs: np.uint64(sum(1 << c for c in cs))  # noqa: E731
    st = np.zeros(K.KS_N, np.uint64)
    dealt = list(hand) + list(o_hand) + list(field)
    if rest is None:
        rest = [c for c in range(48) if c not in dealt]
    order = np.array(dealt + list(rest), np.int8)
    K.start(st, np.array([mask(hand), mask(o_hand), mask(field)], np.uint64), len(dealt),
            np.uint64(0), 1)
    return st, order


def test_koikoi_lookahead_declares_a_weak_lucky_hand_and_hides_a_strong_one(heavy):
    """Seed rules with lucky hands worth 6: four pairs of chaff-like cards that match nothing
    on the field are declared; four pairs holding four brights, every other card of their
    months on the field, make Three Brights (8 points) within three turns: hidden."""
    from hanasim.games import koikoi as K
    from hanasim.rules import make_rules

    tb = K.lower(make_rules(K.KoikoiRules, {"lucky_hands": "win6"}))[0]
    weak = [14, 15, 18, 19, 22, 23, 26, 27]
    st, order = lucky_position(tb, weak, [2, 6, 10, 30, 34, 38, 42, 46],
                               [3, 7, 11, 31, 35, 39, 43, 47])
    assert K.lucky_bits(st[0]) == 2
    for seed in range(3):
        assert K.lookahead_declare(tb, st, order, 0, seed, 16, False, False, 0)
    strong = [0, 1, 8, 9, 28, 29, 44, 45]
    st, order = lucky_position(tb, strong, [4, 12, 16, 20, 24, 32, 36, 40],
                               [2, 3, 10, 11, 30, 31, 46, 47])
    assert K.lucky_bits(st[0]) == 2
    for seed in range(3):
        assert not K.lookahead_declare(tb, st, order, 0, seed, 16, False, False, 0)
    # permuting the cards player 0 cannot see (the other hand, the draw pile) does not move
    # the choice
    rng = np.random.default_rng(2)
    field = [2, 3, 10, 11, 30, 31, 46, 47]
    for seed in range(3):
        want = K.lookahead_declare(tb, st, order, 0, seed, 8, False, False, 0)
        for _ in range(2):
            u = [int(x) for x in rng.permutation([int(c) for c in order[8:16]]
                                                 + [int(c) for c in order[24:]])]
            st2, order2 = lucky_position(tb, strong, u[:8], field, u[8:])
            assert K.lookahead_declare(tb, st2, order2, 0, seed, 8, False, False, 0) == want


@pytest.mark.parametrize("rules", [
    {"turn_structure": "draw_then_two", "wild_lightning": "on"},
    {"turn_structure": "unmatched_to_hand", "after_hands": "draw_pile",
     "wild_lightning": "august_field"}])
def test_koikoi_lookahead_plays_every_turn_structure(heavy, rules):
    """The lookahead plays the turn structures and the wild Lightning (checked mode: every
    card in one place), and beats greedy there."""
    c = hanasim.compare("koikoi", rounds=2_048, seed=3, preset="modern", rules=rules,
                        policies=["greedy", "lookahead:8,greedy"], blocks=16)
    d = c[(c.kind == "difference") & (c.quantity == "player1.mean_score")].iloc[0]
    assert d.estimate > 0
    hanasim.simulate("koikoi", rounds=256, seed=1, preset="modern", rules=rules,
                     policy="lookahead:4", checked=True)
# ---------------------------------------------------------------- Taipa (match by suit)
from hanasim.games import taipa as TP  # noqa: E402

TPB = TP.lower(TP.TaipaRules())


def taipa_position(hand0, hand1, field, pile0, pile1, draw=(), seat=0):
    """A Taipa round state, ``seat`` to move; the round's deck is every card listed (the
    draw pile ``draw`` last, top first); returns (state, order, n)."""
    mask = lambda cs: np.uint64(sum(1 << int(c) for c in cs))  # noqa: E731
    st = np.zeros(TP.ST_N, np.uint64)
    st[0], st[1], st[TP.S_FIELD] = mask(hand0), mask(hand1), mask(field)
    st[TP.S_PILE], st[TP.S_PILE + 1] = mask(pile0), mask(pile1)
    for s, p in enumerate((pile0, pile1)):
        st[TP.S_NY + s] = TP.yaku_points(mask(p), TPB)[1]
    seen = list(hand0) + list(hand1) + list(field) + list(pile0) + list(pile1)
    order = np.zeros(48, np.int8)
    order[:len(seen) + len(draw)] = seen + list(draw)
    st[TP.S_TOP] = len(seen)
    st[TP.S_SEAT] = seat
    return st, order, len(seen) + len(draw)


def test_taipa_lookahead_takes_the_card_that_completes_a_yaku(heavy):
    # seat 0 holds two ribbons (12, 28) and plays its last two cards, the opponent two more:
    # greedy plays the boar 25 onto the boar 24 (two animals, the heaviest capture), and its
    # pine chaff 6 would later take the pine bright 0 (heavier than the ribbon 4). Playing the
    # chaff onto the ribbon 4 now makes three ribbons: agari, 1 coin.
    st, order, n = taipa_position([6, 25], [15, 47], [0, 4, 24, 39], [12, 28, 17],
                                  [9, 33, 46, 20])
    hand, field, a, b = TP.lookahead_turn(TPB, st, order, n, 3, 16)
    assert int(a) == (1 << 6) | (1 << 4) and int(b) == 0


def test_taipa_lookahead_stops_when_the_opponent_is_one_card_from_three_brights(heavy):
    # seat 0 has just made three ribbons (1 coin); the opponent holds the pine and cherry
    # brights, a susuki bright (16) lies on the field and three more are unseen
    st, order, n = taipa_position([7, 30, 38, 46], [20, 17, 18, 14], [16, 31, 39, 47, 15, 26],
                                  [4, 12, 28, 24], [0, 8, 6, 22], draw=[19, 21, 23, 43, 40, 41])
    st[TP.S_NY] = 1  # the ribbon yaku counted (new_yaku)
    assert not TP.lookahead_continue(TPB, st, order, n, 1, 32)


def test_taipa_lookahead_calls_koikoi_when_the_next_yaku_is_sure(heavy):
    # seat 0 has just made three chaff (0 coins) and holds the pine and cherry brights; its
    # susuki chaff 20 will take the susuki bright 16 from the field next turn (no unseen card
    # is a susuki): koi-koi, then three brights doubled
    st, order, n = taipa_position([20, 30, 38], [39, 46, 15], [16, 31, 47, 25],
                                  [0, 8, 6, 7, 14], [17, 18, 19, 4, 5], draw=[34, 35, 42])
    assert TP.lookahead_continue(TPB, st, order, n, 1, 16)


def test_taipa_lookahead_never_reads_a_hidden_card(heavy):
    """Permuting the opponent's hand and the draw pile changes neither the hand card, its
    take, nor agari / koi-koi, on the same random stream."""
    rng = np.random.default_rng(8)
    for trial in range(5):
        c = [int(x) for x in rng.permutation(48)]
        hand0, hand1, field = c[:4], c[4:8], c[8:14]
        pile0, pile1, draw = c[14:20], c[20:26], c[26:]
        st, order, n = taipa_position(hand0, hand1, field, pile0, pile1, draw)
        hand, _, a, _ = TP.lookahead_turn(TPB, st, order, n, trial, 8)
        go = TP.lookahead_continue(TPB, st, order, n, trial, 8)
        for _ in range(3):
            unseen = [int(x) for x in rng.permutation(hand1 + draw)]
            st2, order2, n2 = taipa_position(hand0, unseen[:4], field, pile0, pile1, unseen[4:])
            hand2, _, a2, _ = TP.lookahead_turn(TPB, st2, order2, n2, trial, 8)
            assert (hand2, a2) == (hand, a)
            assert TP.lookahead_continue(TPB, st2, order2, n2, trial, 8) == go


def test_taipa_lookahead_values_a_round_with_coin_cap(heavy):
    # seat 0 has just made three ribbons (1 coin) and holds the pine and cherry brights; no
    # unseen card is a susuki, so its chaff 20 takes the susuki bright 16 next turn: three
    # brights and the ribbons, 4 points, 8 after koi-koi.  Uncapped, koi-koi; when the
    # opponent has 1 coin left, agari's 1 coin is all any ending can pay: agari
    st, order, n = taipa_position([20, 30, 38], [39, 46, 15], [16, 31, 47, 25],
                                  [0, 8, 12, 13, 28], [17, 18, 19, 4, 5], draw=[34, 35, 42])
    st[TP.S_NY] = 1
    assert TP.lookahead_continue(TPB, st, order, n, 1, 16)
    assert TP.lookahead_continue(TPB, st, order, n, 1, 16, coins=(10, 10))
    assert not TP.lookahead_continue(TPB, st, order, n, 1, 16, coins=(19, 1))


def test_taipa_removal_ways_up_to_identical_cards():
    """yaku_cards=choice: the ways a pile's ribbons (chaff) can leave play, two cards of a
    suit alike; the pile keeps count % 3 of them."""
    tb = TP.lower(TP.TaipaRules(yaku_cards="choice"))
    yk = np.zeros(2 * TP.MAX_KEEPS, np.uint64)
    mask = lambda cs: np.uint64(sum(1 << int(c) for c in cs))  # noqa: E731

    def ways(cards):
        m = TP._removal_options(mask(cards), tb, yk, 0)
        return sorted(sorted(set(cards) - {c for c in range(48) if int(yk[i]) >> c & 1})
                      for i in range(m))

    assert ways([4, 12]) == [[4, 12]]                        # no yaku: nothing leaves
    assert ways([4, 12, 28]) == [[]]                         # all three leave
    assert ways([4, 5, 12, 28]) == [[4], [12], [28]]         # keep one: pine, cherry or bush
    # keep two: both pine ribbons, or one of two suits
    assert ways([4, 5, 12, 28, 36]) == [[4, 5], [4, 12], [4, 28], [4, 36], [12, 28],
                                        [12, 36], [28, 36]]
    assert len(ways([4, 5, 12, 13, 28, 29, 36, 37])) == 10   # 4 suits x 2: 4 + 6
    assert TP._same_suits(mask([4, 12, 28]), mask([5, 12, 28]), tb)      # pine ribbons alike
    assert not TP._same_suits(mask([4, 12, 28]), mask([4, 13, 36]), tb)


# a next deck where only three brights can be made, and only when the pine chaff 6 comes back
# (the pine bright 0 has no other card of its suit): cherry and susuki brights, boars, two bush
# ribbons, a bush chaff, a butterfly; the lookahead player's pile: four chaff (pine, maple,
# two peony), one chaff yaku, so one chaff comes back
NEXT_COMMON = [0, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27, 28, 29, 30, 40]
PILE_CHAFF = [6, 38, 46, 47]


def test_taipa_lookahead_keeps_the_dead_chaff_when_ahead(heavy):
    """Ahead 19 coins to 1 before the last round, any yaku costs the player: it wins at most
    the opponent's 1 coin, loses up to 3.  Greedy keeps the pine chaff (its suit holds a
    bright: it comes back and can take it); lookahead keeps a chaff of a suit with nothing
    to match (maple or peony): no yaku can be made, the round is exhausted, 19 coins sure.
    Behind 1 to 19 it keeps the pine chaff (a yaku is its only chance).  K = 256: the mean
    gain of about 0.2 coins needs it to clear one standard error every time."""
    tb = TP.lower(TP.TaipaRules(yaku_cards="choice"))
    mask = lambda cs: sum(1 << int(c) for c in cs)  # noqa: E731
    deck = mask(NEXT_COMMON + PILE_CHAFF)
    pol = TP.decode_policies(TP.Taipa().policy_ids(["lookahead:256", "greedy"]))[0]
    left = lambda removed: sorted(c for c in PILE_CHAFF if not removed >> c & 1)  # noqa: E731
    kw = dict(first=0, coins=(19, 1), played=2)
    greedy = tb._replace(params=tb.params.copy())
    greedy.params[TP.P_LOOK_YC:] = 0
    assert left(TP.lookahead_removals(greedy, deck, (mask(PILE_CHAFF), 0), pol, **kw)) == [6]
    for seed in (1, 2, 3):
        got = left(TP.lookahead_removals(tb, deck, (mask(PILE_CHAFF), 0), pol, seed=seed, **kw))
        assert got in ([38], [46], [47])
    for seed in (1, 2):
        got = left(TP.lookahead_removals(tb, deck, (mask(PILE_CHAFF), 0), pol, seed=seed,
                                         first=0, coins=(1, 19), played=2))
        assert got == [6]
    # the game's last round: nothing to play for, greedy's choice
    last = TP.lookahead_removals(tb, deck, (mask(PILE_CHAFF), 0), pol, first=0, coins=(19, 1),
                                 played=3)
    assert left(last) == [6]
    # the second seat's pile, the lookahead player second (player 0 is seat 1 when first=1)
    got = TP.lookahead_removals(tb, deck, (0, mask(PILE_CHAFF)), pol, first=1, coins=(19, 1),
                                played=2)
    assert left(got) in ([38], [46], [47])


def test_taipa_lookahead_yaku_cards_never_reads_a_hidden_card(heavy):
    """The choice reads the piles, the coins and the deck only: the round's hidden places
    (hands left, field, how far the pile was drawn) do not move it; and it is a legal
    removal (the pile's chaff yaku: three of its four chaff)."""
    tb = TP.lower(TP.TaipaRules(yaku_cards="choice"))
    mask = lambda cs: sum(1 << int(c) for c in cs)  # noqa: E731
    deck = mask(NEXT_COMMON + PILE_CHAFF)
    pol = TP.decode_policies(TP.Taipa().policy_ids(["lookahead:8", "greedy"]))[0]
    rng = np.random.default_rng(3)
    for seed in range(3):
        coins = (int(rng.integers(1, 20)), 0)
        coins = (coins[0], 20 - coins[0])
        base = TP.lookahead_removals(tb, deck, (mask(PILE_CHAFF), 0), pol, seed=seed,
                                     coins=coins, played=2)
        assert bin(base & mask(PILE_CHAFF)).count("1") == 3 and base & ~mask(PILE_CHAFF) == 0
        for _ in range(3):
            res = np.zeros(TP.R_N, np.int64)
            hidden = [int(x) for x in rng.permutation(NEXT_COMMON)]
            res[TP.R_HANDS] = mask(hidden[:4])
            res[TP.R_FIELD] = mask(hidden[4:9])
            res[TP.R_TOP] = int(rng.integers(18, 21))
            got = TP.lookahead_removals(tb, deck, (mask(PILE_CHAFF), 0), pol, seed=seed,
                                        coins=coins, played=2, res=res)
            assert got == base


def test_taipa_lookahead_yaku_cards_many_ways(heavy):
    """More ribbon ways times chaff ways than one decision holds (10 x 13 = 130): ribbons
    first, then chaff; the removal is legal (three ribbons and six chaff of the pile, which
    keeps two of each) and the same on the same stream."""
    tb = TP.lower(TP.TaipaRules(yaku_cards="choice"))
    mask = lambda cs: sum(1 << int(c) for c in cs)  # noqa: E731
    ribbons = [4, 12, 28, 36, 44]
    chaff = [6, 7, 14, 15, 20, 21, 30, 38]
    pile = mask(ribbons + chaff)
    deck = pile | mask([0, 1, 8, 9, 16, 17, 24, 25, 32, 33, 40, 41, 22, 23, 46, 47])
    pol = TP.decode_policies(TP.Taipa().policy_ids(["lookahead:4", "greedy"]))[0]
    got = TP.lookahead_removals(tb, deck, (pile, 0), pol, seed=5, coins=(10, 10), played=1)
    assert bin(got & mask(ribbons)).count("1") == 3
    assert bin(got & mask(chaff)).count("1") == 6 and got & ~pile == 0
    assert got == TP.lookahead_removals(tb, deck, (pile, 0), pol, seed=5, coins=(10, 10),
                                        played=1)


def test_taipa_lookahead_yaku_cards_in_a_run(heavy):
    """Under yaku_cards=choice a lookahead player's between-round choices are counted, some
    differ from greedy's (checked mode: every card in one place, coins conserved); without a
    lookahead player the table has no such row."""
    df = hanasim.simulate("taipa", rounds=1200, seed=5, policy="lookahead:8,greedy",
                          rules=dict(yaku_cards="choice"), checked=True).set_index("quantity")
    row = df.loc["lookahead.yaku_cards_changed_rate"]
    assert row.n > 20 and 0 < row.estimate < 1
    df = hanasim.simulate("taipa", rounds=1200, seed=5, policy="greedy",
                          rules=dict(yaku_cards="choice"))
    assert "lookahead.yaku_cards_changed_rate" not in set(df.quantity)


def test_lookahead_beats_greedy_at_taipa(full, heavy):
    rounds = 24_000 if full else 2_400
    df = hanasim.simulate("taipa", rounds=rounds, seed=5, policy="lookahead:16,greedy",
                          checked=True).set_index("quantity")
    assert df.loc["player1.mean_net", "ci_low"] > 0


def test_taipa_lookahead_policy_names():
    ids = TP.Taipa().policy_ids(["lookahead:8", "lookahead/stop", "greedy/continue2"])
    card, decide = TP.decode_policies(ids)
    assert policy_name(card[0]) == "lookahead:8" and decide[0, 0] == TP.DEC_LOOKAHEAD
    assert policy_name(card[1]) == "lookahead:16" and decide[1, 0] == 1  # stop
    assert card[2] == GREEDY and list(decide[2]) == [2, 2]
    for bad in ("lookahead:0", "lookahead/sometimes"):
        with pytest.raises(ValueError, match="lookahead|unknown decision"):
            TP.Taipa().policy_ids([bad])
