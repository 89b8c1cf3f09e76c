"""Koi-koi for 2 players: the game as hanasim's registry sees it, and every name of the package.

The rules (options, presets, the rule page's variations line by line) are in ``rules``; the
rest, one job a file, in the order data flows:

=============  ===========================================================================
``rules``      the options and presets, their defaults citing the 1997 text or the rule page
``yaku``       the yaku tables of each ``yaku`` option, the deck's masks, scoring a pile
``lower``      the rules as arrays and ints for the kernels (``layout.Tables``)
``layout``     the kernels' slots: params, card masks, the round state, a round's result
``deal``       shuffle and deal, misdeals, the first dealer's cut, lucky hands, field fours
``turn``       a turn: playable cards, captures, the wild Lightning, the turn structures
``play``       the turns from any state (``play_from``), stop-or-continue after a yaku
``round``      a round: the deal-time events, then ``play_from``, then the settlement
``scoring``    a round's points: 7-point doubling, the koi-koi bonus, the field multiplier
``lookahead``  the lookahead player's turn, lucky-hand and stop-or-continue choices
``tally``      the counters and the kernels that count a round
``session``    sessions of whole games, the chunk runner, a run's counters
``table``      counters to quantities, the exact deal table, the game's ``READING``
=============  ===========================================================================

A game
------
The first dealer is drawn by a cut (``first_dealer``); the round's scorer deals next (a round
nobody scores: ``draw_dealer``).  A game ends at ``target`` points, after ``game_rounds``
rounds, or when a player's ``stake`` runs out, whichever comes first; the player with more
points wins it.  Round ``r`` of a game (from 0) is month ``r mod 12 + 1`` (cards of the month).
"""
from __future__ import annotations

import numpy as np

from ... import sources
from ...policies import parse_policy
from ..registry import register
from .rules import *  # noqa: F401,F403
from .layout import *  # noqa: F401,F403
from .yaku import *  # noqa: F401,F403
from .lower import *  # noqa: F401,F403
from .scoring import *  # noqa: F401,F403
from .deal import *  # noqa: F401,F403
from .turn import *  # noqa: F401,F403
from .play import *  # noqa: F401,F403
from .lookahead import *  # noqa: F401,F403
from .round import *  # noqa: F401,F403
from .tally import *  # noqa: F401,F403
from .session import *  # noqa: F401,F403
from .table import *  # noqa: F401,F403
from . import session as _session, table as _table
from .lower import SERIES_ROUNDS, lower  # noqa: F811  (the function, not the module)
from .rules import (N_PLAYERS, NAME, PRESET_ALIASES, PRESET_DOCS, PRESETS, TEYAKU,
                    KoikoiRules)
from .session import run_chunks
from .table import READING


class Koikoi:
    """The registry entry: what the API, the CLI and the statistics layer ask of a game."""

    reading = READING

    name = NAME
    title = "Koi-koi (2 players)"
    source = (f"{sources.dated('koikoi_1997')}; variations: "
              f"{sources.dated('koikoi_page')}")
    n_players = N_PLAYERS
    Rules = KoikoiRules
    par = None
    teyaku_names = TEYAKU
    presets = PRESETS
    preset_docs = PRESET_DOCS
    preset_aliases = PRESET_ALIASES
    rounds_per_session = SERIES_ROUNDS
    # every choice of a turn (hand cards, takes, the turned card's take, under every turn
    # structure and the wild Lightning), lucky-hand declarations and stop-or-continue by
    # lookahead (engine.lookahead; the package's ``lookahead``)
    lookahead = True
    card_values = True  # counters(card_values=True) tallies each seat's scores by dealt card
    version = 4  # bump when a rule's behaviour, an option or a policy's play changes

    #: the dealer's edge: scores need not be zero-sum (winner-only scoring)
    edge_quantity = "dealer.mean_advantage"

    @property
    def main_kernel(self):
        return run_chunks

    def findings(self, by) -> list:
        """Plain sentences for a report, from a simulate table indexed by quantity."""
        return _table.findings(by)

    def policy_ids(self, names) -> np.ndarray:
        """One packed id per player: card play and stop-or-continue (``policies.parse_policy``)."""
        return np.array([parse_policy(n) for n in names], dtype=np.int64)

    def exact_table(self, rules):
        """Exact misdeal rate, lucky hands and field 20-point cards (``hanasim exact``)."""
        return _table.exact_table(rules)

    def counters(self, rules, **kw):
        """Integer counters of a run (``session.counters``)."""
        return _session.counters(rules, **kw)

    def quantities(self, c, rules):
        """Tidy rows ``(quantity, stats)`` from the counters (``table.quantities``)."""
        return _table.quantities(c, rules)


register(Koikoi())
