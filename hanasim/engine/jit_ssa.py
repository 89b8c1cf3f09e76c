"""numba's SSA reconstruction rewrites, for each variable it renames, only the blocks that
mention that variable.

``ssa._run_ssa`` (numba 0.68) renames each variable assigned more than once in two rewrites
of the whole function, one to give each assignment a fresh name and one to point each use at
its reaching definition, and each rewrite runs its handler over every statement of every
block: (variables x statements) handler calls, 7% of a cold compile of Toppa's play kernel
(cProfile and numba's pass timings, 2026-11-26).  A block in which the variable appears
nowhere comes out of both rewrites unchanged (its statements as they were, in a new block
object) and changes no state the rewrites keep, so here it is copied without the handlers;
the blocks that mention it go through numba's own handlers.  Which blocks mention which
variable is read once per function: renaming one variable neither adds nor removes the other
variables' appearances.  Same IR out, so the same compiled code.  Applied only where numba's
module has the shape (the very code) this was written for (``applied`` says whether it was),
else left alone."""
import hashlib

applied = False


def _code_of(ssa, dotted):
    obj = ssa
    for part in dotted.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return getattr(obj, "__code__", None)


def _digest(code):
    """The bytecode and the names it uses, nested code objects included."""
    h = hashlib.sha256()
    todo = [code]
    while todo:
        c = todo.pop()
        h.update(c.co_code)
        h.update(repr(c.co_names).encode())
        h.update(repr(c.co_varnames).encode())
        todo.extend(k for k in c.co_consts if hasattr(k, "co_code"))
    return h.hexdigest()[:16]


def shapes():
    """The digests of this numba's functions, as imported (before the patch replaces
    ``_run_ssa``)."""
    try:
        from numba.core import ssa
    except ImportError:
        return {}
    out = {}
    for name in _WANT:
        code = _code_of(ssa, name)
        out[name] = None if code is None else _digest(code)
    return out


# Digests of the bytecode of the numba functions this replaces or relies on (numba 0.68.1 on
# CPython 3.11): another numba, or another Python, and the patch stays out.
_WANT = {
    "_run_ssa": "f4d8d49a3fbcd276",
    "_fresh_vars": "26a232578f7c240c",
    "_fix_ssa_vars": "b52cdb896508fd09",
    "_run_block_rewrite": "0003620106c6dcb4",
    "_run_ssa_block_pass": "aec9084e711c96a7",
    "_FreshVarHandler.on_assign": "a39cde88d6087d19",
    "_FreshVarHandler.on_other": "ffb9479844b1f140",
    "_FixSSAVars.on_assign": "ceefb5edb25f29a5",
    "_FixSSAVars.on_other": "9ae59bce7e0d93ce",
    "_FixSSAVars._fix_var": "32ca8ed78afbf4ab",
}


def _mention_only_ssa():
    global applied
    try:
        from numba.core import errors, ir, ssa
        from numba.core.analysis import compute_cfg_from_blocks
    except ImportError:
        return
    if shapes() != _WANT:
        return
    numba_run_ssa = ssa._run_ssa

    def rewrite_blocks(blocks, states, handler, where):
        """``ssa._run_block_rewrite`` over the blocks labelled ``where``; the others copied."""
        newblocks = {}
        for label, blk in blocks.items():
            newblk = ir.Block(scope=blk.scope, loc=blk.loc)
            if label in where:
                states["label"] = label
                states["block"] = blk
                newbody = []
                for stmt in ssa._run_ssa_block_pass(states, blk, handler):
                    assert stmt is not None
                    newbody.append(stmt)
                newblk.body = newbody
            else:
                newblk.body = list(blk.body)
            newblocks[label] = newblk
        return newblocks

    def run_ssa(blocks):
        """``ssa._run_ssa``, each variable's two rewrites over the blocks that mention it."""
        if not blocks:
            return {}
        cfg = compute_cfg_from_blocks(blocks)
        df_plus = ssa._iterated_domfronts(cfg)
        violators = ssa._find_defs_violators(blocks, cfg)
        cache_list_vars = ssa._CacheListVars()
        mentions = {}
        for label, blk in blocks.items():
            for stmt in blk.body:
                for var in stmt.list_vars():
                    mentions.setdefault(var.name, set()).add(label)
        for varname in violators:
            where = mentions.get(varname, ())
            # numba's _fresh_vars
            states = ssa._make_states(blocks)
            states["varname"] = varname
            states["defmap"] = defmap = ssa.defaultdict(list)
            blocks = rewrite_blocks(blocks, states, ssa._FreshVarHandler(), where)
            # numba's _fix_ssa_vars
            states = ssa._make_states(blocks)
            states["varname"] = varname
            states["defmap"] = defmap
            states["phimap"] = phimap = ssa.defaultdict(list)
            states["cfg"] = cfg
            states["phi_locations"] = ssa._compute_phi_locations(df_plus, defmap)
            blocks = rewrite_blocks(blocks, states, ssa._FixSSAVars(cache_list_vars), where)
            for label, philist in phimap.items():
                curblk = blocks[label]
                curblk.body = philist + curblk.body
        if compute_cfg_from_blocks(blocks) != cfg:
            raise errors.CompilerError("CFG mutated in SSA pass")
        return blocks

    run_ssa.numba = numba_run_ssa  # numba's own, for the test that compares the two
    ssa._run_ssa = run_ssa
    applied = True


_mention_only_ssa()
