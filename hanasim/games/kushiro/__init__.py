"""Kushiro Toppa: 2 to 4 players, two of whom play each round.  Two texts: the 2022 Kushiro
Toppa text (``shared/seeds/001_8b84054184cb1288.txt``, the Kushiro Toppa page as it read in
2022; "the 2022 text"), and its 2026 revision, the Kushiro Toppa rule page
(``shared/rule-pages/hanafuda_games_kushiro-toppa.md``; "the page", "the rule page").
They differ only in the chaff teyaku (``teyaku_reading``).

A koi-koi variant that keeps Toppa's teyaku and dekiyaku and scores in chips only (no card
points, no par).  Toppa's dekiyaku rows come from :func:`toppa.dekiyaku_table` (both texts:
"many Yaku from the 2-player Toppa retained"), valued here in chips; the rows Kushiro Toppa
does not list (Boar-Deer-Butterfly, Real Seven Ribbons, the month rows) are valued 0, so they
stay in the table and never score.  The stop-or-continue decision is koi-koi's
(``policies.choose_continue``), the turn is every fishing game's (``engine.play``).

A round
-------
1. Deal (``deal_round``): 10 cards to each of the ``players`` seated players, 8 to the field,
   the rest is the draw pile (none with 4 players).  Four of a month on the field: misdeal,
   redeal ("Distributing the Initial Cards").
2. The four-in-hand swap: a seated player holding four of a month may lay them face down; the
   next player picks one (uniform random, ``swap_pick``) and swaps it with the top card of the
   draw pile; the four go back to the hand.  Whether to swap is the holder's policy decision
   (SWAP; a lookahead player's by lookahead, ``_look_swap``).
   Each four held at the deal is offered once, seats in turn order from the dealer; with no
   draw pile (4 players) there is nothing to swap with and the swap is not offered.
3. Join or drop (3-4 players): from the dealer's right (seat 1, then 2, ..., the dealer last)
   each says join or drop (a policy decision); once two have joined the rest are forced out;
   ``undecided`` says what happens when too few remain.  The dropped hands go where
   ``dropped_cards`` says.
4. Teyaku (``teyaku_reading``, ``three_pairs``): each of the two players holding some may
   expose them (the ``expose`` decision; a lookahead player's by lookahead, ``_look_expose``);
   ``teyaku_effect`` says what exposing does.  The cards an exposed teyaku shows (Three
   Pairs: three pairs; Group B: the whole hand; ``teyaku_shown``) are face up: a lookahead
   opponent deals them to nobody else when it determinises.  Each
   teyaku held is worth ``teyaku_value`` chips (1: "1 yaku"), paid by the opponent when
   claimed.
5. Play: the playing seat first in turn order from the dealer moves first (the dealer, if
   playing); a turn is a hand card then the top of the draw pile (no draw once the pile is
   empty).  After a turn that forms a new dekiyaku (``decision_on``) the player says "Iku"
   (continue) or "Yoroshii" (stop and claim): ``choose_continue``; with no card left in hand
   only Yoroshii is legal unless ``last_card=free``.  A stop ends the round: the stopper is paid their dekiyaku chips by the
   opponent; a player who had continued gets nothing ("their Dekiyaku is forfeited").  Hands
   run out with nobody stopping: ``exhausted``.  The play runs from a resumable state
   (``play_from``), which the lookahead policy copies, redeals and plays on.  A lookahead
   player decides every decision above by lookahead (the swap, join/drop, exposing, the cards
   and their picks, Iku/Yoroshii): see the "lookahead" section.
6. The next dealer: ``dealer_next``.

Seats inside a round are relative to the dealer: seat 0 deals, seat k is k places to the
dealer's right (turn order).  Players (who own the policies) are 0..players-1; seat s is player
``(dealer + s) % players``.

Simulation unit: a session is ``session_rounds`` rounds; its first dealer is drawn (both texts,
Choosing the Dealer: each player draws a card, the earliest month deals; neither text settles
two cards of one month: the tied players draw again, as the 1997 koi-koi text does for its cut,
``first_dealer``), then ``dealer_next`` passes the deal.  Round i of session s deals on stream 3i and plays on stream 3i+1 of the
session's key (the first-dealer draw: stream 3 * rounds + 2), so variants compared on one seed
see the same deals round by round.

Where things are
----------------
``rules`` the options and their sources; ``policy`` players' names -> kernel rows (join/drop:
``engine.join``, shared with Taoshi); ``lower`` options -> arrays; ``teyaku``; ``slots`` the
kernels' array layouts; ``round`` one round (deal, swap, join/drop, teyaku, play, result);
``turn`` and ``play`` the resumable play; ``lookahead`` the pre-play lookahead decisions;
``tally`` the counters; ``sessions`` its hooks for the engine's sessions (``engine.sessions``:
streams, dealer rotation, tallies); ``exact`` the exact deal-time rates; ``table`` counters ->
quantities and their reading; this file, the game object.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ... import sources
from ...decks import HANAFUDA  # noqa: F401  (re-exported: tests read the deck here)
from ...engine.join import (JOIN_ALWAYS, JOIN_LOOKAHEAD, JOIN_RANDOM,  # noqa: F401
                            JOIN_THRESHOLD, JOINS)
from ...policies import DEC_STOP, LOOKAHEAD  # noqa: F401  (re-exported for tests)
from ..registry import register
from .. import toppa  # noqa: F401  (re-exported: Kushiro Toppa scores Toppa's dekiyaku)
# what other modules and the tests import from the game (``hanasim.games.kushiro.X``)
from .exact import deal_exact
from .lookahead import (SWAP_MAX_SAMPLES, SWAP_SAMPLES_PER_K, greedy_rows,  # noqa: F401
                        lookahead_choice, lookahead_expose, lookahead_join, lookahead_swap)
from .lower import (DROP_ASIDE, DROP_SHUFFLED, DROP_UNDER, P_N, PAIRS_AT_LEAST,  # noqa: F401
                    PAIRS_DISJOINT, PAIRS_EXACT, PAIRS_IN_SETS, READ_OFF, READ_SUBSET, READ_TEN,
                    Tables, lower)
from .play import play_from, rollout  # noqa: F401
from .policy import (DEC_LOOKAHEAD, EXPOSE_LOOKAHEAD, JOIN_DEFAULT_K, PC_CARD,  # noqa: F401
                     PC_DEC, PC_DPARAM, PC_EXPOSE, PC_JOIN, PC_JPARAM, PC_N, PC_SWAP,
                     POLICY_FORMS, SWAP_ALWAYS, SWAP_LOOKAHEAD, SWAP_NEVER, SWAP_RANDOM, SWAPS,
                     cards_missing, decode_policies, join_strength, parse_kushiro_policy)
from .round import deal_round, dealt_hand, first_dealer, play_round  # noqa: F401
from .rules import (BOTH, FIELD_SIZE, HAND_SIZE, MAX_PLAYERS, MAX_REDEALS, NAME,  # noqa: F401
                    SEATS, TEYAKU, KushiroRules)
from .sessions import play_kernel, play_sessions, run_chunks  # noqa: F401
from .slots import *  # noqa: F401,F403  (every result slot R_*, choice CH_*, state slot K_*)
from .table import READING, findings, quantities
from .tally import C_N
from .teyaku import month_count, teyaku_bits, teyaku_shown  # noqa: F401
from .turn import play_value, settle, start_play  # noqa: F401


class Kushiro:
    """The registry entry: what the API, the CLI and the statistics layer ask of a game."""

    reading = READING

    name = NAME
    title = "Kushiro Toppa (2-4 players, two play each round)"
    source = (f"{sources.dated('kushiro_page')} and {sources.title('kushiro_2022')}; they "
              "differ only in the chaff teyaku")
    seed_file = "001_8b84054184cb1288"
    #: policies are given for up to 4 players; with fewer seated the first ``players`` are used
    n_players = MAX_PLAYERS
    seats = SEATS
    Rules = KushiroRules
    par = None
    teyaku_names = TEYAKU
    version = 3  # bump when a rule's behaviour, an option or a policy's play changes
    lookahead = True  # every decision: swap, join/drop, expose, cards, picks, Iku/Yoroshii
    card_values = True  # counters(card_values=True) tallies each seat's chips by dealt card
    key_quantities = ("dealer.mean_chips", "dealer.play_rate", "first_player.mean_chips")

    @property
    def main_kernel(self):
        return run_chunks

    def findings(self, by) -> list:
        """Plain sentences for a report: who plays, the dealer's and the first mover's edge."""
        return findings(by)

    def players_of(self, rules) -> int:
        """Players seated under ``rules`` (one policy and one expose choice each)."""
        return int(rules.players)

    def policy_ids(self, names) -> np.ndarray:
        return np.array([parse_kushiro_policy(x) for x in names], dtype=np.int64)

    def exact_table(self, rules):
        """Exact field-misdeal rate, teyaku and four-in-hand rates of one seated hand under the
        rules' teyaku_reading and three_pairs (``hanasim exact``); the same for any number of
        players (one hand and the field decide them)."""
        from ...stats.exact import rows_table

        return rows_table(deal_exact(rules.teyaku_reading, rules.three_pairs), NAME)

    def counters(self, rules, *, rounds, seed, policy, expose, session_rounds=1,
                 fixed_dealer=False, checked=False, progress=False, deals_only=False,
                 card_values=False, cond=None, **run_options):
        """Integer counters of ``rounds`` rounds (dict of arrays), summed over chunks;
        ``card_values``: also ``cards`` (``engine.card_tally``: each seat's chips by dealt card);
        ``cond``: the conditioned deal's array (``hanasim.conditions``), None for none."""
        from ...engine import card_tally
        from ...engine.runner import run_batches
        from ...policies import per_seat

        tb, names = lower(rules, fixed_dealer=fixed_dealer, session_rounds=session_rounds,
                          deals_only=deals_only)
        # no given cards and no --where: cond None, a kernel compiled without their code
        # (round.deal_round); with either, the kernel that reads the condition
        tb = tb._replace(cond=cond if cond is not None and cond.shape[0] > 0 else None)
        policy, expose = per_seat(policy, expose, MAX_PLAYERS, rules.players)
        pol = decode_policies(policy, expose)
        n_sessions = -(-rounds // session_rounds)
        shapes = dict(scal=(C_N,), tcount=(len(TEYAKU) + 1, 2), ycount=(len(names) + 1, 2))
        if card_values:
            shapes["cards"] = card_tally.shape(rules.players, 48)
        totals = run_batches(partial(play_kernel, tb, seed, rounds, pol), n_sessions, shapes,
                             rounds_per_session=session_rounds, progress=progress, desc=NAME,
                             **run_options)
        totals["dekiyaku_names"] = names
        totals["deals_only"] = bool(deals_only)
        totals["players"] = rules.players
        return totals

    def quantities(self, c, rules):
        """Tidy rows from the counters (``table.quantities``)."""
        return quantities(c, rules)


register(Kushiro())
