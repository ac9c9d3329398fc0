/* A function of an array and its length, `double f(const double *x, int
 * n)`, as the callback of fdcheck.h's CHECK_GRADIENT (which takes
 * `double g(const double *x, void *ctx)`): pass vecfn_eval and a VecFnCtx.
 * For C and C++ tests whose gradient checks take such functions. */
#ifndef AUTODIFF_TESTS_VECFN_H
#define AUTODIFF_TESTS_VECFN_H

typedef double (*vecfn)(const double *, int);

struct VecFnCtx {
  vecfn f;
  int n;
};

static double vecfn_eval(const double *x, void *c) {
  struct VecFnCtx *v = (struct VecFnCtx *)c;
  return v->f(x, v->n);
}

#endif
