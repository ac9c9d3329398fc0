// Requests the core once accepted without a word (exit 0, and then a
// link error, an ignored marker or a wrong result): each is now a
// diagnostic naming the function and the call, a non-zero exit and no
// output file.
//  - a request through a function pointer (volatile, or stored: the entry
//    point's address used other than as a callee);
//  - enzyme_seed in forward mode, and given twice; enzyme_width twice;
//  - __enzyme_augmentsize with fewer activities than parameters;
//  - a null tape given to __enzyme_reverse, a tape from __enzyme_augmentfwd
//    of another function or with other activities.
// RUN: %clang -S -emit-llvm -O2 %s -o %t.ll
// RUN: not %autodiff-opt %t.ll -o %t.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t.out.ll
// RUN: %clang -S -emit-llvm -O2 -DPOINTER %s -o %t.p.ll
// RUN: not %autodiff-opt %t.p.ll -o %t.p.out.ll 2>&1 | FileCheck %s --check-prefix=POINTER
// RUN: not test -e %t.p.out.ll
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone -DPOINTER %s -o %t.p0.ll
// RUN: not %autodiff-opt %t.p0.ll -o %t.p0.out.ll 2>&1 | FileCheck %s --check-prefix=POINTER
// RUN: not test -e %t.p0.out.ll

// CHECK-DAG: error: in function `forward_seed`, call to `__enzyme_fwddiff`: enzyme_seed (the seed of the differential return) is only valid with __enzyme_autodiff
// CHECK-DAG: error: in function `seed_twice`, call to `__enzyme_autodiff`: enzyme_seed is given twice
// CHECK-DAG: error: in function `width_twice`, call to `__enzyme_fwddiff_v2`: enzyme_width is given twice
// CHECK-DAG: error: in function `width_wide`, call to `__enzyme_fwddiff_v2`: enzyme_width must be followed by a constant between 1 and 64
// CHECK-DAG: error: in function `size_query`, call to `__enzyme_augmentsize`: __enzyme_augmentsize of `ss` gives 1 activity for 2 parameters
// CHECK-DAG: error: in function `null_tape`, call to `__enzyme_reverse`: the tape passed to __enzyme_reverse is null
// CHECK-DAG: error: in function `other_tape`, call to `__enzyme_reverse`: the tape passed to __enzyme_reverse of `ss` comes from __enzyme_augmentfwd of `vs`
// CHECK-DAG: error: in function `other_markers`, call to `__enzyme_reverse`: the tape passed to __enzyme_reverse of `ss` was made by __enzyme_augmentfwd with other activities (augmented aug(ss)[dup,const]w1+dret, reversed revsplit(ss)[const,const]w1+dret)
// POINTER: error: in function `through_pointer`, `store`: the address of `__enzyme_fwddiff` is used other than as the callee of a call: a request must call it directly

typedef struct { double d[2]; } v2;
double __enzyme_fwddiff(void *, ...);
v2 __enzyme_fwddiff_v2(void *, ...);
double __enzyme_autodiff(void *, ...);
long __enzyme_augmentsize(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
extern int enzyme_const, enzyme_dup, enzyme_out, enzyme_seed, enzyme_width;

double f(double x, double y) { return x * x * y; }
double ss(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

#ifdef POINTER
double through_pointer(void) {
  double (*volatile p)(void *, ...) = __enzyme_fwddiff;
  return p((void *)f, 3.0, 1.0, enzyme_const, 2.0);
}
#else
double forward_seed(void) {
  return __enzyme_fwddiff((void *)f, enzyme_seed, 2.0, 3.0, 1.0,
                          enzyme_const, 2.0);
}
double seed_twice(void) {
  return __enzyme_autodiff((void *)f, enzyme_seed, 2.0, enzyme_seed, 5.0,
                           enzyme_out, 3.0, enzyme_const, 2.0);
}
v2 width_twice(void) {
  return __enzyme_fwddiff_v2((void *)f, enzyme_width, 1, enzyme_width, 2,
                             3.0, 1.0, 0.0, enzyme_const, 2.0);
}
v2 width_wide(void) { /* 2^64 + 2 as an i128: no width 2 */
  return __enzyme_fwddiff_v2((void *)f, enzyme_width,
                             ((__int128)1 << 64) + 2, 3.0, 1.0, 0.0,
                             enzyme_const, 2.0);
}
long size_query(void) { return __enzyme_augmentsize((void *)ss, enzyme_dup); }
void vs(double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * x[i];
}
void other_tape(double *x, double *dx, double *y, double *dy) {
  void *t = __enzyme_augmentfwd((void *)vs, enzyme_dup, x, dx, enzyme_dup, y,
                                dy, enzyme_const, 2);
  __enzyme_reverse((void *)ss, enzyme_dup, x, dx, enzyme_const, 2, 1.0, t);
}
void other_markers(double *x, double *dx) {
  void *t = __enzyme_augmentfwd((void *)ss, enzyme_dup, x, dx, enzyme_const, 2);
  __enzyme_reverse((void *)ss, enzyme_const, x, enzyme_const, 2, 1.0, t);
}
void null_tape(double *x, double *dx) {
  __enzyme_reverse((void *)ss, enzyme_dup, x, dx, enzyme_const, 2, 1.0,
                   (void *)0);
}
#endif
