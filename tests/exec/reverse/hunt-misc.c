// Reverse mode on assorted things scientific C code does: an output array
// that overlaps its input (y = a + 1, x = a, both enzyme_dup), the same
// array passed twice, debug printf/fprintf/assert inside the function (side
// effects once), an inactive recursive integer helper (factorial) in a
// Taylor series, a goto state machine, leaky ReLU and clamps (selects),
// an active global with a registered shadow (__enzyme_shadow_global_NAME)
// and an inactive constant table, long double, an overlapping memmove,
// enzyme_dupnoneed outputs, enzyme_primal_return with only duplicated
// arguments (double and float), result structs mixing float and double,
// a pointer that starts null. FD and analytic checks.
// RUN: sh %testlib/run-c.sh %s

#include <assert.h>
#include <string.h>

#include "enzyme.h"
#include "fdcheck.h"

typedef struct { double a, b; } two;
two __enzyme_autodiff_two(void *, ...);
long double __enzyme_autodiff_ld(void *, ...);
typedef struct { double a; float b; } df;
typedef struct { float p; double a; float b; } fdf;
df __enzyme_autodiff_df(double (*)(double, float), double, float);
fdf __enzyme_autodiff_fdf(float (*)(double, float), int, double, float);
float __enzyme_autodiff_fp(float (*)(const float *, int), int, int, const float *, float *, int, int);

void shift_add(double *y, const double *x, int n) {
  for (int i = 0; i < n; ++i) y[i] += 0.5 * x[i] * x[i];
}
void axpy_self(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i] * y[i];
}
static int ncalls;
double noisy(const double *x, int n) {
  double s = 0;
  ++ncalls;
  for (int i = 0; i < n; ++i) {
    s += x[i] * x[i];
    if (i == n - 1) printf("debug: s=%g x=%g\n", s, x[i]);
  }
  assert(s >= 0);
  fprintf(stderr, "done %f\n", s);
  return s;
}
long fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
double taylor_exp(double x, int terms) {
  double s = 0, p = 1;
  for (int k = 0; k < terms; ++k) { s += p / fact(k); p *= x; }
  return s;
}
double machine(const double *x, int n) {
  int i = 0;
  double acc = 1;
start:
  if (i >= n) goto done;
  if (x[i] < 0) goto neg;
  acc = acc * 0.5 + x[i] * x[i];
  ++i;
  goto start;
neg:
  acc -= sin(x[i]);
  ++i;
  goto start;
done:
  return acc;
}
double act(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double v = x[i] > 0 ? x[i] : 0.1 * x[i];
    double c = v < -0.5 ? -0.5 : (v > 1.0 ? 1.0 : v);
    s += c * c + fmax(x[i], 0.2) * fmin(x[i], 0.7);
  }
  return s;
}
double gparams[3] = {0.5, 1.5, -0.25}, d_gparams[3];
void *__enzyme_shadow_global_gparams[2] = {gparams, d_gparams};
double model(double x) { return gparams[0] * x * x + gparams[1] * sin(x) + gparams[2]; }
static const double table[4] = {1.0, 0.5, 0.25, 0.125};
double weighted(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += table[i % 4] * x[i] * x[i];
  return s;
}
long double ldf(long double x) { return x * x * x + sinl(x); }
double shift(double *x, int n) {
  memmove(x + 1, x, (n - 1) * sizeof(double));
  x[0] = 0.5;
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i] * (i + 1);
  return s;
}
double layer(double *out, const double *W, const double *x, int n, int m) {
  double l = 0;
  for (int i = 0; i < n; ++i) {
    double z = 0;
    for (int j = 0; j < m; ++j) z += W[i * m + j] * x[j];
    out[i] = tanh(z);
    l += out[i] * out[i];
  }
  return l;
}
double sumsq(const double *x, int n) { double s = 0; for (int i = 0; i < n; ++i) s += x[i] * x[i]; return s; }
float fsumsq(const float *x, int n) { float s = 0; for (int i = 0; i < n; ++i) s += x[i] * x[i]; return s; }
double g1(double a, float b) { return a * a * b; }
float g2(double a, float b) { return (float)(a * b) + b * b; }
double last_pos(const double *x, int n) {
  const double *p = 0;
  for (int i = 0; i < n; ++i)
    if (x[i] > 0) p = &x[i];
  return p ? *p * *p : 0.0;
}

