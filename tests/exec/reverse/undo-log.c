// Loops that overwrite memory their loads read (a stencil swapping its two
// buffers, Gauss-Seidel sweeps in place, a data-dependent while loop, a
// global state, stores of two sizes into memory that may overlap, a branch
// and a while condition on values read from logged memory, triangular
// nests): the reverse sweep undoes the logged stores and reads the loads
// again instead of caching them (UndoLog.cpp). Checked: gradients against finite
// differences, also when the two buffers of the stencil are the same
// memory; the primal's memory after the call (the log's replay) equal to
// what the primal leaves; the shadows of overwritten memory zero after the
// call; a second call with the derivative's log kept in its pool.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <string.h>

enum { N = 12, STEPS = 4 };

static double conductivity(double a, double b) {
  return 1.0 / (1.0 + 0.5 * (a * a + b * b));
}

/* Explicit nonlinear diffusion on a line; the buffers swap every step, and
 * each step also moves the left border (a store of the step loop). */
double stencil(const double *u0, double *u, double *tmp, long n,
               long steps) {
  memcpy(u, u0, n * sizeof(double));
  memcpy(tmp, u0, n * sizeof(double));
  for (long s = 0; s < steps; ++s) {
    for (long k = 1; k + 1 < n; ++k) {
      double c = u[k], e = u[k + 1], w = u[k - 1];
      double flux = conductivity(c, e) * (e - c) - conductivity(w, c) * (c - w);
      tmp[k] = c + 0.3 * flux;
    }
    tmp[0] = 0.9 * u[0] + 0.05 * u[1] * u[1];
    double *t = u;
    u = tmp;
    tmp = t;
  }
  double r = 0;
  for (long k = 0; k < n; ++k)
    r += (k + 1) * u[k] * u[k];
  return r;
}

/* Gauss-Seidel sweeps in place: each store changes the next point's load. */
double sweeps(double *x, const double *b, int n, int count) {
  for (int s = 0; s < count; ++s)
    for (int i = 1; i + 1 < n; ++i)
      x[i] = 0.25 * (b[i] + x[i - 1] * x[i + 1]) + 0.1 * sin(x[i]) * x[i];
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] * b[i];
  return r;
}

/* A loop whose trip count depends on the data it overwrites. */
double until_large(double *x, int n) {
  for (int rep = 0; rep < 3; ++rep) {
    int i = 1;
    while (i + 1 < n && x[i] < 4.0) {
      x[i] = 0.5 * x[i] + 0.25 * sin(x[i - 1]) + 0.1 * x[i + 1] * x[i + 1];
      ++i;
    }
  }
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] * x[i] * (i + 1);
  return r;
}

/* A global state, updated in place. */
double g_state[N], d_g_state[N];
void *__enzyme_shadow_global_g_state[2] = {g_state, d_g_state};
double global_steps(const double *x, int n) {
  for (int i = 0; i < n; ++i)
    g_state[i] = x[i];
  for (int s = 0; s < STEPS; ++s)
    for (int i = 1; i + 1 < n; ++i)
      g_state[i] += 0.2 * (g_state[i - 1] - 2 * g_state[i] + g_state[i + 1]) *
                    g_state[i];
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += g_state[i] * g_state[i];
  return r;
}

/* Stores of a double and of a float into memory that may be the same (the
 * float type may alias anything): entries of two sizes. */
typedef float __attribute__((may_alias)) any_float;
double two_sizes(double *x, any_float *f, int n) {
  for (int s = 0; s < 2; ++s)
    for (int i = 2; i + 2 < n; ++i) {
      x[i] = sin(x[i - 1]) * x[i] + 0.3 * x[i + 1] * x[i] -
             0.2 * x[i - 2] * x[i + 2];
      f[i] = (float)(0.5 * i + s);
    }
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] * x[i];
  return r;
}

/* A branch on a value read from logged memory: the reverse sweep decides
 * which arm ran where they join, after the store of the arm. */
