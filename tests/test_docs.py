"""The developer pages stay true to the code: every file and folder that
``hanasim/engine/ADDING_A_GAME.md`` names exists, every engine hook it names is one of
``engine.sessions.HOOKS`` with the engine's arguments (and every hook is in its table), every
``sessions.NAME`` is in ``engine/sessions.py``, every dotted name of the code
(``engine.rng.shuffle_range``) resolves, and the names its file table says Bakappana's files
hold are there.  The layout map in ``hanasim/engine/README.md``'s Design section lists
exactly the files there are.  Text only: importing the games compiles nothing."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from hanasim.engine import sessions

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "hanasim"
PAGE = PACKAGE / "engine" / "ADDING_A_GAME.md"
ENGINE_README = PACKAGE / "engine" / "README.md"

# a path starts a word (not ``~/.cache/hanasim/...``) and ends in a name or a slash (not in
# the full stop after it)
FULL_PATH = re.compile(r"(?<![\w/.~<>-])((?:hanasim|tests|notebooks)/[\w./-]*[\w/])")
SHORT_PATH = re.compile(r"(?<![\w/.~<>-])((?:engine|games|stats|cli|report)/[\w./-]*[\w/])")
CALL = re.compile(r"`(\w+)\(([^`()]*)\)`")
SESSIONS_NAME = re.compile(r"(?<![\w/])(?:engine\.)?sessions\.(\w+)")
HOOK_ROW = re.compile(r"^\| `(\w+)\(([^`()]*)\)` \|", re.M)


def _exists(rel: str, games_moving: bool) -> bool:
    if (ROOT / rel).exists():
        return True
    # a game becoming a package (``games/koikoi.py`` -> ``games/koikoi/``) on another branch
    m = re.fullmatch(r"(hanasim/)?games/(\w+)/", rel)
    return games_moving and m is not None and (PACKAGE / "games" / f"{m.group(2)}.py").exists()


def missing_paths(text: str, games_moving: bool = False) -> list[str]:
    """Paths named in ``text`` that do not exist (``engine/x.py`` is under ``hanasim/``)."""
    def paths(pattern):  # a path running into a placeholder (``tests/naive_<game>.py``) is none
        return [m.group(1) for m in pattern.finditer(text) if text[m.end():m.end() + 1] != "<"]
    found = paths(FULL_PATH) + ["hanasim/" + p for p in paths(SHORT_PATH)]
    return sorted({p for p in found if not _exists(p, games_moving)})


def _args(text: str) -> tuple:
    return tuple(a.strip() for a in text.split(",") if a.strip())


def hook_problems(text: str) -> list[str]:
    """Hooks named wrongly: a call written in backticks whose name is a hook but whose
    arguments are not the engine's, one that takes ``tb`` first but is no hook, a hook of the
    first version, a ``sessions.NAME`` the engine lacks; and the hook table (rows ``| `hook(args)`
    |``) must hold every hook, each once."""
    out = []
    for name, args in CALL.findall(text):
        got = _args(args)
        if name in sessions.HOOKS:
            if got != ("...",) and got != sessions.HOOKS[name]:
                out.append(f"{name}{got}: the engine calls it with {sessions.HOOKS[name]}")
        elif got[:1] == ("tb",):
            out.append(f"{name}{got} takes tb first but is not an engine hook")
    for old in sessions.RENAMED:
        if re.search(rf"\b{old}\b", text):
            out.append(f"{old} is a hook of the first version (now {sessions.RENAMED[old]})")
    for name in SESSIONS_NAME.findall(text):
        if name != "py" and not hasattr(sessions, name):
            out.append(f"sessions.{name} is not in engine/sessions.py")
    rows = HOOK_ROW.findall(text)
    names = [name for name, _ in rows]
    if sorted(names) != sorted(sessions.HOOKS):
        out.append(f"the hook table lists {sorted(names)}, the engine's hooks are "
                   f"{sorted(sessions.HOOKS)}")
    return out


# dotted names of the code on the page, by the module they start with (``play.play_turns`` is
# ``hanasim.engine.play.play_turns``); quantity names (``seat.dealer.mean_score``) start otherwise
DOTTED = re.compile(r"`((?:engine|stats|policies|compiling|registry|play|rng|lookahead|sessions"
                    r"|state|tally|games|api|rules|reading)(?:\.[A-Za-z_]\w*)+)`")
BASES = ("hanasim.", "hanasim.engine.", "hanasim.games.")


def resolves(dotted: str) -> bool:
    """Whether ``dotted`` names a module of hanasim or a name in one."""
    parts = dotted.split(".")
    for base in BASES:
        for k in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(base + ".".join(parts[:k]))
            except ImportError:
                continue
            for name in parts[k:]:
                obj = getattr(obj, name, None)
                if obj is None:
                    break
            if obj is not None:
                return True
    return False


def unresolved_names(text: str) -> list[str]:
    return sorted({d for d in DOTTED.findall(text)
                   if not d.endswith((".py", ".md")) and not resolves(d)})


def file_table(text: str) -> dict[str, list[str]]:
    """``{file: [names]}`` from the page's table of a game package's files: the backticked
    Python names of the "holds" column (``lower(rules)`` is ``lower``; ``C_*`` patterns and
    words such as ``class X`` are left out)."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^\| `(\w+\.py)` \| (.*?) \|", line)
        if not m:
            continue
        names = []
        for token in re.findall(r"`([^`]+)`", m.group(2)):
            token = re.sub(r"\(.*\)$", "", token)
            if re.fullmatch(r"[A-Za-z_]\w*", token):
                names.append(token)
        out[m.group(1)] = names
    return out


