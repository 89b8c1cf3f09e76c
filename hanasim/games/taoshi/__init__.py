"""Taoshi: 3 to 6 players, three of whom play each round, on the mekurifuda deck.

Two sources: the 2022 Taoshi text (``shared/seeds/003_9adff6e6778a6a03.txt``, the rule page as
it stood in 2022, whose "End of Round and Scoring" is Sudaoshi's: a 330-point deck, burdens
100/110/120, hanafuda yaku) and the Taoshi rule page (``shared/rule-pages/
mekurifuda_games_taoshi.md``, revised 2025-09-27: the same game with the mekurifuda deck's
burdens 72/78/84 and its two dekiyaku).  The defaults follow the rule page where it speaks;
every option's text names its source.

The deck is data (``decks.MEKURIFUDA``): 4 suits x numbers 1-12, matched by number, Taoshi's
card points (234 in all), the reds and the two bakefuda as flags.  Nothing here assumes months:
the matching group of a card is its number, and because the deck keeps the four cards of a
number adjacent, the shared turn (``engine.play``) and the nibble masks of ``engine.bits`` apply.

A round
-------
1. Deal (``deal_round``; "Dealing the Cards"): from the dealer's right anticlockwise (seat 1,
   2, ..., the dealer last) 4 cards to each seated player, 3 to the field, 3 more to each, 3
   more to the field: 7 each, 6 on the field, the rest is the draw pile.  Four of one number
   on the field: misdeal, redeal.
2. Join or drop (4-6 players; "Join/Drop Phase"): from the dealer anticlockwise (seat 0, 1,
   ...) each says join or drop after seeing their hand (a policy decision); as soon as three
   have joined, the undecided are forced out; as soon as all but three have dropped, the rest
   are forced in.  ``drop_fee`` / ``forced_out_pay`` (not attested; default 0).  The dropped
   hands go on top of the draw pile, which is then shuffled (``dropped_cards``).  A dropping
   player's round is its fee and any botta it pays (below).
3. Teyaku ("Teyaku", "Teyaku Showdown"): each active player's best teyaku (highest value; ties
   in the teyaku table's order) under ``bakefuda`` and ``reds_overlap``; claiming is a policy
   decision (the ``expose`` choice, default always; a lookahead player's by lookahead).  A
   claim shows cards (``shown_cards``: Group A or C the combination's, Group B the reds);
   "the players hide their cards again", but they have been seen: in runs with a lookahead
   player they are the claimer's known cards in the play's state (``engine.state.known``),
   which a lookahead opponent keeps in that hand when it determinises.  A claimed 100
   ("botta!") ends the round before play: every other seated player, active or not, pays its
   holder 100; the round's other claimed teyaku are not paid (``botta_teyaku=void``: the round
   ends at the declaration) or are (``paid``).  A forced-out player's botta is lost
   (``forced_out_botta=lost``: only the active players claim) or claimed after the active
   players' claims (``claimed``).  Otherwise a claimed teyaku is paid by each other active
   player.
4. Play ("Gameplay"): the active players in turn order from the dealer (the dealer first if
   active), hana-awase capture by number (``engine.play``, from a resumable state that the
   lookahead policy copies and plays on); the hands run out together and the field is then
   empty (every number has four cards), so the 234 points are all captured.
5. Score ("End of Round and Scoring"): captured card points + 2 x own yaku - the other active
   players' yaku - burden, where yaku are the claimed teyaku and the captured dekiyaku
   (``dekiyaku=page``, the rule page's "Dekiyaku": Four '2's, 12, for any player; Four '3's,
   12, only for the dealer's left).  The burdens go to the active players by their place in
   the turn order: the first to play carries the dealer's, the second the right's, the third
   the left's (with three players these are the dealer, right and left seats); the same
   third player is "the player to the dealer's left" of Four '3's.  ``burden=page``
   (72/78/84, the rule page; the 2022 text's 100/110/120 are for Sudaoshi's 330-point deck).
   The highest score among the active players (and a forced-out botta claimer) wins and deals
   next; a tie goes by ``tie_winner`` (default: the first of them in turn order).

Seats are relative to the dealer: seat 0 deals, seat k is k places to the dealer's right
(anticlockwise, the turn order).  Players (who own the policies) are 0..players-1; seat s is
player ``(dealer + s) % players``.  Active "positions" 0, 1, 2 are the active seats in turn
order; their names are the burden seats ``dealer``, ``right``, ``left``.

Simulation unit: a session is ``session_rounds`` rounds; its first dealer is drawn ("Choosing
the Dealer": each player draws a card, the highest number deals, a tie draws again among the
tied), then the round's winner deals.  Round i of a session deals on stream 3i and plays on
stream 3i+1 of the session's key (the first-dealer draw: stream 3 * rounds + 2).

Where things are
----------------
``rules`` the deck, teyaku values, burdens and options with their sources; ``policy`` players'
names -> kernel rows (join/drop: ``engine.join``, shared with Kushiro Toppa); ``lower`` options
-> arrays; ``teyaku`` the teyaku kernels and ``reference`` the same in plain Python; ``slots``
the kernels' array layouts; ``round`` one round (deal, join/drop, showdown, play); ``score``
the scores, dekiyaku, winner and the lookahead's rollout value; ``lookahead`` the join/drop by
lookahead; ``tally`` the counters; ``sessions`` its hooks for the engine's sessions
(``engine.sessions``: streams, dealer rotation, tallies); ``exact`` the exact deal-time rates;
``table`` counters -> quantities and their reading; this file, the game object.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ... import sources
from ...engine import state  # noqa: F401  (re-exported for tests)
from ...engine.bits import has_full_nibble  # noqa: F401  (re-exported for tests)
from ...engine.join import (JOIN_ALWAYS, JOIN_LOOKAHEAD, JOIN_RANDOM,  # noqa: F401
                            JOIN_THRESHOLD, JOINS)
from ...policies import K_SHIFT, LOOKAHEAD  # noqa: F401  (re-exported for tests)
from ..registry import register
# what other modules and the tests import from the game (``hanasim.games.taoshi.X``)
from .exact import _deal_states, _profile_cards, deal_exact  # noqa: F401
from .lookahead import (_look_join, lookahead_claim, lookahead_join,  # noqa: F401
                        lookahead_value, lookahead_views)
from .lower import (P_BAKE, P_N, P_RED, READ_EVERYWHERE, READ_IN_SETS,  # noqa: F401
                    READ_LITERAL, READ_NO_NUMBER, TIE_FIRST, TIE_LAST, TIE_RANDOM, Tables,
                    deal_sequence, lower)
from .policy import (CLAIM_EXPOSE, CLAIM_LOOKAHEAD, CLAIMS, EXPOSE_LOOKAHEAD,  # noqa: F401
                     JOIN_DEFAULT_K, PC_CARD, PC_EXPOSE, PC_JOIN, PC_JPARAM, PC_N, POLICY_FORMS,
                     decode_policies, parse_taoshi_policy)
from .reference import (PARTS, REDS_NEEDED, WILD_PARTS, best_reference,  # noqa: F401
                        cards_of_hand, teyaku_reference)
from .round import deal_round, first_dealer, lookahead_round, play_from, play_round  # noqa: F401
from .rules import (ACTIVE, BAKEFUDA_READINGS, BOTTA, BURDEN_UNIT, BURDENS,  # noqa: F401
                    DECK, DECK_POINTS, DEKIYAKU, DEKIYAKU_NUMBERS, DEKIYAKU_READINGS,
                    DEKIYAKU_VALUE, FIELD_SIZE, HAND_SIZE, MAX_PLAYERS, NAME, NONE, SCORE_VALUES,
                    SEATS, TABLE_SEATS, TEYAKU, TEYAKU_VALUES, TIE_READINGS, BurdenKind,
                    TaoshiRules, burden_option, burden_unit, burdens_of)
from .score import (dekiyaku_formed, dekiyaku_value, hand_points, round_winner,  # noqa: F401
                    settle_botta, settle_play)
from .sessions import play_kernel, play_sessions, run_chunks  # noqa: F401
from .slots import *  # noqa: F401,F403  (every result slot R_*, choice CH_*, PBUF, ST_N)
from .table import READING, _fair_burden, findings, quantities  # noqa: F401
from .tally import C_N
from .teyaku import best_teyaku, shown_cards, teyaku_formed  # noqa: F401


class Taoshi:
    """The registry entry: what the API, the CLI and the statistics layer ask of a game."""

    reading = READING

    name = NAME
    title = "Taoshi (mekurifuda, 3-6 players, three play each round)"
    source = (f"{sources.dated('taoshi_page')} and {sources.title('taoshi_2022')} (its former "
              "version); the mekurifuda and Sudaoshi rule pages")
    seed_file = "003_9adff6e6778a6a03"
    #: policies are given for up to 6 players; with fewer seated the first ``players`` are used
    n_players = MAX_PLAYERS
    seats = SEATS
    table_seats = TABLE_SEATS  # seats relative to the dealer (card values are per table seat)
    Rules = TaoshiRules
    par = None
    teyaku_names = TEYAKU
    card_values = True  # counters(card_values=True) tallies each seat's scores by dealt card
    lookahead = True  # card play, join/drop and claims by lookahead (engine.lookahead),
    # seeing the cards the other active players' claims showed
    version = 3  # bump when a rule's behaviour, an option or a policy's play changes
    key_quantities = ("dealer.mean_score", "right.mean_score", "left.mean_score",
                      "fair_burden.dealer", "fair_burden.right", "fair_burden.left")

    @property
    def main_kernel(self):
        return run_chunks

    def findings(self, by) -> list:
        """Plain sentences for a report (``table.findings``)."""
        return findings(by)

    deck_points = DECK_POINTS  # what the burdens must add up to for the game to be zero-sum
    par_word = "burdens"

    def rule_notes(self, rules) -> list:
        """Sentences a table carries about its rules: burdens that are not zero-sum."""
        total = sum(burdens_of(rules))
        if total == DECK_POINTS:
            return []
        return [f"the burdens ({', '.join(f'{float(b):g}' for b in burdens_of(rules))}) add up "
                f"to {float(total):g}, not the deck's {DECK_POINTS} card points: the game is "
                f"not zero-sum (a played round's scores add up to {DECK_POINTS - float(total):+g})"]

    def players_of(self, rules) -> int:
        return int(rules.players)

    def burdens_played(self, rules_text) -> list:
        """The (dealer, right, left) burdens of a table's rules string (charts)."""
        from ...rules import make_rules, parse_rules_string

        rules = make_rules(TaoshiRules, parse_rules_string(rules_text))
        return [float(b) for b in burdens_of(rules)]

    def policy_ids(self, names) -> np.ndarray:
        return np.array([parse_taoshi_policy(x) for x in names], dtype=np.int64)

    def exact_table(self, rules):
        """Exact misdeal and best-teyaku rates of one dealt hand, for every ``bakefuda``
        reading (column ``bakefuda``) under the rules' ``reds_overlap``; the same for any
        number of players."""
        from ...stats.exact import rows_table

        frames = []
        for reading in BAKEFUDA_READINGS:
            df = rows_table(deal_exact(reading, rules.reds_overlap), NAME)
            df.insert(2, "bakefuda", reading)
            frames.append(df)
        import pandas as pd

        df = pd.concat(frames, ignore_index=True)
        # the rules' own reading first
        key = df["bakefuda"].map(lambda r: r != rules.bakefuda)
        return df.iloc[np.argsort(key.values, kind="stable")].reset_index(drop=True)

    def counters(self, rules, *, rounds, seed, policy, expose, session_rounds=1,
                 fixed_dealer=False, checked=False, progress=False, deals_only=False,
                 card_values=False, cond=None, **run_options):
        """Integer counters of ``rounds`` rounds; ``card_values``: also ``cards``
        (``engine.card_tally``: each table seat's scores by dealt card) and ``cards_scale``."""
        from ...engine import card_tally
        from ...conditions import kernel_cond
        from ...engine.runner import run_batches
        from ...policies import per_seat

        tb = lower(rules, fixed_dealer=fixed_dealer, session_rounds=session_rounds,
                   deals_only=deals_only)
        tb = tb._replace(cond=kernel_cond(cond))  # None: no conditioned-deal code
        policy, expose = per_seat(policy, expose, MAX_PLAYERS, rules.players)
        pol = decode_policies(policy, expose)
        n_sessions = -(-rounds // session_rounds)
        shapes = dict(scal=(C_N,), tcount=(NONE + 1, 2), vcount=(len(SCORE_VALUES), 2))
        if card_values:
            shapes["cards"] = card_tally.shape(rules.players, 48)
        totals = run_batches(partial(play_kernel, tb, seed, rounds, pol), n_sessions, shapes,
                             rounds_per_session=session_rounds, progress=progress, desc=NAME,
                             **run_options)
        totals["deals_only"] = bool(deals_only)
        totals["players"] = rules.players
        if card_values:  # scores in elevenths under some burdens
            totals["cards_scale"] = burden_unit(rules)
        return totals

    def quantities(self, c, rules):
        """Tidy rows: deal-time rates per dealt hand; scores per round (in points, burden
        included); fair burdens; join rates by table seat (``table.quantities``)."""
        return quantities(c, rules)


register(Taoshi())
