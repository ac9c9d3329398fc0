// Small structs that the x86-64 ABI packs into integer registers:
// `{float; int}` and `{int; float}` travel as one i64, `{float; int;
// float}` as {i64, float}, both modes. At -O0 the caller keeps the i64 a
// noinline helper returned in a stack slot and loads it back before
// passing it on; that slot is typed integer by the copy alone, and the
// forward tangent was silently dropped (0 for 15, the hunt's m29); the
// float packed in the i64 of {i64, float} was lost at every level (4.6875
// for 9.6875). Reverse mode refused all of them (at -O0 the slots become
// shifts and bitcasts of the float's bits; at -O1..-O3 the inlined chain
// of helpers repacks the struct with a funnel shift): it now folds the
// packing away (InstCombine, then FoldFloatPacking). Tangents and
// gradients against finite differences and the analytic values.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

typedef struct { float w; int idx; } Weighted;
typedef struct { int tag; float val; } Tagged;
typedef struct { float a; int n; float b; } Triple;

__attribute__((noinline)) Weighted make_weighted(float w, int i) {
  Weighted r = {w * w, i};
  return r;
}
__attribute__((noinline)) Weighted pass_on(Weighted a) { return a; }
__attribute__((noinline)) Tagged retag(Weighted a) {
  Tagged r = {a.idx, a.w * 2.0f};
  return r;
}
__attribute__((noinline)) float use_tagged(Tagged t) { return t.val * t.tag; }
__attribute__((noinline)) Triple make_triple(float x) {
  Triple t = {x * x, 2, x * x * x};
  return t;
}
__attribute__((noinline)) float use_triple(Triple t) {
  return t.a * t.n + t.b;
}

/* 6 x^2 */
double chain(double x) {
  Weighted w = make_weighted((float)x, 3);
  Weighted v = pass_on(w);
  Tagged t = retag(v);
  return use_tagged(t);
}
/* x^2 + 4: a field of the returned struct read in the caller */
double field(double x) {
  Weighted w = make_weighted((float)x, 4);
  return w.w + w.idx;
}
/* 2 x^2 + x^3 */
double triple(double x) { return use_triple(make_triple((float)x)); }
/* two structs copied through a local array: 2 x^2 + x^2 = 3 x^2 */
double array_copy(double x) {
  Weighted a[2];
  a[0] = make_weighted((float)x, 2);
  a[1] = pass_on(a[0]);
  return a[0].w * a[0].idx + a[1].w;
}

/* Integer fields beside a double, returned in registers ({i32, double}
   and {double, i32}): a count is no float's bits, and `count + 1` passed
   to a helper is no reason to refuse (a false refusal at -O0 while this
   was built). f = 7 (x0^2 + x2^2) for x = {1, -2, 3}. */
typedef struct { int count; double value; } Acc;
typedef struct { double value; int count; } Acc2;
__attribute__((noinline)) Acc accumulate(const double *x, int n) {
  Acc r = {0, 0.0};
  for (int i = 0; i < n; ++i)
    if (x[i] > 0) {
      r.value += x[i] * x[i];
      r.count++;
    }
  return r;
}
__attribute__((noinline)) Acc2 accumulate2(const double *x, int n) {
  Acc2 r = {0.0, 0};
  for (int i = 0; i < n; ++i)
    if (x[i] > 0) {
      r.value += x[i] * x[i];
      r.count++;
    }
  return r;
}
__attribute__((noinline)) double scale(int k, double v) { return v * k; }
double counted(const double *x, int n) {
  Acc a = accumulate(x, n);
  Acc2 b = accumulate2(x, n);
  return scale(a.count + 1, a.value) + scale(b.count * 2, b.value);
}

int main(void) {
  double x = 1.25;
  CHECK_CLOSE_F(12 * x, fd_scalar(chain, x));
  CHECK_CLOSE_F(12 * x, __enzyme_fwddiff((void *)chain, x, 1.0));
  CHECK_CLOSE_F(2 * x, __enzyme_fwddiff((void *)field, x, 1.0));
  CHECK_CLOSE_F(4 * x + 3 * x * x, fd_scalar(triple, x));
  CHECK_CLOSE_F(4 * x + 3 * x * x, __enzyme_fwddiff((void *)triple, x, 1.0));
  CHECK_CLOSE_F(6 * x, __enzyme_fwddiff((void *)array_copy, x, 1.0));
  double v[3] = {1.0, -2.0, 3.0}, dv[3] = {1.0, 1.0, 1.0};
  CHECK_CLOSE(14 * (v[0] + v[2]),
              __enzyme_fwddiff((void *)counted, enzyme_dup, v, dv,
                               enzyme_const, 3));

  CHECK_CLOSE_F(2 * x, __enzyme_autodiff((void *)field, x));
  CHECK_CLOSE_F(4 * x + 3 * x * x, __enzyme_autodiff((void *)triple, x));
  CHECK_CLOSE_F(6 * x, __enzyme_autodiff((void *)array_copy, x));
  double gv[3] = {0, 0, 0};
  __enzyme_autodiff((void *)counted, enzyme_dup, v, gv, enzyme_const, 3);
  CHECK_CLOSE(14 * v[0], gv[0]);
  CHECK_CLOSE(0, gv[1]);
  CHECK_CLOSE(14 * v[2], gv[2]);
  CHECK_CLOSE_F(12 * x, __enzyme_autodiff((void *)chain, x));
  return fd_report();
}
