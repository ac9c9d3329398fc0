// Chains of stores undone by the reverse sweep: each stored value computed
// from what an earlier store wrote (r[1] = sin(r[0]) * r[1] after r[0] was
// written), into one argument and into two. Gradients against central
// differences, and the primal's memory at the end as the primal leaves it
// (the undone stores are written again in order).
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>
#include <string.h>
__attribute__((noinline)) double chain(double *r) {
  r[0] = r[0] * r[0] + 1.0;
  r[1] = sin(r[0]) * r[1];
  r[2] = r[1] * r[0];
  return r[2] * r[2] + r[0];
}
__attribute__((noinline)) double chain2(double *r, double *out) {
  double a = r[0];
  out[0] = a * a;
  r[0] = out[0] + r[1];
  out[1] = r[0] * out[0];
  return out[1] + r[0] * r[0];
}
static double chain_copy(const double *v) { double t[3]; memcpy(t, v, sizeof t); return chain(t); }
static double chain2_copy(const double *v) { double t[2], o[2] = {0}; memcpy(t, v, sizeof t); return chain2(t, o); }
int main(void) {
  double r0[3] = {0.3, 0.8, -0.5};
  double r[3], dr[3] = {0};
  memcpy(r, r0, sizeof r);
  double want[3]; memcpy(want, r0, sizeof want); chain(want);
  __enzyme_autodiff((void *)chain, enzyme_dup, r, dr);
  for (int k = 0; k < 3; k++) {
    double a[3], b[3], h = 1e-6; memcpy(a, r0, sizeof a); memcpy(b, r0, sizeof b);
    a[k] += h; b[k] -= h;
    CHECK_CLOSE((chain_copy(a) - chain_copy(b)) / (2 * h), dr[k]);
    CHECK_CLOSE(want[k], r[k]);
  }
  double q0[2] = {0.3, 0.8}, q[2], dq[2] = {0}, o[2] = {0}, dout[2] = {0};
  memcpy(q, q0, sizeof q);
  double wq[2], wo[2] = {0}; memcpy(wq, q0, sizeof wq); chain2(wq, wo);
  __enzyme_autodiff((void *)chain2, enzyme_dup, q, dq, enzyme_dup, o, dout);
  for (int k = 0; k < 2; k++) {
    double a[2], b[2], h = 1e-6; memcpy(a, q0, sizeof a); memcpy(b, q0, sizeof b);
    a[k] += h; b[k] -= h;
    CHECK_CLOSE((chain2_copy(a) - chain2_copy(b)) / (2 * h), dq[k]);
    CHECK_CLOSE(wq[k], q[k]);
    CHECK_CLOSE(wo[k], o[k]);
  }
  return fd_report();
}
