#===- autodiff_compare/toolchain.py - the programs run ---------------------===#
#
# Finds clang-22 (clang++-22 for C++) and autodiff-opt, and runs commands,
# turning a failure into a Failure that shows the command and its output.
#
#===----------------------------------------------------------------------===#
import os
import shlex
import shutil
import signal
import subprocess
import sys

from .common import Failure


def find_tool(explicit, names):
    """`explicit` if given, else the first of `names` (`X-22`) on PATH or
    as `X` in /usr/lib/llvm-22/bin."""
    if explicit:
        path = shutil.which(explicit)
        if not path:
            raise Failure("cannot find `%s`" % explicit)
        return path
    for name in names:
        path = shutil.which(name) or shutil.which(
            name[:-3] if name.endswith("-22") else name,
            path="/usr/lib/llvm-22/bin")
        if path:
            return path
    raise Failure("cannot find %s (install clang-22, or give its path)"
                  % " or ".join("`%s`" % n for n in names))


def find_autodiff_opt(explicit):
    if explicit:
        return find_tool(explicit, [])
    # The folder of the `autodiff-compare` script: this package's parent.
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    for cand in (os.path.join(here, "autodiff-opt"),
                 os.path.join(here, "..", "..", "build", "bin",
                              "autodiff-opt")):
        if os.access(cand, os.X_OK):
            return os.path.normpath(cand)
    path = shutil.which("autodiff-opt")
    if path:
        return path
    raise Failure("cannot find autodiff-opt next to this script or on PATH "
                  "(give it with --autodiff-opt)")


class Tools:
    """The programs the routes run."""

    def __init__(self, args, cxx):
        self.clang = find_tool(args.clang, ["clang-22"])
        self.adopt = find_autodiff_opt(args.autodiff_opt)
        self.cxx = None
        if cxx:
            self.use_cxx(args)

    def use_cxx(self, args):
        """C++ compiles and links: clang++-22, or the given clang in g++
        mode."""
        if self.cxx:
            return
        path = None if args.clang else (shutil.which("clang++-22") or
                                        shutil.which("clang++", path=
                                                     "/usr/lib/llvm-22/bin"))
        self.cxx = [path] if path else [self.clang, "--driver-mode=g++"]

    def compiler(self):
        return self.cxx or [self.clang]

    def compiler_name(self):
        return " ".join(os.path.basename(c) if i == 0 else c
                        for i, c in enumerate(self.compiler()))


class Runner:
    """Runs the build commands, echoing them with -v."""

    def __init__(self, verbose, work, kept):
        self.verbose = verbose
        self.work = work
        # Failures name files in `work`: say how to keep them.
        self.hint = "" if kept else ("\n  (the build folder is deleted; "
                                     "--keep DIR keeps the files)")

    def run(self, cmd, what, timeout=None, driver=False):
        """stdout of `cmd`; a Failure naming `what` if it fails. For the
        driver, the failure names the kernel it was running (the driver
        writes `autodiff-compare-driver: kernel NAME` to stderr before each)
        and shows the rest of stderr only."""
        if self.verbose:
            print("+ " + shlex.join(cmd), file=sys.stderr)
        try:
            r = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=timeout, cwd=self.work)
            code, stdout, stderr = r.returncode, r.stdout, r.stderr
            how = None
        except subprocess.TimeoutExpired as e:
            code, how = None, "timed out after %g s" % timeout
            stdout = (e.stdout or b"").decode(errors="replace")
            stderr = (e.stderr or b"").decode(errors="replace")
        except OSError as e:
            raise Failure("%s: cannot run `%s`: %s" % (what, cmd[0], e))
        if code == 0:
            return stdout
        if how is None and code < 0:
            try:
                how = "killed by %s" % signal.Signals(-code).name
            except ValueError:
                how = "killed by signal %d" % -code
        elif how is None:
            how = "exit status %d" % code
        if driver:
            lines = []
            for line in stderr.splitlines():
                if line.startswith("autodiff-compare-driver: kernel "):
                    what = "%s, kernel `%s`," % (what, line.split()[2])
                else:
                    lines.append(line)
            if code == -signal.SIGSEGV:
                lines.append("(a gradient_NAME that writes past `cap` "
                             "entries stops here too: see --max-gradient)")
        else:
            lines = (stderr + stdout).rstrip().splitlines()
        if len(lines) > 40:
            lines = lines[:40] + ["... (%d more lines)" % (len(lines) - 40)]
        raise Failure("%s failed (%s)\n  command: %s%s%s" % (
            what, how, shlex.join(cmd), "".join("\n  " + l for l in lines),
            self.hint))
