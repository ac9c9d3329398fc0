"""Derivatives of Numba functions, through the autodiff library's JIT.

    from autodiff_numba import enzyme_reverse, enzyme_forward

    @enzyme_reverse(enzyme_const="x", enzyme_dup="y", val_and_grad=True)
    def product(x, y):
        return x * y

    val, grad = product(3.0, 5.0)        # (15.0, 3.0)

For each new signature of argument types, the function is compiled by Numba
inside a C callback (`numba.cfunc`) whose array arguments arrive as a data
pointer and the array's shape (wrapped back into arrays with
`numba.carray`); that callback's IR and a small driver asking for the
derivative (`__enzyme_autodiff` / `__enzyme_fwddiff`) go to the library's
JIT, and the compiled derivative is called through ctypes. Compiled
derivatives are cached per signature.

Arguments: float64 and float32 scalars, integer scalars (constants), and
float64 / float32 NumPy arrays of any number of dimensions (C-contiguous ones are passed
as they are; Fortran-ordered and strided ones as C-contiguous copies,
written back after the call). An active scalar's
gradient is returned; an active array gets a zeroed shadow array that is
returned as its gradient (or, with `shadows={"name": array}`, the caller's
array is incremented and returned). Several active arguments give a tuple
in argument order. `custom_adjoint(inner)` registers a hand-written adjoint
for an inner @njit function (_custom.py). See docs/host-api.md.
"""
import ctypes

from ._capi import AutodiffError, Jit, library
from ._custom import (_LIVE, compile_rerouted, custom_adjoint,
                      generation, glue_for, reroute)

__all__ = ["AutodiffError", "custom_adjoint", "enzyme_reverse",
           "enzyme_forward", "version"]


def version():
    """The library's version string."""
    return library().ad_version().decode()


def _names(value):
    if value is None:
        return set()
    if isinstance(value, str):
        return {value}
    return set(value)


# Numba scalar type name -> (LLVM type, ctypes type). Integers and
# booleans are constant inputs: they carry no derivative.
_SCALARS = {"float64": ("double", ctypes.c_double),
            "float32": ("float", ctypes.c_float),
            "int64": ("i64", ctypes.c_int64),
            "int32": ("i32", ctypes.c_int32),
            "int16": ("i16", ctypes.c_int16),
            "int8": ("i8", ctypes.c_int8),
            "uint64": ("i64", ctypes.c_uint64),
            "uint32": ("i32", ctypes.c_uint32),
            "uint16": ("i16", ctypes.c_uint16),
            "uint8": ("i8", ctypes.c_uint8),
            "bool": ("i1", ctypes.c_bool)}


def _is_integer(t):
    """Whether Numba type `t` is an integer or boolean scalar."""
    return str(t) in _SCALARS and not str(t).startswith("float")


class _Arg:
    """How one parameter crosses the C callback and the driver."""

    def __init__(self, index, name, numba_type, active):
        import numba
        self.index, self.name, self.type = index, name, numba_type
        self.active = active
        self.array = isinstance(numba_type, numba.types.Array)
        if self.array:
            self.ndim = numba_type.ndim
            self.dtype = numba_type.dtype
            self.cfunc_types = [numba.types.CPointer(numba_type.dtype)] + \
                [numba.types.int64] * self.ndim
        else:
            self.cfunc_types = [numba_type]

    def ir_params(self, with_shadow):
        """The driver's parameters: value(s), then the shadow if asked."""
        if not self.array:
            ll = _SCALARS[str(self.type)][0]
            out = ["%s %%a%d" % (ll, self.index)]
            if with_shadow:
                out.append("%s %%d%d" % (ll, self.index))
            return out
        out = ["ptr %%a%d" % self.index]
        if with_shadow:
            out.append("ptr %%d%d" % self.index)
        out += ["i64 %%n%d_%d" % (self.index, k) for k in range(self.ndim)]
        return out

    def markers(self, activity):
        """The request's arguments: marker and values, then the shapes."""
        if not self.array:
            ll = _SCALARS[str(self.type)][0]
            text = 'metadata !"%s", %s %%a%d' % (activity, ll, self.index)
            if activity == "enzyme_dup":
                text += ", %s %%d%d" % (ll, self.index)
            return [text]
        text = 'metadata !"%s", ptr %%a%d' % (activity, self.index)
        if activity == "enzyme_dup":
            text += ", ptr %%d%d" % self.index
        return [text] + ['metadata !"enzyme_const", i64 %%n%d_%d' % (self.index, k)
                         for k in range(self.ndim)]

    def ctypes_params(self, with_shadow):
        if not self.array:
            c = _SCALARS[str(self.type)][1]
            return [c, c] if with_shadow else [c]
        return [ctypes.c_void_p] * (2 if with_shadow else 1) + \
            [ctypes.c_int64] * self.ndim


