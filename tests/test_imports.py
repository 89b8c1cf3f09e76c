"""hanasim's import graph, read from the source with ``ast`` (nothing is imported).

A module-level import runs when its module loads, so a circle of them is an import cycle: which
module finishes first depends on which one a user happens to import first, and a name used
before its module has finished loading fails.  A function-level import runs when the function
is called; it is how hanasim loads heavy modules on first use (numba kernels, pandas) and is
allowed, so the two kinds are counted separately and only module-level cycles fail.

The command line's direction is checked too: the library never imports the CLI, and the
command modules import ``hanasim.cli.common``, never the entry point (``hanasim.cli``).
"""
from __future__ import annotations

import ast
import textwrap
from collections import deque
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "hanasim"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking(test) -> bool:
    """``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``): never runs, so imports no module."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree):
    """(node, at module level?) for every import statement of a module.  Module level is what
    runs when the module loads: its body, class bodies, ``if``/``try``/``with`` blocks; not a
    function's body, a lambda, or an ``if TYPE_CHECKING:`` block."""
    found = []

    def walk(node, module_level):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                walk(child, False)
            elif isinstance(child, ast.If) and _type_checking(child.test):
                for sub in child.orelse:
                    walk(ast.Module(body=[sub], type_ignores=[]), module_level)
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, module_level))
            else:
                walk(child, module_level)

    walk(tree, True)
    return found


def import_graph(root: Path = PACKAGE):
    """``{module: {imported module: "file:line"}}`` twice: module-level imports, then
    function-level ones (the first import statement of each pair is the one named).
    Only modules of the package count; ``from pkg import name`` is an edge to the submodule
    ``pkg.name`` when there is one, else to ``pkg`` (its ``__init__``)."""
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    top = root.name
    module_level = {m: {} for m in files}
    function_level = {m: {} for m in files}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        where = path.relative_to(root.parent).as_posix()
        for node, at_top in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in files else source
                           for a in node.names]
            edges = module_level[name] if at_top else function_level[name]
            for target in targets:
                if target.split(".")[0] != top:
                    continue
                while target not in files and "." in target:  # `import hanasim.x.y` of a name
                    target = target.rpartition(".")[0]
                if target in files and target != name:
                    edges.setdefault(target, f"{where}:{node.lineno}")
    return module_level, function_level


def cycles(graph) -> list[list[str]]:
    """Every import cycle: for each strongly connected set of modules (Tarjan), the shortest
    cycle through each of its modules, each cycle once, starting at its first module in
    alphabetical order (``[a, b, a]``); sorted."""
    index, low, on_stack, stack, components = {}, {}, set(), [], []

    def connect(v):  # recursive Tarjan; the package's graph is shallow
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            components.append(part)

    for v in sorted(graph):
        if v not in index:
            connect(v)
    found, seen = [], set()
    for part in components:
        members = set(part)
        if len(part) == 1 and part[0] not in graph.get(part[0], ()):
            continue
        for start in sorted(members):
            path = _shortest_back(graph, start, members)[:-1]
            first = path.index(min(path))
            path = path[first:] + path[:first]
            if tuple(path) not in seen:
                seen.add(tuple(path))
                found.append(path + [path[0]])
    return sorted(found)


def _shortest_back(graph, start, members):
    """The shortest path ``start -> ... -> start`` inside ``members`` (breadth first)."""
    before = {start: None}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(graph.get(v, ())):
            if w == start:  # back: the path start -> ... -> v, then start
                path = [v]
                while before[path[-1]] is not None:
                    path.append(before[path[-1]])
                return path[::-1] + [start]
            if w in members and w not in before:
                before[w] = v
                queue.append(w)
    raise AssertionError(f"{start} is in a cycle but has no way back")


def describe(cycle, graph) -> str:
    """``a (import at a.py:12) -> b (import at b.py:3) -> a``: each step with its import."""
    steps = [f"{a} (import at {graph[a][b]})" for a, b in zip(cycle, cycle[1:])]
    return " -> ".join(steps + [cycle[-1]])