def layout_entries(readme: str) -> list[str]:
    """The files and folders of the Design section's map, as paths under the repository
    (``hanasim/engine/play.py``, ``hanasim/games/``).  A line is an entry when everything
    before its first double space is file or folder names; deeper indents are inside the last
    folder above."""
    block = readme.split("## Design", 1)[1].split("```", 2)[1]
    stack: list[tuple[int, str]] = []
    out = []
    for line in block.splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        head = line.strip().split("  ", 1)[0]
        tokens = head.split()
        if not tokens or not all(t.endswith((".py", "/", ".md")) for t in tokens):
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        base = stack[-1][1] if stack else ""
        for t in tokens:
            if "<" in t:
                continue
            out.append(base + t)
        if len(tokens) == 1 and tokens[0].endswith("/"):
            stack.append((indent, base + tokens[0]))
    return out


# ------------------------------------------------------------------ the page
def test_every_path_on_the_page_exists():
    text = PAGE.read_text()
    assert len(FULL_PATH.findall(text)) > 20  # the scan reads the page's paths
    assert missing_paths(text) == []


def test_every_hook_on_the_page_is_the_engines():
    assert hook_problems(PAGE.read_text()) == []


def test_every_dotted_name_on_the_page_is_in_the_code():
    text = PAGE.read_text()
    assert len(DOTTED.findall(text)) > 15
    assert unresolved_names(text) == []


def test_the_files_hold_what_the_page_says():
    table = file_table(PAGE.read_text())
    assert set(table) == {"rules.py", "lower.py", "round.py", "session.py", "table.py",
                          "__init__.py"}
    missing = []
    for file, names in table.items():
        stem = file[:-3]
        module = importlib.import_module("hanasim.games.bakappana" + (
            "" if stem == "__init__" else f".{stem}"))
        missing += [f"{file}: {n}" for n in names if not hasattr(module, n)]
    assert not missing, missing


def test_the_example_defines_every_hook():
    from hanasim.games.bakappana import session
    from hanasim.games.ishikari import session as ishikari

    sessions.check_game(session)
    sessions.check_game(ishikari)


