#===- autodiff_compare/options.py - the command line -----------------------===#
#
# The options, the --help text and the checks of option values. Usage
# errors are argparse's (exit status 2).
#
#===----------------------------------------------------------------------===#
import argparse

from .common import PROG

LEVELS = ("none", "O0", "O1", "O2", "O3")
C_SUFFIXES = (".c",)
CXX_SUFFIXES = (".cpp", ".cc", ".cxx", ".C")
IR_SUFFIXES = (".ll", ".bc")

DESCRIPTION = """\
Benchmark automatic differentiation after optimization against AD before
optimization, on your own C, C++ or LLVM IR file.

Each route builds the file's gradients its own way:
  after      clang -O2 IR                            -> autodiff-opt -O2
  before     clang -O0 -Xclang -disable-O0-optnone IR -> autodiff-opt -O2
  before:OX  the same, with autodiff-opt --pre-opt=OX  (see --pre-opt)
and every route's result is compiled to machine code at the same level.

What is timed: every kernel NAME whose entry points the file defines (not
static; C linkage in C++):
  double primal_NAME(void)                       one call of the function;
                                                 returns any double result
  size_t gradient_NAME(double *grad, size_t cap) one gradient call: writes
                                                 the gradient to grad[0..n)
                                                 (zero it first: the grad
                                                 buffer is reused) and
                                                 returns n <= cap
  void setup_NAME(void)                          optional: runs once per
                                                 process, before the first
                                                 call (fill the inputs)
Both entry points are called many times in a row: each call must do the
same work as the first. A main in the file is renamed (the driver has its
own); the compiles define AUTODIFF_COMPARE=1.

The tool checks that all routes give the same primal result and gradient
(|a-b| <= rtol*max(|a|,|b|) + atol), then prints per kernel and route the
time of one primal call, of one gradient call, their ratio, the factor of
the route's gradient time over that of `after`, and the peak heap bytes a
gradient call allocates above what was live when it started (its tape).
"""

EPILOG = """\
examples:
  autodiff-compare kernels.c
  autodiff-compare kernels.c --pre-opt=none,O1 -DN=4000 --plot out.png
  autodiff-compare kernels.c --kernel logsumexp --reps 3 --min-time 0.05

exit status: 0 all routes built, ran and agreed; 1 a build or run failed,
the results differ, or no kernel was found; 2 a usage error.
"""


def parse_levels(text):
    levels = []
    for item in text.split(","):
        item = item.strip()
        if item not in LEVELS:
            raise argparse.ArgumentTypeError(
                "`%s`: --pre-opt takes a comma-separated list of %s"
                % (item, ", ".join(LEVELS)))
        if item not in levels:
            levels.append(item)
    return levels


def positive_float(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("`%s` is not a number" % text)
    if not v > 0:
        raise argparse.ArgumentTypeError("`%s` must be positive" % text)
    return v


def nonnegative_float(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("`%s` is not a number" % text)
    if not v >= 0:
        raise argparse.ArgumentTypeError("`%s` must not be negative" % text)
    return v


def positive_int(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("`%s` is not an integer" % text)
    if v < 1:
        raise argparse.ArgumentTypeError("`%s` must be at least 1" % text)
    return v


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog=PROG, description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", metavar="FILE",
                    help="a C (.c), C++ (.cpp, .cc, .cxx) or unoptimized "
                         "LLVM IR (.ll, .bc) file with the entry points")
    ap.add_argument("--pre-opt", type=parse_levels, default=["none"],
                    metavar="LIST",
                    help="the `before` routes: a comma-separated list of "
                         "none (no optimization before AD), O0, O1, O2, O3 "
                         "(autodiff-opt --pre-opt=OX); default: none")
    ap.add_argument("-O", dest="opt", default="2",
                    choices=["1", "2", "3", "s", "z"], metavar="LEVEL",
                    help="the optimization level: clang's for the `after` "
                         "route, autodiff-opt's after AD in every route, and "
                         "code generation (-O1, -O2 (default), -O3, -Os, -Oz)")
    ap.add_argument("-D", dest="defines", action="append", default=[],
                    metavar="NAME[=VALUE]", help="a macro for the C/C++ "
                    "compiles (repeatable)")
    ap.add_argument("-I", dest="includes", action="append", default=[],
                    metavar="DIR", help="an include directory (repeatable)")
    ap.add_argument("--cflags", default="", metavar="FLAGS",
                    help="more flags for the compiles to IR (one string, "
                         "split as a shell would)")
    ap.add_argument("--ldflags", default="", metavar="FLAGS",
                    help="more flags for the link, e.g. libraries "
                         "(-lm is always there)")
    ap.add_argument("--kernel", action="append", default=[], metavar="NAME",
                    help="time only this kernel (repeatable); default: all")
    ap.add_argument("--list", action="store_true",
                    help="list the kernels found and exit")
    ap.add_argument("--reps", type=positive_int, default=5, metavar="N",
                    help="timed runs per route, alternating routes; the "
                         "table shows the median (default 5)")
    ap.add_argument("--min-time", type=nonnegative_float, default=0.1,
                    metavar="SECONDS",
                    help="each timed run calls an entry point until this "
                         "much time has passed (default 0.1)")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                    help="process CPU time (default; steadier on a shared "
                         "machine) or wall-clock time")
    ap.add_argument("--rtol", type=float, default=1e-9,
                    help="relative tolerance of the check (default 1e-9)")
    ap.add_argument("--atol", type=float, default=None,
                    help="absolute tolerance of the check (default: 1e-12 "
                         "times the largest |entry| of the `after` gradient)")
    ap.add_argument("--max-gradient", type=positive_int, default=1 << 20,
                    metavar="CAP", help="the cap passed to gradient_NAME: "
                    "room for this many doubles (default 1048576)")
    ap.add_argument("--timeout", type=positive_float, default=600,
                    metavar="SECONDS",
                    help="limit for each compile and run (default 600)")
    ap.add_argument("--plot", metavar="PNG",
                    help="also draw the ratios and tape bytes (matplotlib)")
    ap.add_argument("--json", metavar="FILE",
                    help="also write all measurements as JSON")
    ap.add_argument("--keep", metavar="DIR",
                    help="build in DIR and keep it (the IR of every route, "
                         "the driver, the binaries)")
    ap.add_argument("--clang", metavar="PATH",
                    help="clang to use (default: clang-22)")
    ap.add_argument("--autodiff-opt", metavar="PATH",
                    help="autodiff-opt to use (default: the one next to "
                         "this script, else on PATH)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print each command before running it")
    return ap.parse_args(argv)
