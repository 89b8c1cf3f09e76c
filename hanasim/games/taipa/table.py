"""Taipa's table: counters -> tidy quantities, the findings sentences, and :data:`READING`
(how reports, plots and the CLI read Taipa's numbers)."""
from ...reading import Line, Reading
from .rules import MAX_ROUNDS, YAKU
from .tally import (COIN_LO, C_CALLS, C_CAPPED_PAY, C_DEALS, C_DEAL_UNION, C_DECISIONS, C_DECK,
                    C_DECK_END, C_DECK_SQ, C_EARLY, C_EXHAUSTED, C_FIRST_GAME_WINS, C_FIRST_MARGIN,
                    C_FIRST_MARGIN_SQ, C_FIRST_NET, C_FIRST_NET_SQ, C_FIRST_WINS, C_GAMES,
                    C_GAME_ROUNDS, C_GAME_ROUNDS_SQ, C_GAME_TIES, C_GAME_TURNS, C_GAME_TURNS_SQ,
                    C_GIVEN_UNMET, C_P0_COINS, C_P0_COINS_SQ, C_P0_FIRST, C_P0_GAME_WINS, C_P0_NET,
                    C_P0_NET_SQ, C_P0_WINS, C_PAID, C_REMOVED, C_REMOVED_SQ, C_ROUNDS,
                    C_SECOND_WINS, C_SHORT_PILE, C_TURNS, C_TURNS_SQ, C_WON_PTS, C_WON_PTS_SQ,
                    C_YC_CHANGED, C_YC_DECISIONS, H_COINS, H_ROUNDS, RK_DECK, RK_DECK_SQ,
                    RK_EXHAUSTED, RK_FIRST_WINS, RK_FNET, RK_FNET_SQ, RK_KIND, RK_REMOVED,
                    RK_REMOVED_SQ, RK_ROUNDS, RK_SECOND_WINS, RK_SHORT, RK_TURNS, RK_TURNS_SQ,
                    RK_YAKU)

SECONDS_PER_TURN = 10    # the stated pace for the minutes estimate (a turn: two cards)

#: how Taipa's numbers are read (hanasim.reading): coins won minus lost (the opponent loses as
#: much, so 0 is no edge); the seats are the round's first and second player; nobody wins an
#: exhausted round
READING = Reading(
    unit="coins", seats=("first_player", "second_player"),
    seat_words="by the round's first and second player", edge_metric="mean_net",
    edge_quantity="round.first_player.mean_net", edge_title="First-player edge",
    edge_who="the round's first player",
    no_winner=("round.exhausted_rate",), no_winner_words="exhausted",
    won_words="someone won",
    headline=(
        Line("round.first_player.mean_net", "The round's first player wins {value} {unit} a "
             "round net", "signed", verdict=True),
        Line("round.first_player.win_rate", "The round's first player wins {value} of rounds",
             "rate"),
        Line("round.exhausted_rate", "Nobody scores in {value} of rounds (exhausted)", "rate"),
        Line("game.first_player.win_rate", "Round 1's first player wins {value} of games",
             "rate"),
        Line("game.minutes.mean", "A game lasts {value} minutes"),
    ),
    labels={"round.exhausted_rate": "Round: exhausted (nobody scores)",
            "round.first_player.mean_net": "Round's first player: mean coins won a round (net)",
            "round.first_player.win_rate": "Round's first player: win rate",
            "round.second_player.win_rate": "Round's second player: win rate",
            "game.first_player.win_rate": "Round 1's first player: game win rate",
            "game.first_player.mean_margin": "Round 1's first player: mean coin margin",
            "round.given_unmet_rate": "Rounds dealt unconditioned (no copy of a given card "
                                      "left in the deck)",
            "koikoi.call_rate": "Koi-koi: share of chances to collect continued",
            "koikoi.agari_after_call_rate": "Koi-koi: share of won rounds won after a call"})


