/* Driver for tests/exec/numba/reverse-dot-rule.py: reverse gradients of
 * Numba cfuncs over np.dot, through a user's rule for numba_xxdot (or,
 * with -DBUILTIN_RULE, the core's built-in one).
 * numba_names.h names the cfunc wrappers. */
#include "enzyme.h"
#include "fdcheck.h"
#include "numba_names.h"

#ifdef BUILTIN_RULE
/* No user rule: the core's built-in rule for numba_xxdot; no counters. */
static int rule_aug_calls = 1, rule_rev_calls = 1;
#define RESET_COUNTS() (void)0
#define COUNTS(k) 1
#else
extern int rule_aug_calls, rule_rev_calls;
#define RESET_COUNTS() (rule_aug_calls = rule_rev_calls = 0)
#define COUNTS(k) (rule_aug_calls == (k) && rule_rev_calls == (k))
#endif

/* dot(x, Y) with a global constant Y of 2 elements (the seed report). */
double dot_const_cfunc(double *, int) __asm__(DOT_CONST_CFUNC);
/* sin(dot(x, y)) * dot(x, x): two BLAS calls, both operands active. */
double dot_two_cfunc(double *, double *, int) __asm__(DOT_TWO_CFUNC);

static const double Y[2] = {0.9910996237967787, 0.34132350969940417};

static double dot_const_F(const double *v, void *c) {
  (void)c;
  return dot_const_cfunc((double *)v, 2);
}
static double dot_two_F(const double *v, void *c) {
  (void)c;
  return dot_two_cfunc((double *)v, (double *)v + 3, 3);
}

int main(void) {
  double x[2] = {0.7165329173376253, 0.6884605753942334}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)dot_const_cfunc, enzyme_dup, x, dx, enzyme_const, 2);
  CHECK_CLOSE(Y[0], dx[0]);
  CHECK_CLOSE(Y[1], dx[1]);
  CHECK_GRADIENT(dot_const_F, 0, x, 2, dx);
  CHECK(COUNTS(1));

  RESET_COUNTS();
  double xy[6] = {0.3, -0.8, 1.2, 0.5, 0.9, -0.4}, g[6] = {0};
  __enzyme_autodiff((void *)dot_two_cfunc, enzyme_dup, xy, g, enzyme_dup, xy + 3, g + 3,
                    enzyme_const, 3);
  CHECK_GRADIENT(dot_two_F, 0, xy, 6, g);
  CHECK(COUNTS(2));
  (void)rule_aug_calls;
  (void)rule_rev_calls;
  return fd_report();
}