class _Derivative:
    """A Python function, its activities, and its compiled derivatives."""

    def __init__(self, func, mode, const, dup, val_and_grad):
        import inspect
        # Decorating a function Numba already compiled (`@enzyme_reverse()`
        # above `@numba.njit`): its Python function, compiled again here
        # with the options it was given (fastmath, error_model, ...).
        self._options = {}
        if callable(getattr(func, "py_func", None)) and \
                isinstance(getattr(func, "targetoptions", None), dict):
            self._options = {k: v for k, v in func.targetoptions.items()
                             if k in ("fastmath", "error_model", "boundscheck")}
            func = func.py_func
        self.func = func
        self.mode = mode
        signature = inspect.signature(func)
        self.params = list(signature.parameters)
        # Parameters with default values may be left out of a call.
        self._defaults = {name: p.default
                          for name, p in signature.parameters.items()
                          if p.default is not inspect.Parameter.empty}
        self.const = _names(const)
        self.dup = _names(dup)
        unknown = (self.const | self.dup) - set(self.params)
        if unknown:
            raise AutodiffError("%s: no parameter named %s" % (
                func.__name__, ", ".join(sorted(unknown))))
        if self.const & self.dup:
            raise AutodiffError("%s: %s both enzyme_const and enzyme_dup" % (
                func.__name__, ", ".join(sorted(self.const & self.dup))))
        if dup is not None:
            self.const |= set(self.params) - self.dup
        self.val_and_grad = val_and_grad
        self.cache = {}  # Numba types -> compiled entry
        self.fast = {}  # Python types -> the same entry
        self._scalar_kinds = {}  # parameter -> "a float" or "an integer"
        self._generation = generation()
        self._njit = None
        self._dispatcher = None
        # Reverse mode, after a first call went well: calls without
        # keyword arguments go through `self.jit` (see __call__).
        self._fast_call = None
        self._typing_error = None
        self._active = [k for k, name in enumerate(self.params)
                        if name not in self.const]
        self._check_sharing = len(self._active) > 1
        self._count = len(self.params)
        _LIVE.add(self)

    @property
    def jit(self):
        """The derivative as a Numba-compiled function (about the cost of an
        @njit call, callable from @njit code), positional arguments only:
        reverse mode takes the arguments (no `shadows=`); forward mode the
        arguments, then a tangent for each parameter not named in
        enzyme_const, in order (see _fastpath.py)."""
        self._refresh()
        if self._dispatcher is None:
            from ._fastpath import make_dispatcher
            self._dispatcher = make_dispatcher(self)
        return self._dispatcher

    # -- types --------------------------------------------------------------

    def _types(self, args):
        import numba
        return self.accepted_types(numba.typeof(v) for v in args)

    def accepted_types(self, types):
        """The Numba types the derivative is compiled for, from the
        arguments' types: arrays of other layouts (Fortran order, strided
        views) as C-contiguous ones, which the callers pass as copies; an
        AutodiffError for anything else than the supported types."""
        import numba
        out = []
        for name, t in zip(self.params, types):
            t = numba.types.unliteral(t)  # a constant in @njit code
            if isinstance(t, numba.types.Array) and t.layout != "C":
                # (A read-only array stays read-only: a function that
                # writes into it is Numba's typing error, as for a plain
                # call.)
                t = t.copy(layout="C")
            ok = str(t) in _SCALARS or (
                isinstance(t, numba.types.Array) and t.ndim >= 1 and
                str(t.dtype) in ("float64", "float32"))
            if not ok:
                raise AutodiffError(
                    "%s: argument `%s` has type %s; supported are float64, "
                    "float32, integer and boolean scalars and float64 or "
                    "float32 arrays of one or more dimensions"
                    % (self.func.__name__, name, t))
            if _is_integer(t) and name in self.dup:
                raise AutodiffError(
                    "%s: argument `%s` is an integer and cannot be active "
                    "(enzyme_dup)" % (self.func.__name__, name))
            # A scalar that was a float in an earlier call and is an
            # integer now (or the other way round) would change which
            # gradients come back: `gx, ga = f(x, 2)` unpacked gx.
            if str(t) in _SCALARS and name not in self.const:
                kind = "an integer" if _is_integer(t) else "a float"
                seen = self._scalar_kinds.setdefault(name, kind)
                if seen != kind:
                    raise AutodiffError(
                        "%s: argument `%s` is %s here and was %s in an "
                        "earlier call, which changes the gradients returned; "
                        "pass %s (or name it in enzyme_const)"
                        % (self.func.__name__, name, kind, seen, seen))
            out.append(t)
        return tuple(out)

    def _plan(self, types):
        return [_Arg(j, name, t, name not in self.const and
                     not _is_integer(t))
                for j, (name, t) in enumerate(zip(self.params, types))]

    # -- compiling -----------------------------------------------------------

    def _callback(self, plan, ret):
        """The C callback: arrays as pointer and shape, the function inside
        (self._njit, made by _compile)."""
        import numba
        params, unpack, call = [], [], []
        for a in plan:
            if a.array:
                shape = ", ".join("n%d_%d" % (a.index, k) for k in range(a.ndim))
                params += ["p%d" % a.index] + ["n%d_%d" % (a.index, k)
                                                for k in range(a.ndim)]
                unpack.append("    a%d = carray(p%d, (%s,))" % (a.index, a.index,
                                                               shape))
            else:
                params.append("a%d" % a.index)
            call.append("a%d" % a.index)
        # An exception inside the function sets the status the driver
        # passes last and returns 0: the call raises it (_check_status)
        # instead of Numba printing "Exception ignored" from the C
        # callback and the call returning zero gradients.
        source = ("def callback(%s, status):\n%s\n    try:\n"
                  "        return inner(%s)\n    except Exception:\n"
                  "        status[0] = 1\n        return 0.0\n") % (
            ", ".join(params), "\n".join(unpack), ", ".join(call))
        scope = {"carray": numba.carray, "inner": self._njit}
        exec(source, scope)
        sig = ret(*([t for a in plan for t in a.cfunc_types] +
                    [numba.types.CPointer(numba.types.int32)]))
        return numba.cfunc(sig)(scope["callback"])

    def _compile(self, types):
        import numba
        plan = self._plan(types)
        if not any(a.active for a in plan):
            raise AutodiffError("%s: no active argument" % self.func.__name__)
        if self._njit is None:
            # Calls of inner functions with a custom_adjoint go through
            # symbols of their own (_custom.py); forward mode has no rule
            # for them, and differentiates the function as it is.
            func = reroute(self.func) if self.mode == "reverse" else self.func
            self._njit = numba.njit(func, **self._options)
        compile_rerouted(self._njit, types)
        ret = self._njit.overloads[types].signature.return_type
        if str(ret) not in ("float64", "float32"):
            raise AutodiffError("%s returns %s; a float64 or float32 result "
                                "is needed" % (self.func.__name__, ret))
        cf = self._callback(plan, ret)
        ir, envs = _share_environments(_resolve_recursion(cf))
        ir = _type_array_parameters(ir, cf.native_name, plan)
        jit = Jit("-O2")
        jit.add_module(ir)
        _define_numba_symbols(jit, ir)
        for name, address in envs:
            jit.define_symbol(name, address)
        glue, symbols = glue_for(ir)
        if glue:
            jit.add_module(glue)
            for name, address in symbols:
                jit.define_symbol(name, address)
        rll, rct = _SCALARS[str(ret)]
        cparams = ", ".join([str(_ll(t)) for a in plan for t in a.cfunc_types]
                            + ["ptr"])
        decl = 'declare %s @"%s"(%s)\n' % (rll, cf.native_name, cparams)
        if self.mode == "reverse":
            driver, proto, count = self._reverse_driver(plan, cf, rll)
        else:
            driver, proto, count = self._forward_driver(plan, cf, rll, rct)
        jit.add_module(decl + driver)
        try:
            fn = proto(jit.lookup("derivative"))
        except AutodiffError as e:
            raise AutodiffError(_parameter_names(str(e), plan)) from None
        scalars_only = not any(a.array for a in plan)
        return (jit, fn, count, plan, types, scalars_only)

    def _reverse_driver(self, plan, cf, rll):
        # The gradients of active scalars (after the primal value, with
        # val_and_grad), widened to double into `out`; arrays' gradients
        # go to their shadows.
        params, args, leaves = [], [], []
        if self.val_and_grad:
            args.append('metadata !"enzyme_primal_return"')
            leaves.append(rll)
        for a in plan:
            params += a.ir_params(with_shadow=a.active and a.array)
            if a.array:
                args += a.markers("enzyme_dup" if a.active else "enzyme_const")
            else:
                args += a.markers("enzyme_out" if a.active else "enzyme_const")
                if a.active:
                    leaves.append(_SCALARS[str(a.type)][0])
        if not leaves:
            result = "void"
        elif len(leaves) == 1:
            result = leaves[0]
        else:
            result = "{%s}" % ", ".join(leaves)
        args.append(_STATUS_MARKER)
        body = ["  %%r = call %s (ptr, ...) @__enzyme_autodiff(ptr @\"%s\", %s)"
                % (result, cf.native_name, ", ".join(args))]
        if result == "void":
            body[0] = body[0].replace("%r = ", "")
        body += _store_leaves(leaves, result)
        driver = ("declare void @__enzyme_autodiff(ptr, ...)\n"
                  "define void @derivative(%s) {\n%s\n  ret void\n}\n"
                  % (", ".join(params + ["ptr %out", "ptr %status"]),
                     "\n".join(body)))
        ctypes_args = []
        for a in plan:
            ctypes_args += a.ctypes_params(with_shadow=a.active and a.array)
        proto = ctypes.CFUNCTYPE(None, *(ctypes_args +
                                         [ctypes.POINTER(ctypes.c_double),
                                          ctypes.c_void_p]))
        return driver, proto, len(leaves)

    def _forward_driver(self, plan, cf, rll, rct):
        params, args, ctypes_args = [], [], []
        for a in plan:
            params += a.ir_params(with_shadow=a.active)
            args += a.markers("enzyme_dup" if a.active else "enzyme_const")
            ctypes_args += a.ctypes_params(with_shadow=a.active)
        args.append(_STATUS_MARKER)
        if self.val_and_grad:
            # The value from the same call (running the function again would
            # repeat its side effects): {value, derivative} into `out`.
            pair = "{%s, %s}" % (rll, rll)
            body = ["  %%r = call %s (ptr, ...) @__enzyme_fwddiff("
                    "ptr @\"%s\", metadata !\"enzyme_primal_return\", %s)"
                    % (pair, cf.native_name, ", ".join(args))]
            body += _store_leaves([rll, rll], pair)
            driver = ("declare void @__enzyme_fwddiff(ptr, ...)\n"
                      "define void @derivative(%s) {\n%s\n  ret void\n}\n"
                      % (", ".join(params + ["ptr %out", "ptr %status"]),
                         "\n".join(body)))
            return driver, ctypes.CFUNCTYPE(
                None, *(ctypes_args + [ctypes.POINTER(ctypes.c_double),
                                       ctypes.c_void_p])), 2
        driver = ("declare %s @__enzyme_fwddiff(ptr, ...)\n"
                  "define %s @derivative(%s) {\n"
                  "  %%r = call %s (ptr, ...) @__enzyme_fwddiff(ptr @\"%s\", %s)\n"
                  "  ret %s %%r\n}\n" % (rll, rll,
                                         ", ".join(params + ["ptr %status"]),
                                         rll, cf.native_name, ", ".join(args),
                                         rll))
        return driver, ctypes.CFUNCTYPE(rct, *(ctypes_args +
                                               [ctypes.c_void_p])), 1

    # -- calling -------------------------------------------------------------

    def _refresh(self):
        if self.mode == "reverse" and self._generation != generation():
            # An adjoint registered since this derivative was compiled:
            # every signature is compiled again with it (`.jit` too).
            self._njit = None
            self._dispatcher = None
            self._fast_call = None
            self._generation = generation()
            self.cache.clear()
            self.fast.clear()

    def _entry(self, args):
        # The Python types of the arguments (with the arrays' dtype and
        # dimensions) find the compiled derivative without asking Numba,
        # whose typeof costs more than the call.
        self._refresh()
        key = tuple(map(type, args))
        if _ndarray() in key:
            # Read-only arrays are a type of their own to Numba (writing
            # into one is a typing error): the version compiled for
            # writable arrays wrote into them.
            key = tuple((type(v), getattr(v, "dtype", None),
                         getattr(v, "ndim", 0),
                         getattr(getattr(v, "flags", None), "writeable",
                                 None)) for v in args)
        entry = self.fast.get(key)
        if entry is None:
            types = self._types(args)
            entry = self.cache.get(types)
            if entry is None:
                entry = self.cache[types] = self._compile(types)
            self.fast[key] = entry
        return entry

    def _check_aliasing(self, plan, args):
        """Two active arrays over the same memory (`f(a, a)`): each would
        get a shadow of its own, and the gradients would not add up to the
        call's (6a for 8a when one is updated in place)."""
        import numpy as np
        arrays = [a for a in plan if a.array and a.active]
        for i, a in enumerate(arrays):
            for b in arrays[i + 1:]:
                if np.shares_memory(args[a.index], args[b.index]):
                    raise AutodiffError(
                        "%s: active arguments `%s` and `%s` share memory; a "
                        "gradient for each is not defined (pass a copy for "
                        "one of them)" % (self.func.__name__, a.name, b.name))

    def _check_names(self, plan, tangents, shadows):
        """tangents= and shadows= name active arguments; shadows= only
        arrays (a scalar's gradient is returned)."""
        active = {a.name for a in plan if a.active}
        for given, what in ((tangents, "tangents"), (shadows, "shadows")):
            unknown = sorted(set(given or ()) - active)
            if unknown:
                raise AutodiffError("%s: %s= names %s, not an active argument"
                                    % (self.func.__name__, what,
                                       ", ".join(unknown)))
        scalars = sorted(a.name for a in plan
                         if a.active and not a.array and a.name in
                         (shadows or {}))
        if scalars:
            raise AutodiffError("%s: shadows= names %s, a scalar: its "
                                "gradient is returned, not accumulated"
                                % (self.func.__name__, ", ".join(scalars)))

    def _check_status(self, status, args):
        """After a call: when the function raised, raise that exception
        (the function runs again on copies of the arrays, so that the
        exception comes with its own message)."""
        if status.value == 0:
            return
        raise_again(self._njit, args)
        raise AutodiffError("%s raised an exception inside the derivative"
                            % self.func.__name__)

    def __call__(self, *args, **options):
        # Reverse mode without keyword arguments, once a call went well:
        # through the Numba dispatcher of `self.jit`, which finds the
        # compiled code for the arguments' types faster than Python can
        # (bench/python_overhead.py). What it cannot type (a first call
        # with new types that fails) and arrays that may share memory
        # take the path below, which says what is wrong.
        # A custom adjoint registered later closes this path (_LIVE).
        if len(args) < self._count and self._defaults:
            missing = self.params[len(args):]
            if all(name in self._defaults for name in missing):
                args = tuple(args) + tuple(self._defaults[n] for n in missing)
        fast = self._fast_call
        if (fast is not None and not options and len(args) == self._count
                and not (self._check_sharing and self._may_share(args))):
            try:
                return fast(*args)
            except self._typing_error:
                pass
        unknown = set(options) - {"tangents", "shadows"}
        if unknown:
            raise TypeError("%s got unexpected keyword arguments %s" % (
                self.func.__name__, ", ".join(sorted(unknown))))
        result = self._call(args, options.get("tangents"),
                            options.get("shadows"))
        if self.mode == "reverse" and self._fast_call is None:
            from numba.core.errors import TypingError
            self._typing_error = TypingError
            self._fast_call = self.jit
        return result

    def _may_share(self, args):
        """Whether two active arrays may share memory (checked exactly,
        with a message, by the path that is not the Numba dispatcher)."""
        import numpy as np
        arrays = [args[k] for k in self._active
                  if isinstance(args[k], np.ndarray)]
        return any(np.may_share_memory(a, b) for i, a in enumerate(arrays)
                   for b in arrays[i + 1:])

    def _call(self, args, tangents, shadows):
        import numpy as np
        if len(args) != len(self.params):
            raise TypeError("%s takes %d arguments (%s), given %d" % (
                self.func.__name__, len(self.params),
                ", ".join(self.params), len(args)))
        _, fn, count, plan, _, scalars_only = self._entry(args)
        self._check_names(plan, tangents, shadows)
        status = ctypes.c_int32(0)
        if scalars_only and self.mode == "reverse":
            # Scalars only: the driver takes the arguments as they are.
            out = (ctypes.c_double * max(count, 1))()
            fn(*args, out, ctypes.addressof(status))
            self._check_status(status, args)
            leaves = out[:count]
            if self.val_and_grad:
                grads = leaves[1:]
                return leaves[0], (grads[0] if len(grads) == 1 else tuple(grads))
            return leaves[0] if count == 1 else tuple(leaves)
        self._check_aliasing(plan, args)
        # Arrays of other layouts go in as C-contiguous copies, written
        # back after the call (the function may update them in place).
        work = {a.index: np.ascontiguousarray(args[a.index]) for a in plan
                if a.array and not args[a.index].flags.c_contiguous}
        back = []  # (the caller's array, the copy the call updated)
        call, grads = [], {}
        for a in plan:
            value = work.get(a.index, args[a.index])
            if not a.array:
                call.append(value)
                if self.mode == "forward" and a.active:
                    t = (tangents or {}).get(a.name, 0.0)
                    if np.ndim(t) != 0:
                        raise AutodiffError(
                            "%s: the tangent of scalar `%s` must be a number"
                            % (self.func.__name__, a.name))
                    call.append(float(t))
                continue
            call.append(value.ctypes.data)
            if a.active:
                if self.mode == "reverse":
                    given = (shadows or {}).get(a.name)
                    if given is None:
                        shadow = np.zeros(value.shape, value.dtype)
                        given = shadow
                        if a.index in work:  # The gradient in its layout.
                            given = np.empty_like(args[a.index])
                            back.append((given, shadow))
                    elif (not isinstance(given, np.ndarray) or
                          given.shape != value.shape or
                          given.dtype != value.dtype):
                        raise AutodiffError(
                            "%s: the shadow of `%s` must be an array of the "
                            "same shape and dtype" % (self.func.__name__,
                                                       a.name))
                    elif not given.flags.writeable:
                        raise AutodiffError(
                            "%s: the shadow of `%s` is read-only; the "
                            "gradient is added into it" % (self.func.__name__,
                                                           a.name))
                    else:
                        shadow = np.ascontiguousarray(given)
                        if shadow is not given:
                            back.append((given, shadow))
                    grads[a.index] = given
                else:
                    shadow = (tangents or {}).get(a.name)
                    if shadow is None:
                        shadow = np.zeros_like(value)
                    # A copy: the derivative overwrites the tangents of the
                    # arrays the function updates.
                    shadow = np.array(shadow, dtype=value.dtype, order="C")
                    if shadow.shape != value.shape:
                        raise AutodiffError(
                            "%s: the tangent of `%s` has shape %s, the "
                            "argument %s" % (self.func.__name__, a.name,
                                             shadow.shape, value.shape))
                    grads[a.index] = shadow  # kept alive for the call
                call.append(shadow.ctypes.data)
            call += list(value.shape)
        for index, copy in work.items():
            if args[index].flags.writeable:
                back.append((args[index], copy))
        if self.mode == "forward":
            if self.val_and_grad:
                out = (ctypes.c_double * 2)()
                fn(*call, out, ctypes.addressof(status))
                result = (out[0], out[1])
            else:
                result = fn(*call, ctypes.addressof(status))
            for original, copy in back:
                original[...] = copy
            self._check_status(status, args)
            return result
        out = (ctypes.c_double * max(count, 1))()
        fn(*call, out, ctypes.addressof(status))
        for original, copy in back:
            original[...] = copy
        self._check_status(status, args)
        leaves = list(out)[:count]
        value = leaves.pop(0) if self.val_and_grad else None
        result = []
        for a in plan:
            if a.active:
                result.append(grads[a.index] if a.array else leaves.pop(0))
        grad = result[0] if len(result) == 1 else tuple(result)
        return (value, grad) if self.val_and_grad else grad