def test_the_page_stays_short():
    assert len(PAGE.read_text().splitlines()) <= 230


# ------------------------------------------------------------------ the engine README
def test_the_layout_map_lists_the_files_there_are():
    readme = ENGINE_README.read_text()
    listed = layout_entries(readme)
    assert "hanasim/engine/sessions.py" in listed and "hanasim/cli/common.py" in listed
    assert [p for p in listed if not (ROOT / p).exists()] == []
    there = [f"hanasim/{p.name}" for p in PACKAGE.glob("*.py")]
    there += [f"hanasim/{p.name}/" for p in PACKAGE.iterdir()
              if p.is_dir() and (p / "__init__.py").exists()]
    for sub in ("engine", "cli"):
        there += [f"hanasim/{sub}/{p.name}" for p in (PACKAGE / sub).glob("*.py")
                  if p.name != "__init__.py" or sub == "cli"]
    there += ["hanasim/games/registry.py", "hanasim/games/readings/"]
    assert sorted(set(there) - set(listed)) == []


def test_every_path_in_the_engine_readme_exists():
    # games moving into packages on other branches: games/<game>/ names either form
    assert missing_paths(ENGINE_README.read_text(), games_moving=True) == []


def test_the_engine_readme_names_no_removed_module():
    text = ENGINE_README.read_text()
    gone = [m for m in ("cli.py", "cli_extra.py", "cli_sweep.py", "cli_tournament.py",
                        "cli_table.py") if re.search(rf"(?<![\w/]){re.escape(m)}", text)]
    assert not gone, gone


# ------------------------------------------------------------------ the checks can fail
def test_the_checks_can_fail():
    assert missing_paths("see `hanasim/engine/nowhere.py` and `engine/gone.py`.") == [
        "hanasim/engine/gone.py", "hanasim/engine/nowhere.py"]
    assert missing_paths("`hanasim/games/bakappana/round.py`, `tests/naive.py`.") == []
    assert missing_paths("`games/nogame/`", games_moving=True) == ["hanasim/games/nogame/"]
    assert missing_paths("`tests/naive_<game>.py`, `hanasim/games/<game>/rules.py`") == []
    good = "\n".join(f"| `{h}({', '.join(a)})` | x |" for h, a in sessions.HOOKS.items())
    assert hook_problems(good) == []
    bad = good.replace("| `end_chunk(tb, counts, look)` | x |", "")  # a hook left out
    bad = bad.replace("`new_work(tb)`", "`new_work(tb, extra)`")  # other arguments
    bad += "\n`start_session(tb, work, key)` and `play_hand(tb, work)`; `sessions.loop`"
    found = hook_problems(bad + "\n| `end_chunk` | gone |")
    assert any("new_work" in f and "extra" in f for f in found), found
    assert any("start_session" in f for f in found), found
    assert any("play_hand" in f for f in found), found
    assert any("sessions.loop" in f for f in found), found
    assert any("hook table" in f for f in found), found
    assert unresolved_names("`engine.rng.no_such`, `play.play_turns`, `stats.gone.x`, "
                            "`seat.dealer.mean_score`") == ["engine.rng.no_such", "stats.gone.x"]
    assert file_table("| `round.py` | `deal_round`, `lower(rules)`, `C_*`, `class X` | y |") \
        == {"round.py": ["deal_round", "lower"]}
    m = "## Design\n```\nhanasim/\n  a.py  x\n  b/  y\n    c.py d.py  z\n      more words\n```\n"
    assert layout_entries(m) == ["hanasim/", "hanasim/a.py", "hanasim/b/", "hanasim/b/c.py",
                                 "hanasim/b/d.py"]


@pytest.mark.parametrize("doc", [PAGE, ENGINE_README], ids=lambda p: p.name)
def test_no_internal_issue_numbers(doc):
    assert not re.search(r"\bissue \d|issue #", doc.read_text(), re.I)