def test_no_module_level_import_cycle():
    module_level, _ = import_graph()
    found = cycles(module_level)
    assert not found, "module-level import cycles (move an import into the function that " \
        "needs it, or move the shared part down a layer):\n" + "\n".join(
            "  " + describe(c, module_level) for c in found)


def test_the_library_never_imports_the_cli():
    """Only ``python -m hanasim`` (hanasim/__main__.py) starts the CLI; no library module
    imports it, at any level (the CLI uses the library, never the other way)."""
    module_level, function_level = import_graph()
    wrong = [f"{m} imports {t}" for graph in (module_level, function_level)
             for m, targets in graph.items() for t in targets
             if (t == "hanasim.cli" or t.startswith("hanasim.cli."))
             and not (m == "hanasim.cli" or m.startswith("hanasim.cli."))
             and m != "hanasim.__main__"]
    assert not wrong, wrong


def test_cli_commands_import_common_never_the_entry_point():
    """The command modules import ``hanasim.cli.common`` (and the shared ``--precision``
    option), never ``hanasim.cli`` itself (only ``python -m hanasim.cli``, an entry point,
    does); ``common`` imports no command module."""
    module_level, function_level = import_graph()
    wrong = []
    for graph in (module_level, function_level):
        for m, targets in graph.items():
            if not m.startswith("hanasim.cli.") or m == "hanasim.cli.__main__":
                continue
            if "hanasim.cli" in targets:
                wrong.append(f"{m} imports the entry point hanasim.cli")
            if m == "hanasim.cli.common":
                wrong += [f"common imports {t}" for t in targets if t.startswith("hanasim.cli.")]
    assert not wrong, wrong
    assert "hanasim.cli.common" in module_level["hanasim.cli.simulate"]


# --- the checker itself, on a small package written here ----------------------------------

#: the games a game is built on, the only games it may import: Baka is Toppa for three
#: players; Kushiro Toppa scores Toppa's dekiyaku (both its texts); Ishikari Toppa is Bakappana
#: with teyaku, Toppa's teyaku list one of its options.  What games share otherwise is in
#: ``engine/`` (join/drop and its players: ``engine/join.py``).
BUILT_ON = {"baka": {"toppa"}, "kushiro": {"toppa"}, "ishikari": {"bakappana", "toppa"}}
NOT_GAMES = {"registry", "readings"}


def _game_of(module: str):
    """The game a module of ``hanasim.games`` belongs to (``hanasim.games.taoshi.policy`` ->
    ``taoshi``), or None outside the games or for the registry."""
    parts = module.split(".")
    if parts[:2] != ["hanasim", "games"] or len(parts) < 3 or parts[2] in NOT_GAMES:
        return None
    return parts[2]


def game_imports(graph) -> list[str]:
    """Imports of one game by another that is not built on it, as ``a -> b (at file:line)``."""
    out = []
    for module, edges in sorted(graph.items()):
        game = _game_of(module)
        for target, where in edges.items():
            other = _game_of(target)
            if game and other and other != game and other not in BUILT_ON.get(game, ()):
                out.append(f"{game} -> {other} (import at {where})")
    return out


def test_a_game_imports_only_the_games_it_is_built_on():
    module_level, function_level = import_graph()
    assert game_imports(module_level) + game_imports(function_level) == []


def test_the_game_check_finds_a_game_importing_another():
    graph = {"hanasim.games.ishikari.round": {"hanasim.games.taoshi": "x.py:3",
                                              "hanasim.games.bakappana.round": "x.py:4",
                                              "hanasim.engine.join": "x.py:5"},
             "hanasim.games.baka": {"hanasim.games.toppa": "baka.py:9",
                                    "hanasim.games.registry": "baka.py:10"}}
    assert game_imports(graph) == ["ishikari -> taoshi (import at x.py:3)"]


def _package(tmp_path, files: dict) -> Path:
    root = tmp_path / "pkg"
    for rel, text in {"__init__.py": "", **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text))
    return root


