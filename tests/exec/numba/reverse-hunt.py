# Numba -> LLVM IR -> reverse mode -> executable.
#
# The seed report (a garbage reverse gradient of a @cfunc wrapper) as a
# test: the reverse gradient of the cfunc wrapper of mul(a, b) = a * b and
# of the inner function it calls through a stack return pointer; an @njit
# function over an array, differentiated both through a cfunc wrapper
# (carray over a raw pointer, the njit body inlined) and directly, in
# Numba's array calling convention (meminfo, parent, nitems, itemsize,
# data, shape, strides: only data is active); a cfunc with a
# data-dependent loop and an output array; cfuncs with array temporaries
# (np.zeros, array expressions: Numba runtime MemInfos). Each module is dumped with
# inspect_llvm() in a child process, linked with Inputs/hunt_reverse_driver.c,
# differentiated, linked with abort() stubs for the CPython/Numba symbols on
# error paths, and run, with Numba's default optimization;
# reverse-hunt-opt0.py runs it with --numba-opt 0.
#
# REQUIRES: numba
# RUN: %python-numba %s --clang %clang --autodiff-opt %autodiff-opt --testlib %testlib --inputs %S/Inputs --work %t

import argparse
import os
import re
import subprocess
import sys


def build_functions():
    import numpy as np
    from numba import carray, cfunc, njit, types

    f64 = types.float64
    pf64 = types.CPointer(types.float64)

    @cfunc(f64(f64, f64))
    def mul(a, b):
        return a * b

    @njit
    def energy(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * a[i] * np.sin(a[i])
        return s

    @cfunc(f64(pf64, types.intc))
    def energy_c(p, n):
        return energy(carray(p, (n,)))

    @cfunc(f64(pf64, pf64, types.intc))
    def clipped(p, q, n):
        # q_i = tanh(p_i) while the running sum stays below 3; stops there
        a = carray(p, (n,))
        o = carray(q, (n,))
        s = 0.0
        i = 0
        while i < n:
            if a[i] < 0.0:
                o[i] = 0.0
                i += 1
                continue
            o[i] = np.tanh(a[i]) * a[i]
            s += o[i]
            if s > 3.0:
                break
            i += 1
        return s * s

    @cfunc(f64(pf64, types.intc))
    def cubes_tmp(p, n):
        # a temporary array (an NRT MemInfo) written, then read
        a = carray(p, (n,))
        t = np.zeros(n)
        for i in range(n):
            t[i] = a[i] * a[i]
        s = 0.0
        for i in range(n):
            s += t[i] * a[i]
        return s

    @cfunc(f64(pf64, types.intc))
    def cubes_expr(p, n):
        # array expressions: temporaries made and freed by Numba itself
        a = carray(p, (n,))
        return np.sum(a * a * a)

    @cfunc(f64(pf64, types.intc))
    def explog_expr(p, n):
        # at Numba's default optimization, jump threading duplicates a
        # temporary onto the path where the loop filling it does not run
        a = carray(p, (n,))
        b = np.exp(a) * np.log(1.0 + a * a)
        return np.sum(b * a)

    @cfunc(f64(pf64, types.intc))
    def where_expr(p, n):
        # np.where's temporaries: scalar replacement of the derivative's
        # copy turns a pair of array pointers into a <2 x ptr> vector
        a = carray(p, (n,))
        b = np.where(a > 0.0, a * a, -a)
        return np.sum(b * np.exp(-a))

    energy(np.ones(3))  # compiles energy for array(float64, 1d, C)
    return {"mul": mul, "energy_c": energy_c, "clipped": clipped,
            "energy": energy, "cubes_tmp": cubes_tmp,
            "cubes_expr": cubes_expr, "explog_expr": explog_expr,
            "where_expr": where_expr}


def inner_name(ir, wrapper):
    """The function the cfunc wrapper calls through its stack retptr."""
    m = re.search(r'^define [^@]*@"?' + re.escape(wrapper) + r'"?\(.*?^}',
                  ir, re.M | re.S)
    if not m:
        raise SystemExit("wrapper %s not found" % wrapper)
    calls = re.findall(r'call i32 @"?([\w.$]+)"?\(', m.group(0))
    if len(calls) != 1:
        raise SystemExit("expected one inner call in %s, found %r"
                         % (wrapper, calls))
    return calls[0]


def dump(outdir):
    """Writes NAME.ll and names.txt (NAME symbol...)."""
    os.makedirs(outdir, exist_ok=True)
    lines = []
    for name, fn in build_functions().items():
        if name == "energy":
            # the @njit function in Numba's own calling convention
            (ir,) = fn.inspect_llvm().values()
            m = re.search(r'^define i32 @"?(_ZN[\w.$]*energy[\w.$]*)"?\(',
                          ir, re.M)
            if not m:
                raise SystemExit("njit energy not found")
            sym = m.group(1)
            lines.append("%s %s %s" % (name, sym, sym))
        else:
            ir = fn.inspect_llvm()
            lines.append("%s %s %s" % (name, fn.native_name,
                                       inner_name(ir, fn.native_name)))
        with open(os.path.join(outdir, name + ".ll"), "w") as f:
            f.write(ir)
    with open(os.path.join(outdir, "names.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


STUB_RE = re.compile(r"^(Py|_Py|numba_|NRT_)")
NRT_REAL = {"NRT_MemInfo_alloc_safe_aligned", "NRT_incref", "NRT_decref",
            "NRT_MemInfo_call_dtor"}


def stubs_for(ir):
    """C definitions for the CPython/Numba symbols the IR leaves undefined."""
    out = ["#include <stdlib.h>"]
    for m in re.finditer(r'^declare [^@]*@"?([\w.$]+)"?\(', ir, re.M):
        if STUB_RE.match(m.group(1)) and m.group(1) not in NRT_REAL:
            out.append("void %s(void) { abort(); }" % m.group(1))
    for m in re.finditer(r'^@"?([\w.$]+)"? = external global', ir, re.M):
        if STUB_RE.match(m.group(1)):
            out.append("char %s;" % m.group(1))
    return "\n".join(out) + "\n"


def run(cmd, what, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, **kw)
    if r.returncode != 0:
        print("FAILED in %s: %s" % (what, " ".join(cmd)))
        print(r.stdout[:20000])
        return None
    return r.stdout


def check_level(args, label, env_opt):
    work = os.path.join(args.work, label)
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ)
    if env_opt is not None:
        env["NUMBA_OPT"] = env_opt
    else:
        env.pop("NUMBA_OPT", None)
    if run([sys.executable, __file__, "--dump", work], "numba dump",
           env=env) is None:
        return False
    names = [l.split() for l in open(os.path.join(work, "names.txt"))]
    with open(os.path.join(work, "numba_names.h"), "w") as f:
        for name, cf, inner in names:
            f.write('#define %s_CFUNC "%s"\n' % (name.upper(), cf))
            f.write('#define %s_INNER "%s"\n' % (name.upper(), inner))
    tools = os.path.dirname(args.clang)
    llvm_link = os.path.join(tools, "llvm-link")
    drv = os.path.join(work, "driver.ll")
    if run([args.clang, "-S", "-emit-llvm", "-O0", "-Xclang",
            "-disable-O0-optnone", "-I" + args.testlib, "-I" + work,
            os.path.join(args.inputs, "hunt_reverse_driver.c"), "-o", drv],
           "compile driver") is None:
        return False
    linked = os.path.join(work, "linked.ll")
    # energy.ll and energy_c.ll both define NRT_decref (linkonce_odr)
    if run([llvm_link, "-S", drv] +
           [os.path.join(work, n + ".ll") for n, _, _ in names] +
           ["-o", linked], "llvm-link") is None:
        return False
    ad = os.path.join(work, "ad.ll")
    if run([args.autodiff_opt, linked, "-O2", "-o", ad],
           "autodiff-opt") is None:
        return False
    stubs = os.path.join(work, "stubs.c")
    with open(stubs, "w") as f:
        f.write(stubs_for(open(ad).read()))
    exe = os.path.join(work, "driver")
    if run([args.clang, "-Wno-override-module", ad, stubs,
            os.path.join(args.inputs, "nrt.c"), "-o", exe, "-lm"],
           "link") is None:
        return False
    out = run([exe], "run", timeout=60)
    if out is None:
        return False
    print("%s: %s" % (label, out.strip().splitlines()[-1]))
    return True


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dump")
    p.add_argument("--clang")
    p.add_argument("--autodiff-opt")
    p.add_argument("--testlib")
    p.add_argument("--inputs")
    p.add_argument("--work")
    p.add_argument("--numba-opt", default=None)
    args = p.parse_args()
    if args.dump:
        dump(args.dump)
        return 0
    label = ("numba-opt%s" % args.numba_opt if args.numba_opt is not None
             else "numba-default")
    if not check_level(args, label, args.numba_opt):
        print("%s: FAILED" % label)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
