"""Ctrl-C in the first second of a command, while Python imports hanasim (numba loads), is one
line and exit code 130, like Ctrl-C at any later moment: never a Python traceback.

Deterministic, not a race with a timer: the child process is made to stop inside the import
(a ``sitecustomize`` on its path holds the import of one module until the signal comes), says
so on stdout, and only then is it sent SIGINT."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from one_line import default_signals

ROOT = Path(__file__).resolve().parent.parent

HOLD = """
    import os, sys, time

    class Hold:
        # holds the import of one module until a signal arrives (a minute at most)
        def find_spec(self, name, path=None, target=None):
            if name == os.environ["HOLD_IMPORT"]:
                sys.meta_path.remove(self)
                sys.stdout.write("holding\\n")
                sys.stdout.flush()
                time.sleep(60)
            return None

    sys.meta_path.insert(0, Hold())
"""

#: the script pip writes for the console entry point in pyproject.toml (the same lines)
CONSOLE_SCRIPT = """
import re, sys
from _hanasim_entry import main
if __name__ == "__main__":
    sys.argv[0] = re.sub(r"(-script\\.pyw|\\.exe)?$", "", sys.argv[0])
    sys.exit(main())
"""


def _entry_point():
    text = (ROOT / "pyproject.toml").read_text()
    line = next(x for x in text.splitlines() if x.startswith("hanasim = "))
    return line.split('"')[1]


def _interrupted_while_importing(tmp_path, held, how):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(textwrap.dedent(HOLD))
    if how == "python -m hanasim":
        cmd = [sys.executable, "-m", "hanasim", "games"]
    else:
        assert _entry_point() == "_hanasim_entry:main"
        script = tmp_path / "bin" / "hanasim"
        script.parent.mkdir()
        script.write_text(CONSOLE_SCRIPT)
        cmd = [sys.executable, str(script), "games"]
    env = dict(os.environ, PYTHONPATH=f"{site}{os.pathsep}{ROOT}", HOLD_IMPORT=held)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         cwd=tmp_path, preexec_fn=default_signals)
    try:
        assert p.stdout.readline() == "holding\n"  # it is inside the import now
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
        p.wait()
    return p.returncode, err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("how", ["python -m hanasim", "the console script"])
@pytest.mark.parametrize("held", ["numba", "hanasim.cli"])
def test_ctrl_c_while_hanasim_is_imported_is_one_line(tmp_path, held, how):
    code, err = _interrupted_while_importing(tmp_path, held, how)
    assert err == "hanasim: interrupted\n", err
    assert code == 130


def test_a_program_importing_hanasim_still_gets_its_keyboard_interrupt(tmp_path):
    """Only the command turns Ctrl-C into an exit: hanasim loading numba in a program or a
    notebook (``import hanasim`` no longer does; its first function does) raises
    KeyboardInterrupt as any import does, for the program to handle."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(textwrap.dedent(HOLD))
    code = ("try:\n    import hanasim\n    hanasim.simulate\nexcept KeyboardInterrupt:\n"
            "    print('caught', flush=True)\n    raise SystemExit(7)\n")
    env = dict(os.environ, PYTHONPATH=f"{site}{os.pathsep}{ROOT}", HOLD_IMPORT="numba")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
                         preexec_fn=default_signals)
    try:
        assert p.stdout.readline() == "holding\n"
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
        p.wait()
    assert (p.returncode, out, err) == (7, "caught\n", "")
