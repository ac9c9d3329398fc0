"""Hand-written adjoints for inner @njit functions (`custom_adjoint`).

    @numba.njit
    def inner(x, s):                  # x: array, s: scalar
        return np.sum(x * x) * s

    @custom_adjoint(inner)
    def inner_vjp(x, s, dout, dx):   # primal arguments, the result's
        dx += 2.0 * s * dout * x      # adjoint, then one shadow per array
        return np.sum(x * x) * dout   # argument (incremented in place);
                                      # returns the float scalars' gradients

Numba inlines `inner` into the functions that call it, so its calls would
be gone before the core sees them. A function differentiated by
`enzyme_reverse` is therefore compiled with each call of a registered
`inner` (directly, or inside @njit helpers it calls) rerouted through an
intrinsic that calls an external symbol, `ad_custom_<k>`: a C callback
(`numba.cfunc`) running `inner`, with arrays as data pointer and shape.
The core sees a call to a declared function with a registered gradient
(`__enzyme_register_gradient_ad_custom_<k>`, see docs/user-guide.md):
`augment` copies the array arguments into its tape and runs the callback;
`reverse` calls a second
callback running the VJP, which gets each array's shadow, and returns the
scalar gradients.
"""
import inspect
import itertools
import types as pytypes
import weakref

_REGISTRY = {}  # id(inner dispatcher) -> _Custom
# Counts registrations: a derivative made before one recompiles after it.
_GENERATION = [0]


# Derivatives whose fast call path a new registration must close.
_LIVE = weakref.WeakSet()


def generation():
    """How many adjoints have been registered so far."""
    return _GENERATION[0]
_BY_SYMBOL = {}  # ad_custom_<k> -> _Instance
# The AutodiffError a typer raised: Numba wraps it in a TypingError, which
# compile_rerouted turns back into it.
_TYPER_ERRORS = []
_COUNTER = itertools.count()


