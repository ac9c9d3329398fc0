#===- autodiff_compare/timing.py - the timed runs -------------------------===#
#
# The timed runs: --reps runs of every route's binary, alternating routes;
# each run times as many calls of each entry point as fill --min-time.
# The results are the medians of the runs.
#
#===----------------------------------------------------------------------===#
import statistics

from .common import Failure


def time_routes(runner, routes, kernels, args, results_file):
    """Appends each run's (primal_s, gradient_s) per kernel to the routes'
    samples."""
    for rep in range(args.reps):
        for r in routes:
            runner.run([r.exe, "time", str(args.max_gradient),
                        repr(args.min_time), args.clock, results_file],
                       "route `%s`: timed run %d" % (r.name, rep + 1),
                       args.timeout, driver=True)
            with open(results_file) as f:
                out = f.read()
            for line in out.splitlines():
                w = line.split()
                if w and w[0] == "time":
                    f = dict(zip(w[2::2], w[3::2]))
                    r.samples.setdefault(w[1], []).append(
                        (float(f["primal_s"]), float(f["gradient_s"])))
        for k in kernels:
            for r in routes:
                if len(r.samples.get(k.name, [])) != rep + 1:
                    raise Failure("route `%s`: the driver timed nothing for "
                                  "`%s`" % (r.name, k.name))


def results(routes, kernels):
    """Median per kernel and route, with the derived numbers."""
    res = []
    for k in kernels:
        after_grad = None
        for r in routes:
            samples = r.samples[k.name]
            primal = statistics.median(s[0] for s in samples)
            grad = statistics.median(s[1] for s in samples)
            if after_grad is None:
                after_grad = grad
            chk = r.check[k.name]
            res.append({
                "kernel": k.name, "route": r.name,
                "primal_s": primal, "gradient_s": grad,
                "ratio": grad / primal if primal > 0 else float("inf"),
                "vs_after": grad / after_grad if after_grad > 0
                else float("inf"),
                "tape_bytes": chk["gradient_heap"],
                "primal_heap_bytes": chk["primal_heap"],
                "kept_bytes": chk["kept"],
                "samples": [{"primal_s": s[0], "gradient_s": s[1]}
                            for s in samples],
            })
    return res
