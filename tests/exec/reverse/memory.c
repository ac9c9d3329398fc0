// Reverse mode on memory: shadows are incremented where the function only
// reads, zeroed where it overwrites; in-place updates x[i] = f(x[i]);
// gather with repeated indices and scatter-add; memcpy and memset; malloc'd
// temporaries; double** rows; structs of mixed fields; a linked list built
// with malloc; calls three deep (helpers); an explicit Euler ODE updating its
// state in place over many steps; swapped buffers in a time loop.
// RUN: sh %testlib/run-c.sh %s

#include <stdlib.h>
#include <string.h>

#include "enzyme.h"
#include "fdcheck.h"

enum { N = 6 };

void inplace(double *x, int n) {
  for (int i = 0; i < n; ++i) x[i] = sin(x[i]) * x[i];
}
double gather(const double *x, const int *idx, int m) {
  double s = 0;
  for (int k = 0; k < m; ++k) s += x[idx[k]] * x[idx[(k + 1) % m]];
  return s;
}
void scatter(double *out, const double *x, const int *idx, int m) {
  for (int k = 0; k < m; ++k) out[idx[k]] += x[k] * x[k];
}
double copies(const double *x, int n) {
  double tmp[16], z[16];
  memcpy(tmp, x, n * sizeof(double));
  memset(z, 0, sizeof z);
  for (int i = 0; i < n; ++i) z[i] = tmp[i] * tmp[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; ++i) s += z[i] * tmp[i];
  return s;
}
double heap(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) t[i] = exp(x[i]);
  double s = 0;
  for (int i = 0; i < n; ++i) s += t[i] * t[(i + 2) % n];
  free(t);
  return s;
}
double rows(double **m, int r, int c) {
  double s = 0;
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) s += m[i][j] * m[(i + 1) % r][j];
  return s;
}
struct particle { int id; double pos; double *extra; double vel; };
double energy(const struct particle *p, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i) e += p[i].id * p[i].vel * p[i].vel + p[i].pos * p[i].extra[0];
  return e;
}
struct node { double v; struct node *next; };
double list_sum(const double *x, int n) {
  struct node *head = 0;
  for (int i = 0; i < n; ++i) {
    struct node *nd = malloc(sizeof *nd);
    nd->v = x[i] * x[i];
    nd->next = head;
    head = nd;
  }
  double s = 0;
  while (head) {
    s = s * 0.5 + head->v;
    struct node *nx = head->next;
    free(head);
    head = nx;
  }
  return s;
}
static double sq(double v) { return v * v; }
static double level2(const double *x, int i) { return sq(x[i]) + sin(x[i]); }
static double level1(const double *x, int i) { return level2(x, i) * x[i]; }
double chain(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += level1(x, i);
  return s;
}
void euler(double *y, double k, int steps) {
  double dt = 0.001;
  for (int s = 0; s < steps; ++s) {
    double y0 = y[0], y1 = y[1];
    y[0] = y0 + dt * y1;
    y[1] = y1 - dt * k * sin(y0);
  }
}
double swapped(const double *x, int n, int steps) {
  double a[16], b[16];
  for (int i = 0; i < n; ++i) a[i] = x[i];
  double *cur = a, *next = b;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i)
      next[i] = 0.5 * cur[i] + 0.25 * cur[(i + 1) % n] * cur[(i + n - 1) % n];
    double *t = cur; cur = next; next = t;
  }
  double r = 0;
  for (int i = 0; i < n; ++i) r += cur[i];
  return r;
}

/* Finite differences of a function of x[0..n). */
static const int IDX[] = {0, 2, 2, 5, 1, 2, 4};
static double gather_fd(const double *x, void *c) { (void)c; return gather(x, IDX, 7); }
static double copies_fd(const double *x, void *c) { (void)c; return copies(x, N); }
static double heap_fd(const double *x, void *c) { (void)c; return heap(x, N); }
static double list_fd(const double *x, void *c) { (void)c; return list_sum(x, N); }
static double chain_fd(const double *x, void *c) { (void)c; return chain(x, N); }
static double swapped_fd(const double *x, void *c) { (void)c; return swapped(x, N, 5); }
static double rows_fd(const double *x, void *c) {
  (void)c;
  double *m[3] = {(double *)x, (double *)x + 2, (double *)x + 4};
  return rows(m, 3, 2);
}
static double euler_fd(const double *x, void *c) {
  double y[2] = {x[0], x[1]};
  euler(y, *(double *)c, 3000);
  return y[0] + 2 * y[1];
}

