#===- autodiff_compare/check.py - the gradient check ----------------------===#
#
# The check run: every route's binary runs each kernel once and writes its
# primal result and gradient exactly (%a) to the results file; they are
# compared with those of `after` (|a-b| <= rtol*max(|a|,|b|) + atol).
#
#===----------------------------------------------------------------------===#
import math

from .common import Failure
from .report import fmt_bytes


def parse_float(text):
    try:
        return float.fromhex(text)
    except ValueError:
        return float(text)


def parse_check(out, kernels, route):
    """{kernel: {primal, gradient, heap...}} from a driver's check run."""
    lines = out.splitlines()
    result = {}
    i = 0
    while i < len(lines):
        words = lines[i].split()
        i += 1
        if not words:
            continue
        if words[0] == "error":
            raise Failure("route `%s`: gradient_%s: %s" % (
                route.name, words[1], " ".join(words[2:])))
        if words[0] != "kernel":
            continue
        fields = dict(zip(words[2::2], words[3::2]))
        n = int(fields["n"])
        grad = [parse_float(l) for l in lines[i:i + n]]
        i += n
        result[words[1]] = {
            "primal": parse_float(fields["primal"]),
            "primal_heap": int(fields["primal_heap"]),
            "gradient_heap": int(fields["gradient_heap"]),
            "kept": int(fields["kept"]),
            "gradient": grad,
        }
    for k in kernels:
        if k.name not in result:
            raise Failure("route `%s`: the driver printed nothing for `%s`"
                          % (route.name, k.name))
    return result


def close(a, b, rtol, atol):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= rtol * max(abs(a), abs(b)) + atol


def compare(routes, kernels, rtol, atol_arg):
    """Checks every route against `after`; returns a summary per kernel."""
    ref = routes[0]
    summaries = {}
    problems = []
    for k in kernels:
        want = ref.check[k.name]
        g0 = want["gradient"]
        finite = [abs(x) for x in g0 if math.isfinite(x)]
        atol = atol_arg if atol_arg is not None else 1e-12 * max(finite or [0])
        worst = 0.0
        for r in routes[1:]:
            got = r.check[k.name]
            label = "`%s` and `%s`" % (ref.name, r.name)
            if not close(want["primal"], got["primal"], rtol, atol):
                problems.append("%s: the primal results differ between %s: "
                                "%r vs %r" % (k.name, label, want["primal"],
                                              got["primal"]))
            g1 = got["gradient"]
            if len(g0) != len(g1):
                problems.append("%s: gradient_%s returned %d entries in `%s` "
                                "but %d in `%s`" % (k.name, k.name, len(g0),
                                                    ref.name, len(g1), r.name))
                continue
            bad = [i for i in range(len(g0))
                   if not close(g0[i], g1[i], rtol, atol)]
            if bad:
                shown = "".join(
                    "\n    [%d] %s: %r  %s: %r" % (i, ref.name, g0[i], r.name,
                                                   g1[i]) for i in bad[:5])
                more = ("\n    ... and %d more" % (len(bad) - 5)
                        if len(bad) > 5 else "")
                problems.append("%s: the gradients differ between %s in %d of "
                                "%d entries (rtol %g, atol %g):%s%s" % (
                                    k.name, label, len(bad), len(g0), rtol,
                                    atol, shown, more))
                continue
            for a, b in zip(g0, g1):
                if math.isfinite(a) and math.isfinite(b) and a != b:
                    worst = max(worst, abs(a - b) / max(abs(a), abs(b)))
        summaries[k.name] = {"entries": len(g0), "max_rel_diff": worst,
                             "atol": atol,
                             "nonfinite": sum(not math.isfinite(x)
                                              for x in g0)}
    if problems:
        raise Failure("gradient check FAILED:\n" +
                      "\n".join("  " + p for p in problems))
    return summaries


def check_routes(runner, routes, kernels, args, results_file):
    """Runs every route's check run and compares the results; prints a
    line per kernel (and a warning per leaking route). Returns the
    summaries of compare()."""
    for r in routes:
        runner.run([r.exe, "check", str(args.max_gradient), "0",
                    args.clock, results_file],
                   "route `%s`: the check run" % r.name, args.timeout,
                   driver=True)
        with open(results_file) as f:
            r.check = parse_check(f.read(), kernels, r)
    summaries = compare(routes, kernels, args.rtol, args.atol)
    for k in kernels:
        s = summaries[k.name]
        note = ""
        if s["nonfinite"]:
            note = " (%d not finite)" % s["nonfinite"]
        print("gradient check: %s: %d entr%s%s, %d routes agree "
              "(largest relative difference %.2g)" % (
                  k.name, s["entries"], "y" if s["entries"] == 1 else "ies",
                  note, len(routes), s["max_rel_diff"]), flush=True)
        for r in routes:
            kept = r.check[k.name]["kept"]
            if kept > 0:
                print("warning: %s: route `%s`: one gradient call leaves %s "
                      "more allocated than before it (a leak?)" % (
                          k.name, r.name, fmt_bytes(kept)), flush=True)
    return summaries
