// Integer arithmetic on the bits of an active double, written through a
// union (a nextafter-like ulp step, a fast log2 reading the bits as a
// number), has no derivative the core can give: a diagnostic at every
// optimization level, never a silent zero.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: in function `next_up`{{.*}}integer `add` on the bits of an active floating-point value
// CHECK-DAG: in function `fast_log2`{{.*}}`sitofp` reads the bits of an active floating-point value as a number
#include <stdint.h>

extern int enzyme_dup;
double __enzyme_fwddiff(void *, ...);
float __enzyme_fwddiff_f(float (*)(float), float, float);

typedef union {
  double d;
  uint64_t u;
} U64;
__attribute__((noinline)) double next_up(double x) {
  U64 v = {x};
  v.u += 1;
  return v.d;
}
double use_next(double x) { return next_up(x * x) * 2.0; }

typedef union {
  float f;
  int32_t i;
} U32;
__attribute__((noinline)) float fast_log2(float x) {
  U32 v = {x};
  return (float)v.i * (1.0f / (1 << 23)) - 127.0f;
}

double d_next(double x) { return __enzyme_fwddiff((void *)use_next, x, 1.0); }
float d_log2(float x) { return __enzyme_fwddiff_f(fast_log2, x, 1.0f); }
