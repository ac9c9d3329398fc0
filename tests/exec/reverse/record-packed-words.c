// Records whose first eight bytes mix a float with integers travel by
// value as one i64 (x86-64 ABI); once inlined, storing one is a store of
// a word built from the float's bits (zext, shl, or), which reverse mode
// now splits into one store per field.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

struct T { float w; int k; };
struct U { int k; float w; };
struct P { float w; unsigned char tag; };
struct S { float a; int k; double b; };

static struct T mk_t(double x, int k) { struct T t; t.w = (float)(x * x); t.k = k; return t; }
__attribute__((noinline)) static void put_t(struct T *dst, struct T v) { *dst = v; }
__attribute__((noinline)) static struct U mk_u(double x, int k) { struct U u = {k, (float)(3 * x)}; return u; }
__attribute__((noinline)) static struct P mk_p(double x, int i) { struct P p = {(float)(x + 1), (unsigned char)(i + 1)}; return p; }
__attribute__((noinline)) static struct S mk_s(double x, double y, int k) { struct S s; s.a = (float)x; s.k = k; s.b = y; return s; }
__attribute__((noinline)) static void cp_s(struct S *dst, const struct S *src) { *dst = *src; }

/* {float; int} built by value, stored through a noinline helper at a permuted place. */
static double by_value_store(const double *x, int n) {
  struct T a[8];
  for (int i = 0; i < n; ++i) put_t(&a[(i * 3) % n], mk_t(x[i], i));
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].w * (a[i].k + 1);
  return s;
}

/* {int; float} and {float; char + padding} returned by value into arrays. */
static double returned(const double *x, int n) {
  struct U u[8];
  struct P p[8];
  for (int i = 0; i < n; ++i) { u[n - 1 - i] = mk_u(x[i], i); p[i] = mk_p(x[i], i); }
  double s = 0;
  for (int i = 0; i < n; ++i) s += u[i].w * u[i].k + p[i].w * p[i].w * p[i].tag;
  return s;
}

/* {float; int; double}: the float and the int share one i64. */
static double mixed(const double *x, int n) {
  struct S arr[8], tmp[8];
  for (int i = 0; i < n; ++i) arr[i] = mk_s(x[i], x[i] * x[(i + 1) % n], i * 3 % n);
  for (int i = 0; i < n; ++i) cp_s(&tmp[arr[i].k], &arr[i]);
  double s = 0;
  for (int i = 0; i < n; ++i) s += (double)tmp[i].a * tmp[i].b * (i + 1) + tmp[i].k * tmp[i].b;
  return s;
}

int main(void) {
  /* float-exact inputs, analytic references (float rounding of the
     fields would swamp finite differences). */
  double x[5] = {0.5, -1.25, 0.75, 1.5, -0.375};
  int n = 5;
  double d1[5] = {0}, d2[5] = {0}, d3[5] = {0}, r3[5] = {0};
  __enzyme_autodiff((void *)by_value_store, enzyme_dup, x, d1, enzyme_const, n);
  __enzyme_autodiff((void *)returned, enzyme_dup, x, d2, enzyme_const, n);
  __enzyme_autodiff((void *)mixed, enzyme_dup, x, d3, enzyme_const, n);
  for (int i = 0; i < n; ++i) {
    int j = (i + 1) % n, k = i * 3 % n;
    r3[i] += 2 * x[i] * x[j] * (k + 1) + k * x[j];
    r3[j] += x[i] * x[i] * (k + 1) + k * x[i];
  }
  for (int i = 0; i < n; ++i) {
    CHECK_CLOSE(2 * x[i] * (i + 1), d1[i]);
    CHECK_CLOSE(3.0 * i + 2 * (x[i] + 1) * (i + 1), d2[i]);
    CHECK_CLOSE(r3[i], d3[i]);
  }
  return fd_report();
}
