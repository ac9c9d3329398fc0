#===- autodiff_compare/build.py - the routes and their builds -------------===#
#
# The routes (`after`, `before`, `before:OX`) and what builds them: the
# unoptimized input module, the timing driver, and per route the IR,
# autodiff-opt, code generation and the link with the driver.
#
#===----------------------------------------------------------------------===#
import os
import re
import shlex

from .common import Failure
from .driver import WRAPPED, WRAPPED_CXX, write_driver


class Route:
    """One way of building the gradients."""

    def __init__(self, name, pre_opt, description):
        self.name = name
        self.pre_opt = pre_opt      # None for `after`, else none/O0..O3
        self.description = description
        self.exe = None
        self.check = None           # {kernel: {...}} from the check run
        self.samples = {}           # {kernel: [(primal_s, gradient_s)]}


def build_routes(args):
    routes = [Route("after", None,
                    "%s -O%s IR -> autodiff-opt -O%s"
                    % (args.input_kind_compiler, args.opt, args.opt))]
    for level in args.pre_opt:
        name = "before" if level == "none" else "before:" + level
        pre = "" if level == "none" else " --pre-opt=" + level
        routes.append(Route(name, level, "%s -O0 -Xclang -disable-O0-optnone "
                            "IR -> autodiff-opt%s -O%s"
                            % (args.input_kind_compiler, pre, args.opt)))
    return routes


# A user's own main is renamed: the driver brings the program's main.
USER_MAIN = re.compile(r"@main(?=[\s(),])")


def rename_main(path):
    with open(path) as f:
        text = f.read()
    renamed = USER_MAIN.sub("@autodiff_compare_user_main", text)
    if renamed != text:
        with open(path, "w") as f:
            f.write(renamed)


class Build:
    """The compiles and links of one run, in the folder `work`."""

    def __init__(self, args, src, is_ir, tools, runner, work):
        self.args = args
        self.src = src
        self.is_ir = is_ir
        self.tools = tools
        self.runner = runner
        self.work = work
        self.timeout = args.timeout
        self.opt = "-O" + args.opt
        self.cflags = (["-DAUTODIFF_COMPARE=1"] +
                       ["-D" + d for d in args.defines] +
                       ["-I" + os.path.abspath(i) for i in args.includes] +
                       shlex.split(args.cflags))
        # What build_routes names as the routes' input.
        args.input_kind_compiler = ("%s -x ir" % os.path.basename(tools.clang)
                                    if is_ir else tools.compiler_name())

    def input_module(self):
        """The unoptimized module: the `before` routes' input, and where
        the kernels are found. Returns its path and its text."""
        runner, tools, src = self.runner, self.tools, self.src
        clang, timeout = tools.clang, self.timeout
        o0 = ["-O0", "-Xclang", "-disable-O0-optnone"]
        base_ll = os.path.join(self.work, "input.O0.ll")
        if self.is_ir:
            runner.run([clang, "-x", "ir", "-S", "-emit-llvm", "-Xclang",
                        "-disable-llvm-passes", src, "-o", base_ll],
                       "reading the IR (clang -x ir)", timeout)
        else:
            runner.run(tools.compiler() + ["-S", "-emit-llvm"] + o0 +
                       self.cflags + [src, "-o", base_ll],
                       "compiling to IR (%s -O0)" % tools.compiler_name(),
                       timeout)
        rename_main(base_ll)
        with open(base_ll) as f:
            ir_text = f.read()
        if self.is_ir and re.search(r"\boptnone\b", ir_text):
            raise Failure("`%s` has optnone functions, which no route could "
                          "optimize: make it with clang -O0 -Xclang "
                          "-disable-O0-optnone" % self.args.input)
        return base_ll, ir_text

    def driver(self, kernels, cxx):
        """Writes and compiles the driver; returns its object and the
        linker's --wrap flags."""
        driver_c = os.path.join(self.work, "driver.c")
        write_driver(driver_c, kernels, cxx)
        driver_o = os.path.join(self.work, "driver.o")
        self.runner.run([self.tools.clang, "-O2", "-c", driver_c, "-o",
                         driver_o], "compiling the timing driver",
                        self.timeout)
        wraps = ",".join("--wrap=" + w for w in
                         WRAPPED + (WRAPPED_CXX if cxx else []))
        return driver_o, wraps

    def route(self, r, base_ll, driver_o, wraps):
        """Builds route `r`'s executable, r.exe."""
        runner, tools, opt = self.runner, self.tools, self.opt
        clang, timeout = tools.clang, self.timeout
        stem = os.path.join(self.work, r.name.replace(":", "-"))
        if r.pre_opt is None:
            ir = stem + ".ll"
            if self.is_ir:
                runner.run([clang, "-x", "ir", opt, "-S", "-emit-llvm",
                            self.src, "-o", ir], "route `after`: optimizing "
                           "the IR (clang %s)" % opt, timeout)
            else:
                runner.run(tools.compiler() + ["-S", "-emit-llvm", opt] +
                           self.cflags + [self.src, "-o", ir],
                           "route `after`: compiling to IR (%s %s)" % (
                               tools.compiler_name(), opt), timeout)
            rename_main(ir)
            ad_in, pre = ir, []
        else:
            ad_in = base_ll
            pre = [] if r.pre_opt == "none" else ["--pre-opt=" + r.pre_opt]
        ad_out = stem + ".ad.ll"
        runner.run([tools.adopt, ad_in] + pre + [opt, "-S", "-o", ad_out],
                   "route `%s`: differentiating (autodiff-opt%s %s)" % (
                       r.name, "".join(" " + p for p in pre), opt), timeout)
        obj = stem + ".o"
        runner.run([clang, "-x", "ir", opt, "-Xclang",
                    "-disable-llvm-optzns", "-c", ad_out, "-o", obj],
                   "route `%s`: code generation" % r.name, timeout)
        r.exe = stem + ".exe"
        runner.run(tools.compiler() + [obj, driver_o, "-o", r.exe,
                                       "-Wl," + wraps, "-lm"] +
                   shlex.split(self.args.ldflags),
                   "route `%s`: linking" % r.name, timeout)
