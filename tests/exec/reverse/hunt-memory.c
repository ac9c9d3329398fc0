// Reverse mode on memory patterns of numerical code, with the shadow
// semantics checked: shadows of read-only inputs are incremented (they start
// non-zero here), shadows of overwritten outputs end at zero. In-place
// prefix products and a 3-point smoothing stencil overwriting its input;
// gather with repeated indices (sparse CSR mat-vec) and scatter-add
// (finite-element assembly); memcpy into and memset of the output; malloc'd
// and calloc'd work arrays; a linked list passed in with a shadow list;
// double** rows (matrix-vector into rows of an output); an array of
// structs with int, pointer and double fields. FD and analytic checks.
// RUN: sh %testlib/run-c.sh %s
// RUN: env ADTEST_LEVELS=3 sh %testlib/run-c.sh %s -march=native

#include <stdlib.h>
#include <string.h>

#include "enzyme.h"
#include "fdcheck.h"

/* x[i] <- x[0] * ... * x[i] in place */
void prefix_prod(double *x, int n) {
  for (int i = 1; i < n; ++i) x[i] *= x[i - 1];
}
/* x <- 3-point smoothing, in place with a saved left neighbour, k sweeps */
void smooth(double *x, int n, int sweeps) {
  for (int s = 0; s < sweeps; ++s) {
    double left = x[0];
    for (int i = 1; i + 1 < n; ++i) {
      double cur = x[i];
      x[i] = 0.25 * left + 0.5 * cur + 0.25 * x[i + 1] + 0.01 * cur * cur;
      left = cur;
    }
  }
}
/* y = A x, A in CSR, then sum y^2; col indices repeat */
double csr_norm(const double *val, const int *col, const int *rowptr, int nrows,
                const double *x) {
  double s = 0;
  for (int r = 0; r < nrows; ++r) {
    double y = 0;
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) y += val[k] * x[col[k]];
    s += y * y;
  }
  return s;
}
/* 1-D linear elements: assemble K u into f (scatter-add), stiffness k_e */
void assemble(double *f, const double *ke, const double *u, const int *conn,
              int nel) {
  for (int e = 0; e < nel; ++e) {
    int a = conn[2 * e], b = conn[2 * e + 1];
    double du = u[b] - u[a];
    f[a] -= ke[e] * du;
    f[b] += ke[e] * du;
  }
}
/* out <- copy of x (memcpy), then out[i] *= out[i]; a zeroed accumulator */
void copy_square(double *out, const double *x, int n) {
  memcpy(out, x, n * sizeof(double));
  for (int i = 0; i < n; ++i) out[i] = out[i] * out[i];
}
double memset_acc(const double *x, int n, int m) {
  double acc[8];
  memset(acc, 0, sizeof acc);
  for (int i = 0; i < n; ++i) acc[i % m] += x[i] * x[(i + 3) % n];
  double s = 0;
  for (int j = 0; j < m; ++j) s += acc[j] * acc[j];
  return s;
}
void reset_out(double *out, const double *x, int n) {
  memset(out, 0, n * sizeof(double));
  for (int i = 0; i < n; ++i) out[(i * 5) % n] += exp(x[i]);
}
/* softmax cross-entropy with a malloc'd and a calloc'd temporary */
double xent(const double *z, int n, int label) {
  double *p = malloc(n * sizeof(double));
  double *hist = calloc(n, sizeof(double));
  double m = z[0];
  for (int i = 1; i < n; ++i) if (z[i] > m) m = z[i];
  double s = 0;
  for (int i = 0; i < n; ++i) { p[i] = exp(z[i] - m); s += p[i]; }
  for (int i = 0; i < n; ++i) { p[i] /= s; hist[i] += p[i] * p[i]; }
  double l = -log(p[label]);
  for (int i = 0; i < n; ++i) l += 0.1 * hist[i];
  free(p);
  free(hist);
  return l;
}
/* a list of springs built by the caller */
struct spring { double k, x0; int active; struct spring *next; };
double spring_energy(const struct spring *s, double x) {
  double e = 0;
  for (; s; s = s->next) {
    if (!s->active) continue;
    double d = x - s->x0;
    e += 0.5 * s->k * d * d;
  }
  return e;
}
/* y[i] = sum_j A[i][j] x[j] written into rows of Y, returns nothing */
void matvec_rows(double **Y, double **A, const double *x, int n, int m) {
  for (int i = 0; i < n; ++i) {
    Y[i][0] = 0;
    for (int j = 0; j < m; ++j) Y[i][0] += A[i][j] * x[j];
    Y[i][1] = Y[i][0] * Y[i][0];
  }
}
struct cell { int kind; double *phi; double vol; const char *name; double rho; };
double total_mass(const struct cell *c, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i) {
    double r = c[i].kind == 1 ? c[i].rho * c[i].phi[0] : c[i].rho;
    m += r * c[i].vol + (c[i].name[0] == 'w' ? c[i].phi[1] : 0.0);
  }
  return m;
}