_NDARRAY = []


def _ndarray():
    """numpy.ndarray, imported on first use."""
    if not _NDARRAY:
        import numpy
        _NDARRAY.append(numpy.ndarray)
    return _NDARRAY[0]


def _store_leaves(leaves, result):
    """IR storing the derivative call's result `%r` (type `result`, one
    scalar per entry of `leaves`: "double" or "float") into `%out` as
    doubles, in order."""
    body = []
    for i, leaf in enumerate(leaves):
        v = "%r"
        if len(leaves) > 1:
            body.append("  %%e%d = extractvalue %s %%r, %d" % (i, result, i))
            v = "%%e%d" % i
        if leaf == "float":
            body.append("  %%w%d = fpext float %s to double" % (i, v))
            v = "%%w%d" % i
        body.append("  %%p%d = getelementptr double, ptr %%out, i64 %d" % (i, i))
        body.append("  store double %s, ptr %%p%d" % (v, i))
    return body


def _ll(numba_type):
    """The LLVM type of a callback parameter."""
    name = str(numba_type)
    return _SCALARS[name][0] if name in _SCALARS else "ptr"


_STATUS_MARKER = 'metadata !"enzyme_const", ptr %status'


def raise_again(njit, args):
    """Runs `njit` on the arguments (arrays copied: the derivative has
    already made the call's side effects) so that the exception it raised
    inside the derivative is raised here with its message."""
    import numpy as np
    njit(*[np.array(v) if isinstance(v, np.ndarray) else v for v in args])


