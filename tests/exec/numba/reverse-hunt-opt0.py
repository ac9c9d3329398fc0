# reverse-hunt.py on Numba's unoptimized IR (NUMBA_OPT=0): the array
# structs live in allocas initialized to zeroinitializer and are stored and
# loaded whole, next to inactive fields (meminfo, parent) beside the active
# data pointer; the cfunc with an output array joins such structs in phis.
#
# REQUIRES: numba
# RUN: %python-numba %S/reverse-hunt.py --numba-opt 0 --clang %clang --autodiff-opt %autodiff-opt --testlib %testlib --inputs %S/Inputs --work %t
