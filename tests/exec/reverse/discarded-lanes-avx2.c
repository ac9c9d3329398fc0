// discarded-arms.c vectorized for AVX2 with fast math: the guarded
// product becomes a vector.reduce.fmul (no reverse rule before), and the
// five-element loops' last vectors hold masked-off lanes that divide 0 by
// 0 before a shuffle drops them, and the guarded store becomes a masked
// store whose left-out lanes divide by zero (NaN gradients before).
// REQUIRES: avx2
// RUN: sh %testlib/run-c.sh %s -mavx2 -ffast-math
// RUN: sh %testlib/run-c.sh %s -mavx2
#include "discarded-arms.c"
