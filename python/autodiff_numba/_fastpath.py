"""The derivative as a Numba dispatcher (`derivative.jit`).

`_Derivative.__call__` is Python: it finds the compiled derivative and calls
it through ctypes, about 1 us a call. `derivative.jit` is a function
compiled by Numba (`numba.generated_jit`) that calls the compiled
derivative's address directly: Numba's own dispatcher picks the
specialization, so a call costs about what an `@njit` call costs, and it
can be called from other `@njit` code. Reverse mode: it takes the
arguments positionally and returns what the derivative returns without
`shadows=` (active arrays get fresh zeroed gradient arrays). Forward mode:
the arguments, then a tangent for each parameter not named constant (a
number for a scalar, ignored for an integer; an array for an array), and
it returns the directional derivative (with val_and_grad, the value and
the derivative). Arrays of other layouts go in as C-contiguous copies.
"""
import ctypes


def _contiguous(a, name, copied, writable, lines, back):
    """The name the call passes for array argument `a`: a C-contiguous copy
    (made in `lines`, written back in `back` when writable) for an array
    of another layout, else the argument itself."""
    if a.index not in copied:
        return name
    lines.append("    c%d = np.ascontiguousarray(%s)" % (a.index, name))
    if a.index in writable:
        back.append("    %s[%s] = c%d" % (name, ", ".join([":"] * a.ndim),
                                          a.index))
    return "c%d" % a.index


def _raise_lines(plan):
    """After the call: when the function raised inside the derivative
    (status `st` set), run it again on copies of the arrays (`inner`, the
    function's own dispatcher) so that its exception is raised here."""
    again = ", ".join("a%d.copy()" % a.index if a.array else "a%d" % a.index
                      for a in plan)
    return ["    if st[0] != 0:",
            "        inner(%s)" % again,
            "        raise RuntimeError('the function raised an exception "
            "inside the derivative')"]


def _impl_source(plan, count, val_and_grad, copied=(), writable=()):
    """The implementation's source for one argument plan: `fn` is the
    compiled derivative (arrays as data pointer, shadow, shape; then the
    scalar results' buffer). Arrays numbered in `copied` (not C-contiguous)
    go in as C-contiguous copies, written back after the call when in
    `writable`."""
    params = ["a%d" % a.index for a in plan]
    lines, call, grads, back = [], [], [], []
    for a in plan:
        name = "a%d" % a.index
        if not a.array:
            call.append(name)
            if a.active:
                grads.append(None)  # from the buffer, in order
            continue
        name = _contiguous(a, name, copied, writable, lines, back)
        call.append("%s.ctypes.data" % name)
        if a.active:
            lines.append("    d%d = np.zeros_like(%s)" % (a.index, name))
            call.append("d%d.ctypes.data" % a.index)
            grads.append("d%d" % a.index)
        call += ["%s.shape[%d]" % (name, k) for k in range(a.ndim)]
    # (The status word after the results, in the same buffer.)
    lines.append("    out = np.empty(%d)" % (max(count, 1) + 1))
    lines.append("    st = out[%d:].view(np.int32)" % max(count, 1))
    lines.append("    st[0] = 0")
    lines.append("    fn(%s)" % ", ".join(call + ["out.ctypes.data",
                                                  "st.ctypes.data"]))
    lines += back
    lines += _raise_lines(plan)
    slot = 1 if val_and_grad else 0
    results = []
    for g in grads:
        if g is None:
            results.append("out[%d]" % slot)
            slot += 1
        else:
            results.append(g)
    grad = results[0] if len(results) == 1 else "(%s,)" % ", ".join(results)
    value = "out[0]" if val_and_grad else None
    lines.append("    return %s" % ("(%s, %s)" % (value, grad) if value else grad))
    return "def impl(%s):\n%s\n" % (", ".join(params), "\n".join(lines))