struct ctx { int n; };
static double act_F(const double *v, void *p) { return act(v, ((struct ctx *)p)->n); }
static double machine_F(const double *v, void *p) { return machine(v, ((struct ctx *)p)->n); }
static void check_grad(double (*F)(const double *, void *), void *c, const double *x, int n,
                       const double *got) {
  for (int i = 0; i < n; ++i) {
    double e[16] = {0};
    e[i] = 1;
    CHECK_CLOSE_TOL(fd_dir(F, c, x, e, n), got[i], 1e-6, 1e-8);
  }
}

int main(void) {
  /* y = a + 1 overlapping x = a: a[i+1] += 0.5 a[i]^2 in order */
  {
    double a[6] = {0.5, 1, 1.5, 2, 2.5, 3}, da[6] = {1, 1, 1, 1, 1, 1}, a1[6], g[6];
    memcpy(a1, a, sizeof a1);
    for (int i = 0; i < 5; ++i) a1[i + 1] += 0.5 * a1[i] * a1[i];
    __enzyme_autodiff_void((void *)shift_add, enzyme_dup, a + 1, da + 1, enzyme_dup, a, da,
                           enzyme_const, 5);
    for (int i = 0; i < 6; ++i) { CHECK_CLOSE(a1[i], a[i]); g[i] = 1; }
    for (int i = 4; i >= 0; --i) g[i] += g[i + 1] * a1[i];
    for (int i = 0; i < 6; ++i) CHECK_CLOSE(g[i], da[i]);
  }
  /* the same array as y and x: y_new = 0.5 y + y^2 */
  {
    double y[4] = {1, 2, 3, 4}, dy[4] = {1, 1, 1, 1};
    double da = __enzyme_autodiff((void *)axpy_self, enzyme_dup, y, dy, enzyme_dup, y, dy, 0.5,
                                  enzyme_const, 4);
    for (int i = 0; i < 4; ++i) CHECK_CLOSE(0.5 + 2 * (i + 1), dy[i]);
    CHECK_CLOSE(10.0, da);
  }
  /* side effects once */
  {
    double x[4] = {1, 2, 3, 4}, dx[4] = {0};
    __enzyme_autodiff((void *)noisy, enzyme_dup, x, dx, enzyme_const, 4);
    for (int i = 0; i < 4; ++i) CHECK_CLOSE(2 * x[i], dx[i]);
    CHECK(ncalls == 1);
  }
  CHECK_CLOSE(exp(0.7), __enzyme_autodiff((void *)taylor_exp, 0.7, enzyme_const, 18));
  {
    double x[8] = {0.9, -0.3, 2.1, 0.45, -1.7, 1.2, 0.05, -0.6}, dx[8] = {0};
    struct ctx c = {8};
    __enzyme_autodiff((void *)act, enzyme_dup, x, dx, enzyme_const, 8);
    check_grad(act_F, &c, x, 8, dx);
    memset(dx, 0, sizeof dx);
    __enzyme_autodiff((void *)machine, enzyme_dup, x, dx, enzyme_const, 8);
    check_grad(machine_F, &c, x, 8, dx);
    memset(dx, 0, sizeof dx);
    __enzyme_autodiff((void *)weighted, enzyme_dup, x, dx, enzyme_const, 8);
    for (int i = 0; i < 8; ++i) CHECK_CLOSE(2 * table[i % 4] * x[i], dx[i]);
    memset(dx, 0, sizeof dx);
    __enzyme_autodiff((void *)last_pos, enzyme_dup, x, dx, enzyme_const, 8);
    for (int i = 0; i < 8; ++i) CHECK_CLOSE(i == 6 ? 2 * x[6] : 0.0, dx[i]);
  }
  /* active global with a registered shadow */
  {
    double dxm = __enzyme_autodiff((void *)model, 1.3);
    CHECK_CLOSE(2 * 0.5 * 1.3 + 1.5 * cos(1.3), dxm);
    CHECK_CLOSE(1.3 * 1.3, d_gparams[0]);
    CHECK_CLOSE(sin(1.3), d_gparams[1]);
    CHECK_CLOSE(1.0, d_gparams[2]);
  }
  CHECK_CLOSE(3 * 1.25 * 1.25 + cos(1.25), (double)__enzyme_autodiff_ld((void *)ldf, 1.25L));
  /* overlapping memmove */
  {
    double y[5] = {1, 2, 3, 4, 5}, dy[5] = {0};
    __enzyme_autodiff((void *)shift, enzyme_dup, y, dy, enzyme_const, 5);
    for (int k = 0; k < 4; ++k) CHECK_CLOSE(2 * (k + 2) * (k + 1.0), dy[k]);
    CHECK(dy[4] == 0);
  }
  /* dupnoneed output */
  {
    double W[6] = {0.5, -0.2, 0.1, 0.3, 0.8, -0.6}, dW[6] = {0}, x[3] = {0.4, -1.1, 0.7}, dx[3] = {0};
    double out[2] = {7, 7}, dout[2] = {0.5, -0.25};
    __enzyme_autodiff((void *)layer, enzyme_dupnoneed, out, dout, enzyme_dup, W, dW, enzyme_dup,
                      x, dx, enzyme_const, 2, enzyme_const, 3);
    double gxe[3] = {0};
    for (int i = 0; i < 2; ++i) {
      double z = 0;
      for (int j = 0; j < 3; ++j) z += W[i * 3 + j] * x[j];
      double t = tanh(z), gz = ((i == 0 ? 0.5 : -0.25) + 2 * t) * (1 - t * t);
      for (int j = 0; j < 3; ++j) { CHECK_CLOSE(gz * x[j], dW[i * 3 + j]); gxe[j] += gz * W[i * 3 + j]; }
      CHECK(dout[i] == 0);
    }
    for (int j = 0; j < 3; ++j) CHECK_CLOSE(gxe[j], dx[j]);
  }
  /* primal return with only duplicated arguments */
  {
    double x[3] = {1, 2, 3}, dx[3] = {0};
    CHECK_CLOSE(14.0, __enzyme_autodiff((void *)sumsq, enzyme_primal_return, enzyme_dup, x, dx,
                                        enzyme_const, 3));
    for (int i = 0; i < 3; ++i) CHECK_CLOSE(2 * x[i], dx[i]);
    float fx[3] = {1, 2, 3}, fdx[3] = {0};
    CHECK_CLOSE_F(14.0, __enzyme_autodiff_fp(fsumsq, enzyme_primal_return, enzyme_dup, fx, fdx,
                                             enzyme_const, 3));
    for (int i = 0; i < 3; ++i) CHECK_CLOSE_F(2 * fx[i], fdx[i]);
  }
  /* float and double results mixed */
  {
    df r1 = __enzyme_autodiff_df(g1, 1.5, 2.0f);
    CHECK_CLOSE(2 * 1.5 * 2.0, r1.a);
    CHECK_CLOSE_F(2.25, r1.b);
    fdf r2 = __enzyme_autodiff_fdf(g2, enzyme_primal_return, 1.5, 2.0f);
    CHECK_CLOSE_F(7.0, r2.p);
    CHECK_CLOSE(2.0, r2.a);
    CHECK_CLOSE_F(5.5, r2.b);
  }
  return fd_report();
}
