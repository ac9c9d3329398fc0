// A registered forward rule (`__enzyme_register_derivative_NAME`) is used
// in place of differentiating the function, also through a helper and at
// width 2. The rule here returns a tangent scaled by a marker factor on
// purpose in `tagged`, so the test can tell that the rule (and not the
// body) produced the derivative. A float rule returns its {primal,
// tangent} struct as <2 x float> (the C ABI's choice).
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <math.h>

typedef struct { double p, t; } pt;
typedef struct { double d[2]; } two;
two __enzyme_fwddiff_two(void *, ...);

__attribute__((noinline)) double my_exp(double x) { return exp(x); }
pt my_exp_fwd(double x, double dx) {
  pt r = {exp(x), exp(x) * dx};
  return r;
}
void *__enzyme_register_derivative_my_exp[2] = {(void *)my_exp,
                                                (void *)my_exp_fwd};

/* A rule that deliberately differs from the body's derivative. */
__attribute__((noinline)) double tagged(double x) { return x * x; }
pt tagged_fwd(double x, double dx) {
  pt r = {x * x, 1000.0 * dx};
  return r;
}
void *__enzyme_register_derivative_tagged[2] = {(void *)tagged,
                                                (void *)tagged_fwd};

/* The same for float. */
float __enzyme_fwddiff_ff(void *, float, float);
typedef struct { float p, t; } ptf;
__attribute__((noinline)) float tagged_f(float x) { return x * x; }
ptf tagged_f_fwd(float x, float dx) {
  ptf r = {x * x, 100.0f * dx};
  return r;
}
void *__enzyme_register_derivative_tagged_f[2] = {(void *)tagged_f,
                                                  (void *)tagged_f_fwd};
float gf(float x) { return tagged_f(x) * 2.0f + x; }

double f(double x) { return my_exp(x * x) * 3 + sin(x); }
double g(double x) { return tagged(x) + x; }

static double f_fd(const double *v, void *c) {
  (void)c;
  return f(v[0]);
}

int main(void) {
  double x = 0.6, one = 1;
  CHECK_CLOSE(fd_dir(f_fd, 0, &x, &one, 1),
              __enzyme_fwddiff((void *)f, x, 1.0));
  CHECK_CLOSE(3 * exp(x * x) * 2 * x + cos(x),
              __enzyme_fwddiff((void *)f, x, 1.0));
  two w = __enzyme_fwddiff_two((void *)f, enzyme_width, 2, x, 1.0, -0.5);
  CHECK_CLOSE(3 * exp(x * x) * 2 * x + cos(x), w.d[0]);
  CHECK_CLOSE(-0.5 * (3 * exp(x * x) * 2 * x + cos(x)), w.d[1]);
  /* The rule, not the body: 1000 + 1, not 2x + 1. */
  CHECK_CLOSE(1001.0, __enzyme_fwddiff((void *)g, x, 1.0));
  CHECK_CLOSE_F(201.0f, __enzyme_fwddiff_ff((void *)gf, 0.6f, 1.0f));
  return fd_report();
}
