"""``hanasim bench``: the shape of its output (every figure the median and range of several runs),
never its speed (a timed test fails on a loaded machine)."""
import re
import textwrap

import pytest

from hanasim.bench import run_bench, side_by_side, spread
from hanasim.cli import main

RANGE = r"[\d,.]+ \([\d,.]+-[\d,.]+\)"  # median (lowest-highest)


def test_spread_is_the_median_then_the_lowest_and_highest():
    assert spread([3, 1, 2]) == "2 (1-3)"
    assert spread([1_500_000, 1_200_000, 1_000_000, 2_000_000]) == \
        "1,350,000 (1,000,000-2,000,000)"
    assert spread([0.71, 0.64, 0.80], "{:.2f}") == "0.71 (0.64-0.80)"
    assert spread([12.34]) == "12"  # one run: no range to show


def test_every_rate_is_a_median_with_its_range_and_each_run_is_kept():
    lines = []
    figures = run_bench(games=("toppa",), rounds=2000, policies=(), repeat=2, lookahead=False,
                        deals=True, compile_time=False, out=lines.append)
    text = "\n".join(lines)
    assert lines[0].startswith("machine: ") and "NUMBA_OPT=" in lines[0]
    assert re.search(r"load average \(1/5/15 min\) at the start: ", lines[1])
    assert "median (lowest-highest) of 2 runs" in lines[2]
    rows = [line for line in lines if line.startswith("toppa ")]
    assert len(rows) == 1 and rows[0].split()[1] == "deals"
    # one thread per wall and per CPU second, all threads
    assert len(re.findall(RANGE, rows[0])) == 3
    runs = figures[("toppa", "deals")]
    assert len(runs["one"]) == len(runs["one_cpu"]) == len(runs["many"]) == 2
    assert min(runs["one"]) > 0 and min(runs["one_cpu"]) > 0
    assert "cold compile" not in text  # not asked


def test_the_side_by_side_ratios_are_a_median_and_range_of_alternating_runs(tmp_path):
    # a stand-in reference: the ratios' shape is the point, not their values
    ref = tmp_path / "reference_kernel.py"
    ref.write_text(textwrap.dedent("""\
        calls = []

        def _work(n, seed):
            calls.append(n)
            return sum(range(n * 10))

        random2_chunk = greedy2_chunk = deal_chunk = _work
        """))
    lines = []
    ratios = side_by_side(str(ref), rounds=2000, repeat=3, out=lines.append)
    assert list(ratios) == ["random", "greedy", "deals-only"]
    assert all(len(r) == 3 and min(r) > 0 for r in ratios.values())
    assert len(lines) == 3
    for name, line in zip(ratios, lines):
        assert line.startswith(f"side by side, toppa {name}")
        assert re.search(r"ratio \d+\.\d\d \(\d+\.\d\d-\d+\.\d\d\) \(per CPU s; wall ", line), line


@pytest.mark.parametrize("args, words", [
    (("--repeat", "0"), ["--repeat", "at least 1"]),
    (("--repeat", "two"), ["--repeat", "two"]),
    (("--reference", "no/such/reference_kernel.py"), ["--reference", "no such file"]),
])
def test_bad_bench_options_are_one_line_before_any_measurement(args, words, capsys):
    assert main(["bench", "--games", "toppa", "--no-compile", *args]) == 2
    err = capsys.readouterr()
    lines = [line for line in err.err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err.err, err.err
    assert err.out == ""  # refused before the machine line
    for w in words:
        assert w in lines[0]
