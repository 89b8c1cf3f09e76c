"""Ishikari Toppa: "Bakappana but with Teyaku" (the Ishikari Toppa rule page).

Three of 3-6 players play each round, chosen by a join/drop phase with chasing; dealing is
Hachi-hachi's (7 each, 6 to the field); the round is Bakappana's (``games.bakappana``: its
deal kernel, first dealer and next dealer) plus teyaku paid by each other active player; a
chase multiplies the next round's payments.  Layout: ``rules`` (options), ``round`` (join/drop,
teyaku, play, score), ``session`` (games, counters), this file (lowering, quantities, reading,
the registry entry).  Policies are written as Taoshi's (``CARD[/JOIN[/CLAIM]]``, parsed by
``engine.join``), whose join/drop this game shares.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ... import sources
from ...decks import HANAFUDA
from ...engine.join import (CLAIM_FORM, JOIN_FORM, decode_card_join_claim,
                            parse_card_join_claim)
from ...engine import card_tally
from ...engine.lookahead import uses_lookahead
from ...reading import Line, Reading
from ...rules import make_rules
from .. import toppa
from ..registry import register
from ..bakappana import BakappanaRules
from ..bakappana.lower import P_PAR as BK_P_PAR
from ..bakappana.lower import lower as bakappana_tables
from .rules import (ACTIVE, FIELD, HAND, MAX_PLAYERS, NAME, POSITIONS, SEATS,  # noqa: F401
                    IshikariRules, deal_pattern)
from .round import (P_CHASE, P_CHECKED, P_COMBINE, P_DEALS_ONLY, P_FIXED_DEALER,  # noqa: F401
                    P_GAME_ROUNDS,
                    P_HACHIHACHI, P_KAN, P_LEN, P_PAR, P_PLAYERS, P_TIE_RANDOM, Tables,
                    play_round)
from . import hachihachi, lookahead
from . import session as S
from .session import run_chunks  # noqa: F401  (the kernel the runner calls)

# players as Taoshi's (engine.join): thresholdK joins when the hand's card points plus its
# teyaku value reach K (round.wants_to_join), on Taoshi's scale and default; a lookahead JOIN
# starts from that choice and values both over K determinisations (lookahead._look_join)
JOIN_DEFAULT_K = lookahead.JOIN_DEFAULT_K
JOIN_MAX_K = 300
POLICY_FORMS = ("CARD[/JOIN[/CLAIM]]", "CARD: random, greedy, lookahead[:K]", JOIN_FORM,
                CLAIM_FORM)
TEYAKU_NAMES = {"hachihachi": hachihachi.NAMES, "toppa": toppa.TEYAKU, "none": ()}


def lower(rules, *, fixed_dealer=False, checked=False, deals_only=False) -> Tables:
    """Bakappana's card points and greedy tables (its lowering, 3 players), Hachi-hachi's deal
    for the table, the teyaku rows and the params."""
    bk = bakappana_tables(make_rules(BakappanaRules, {"players": 3,
                                                    "chaff_points": rules.chaff_points}))
    teyaku = (toppa.teyaku_table(HAND) if rules.teyaku == "toppa"
              else np.zeros((0, 7), dtype=np.int64))
    params = np.zeros(P_LEN, dtype=np.int64)
    params[P_PLAYERS] = rules.players
    params[P_PAR] = bk.params[BK_P_PAR]  # 88 (or 80): the deck's points / 3 active
    params[P_CHASE] = rules.chase == "on"
    params[P_TIE_RANDOM] = rules.tie_dealer == "random"
    params[P_FIXED_DEALER] = bool(fixed_dealer)
    params[P_GAME_ROUNDS] = rules.rounds_per_game
    params[P_CHECKED] = bool(checked)
    params[P_COMBINE] = 0  # engine.yaku.COMBINE_ADD: Toppa's teyaku add up
    params[P_HACHIHACHI] = rules.teyaku == "hachihachi"
    params[P_KAN] = rules.kan_points
    params[P_DEALS_ONLY] = bool(deals_only)
    return Tables(bk.kind_masks, bk.kind_points, HANAFUDA.month_masks(),
                  deal_pattern(rules.players), teyaku, params, bk.gscore, bk.ghigh,
                  toppa=True if rules.teyaku == "toppa" else None)


def play_kernel(tb, seed, rounds, pol, first, n, chunk, out):
    S.run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, pol, out["scal"],
                 out["tcount"], card_tally.kernel_counter(out), uses_lookahead(pol[:, 0]))


READING = Reading(
    unit="points", seats=SEATS,
    seat_words="by table seat (the dealer, then the seats to his right in turn order); a seat "
               "that does not play scores 0",
    edge_metric="mean_score", edge_quantity="seat.dealer.mean_score",
    no_winner=("seat.tie_rate",), no_winner_words="tied for the top score",
    won_words="one player has the top score", sits_out_as_zero=True,
    headline=(
        Line("seat.dealer.mean_score", "The dealer scores {value} {unit} a round on average",
             "signed", verdict=True, when=("players", (3,))),
        # more than three at the table: the dealer's seat sits some rounds out (0 in them)
        Line("seat.dealer.mean_score", "The dealer scores {value} {unit} a round on average "
             "(0 in a round he sits out)", "signed", verdict=True, when=("players", (4, 5, 6))),
        # with 3 at the table everyone plays: the dealer always, and he is the first to play
        Line("seat.dealer.play_rate", "The dealer plays {value} of rounds", "rate",
             when=("players", (4, 5, 6))),
        Line("position.first.mean_score", "The first active player to play scores {value} "
             "{unit} a round", "signed", when=("players", (4, 5, 6))),
        Line("chase_rate", "Someone chases in {value} of rounds", "rate"),
        Line("multiplier.mean", "A round's payments are multiplied by {value} on average"),
    ),
    # the join (and, once three have joined, the chase) is a decision of its own
    policy_words={
        "random": "plays every card and chooses every capture uniformly at random, and joins "
                  "or drops (once three have joined: chases or not) at random",
        "greedy": "takes the capture worth the most card points now, and joins (once three "
                  "have joined: chases) when the hand's card points plus its teyaku value "
                  "reach 40",
        "greedy/threshold{k}": "takes the capture worth the most card points now, and joins "
                               "(once three have joined: chases) when the hand's card points "
                               "plus its teyaku value reach {k}"},
    labels={"chase_rate": "Rounds with a chase", "multiplier.mean": "Payment multiplier: mean",
            "multiplied_rate": "Rounds with doubled (or more) payments",
            **{f"position.{p}.{q}": f"{p.capitalize()} to play: {w}" for p in POSITIONS
               for q, w in (("mean_score", "mean score per round"), ("win_rate", "win rate"),
                            ("card_points", "card points"))},
            "teyaku.claim_rate": "Teyaku claimed (share of active hands)",
            "round.score_sum.mean": "Round: sum of the scores",
            # Hachi-hachi's teyaku as players write them (the Hachi-hachi rule page)
            "teyaku.triplet_and_standing": "Teyaku: Triplet and Standing Triplet",
            "teyaku.two_triplets": "Teyaku: Two Triplets",
            "teyaku.four_of_a_kind": "Teyaku: Four of a Kind",
            "teyaku.triplet_and_two_pairs": "Teyaku: Triplet and Two Pairs",
            "teyaku.one_two_four": "Teyaku: One-Two-Four",
            "teyaku.four_three": "Teyaku: Four-Three",
            "teyaku.sanzokuichi": "Teyaku: Sanzokuichi (Three Pairs)"})


class Ishikari:
    """The registry entry: what the API, the CLI and the statistics layer ask of a game."""

    reading = READING
    name = NAME
    title = "Ishikari Toppa (3-6 players, three play each round; Bakappana with teyaku)"
    source = (f"{sources.dated('ishikari')}, with {sources.title('bakappana')} and "
              f"{sources.title('hachihachi')} (dealing, join/drop)")
    seed_file = None
    n_players = MAX_PLAYERS
    seats = SEATS
    Rules = IshikariRules
    par = None
    deck_points = 264
    teyaku_names = hachihachi.NAMES
    lookahead = True
    card_values = True  # counters(card_values=True) tallies each seat's scores by dealt card
    version = 2  # bump when a rule's behaviour, an option or a policy's play changes
    key_quantities = ("seat.dealer.mean_score", "position.first.mean_score", "chase_rate")

    @property
    def main_kernel(self):
        return S.run_chunks

    def players_of(self, rules) -> int:
        return int(rules.players)

    def policy_ids(self, names) -> np.ndarray:
        forms = "; ".join(POLICY_FORMS)
        return np.array([parse_card_join_claim(x, JOIN_DEFAULT_K, JOIN_MAX_K, forms)
                         for x in names], dtype=np.int64)

    def exact_table(self, rules):
        """Exact deal-time odds: the table misdeal and each teyaku per dealt hand (Hachi-hachi's
        list by its own sum over months: the best of a group is no ``stats.exact`` spec)."""
        from ...stats.exact import exact_table, rows_table
        if rules.teyaku == "hachihachi":
            return rows_table(hachihachi.exact_rows(HAND), NAME)
        return exact_table(self.deal_spec(rules), NAME)

    def deal_spec(self, rules):
        """One dealt hand and the field (the rates are per dealt hand, for any table size)."""
        from ...stats.exact import DealSpec
        return DealSpec(month=HANAFUDA.month, kind=HANAFUDA.kind,
                        group_sizes=(HAND, FIELD, 48 - HAND - FIELD), hand_groups=(0,),
                        misdeal_groups=(1,),
                        teyaku=toppa.teyaku_specs(HAND) if rules.teyaku == "toppa" else ())

    def counters(self, rules, *, rounds, seed, policy, expose, session_rounds=1,
                 fixed_dealer=False, checked=False, progress=False, deals_only=False,
                 card_values=False, cond=None, **run_options):
        """Integer counters of ``rounds`` rounds; ``card_values``: also ``cards``
        (``engine.card_tally``: each table seat's scores by dealt card)."""
        from ...conditions import kernel_cond
        from ...engine.runner import run_batches

        if int(session_rounds) not in (1, rules.rounds_per_game):
            raise ValueError("ishikari_toppa is played in games of rounds_per_game rounds; "
                             "session_rounds does not apply (set the rounds_per_game rule)")
        policy, expose = list(policy), list(expose)
        policy = policy * rules.players if len(policy) == 1 else policy
        expose = expose * rules.players if len(expose) == 1 else expose
        pol = decode_card_join_claim(policy, expose, MAX_PLAYERS)
        tb = lower(rules, fixed_dealer=fixed_dealer, checked=checked, deals_only=deals_only)
        tb = tb._replace(cond=kernel_cond(cond))  # None: no conditioned-deal code
        shapes = dict(scal=(S.C_N,), tcount=(len(TEYAKU_NAMES[rules.teyaku]) + 1, 2))
        if card_values:
            shapes["cards"] = card_tally.shape(rules.players, 48)
        totals = run_batches(partial(play_kernel, tb, seed, rounds, pol),
                             -(-rounds // rules.rounds_per_game), shapes,
                             rounds_per_session=rules.rounds_per_game, progress=progress,
                             desc=NAME, **run_options)
        totals["deals_only"] = bool(deals_only)
        return totals

    def histograms(self, c, rules) -> dict:
        if c.get("deals_only"):
            return {}
        s = c["scal"]

        def h(k):
            return s[S.C_HIST + S.HIST_BINS * k: S.C_HIST + S.HIST_BINS * (k + 1)]
        out = {f"round_score.{SEATS[k]}": h(k) for k in range(rules.players)}
        if s[S.C_GAMES] and s[S.C_ROUNDS] > s[S.C_GAMES]:
            out["game.first_dealer.total"] = h(S.H_FIRST)
        return out

    def distributions(self, c, rules) -> dict:
        from ...stats.distribution import trimmed
        return {k: trimmed(v) for k, v in self.histograms(c, rules).items()}

    def quantities(self, c, rules):
        from ...stats import table as T
        from ...stats.distribution import quantile_rows

        s = c["scal"]
        r = s[S.C_ROUNDS]
        g = s[S.C_GAMES]
        n = rules.players
        rows = [T.prop("misdeal_rate", s[S.C_MISDEALS], s[S.C_DEALS])]
        for i, t in enumerate(TEYAKU_NAMES[rules.teyaku] + (("any",) if rules.teyaku != "none"
                                                             else ())):
            rows.append(T.pooled(f"teyaku.{t}", c["tcount"][i, 0], c["tcount"][i, 1], r, n))
        if c.get("deals_only"):
            return rows
        if rules.teyaku != "none":
            rows.append(T.prop("teyaku.claim_rate", s[S.C_CLAIMS], ACTIVE * r))
        for k in range(n):
            b = S.C_SEAT + S.SEAT_W * k
            seat = SEATS[k]
            rows += [T.mean(f"seat.{seat}.mean_score", s[b + S.K_SCORE], s[b + S.K_SCORE_SQ], r),
                     T.prop(f"seat.{seat}.win_rate", s[b + S.K_WINS], r),
                     T.prop(f"seat.{seat}.play_rate", s[b + S.K_PLAYS], r)]
            if n > ACTIVE:
                rows += [T.prop(f"seat.{seat}.join_rate", s[b + S.K_JOIN], r),
                         T.prop(f"seat.{seat}.drop_rate", s[b + S.K_DROP], r),
                         T.prop(f"seat.{seat}.forced_in_rate", s[b + S.K_FORCED_IN], r),
                         T.prop(f"seat.{seat}.forced_out_rate", s[b + S.K_FORCED_OUT], r),
                         T.prop(f"seat.{seat}.chase_rate", s[b + S.K_CHASE], r)]
        rows += [T.prop("seat.tie_rate", s[S.C_TOP_TIES], r),
                 T.mean("round.score_sum.mean", s[S.C_SUM], 0, r)]
        for k, pos in enumerate(POSITIONS):
            b = S.C_POS + S.POS_W * k
            rows += [T.mean(f"position.{pos}.mean_score", s[b + S.A_SCORE], s[b + S.A_SCORE_SQ], r),
                     T.prop(f"position.{pos}.win_rate", s[b + S.A_WINS], r),
                     T.mean(f"position.{pos}.card_points", s[b + S.A_PTS], s[b + S.A_PTS_SQ], r)]
        if n > ACTIVE:
            rows += [T.prop("chase_rate", s[S.C_CHASES], r),
                     T.mean("multiplier.mean", s[S.C_MULT], s[S.C_MULT_SQ], r),
                     T.prop("multiplied_rate", s[S.C_MULTIPLIED], r)]
        hist = self.histograms(c, rules)
        for k in range(n):
            rows += quantile_rows(f"round_score.{SEATS[k]}", hist[f"round_score.{SEATS[k]}"])
        for q in range(n):
            b = S.C_PLAYER + S.PLAYER_W * q
            rows += [T.mean(f"player{q + 1}.mean_score", s[b + S.Q_SCORE], s[b + S.Q_SCORE_SQ], r),
                     T.prop(f"player{q + 1}.win_rate", s[b + S.Q_WINS], r),
                     T.prop(f"player{q + 1}.deal_share", s[b + S.Q_DEALS], r),
                     T.prop(f"player{q + 1}.play_rate", s[b + S.Q_PLAYS], r)]
        if g and r > g:
            rows += [T.mean("game.first_dealer.mean_total", s[S.C_FIRST_TOTAL],
                            s[S.C_FIRST_TOTAL_SQ], g),
                     T.prop("game.first_dealer.win_rate", s[S.C_FIRST_WINS], g),
                     T.prop("game.tie_rate", s[S.C_GAME_TIES], g)]
            rows += quantile_rows("game.first_dealer.total", hist["game.first_dealer.total"])
            for q in range(n):
                b = S.C_PLAYER + S.PLAYER_W * q
                rows += [T.mean(f"player{q + 1}.game.mean_total", s[b + S.Q_TOTAL],
                                s[b + S.Q_TOTAL_SQ], g),
                         T.prop(f"player{q + 1}.game.win_rate", s[b + S.Q_GAME_WINS], g),
                         T.prop(f"player{q + 1}.first_dealer_share", s[b + S.Q_FIRST], g)]
        return rows


GAME = register(Ishikari())