double guarded(double *x, int n) {
  for (int s = 0; s < 3; ++s)
    for (int i = 1; i + 1 < n; ++i) {
      double l = x[i - 1], r = x[i + 1], c = x[i];
      if (c > 0.27)
        x[i] = c * 0.5 + l * r;
    }
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] * x[i] * (1 + 0.1 * i);
  return r;
}

/* A while loop whose condition reads what its body stores. */
double until_sum(double *x, int n) {
  int i = 0, it = 0;
  while (x[0] < 3.0 && it < 100) {
    x[i % n] = x[i % n] * 1.1 + 0.2 * x[(i + 1) % n] * x[(i + n - 1) % n];
    if (x[i % n] > 1.03)
      x[0] += 0.05 * x[i % n];
    ++i;
    ++it;
  }
  double r = it * 0.001;
  for (int j = 0; j < n; ++j)
    r += x[j] * (j + 1);
  return r;
}

/* Triangular nests: the inner trip count changes with the outer loop. */
double triangle(double *x, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      x[i] = x[i] - 0.1 * x[j] * x[i] + 0.05 * x[j] * x[j];
  for (int i = n - 1; i >= 0; --i)
    for (int j = i + 1; j < n; ++j)
      x[i] -= 0.2 * x[j] * x[i];
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] * x[i];
  return r;
}

typedef double (*in_place_fn)(double *, int);
struct ctx { int n, k; const double *b; in_place_fn f; };
static double in_place_F(const double *x, void *c) {
  double y[N];
  memcpy(y, x, sizeof y);
  return ((struct ctx *)c)->f(y, N);
}

/* f(x, n) updates x in place: gradient, final memory, twice (a macro:
 * the function of a request must be a constant). */
#define CHECK_IN_PLACE(f, x0)                                                  \
  for (int call = 0; call < 2; ++call) {                                       \
    double x[N], dx[N] = {0}, px[N];                                           \
    memcpy(x, x0, sizeof x);                                                   \
    memcpy(px, x0, sizeof px);                                                 \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);          \
    in_place_fn volatile primal = f;                                           \
    primal(px, N);                                                             \
    for (int i = 0; i < N; ++i)                                                \
      CHECK(x[i] == px[i]);                                                    \
    struct ctx c = {N, 0, 0, f};                                               \
    CHECK_GRADIENT(in_place_F, &c, x0, N, dx);                                 \
  }

static double stencil_F(const double *x, void *c) {
  (void)c;
  double u[N], tmp[N];
  return stencil(x, u, tmp, N, STEPS);
}
static double stencil_same_F(const double *x, void *c) {
  (void)c;
  double u[N];
  return stencil(x, u, u, N, STEPS);
}
static double sweeps_F(const double *x, void *c) {
  struct ctx *cc = c;
  double y[N];
  memcpy(y, x, sizeof y);
  return sweeps(y, cc->b, cc->n, cc->k);
}
static double until_F(const double *x, void *c) {
  double y[N];
  memcpy(y, x, sizeof y);
  return until_large(y, ((struct ctx *)c)->n);
}
static double global_F(const double *x, void *c) {
  return global_steps(x, ((struct ctx *)c)->n);
}
static double two_sizes_F(const double *x, void *c) {
  double y[N];
  float f[N] = {0};
  memcpy(y, x, sizeof y);
  return two_sizes(y, f, ((struct ctx *)c)->n);
}

