"""The round's calls into the lookahead, declared here so that ``round`` does not import
``lookahead`` (which plays rollouts with ``round``): ``lookahead`` overloads each of these
(``numba.extending.overload``) with its kernel; kernels without a lookahead player never reach
them (numba prunes the branch).  Run as plain Python, each calls the kernel directly."""


def look_turn(st, order, rng, tb, seat, k, look):
    """``lookahead.look_turn``."""
    from .lookahead import look_turn as f
    return f(st, order, rng, tb, seat, k, look)


def look_continue(st, order, rng, tb, seat, k, look):
    """``lookahead.look_continue``."""
    from .lookahead import look_continue as f
    return f(st, order, rng, tb, seat, k, look)


def look_declare(st, order, rng, tb, seat, k, look, other_known, other_declared, other_bits):
    """``lookahead.look_declare``."""
    from .lookahead import look_declare as f
    return f(st, order, rng, tb, seat, k, look, other_known, other_declared, other_bits)