def findings(by) -> list:
    def has(*qs):
        return all(q in by.index for q in qs)

    def est(q):
        return by.loc[q, "estimate"]

    out = []
    if has("game.rounds.mean", "game.minutes.mean", "game.early_end_rate"):
        out.append(f"A game lasts {est('game.rounds.mean'):.2f} rounds and "
                   f"{est('game.turns.mean'):.1f} turns, about {est('game.minutes.mean'):.1f} "
                   f"minutes at {SECONDS_PER_TURN} s a turn; {est('game.early_end_rate'):.1%} "
                   "of games end early on coins.")
    if has("game.first_player.win_rate"):
        r = by.loc["game.first_player.win_rate"]
        tie = est("game.tie_rate")
        out.append(f"Round 1's first player wins {r.estimate:.1%} of games (99.9% CI "
                   f"{r.ci_low:.1%} to {r.ci_high:.1%}), loses {1 - r.estimate - tie:.1%} "
                   f"and ties {tie:.1%} (in rounds 2 and 3 the player behind on coins "
                   "plays first).")
    ks = [k for k in range(1, MAX_ROUNDS + 1) if has(f"round.{k}.deck_size.mean")
          and by.loc[f"round.{k}.deck_size.mean", "n"] > 0]
    if len(ks) > 1:
        def seq(q, f):
            return " -> ".join(f(est(f"round.{k}.{q}")) for k in ks)

        out.append(
            f"Round by round ({', '.join(str(k) for k in ks)}): the deck holds "
            f"{seq('deck_size.mean', lambda v: f'{v:.1f}')} cards; exhausted rounds "
            f"{seq('exhausted_rate', lambda v: f'{v:.1%}')}; the round's first player "
            f"nets {seq('first_player.mean_net', lambda v: f'{v:+.2f}')} coins a round; "
            "yaku per player (three brights / boar-deer-butterflies / ribbons / chaff) "
            + "; ".join(f"round {k} " + " / ".join(
                f"{est(f'round.{k}.yaku.{y}'):.0%}" for y in YAKU) for k in ks) + ".")
    if has("deal.any_place_holds.any", "deal.one_place_holds.any"):
        out.append(
            f"At the deal (round 1): a hand or the field already holds a yaku's cards in "
            f"{est('deal.any_place_holds.any'):.1%} of deals (chaff alone "
            f"{est('deal.any_place_holds.chaff'):.1%}, three brights "
            f"{est('deal.any_place_holds.three_brights'):.1%}); a given hand "
            f"{est('deal.one_place_holds.any'):.1%}.")
    return out


