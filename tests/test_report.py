"""``hanasim report``: every table, chart and section the report promises is there, in the HTML
(self-contained: charts embedded as PNG) and in the Markdown (charts as PNG files), and the
command it prints reproduces it."""
import base64
import io
import json
import re
import shlex
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

import hanasim
from hanasim import cli
from hanasim import cli as cli_extra  # runs and report: in hanasim.cli's parser (cli_extra.py is gone)
from hanasim.games import get_game
from hanasim.report import SECTIONS, build_report

ROUNDS, SEED = 20_000, 5
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CHARTS = ("teyaku", "dekiyaku", "edges", "distribution")


class Page(HTMLParser):
    """Headings (with ids), images, tables (id, caption, header, rows), external references."""

    def __init__(self):
        super().__init__()
        self.headings, self.images, self.tables, self.external = [], [], [], []
        self._heading = None
        self._table = None
        self._cell = None
        self._caption = None
        self.code = []
        self._code = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("src", "href"):
            if key in a and re.match(r"^(https?:)?//", a[key] or ""):
                self.external.append(a[key])
        if tag in ("link", "script", "iframe"):
            self.external.append(tag)
        if tag in ("h1", "h2", "h3"):
            self._heading = [tag, a.get("id"), ""]
        elif tag == "img":
            self.images.append(a)
        elif tag == "table":
            self._table = dict(id=a.get("id"), caption="", header=[], rows=[])
        elif tag == "caption":
            self._caption = ""
        elif tag == "tr" and self._table is not None:
            self._table["rows"].append([])
        elif tag in ("td", "th"):
            self._cell = ""
        elif tag == "pre":
            self._code = ""

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3") and self._heading:
            self.headings.append(tuple(self._heading))
            self._heading = None
        elif tag == "caption":
            self._table["caption"] = self._caption
            self._caption = None
        elif tag in ("td", "th") and self._table is not None:
            self._table["rows"][-1].append(self._cell)
            self._cell = None
        elif tag == "table":
            t = self._table
            t["header"], t["rows"] = t["rows"][0], t["rows"][1:]
            self.tables.append(t)
            self._table = None
        elif tag == "pre":
            self.code.append(self._code)
            self._code = None

    def handle_data(self, data):
        if self._heading is not None:
            self._heading[2] += data
        if self._caption is not None:
            self._caption += data
        if self._cell is not None:
            self._cell += data
        if self._code is not None:
            self._code += data


def parse(path):
    p = Page()
    p.feed(Path(path).read_text(encoding="utf-8"))
    return p


@pytest.fixture(scope="module")
def toppa_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    paths = build_report("toppa", rounds=ROUNDS, seed=SEED, out=out)
    return out / "toppa", paths  # the report is one folder, <out>/<game>/


def test_skill_section(toppa_report):
    """Toppa is played by the lookahead policy: the report says whether skill changes the
    answer (a tournament table and the key quantities under lookahead)."""
    out, _ = toppa_report
    md = (out / "toppa.md").read_text(encoding="utf-8")
    assert "does skill change the answer?" in md
    assert "| lookahead:16 |" in md and "toppa-files/toppa-skill.png" in md


def test_files_are_where_promised(toppa_report):
    out, paths = toppa_report
    assert Path(paths["html"]) == out / "toppa.html" and Path(paths["markdown"]) == out / "toppa.md"
    assert Path(paths["folder"]) == out
    files = sorted(p.name for p in (out / "toppa-files").iterdir())
    assert files == sorted([f"toppa-{c}.png" for c in CHARTS + ("skill",)] + ["toppa-table.csv"])
    assert sorted(p.name for p in out.iterdir()) == ["hanasim-report.json", "toppa-files",
                                                     "toppa.html", "toppa.md"]
    assert json.loads((out / "hanasim-report.json").read_text())["seed"] == SEED
    assert [p.name for p in out.parent.iterdir()] == ["toppa"]  # no work folder left behind


