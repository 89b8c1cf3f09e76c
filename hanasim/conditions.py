"""A run's condition on its deals: given cards (``hanasim.given``) and ``--where``
(``hanasim.where``), checked once at the edge and lowered per rule set to the kernels'
``cond`` array (``engine.rng``, "conditional deals")."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from . import given as _given, where as _where
from .given import GivenError


def layout_of(g, rules) -> _given.Layout:
    """The game's deal for placing given cards (``game.given_layout`` or
    :mod:`hanasim.given_layouts`)."""
    from .given_layouts import LAYOUTS

    f = getattr(g, "given_layout", None) or LAYOUTS.get(g.name)
    if f is None:
        raise GivenError(f"{g.name} does not take conditioned deals (--given, --where)")
    return f(rules)


def _teyaku(g, rules):
    from .given_layouts import WHERE_TEYAKU

    named = WHERE_TEYAKU[g.name](rules) if g.name in WHERE_TEYAKU else None
    if named is not None:
        return named
    lay = layout_of(g, rules)
    if getattr(lay, "teyaku", None):
        return lay.teyaku
    spec = getattr(g, "deal_spec", None)
    return spec(rules).teyaku if spec is not None else None


@dataclass
class Condition:
    """``given`` (:class:`hanasim.given.Given` or None), ``where``
    (:class:`hanasim.where.Where` or None) and, per layout, the pilot's acceptance."""

    game: object
    given: object = None
    where: object = None
    pilot: dict = field(default_factory=dict)  # layout key -> (misdeals, played, accepted)

    def __bool__(self):
        return bool(self.given) or bool(self.where)

    def _where_part(self, rules):
        if not self.where:
            return ()
        lay = layout_of(self.game, rules)
        cl, _ = _where.clauses(self.where, lay, _teyaku(self.game, rules))
        deck = _given._notation.for_game(self.game).deck
        return _where.array_part(cl, lay, _where.stride_of(deck))

    def array(self, rules) -> np.ndarray:
        """The kernels' ``cond`` array under ``rules``."""
        lay = layout_of(self.game, rules)
        return _given.cond_array(self.given, lay, self._where_part(rules))

    def meta(self) -> dict:
        out = {}
        if self.given:
            out["given"] = self.given.text()
        if self.where:
            out["where"] = self.where.text()
        return out

    def words(self, rules=None) -> str:
        parts = []
        lay = layout_of(self.game, rules) if rules is not None else None
        if self.given:
            parts.append(self.given.words(lay))
        if self.where:
            if lay is not None:
                parts.append("; ".join(_where.clauses(self.where, lay,
                                                      _teyaku(self.game, rules))[1]))
            else:
                parts.append(self.where.text())
        return "; ".join(parts)

    def notes(self, rules, rounds) -> list:
        """The table's notes: what the deals are conditioned on, in words, and (``--where``)
        the pilot's acceptance rate and the deals the run drew."""
        out = []
        lay = layout_of(self.game, rules)
        if self.given:
            out.append(self.given.note(lay))
            if not self.where:  # the exact odds take given cards, not a --where condition
                out.append(exact_pointer(self.game, self.given))
        if self.where:
            words = "; ".join(_where.clauses(self.where, lay, _teyaku(self.game, rules))[1])
            mis, played, ok = self.pilot[_key(lay)]
            rate = ok / played
            out.append(
                f"Conditioned on the deal: {words} (--where {self.where.text()}). Deals that do "
                f"not meet it are dealt again (rejection sampling): {_pct(rate)} of the "
                f"deals played met it in a pilot of {played:,} deals, so the "
                f"{rounds:,} rounds took about {round(rounds / rate):,} deals; every rate is "
                "among the deals that meet the condition (the misdeal rate is the misdeals "
                "beside the deals played, the rejected deals counted in neither)")
        named = [w for w, _ in self.given.seats] if self.given else []
        named += [t.split(".")[0] for t in where_clauses(self.where)] if self.where else []
        if any(w.strip().lower() != "field" for w in named) and getattr(self.game, "expose",
                                                                         True):
            # "Teyaku: Triplet 64%" under dealer.triplet puzzles: the rows pool the seats
            out.append("The teyaku rates at the deal are per dealt hand, every seat's hand "
                       "pooled: the conditioned seat's hand is one of them")
        return out


