"""Taipa hanafuda (Taipa Shijō-shugi Hanafuda) for 2 players: the registry entry.

Rules: the Taipa rule page (``shared/seeds/002_06e64cb5319513a5.txt``; also
``shared/rule-pages/newgames_taipa-hanafuda.md``).  Where things are:

* ``rules.py``: the options (:class:`TaipaRules`) with their documented defaults, the numbers
  of a deal, the rules of a round and a game in words;
* ``lower.py``: the deck as card masks, round 1's deck, options -> arrays (``Tables``, ``P_*``);
* ``policy.py``: policy names -> ints (``CARD[/DECISION]``);
* ``yaku.py``: yaku and their points in a card mask;
* ``round.py``: the deal and the turns of one round from a resumable state (``play_from``);
* ``removals.py``: which cards leave play between rounds (``yaku_cards``);
* ``hooks.py``: the stubs through which the kernels reach the lookahead code;
* ``lookahead.py``: a lookahead player's turn and agari / koi-koi;
* ``yaku_choice.py``: a lookahead player's ``yaku_cards=choice`` (rollouts of the rest of the game);
* ``game.py``: a game (first player, coins, the shrinking deck) and the engine's hooks
  (``engine/sessions.py`` runs the sessions and chunks); ``deals.py``: deals only, likewise;
* ``coins.py``: who plays first, what an agari pays, whether the deck can be dealt;
* ``tally.py``: the counters; ``table.py``: counters -> quantities, findings, ``READING``;
* ``exact.py``: exact deal-time odds; ``probes.py``: the tests' entries into the kernels.
"""
from __future__ import annotations

import numpy as np

from ..registry import register
from ... import sources
from . import exact, table
from .exact import (class_sizes, count_py, deal_probabilities, deal_ways_without,  # noqa: F401
                    deck_condition)
from .coins import dealable, next_first, payment  # noqa: F401
from .deals import run_deal_chunks  # noqa: F401
from .game import counters, deal_kernel, play_game, play_kernel, run_chunks  # noqa: F401
from .lower import (ALL, ANIMAL_SETS, ANIMALS, BRIGHT_SETS, BRIGHTS, CHAFF,  # noqa: F401
                    CLASSES, P_CHECKED, P_COINS, P_DECK, P_FIXED_FIRST, P_KEEP_EXH, P_LAST_STOP,
                    P_LOOK_YC, P_N, P_ROUNDS, P_SERIES, P_SHORT_END, P_TIE, P_UNCAPPED,
                    P_YAKU_MODE, RIBBONS, TIE_ALTERNATE, TIE_RANDOM, TIE_SAME, YC_CHOICE,
                    YC_FIRST, YC_GREEDY, YC_RANDOM, Tables, lower, start_deck)
from .policy import DEC_LOOKAHEAD, POLICY_FORMS, decode_policies, parse_taipa_policy  # noqa: F401
from .probes import (TEST_COINS, lookahead_continue, lookahead_removals,  # noqa: F401
                     lookahead_turn, one_game)
from .removals import removed_cards, round_removals, set_yaku_cards  # noqa: F401
from .round import (R_BASE, R_CALLS, R_DEALT, R_DECISIONS, R_DECK, R_EXHAUSTED,  # noqa: F401
                    R_FIELD, R_HANDS, R_N, R_PILE, R_SCORE, R_TOP, R_TURNS, R_WINNER, R_YAKU,
                    S_CALLS, S_DECISIONS, S_FIELD, S_NY, S_PILE, S_SEAT, S_TOP, S_TURNS, ST_N,
                    check_round, new_yaku, play_from, play_round, rollout_from)
from .rules import (DEALS_PER_SESSION, DEALT, FULL_ROUND, HAND, MAX_ROUNDS,  # noqa: F401
                    N_PLAYERS, NAME, REMOVED_OPTIONS, SERIES_ROUNDS, YAKU, YAKU_POINTS,
                    TaipaRules)
from .table import READING, SECONDS_PER_TURN  # noqa: F401
from .tally import (C_N, COIN_BINS, COIN_LO, H_N, RK_N, count_deal, count_game,  # noqa: F401
                    count_round)
from .yaku import cards_missing, yaku_bits, yaku_counts, yaku_points  # noqa: F401
from .yaku_choice import MAX_KEEPS, _removal_options, _same_suits  # noqa: F401


class Taipa:
    """The registry entry."""

    name = NAME
    title = "Taipa hanafuda (2 players, 6-suit deck that shrinks between rounds)"
    source = sources.dated("taipa")
    n_players = N_PLAYERS
    Rules = TaipaRules
    par = None
    teyaku_names = ()
    presets = {}
    preset_docs = {}
    rounds_per_session = SERIES_ROUNDS
    version = 4  # bump when a rule's behaviour, an option or a policy's play changes
    lookahead = True  # card play, takes, agari / koi-koi and yaku_cards=choice by lookahead
    card_values = True  # counters(card_values=True) tallies each seat's coins by dealt card
    table_seats = ("first_player", "second_player")  # a round's seats (card values)
    expose = False  # no teyaku, so no expose decision (the CLI and report leave it out)
    exact_words = "deal-time yaku"  # what the report's exact comparison is about
    exact_note = ("Round 1's deal, from the full deck (or the start deck the removed_* "
                  "rules leave): one_place_holds is the share of places (the two hands and "
                  "the field, pooled) holding a yaku's cards; any_place_holds the share of "
                  "deals where a hand or the field holds them. Later rounds' decks depend on "
                  "play: `hanasim exact taipa --removed ...` gives the odds of a given "
                  "shrunken deck.")
    key_quantities = ("round.first_player.mean_net", "game.first_player.win_rate",
                      "game.minutes.mean", "game.early_end_rate")
    deals_only = True  # round 1's deal only (later decks depend on play: exact --removed)
    reading = READING

    @property
    def main_kernel(self):
        return run_chunks

    def removed_rules(self, spec: str) -> dict:
        """``hanasim exact taipa --removed three_brights,ribbons*2``: the ``removed_*`` rules
        of a deck after those yaku left play (``exact.removed_rules``)."""
        return exact.removed_rules(spec)

    def policy_ids(self, names) -> np.ndarray:
        return np.array([parse_taipa_policy(n) for n in names], dtype=np.int64)

    def exact_table(self, rules):
        """Round 1's deal from the start deck (``exact.exact_table``)."""
        return exact.exact_table(rules)

    def findings(self, by) -> list:
        return table.findings(by)

    def counters(self, rules, *, rounds, seed, policy, expose=None, session_rounds=1,
                 fixed_dealer=False, checked=False, progress=False, deals_only=False,
                 cond=None, **run_options):
        """The run's counters (``game.counters``)."""
        return counters(rules, rounds=rounds, seed=seed, policy=policy, expose=expose,
                        session_rounds=session_rounds, fixed_dealer=fixed_dealer,
                        checked=checked, progress=progress, deals_only=deals_only,
                        cond=cond, **run_options)

    def quantities(self, c, rules):
        """The table's quantities (``table.quantities``)."""
        return table.quantities(c, rules)


register(Taipa())
