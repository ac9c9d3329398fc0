# The complete C programs in docs/user-guide.md (its ```c blocks with a
# `main`) are compiled with clang-22 at -O0 (no optnone) and -O2,
# differentiated with autodiff-opt and, separately, through the clang
# plugin, linked, run, and their output compared with what the snippet says
# it prints (`/* prints "..." */` comments, in order). Keeps the documented
# registrations honest.
#
# UNSUPPORTED: sanitizers
# RUN: %python %s --doc %S/../../../docs/user-guide.md --clang %clang --autodiff-opt %autodiff-opt --plugin %plugin --work %t

import argparse
import os
import re
import subprocess
import sys
import textwrap

LEVELS = [["-O0", "-Xclang", "-disable-O0-optnone"], ["-O2"]]


def snippets(doc):
    """The C blocks with a main function, dedented, in document order."""
    out = []
    for m in re.finditer(r"^([ \t]*)```c\n(.*?)^\1```", doc, re.M | re.S):
        code = textwrap.dedent(m.group(2))
        if "int main(" in code:
            out.append(code)
    return out


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s%s" %
                           (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    for a in ("--doc", "--clang", "--autodiff-opt", "--plugin", "--work"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    with open(args.doc) as f:
        blocks = snippets(f.read())
    failures = 0
    for i, code in enumerate(blocks):
        expected = "\n".join(re.findall(r'prints "([^"]*)"', code)) + "\n"
        src = os.path.join(args.work, "snippet%d.c" % i)
        with open(src, "w") as f:
            f.write(code)
        for level in LEVELS:
            stem = os.path.join(args.work, "snippet%d%s" % (i, level[0]))
            try:
                run([args.clang, "-std=c11", "-Wall", "-Werror", "-S",
                     "-emit-llvm"] + level + [src, "-o", stem + ".ll"])
                run([args.autodiff_opt, stem + ".ll", "-o", stem + ".ad.ll"])
                run([args.clang, stem + ".ad.ll", "-o", stem + ".exe", "-lm"])
                outputs = [run([stem + ".exe"])]
                run([args.clang, "-std=c11", "-fpass-plugin=" + args.plugin]
                    + level + [src, "-o", stem + ".plugin.exe", "-lm"])
                outputs.append(run([stem + ".plugin.exe"]))
                for got in outputs:
                    if got != expected:
                        raise RuntimeError("printed %r, the guide says %r" %
                                           (got, expected))
                print("snippet %d at %s: ok" % (i, level[0]))
            except RuntimeError as e:
                failures += 1
                print("snippet %d at %s: FAILED\n%s\n%s" %
                      (i, level[0], e, code))
    if len(blocks) < 4:
        print("expected at least 4 complete C programs in the guide, found %d"
              % len(blocks))
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
