"""Every notebook runs top to bottom (small HANASIM_NB_ROUNDS, in a temporary working directory
and store, so nothing is written into the repository), and is committed without outputs."""
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
NB_ROUNDS = "50000"
CELL_TIMEOUT = 600  # seconds per cell: generous (a fresh kernel loads the compiled kernels)

nbclient = pytest.importorskip("nbclient")


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


def execute(nb, tmp_path, monkeypatch):
    repo = Path(__file__).resolve().parent.parent
    monkeypatch.setenv("HANASIM_NB_ROUNDS", NB_ROUNDS)
    monkeypatch.setenv("HANASIM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    watched = [repo / "notebooks", repo / "reports", repo]  # where a stray cwd would write

    def snapshot():
        return {p for d in watched if d.is_dir() for p in d.iterdir()}

    before = snapshot()
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=CELL_TIMEOUT,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_runs_top_to_bottom(path, tmp_path, monkeypatch):
    import hanasim

    nb = execute(nbformat.read(path, as_version=4), tmp_path, monkeypatch)
    text, images = outputs(nb)
    assert f"{int(NB_ROUNDS):,} rounds per run" in text  # the environment variable was used
    if path.stem == "02_baka" and "baka" not in hanasim.available_games():
        assert "Baka is not available" in text
        return
    assert images >= 1, "no chart"
    expected = {"00_quickstart": 1, "01_toppa": 4, "02_baka": 6, "03_house_rules": 3,
                "04_koikoi": 4}
    assert images >= expected.get(path.stem, 1), images
    if path.stem == "00_quickstart":
        assert list((tmp_path / "store").glob("*.parquet"))  # saved into $HANASIM_STORE


def test_baka_notebook_stops_gracefully_without_baka(tmp_path, monkeypatch):
    """As if Baka were not in this hanasim: the notebook says so and runs to the end."""
    path = next(p for p in NOTEBOOKS if p.stem == "02_baka")
    nb = nbformat.read(path, as_version=4)
    hide = nbformat.v4.new_code_cell(
        "import hanasim\n_games = hanasim.available_games\n"
        "hanasim.available_games = lambda: [g for g in _games() if g != 'baka']")
    nb.cells.insert(0, hide)
    nb = execute(nb, tmp_path, monkeypatch)
    text, images = outputs(nb)
    assert "Baka is not available in this hanasim" in text
    assert images == 0