def _parameter_names(message, plan):
    """A diagnostic naming the C callback's parameters (`.1`, `.2`, ...:
    each array as its data pointer and its shape) by the Python
    parameters they carry."""
    import re
    flat = []
    for a in plan:
        flat.append("`%s`" % a.name)
        if a.array:
            flat += ["`%s.shape[%d]`" % (a.name, k) for k in range(a.ndim)]

    def name(m):
        k = int(m.group(1)) - 1
        return "argument " + flat[k] if 0 <= k < len(flat) else m.group(0)
    return re.sub(r"argument `\.(\d+)`", name, message)


def _resolve_recursion(cf):
    """The callback's IR, with the bodies of the recursive functions it
    calls. Numba compiles a call to a function that is still being typed
    (a recursive @njit helper) as a load of its address from a global
    `.numba.unresolved$NAME` that its own JIT fills in later: to the core
    that is a call through an unknown pointer. The library that defines
    NAME is linked in and the global becomes a constant holding NAME's
    address, which the optimization before differentiation folds into a
    direct call."""
    import re
    import llvmlite.binding as llvm
    ir = cf.inspect_llvm()
    pattern = r'^@"\.numba\.unresolved\$([\w.$]+)" = external [^\n]*$'
    if not re.search(pattern, ir, re.M):
        return ir
    libraries = _numba_libraries()
    texts = {}  # A library's IR, printed once.

    def defining(name):
        """The IR of the library that defines `name`, or None."""
        head = re.compile(r'^define [^@]*@"?%s"?\(' % re.escape(name), re.M)
        for library in libraries:
            if id(library) not in texts:
                texts[id(library)] = library.get_llvm_str()
            if head.search(texts[id(library)]):
                return texts[id(library)]
        return None

    module = llvm.parse_assembly(ir)
    linked = set()
    for _ in range(16):  # A linked body may ask for more.
        names = [n for n in re.findall(pattern, str(module), re.M)
                 if n not in linked]
        if not names:
            break
        for name in names:
            linked.add(name)
            text = defining(name)
            if text is None:
                continue
            other = llvm.parse_assembly(text)
            # Definitions the module already has (wrappers, helpers both
            # share) keep the module's: the other's are not emitted.
            for fn in other.functions:
                if fn.name != name and not fn.is_declaration:
                    try:
                        module.get_function(fn.name)
                    except NameError:
                        continue
                    fn.linkage = "available_externally"
            module.link_in(other)

    def bind(match):
        name = match.group(1)
        try:
            fn = module.get_function(name)
        except NameError:
            return match.group(0)
        if fn.is_declaration:
            return match.group(0)
        # (fn.type is the function's pointer type, as typed IR writes it.)
        return ('@".numba.unresolved$%s" = internal constant i8* bitcast '
                '(%s @%s to i8*)' % (name, fn.type, name))
    return re.sub(pattern, bind, str(module), flags=re.M)


