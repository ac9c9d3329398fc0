// Active globals given their shadow from C with the registration global
// `void *__enzyme_shadow_global_NAME[2] = {&global, &shadow};` (the C form
// of `!enzyme_shadow`): the derivative reads the tangent of a parameter
// held in a global and of a global table from their shadows, and writes
// the tangent of an output global into its shadow. Checked against finite
// differences, through autodiff-opt at -O0 (no optnone) to -O3, and through
// the clang plugin at -O0 and -O2.
// UNSUPPORTED: sanitizers
// RUN: sh %testlib/run-c.sh %s
// RUN: %clang -fpass-plugin=%plugin -O0 -Xclang -disable-O0-optnone -I%testlib %s -o %t.O0 -lm && %t.O0
// RUN: %clang -fpass-plugin=%plugin -O2 -I%testlib %s -o %t.O2 -lm && %t.O2

#include "enzyme.h"
#include "fdcheck.h"

#include <math.h>

double scale = 1.7, d_scale;                        /* a parameter */
double table[3] = {0.5, -1.25, 2.0}, d_table[3];    /* an active table */
double last, d_last;                                /* an output */

void *__enzyme_shadow_global_scale[2] = {&scale, &d_scale};
void *__enzyme_shadow_global_table[2] = {table, d_table};
void *__enzyme_shadow_global_last[2] = {&last, &d_last};

double f(double x) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += table[i] * sin(scale * x + i);
  last = s * x;
  return s * scale;
}

/* f and `last` as functions of (x, scale, table[0..2]). */
static double eval(const double *v, void *out_last) {
  double saved_scale = scale, saved_table[3] = {table[0], table[1], table[2]};
  scale = v[1];
  for (int i = 0; i < 3; ++i)
    table[i] = v[2 + i];
  double r = f(v[0]);
  if (out_last)
    r = last;
  scale = saved_scale;
  for (int i = 0; i < 3; ++i)
    table[i] = saved_table[i];
  return r;
}

static void seed(double ds, double t0, double t1, double t2) {
  d_scale = ds;
  d_table[0] = t0;
  d_table[1] = t1;
  d_table[2] = t2;
  d_last = 12345.0; /* garbage: the derivative must overwrite it */
}

int main(void) {
  double x = 0.8;
  double v[5] = {x, scale, table[0], table[1], table[2]};
  /* Directions: x alone, scale alone, the table alone, all at once. */
  double dirs[4][5] = {{1, 0, 0, 0, 0},
                       {0, 1, 0, 0, 0},
                       {0, 0, 0.3, -0.7, 1.1},
                       {0.4, -0.9, 0.2, 0.5, -0.6}};
  for (int k = 0; k < 4; ++k) {
    const double *d = dirs[k];
    seed(d[1], d[2], d[3], d[4]);
    double df = __enzyme_fwddiff((void *)f, x, d[0]);
    CHECK_CLOSE(fd_dir(eval, 0, v, d, 5), df);
    CHECK_CLOSE(fd_dir(eval, &last, v, d, 5), d_last);
    /* The primal side effect happened, with the primal values. */
    CHECK_CLOSE(eval(v, &last), last);
  }
  return fd_report();
}
