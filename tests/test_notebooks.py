"""Every notebook runs top to bottom (small HANASIM_NB_ROUNDS, in a temporary working directory
and store, so nothing is written into the repository), and is committed without outputs."""
import importlib
import importlib.util
import os
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
NB_ROUNDS = "50000"
FULL_ONLY = {"08_skill"}  # lookahead runs of three games: run with --full (CI time budget)
CELL_TIMEOUT = 600  # seconds per cell: generous (a fresh kernel loads the compiled kernels)

if importlib.util.find_spec("nbclient") is None:
    pytest.skip("could not import 'nbclient'", allow_module_level=True)


class _OnFirstUse:
    """A module imported when a test first uses it, not when pytest collects this file: both
    xdist workers collect every file, and importing nbformat (jsonschema builds its format
    grammars) costs 2-4 CPU s, which the worker that runs no notebook paid for nothing."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        if attr.startswith("_") or attr == "pytestmark":  # pytest looking for marks, fixtures
            raise AttributeError(attr)
        return getattr(importlib.import_module(self._name), attr)


nbformat = _OnFirstUse("nbformat")
nbclient = _OnFirstUse("nbclient")


def run_sync(f):
    from jupyter_core.utils import run_sync as run  # nbclient's own dependency
    return run(f)


def test_there_are_notebooks():
    names = {p.stem for p in NOTEBOOKS}
    assert {"00_quickstart", "01_toppa", "02_baka", "03_house_rules", "04_koikoi"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_clean(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, (
                path.name, cell.source[:60])


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    """One Jupyter kernel (a real ipykernel process, started as Jupyter starts one) for this
    module's notebooks, each run after a reset (`RESET`): a kernel's start, its imports
    (numpy, pandas, numba, matplotlib, hanasim) and loading the compiled kernels from the cache
    cost a few CPU seconds, paid once here instead of once per notebook."""
    from jupyter_client.manager import AsyncKernelManager

    km = AsyncKernelManager(kernel_name="python3")
    # started outside the repository (nothing it writes before a notebook's chdir lands there),
    # charts inline as in Jupyter whatever backend the environment names
    run_sync(km.start_kernel)(cwd=str(tmp_path_factory.mktemp("kernel")),
                              env={**os.environ, "MPLBACKEND": INLINE})
    yield km
    run_sync(km.shutdown_kernel)(now=True)


INLINE = "module://matplotlib_inline.backend_inline"

#: run before each notebook: the notebook's folder and environment, the pandas display options
#: and matplotlib figures back at their start, and an empty namespace (a notebook leaning on a
#: name an earlier one defined fails here as it would in a fresh kernel)
RESET = """\
import os, sys
os.chdir({cwd!r})
os.environ.update({env!r})
if "pandas" in sys.modules:
    sys.modules["pandas"].reset_option("display")
if "matplotlib.pyplot" in sys.modules:
    sys.modules["matplotlib.pyplot"].close("all")
%reset -f
"""


def _run(nb, km, cwd):
    """Every cell of `nb` in the kernel, top to bottom; nbclient raises on a cell's error."""
    if not run_sync(km.is_alive)():  # an earlier notebook killed the kernel: start it again
        run_sync(km.restart_kernel)(now=True)
    client = nbclient.NotebookClient(nb, km=km, timeout=CELL_TIMEOUT,
                                     resources={"metadata": {"path": str(cwd)}})
    try:
        client.execute()
    finally:
        if client.kc is not None:
            client.kc.stop_channels()
    return nb


def execute(nb, tmp_path, kernel):
    repo = Path(__file__).resolve().parent.parent
    env = {"HANASIM_NB_ROUNDS": NB_ROUNDS, "HANASIM_STORE": str(tmp_path / "store")}
    watched = [repo / "notebooks", repo / "reports", repo]  # where a stray cwd would write

    def snapshot():
        return {p for d in watched if d.is_dir() for p in d.iterdir()}

    before = snapshot()
    reset = nbformat.v4.new_code_cell(RESET.format(cwd=str(tmp_path), env=env))
    _run(nbformat.v4.new_notebook(cells=[reset]), kernel, tmp_path)
    _run(nb, kernel, tmp_path)
    new = {p for p in snapshot() - before if p.name not in (".pytest_cache", "__pycache__")}
    assert not new, f"the notebook wrote into the repository: {sorted(map(str, new))}"
    return nb


