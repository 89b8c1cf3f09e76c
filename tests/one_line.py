"""The check every command-line failure test shares: exactly one line on stderr, no
traceback, the exit code asked for, and the words asked for in that line."""


def one_line(r, *words, code=2):
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert r.returncode == code, r.stderr
    assert "Traceback" not in r.stderr and len(lines) == 1, r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def default_signals():
    """``preexec_fn`` for a child a test sends signals to: SIGINT, SIGTERM and SIGHUP at their
    defaults, whatever the test process inherited (a pytest-xdist worker can run with SIGINT
    and SIGHUP ignored, and a child inherits ignored signals: hanasim rightly leaves an ignored
    signal ignored, so the test would not exercise what it means to)."""
    import signal

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        signal.signal(getattr(signal, name), signal.SIG_DFL)
