// Forward mode through atomic operations on active data: atomicrmw fadd,
// fsub, fmax, fmin and xchg, compare-exchange (succeeding and failing, on
// doubles and on the i64 bits clang moves them as), C11 `_Atomic double`
// compound assignment (a cmpxchg loop), atomic loads and stores, and an
// integer atomic counter beside active data (no derivative, but the
// primal side effect must happen). Every tangent is checked against an
// analytic formula and a finite difference.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <stdatomic.h>

double fetch_add_local(double x) {
  double a = 1.0;
  __atomic_fetch_add(&a, 3.0 * x * x, __ATOMIC_SEQ_CST);
  return a;
}

double fetch_sub_local(double x) {
  double a = 10.0;
  double old = __atomic_fetch_sub(&a, x * x, __ATOMIC_SEQ_CST);
  return a + 2.0 * old; /* old is the constant 10 */
}

double fetch_add_returns_old(double x) {
  double a = x * x;
  double old = __atomic_fetch_add(&a, x, __ATOMIC_SEQ_CST);
  return old * a; /* x^2 * (x^2 + x) */
}

double fetch_max_local(double x) {
  double a = 1.0;
  __atomic_fetch_max(&a, x * x, __ATOMIC_SEQ_CST);
  return a;
}

double fetch_min_local(double x) {
  double a = 3.0 * x;
  __atomic_fetch_min(&a, x * x, __ATOMIC_SEQ_CST);
  return a;
}

double c11_compound(double x) {
  _Atomic double a = 1.0;
  a += x * x;
  a *= x;
  return a; /* (1 + x^2) x */
}

double cmpxchg_succeeds(double x) {
  double a = 2.0, expected = 2.0, desired = x * x * x;
  __atomic_compare_exchange(&a, &expected, &desired, 0, __ATOMIC_SEQ_CST,
                            __ATOMIC_SEQ_CST);
  return a; /* x^3 */
}

double cmpxchg_fails(double x) {
  double a = x * x, expected = -1.0, desired = 7.0 * x;
  __atomic_compare_exchange(&a, &expected, &desired, 0, __ATOMIC_SEQ_CST,
                            __ATOMIC_SEQ_CST);
  return a + expected; /* the failure writes a into expected: 2 x^2 */
}

void exchange_into(double *out, double x) {
  double v = 5.0 * x, old;
  __atomic_exchange(out, &v, &old, __ATOMIC_SEQ_CST);
  out[1] = old * x; /* old = out[0] on entry */
}

void cmpxchg_into(double *out, double x) {
  double expected = out[0], desired = 5.0 * x;
  __atomic_compare_exchange(out, &expected, &desired, 0, __ATOMIC_SEQ_CST,
                            __ATOMIC_SEQ_CST);
}

double load_store(double *p, double x) {
  double v;
  __atomic_load(p, &v, __ATOMIC_ACQUIRE);
  v *= x;
  __atomic_store(p, &v, __ATOMIC_RELEASE);
  return v;
}

typedef struct {
  double value;
  long count;
} Counter;

void count_and_add(Counter *c, double x) {
  __atomic_fetch_add(&c->count, 1, __ATOMIC_RELAXED);
  c->value += x * x;
}

/* A macro: the first argument of a request must be the function itself. */
#define check_scalar(f, x, analytic)                                           \
  do {                                                                         \
    CHECK_CLOSE((analytic), fd_scalar(f, (x)));                                \
    CHECK_CLOSE((analytic), __enzyme_fwddiff((void *)f, (x), 1.0));            \
  } while (0)

static double exchange_out0(double x) {
  double out[2] = {1.5, 0.0};
  exchange_into(out, x);
  return out[0] + out[1];
}

static double cmpxchg_out0(double x) {
  double out[1] = {0.25};
  cmpxchg_into(out, x);
  return out[0];
}

int main(void) {
  double x = 2.0;
  check_scalar(fetch_add_local, x, 6.0 * x);
  check_scalar(fetch_sub_local, x, -2.0 * x);
  check_scalar(fetch_add_returns_old, x, 4 * x * x * x + 3 * x * x);
  check_scalar(fetch_max_local, x, 2.0 * x);       /* x^2 = 4 > 1 */
  check_scalar(fetch_max_local, 0.5, 0.0);         /* 0.25 < 1 */
  check_scalar(fetch_min_local, x, 2.0 * x);       /* x^2 = 4 < 6 */
  check_scalar(fetch_min_local, 4.0, 3.0);         /* 12 < 16 */
  check_scalar(c11_compound, x, 1.0 + 3.0 * x * x);
  check_scalar(cmpxchg_succeeds, x, 3.0 * x * x);
  check_scalar(cmpxchg_fails, x, 4.0 * x);

  /* Outputs through duplicated pointers, garbage in the shadows first. */
  double out[2] = {1.5, 0.0}, dout[2] = {99.0, 99.0};
  __enzyme_fwddiff_void((void *)exchange_into, enzyme_dup, out, dout, x, 1.0);
  CHECK_CLOSE(5.0 * x, out[0]);
  CHECK_CLOSE(5.0, dout[0]);
  CHECK_CLOSE(1.5 + 99.0 * x, dout[1]); /* old' = the shadow's 99 */
  CHECK_CLOSE(5.0 + 1.5, fd_scalar(exchange_out0, x));

  double c[1] = {0.25}, dc[1] = {99.0};
  __enzyme_fwddiff_void((void *)cmpxchg_into, enzyme_dup, c, dc, x, 1.0);
  CHECK_CLOSE(5.0 * x, c[0]);
  CHECK_CLOSE(5.0, dc[0]);
  CHECK_CLOSE(5.0, fd_scalar(cmpxchg_out0, x));

  double p[1] = {1.25}, dp[1] = {0.5};
  double t = __enzyme_fwddiff((void *)load_store, enzyme_dup, p, dp, x, 1.0);
  CHECK_CLOSE(1.25 * x, p[0]);
  CHECK_CLOSE(0.5 * x + 1.25, t);
  CHECK_CLOSE(0.5 * x + 1.25, dp[0]);

  Counter k = {1.0, 3}, dk = {0.0, 0};
  __enzyme_fwddiff_void((void *)count_and_add, enzyme_dup, &k, &dk, x, 1.0);
  CHECK(k.count == 4);
  CHECK_CLOSE(1.0 + x * x, k.value);
  CHECK_CLOSE(2.0 * x, dk.value);
  return fd_report();
}
