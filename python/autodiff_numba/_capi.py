"""ctypes binding of the C API (runtime/include/autodiff/autodiff.h).

The library is `libautodiff.so`: the one named by the environment variable
AUTODIFF_LIB, else build/lib/libautodiff.so of the repository this package
lives in.
"""
import ctypes
import os

__all__ = ["AutodiffError", "Jit", "library"]


class AutodiffError(Exception):
    """A problem reported by the autodiff library: its diagnostic text."""


_LIB = None


def library():
    """The loaded libautodiff.so (loaded on first use)."""
    global _LIB
    if _LIB is not None:
        return _LIB
    path = os.environ.get("AUTODIFF_LIB")
    if not path:
        here = os.path.dirname(os.path.abspath(__file__))
        path = os.path.join(here, "..", "..", "build", "lib", "libautodiff.so")
    if not os.path.exists(path):
        raise AutodiffError(
            "cannot find libautodiff.so at %s: build the project (README) or "
            "set AUTODIFF_LIB" % os.path.normpath(path))
    lib = ctypes.CDLL(path)
    lib.ad_version.restype = ctypes.c_char_p
    lib.ad_version.argtypes = []
    lib.ad_free_error.restype = None
    lib.ad_free_error.argtypes = [ctypes.c_void_p]
    lib.ad_jit_create.restype = ctypes.c_void_p
    lib.ad_jit_create.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    lib.ad_jit_add_module.restype = ctypes.c_int
    lib.ad_jit_add_module.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                      ctypes.c_size_t, ctypes.c_void_p]
    lib.ad_jit_define_symbol.restype = ctypes.c_int
    lib.ad_jit_define_symbol.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                         ctypes.c_void_p, ctypes.c_void_p]
    lib.ad_jit_lookup.restype = ctypes.c_void_p
    lib.ad_jit_lookup.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                  ctypes.c_void_p]
    lib.ad_jit_destroy.restype = None
    lib.ad_jit_destroy.argtypes = [ctypes.c_void_p]
    _LIB = lib
    return lib


def _raise(error, what):
    """Raises AutodiffError with the message in `error` (a c_void_p the
    library set), freeing it."""
    lib = library()
    text = ctypes.cast(error, ctypes.c_char_p).value if error.value else None
    if error.value:
        lib.ad_free_error(error)
    raise AutodiffError("%s: %s" % (what, readable(text.decode())
                                     if text else "failed"))


def _numba_name(match):
    """`module.qualname` of a name Numba mangled (`_ZN8__main__5innerB2v3
    ...E...`): its length-prefixed parts, up to the ABI tag or the
    argument types."""
    text, parts = match.group(0), []
    text = text[text.find("_ZN"):]
    at = 3
    while at < len(text) and text[at].isdigit():
        end = at
        while end < len(text) and text[end].isdigit():
            end += 1
        size = int(text[at:end])
        parts.append(text[end:end + size])
        at = end + size
    if not parts:
        return text
    name = ".".join(parts).replace("_3c", "<").replace("_3e", ">")
    return name.replace("<dynamic>.callback", "the C callback")


def readable(message):
    """A diagnostic with Numba's mangled function names (the C callback
    `cfunc._ZN13_3cdynamic_3e8callbackB2v...`, inner functions
    `_ZN8__main__5innerB2v3...`) shown as Python names."""
    import re
    return re.sub(r"(?:cfunc\.)?_ZN[0-9A-Za-z_$]+", _numba_name, message)


class Jit:
    """One ad_jit: modules in, callable addresses out."""

    def __init__(self, options="-O2"):
        lib = library()
        error = ctypes.c_void_p()
        self._jit = lib.ad_jit_create(options.encode(), ctypes.byref(error))
        if not self._jit:
            _raise(error, "ad_jit_create")

    def add_module(self, ir):
        data = ir.encode() if isinstance(ir, str) else bytes(ir)
        error = ctypes.c_void_p()
        if not library().ad_jit_add_module(self._jit, data, len(data),
                                           ctypes.byref(error)):
            _raise(error, "ad_jit_add_module")

    def define_symbol(self, name, address):
        error = ctypes.c_void_p()
        if not library().ad_jit_define_symbol(self._jit, name.encode(),
                                              address, ctypes.byref(error)):
            _raise(error, "ad_jit_define_symbol")

    def lookup(self, name):
        error = ctypes.c_void_p()
        address = library().ad_jit_lookup(self._jit, name.encode(),
                                          ctypes.byref(error))
        if not address:
            _raise(error, "ad_jit_lookup")
        return address

    def __del__(self):
        jit = getattr(self, "_jit", None)
        if jit and _LIB is not None:
            _LIB.ad_jit_destroy(jit)
            self._jit = None