def test_html_has_every_section_table_and_chart(toppa_report):
    out, paths = toppa_report
    page = parse(paths["html"])
    title = get_game("toppa").title
    texts = [h[2] for h in page.headings]
    assert texts[0].startswith("hanasim report") and "Reproduce" in texts
    assert title in texts
    for section in SECTIONS:
        assert any(t.endswith(f": {section}") for t in texts), section
    ids = [h[1] for h in page.headings]
    assert len(ids) == len(set(ids))  # anchors are unique

    tables = {t["id"]: t for t in page.tables}
    df = hanasim.simulate("toppa", rounds=ROUNDS, seed=SEED)
    summary = tables["toppa-summary-table"]
    assert summary["header"][:7] == ["quantity", "code", "estimate", "std error",
                                     "99.9% CI low", "99.9% CI high", "n"]
    assert [r[0] for r in summary["rows"]] == list(df["label"])  # readable names, in order
    assert [r[1] for r in summary["rows"]] == list(df["quantity"])  # every quantity
    misdeal = dict(zip(summary["header"], summary["rows"][0]))
    assert float(misdeal["estimate"]) == pytest.approx(df["estimate"].iloc[0], rel=1e-3)

    exact = hanasim.exact("toppa")
    ex = tables["toppa-exact-table"]
    assert set(r[0] for r in ex["rows"]) == set(exact["quantity"])
    col = ex["header"].index("exact (fraction)")
    fractions = set(exact["fraction"].astype(str))
    assert all(r[col] in fractions for r in ex["rows"])
    inside = ex["header"].index("exact inside CI")
    assert all(r[inside] in ("yes", "NO") for r in ex["rows"])

    rules = tables["toppa-rules-table"]
    options = hanasim.rules_table("toppa")
    assert [r[0] for r in rules["rows"]] == list(options["option"])
    assert [r[1] for r in rules["rows"]] == [str(d) for d in options["default"]]

    prov = dict(tables["toppa-provenance-table"]["rows"])
    assert prov["seed"] == str(SEED) and prov["rounds"] == str(ROUNDS)
    assert prov["hanasim_version"] == hanasim.__version__
    assert "five_brights=60" in prov["rules"]

    assert len(page.images) == len(CHARTS) + 1  # and the skill tournament
    for img in page.images:
        assert img["src"].startswith("data:image/png;base64,")
        png = base64.b64decode(img["src"].split(",", 1)[1], validate=True)
        assert png.startswith(PNG_MAGIC)
        from PIL import Image
        with Image.open(io.BytesIO(png)) as im:
            im.verify()
        with Image.open(io.BytesIO(png)) as im:
            assert im.size[0] >= 400 and im.size[1] >= 200
        assert img.get("alt")


def test_html_is_self_contained(toppa_report):
    _, paths = toppa_report
    page = parse(paths["html"])
    assert page.external == []
    text = Path(paths["html"]).read_text()
    assert "toppa-files/" not in re.sub(r"<code>[^<]*</code>", "", text)  # no file it needs


def test_reproduce_command_and_versions(toppa_report):
    _, paths = toppa_report
    page = parse(paths["html"])
    command = f"hanasim report toppa --rounds {ROUNDS} --seed {SEED}"
    assert page.code[0].strip() == command == paths["command"]
    assert f"seed={SEED}" in page.code[1]
    text = Path(paths["html"]).read_text()
    assert f"hanasim {hanasim.__version__}" in text


def test_markdown_says_the_same_and_its_charts_exist(toppa_report):
    out, paths = toppa_report
    md = Path(paths["markdown"]).read_text(encoding="utf-8")
    html_headings = [h[2] for h in parse(paths["html"]).headings]
    md_headings = [re.sub(r"^#+ ", "", x) for x in md.splitlines() if re.match(r"^#{1,3} ", x)]
    assert md_headings == html_headings
    refs = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert len(refs) == len(CHARTS) + 1
    html_pngs = [base64.b64decode(i["src"].split(",", 1)[1]) for i in parse(paths["html"]).images]
    for ref, png in zip(refs, html_pngs):
        f = out / ref
        assert f.is_file() and f.read_bytes().startswith(PNG_MAGIC)
        assert f.read_bytes() == png  # the very same chart as in the HTML
    df = hanasim.simulate("toppa", rounds=ROUNDS, seed=SEED)
    for q in df["quantity"]:
        assert q.replace("_", "\\_") in md, q
    assert f"hanasim report toppa --rounds {ROUNDS} --seed {SEED}" in md
    for option in hanasim.rules_table("toppa")["option"]:
        assert option.replace("_", "\\_") in md
    table = pd.read_csv(out / "toppa-files" / "toppa-table.csv")
    assert list(table["quantity"]) == list(df["quantity"])