def where_clauses(where) -> list:
    """The clauses of a parsed ``--where`` (``dealer.triplet``, ``field.brights>=1``)."""
    return [p for t in where.texts for p in _where._split(t)]


def seats_named(given, where) -> bool:
    """Whether ``--given`` / ``--where`` texts name a seat (not only the field)."""
    texts = [given] if isinstance(given, str) else list(given or [])
    if isinstance(given, dict):
        texts = [f"{k}=" for k in given]
    seats = [t.split("=", 1)[0].split(":", 1)[0] for t in texts]
    wts = [where] if isinstance(where, str) else list(where or [])
    for t in wts:
        seats += re.findall(r"([A-Za-z_0-9]+)\.", t)
    return any(s.strip().lower() != "field" for s in seats)


def player_mix_note(meta: dict, given, where, deal_share=None) -> str | None:
    """A note for a conditioned run whose players play differently (``--policy`` or
    ``--expose`` per player) while the seat the condition names goes to each player in turn:
    "the dealer holds a triplet, expose or hide?" asked with ``--expose never,always`` measures
    player 1 hiding as dealer in only his share of the rounds; ``--fixed-dealer`` seats player 1
    as the dealer every round.  None when the note does not apply."""
    if meta.get("dealing") == "fixed" or not seats_named(given, where):
        return None
    differ = [opt for opt, key in (("--policy", "policies"), ("--expose", "expose"))
              if len(set(str(meta.get(key) or "").split(","))) > 1]
    if not differ:
        return None
    share = ("" if deal_share is None else
             f" (player 1 dealt {100 * deal_share:.1f}% of the rounds)")
    verb = "differ" if len(differ) > 1 else "differs"
    return (f"{' and '.join(differ)} {verb} by player, but the seats the condition names are "
            f"relative to the round's dealer, who changes from round to round{share}: each "
            "seat's rows mix the players' settings; add --fixed-dealer to seat player 1 as the "
            "dealer in every round")


def _pct(rate):
    return f"{100 * rate:.3g}%"


def _key(lay) -> tuple:
    return tuple(int(p) for p in np.asarray(lay.pattern)), tuple(sorted(lay.seats.items()))


def check(g, given, where, rule_objs, seed=0) -> Condition | None:
    """Parse and check ``given`` and ``where`` against every rule set that will run (one line
    each problem: :class:`GivenError`, a ValueError); with ``where``, run the pilot per
    layout and refuse a condition met too rarely to finish."""
    gv = _given.parse(g, given) if given is not None else None
    wh = _where.parse(g, where)
    cond = Condition(g, gv or None, wh)
    if not cond:
        return None
    from .engine.where import pilot

    deck = _given._notation.for_game(g).deck
    for rules in rule_objs:
        lay = layout_of(g, rules)
        if cond.given:
            _given.resolve(cond.given, lay)
        if not wh:
            continue
        cl, words = _where.clauses(wh, lay, _teyaku(g, rules))
        if _key(lay) in cond.pilot:
            continue
        arr = _given.cond_array(cond.given, lay, _where.array_part(cl, lay,
                                                                   _where.stride_of(deck)))
        kernel = [c for c in cl if c[0] == _where.W.W_TEYAKU]
        dealt = np.zeros((_where.PILOT_DEALS if kernel else 0, _where.W.MAX_GROUPS),
                         dtype=np.uint64)
        stats = pilot(np.uint64(seed), _where.PILOT_DEALS, arr, lay.deck_size,
                      np.array(lay.four_checked, dtype=np.int64), _where.stride_of(deck), dealt)
        mis, played, ok = (int(x) for x in stats)
        if kernel:
            ok = _kernel_accepted(dealt[:ok], kernel, _teyaku(g, rules))
        if ok < _where.MIN_ACCEPTED:
            rate = ok / played if played else 0.0
            raise GivenError(
                f"--where {wh.text()}: met by {ok} of {played:,} deals in a pilot "
                f"(acceptance {_pct(rate)}), too rare to finish a run by redealing"
                + ("" if not cond.given else " (with the given cards)"))
        cond.pilot[_key(lay)] = (mis, played, ok)
    return cond


