/* Driver for records.rs: gradients against their analytic values. With
   the argument `short`, a shadow shorter than its slice, which must be
   stopped. */
#include <math.h>
#include <stdio.h>
#include <string.h>

float r_maxkey(const float *, long, float *, long, float);
double r_maxkey64(const double *, long, double *, long, double);
float r_minby(const float *, long, float *, long, float);
typedef struct { double p, da, db; } Res3;
Res3 r_max2(double, double, double);
Res3 r_min2(double, double, double);
double r_maxln(const double *, long, double *, long, double);
double r_ln_gt(const double *, long, double *, long, double);
double r_sqrt_max(const double *, long, double *, long, double);
/* Only at opt-level 3 (records-O3.specs). */
__attribute__((weak)) double r_vec_notnan(const double *, long, double *,
                                          long, double);

static int failures;
static void check(const char *what, double got, double want) {
  if (!(fabs(got - want) <= 1e-5 * (1 + fabs(want)))) {
    printf("FAILED %s: got %g, expected %g\n", what, got, want);
    ++failures;
  }
}

int main(int argc, char **argv) {
  float x[7] = {0.73f, -1.21f, 1.57f, 0.37f, -0.83f, 2.11f, 1.03f};
  float d[7] = {0}, e[7] = {0};
  double y[3] = {0.5, 1.5, -2.0}, dy[3] = {0};
  if (argc > 1 && strcmp(argv[1], "short") == 0) {
    r_maxkey64(y, 3, dy, 2, 1.0);
    return 0;
  }
  check("maxkey", r_maxkey(x, 7, d, 7, 1.0f), 3 * 1.03f);
  for (int i = 0; i < 7; ++i)
    check("d maxkey", d[i], i == 6 ? 3 : 0); /* the largest key: i = 6 */
  check("maxkey64", r_maxkey64(y, 3, dy, 3, 1.0), -6);
  for (int i = 0; i < 3; ++i)
    check("d maxkey64", dy[i], i == 2 ? 3 : 0);
  /* the smallest x is x[1] = -1.21 (key 1): x^2 * 1, d = 2 x */
  check("minby", r_minby(x, 7, e, 7, 1.0f), 1.21f * 1.21f);
  for (int i = 0; i < 7; ++i)
    check("d minby", e[i], i == 1 ? 2 * -1.21f : 0);
  Res3 r = r_max2(1.0, -2.0, 1.0); /* max(1, ln(-2) = NaN) = 1 */
  check("max2", r.p, 1);
  check("d max2 a", r.da, 1);
  check("d max2 b", r.db, 0);
  r = r_max2(1.0, 20.0, 1.0); /* ln(20) > 1: d/db = 1/20 */
  check("d max2 a", r.da, 0);
  check("d max2 b", r.db, 0.05);
  r = r_min2(1.0, -4.0, 1.0); /* min(1, sqrt(-4) = NaN) = 1 */
  check("d min2 a", r.da, 1);
  check("d min2 b", r.db, 0);
  double z[5] = {2, 6, -4, 1.5, 3}, dz[5] = {0};
  check("maxln", r_maxln(z, 5, dz, 5, 1.0), log(6.0));
  for (int i = 0; i < 5; ++i)
    check("d maxln", dz[i], i == 1 ? 1.0 / 6 : 0);
  double w[5] = {0, 2, -1, 0, 4}, dw[5] = {0};
  check("ln_gt", r_ln_gt(w, 5, dw, 5, 1.0), log(2.0) + log(4.0));
  for (int i = 0; i < 5; ++i)
    check("d ln_gt", dw[i], i == 1 ? 0.5 : i == 4 ? 0.25 : 0);
  double u[6] = {2, -1, 0.5, 3, -2, 4}, du[6] = {0};
  r_sqrt_max(u, 6, du, 6, 1.0);
  for (int i = 0; i < 6; ++i) /* 0.5 / sqrt(a) + (a > 1 ? 1 / a : 0) */
    check("d sqrt_max", du[i],
          u[i] > 0 ? 0.5 / sqrt(u[i]) + (u[i] > 1 ? 1 / u[i] : 0) : 0);
  if (r_vec_notnan) {
    double v[3] = {4, -1, 1}, dv[3] = {0};
    check("vec_notnan", r_vec_notnan(v, 3, dv, 3, 1.0), 3);
    for (int i = 0; i < 3; ++i)
      check("d vec_notnan", dv[i], i == 0 ? 0.25 : i == 2 ? 0.5 : 0);
  }
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures != 0;
}
