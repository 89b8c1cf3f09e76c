"""How a game's numbers are read: each game declares its reading once, next to its registry
class (``reading = Reading(...)``), and the report, :func:`hanasim.plot.seat_edges`, the
notebooks and the CLI's headline all read it, so no game is read by another game's rules.

A reading says:

* ``unit``: what a score is counted in (points, coins, chips);
* ``seats``: the per-seat rows of the edges chart, in order, and ``seat_words``: what the
  seats are (relative to the round's dealer, or the active players in turn order);
* ``edge_metric``: the per-seat metric that says who has the edge (``mean_score``; koi-koi's
  ``mean_advantage``: a seat's score less the opponent's, because only the collector scores)
  and ``edge_quantity``, the headline one, with ``edge_title`` and ``edge_who`` to say it;
* ``nonnegative``: scores cannot be negative (koi-koi): a raw mean score is then drawn against
  an equal share of the points scored, never against 0; ``nonnegative_when``: ``(option,
  values)``, the rule values under which that holds (koi-koi's winner-only scoring; under
  ``scoring=zero_sum`` the loser pays, a score can be negative and is drawn against 0), read
  by :meth:`Reading.never_negative`;
* ``no_winner``: the quantity giving the share of rounds nobody wins (a tie, or nobody
  scores), and how to say it: win rates are drawn against an equal share of the other rounds
  (none declared: every round has a winner, as in Taoshi, whose rules break a tie);
* ``fair_metric``: the per-seat fair value (the par or the burden that makes a seat's mean
  score zero) and ``fair_rule``, the rule it is drawn against;
* ``headline``: the key answers (:class:`Line`: a quantity and its sentence), the first lines
  of ``hanasim simulate`` and the report's skill table;
* ``dekiyaku_of``, ``dekiyaku_axis``, ``dekiyaku_caption``: what a ``dekiyaku.*`` rate is a
  share of (Toppa, Baka: the players' captured piles; Kushiro Toppa: the rounds ended by a
  stop; Taoshi: the played rounds), in a finding, on the chart's axis and in its caption;
* ``sits_out_as_zero``: a seat's round-score histogram counts the rounds it sits out as 0
  (Ishikari Toppa), so the distribution chart takes them off to draw the rounds played;
* ``only_when``: quantities that mean something only under some rule values (koi-koi's field
  multiplier rows under ``field_multiplier=off``): no sentence is written about them otherwise.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Line:
    """One headline answer: ``quantity`` and a sentence ``text`` with ``{value}`` (the
    estimate and its 99.9% interval, formatted by ``kind``) and ``{unit}``.  ``kind``:
    ``rate`` (a percentage), ``signed`` (+1.23), ``plain`` (1.23); ``verdict``: end with
    whether the interval excludes ``reference`` (favoured / at a disadvantage / no edge), and
    say the reference when it is not 0.  ``when``: ``(option, allowed values)``, the line is
    true only under those rule values (Bakappana's "the par that would make his mean score
    zero" under zero-sum scoring, not additive)."""
    quantity: str
    text: str
    kind: str = "plain"
    verdict: bool = False
    reference: float = 0.0
    when: tuple = ()


@dataclass(frozen=True)
class Reading:
    unit: str = "points"
    seats: tuple = ("dealer", "opponent")
    seat_words: str = "by seat relative to the round's dealer"
    edge_metric: str = "mean_score"
    edge_quantity: str = "dealer.mean_score"
    edge_title: str = "Dealer edge"
    edge_who: str = "the dealer"
    nonnegative: bool = False
    nonnegative_when: tuple = ()    # (option, values): nonnegative only under these values
    no_winner: tuple = ()           # quantities (first present wins): share of rounds no one wins
    no_winner_words: str = "tied"
    won_words: str = "someone wins"  # the other rounds
    score_sum: str | None = None    # a round's scores added up (not zero-sum rules: not 0)
    fair_metric: str | None = None  # fair_par, fair_burden
    fair_rule: str | None = None    # par, burden
    headline: tuple = ()
    dekiyaku_of: str = "piles"
    dekiyaku_axis: str = "share of players' captured piles that score it"
    dekiyaku_caption: str = ("Share of players' captured piles scoring each dekiyaku (a pile "
                             "can score several)")
    only_when: dict = field(default_factory=dict)  # quantity prefix -> (option, allowed values)
    labels: dict = field(default_factory=dict)  # quantity ("x.{k}": any number k) -> label
    positions: dict = field(default_factory=dict)  # position token -> what it is ...
    positions_above: int = 0  # ... at tables of more than this many players
    # a table seat that sits a round out scores 0 in its ``round_score`` histogram (Ishikari
    # Toppa): the distribution chart draws the rounds it plays (``seat.X.play_rate``)
    sits_out_as_zero: bool = False
    # what a policy does in this game, where the common words are not true of it (Bakappana's
    # greedy has no yaku to weigh; Ishikari Toppa's players also join, drop and chase); a key
    # may hold {k}, a whole number (greedy/threshold{k})
    policy_words: dict = field(default_factory=dict)

    def policy_text(self, policy: str) -> str | None:
        """What every player playing ``policy`` does, in this game's words (None: the common
        words hold)."""
        import re

        if policy in self.policy_words:
            return self.policy_words[policy]
        for key, text in self.policy_words.items():
            if "{k}" in key:
                m = re.fullmatch(re.escape(key).replace(r"\{k\}", r"(\d+)"), policy)
                if m:
                    return text.format(k=m.group(1))
        return None

    def never_negative(self, rules: dict | None = None) -> bool:
        """Whether a seat's score cannot be negative under ``rules`` (``{option: value
        text}``; an option not given holds its default, which ``nonnegative_when`` lists)."""
        if not self.nonnegative:
            return False
        if not self.nonnegative_when or not rules:
            return True
        option, values = self.nonnegative_when
        return option not in rules or str(rules[option]) in [str(v) for v in values]

    def label(self, quantity: str) -> str | None:
        """The game's own label of ``quantity``, if it declares one."""
        if quantity in self.labels:
            return self.labels[quantity]
        head, _, k = quantity.rpartition(".")
        if k.isdigit() and f"{head}.{{k}}" in self.labels:
            return self.labels[f"{head}.{{k}}"].format(k=k)
        return None

    def seat_quantities(self, metric: str, index) -> list[tuple[str, str]]:
        """``(seat, quantity)`` of every seat whose ``metric`` row is in ``index``, in seat
        order (``dealer.x``, ``seat.dealer.x``, ``x.dealer`` or ``round.dealer.x``)."""
        out = []
        for s in self.seats:
            for q in (f"{s}.{metric}", f"seat.{s}.{metric}", f"{metric}.{s}",
                      f"round.{s}.{metric}"):
                if q in index:
                    out.append((s, q))
                    break
        return out

    # ---------------------------------------------------------------- reference lines
    def reference(self, metric: str, by, n_seats: int) -> tuple[float | None, str]:
        """The line of fairness for a per-seat ``metric`` in a table indexed by quantity
        (``by``): ``(value, words)``; ``value`` None when the metric has no such line here
        (the fair par and burden are drawn against the rule played: :meth:`fair_values`)."""
        if metric == "win_rate":
            none = self.no_winner_share(by)
            ref = (1 - none) / n_seats
            if not self.no_winner:  # every round has one winner (Taoshi breaks its ties)
                return ref, f"an equal share of the rounds ({ref:.1%}; every round has a winner)"
            return ref, (f"an equal share of the rounds {self.won_words} ({ref:.1%}; "
                         f"{none:.1%} {self.no_winner_words})")
        if metric in ("mean_score", "mean_chips", "mean_net") and \
                self.never_negative(rules_dict(by)):
            # scores cannot be negative: fair is every seat scoring the same share
            rows = [f"{s}.{metric}" for s in self.seats]
            have = [float(by.loc[q, "estimate"]) for q in rows if q in by.index]
            if not have:
                return None, ""
            ref = sum(have) / len(have)
            return ref, f"an equal share of the {self.unit} scored ({ref:.3g} a seat)"
        if metric == "mean_score" and self.score_sum and self.score_sum in by.index:
            # burdens need not add up to the deck's points: fair is an equal share of the sum
            ref = float(by.loc[self.score_sum, "estimate"]) / n_seats
            if abs(ref) > 1e-9:
                return ref, (f"an equal share of the round's score sum ({ref:.4g} {self.unit} a "
                             "seat: the rules are not zero-sum)")
        if metric in ("mean_score", "mean_advantage", "mean_chips", "mean_net",
                      "par_balance", "burden_balance"):
            return 0.0, "no edge (0)"
        return None, ""

    def edge_line(self, by, default: float = 0.0) -> float:
        """The value the edge quantity is judged against (0, or an equal share of a score
        sum that is not zero)."""
        # the seats seated are the per-seat rows the table has (Bakappana seats 2 of 4)
        n = len(self.seat_quantities(self.edge_metric, by.index)) or len(self.seats)
        ref, _ = self.reference(self.edge_metric, by, n)
        return default if ref is None else ref

    def no_winner_share(self, by) -> float:
        for q in self.no_winner:
            if q in by.index:
                v = float(by.loc[q, "estimate"])
                return 0.0 if math.isnan(v) else v
        return 0.0

    def applies(self, quantity: str, rules: dict) -> bool:
        """Whether ``quantity`` means something under ``rules`` (``{option: value text}``)."""
        for prefix, (option, values) in self.only_when.items():
            if quantity.startswith(prefix) and option in rules and \
                    str(rules[option]) not in values:
                return False
        return True

    # ---------------------------------------------------------------- sentences
    def lines(self, rules: dict) -> list:
        """The headline lines true under ``rules`` (``{option: value text}``; an option not
        given holds every line): a line whose ``when`` excludes the rule played, or whose
        quantity does not apply, is left out."""
        out = []
        for line in self.headline:
            if not self.applies(line.quantity, rules):
                continue
            if line.when and line.when[0] in rules and \
                    str(rules[line.when[0]]) not in [str(v) for v in line.when[1]]:
                continue
            out.append(line)
        return out

    def sentences(self, by, rules: dict | None = None) -> list[str]:
        """The headline: one sentence per :class:`Line` whose quantity the table has (and
        that applies under ``rules``, by default the rules the table was run with)."""
        if rules is None:
            rules = rules_dict(by)
        out = []
        for line in self.lines(rules):
            if line.quantity not in by.index:
                continue
            r = by.loc[line.quantity]
            if any(math.isnan(float(r[c])) for c in ("estimate", "ci_low", "ci_high")):
                continue
            text = line.text.format(value=value_text(r, line.kind), unit=self.unit)
            if line.verdict:
                ref, words = line.reference, ""
                if line.quantity == self.edge_quantity:
                    n = len(self.seat_quantities(self.edge_metric, by.index)) or len(self.seats)
                    found, words = self.reference(self.edge_metric, by, n)
                    ref = line.reference if found is None else found
                if abs(ref) > 1e-9:  # a reader must see what the score is judged against
                    text += f", against {words or f'{ref:.2f}'}"
                text += ": " + verdict(r, self.edge_who, ref)
            out.append(text + ".")
        return out


def value_text(r, kind: str = "plain") -> str:
    """An estimate and its 99.9% interval as a reader writes them."""
    e, lo, hi = float(r["estimate"]), float(r["ci_low"]), float(r["ci_high"])
    if kind == "rate":
        return f"{pct(e)} (99.9% CI {pct(lo)} to {pct(hi)})"
    if kind == "signed":
        return f"{e:+.2f} (99.9% CI {lo:+.2f} to {hi:+.2f})"
    return f"{e:.2f} (99.9% CI {lo:.2f} to {hi:.2f})"


def pct(x) -> str:
    x = float(x)
    return f"{100 * x:.1f}%" if abs(x) >= 0.001 or x == 0 else f"{100 * x:.2g}%"


def verdict(r, who: str, reference: float = 0.0) -> str:
    """Whether the 99.9% interval of ``r`` lies above, below or around ``reference``."""
    if r["ci_low"] > reference:
        return f"{who} is favoured"
    if r["ci_high"] < reference:
        return f"{who} is at a disadvantage"
    return ("no dealer edge" if who == "the dealer" else f"no edge of {who}") + \
        " is detectable at this many rounds"


def reading_of(g) -> Reading:
    """A game's reading (a game that declares none is read as two seats scoring points)."""
    return getattr(g, "reading", None) or Reading()


def rules_dict(df) -> dict:
    """The rules a table was run with, ``{option: value text}``."""
    from .rules import parse_rules_string

    return parse_rules_string(df.attrs.get("rules", "") or "")
