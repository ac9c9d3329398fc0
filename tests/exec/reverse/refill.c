// A local buffer filled again at the top of every iteration of a loop and
// read by an inner loop (the shape of a GPU kernel's shared-memory tile):
// the reverse sweep executes the fill again at the start of each reverse
// iteration and reads the buffer again instead of caching its loads
// (RefilledStores.cpp; at -O0, where the buffer stays in memory). Also
// the fill inside a loop nested in another, a buffer updated in place
// (not refilled: its later store is in the inner loop) and a fill under a
// condition (not refilled: it does not run in every iteration). Checked:
// gradients against finite differences at every level.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

enum { B = 4, NB = 5, N = B * NB };

/* Each block of four inputs goes through the buffer; the inner loop pairs
 * neighbours cyclically. */
double blocks(const double *x, int nb) {
  double buf[B];
  double s = 0;
  for (int b = 0; b < nb; ++b) {
    buf[0] = x[B * b];
    buf[1] = x[B * b + 1] * x[B * b + 1];
    buf[2] = sin(x[B * b + 2]);
    buf[3] = x[B * b + 3] + 0.5 * x[B * b];
    for (int k = 0; k < B; ++k)
      s += cos(buf[k]) * buf[(k + 1) % B] + s * 0.01 * buf[k];
  }
  return s;
}

/* The same fill inside an outer loop: the reverse sweep enters the block
 * loop once per repetition. */
double repeated(const double *x, int nb, int reps) {
  double buf[B];
  double s = 0;
  for (int r = 0; r < reps; ++r)
    for (int b = 0; b < nb; ++b) {
      for (int k = 0; k < 1; ++k)
        s *= 0.9;
      buf[0] = x[B * b] * (r + 1);
      buf[1] = x[B * b + 1];
      buf[2] = x[B * b + 2] - x[B * b + 3];
      buf[3] = exp(0.1 * x[B * b + 3]);
      for (int k = 0; k < B; ++k)
        s += buf[k] * buf[(k + 2) % B] * buf[(k + 3) % B];
    }
  return s;
}

/* The buffer is updated in place by the inner loop: its loads are cached. */
double in_place(const double *x, int nb) {
  double buf[B];
  double s = 0;
  for (int b = 0; b < nb; ++b) {
    for (int k = 0; k < B; ++k)
      buf[k] = x[B * b + k];
    for (int k = 1; k < B; ++k)
      buf[k] = buf[k] * buf[k - 1] + 0.5;
    for (int k = 0; k < B; ++k)
      s += buf[k] * buf[k];
  }
  return s;
}

/* One fill under a condition on the data. */
double conditional(const double *x, int nb) {
  double buf[B] = {1, 1, 1, 1};
  double s = 0;
  for (int b = 0; b < nb; ++b) {
    buf[0] = x[B * b];
    if (x[B * b + 1] > 0)
      buf[1] = x[B * b + 1] * 2;
    buf[2] = x[B * b + 2];
    for (int k = 0; k < 3; ++k)
      s += buf[k] * buf[k + 1] * x[B * b + 3];
  }
  return s;
}

/* The fill reads memory the loop then overwrites (a store the undo log may
 * undo): the fill's value at the end of an iteration is not what it read,
 * so the buffer is not refilled (its loads are cached). */
double overwrites_source(double *x, int nb) {
  double buf[B];
  double s = 0;
  for (int b = 0; b < nb; ++b) {
    buf[0] = x[B * b];
    buf[1] = x[B * b + 1];
    buf[2] = x[B * b + 2];
    for (int k = 0; k < 3; ++k)
      s += buf[k] * buf[(k + 1) % 3] * x[B * b + 3];
    x[B * b] = 0.5 * x[B * b + 3];
    x[B * b + 1] = 0.25 * x[B * b + 3];
  }
  return s;
}

static double blocks_F(const double *x, void *c) { return blocks(x, NB); }
static double overwrites_source_F(const double *x, void *c) {
  double y[N];
  for (int i = 0; i < N; ++i)
    y[i] = x[i];
  return overwrites_source(y, NB);
}
static double repeated_F(const double *x, void *c) {
  return repeated(x, NB, 3);
}
static double in_place_F(const double *x, void *c) { return in_place(x, NB); }
static double conditional_F(const double *x, void *c) {
  return conditional(x, NB);
}

int main(void) {
  double x0[N];
  for (int i = 0; i < N; ++i)
    x0[i] = (i % 3 == 1 ? -0.6 : 0.4) + 0.05 * i;
  {
    double dx[N] = {0};
    __enzyme_autodiff((void *)blocks, enzyme_dup, x0, dx, enzyme_const, NB);
    CHECK_GRADIENT(blocks_F, 0, x0, N, dx);
  }
  {
    double dx[N] = {0};
    __enzyme_autodiff((void *)repeated, enzyme_dup, x0, dx, enzyme_const, NB,
                      enzyme_const, 3);
    CHECK_GRADIENT(repeated_F, 0, x0, N, dx);
  }
  {
    double dx[N] = {0};
    __enzyme_autodiff((void *)in_place, enzyme_dup, x0, dx, enzyme_const, NB);
    CHECK_GRADIENT(in_place_F, 0, x0, N, dx);
  }
  {
    double dx[N] = {0};
    __enzyme_autodiff((void *)conditional, enzyme_dup, x0, dx, enzyme_const,
                      NB);
    CHECK_GRADIENT(conditional_F, 0, x0, N, dx);
  }
  {
    double x[N], dx[N] = {0};
    for (int i = 0; i < N; ++i)
      x[i] = x0[i];
    __enzyme_autodiff((void *)overwrites_source, enzyme_dup, x, dx,
                      enzyme_const, NB);
    CHECK_GRADIENT(overwrites_source_F, 0, x0, N, dx);
  }
  return fd_report();
}
