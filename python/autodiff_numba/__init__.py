"""Derivatives of Numba functions, through the autodiff library's JIT.

    from autodiff_numba import enzyme_reverse, enzyme_forward

    @enzyme_reverse(enzyme_const="x", enzyme_dup="y", val_and_grad=True)
    def product(x, y):
        return x * y

    val, grad = product(3.0, 5.0)        # (15.0, 3.0)

The function is compiled by Numba (as a C callback, `numba.cfunc`) for the
types of the arguments of each new call signature; its LLVM IR and a small
driver asking for the derivative (`__enzyme_autodiff` / `__enzyme_fwddiff`)
go to the library's JIT, and the compiled derivative is called through
ctypes. Compiled derivatives are cached per argument-type signature.

This first step takes scalar arguments (float64, float32, integers as
constants); arrays are refused with AutodiffError. See docs/host-api.md.
"""
import ctypes

from ._capi import AutodiffError, Jit, library

__all__ = ["AutodiffError", "enzyme_reverse", "enzyme_forward", "version"]


def version():
    """The library's version string."""
    return library().ad_version().decode()


def _names(value):
    if value is None:
        return set()
    if isinstance(value, str):
        return {value}
    return set(value)


_SCALARS = {"float64": ("double", ctypes.c_double),
            "float32": ("float", ctypes.c_float),
            "int64": ("i64", ctypes.c_int64),
            "int32": ("i32", ctypes.c_int32)}