def test_the_checker_finds_a_cycle_and_allows_lazy_imports(tmp_path):
    root = _package(tmp_path, {
        "a.py": "from . import b\n",
        "b.py": "import pkg.sub.c\n",
        "sub/__init__.py": "",
        "sub/c.py": "from ..a import thing\n",              # a -> b -> sub.c -> a
        "d.py": "def f():\n    from . import e\n",          # lazy: allowed
        "e.py": "from .d import f\n",
        "f.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import g\n",
        "g.py": "from . import f\n",
        "h.py": "class H:\n    from . import i\n",            # a class body runs at import
        "i.py": "try:\n    from .h import H\nexcept ImportError:\n    H = None\n",
    })
    module_level, function_level = import_graph(root)
    assert module_level["pkg.b"] == {"pkg.sub.c": "pkg/b.py:1"}
    assert module_level["pkg.sub.c"] == {"pkg.a": "pkg/sub/c.py:1"}
    assert function_level["pkg.d"] == {"pkg.e": "pkg/d.py:2"} and module_level["pkg.d"] == {}
    assert module_level["pkg.f"] == {}
    found = cycles(module_level)
    assert found == [["pkg.a", "pkg.b", "pkg.sub.c", "pkg.a"], ["pkg.h", "pkg.i", "pkg.h"]]
    assert describe(found[0], module_level) == (
        "pkg.a (import at pkg/a.py:1) -> pkg.b (import at pkg/b.py:1) -> "
        "pkg.sub.c (import at pkg/sub/c.py:1) -> pkg.a")


def test_the_checker_names_every_cycle_of_a_tangle(tmp_path):
    # a <-> b and b <-> c: one strongly connected set, two cycles, both named
    root = _package(tmp_path, {"a.py": "from . import b\n",
                               "b.py": "from . import a, c\n",
                               "c.py": "from . import b\n"})
    assert cycles(import_graph(root)[0]) == [["pkg.a", "pkg.b", "pkg.a"],
                                             ["pkg.b", "pkg.c", "pkg.b"]]


@pytest.mark.parametrize("source, target", [
    ("from . import x", "pkg.x"),            # a submodule
    ("from . import name", "pkg"),           # a name of the package's __init__
    ("from .x import y", "pkg.x"),
    ("import pkg.x.y", "pkg.x"),             # y is not a module: the nearest that is
])
def test_the_checker_resolves_imports(tmp_path, source, target):
    root = _package(tmp_path, {"x.py": "", "m.py": source + "\n"})
    assert list(import_graph(root)[0]["pkg.m"]) == [target]


#: modules too slow to load for what every command needs (CPU s to import, on top of numpy,
#: pandas and numba): the interval arithmetic calls scipy.special instead of scipy.stats (0.5),
#: the charts load matplotlib (0.4) only when a chart is drawn
SLOW = ("scipy.stats", "matplotlib")


def _external_module_level(path: Path) -> set:
    out = set()
    for node, at_top in _imports(ast.parse(path.read_text(), str(path))):
        if not at_top:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif not node.level and node.module:
            out.update([node.module] + [f"{node.module}.{a.name}" for a in node.names])
    return out


@pytest.mark.parametrize("start", ["hanasim.api", "hanasim.readable", "hanasim.report.build"])
def test_tables_and_readable_output_load_neither_scipy_stats_nor_matplotlib(start):
    """What ``import hanasim.api`` (every command's tables) and the readable output of
    ``hanasim simulate`` (which names the play through hanasim.report.build) load at module
    level, through any chain of hanasim modules: none of :data:`SLOW`."""
    module_level, _ = import_graph()
    files = {module_name(p, PACKAGE): p for p in PACKAGE.rglob("*.py")}
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        todo += list(module_level[m])
        parts = m.split(".")  # a submodule's import runs its packages' __init__ first
        todo += [".".join(parts[:i]) for i in range(1, len(parts)) if ".".join(parts[:i]) in files]
    wrong = sorted(f"{m} imports {x}" for m in seen for x in _external_module_level(files[m])
                   if any(x == s or x.startswith(s + ".") for s in SLOW))
    assert not wrong, wrong