typedef double (*vfn)(const double *, void *);
static void check_grad(vfn F, void *ctx, const double *x, int n, const double *got,
                       const double *base) {
  for (int i = 0; i < n; ++i) {
    double e[64] = {0};
    e[i] = 1;
    CHECK_CLOSE_TOL(fd_dir(F, ctx, x, e, n) + (base ? base[i] : 0), got[i], 1e-6, 1e-8);
  }
}
struct ctx { int n; const double *seed; const void *p1, *p2, *p3; };
/* L(x) = seed . F(x) for in-place functions */
static double prefix_L(const double *x, void *p) {
  struct ctx *c = p; double w[64];
  memcpy(w, x, c->n * sizeof(double));
  prefix_prod(w, c->n);
  double s = 0; for (int i = 0; i < c->n; ++i) s += c->seed[i] * w[i];
  return s;
}
static double smooth_L(const double *x, void *p) {
  struct ctx *c = p; double w[64];
  memcpy(w, x, c->n * sizeof(double));
  smooth(w, c->n, 4);
  double s = 0; for (int i = 0; i < c->n; ++i) s += c->seed[i] * w[i];
  return s;
}
static double csr_x(const double *x, void *p) {
  struct ctx *c = p;
  return csr_norm(c->p1, c->p2, c->p3, c->n, x);
}
static double csr_v(const double *v, void *p) {
  struct ctx *c = p;
  return csr_norm(v, c->p2, c->p3, c->n, c->seed);
}
static double asm_u(const double *u, void *p) {
  struct ctx *c = p; double f[8] = {0};
  assemble(f, c->p1, u, c->p2, c->n);
  double s = 0; for (int i = 0; i < 6; ++i) s += c->seed[i] * f[i];
  return s;
}
static double memset_F(const double *x, void *p) { struct ctx *c = p; return memset_acc(x, c->n, 5); }
static double xent_F(const double *x, void *p) { struct ctx *c = p; return xent(x, c->n, 3); }