def _type_array_parameters(ir, name, plan):
    """Marks the callback's array data pointers with the type of their
    elements (`"enzyme_type"="{[-1]:Pointer, [-1,-1]:Float@double}"`, as
    rustc marks a `&[f64]`): Numba's IR has typed
    pointers (`double*`), which LLVM 22 reads as plain `ptr`, and an array
    the function only copies (`x.copy()`, then read through a view made by
    a runtime call) was memory of unknown type to reverse mode."""
    import re
    kinds = []
    for a in plan:
        for k, t in enumerate(a.cfunc_types):
            dtype = str(a.dtype) if a.array and k == 0 else None
            kinds.append({"float64": "Float@double",
                          "float32": "Float@float"}.get(dtype))
    head = re.search(r'^define [^\n]*@"?%s"?\(' % re.escape(name), ir, re.M)
    if not head:
        return ir
    start = head.end()
    end = ir.index(")", start)
    params = ir[start:end].split(", ")
    if len(params) != len(kinds) + 1:  # The status pointer comes last.
        return ir
    for k, kind in enumerate(kinds):
        if kind:
            params[k] = '%s "enzyme_type"="{[-1]:Pointer, [-1,-1]:%s}" %s' % (
                params[k].rsplit(" ", 1)[0], kind, params[k].rsplit(" ", 1)[1])
    return ir[:start] + ", ".join(params) + ir[end:]


