#===- autodiff_compare/main.py - a run from start to end ------------------===#
#
# main(): the command line, the work folder, and the run in its steps:
# the input module and its kernels, the routes' builds, the check run, the
# timed runs and the report. Exit status: 0 when every route built, ran
# and agreed; 1 on a build or run failure, a gradient or primal mismatch,
# or no kernel; 2 on a usage error.
#
#===----------------------------------------------------------------------===#
import os
import re
import tempfile

from .build import Build, build_routes
from .check import check_routes
from .common import Failure, error
from .kernels import discover
from .options import C_SUFFIXES, CXX_SUFFIXES, IR_SUFFIXES, parse_args
from .report import plot, print_report, write_json
from .timing import results, time_routes
from .toolchain import Runner, Tools


def main(argv):
    args = parse_args(argv)
    src = os.path.abspath(args.input)
    if not os.path.isfile(src):
        error("cannot read `%s`" % args.input)
        return 1
    suffix = os.path.splitext(src)[1]
    if suffix not in C_SUFFIXES + CXX_SUFFIXES + IR_SUFFIXES:
        error("`%s`: expected a .c, .cpp/.cc/.cxx, .ll or .bc file"
              % args.input)
        return 2
    is_ir = suffix in IR_SUFFIXES
    try:
        tools = Tools(args, suffix in CXX_SUFFIXES)
        if args.keep:
            work = os.path.abspath(args.keep)
            os.makedirs(work, exist_ok=True)
            cleanup = None
        else:
            cleanup = tempfile.TemporaryDirectory(prefix="autodiff-compare.")
            work = cleanup.name
        try:
            return run_all(args, src, is_ir, tools, work)
        finally:
            if cleanup:
                cleanup.cleanup()
    except Failure as e:
        error(str(e))
        return 1
    except KeyboardInterrupt:
        error("interrupted")
        return 130


def run_all(args, src, is_ir, tools, work):
    """The run in the folder `work`; its exit status."""
    runner = Runner(args.verbose, work, bool(args.keep))
    build = Build(args, src, is_ir, tools, runner, work)
    base_ll, ir_text = build.input_module()
    kernels = discover(ir_text, args.kernel)
    if args.list:
        for k in kernels:
            print(k.name + (" (with setup)" if k.has_setup else ""))
        return 0
    if re.search(r"@_Zn[wa]m|@__gxx_personality_v0", ir_text):
        tools.use_cxx(args)
    cxx = tools.cxx is not None

    routes = build_routes(args)
    print("%s: %d kernel%s (%s), %d routes" % (
        os.path.basename(src), len(kernels), "" if len(kernels) == 1 else "s",
        ", ".join(k.name for k in kernels), len(routes)), flush=True)

    driver_o, wraps = build.driver(kernels, cxx)
    for r in routes:
        build.route(r, base_ll, driver_o, wraps)

    results_file = os.path.join(work, "results.txt")
    summaries = check_routes(runner, routes, kernels, args, results_file)
    time_routes(runner, routes, kernels, args, results_file)

    res = results(routes, kernels)
    print_report(res, routes, args)
    if args.json:
        write_json(args.json, args, routes, summaries, res)
    if args.plot:
        plot(args.plot, res, routes, kernels,
             "%s: AD after vs before optimization" % os.path.basename(src))
        print("plot: %s" % args.plot)
    return 0
