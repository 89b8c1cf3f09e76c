"""Bakappana: the yaku-less fishing game for 2 to 4 players (the Bakappana rule page).

Card points only (bright 20, animal 10, ribbon 5, chaff 1 or 0), scored against a par of the
deck's points shared out, or added up; the table misdeal; the highest scorer deals next.

Layout: ``rules`` (options, pars, deals), ``lower`` (rules -> Tables), ``round`` (deal, play,
the 2-player draw-out, score, the lookahead's value), ``session`` (games and counters),
``table`` (quantities and the reading); this file is the registry entry.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ... import sources
from ...decks import HANAFUDA
from ...engine import card_tally
from ...engine.deal_only import DEALS_PER_SESSION, run_deal_chunks
from ...engine.lookahead import uses_lookahead
from ..registry import register
from . import table
from .lower import P_PLAYERS, Tables, lower  # noqa: F401
from .round import R_N, deal_round, play_dealt  # noqa: F401
from .rules import (MAX_PLAYERS, NAME, SEATS, BakappanaRules, deal_pattern,  # noqa: F401
                    deal_sizes, deck_points, draws_out, par)
from .session import C_DEALS, C_MISDEALS, C_N, C_ROUNDS, run_chunks


def play_kernel(tb, seed, rounds, policy, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, policy, out["scal"],
               card_tally.kernel_counter(out), uses_lookahead(policy))


def deal_kernel(tb, seed, rounds, first, n, chunk, out):
    # the field first (group 0), so the engine's deals-only path checks it alone
    n_players = tb.params[P_PLAYERS]
    pattern = np.where(tb.pattern == n_players, 0, tb.pattern + 1).astype(np.int8)
    run_deal_chunks(np.uint64(seed), first, n, chunk, rounds, HANAFUDA.month_masks(),
                    tb.kind_masks, np.zeros((0, 7), np.int64), pattern, 0, 2, 1,
                    np.array([C_DEALS, C_MISDEALS, C_ROUNDS]), out["scal"], out["tcount"],
                    tb.cond)


class Bakappana:
    """The registry entry: what the API, the CLI and the statistics layer ask of a game."""

    reading = table.READING
    name = NAME
    title = "Bakappana (2-4 players, card points only)"
    source = f"{sources.dated('bakappana')}"
    seed_file = None
    n_players = MAX_PLAYERS  # policies for up to 4 players; ``players`` are seated
    seats = SEATS
    Rules = BakappanaRules
    par = None  # the par is the deck's points / players (rules.par), not an option
    deck_points = 264  # the page's deck ('88 no bakappana'; 240 under chaff_points=0)
    teyaku_names = ()
    expose = False  # no teyaku: no expose decision
    lookahead = True
    card_values = True  # counters(card_values=True) tallies each seat's scores by dealt card
    version = 1
    key_quantities = ("seat.dealer.mean_score", "seat.dealer.win_rate", "seat.tie_rate")

    @property
    def main_kernel(self):
        return run_chunks

    def players_of(self, rules) -> int:
        return int(rules.players)

    def rule_notes(self, rules) -> list:
        return table.notes(rules)

    def deal_spec(self, rules):
        """Exact deal odds: the only deal-time quantity is the misdeal (four of a month on the
        field; hands are not checked)."""
        from ...stats.exact import DealSpec
        n = rules.players
        hand, field = deal_sizes(rules)
        return DealSpec(month=HANAFUDA.month, kind=HANAFUDA.kind,
                        group_sizes=(hand,) * n + (field, 48 - n * hand - field),
                        hand_groups=tuple(range(n)), misdeal_groups=(n,))

    def counters(self, rules, *, rounds, seed, policy, expose=None, session_rounds=1,
                 fixed_dealer=False, checked=False, progress=False, deals_only=False,
                 card_values=False, cond=None, **run_options):
        """Integer counters of ``rounds`` rounds, played in games of ``rounds_per_game``
        (``ceil(rounds / rounds_per_game)`` games, the last cut short when it does not divide);
        ``session_rounds`` does not apply (the game's length is the ``rounds_per_game`` rule).
        ``card_values``: also ``cards`` (``engine.card_tally``: each seat's scores by dealt
        card)."""
        from ...conditions import kernel_cond
        from ...engine.runner import run_batches

        if int(session_rounds) not in (1, rules.rounds_per_game):
            raise ValueError("bakappana is played in games of rounds_per_game rounds; "
                             "session_rounds does not apply (set the rounds_per_game rule)")
        tb = lower(rules, fixed_dealer=fixed_dealer, checked=checked)
        tb = tb._replace(cond=kernel_cond(cond))  # None: no conditioned-deal code
        if deals_only:
            shapes = dict(scal=(C_N,), tcount=(1, 2))
            totals = run_batches(partial(deal_kernel, tb, seed, rounds),
                                 -(-rounds // DEALS_PER_SESSION), shapes,
                                 rounds_per_session=DEALS_PER_SESSION, progress=progress,
                                 desc=f"{NAME} deals", **run_options)
            totals["deals_only"] = True
            return totals
        policy = np.ascontiguousarray(policy, dtype=np.int64)
        if len(policy) == 1:
            policy = np.repeat(policy, rules.players)
        game_len = rules.rounds_per_game
        shapes = dict(scal=(C_N,))
        if card_values:
            shapes["cards"] = card_tally.shape(rules.players, 48)
        totals = run_batches(partial(play_kernel, tb, seed, rounds, policy),
                             -(-rounds // game_len), shapes,
                             rounds_per_session=game_len, progress=progress, desc=NAME,
                             **run_options)
        return totals

    def histograms(self, c, rules) -> dict:
        return {} if c.get("deals_only") else table.histograms(c, rules)

    def distributions(self, c, rules) -> dict:
        from ...stats.distribution import trimmed
        return {k: trimmed(v) for k, v in self.histograms(c, rules).items()}

    def quantities(self, c, rules):
        return table.quantities(c, rules)


GAME = register(Bakappana())