def _kernel_accepted(dealt, clauses, teyaku) -> int:
    """The pilot's deals (``dealt``: their groups, each meeting the count clauses) whose hands
    hold the teyaku the ``W_TEYAKU`` clauses name, read by the game's own teyaku kernel
    (:class:`hanasim.where.KernelTeyaku`) as its deal reads them."""
    held_of = next(t.held for t in teyaku if isinstance(t, _where.KernelTeyaku))
    keep = np.ones(dealt.shape[0], dtype=bool)
    held = {}
    for _, grp, bit, _, _ in clauses:
        if grp not in held:
            held[grp] = held_of(dealt[:, grp]) if dealt.shape[0] else np.zeros(0, np.int64)
        keep &= ((held[grp] >> bit) & 1) == 1
    return int(keep.sum())


def exact_pointer(g, given) -> str:
    """The note that names the exact conditional deal odds of a run given cards."""
    return (f"Exact conditional deal odds (combinatorics, the same given cards): 'hanasim "
            f"exact {g.name} --given {' --given '.join(given.text().split())}'; 'hanasim "
            "report' sets them beside the simulated rates")


def _exact_module(g):
    """The game's own exact module (``hanasim.games.<game>.exact``) when it computes odds given
    cards (``given_table``), else None."""
    from importlib import import_module

    try:
        mod = import_module(f"{type(g).__module__}.exact")
    except ImportError:  # a one-module game (Toppa, Baka): its deal is a DealSpec
        return None
    return mod if hasattr(mod, "given_table") else None


def exact_given(g, rules, given):
    """The exact deal odds of ``g`` under ``rules`` given cards (``hanasim exact --given``): a
    tidy table as :func:`hanasim.exact`, with per-seat rows (``teyaku.NAME.SEAT``).  A game
    with its own combinatorics computes them given cards in its ``exact.given_table``
    (Kushiro Toppa, Taoshi, Ishikari Toppa, Koi-koi, Taipa); the others' deal odds are a
    :class:`hanasim.stats.exact.DealSpec` whose groups are the deal's (Toppa, Baka,
    Bakappana)."""
    from .stats.exact import rows_table
    from .stats.exact_given import given_probabilities

    gv = _given.parse(g, given)
    lay = layout_of(g, rules)
    groups = _given.resolve(gv, lay)
    mod = _exact_module(g)
    if mod is not None:
        df = mod.given_table(rules, groups, dict(lay.names))
    else:
        spec_of = getattr(g, "deal_spec", None)
        spec = spec_of(rules) if spec_of is not None and getattr(g, "exact_given", True) \
            else None
        pattern = np.asarray(lay.pattern)
        n_groups = int(pattern.max()) + 1
        if spec is None or len(spec.group_sizes) != n_groups + 1 or any(
                spec.group_sizes[k] != lay.size(k) for k in range(n_groups)):
            raise GivenError(f"exact --given: {g.name}'s exact deal odds are not computed "
                             "with given cards (its combinatorics track no single seat's "
                             f"cards); 'hanasim simulate {g.name} --given ... --deals-only' "
                             "measures them")
        df = rows_table(given_probabilities(spec, groups, dict(lay.names)), g.name)
    df.attrs["given"] = gv.text()
    df.attrs["notes"] = [f"Conditional on the deal: {gv.words(lay)} (--given {gv.text()}); a "
                         "rate of a hand (Taipa: of a place) is the mean over the hands "
                         "(places), as simulate pools them, and per seat (place) in the rows "
                         "ending in its name."] + list(df.attrs.get("notes", ()))
    return df


def kernel_cond(cond):
    """The ``cond`` a game's kernel is given: the condition's array, or None for a run with
    neither given cards nor ``--where`` (no array, or an empty one).  None is a type of its
    own to numba: that kernel is compiled without the conditioned deal's code
    (``engine.rng.deal_shuffle``, ``engine.where``), a shorter first compile for plain runs;
    a run with a condition compiles the kernel that reads it, once."""
    return cond if cond is not None and cond.shape[0] > 0 else None
