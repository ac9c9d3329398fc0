#===- autodiff_compare/kernels.py - the entry points -----------------------===#
#
# Finds the kernels in the unoptimized module: each NAME with
# `double primal_NAME(void)` and `size_t gradient_NAME(double *, size_t)`
# defined (and optionally `void setup_NAME(void)`), with their signatures
# and linkage checked.
#
#===----------------------------------------------------------------------===#
import re

from .common import Failure


class Kernel:
    """A kernel NAME: primal_NAME, gradient_NAME and maybe setup_NAME."""

    def __init__(self, name, has_setup):
        self.name = name
        self.has_setup = has_setup


DEFINE = re.compile(
    r'^define\s+(?P<pre>[^@]*?)\s*@"?(?P<name>[A-Za-z_$.][\w$.]*)"?\((?P<params>[^)]*)\)',
    re.M)


def discover(ir_text, only):
    """The kernels NAME with primal_NAME and gradient_NAME defined."""
    defs = {}
    for m in DEFINE.finditer(ir_text):
        defs[m.group("name")] = (m.group("pre"), m.group("params"))
    problems = []

    def signature_ok(fn, ret, params):
        pre, got = defs[fn]
        words = pre.split()
        if "internal" in words or "private" in words:
            problems.append("`%s` is static: the entry points must have "
                            "external linkage" % fn)
            return False
        types = [p.split()[0] for p in got.split(",") if p.strip()]
        if not words or words[-1] != ret or types != params:
            problems.append("`%s` has the wrong signature: expected %s" % (
                fn, {"double": "double %s(void)" % fn,
                     "void": "void %s(void)" % fn,
                     "i64": "size_t %s(double *grad, size_t cap)" % fn}[ret]))
            return False
        return True

    names = []
    for fn in defs:
        for prefix in ("primal_", "gradient_"):
            if fn.startswith(prefix) and len(fn) > len(prefix):
                name = fn[len(prefix):]
                if name not in names:
                    names.append(name)
    kernels = []
    for name in names:
        p, g, s = "primal_" + name, "gradient_" + name, "setup_" + name
        if p not in defs:
            problems.append("`%s` has no `double %s(void)`" % (g, p))
            continue
        if g not in defs:
            problems.append("`%s` has no `size_t %s(double *grad, size_t "
                            "cap)`" % (p, g))
            continue
        ok = signature_ok(p, "double", [])
        ok = signature_ok(g, "i64", ["ptr", "i64"]) and ok
        if s in defs:
            ok = signature_ok(s, "void", []) and ok
        if ok:
            kernels.append(Kernel(name, s in defs))
    if problems:
        raise Failure("the entry points are malformed:\n" +
                      "\n".join("  " + p for p in problems))
    if not kernels:
        raise Failure("no kernel found: define `double primal_NAME(void)` "
                      "and `size_t gradient_NAME(double *grad, size_t cap)` "
                      "(see --help)")
    if only:
        known = {k.name for k in kernels}
        missing = [n for n in only if n not in known]
        if missing:
            raise Failure("no kernel %s (found: %s)" % (
                ", ".join("`%s`" % n for n in missing),
                ", ".join(k.name for k in kernels)))
        kernels = [k for k in kernels if k.name in only]
    return kernels