class _Instance:
    """One argument-type signature of a rerouted inner function."""

    def __init__(self, custom, arg_types, ret):
        import numba
        from numba import types
        self.custom, self.arg_types, self.ret = custom, arg_types, ret
        self.symbol = "ad_custom_%d" % next(_COUNTER)
        self.vjp_symbol = self.symbol + "_vjp"
        params, rebuild, call = [], [], []
        cparams = []
        for i, t in enumerate(arg_types):
            if isinstance(t, types.Array):
                dims = ["n%d_%d" % (i, k) for k in range(t.ndim)]
                params += ["p%d" % i] + dims
                cparams += [types.CPointer(t.dtype)] + [types.int64] * t.ndim
                rebuild.append("    a%d = carray(p%d, (%s,))" % (
                    i, i, ", ".join(dims)))
            else:
                params.append("a%d" % i)
                cparams.append(t)
            call.append("a%d" % i)
        source = "def primal(%s):\n%s\n    return inner(%s)\n" % (
            ", ".join(params), "\n".join(rebuild), ", ".join(call))
        scope = {"carray": numba.carray, "inner": custom.inner}
        exec(source, scope)
        self.primal = numba.cfunc(ret(*cparams))(scope["primal"])
        self.cparams = cparams
        self.vjp = None
        import llvmlite.binding as llvm
        # Numba links the function calling the symbol in its own JIT
        # first: there it is the callback itself.
        llvm.add_symbol(self.symbol, self.primal.address)
        _BY_SYMBOL[self.symbol] = self

    def float_scalars(self):
        return [i for i, t in enumerate(self.arg_types)
                if str(t) in ("float64", "float32")]

    def compile_vjp(self):
        """The VJP's callback: arrays as data pointer, shadow pointer and
        shape, scalars as they are, then the result's adjoint, then a
        buffer for the float scalars' gradients."""
        import numba
        from numba import types
        if self.vjp is not None:
            return self.vjp
        params, rebuild, call, shadows, cparams = [], [], [], [], []
        for i, t in enumerate(self.arg_types):
            if isinstance(t, types.Array):
                dims = ["n%d_%d" % (i, k) for k in range(t.ndim)]
                shape = ", ".join(dims)
                params += ["p%d" % i, "q%d" % i] + dims
                cparams += [types.CPointer(t.dtype)] * 2 + \
                    [types.int64] * t.ndim
                rebuild.append("    a%d = carray(p%d, (%s,))" % (i, i, shape))
                rebuild.append("    d%d = carray(q%d, (%s,))" % (i, i, shape))
                shadows.append("d%d" % i)
            else:
                params.append("a%d" % i)
                cparams.append(t)
            call.append("a%d" % i)
        params += ["dout", "outp"]
        cparams += [self.ret, types.CPointer(types.float64)]
        scalars = self.float_scalars()
        lines = rebuild + ["    g = vjp(%s)" % ", ".join(call + ["dout"] +
                                                           shadows)]
        if len(scalars) == 1:
            lines.append("    out = carray(outp, (1,))")
            lines.append("    out[0] = g")
        elif scalars:
            lines.append("    out = carray(outp, (%d,))" % len(scalars))
            lines += ["    out[%d] = g[%d]" % (k, k)
                      for k in range(len(scalars))]
        source = "def vjp_callback(%s):\n%s\n" % (", ".join(params),
                                                   "\n".join(lines))
        scope = {"carray": numba.carray, "vjp": numba.njit(self.custom.vjp)}
        exec(source, scope)
        try:
            self.vjp = numba.cfunc(types.void(*cparams))(scope["vjp_callback"])
        except Exception as e:
            from ._capi import AutodiffError
            raise AutodiffError(
                "custom_adjoint of %s: the adjoint %s could not be compiled "
                "for arguments %s (it takes the arguments, the result's "
                "adjoint, then one shadow per array argument, and returns "
                "the gradient of each float argument: %d here): %s" % (
                    self.custom.name, self.custom.vjp.__name__,
                    ", ".join(map(str, self.arg_types)), len(scalars), e))
        return self.vjp

    def glue(self):
        """IR for the registered gradient: augment, reverse, registration."""
        from numba import types
        ll = {"float64": "double", "float32": "float", "int64": "i64",
              "int32": "i32", "bool": "i1"}
        fn_params, rule_params, call, vjp_args = [], [], [], []
        for i, t in enumerate(self.arg_types):
            if isinstance(t, types.Array):
                dims = ["%%n%d_%d" % (i, k) for k in range(t.ndim)]
                fn_params += ["ptr"] + ["i64"] * t.ndim
                rule_params += ["ptr %%p%d" % i, "ptr %%q%d" % i] + \
                    ["i64 %s" % d for d in dims]
                call += ["ptr %%p%d" % i] + ["i64 %s" % d for d in dims]
                vjp_args += ["ptr %%p%d" % i, "ptr %%q%d" % i] + \
                    ["i64 %s" % d for d in dims]
            else:
                lt = ll[str(t)]
                fn_params.append(lt)
                rule_params.append("%s %%a%d" % (lt, i))
                call.append("%s %%a%d" % (lt, i))
                vjp_args.append("%s %%a%d" % (lt, i))
        rt = ll[str(self.ret)]
        scalars = [ll[str(self.arg_types[i])] for i in self.float_scalars()]
        s, v = self.symbol, self.vjp_symbol
        # The tape: a copy of each array argument as the call saw it (the
        # caller may free a temporary, or overwrite an array, before the
        # reverse sweep runs the adjoint).
        arrays = [(i, t) for i, t in enumerate(self.arg_types)
                  if isinstance(t, types.Array)]
        snap = []
        if arrays:
            snap.append("  %%tape = call ptr @malloc(i64 %d)" % (8 * len(arrays)))
            for slot, (i, t) in enumerate(arrays):
                size = "%d" % (4 if str(t.dtype) == "float32" else 8)
                for k in range(t.ndim):
                    snap.append("  %%b%d_%d = mul i64 %s, %%n%d_%d" % (
                        i, k, size, i, k))
                    size = "%%b%d_%d" % (i, k)
                snap += ["  %%c%d = call ptr @malloc(i64 %s)" % (i, size),
                         "  call void @llvm.memcpy.p0.p0.i64(ptr %%c%d, ptr "
                         "%%p%d, i64 %s, i1 false)" % (i, i, size),
                         "  %%slot%d = getelementptr ptr, ptr %%tape, i64 %d"
                         % (i, slot),
                         "  store ptr %%c%d, ptr %%slot%d" % (i, i)]
        tape = "%tape" if arrays else "null"
        out = ["declare %s @%s(%s)" % (rt, s, ", ".join(fn_params)),
               "declare void @%s(%s)" % (v, ", ".join(
                   [a.split()[0] for a in vjp_args] + [rt, "ptr"])),
               "declare ptr @malloc(i64)", "declare void @free(ptr)",
               "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)",
               "define {ptr, %s} @%s.augment(%s) {" % (rt, s,
                                                        ", ".join(rule_params))]
        out += snap
        out += ["  %%r = call %s @%s(%s)" % (rt, s, ", ".join(call)),
                "  %%t = insertvalue {ptr, %s} undef, ptr %s, 0" % (rt, tape),
                "  %%u = insertvalue {ptr, %s} %%t, %s %%r, 1" % (rt, rt),
                "  ret {ptr, %s} %%u" % rt, "}"]
        # The adjoint reads the copies, which are freed after it.
        for i, _ in arrays:
            vjp_args[vjp_args.index("ptr %%p%d" % i)] = "ptr %%c%d" % i
        if not scalars:
            result = "void"
        elif len(scalars) == 1:
            result = scalars[0]
        else:
            result = "{%s}" % ", ".join(scalars)
        out += ["define %s @%s.reverse(%s) {" % (
                    result, s, ", ".join(rule_params + ["%s %%dret" % rt,
                                                         "ptr %tape"])),
                "  %%out = alloca [%d x double]" % max(len(scalars), 1)]
        for slot, (i, _) in enumerate(arrays):
            out += ["  %%slot%d = getelementptr ptr, ptr %%tape, i64 %d"
                    % (i, slot),
                    "  %%c%d = load ptr, ptr %%slot%d" % (i, i)]
        out.append("  call void @%s(%s)" % (v, ", ".join(
            vjp_args + ["%s %%dret" % rt, "ptr %out"])))
        for i, _ in arrays:
            out.append("  call void @free(ptr %%c%d)" % i)
        if arrays:
            out.append("  call void @free(ptr %tape)")
        leaves = []
        for k, lt in enumerate(scalars):
            out.append("  %%g%d.p = getelementptr double, ptr %%out, i64 %d"
                       % (k, k))
            if lt == "float":
                out.append("  %%g%d.d = load double, ptr %%g%d.p" % (k, k))
                out.append("  %%g%d = fptrunc double %%g%d.d to float" % (k, k))
            else:
                out.append("  %%g%d = load double, ptr %%g%d.p" % (k, k))
            leaves.append("%%g%d" % k)
        if result == "void":
            out.append("  ret void")
        elif len(scalars) == 1:
            out.append("  ret %s %s" % (result, leaves[0]))
        else:
            prev = "undef"
            for k, (lt, leaf) in enumerate(zip(scalars, leaves)):
                out.append("  %%s%d = insertvalue %s %s, %s %s, %d" % (
                    k, result, prev, lt, leaf, k))
                prev = "%%s%d" % k
            out.append("  ret %s %s" % (result, prev))
        out.append("}")
        out.append("@__enzyme_register_gradient_%s = global [3 x ptr] "
                   "[ptr @%s, ptr @%s.augment, ptr @%s.reverse]" % (s, s, s, s))
        return "\n".join(out) + "\n"


