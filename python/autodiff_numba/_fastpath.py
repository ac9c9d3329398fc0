"""The derivative as a Numba dispatcher (`derivative.jit`).

`_Derivative.__call__` starts in Python: its first call compiles the
derivative and calls it through ctypes, about 1 us a call; in reverse
mode its later calls without keyword arguments come here (new signatures
compile here too). `derivative.jit` is a function compiled by Numba (`numba.generated_jit`) that calls the compiled
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
    return ["    if status_of(st) != 0:",
            "        inner(%s)" % again,
            "        raise RuntimeError('the function raised an exception "
            "inside the derivative')"]


def _impl_source(plan, count, val_and_grad, copied=(), writable=(),
                 fortran=()):
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
            # (The gradient of a Fortran-ordered array in its order, as
            # the decorated object's own path gives it.)
            grads.append(("np.asfortranarray(d%d)" if a.index in fortran
                          else "d%d") % a.index)
        call += ["%s.shape[%d]" % (name, k) for k in range(a.ndim)]
    # The scalar results, then the status word, in a buffer on the stack
    # (an allocation would cost about as much as the call).
    slots = max(count, 1)
    lines.append("    out = stack_doubles(%d)" % (slots + 1))
    lines.append("    st = double_at(out, %d)" % slots)
    lines.append("    clear_status(st)")
    lines.append("    fn(%s)" % ", ".join(call + ["out", "st"]))
    lines += back
    lines += _raise_lines(plan)
    slot = 1 if val_and_grad else 0
    results = []
    for g in grads:
        if g is None:
            results.append("load_double(out, %d)" % slot)
            slot += 1
        else:
            results.append(g)
    grad = results[0] if len(results) == 1 else "(%s,)" % ", ".join(results)
    value = "load_double(out, 0)" if val_and_grad else None
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
    lines.append("    out = stack_doubles(3)")
    lines.append("    st = double_at(out, 2)")
    lines.append("    clear_status(st)")
    if val_and_grad:  # {value, derivative} from the one call, into `out`
        lines.append("    fn(%s)" % ", ".join(call + ["out", "st"]))
        lines += back
        lines += _raise_lines(plan)
        lines.append("    return (load_double(out, 0), load_double(out, 1))")
    else:
        lines.append("    r = fn(%s)" % ", ".join(call + ["st"]))
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
        fortran = {k for k in copied if given[k].layout == "F"}
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
                                  copied, writable, fortran)
        scope = dict(_buffer_intrinsics())
        scope.update({"np": np, "fn": raw, "inner": derivative._njit})
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


_INTRINSICS = {}


def _buffer_intrinsics():
    """Numba intrinsics for a buffer of doubles on the stack of the
    function that uses them (they are inlined into it): `stack_doubles(n)`
    (a constant n) gives its address, `double_at(p, k)` the address of
    element k, `load_double(p, k)` element k, `clear_status(p)` and
    `status_of(p)` write and read the int32 status word at p."""
    if _INTRINSICS:
        return _INTRINSICS
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    f64 = ir.DoubleType()
    i32 = ir.IntType(32)

    def element(builder, p, k):
        return builder.gep(builder.bitcast(p, f64.as_pointer()), [k])

    @intrinsic
    def stack_doubles(typingctx, n):
        if not isinstance(n, types.IntegerLiteral):
            return None

        def codegen(context, builder, signature, args):
            size = ir.Constant(ir.IntType(64), n.literal_value)
            buf = cgutils.alloca_once(builder, f64, size=size)
            return builder.bitcast(buf, ir.IntType(8).as_pointer())
        return types.voidptr(n), codegen

    @intrinsic
    def double_at(typingctx, p, k):
        def codegen(context, builder, signature, args):
            return builder.bitcast(element(builder, args[0], args[1]),
                                   ir.IntType(8).as_pointer())
        return types.voidptr(types.voidptr, k), codegen

    @intrinsic
    def load_double(typingctx, p, k):
        def codegen(context, builder, signature, args):
            return builder.load(element(builder, args[0], args[1]))
        return types.float64(types.voidptr, k), codegen

    @intrinsic
    def clear_status(typingctx, p):
        def codegen(context, builder, signature, args):
            builder.store(ir.Constant(i32, 0),
                          builder.bitcast(args[0], i32.as_pointer()))
            return context.get_dummy_value()
        return types.none(types.voidptr), codegen

    @intrinsic
    def status_of(typingctx, p):
        def codegen(context, builder, signature, args):
            return builder.load(builder.bitcast(args[0], i32.as_pointer()))
        return types.int32(types.voidptr), codegen

    _INTRINSICS.update(stack_doubles=stack_doubles, double_at=double_at,
                       load_double=load_double, clear_status=clear_status,
                       status_of=status_of)
    return _INTRINSICS