int main(void) {
  double x0[12];
  for (int i = 0; i < 12; ++i) x0[i] = 1.0 + 0.3 * sin(1.7 * i);
  double seed[12];
  for (int i = 0; i < 12; ++i) seed[i] = 0.5 + 0.1 * i;

  /* in-place prefix product: dx holds the output seed, ends as the input gradient */
  {
    double x[12], dx[12];
    memcpy(x, x0, sizeof x); memcpy(dx, seed, sizeof dx);
    __enzyme_autodiff_void((void *)prefix_prod, enzyme_dup, x, dx, enzyme_const, 12);
    double p = 1;
    for (int i = 0; i < 12; ++i) { p *= x0[i]; CHECK_CLOSE(p, x[i]); }
    struct ctx c = {12, seed, 0, 0, 0};
    check_grad(prefix_L, &c, x0, 12, dx, 0);
  }
  /* in-place smoothing, 4 sweeps */
  {
    double x[12], dx[12];
    memcpy(x, x0, sizeof x); memcpy(dx, seed, sizeof dx);
    __enzyme_autodiff_void((void *)smooth, enzyme_dup, x, dx, enzyme_const, 12, enzyme_const, 4);
    struct ctx c = {12, seed, 0, 0, 0};
    check_grad(smooth_L, &c, x0, 12, dx, 0);
  }
  /* CSR with repeated columns: both val and x active; shadows start at 1 */
  {
    double val[9] = {1.5, -0.3, 0.7, 2.0, 0.4, -1.1, 0.9, 0.2, 0.6};
    int col[9] = {0, 0, 2, 1, 2, 2, 3, 0, 0};
    int rowptr[5] = {0, 3, 5, 8, 9};
    double xv[4] = {0.8, -0.5, 1.2, 0.3}, dval[9], dxv[4], one[9];
    for (int i = 0; i < 9; ++i) dval[i] = one[i] = 1;
    for (int i = 0; i < 4; ++i) dxv[i] = 1;
    __enzyme_autodiff((void *)csr_norm, enzyme_dup, val, dval, enzyme_const, col,
                      enzyme_const, rowptr, enzyme_const, 4, enzyme_dup, xv, dxv);
    struct ctx cx = {4, 0, val, col, rowptr}, cv = {4, xv, 0, col, rowptr};
    check_grad(csr_x, &cx, xv, 4, dxv, one);
    check_grad(csr_v, &cv, val, 9, dval, one);
  }
  /* scatter-add assembly: f only accumulates, so its shadow keeps the seed */
  {
    double ke[5] = {2.0, 1.5, 3.0, 0.5, 1.25}, dke[5] = {0};
    int conn[10] = {0, 1, 1, 2, 2, 3, 3, 4, 1, 5};
    double u[6] = {0.0, 0.1, 0.35, 0.3, 0.7, 0.55}, du[6] = {0};
    double f[6] = {0}, df[6];
    memcpy(df, seed, sizeof df);
    __enzyme_autodiff_void((void *)assemble, enzyme_dup, f, df, enzyme_dup, ke, dke,
                           enzyme_dup, u, du, enzyme_const, conn, enzyme_const, 5);
    for (int i = 0; i < 6; ++i) CHECK(df[i] == seed[i]);
    for (int e = 0; e < 5; ++e) {
      int a = conn[2 * e], b = conn[2 * e + 1];
      CHECK_CLOSE((seed[b] - seed[a]) * (u[b] - u[a]), dke[e]);
    }
    struct ctx c = {5, seed, ke, conn, 0};
    check_grad(asm_u, &c, u, 6, du, 0);
  }
  /* memcpy into output; output shadow ends at zero */
  {
    double out[12], dout[12], dx[12];
    memcpy(dout, seed, sizeof dout);
    for (int i = 0; i < 12; ++i) dx[i] = 0.25;
    __enzyme_autodiff_void((void *)copy_square, enzyme_dup, out, dout, enzyme_dup, x0, dx,
                           enzyme_const, 12);
    for (int i = 0; i < 12; ++i) {
      CHECK_CLOSE(x0[i] * x0[i], out[i]);
      CHECK(dout[i] == 0);
      CHECK_CLOSE(0.25 + 2 * x0[i] * seed[i], dx[i]);
    }
  }
  /* memset of a local accumulator */
  {
    double dx[12] = {0};
    __enzyme_autodiff((void *)memset_acc, enzyme_dup, x0, dx, enzyme_const, 12, enzyme_const, 5);
    struct ctx c = {12, 0, 0, 0, 0};
    check_grad(memset_F, &c, x0, 12, dx, 0);
  }
  /* memset of the output, then += with a permutation */
  {
    double out[7], dout[7], dx[7] = {0};
    for (int i = 0; i < 7; ++i) { out[i] = 99; dout[i] = seed[i]; }
    __enzyme_autodiff_void((void *)reset_out, enzyme_dup, out, dout, enzyme_dup, x0, dx,
                           enzyme_const, 7);
    for (int i = 0; i < 7; ++i) {
      CHECK_CLOSE(exp(x0[i]), out[(i * 5) % 7]);
      CHECK(dout[i] == 0);
      CHECK_CLOSE(seed[(i * 5) % 7] * exp(x0[i]), dx[i]);
    }
  }
  /* softmax cross-entropy with malloc/calloc temporaries */
  {
    double z[10], dz[10] = {0};
    for (int i = 0; i < 10; ++i) z[i] = 0.7 * cos(0.9 * i) + 0.1 * i;
    __enzyme_autodiff((void *)xent, enzyme_dup, z, dz, enzyme_const, 10, enzyme_const, 3);
    struct ctx c = {10, 0, 0, 0, 0};
    check_grad(xent_F, &c, z, 10, dz, 0);
  }
  /* linked list with a shadow list: dk = d^2/2, dx0 = -k d */
  {
    struct spring s[4], ds[4];
    double ks[4] = {2.0, 0.5, 3.0, 1.5}, xs[4] = {0.3, -0.2, 1.1, 0.8};
    for (int i = 0; i < 4; ++i) {
      s[i] = (struct spring){ks[i], xs[i], i != 2, i < 3 ? &s[i + 1] : 0};
      ds[i] = (struct spring){0, 0, 0, i < 3 ? &ds[i + 1] : 0};
    }
    double x = 0.45;
    double dxv = __enzyme_autodiff((void *)spring_energy, enzyme_dup, s, ds, x);
    double ex = 0;
    for (int i = 0; i < 4; ++i) {
      double d = x - xs[i];
      if (i == 2) { CHECK(ds[i].k == 0 && ds[i].x0 == 0); continue; }
      CHECK_CLOSE(0.5 * d * d, ds[i].k);
      CHECK_CLOSE(-ks[i] * d, ds[i].x0);
      ex += ks[i] * d;
    }
    CHECK_CLOSE(ex, dxv);
  }
  /* double** rows: Y overwritten (shadow zeroed), A and x read */
  {
    double A0[3][4] = {{1, 2, 0.5, -1}, {0.3, 0.1, 2, 1}, {-0.5, 1, 1, 0.25}};
    double dA0[3][4] = {{0}};
    double y[3][2], dy[3][2];
    double *A[3], *dA[3], *Y[3], *dY[3];
    for (int i = 0; i < 3; ++i) {
      A[i] = A0[i]; dA[i] = dA0[i]; Y[i] = y[i]; dY[i] = dy[i];
      dy[i][0] = 0.5; dy[i][1] = 1.0 + i;
    }
    double xv[4] = {0.2, -0.4, 0.9, 0.6}, dxv[4] = {0};
    __enzyme_autodiff_void((void *)matvec_rows, enzyme_dup, Y, dY, enzyme_dup, A, dA,
                           enzyme_dup, xv, dxv, enzyme_const, 3, enzyme_const, 4);
    double gy[3];
    for (int i = 0; i < 3; ++i) {
      double yi = 0;
      for (int j = 0; j < 4; ++j) yi += A0[i][j] * xv[j];
      CHECK_CLOSE(yi, y[i][0]);
      CHECK(dy[i][0] == 0 && dy[i][1] == 0);
      gy[i] = 0.5 + (1.0 + i) * 2 * yi;
      for (int j = 0; j < 4; ++j) CHECK_CLOSE(gy[i] * xv[j], dA0[i][j]);
    }
    for (int j = 0; j < 4; ++j) {
      double e = 0;
      for (int i = 0; i < 3; ++i) e += gy[i] * A0[i][j];
      CHECK_CLOSE(e, dxv[j]);
    }
  }
  /* structs of mixed fields */
  {
    double phi[3][2] = {{0.5, 2.0}, {0.25, 3.0}, {0.75, -1.0}}, dphi[3][2] = {{0}};
    struct cell c[3] = {{1, phi[0], 2.0, "water", 1000}, {0, phi[1], 0.5, "air", 1.2},
                        {1, phi[2], 1.5, "wood", 600}};
    struct cell dc[3];
    for (int i = 0; i < 3; ++i) dc[i] = (struct cell){0, dphi[i], 0, 0, 0};
    __enzyme_autodiff((void *)total_mass, enzyme_dup, c, dc, enzyme_const, 3);
    CHECK_CLOSE(0.5 * 2.0, dc[0].rho);
    CHECK_CLOSE(1000 * 0.5, dc[0].vol);
    CHECK_CLOSE(2.0 * 1000, dphi[0][0]);
    CHECK_CLOSE(1.0, dphi[0][1]);
    CHECK_CLOSE(0.5, dc[1].rho);
    CHECK_CLOSE(1.2, dc[1].vol);
    CHECK(dphi[1][0] == 0 && dphi[1][1] == 0);
    CHECK_CLOSE(0.75 * 1.5, dc[2].rho);
    CHECK_CLOSE(1.0, dphi[2][1]);
    CHECK_CLOSE(1.5 * 600, dphi[2][0]);
  }
  return fd_report();
}