def outputs(nb):
    text, images = [], 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                raise AssertionError(f"{out.ename}: {out.evalue}")
            if out.output_type == "stream" and out.name == "stdout":
                text.append(out.text)
            data = out.get("data", {})
            images += "image/png" in data
            text.append(data.get("text/markdown", "") + data.get("text/plain", ""))
    return "\n".join(text), images


#: charts each notebook draws (at least), and what its text must say
EXPECTED = {
    "00_quickstart": (4, ["dealer.mean_score = 0 at par.dealer ="]),
    "01_toppa": (8, ["dealer.mean_score = 0 at par.dealer =", "exact values lie inside"]),
    "02_baka": (8, ["seat.dealer.mean_score = 0 at par.dealer =", "Low Man Out happens in"]),
    "03_house_rules": (3, ["blank cells: 0", "boar_deer_butterfly=0"]),
    "04_koikoi": (4, []),
    "05_taipa": (8, ["first player's coin gain a round", "10 of 10 exact values lie inside"]),
    "06_kushiro_toppa": (3, ["exact values lie inside", "dealer's edge:"]),
    "09_hands_and_positions": (5, ["exact conditional values lie inside the 99.9% intervals",
                                   "Answer: the dealer holding the Rain Man and the Moon scores",
                                   "Answer (greedy play): exposing the triplet is worth",
                                   "Answer (the lookahead's advice on",
                                   "Answer: with Five Brights at 40 instead of 60",
                                   "koi-koi calls,"]),
    "10_bakappana": (1, ["3 of 3 exact misdeal rates lie inside", "par that would make",
                         "against an equal share of the round's score sum"]),
    "11_ishikari_toppa": (3, ["exact values lie inside", "dealer's edge at 4 players:",
                              "a round's payments are multiplied by"]),
}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_runs_top_to_bottom(path, tmp_path, kernel, full):
    if path.stem in FULL_ONLY and not full:
        pytest.skip("compiles every game's lookahead kernels: run with --full")
    nb = execute(nbformat.read(path, as_version=4), tmp_path, kernel)
    text, images = outputs(nb)
    assert f"{int(NB_ROUNDS):,} rounds per run" in text  # the environment variable was used
    charts, phrases = EXPECTED.get(path.stem, (1, []))
    assert images >= charts, images
    for phrase in phrases:
        assert phrase in text, phrase
    if path.stem == "00_quickstart":
        assert list((tmp_path / "store").glob("*.parquet"))  # saved into $HANASIM_STORE


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebooks_draw_with_hanasim_plot(path):
    """The notebooks chart with hanasim.plot, not with copies of plotting helpers."""
    nb = nbformat.read(path, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "plot." in code
    assert "def forest" not in code and "def teyaku_vs_exact" not in code
    assert "errorbar(" not in code and "HAVE_BAKA" not in code


def test_the_shared_kernel_fails_on_an_error_and_forgets_each_notebook(tmp_path, kernel):
    """The one kernel keeps the checks a fresh kernel gives: a cell's error fails the run, a
    name an earlier notebook defined is gone, and each notebook runs in its own folder with
    its own environment."""
    from nbclient.exceptions import CellExecutionError

    def notebook(*sources):
        return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])

    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    execute(notebook("left_over = 1", "import os\nassert os.getcwd() == %r\n"
                     "assert os.environ['HANASIM_STORE'] == %r" % (str(first),
                                                                   str(first / "store"))),
            first, kernel)
    with pytest.raises(CellExecutionError, match="NameError"):
        execute(notebook("left_over"), second, kernel)
    with pytest.raises(CellExecutionError, match="ZeroDivisionError"):
        execute(notebook("x = 1", "1 / 0", "never = 1"), second, kernel)
