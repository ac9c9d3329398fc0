# forward-cfunc.py on Numba's unoptimized IR (NUMBA_OPT=0): the cfunc
# wrappers keep their error paths (status checks, numba_unpickle,
# numba_do_raise, PyErr_* under the GIL) next to the active code, and the
# inner functions keep their allocas and loops as Numba emitted them.
#
# REQUIRES: numba
# RUN: %python-numba %S/forward-cfunc.py --numba-opt 0 --clang %clang --autodiff-opt %autodiff-opt --testlib %testlib --inputs %S/Inputs --work %t