class _Derivative:
    """A Python function, its activities, and its compiled derivatives."""

    def __init__(self, func, mode, const, dup, val_and_grad):
        import inspect
        self.func = func
        self.mode = mode
        self.params = list(inspect.signature(func).parameters)
        self.const = _names(const)
        self.dup = _names(dup)
        unknown = (self.const | self.dup) - set(self.params)
        if unknown:
            raise AutodiffError("%s: no parameter named %s" % (
                func.__name__, ", ".join(sorted(unknown))))
        if self.const & self.dup:
            raise AutodiffError("%s: %s both enzyme_const and enzyme_dup" % (
                func.__name__, ", ".join(sorted(self.const & self.dup))))
        self.val_and_grad = val_and_grad
        self.cache = {}  # Numba types -> (JIT, compiled derivatives, types)
        self.fast = {}  # Python types -> the same entry
        self._njit = None

    def _types(self, args):
        import numba
        types = []
        for name, value in zip(self.params, args):
            t = numba.typeof(value)
            if str(t) not in _SCALARS:
                raise AutodiffError(
                    "%s: argument `%s` has type %s; only float64, float32 and "
                    "integer scalars are supported yet" % (
                        self.func.__name__, name, t))
            if str(t).startswith("int") and name in self.dup:
                raise AutodiffError(
                    "%s: argument `%s` is an integer and cannot be active "
                    "(enzyme_dup)" % (self.func.__name__, name))
            types.append(t)
        return tuple(types)

    def _active(self, name, t):
        """Active unless named const; integers are always constant."""
        return name not in self.const and not str(t).startswith("int")

    def _compile(self, types):
        import numba
        if self._njit is None:
            self._njit = numba.njit(self.func)
        self._njit.compile(types)
        ret = self._njit.overloads[types].signature.return_type
        if str(ret) not in ("float64", "float32"):
            raise AutodiffError("%s returns %s; a float64 or float32 result "
                                "is needed" % (self.func.__name__, ret))
        cf = numba.cfunc(ret(*types))(self.func)
        ir = cf.inspect_llvm()
        jit = Jit("-O2")
        jit.add_module(ir)
        ll = [_SCALARS[str(t)][0] for t in types]
        rll, rct = _SCALARS[str(ret)]
        callees = []
        drivers = []
        if self.mode == "reverse":
            # One sweep: the gradients of the active arguments (and the
            # primal value first, with val_and_grad), each widened to double
            # and stored into `out`.
            params, args, leaves = [], [], []
            if self.val_and_grad:
                args.append('metadata !"enzyme_primal_return"')
                leaves.append(rll)
            for j, (name, t) in enumerate(zip(self.params, types)):
                params.append("%s %%a%d" % (ll[j], j))
                marker = "enzyme_out" if self._active(name, t) else "enzyme_const"
                args.append('metadata !"%s", %s %%a%d' % (marker, ll[j], j))
                if marker == "enzyme_out":
                    leaves.append(ll[j])
            if not leaves:
                raise AutodiffError("%s: no active argument" %
                                    self.func.__name__)
            result = leaves[0] if len(leaves) == 1 else \
                "{%s}" % ", ".join(leaves)
            body = ["  %%r = call %s (ptr, ...) @__enzyme_autodiff(ptr @\"%s\", %s)"
                    % (result, cf.native_name, ", ".join(args))]
            for i, leaf in enumerate(leaves):
                v = "%r"
                if len(leaves) > 1:
                    body.append("  %%e%d = extractvalue %s %%r, %d" % (i, result, i))
                    v = "%%e%d" % i
                if leaf == "float":
                    body.append("  %%w%d = fpext float %s to double" % (i, v))
                    v = "%%w%d" % i
                body.append("  %%p%d = getelementptr double, ptr %%out, i64 %d"
                            % (i, i))
                body.append("  store double %s, ptr %%p%d" % (v, i))
            drivers.append("define void @grad(%s, ptr %%out) {\n%s\n  ret void\n}\n"
                           % (", ".join(params), "\n".join(body)))
            callees.append((len(leaves), "grad", ctypes.CFUNCTYPE(
                None, *([_SCALARS[str(x)][1] for x in types] +
                        [ctypes.POINTER(ctypes.c_double)]))))
            decl = "declare void @__enzyme_autodiff(ptr, ...)\n"
        else:
            params, args = [], []
            for j, (name, t) in enumerate(zip(self.params, types)):
                params.append("%s %%a%d" % (ll[j], j))
                if self._active(name, t):
                    params.append("%s %%t%d" % (ll[j], j))
                    args.append('metadata !"enzyme_dup", %s %%a%d, %s %%t%d' % (
                        ll[j], j, ll[j], j))
                else:
                    args.append('metadata !"enzyme_const", %s %%a%d' % (ll[j], j))
            drivers.append(
                "define %s @tangent(%s) {\n"
                "  %%r = call %s (ptr, ...) @__enzyme_fwddiff(ptr @\"%s\", %s)\n"
                "  ret %s %%r\n}\n" % (rll, ", ".join(params), rll,
                                       cf.native_name, ", ".join(args), rll))
            ctypes_args = []
            for name, t in zip(self.params, types):
                ctypes_args.append(_SCALARS[str(t)][1])
                if self._active(name, t):
                    ctypes_args.append(_SCALARS[str(t)][1])
            callees.append((None, "tangent", ctypes.CFUNCTYPE(rct, *ctypes_args)))
            decl = "declare void @__enzyme_fwddiff(ptr, ...)\n"
        decl += 'declare %s @"%s"(%s)\n' % (rll, cf.native_name, ", ".join(ll))
        jit.add_module(decl + "".join(drivers))
        compiled = [(k, proto(jit.lookup(sym)), ctypes.c_double * (k or 1))
                    for k, sym, proto in callees]
        return jit, compiled

    def __call__(self, *args, tangents=None):
        if len(args) != len(self.params):
            raise TypeError("%s takes %d arguments" % (self.func.__name__,
                                                       len(self.params)))
        # The Python types of the arguments find the compiled derivative
        # without asking Numba (numba.typeof costs more than the call).
        key = tuple(map(type, args))
        entry = self.fast.get(key)
        if entry is None:
            types = self._types(args)
            entry = self.cache.get(types)
            if entry is None:
                entry = self.cache[types] = self._compile(types) + (types,)
            self.fast[key] = entry
        _, compiled, types = entry
        if self.mode == "reverse":
            count, fn, buffer = compiled[0]
            out = buffer()
            fn(*args, out)
            leaves = list(out)
            if self.val_and_grad:
                value, grads = leaves[0], leaves[1:]
                return value, (grads[0] if len(grads) == 1 else tuple(grads))
            return leaves[0] if len(leaves) == 1 else tuple(leaves)
        else:
            tangents = tangents or {}
            call = []
            for name, t, value in zip(self.params, types, args):
                call.append(value)
                if self._active(name, t):
                    call.append(tangents.get(name, 0.0))
            grad = compiled[0][1](*call)
        if self.val_and_grad:
            return self._njit(*args), grad
        return grad


def enzyme_reverse(enzyme_const=None, enzyme_dup=None, val_and_grad=False):
    """Decorator: the function returns its gradient with respect to the
    arguments named in enzyme_dup (all floating-point arguments not named
    in enzyme_const when enzyme_dup is not given): one value, or a tuple in
    argument order; with val_and_grad, (value, gradient)."""
    def wrap(func):
        d = _Derivative(func, "reverse", enzyme_const, enzyme_dup, val_and_grad)
        if enzyme_dup is not None:
            d.const |= set(d.params) - d.dup
        return d
    return wrap


def enzyme_forward(enzyme_const=None, enzyme_dup=None, val_and_grad=False):
    """Decorator: the function returns the directional derivative along the
    call's keyword argument tangents={"name": value} (missing names: 0); with
    val_and_grad, (value, derivative)."""
    def wrap(func):
        d = _Derivative(func, "forward", enzyme_const, enzyme_dup, val_and_grad)
        if enzyme_dup is not None:
            d.const |= set(d.params) - d.dup
        return d
    return wrap