def _forward_impl_source(plan, tangent_of, val_and_grad, copied, writable):
    """Forward mode: the arguments, then one tangent per parameter not
    named constant (`tangent_of`: parameter index -> tangent parameter
    name; ignored for integers). `fn` takes each active argument followed
    by its tangent (arrays: data pointer, tangent pointer, shape) and
    returns the directional derivative (with val_and_grad: writes the value
    and the derivative to a buffer of two doubles)."""
    params = ["a%d" % a.index for a in plan] + list(tangent_of.values())
    lines, call, back = [], [], []
    for a in plan:
        name = "a%d" % a.index
        tangent = tangent_of.get(a.index)
        if not a.array:
            call.append(name)
            if a.active:
                call.append(tangent)
            continue
        name = _contiguous(a, name, copied, writable, lines, back)
        call.append("%s.ctypes.data" % name)
        if a.active:
            lines.append("    u%d = np.ascontiguousarray(%s).astype(%s.dtype)"
                         % (a.index, tangent, name))
            # (A tangent of another shape would be read past its end.)
            lines.append("    if u%d.shape != %s.shape:" % (a.index, name))
            lines.append("        raise ValueError('the tangent of an array "
                         "argument must have its shape')")
            call.append("u%d.ctypes.data" % a.index)
        call += ["%s.shape[%d]" % (name, k) for k in range(a.ndim)]
    lines.append("    st = np.zeros(1, np.int32)")
    if val_and_grad:  # {value, derivative} from the one call, into `out`
        lines.append("    out = np.empty(2)")
        lines.append("    fn(%s)" % ", ".join(call + ["out.ctypes.data",
                                                      "st.ctypes.data"]))
        lines += back
        lines += _raise_lines(plan)
        lines.append("    return (out[0], out[1])")
    else:
        lines.append("    r = fn(%s)" % ", ".join(call + ["st.ctypes.data"]))
        lines += back
        lines += _raise_lines(plan)
        lines.append("    return r")
    return "def impl(%s):\n%s\n" % (", ".join(params), "\n".join(lines))


def make_dispatcher(derivative):
    """A `numba.generated_jit` function for `derivative` (reverse mode:
    its arguments; forward mode: its arguments, then one tangent per
    parameter not named constant)."""
    import numba
    import numpy as np
    n = len(derivative.params)
    forward = derivative.mode == "forward"
    tangent_of = {k: "t%d" % k for k, name in enumerate(derivative.params)
                  if forward and name not in derivative.const}

    def generate(*given):
        # Arrays of other layouts (Fortran order, strided views) are
        # differentiated as C-contiguous and passed as copies.
        given = given[:n]
        types = derivative.accepted_types(given)
        copied = {k for k, t in enumerate(given)
                  if isinstance(t, numba.types.Array) and t.layout != "C"}
        writable = {k for k in copied if given[k].mutable}
        entry = derivative.cache.get(types)
        if entry is None:
            entry = derivative.cache[types] = derivative._compile(types)
        _, fn, count, plan, _, _ = entry
        # The same derivative, every pointer (the results' buffer too) as
        # c_void_p, which Numba passes from an array's `.ctypes.data`.
        args = []
        for a in plan:
            shadow = a.active and (a.array or forward)
            params = a.ctypes_params(with_shadow=shadow)
            args += [ctypes.c_void_p if p is ctypes.c_void_p else p
                     for p in params]
        address = ctypes.cast(fn, ctypes.c_void_p).value
        # (Last, the status an exception inside the function sets.)
        if forward and not derivative.val_and_grad:  # The derivative returned.
            ret = derivative._njit.overloads[types].signature.return_type
            raw = ctypes.CFUNCTYPE(_scalar_ctype(ret),
                                   *(args + [ctypes.c_void_p]))(address)
        else:  # Results written to a buffer of doubles.
            raw = ctypes.CFUNCTYPE(None, *(args + [ctypes.c_void_p,
                                                   ctypes.c_void_p]))(address)
        if forward:
            source = _forward_impl_source(plan, tangent_of,
                                          derivative.val_and_grad, copied,
                                          writable)
        else:
            source = _impl_source(plan, count, derivative.val_and_grad,
                                  copied, writable)
        scope = {"np": np, "fn": raw, "inner": derivative._njit}
        exec(source, scope)
        impl = scope["impl"]
        impl._autodiff_keep = (entry, raw)  # the JIT and the prototype live on
        return impl

    names = ", ".join(["a%d" % k for k in range(n)] + list(tangent_of.values()))
    scope = {"generate": generate}
    exec("def generator(%s):\n    return generate(%s)\n" % (names, names),
         scope)
    return numba.generated_jit(nopython=True)(scope["generator"])


def _scalar_ctype(numba_type):
    return ctypes.c_float if str(numba_type) == "float32" else ctypes.c_double
