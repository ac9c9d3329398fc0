# The shell commands the documentation tells a user to type run as
# written: every ```sh / ```bash / ```shell block and every `$ ` line of a
# ```console block in README.md and docs/*.md, and the EXAMPLES of
# `autodiff-opt --help`. Each block runs with bash -euo pipefail in a fresh
# directory laid out like the repository after a build (a copy of
# examples/, build/bin and build/lib from this build), with the build's own
# tool directories off PATH, so that `build/bin/autodiff-opt`, `clang-22`
# and `opt-22` work as they do for a user and a bare `autodiff-opt` or
# `clang` (LLVM 14 on Debian) would not. The --help examples name the tool
# as installed, `autodiff-opt`, and run with build/bin on PATH.
#
# A block that cannot run here (it installs packages or builds the project)
# is preceded by a line `<!-- doc-commands: not run (REASON) -->`.
#
# UNSUPPORTED: sanitizers
# RUN: %python %s --src %S/../../.. --autodiff-opt %autodiff-opt --plugin %plugin --clang %clang --work %t

import argparse
import os
import re
import shutil
import subprocess
import sys
import textwrap

SHELLS = ("sh", "bash", "shell")
SKIP = re.compile(r"<!-- doc-commands: not run \(([^)]+)\) -->\s*$")
# Fewest runnable blocks expected, so that a broken extraction cannot pass.
MINIMUM = {"README.md": 6, os.path.join("docs", "user-guide.md"): 3,
           "autodiff-opt --help": 1}


def blocks(text):
    """(line number, script, skip reason or None) per shell/console block."""
    out = []
    fence = re.compile(r"^([ \t]*)```(\w+)[^\n]*\n(.*?)^\1```", re.M | re.S)
    for m in fence.finditer(text):
        lang = m.group(2)
        if lang not in SHELLS and lang != "console":
            continue
        code = textwrap.dedent(m.group(3))
        if lang == "console":
            code = "\n".join(l[2:] for l in code.splitlines()
                             if l.startswith("$ ")) + "\n"
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        skip = SKIP.search(before)
        line = text.count("\n", 0, m.start()) + 1
        out.append((line, code, skip.group(1) if skip else None))
    return out


def help_examples(autodiff_opt):
    """The commands under EXAMPLES in `autodiff-opt --help`."""
    text = subprocess.run([autodiff_opt, "--help"], capture_output=True,
                          text=True, check=True).stdout
    m = re.search(r"^EXAMPLES[^\n]*\n((?:[ \t]+\S[^\n]*\n)+)", text, re.M)
    if not m:
        return []
    return [(0, textwrap.dedent(m.group(1)), None)]


def workspace(root, args, name):
    """A fresh directory laid out like the repository after a build."""
    work = os.path.join(args.work, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "build"))
    shutil.copytree(os.path.join(root, "examples"),
                    os.path.join(work, "examples"))
    os.symlink(os.path.dirname(os.path.abspath(args.autodiff_opt)),
               os.path.join(work, "build", "bin"))
    os.symlink(os.path.dirname(os.path.abspath(args.plugin)),
               os.path.join(work, "build", "lib"))
    return work


def user_path(args, with_bin):
    """PATH without this build's tool directories (and with build/bin when
    the commands name the installed tool)."""
    hidden = {os.path.realpath(os.path.dirname(p))
              for p in (args.autodiff_opt, args.clang)}
    kept = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and os.path.realpath(d) not in hidden]
    if with_bin:
        kept.insert(0, os.path.dirname(os.path.abspath(args.autodiff_opt)))
    return os.pathsep.join(kept)


def main():
    ap = argparse.ArgumentParser()
    for a in ("--src", "--autodiff-opt", "--plugin", "--clang", "--work"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    root = os.path.abspath(args.src)
    docs = ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(root, "docs"))
        if f.endswith(".md"))
    sources = []
    for doc in docs:
        with open(os.path.join(root, doc)) as f:
            sources.append((doc, blocks(f.read()), False))
    sources.append(("autodiff-opt --help", help_examples(args.autodiff_opt),
                    True))

    failures = 0
    for doc, found, with_bin in sources:
        ran = 0
        for i, (line, script, skip) in enumerate(found):
            where = "%s:%d" % (doc, line) if line else doc
            if skip:
                print("%s: not run (%s)" % (where, skip))
                continue
            name = re.sub(r"\W+", "_", doc) + "_%d" % i
            env = dict(os.environ, PATH=user_path(args, with_bin))
            r = subprocess.run(["bash", "-euo", "pipefail", "-c", script],
                               cwd=workspace(root, args, name), env=env,
                               capture_output=True, text=True, timeout=600)
            ran += 1
            if r.returncode == 0:
                print("%s: ok" % where)
                continue
            failures += 1
            print("%s: FAILED (exit %d)\n--- commands\n%s--- stdout\n%s"
                  "--- stderr\n%s" % (where, r.returncode, script, r.stdout,
                                      r.stderr))
        if ran < MINIMUM.get(doc, 0):
            failures += 1
            print("%s: expected at least %d runnable command blocks, found %d"
                  % (doc, MINIMUM[doc], ran))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