def test_the_printed_command_reproduces_the_report(toppa_report, tmp_path, capsys):
    _, paths = toppa_report
    argv = shlex.split(paths["command"])[1:] + ["--out", str(tmp_path)]
    main = cli.main if "report" in _commands() else cli_extra.main
    assert main(argv) == 0
    again = parse(tmp_path / "toppa" / "toppa.html")
    first = parse(paths["html"])
    for tid in ("toppa-summary-table", "toppa-exact-table", "toppa-rules-table"):
        a = next(t for t in first.tables if t["id"] == tid)
        b = next(t for t in again.tables if t["id"] == tid)
        assert a["rows"] == b["rows"], tid


def _commands():
    sub = [a for a in cli.build_parser()._actions if a.__class__.__name__ == "_SubParsersAction"]
    return sub[0].choices if sub else {}


def test_rules_and_policy_show_in_the_report(tmp_path):
    paths = build_report("toppa", rounds=5_000, seed=2, policy="greedy,random",
                         rules={"five_brights": 40}, out=tmp_path)
    assert paths["command"] == ("hanasim report toppa --rounds 5000 --seed 2 --policy "
                                "greedy,random --rule five_brights=40")
    page = parse(paths["html"])
    rules = next(t for t in page.tables if t["id"] == "toppa-rules-table")
    assert dict((r[0], r[1]) for r in rules["rows"])["five_brights"] == "40 (changed)"
    assert "rules={'five_brights': 40}" in page.code[1] and "policy='greedy,random'" in page.code[1]


def test_all_games_in_one_report(tmp_path):
    # skill=False: the skill sections compile every game's lookahead kernels (Toppa's report
    # checks its skill section; the others run under --full, tests/test_lookahead.py)
    paths = build_report("all", rounds=5_000, seed=3, out=tmp_path, skill=False)
    page = parse(paths["html"])
    texts = [h[2] for h in page.headings]
    for game in hanasim.available_games():
        title = get_game(game).title
        assert title in texts
        for section in SECTIONS:
            assert f"{title}: {section}" in texts
        # a game with teyaku charts them; taipa (none) charts its rounds; bakappana (no
        # teyaku, no rounds of its own) its seats' edges
        chart = ("teyaku" if get_game(game).teyaku_names else
                 "edges" if game == "bakappana" else "rounds")
        assert (tmp_path / "all" / "all-files" / f"{game}-{chart}.png").is_file()
    assert len(page.images) >= 2 * len(hanasim.available_games())
    assert paths["command"].startswith("hanasim report all ")


@pytest.mark.parametrize("kwargs, words", [
    (dict(game="chess"), ["unknown game 'chess'"]),
    (dict(game="toppa", rules={"gold_rush": "on"}), ["unknown rule 'gold_rush'"]),
    (dict(game="toppa", rounds=0), ["rounds"]),
    (dict(game="toppa", seed="abc"), ["seed"]),
])
def test_bad_input_writes_nothing(kwargs, words, tmp_path):
    kwargs = dict(dict(rounds=1_000, seed=1), **kwargs)
    with pytest.raises(ValueError) as e:
        build_report(out=tmp_path / "r", **kwargs)
    for w in words:
        assert w in str(e.value)
    assert not (tmp_path / "r").exists()


def test_cli_report_errors_are_one_line(tmp_path, capsys):
    main = cli.main if "report" in _commands() else cli_extra.main
    (tmp_path / "afile").write_text("x")
    for argv, word, want in ((["report", "chess"], "unknown game", 2),
                             (["report", "toppa", "--rounds", "1000", "--out",
                               str(tmp_path / "afile")], "not a directory", 1),
                             (["report", "toppa", "--rule", "nope=1"], "unknown rule", 2)):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == want and len(err.strip().splitlines()) == 1 and word in err, err