class _Custom:
    """An inner @njit function and its registered adjoint."""

    def __init__(self, inner, vjp):
        self.inner, self.vjp = inner, vjp
        self.name = getattr(inner, "__name__", str(inner))
        self.instances = {}
        self.intrinsic = self._make_intrinsic()

    def _instance(self, arg_types):
        from numba import types
        from ._capi import AutodiffError
        key = tuple(arg_types)
        if key not in self.instances:
            for t in key:
                ok = str(t) in ("float64", "float32", "int64", "int32") or (
                    isinstance(t, types.Array) and t.layout == "C" and
                    str(t.dtype) in ("float64", "float32"))
                if not ok:
                    raise AutodiffError(
                        "custom_adjoint of %s: argument type %s is not "
                        "supported (float64, float32 and integer scalars, "
                        "C-contiguous float arrays)" % (self.name, t))
            self.inner.compile(key)
            ret = self.inner.overloads[key].signature.return_type
            if str(ret) not in ("float64", "float32"):
                raise AutodiffError(
                    "custom_adjoint of %s: it returns %s; a float64 or "
                    "float32 result is needed" % (self.name, ret))
            self.instances[key] = _Instance(self, key, ret)
        return self.instances[key]

    def _make_intrinsic(self):
        from numba.extending import intrinsic
        from numba.core import cgutils
        from numba import types
        from llvmlite import ir

        def typer(typingctx, arg_types):
            from ._capi import AutodiffError
            try:
                inst = self._instance(arg_types)
            except AutodiffError as e:
                _TYPER_ERRORS.append(e)
                raise

            def codegen(context, builder, signature, args):
                cargs = []
                for t, v in zip(signature.args, args):
                    if isinstance(t, types.Array):
                        ary = context.make_array(t)(context, builder, v)
                        cargs.append(ary.data)
                        cargs += cgutils.unpack_tuple(builder, ary.shape,
                                                      t.ndim)
                    else:
                        cargs.append(v)
                fnty = ir.FunctionType(
                    context.get_value_type(signature.return_type),
                    [c.type for c in cargs])
                fn = cgutils.get_or_insert_function(builder.module, fnty,
                                                    inst.symbol)
                return builder.call(fn, cargs)
            return inst.ret(*arg_types), codegen

        # An intrinsic takes its arguments by name: one parameter each.
        n = len(inspect.signature(self.inner.py_func).parameters)
        names = ", ".join("a%d" % i for i in range(n))
        scope = {"typer": typer}
        exec("def call(typingctx, %s):\n    return typer(typingctx, (%s,))\n"
             % (names, names), scope)
        scope["call"].__name__ = "custom_" + self.name
        return intrinsic(scope["call"])