static void check_stencil(const double *x0, int same) {
  for (int call = 0; call < 2; ++call) {
    double u[N], tmp[N], du[N], dtmp[N];
    double *t = same ? u : tmp, *dt = same ? du : dtmp;
    for (int i = 0; i < N; ++i)
      du[i] = dtmp[i] = 0.0;
    __enzyme_autodiff((void *)stencil, enzyme_const, x0, enzyme_dup, u, du,
                      enzyme_dup, t, dt, enzyme_const, (long)N,
                      enzyme_const, (long)STEPS);
    double pu[N], ptmp[N];
    double *pt = same ? pu : ptmp;
    stencil(x0, pu, pt, N, STEPS);
    for (int i = 0; i < N; ++i) {
      CHECK(u[i] == pu[i]);
      CHECK(t[i] == pt[i]);
      CHECK(du[i] == 0 && dt[i] == 0);
    }
  }
  double u[N], tmp[N], du0[N] = {0}, du[N] = {0}, dtmp[N] = {0};
  double *t = same ? u : tmp, *dt = same ? du : dtmp;
  __enzyme_autodiff((void *)stencil, enzyme_dup, x0, du0, enzyme_dup, u, du,
                    enzyme_dup, t, dt, enzyme_const, (long)N, enzyme_const,
                    (long)STEPS);
  CHECK_GRADIENT(same ? stencil_same_F : stencil_F, NULL, x0, N, du0);
}

int main(void) {
  const double x0[N] = {0.3, -0.7, 1.1,  0.45, -1.3, 0.8,
                        0.2, 1.4,  -0.5, 0.9,  -0.1, 0.6};
  const double b[N] = {1.0, 0.5, -0.3, 0.8, 0.2, -0.6,
                       0.4, 0.1, 0.7,  -0.2, 0.3, 0.9};
  volatile int nv = N;
  int n = nv;

  CHECK_IN_PLACE(guarded, x0);
  {
    double w0[N];
    for (int i = 0; i < N; ++i)
      w0[i] = 0.5 + 0.3 * sin(1.4 * i);
    CHECK_IN_PLACE(until_sum, w0);
  }
  CHECK_IN_PLACE(triangle, x0);
  check_stencil(x0, 0);
  check_stencil(x0, 1);
  for (int count = 1; count <= 3; count += 2) {
    double x[N], dx[N] = {0}, db[N] = {0}, px[N];
    memcpy(x, x0, sizeof x);
    memcpy(px, x0, sizeof px);
    __enzyme_autodiff((void *)sweeps, enzyme_dup, x, dx, enzyme_dup, b, db,
                      enzyme_const, n, enzyme_const, count);
    sweeps(px, b, n, count);
    for (int i = 0; i < N; ++i)
      CHECK(x[i] == px[i]);
    struct ctx c = {n, count, b};
    CHECK_GRADIENT(sweeps_F, &c, x0, N, dx);
  }
  {
    double x[N], dx[N] = {0}, px[N];
    memcpy(x, x0, sizeof x);
    memcpy(px, x0, sizeof px);
    __enzyme_autodiff((void *)until_large, enzyme_dup, x, dx, enzyme_const,
                      n);
    until_large(px, n);
    for (int i = 0; i < N; ++i)
      CHECK(x[i] == px[i]);
    struct ctx c = {n, 0, 0};
    CHECK_GRADIENT(until_F, &c, x0, N, dx);
  }
  {
    double dx[N] = {0}, final[N];
    global_steps(x0, n);
    memcpy(final, g_state, sizeof final);
    memset(g_state, 0, sizeof g_state);
    __enzyme_autodiff((void *)global_steps, enzyme_dup, x0, dx, enzyme_const,
                      n);
    for (int i = 0; i < N; ++i)
      CHECK(g_state[i] == final[i] && d_g_state[i] == 0);
    struct ctx c = {n, 0, 0};
    CHECK_GRADIENT(global_F, &c, x0, N, dx);
  }
  {
    double x[N], dx[N] = {0}, px[N];
    float f[N] = {0}, df[N] = {0}, pf[N] = {0};
    memcpy(x, x0, sizeof x);
    memcpy(px, x0, sizeof px);
    __enzyme_autodiff((void *)two_sizes, enzyme_dup, x, dx, enzyme_dup, f, df,
                      enzyme_const, n);
    two_sizes(px, pf, n);
    for (int i = 0; i < N; ++i)
      CHECK(x[i] == px[i] && f[i] == pf[i]);
    struct ctx c = {n, 0, 0};
    CHECK_GRADIENT(two_sizes_F, &c, x0, N, dx);
  }
  return fd_report();
}