def _numba_libraries():
    """The code libraries of every compiled overload of the process's
    @njit functions (the recursive ones' own are not linked into their
    callers')."""
    import gc
    from numba.core.dispatcher import Dispatcher
    out = []
    for obj in gc.get_objects():
        try:
            if isinstance(obj, Dispatcher):
                for overload in list(obj.overloads.values()):
                    library = getattr(overload, "library", None)
                    if library is not None:
                        out.append(library)
        except ReferenceError:  # A weak proxy whose object is gone.
            continue
    return out


def _share_environments(ir):
    """Numba's functions find their environment (which `print()` and
    object-mode fallbacks need) through globals Numba fills in its own
    JIT; here the callback's module declares them instead of defining new
    empty ones, and they are bound to Numba's (without this a `print()`
    inside the function stops the call with "missing Environment")."""
    import re
    from numba.core.registry import cpu_target
    engine = cpu_target.target_context.codegen()._engine
    envs = []

    def declare(match):
        name = match.group(1)
        try:
            address = engine.get_global_value_address(name)
        except Exception:  # pragma: no cover - not Numba's
            address = 0
        if not address:
            return match.group(0)
        envs.append((name, address))
        return '@%s = external global i8*' % name

    ir = re.sub(r'^@"?(_ZN08NumbaEnv[\w.$]+)"? = common [^\n]*$', declare,
                ir, flags=re.M)
    return ir, envs