def quantities(c, rules):
    """Round quantities per counted round (yaku per player-round), ``round.k.*`` per round
    of round number k, game quantities per game."""
    from ...stats import table as T

    s = c["scal"]
    r = s[C_ROUNDS]
    g = s[C_GAMES]
    # round 1's deal (from the start deck): pooled over the two hands and the field, and
    # a hand or the field (the union); `hanasim exact taipa` gives both exactly
    nd = s[C_DEALS]
    deal = []
    for i, y in enumerate(YAKU + ("any",)):
        deal.append(T.pooled(f"deal.one_place_holds.{y}", c["dcount"][i, 0],
                             c["dcount"][i, 1], nd, 3))
    for i, y in enumerate(YAKU + ("any",)):
        deal.append(T.prop(f"deal.any_place_holds.{y}", s[C_DEAL_UNION + i], nd))
    if c.get("deals_only"):
        return deal
    rows = [
        T.prop("round.first_player.win_rate", s[C_FIRST_WINS], r),
        T.prop("round.second_player.win_rate", s[C_SECOND_WINS], r),
        T.prop("round.exhausted_rate", s[C_EXHAUSTED], r),
        # coins the round's first player wins minus loses: the first-player edge per round
        T.mean("round.first_player.mean_net", s[C_FIRST_NET], s[C_FIRST_NET_SQ], r),
        T.mean("round.turns.mean", s[C_TURNS], s[C_TURNS_SQ], r),
        T.mean("round.deck_size.mean", s[C_DECK], s[C_DECK_SQ], r),
        T.prop("round.short_pile_rate", s[C_SHORT_PILE], r),
        T.mean("round.cards_removed.mean", s[C_REMOVED], s[C_REMOVED_SQ], r),
        T.prop("koikoi.call_rate", s[C_CALLS], s[C_DECISIONS]),
        T.prop("koikoi.agari_after_call_rate", s[C_PAID], r - s[C_EXHAUSTED]),
        T.mean("winner_points.mean", s[C_WON_PTS], s[C_WON_PTS_SQ], r - s[C_EXHAUSTED]),
        T.prop("round.capped_payment_rate", s[C_CAPPED_PAY], r - s[C_EXHAUSTED]),
        T.prop("player1.win_rate", s[C_P0_WINS], r),
        T.mean("player1.mean_net", s[C_P0_NET], s[C_P0_NET_SQ], r),
    ]
    for i, y in enumerate(YAKU + ("any",)):
        rows.append(T.pooled(f"yaku.{y}", c["ycount"][i, 0], c["ycount"][i, 1], r, 2))
    for k in range(c["game_rounds"]):
        q = c["rk"][k]
        n = q[RK_ROUNDS]
        rows += [
            T.prop(f"round.{k + 1}.first_player.win_rate", q[RK_FIRST_WINS], n),
            T.prop(f"round.{k + 1}.second_player.win_rate", q[RK_SECOND_WINS], n),
            T.prop(f"round.{k + 1}.exhausted_rate", q[RK_EXHAUSTED], n),
            T.mean(f"round.{k + 1}.deck_size.mean", q[RK_DECK], q[RK_DECK_SQ], n),
            T.prop(f"round.{k + 1}.short_pile_rate", q[RK_SHORT], n),
            T.prop(f"round.{k + 1}.yaku_rate", q[RK_YAKU], n),
            T.mean(f"round.{k + 1}.turns.mean", q[RK_TURNS], q[RK_TURNS_SQ], n),
            T.mean(f"round.{k + 1}.first_player.mean_net", q[RK_FNET], q[RK_FNET_SQ], n),
            T.mean(f"round.{k + 1}.cards_removed.mean", q[RK_REMOVED], q[RK_REMOVED_SQ],
                   n),
        ]
        for i, y in enumerate(YAKU):
            rows.append(T.pooled(f"round.{k + 1}.yaku.{y}", q[RK_KIND + 2 * i],
                                 q[RK_KIND + 2 * i + 1], n, 2))
    f = SECONDS_PER_TURN / 60
    mins = T.mean("game.minutes.mean", s[C_GAME_TURNS], s[C_GAME_TURNS_SQ], g)
    mins = T.scaled(mins, 1 / f)
    h = c["hist"]
    rows += [
        T.mean("game.rounds.mean", s[C_GAME_ROUNDS], s[C_GAME_ROUNDS_SQ], g),
        T.mean("game.turns.mean", s[C_GAME_TURNS], s[C_GAME_TURNS_SQ], g),
        mins,
        T.prop("game.early_end_rate", s[C_EARLY], g),
        T.prop("game.deck_end_rate", s[C_DECK_END], g),
        T.prop("game.first_player.win_rate", s[C_FIRST_GAME_WINS], g),
        T.prop("game.tie_rate", s[C_GAME_TIES], g),
        T.mean("game.first_player.mean_margin", s[C_FIRST_MARGIN], s[C_FIRST_MARGIN_SQ], g),
        T.prop("player1.game.win_rate", s[C_P0_GAME_WINS], g),
        T.prop("player1.first_share", s[C_P0_FIRST], g),
        T.mean("player1.final_coins.mean", s[C_P0_COINS], s[C_P0_COINS_SQ], g),
    ]
    for k in range(1, c["game_rounds"] + 1):
        rows.append(T.prop(f"game.rounds.{k}", h[H_ROUNDS + k], g))
    if c.get("given"):
        # rounds whose deck held no copy of a given card, so were dealt unconditioned
        # (engine.rng.shuffle_given); round 1 never is
        unmet = s[C_GIVEN_UNMET:C_GIVEN_UNMET + MAX_ROUNDS]
        rows.append(T.prop("round.given_unmet_rate", unmet.sum(), r))
        for k in range(c["game_rounds"]):
            rows.append(T.prop(f"round.{k + 1}.given_unmet_rate", unmet[k],
                               c["rk"][k][RK_ROUNDS]))
    if s[C_YC_DECISIONS] > 0:  # lookahead players under yaku_cards=choice only
        rows.append(T.prop("lookahead.yaku_cards_changed_rate", s[C_YC_CHANGED],
                           s[C_YC_DECISIONS]))
    top = 2 * rules.start_coins
    for v in range(0, top + 1):
        rows.append(T.prop(f"player1.final_coins.{v}", h[H_COINS + v - COIN_LO], g))
    return rows + deal  # the game's own questions first, the deal odds after