int main(void) {
  const double x[N] = {0.9, 1.3, 0.2, 1.7, 0.6, 1.1};
  double d[N];

  /* In place: dx holds the seed of the output, becomes d(out)/dx * seed. */
  double xi[N], dxi[N];
  for (int i = 0; i < N; ++i) { xi[i] = x[i]; dxi[i] = 1.0 + i; }
  __enzyme_autodiff_void((void *)inplace, enzyme_dup, xi, dxi, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(sin(x[i]) * x[i], xi[i]);
    CHECK_CLOSE((1.0 + i) * (cos(x[i]) * x[i] + sin(x[i])), dxi[i]);
  }

  memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)gather, enzyme_dup, x, d, enzyme_const, IDX, enzyme_const, 7);
  CHECK_GRADIENT(gather_fd, 0, x, N, d);

  /* Scatter-add: out only accumulates, so its shadow keeps its seed. */
  double out[N] = {0}, dout[N] = {1, 2, 3, 4, 5, 6}, dxs[7] = {0};
  double xs[7] = {0.5, 1, 1.5, 2, 2.5, 3, 3.5};
  __enzyme_autodiff_void((void *)scatter, enzyme_dup, out, dout, enzyme_dup, xs, dxs,
                         enzyme_const, IDX, enzyme_const, 7);
  for (int k = 0; k < 7; ++k) CHECK_CLOSE(2 * xs[k] * dout[IDX[k]], dxs[k]);
  CHECK_CLOSE(3.0, dout[2]);

  memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)copies, enzyme_dup, x, d, enzyme_const, N);
  CHECK_GRADIENT(copies_fd, 0, x, N, d);
  memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)heap, enzyme_dup, x, d, enzyme_const, N);
  CHECK_GRADIENT(heap_fd, 0, x, N, d);
  memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)list_sum, enzyme_dup, x, d, enzyme_const, N);
  CHECK_GRADIENT(list_fd, 0, x, N, d);
  memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)chain, enzyme_dup, x, d, enzyme_const, N);
  CHECK_GRADIENT(chain_fd, 0, x, N, d);
  memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)swapped, enzyme_dup, x, d, enzyme_const, N, enzyme_const, 5);
  CHECK_GRADIENT(swapped_fd, 0, x, N, d);

  double m[N], dm[N] = {0};
  memcpy(m, x, sizeof m);
  double *mr[3] = {m, m + 2, m + 4}, *dmr[3] = {dm, dm + 2, dm + 4};
  __enzyme_autodiff((void *)rows, enzyme_dup, mr, dmr, enzyme_const, 3, enzyme_const, 2);
  CHECK_GRADIENT(rows_fd, 0, x, N, dm);

  double e0 = 0.5, e1 = 2.0, de0 = 0, de1 = 0;
  struct particle p[2] = {{2, 0.3, &e0, 1.5}, {3, -0.7, &e1, 0.25}};
  struct particle dp[2] = {{0, 0, &de0, 0}, {0, 0, &de1, 0}};
  __enzyme_autodiff((void *)energy, enzyme_dup, p, dp, enzyme_const, 2);
  CHECK_CLOSE(2 * 2 * 1.5, dp[0].vel);
  CHECK_CLOSE(3 * 2 * 0.25, dp[1].vel);
  CHECK_CLOSE(0.5, dp[0].pos);
  CHECK_CLOSE(-0.7, de1);

  double y[2] = {0.4, -0.2}, dy[2] = {1, 2}, k = 3.0;
  __enzyme_autodiff_void((void *)euler, enzyme_dup, y, dy, enzyme_const, k, enzyme_const, 3000);
  double y0[2] = {0.4, -0.2};
  CHECK_GRADIENT(euler_fd, &k, y0, 2, dy);
  return fd_report();
}
