"""A saved run's rules in a few words, as ``hanasim runs list`` shows them, and the fingerprint
of the rule definitions those words depend on.

The words compare a run's rules with its game's defaults (or its preset), so computing them
loads the game modules (and numba): about a second.  The store's index keeps them, computed
once per run, with :func:`fingerprint` in its metadata: an index made with other rule
definitions (another version of hanasim) has its words computed again, never shown as they
were."""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path


@functools.lru_cache(maxsize=1)
def fingerprint() -> str:
    """A hash of the sources that define the games' options, defaults and presets (read as
    bytes, nothing imported: about a millisecond)."""
    root = Path(__file__).parent
    h = hashlib.sha256()
    for path in sorted([*root.glob("games/**/*.py"), root / "rules.py", root / "api.py",
                        Path(__file__)]):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def changed_rules(game: str, rules: str) -> str:
    """The options of a rules string that differ from the game's defaults ('default' if none)."""
    from . import rules as _rules

    if not isinstance(rules, str):
        return ""
    try:
        from .api import rules_table

        defaults = {r.option: str(r.default) for r in rules_table(game).itertuples()}
    except ValueError:  # a game this hanasim does not know: show everything
        return rules
    items = _rules.parse_rules_string(rules)
    if not items:
        return rules
    changed = [f"{k}={v}" for k, v in items.items() if defaults.get(k) != v]
    return ", ".join(changed) or "default"


def rules_shown(game, rules, preset) -> str:
    """A run's rules in a few words: a comparison's or sweep's grid as saved; else the preset
    (if any) and the options that differ from it (or from the defaults)."""
    if not isinstance(rules, str):
        return ""
    if rules.startswith(("compare ", "sweep ")):
        return rules
    if not preset:
        return changed_rules(game, rules)
    try:
        from . import rules as _rules
        from .api import rules_table

        given = rules_table(game, preset)
        base = {r.option: str(r.preset) for r in given.itertuples()}
        items = _rules.parse_rules_string(rules)
    except ValueError:
        return f"{preset}: {changed_rules(game, rules)}"
    changed = [f"{k}={v}" for k, v in items.items() if base.get(k) != v]
    return preset + (" + " + ", ".join(changed) if changed else "")