def custom_adjoint(inner):
    """Decorator: registers the decorated function as the adjoint of the
    @njit function `inner`, used instead of differentiating `inner` where a
    function differentiated by `enzyme_reverse` calls it (directly or
    through other @njit functions). The adjoint takes `inner`'s arguments,
    then the adjoint of its result (a float), then a shadow array for each
    array argument, which it increments by that argument's gradient; it
    returns the gradient of each float scalar argument (one value, a tuple
    for several, nothing when there are none). Reverse mode only."""
    import numba
    from ._capi import AutodiffError
    if not isinstance(inner, numba.core.registry.CPUDispatcher):
        raise AutodiffError("custom_adjoint: %r is not an @njit function"
                            % (inner,))

    def register(vjp):
        _REGISTRY[id(inner)] = _Custom(inner, vjp)
        _GENERATION[0] += 1
        _REROUTED.clear()
        for derivative in list(_LIVE):
            derivative._fast_call = None  # next call recompiles
        return vjp
    return register


_REROUTED = {}  # id(python function) -> (the function, rerouted or None)


def _code_names(code):
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, pytypes.CodeType):
            names |= _code_names(c)
    return names


def reroute(func, depth=0):
    """`func` with the registered inner functions it reaches replaced by
    their intrinsics (helpers that reach them are recompiled the same
    way); `func` itself when it reaches none."""
    import numba
    if not _REGISTRY or depth > 8:
        return func
    # Keyed by id, with the function kept alive beside its result: a freed
    # function's id may be given to another one (a test's local function,
    # a lambda made in a loop), which must not get the first one's code.
    key = id(func)
    entry = _REROUTED.get(key)
    if entry is not None and entry[0] is func:
        return entry[1] or func
    _REROUTED[key] = (func, None)  # In progress (recursion).
    replaced = {}
    for name in _code_names(func.__code__):
        value = func.__globals__.get(name)
        if not isinstance(value, numba.core.registry.CPUDispatcher):
            continue
        custom = _REGISTRY.get(id(value))
        if custom is not None:
            replaced[name] = custom.intrinsic
            continue
        inner = reroute(value.py_func, depth + 1)
        if inner is not value.py_func:
            replaced[name] = numba.njit(inner)
    if not replaced:
        _REROUTED[key] = (func, func)
        return func
    scope = dict(func.__globals__)
    scope.update(replaced)
    out = pytypes.FunctionType(func.__code__, scope, func.__name__,
                               func.__defaults__, func.__closure__)
    out.__kwdefaults__ = func.__kwdefaults__
    _REROUTED[key] = (func, out)
    return out


def glue_for(ir_text):
    """The gradient registrations for the ad_custom symbols `ir_text`
    calls, and the symbols to define: (IR, [(name, address)])."""
    import re
    modules, symbols = [], []
    for name in sorted(set(re.findall(r"@(ad_custom_\d+)\(", ir_text))):
        inst = _BY_SYMBOL.get(name)
        if inst is None:
            continue
        vjp = inst.compile_vjp()
        modules.append(inst.glue())
        symbols += [(inst.symbol, inst.primal.address),
                    (inst.vjp_symbol, vjp.address)]
    # One module: each declaration once (every instance declares malloc).
    lines, declared = [], set()
    for line in "".join(modules).splitlines():
        if line.startswith("declare "):
            if line in declared:
                continue
            declared.add(line)
        lines.append(line)
    return "\n".join(lines) + "\n" if lines else "", symbols


def compile_rerouted(dispatcher, types):
    """dispatcher.compile(types), with an AutodiffError that a custom
    adjoint's typer raised (which Numba reports as a TypingError) raised
    as itself."""
    del _TYPER_ERRORS[:]
    try:
        dispatcher.compile(types)
    except Exception:
        if _TYPER_ERRORS:
            raise _TYPER_ERRORS[-1] from None
        raise
    finally:
        del _TYPER_ERRORS[:]
