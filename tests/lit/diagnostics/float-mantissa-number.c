// Mantissa bits of an active float read as a number change with the float
// by steps too small to see: the derivative is not zero, and forward mode
// has none to give, so each form is a diagnostic at every level (they gave
// a silent zero for that term before). Sign and exponent bits read as
// numbers are piecewise constant; exec/forward/float-exponent-numbers.c
// checks those still differentiate.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s
// RUN: not ls %t0.out.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: in function `masked`{{.*}}reads the bits of an active floating-point value as a number, mantissa bits included
// CHECK-DAG: in function `in_slot`{{.*}}reads the bits of an active floating-point value as a number, mantissa bits included
// CHECK-DAG: in function `shifted`{{.*}}reads the bits of an active floating-point value as a number, mantissa bits included
// CHECK-DAG: in function `single`{{.*}}reads the bits of an active floating-point value as a number, mantissa bits included
#include <stdint.h>
#include <string.h>

double __enzyme_fwddiff(void *, ...);
float __enzyme_fwddiff_f(float (*)(float), float, float);

double masked(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return (double)(b & 0xfffffffffffffull) * x;
}

double in_slot(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  uint64_t m = b & 0xfffffffffffffull;
  m = m + 1;
  double d = (double)m;
  return d * 1e-16;
}

/* The top mantissa bits next to the exponent, shifted down. */
double shifted(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return (double)((b >> 44) & 0xffff);
}

float single(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return (float)(int32_t)(b & 0x7fffff) + x;
}

double run(double x) {
  return __enzyme_fwddiff((void *)masked, x, 1.0) +
         __enzyme_fwddiff((void *)in_slot, x, 1.0) +
         __enzyme_fwddiff((void *)shifted, x, 1.0) +
         __enzyme_fwddiff_f(single, (float)x, 1.0f);
}