def _chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(_chromium() is None, reason="chromium is not installed (CI does not have it)")
def test_renders_in_a_headless_browser(toppa_report, tmp_path):
    _, paths = toppa_report
    shot = tmp_path / "report.png"
    cmd = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
           f"--screenshot={shot}", "--window-size=1200,5000",
           Path(paths["html"]).resolve().as_uri()]
    subprocess.run(cmd, capture_output=True, timeout=120)
    assert shot.is_file(), "chromium wrote no screenshot"
    from PIL import Image
    with Image.open(shot) as im:
        assert im.size == (1200, 5000)
        rgb = im.convert("RGB")
        # text and tables at the top, and the charts' blue bars further down: not a blank page
        top = rgb.crop((0, 0, 1200, 600)).getcolors(1 << 20)
        assert len(top) > 50
        import numpy as np
        px = np.asarray(rgb.resize((300, 1250)), dtype=int).reshape(-1, 3)
        r, g, b = px[:, 0], px[:, 1], px[:, 2]
        blue = int(((b > 150) & (r < 130) & (g > 90) & (g < 170) & (b - r > 50)).sum())
        assert blue > 500, blue


def test_findings_read_as_a_newsletter(toppa_report):
    """Issue 17: display names, percentages (no 20-digit fractions), fairness judged by the fair
    par's interval alone, the play the numbers assume first, a lopsided pairing said first."""
    import re

    from hanasim.report import findings

    df = hanasim.simulate("toppa", rounds=ROUNDS, seed=SEED)
    lines = findings(df, hanasim.exact("toppa"))
    assert lines[0].startswith("These numbers assume that every player")
    text = " ".join(lines)
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text  # no code names
    assert not re.search(r"\d+/\d+", text), text  # no fractions
    assert "Seven Ribbons" in text or "Chaff" in text
    for line in lines:
        if "fair" in line:
            assert "includes 0" not in line and "interval includes" not in line, line
    par = next(x for x in lines if x.startswith("Par (Dealer)"))
    fair = df.set_index("quantity").loc["fair_par.dealer"]
    assert ("inside it" in par) == (fair.ci_low <= 120 <= fair.ci_high)
    lopsided = findings(hanasim.simulate("toppa", rounds=ROUNDS, seed=SEED,
                                         policy="greedy,random"))
    assert lopsided[0].startswith("Lopsided pairing") and "player 1 'greedy'" in lopsided[0]


def test_charts_are_sharp(toppa_report):
    """PNG charts at twice screen resolution (200 dpi): an 8-inch chart is 1600 pixels wide."""
    import struct

    out, paths = toppa_report
    for chart in paths["charts"]:
        data = Path(chart).read_bytes()
        width = struct.unpack(">I", data[16:20])[0]
        assert width >= 1600, (chart, width)


def test_a_failed_report_leaves_the_older_one_and_hands_over_its_runs(tmp_path, monkeypatch):
    """A full disk while a new report is written over an older one: the older one stays whole
    (never half old, half new), no work folder is left, and the simulated run was handed to
    ``on_run`` (the command line saves it) before any file was written."""
    first = build_report("toppa", rounds=2_000, seed=1, out=tmp_path, skill=False)
    before = {p: p.read_bytes() for p in Path(first["folder"]).rglob("*") if p.is_file()}
    from hanasim import atomic
    from hanasim.report import folder

    writes = []

    def full(path, data, *a, **k):
        writes.append(path)
        if len(writes) == 3:
            raise OSError(f"cannot write {k.get('shown', path)}: No space left on device")
        return atomic.write_bytes(path, data, *a, **k)

    monkeypatch.setattr(folder, "write_bytes", full)
    runs = []
    with pytest.raises(OSError, match="No space left"):
        build_report("toppa", rounds=2_000, seed=2, out=tmp_path, skill=False,
                     on_run=runs.append)
    assert {p: p.read_bytes() for p in Path(first["folder"]).rglob("*") if p.is_file()} == before
    assert [p.name for p in tmp_path.iterdir() if p.name != "hanasim-runs"] == ["toppa"]
    assert len(runs) == 1 and runs[0].attrs["seed"] == 2