def _define_numba_symbols(jit, ir):
    """Numba's runtime (NRT) and helper functions the callback calls, from
    the addresses Numba publishes (its extension modules do not export
    them to the process)."""
    import re
    from numba import _helperlib
    from numba.core.runtime import _nrt_python
    declared = set(re.findall(r'^declare [^@]*@"?([\w.$]+)"?\(', ir, re.M))
    defined = set()
    for prefix, helpers in (("NRT_", _nrt_python.c_helpers),
                            ("numba_", _helperlib.c_helpers)):
        for key, address in helpers.items():
            if prefix + key in declared:
                jit.define_symbol(prefix + key, address)
                defined.add(prefix + key)
    # NumPy's math (`npy_log2`, `npy_logaddexp`) and other helpers Numba
    # registers with LLVM's symbol table (`numba_gamma`).
    import llvmlite.binding as ll
    for name in declared - defined:
        if name.startswith(("npy_", "numba_")):
            address = ll.address_of_symbol(name)
            if address:
                jit.define_symbol(name, address)


def enzyme_reverse(enzyme_const=None, enzyme_dup=None, val_and_grad=False,
                   torch_compat=False):
    """Decorator: the function returns its gradient with respect to the
    arguments named in enzyme_dup (every floating-point argument not named
    in enzyme_const when enzyme_dup is not given): a scalar's gradient, an
    array's gradient array (`shadows={"name": array}` to accumulate into an
    array of the caller's), or a tuple in argument order; with val_and_grad,
    (value, gradient). With torch_compat=True (PyTorch installed) it is a
    PyTorch function instead: tensors in, a 0-dim tensor of the value out,
    and `backward()` gives the active arguments their gradients."""
    def wrap(func):
        if torch_compat:
            from ._torch import TorchFunction
            return TorchFunction(_Derivative(func, "reverse", enzyme_const,
                                             enzyme_dup, True))
        return _Derivative(func, "reverse", enzyme_const, enzyme_dup,
                           val_and_grad)
    return wrap


def enzyme_forward(enzyme_const=None, enzyme_dup=None, val_and_grad=False):
    """Decorator: the function returns the directional derivative along the
    call's keyword argument tangents={"name": value or array} (missing
    names: zero); with val_and_grad, (value, derivative)."""
    def wrap(func):
        return _Derivative(func, "forward", enzyme_const, enzyme_dup,
                           val_and_grad)
    return wrap
