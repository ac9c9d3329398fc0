// Forward mode through early exits: a loop that breaks once a running sum
// of squares passes a limit, a search that returns from inside the loop,
// and a nested search leaving both loops with goto. The tangent follows the
// path the data took; the limit only steers control flow, so its tangent
// contributes nothing. Inputs keep every comparison far from its threshold.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

/* sum_{i<=j} x_i^2 for the first j at which it exceeds `limit`, times x_0. */
double sum_until(const double *x, int n, double limit) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i] * x[i];
    if (s > limit)
      break;
  }
  return s * x[0];
}

/* x_i * exp(x_i) + i for the first x_i above t, else sum x_i. */
double first_above(const double *x, int n, double t) {
  double fallback = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] > t)
      return x[i] * exp(x[i]) + i;
    fallback += x[i];
  }
  return fallback;
}

/* The first pair (i, j) with a_i * b_j < 0 and |a_i b_j| > t: a_i b_j^2. */
double first_pair(const double *a, const double *b, int n, double t) {
  double r = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double p = a[i] * b[j];
      if (p < 0 && -p > t) {
        r = a[i] * b[j] * b[j];
        goto done;
      }
    }
done:
  return r + a[0];
}

enum { N = 10 };

struct ctx {
  int n;
  double t;
};
static double sum_until_fd(const double *v, void *p) {
  struct ctx *c = (struct ctx *)p;
  return sum_until(v, c->n, c->t);
}
static double first_above_fd(const double *v, void *p) {
  struct ctx *c = (struct ctx *)p;
  return first_above(v, c->n, c->t);
}
static double first_pair_fd(const double *v, void *p) {
  struct ctx *c = (struct ctx *)p;
  return first_pair(v, v + c->n, c->n, c->t);
}

int main(void) {
  volatile int nv = N;
  int n = nv;
  double x[N], dx[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.6 + 0.35 * i * ((i % 3) - 1) + 0.1 * i; /* mixed signs */
    dx[i] = 0.3 + 0.1 * (i % 4) - 0.05 * i;
  }

  /* x = .6 .7 1.5 -.15 1 2.85 -.9 1.3 4.2 -1.65; partial sums of squares
   * .36 .85 3.1 3.1225 4.1225 12.245 ...: the limits fall between them. */
  static const double limits[] = {0.5, 2.7, 6.0, 1e9};
  for (unsigned k = 0; k < sizeof limits / sizeof limits[0]; ++k) {
    double lim = limits[k], s = 0, ds = 0;
    int stop = n - 1;
    for (int i = 0; i < n; ++i) {
      s += x[i] * x[i];
      ds += 2 * x[i] * dx[i];
      if (s > lim) {
        stop = i;
        break;
      }
    }
    double prev = s - x[stop] * x[stop];
    CHECK(lim == 1e9 || (s - lim > 0.05 && lim - prev > 0.05));
    double an = ds * x[0] + s * dx[0];
    struct ctx c = {n, lim};
    CHECK_CLOSE(an, fd_dir(sum_until_fd, &c, x, dx, n));
    CHECK_CLOSE(an, __enzyme_fwddiff((void *)sum_until, enzyme_dup, x, dx,
                                     enzyme_const, n, enzyme_const, lim));
    /* The limit as a dup scalar with a unit tangent: no contribution. */
    CHECK_CLOSE(an, __enzyme_fwddiff((void *)sum_until, x, dx, n, lim, 1.0));
  }

  static const double ts[] = {1.2, 2.9, 100.0};
  for (unsigned k = 0; k < sizeof ts / sizeof ts[0]; ++k) {
    double t = ts[k], an = 0;
    int hit = -1;
    for (int i = 0; i < n; ++i)
      if (x[i] > t) {
        hit = i;
        break;
      }
    if (hit >= 0) {
      CHECK(x[hit] - t > 0.05);
      an = dx[hit] * (1 + x[hit]) * exp(x[hit]);
    } else {
      for (int i = 0; i < n; ++i)
        an += dx[i];
    }
    struct ctx c = {n, t};
    CHECK_CLOSE(an, fd_dir(first_above_fd, &c, x, dx, n));
    CHECK_CLOSE(an, __enzyme_fwddiff((void *)first_above, enzyme_dup, x, dx,
                                     enzyme_const, n, enzyme_const, t));
    CHECK_CLOSE(an, __enzyme_fwddiff((void *)first_above, x, dx, n, t, -2.0));
  }

  /* first_pair over a = x[0..4], b = x[5..9] (n = 5). */
  static const double pts[] = {0.1, 1.2, 3.0};
  for (unsigned k = 0; k < sizeof pts / sizeof pts[0]; ++k) {
    int m = n / 2;
    double t = pts[k], an = dx[0];
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) {
        double p = x[i] * x[m + j];
        if (p < 0 && -p > t) {
          CHECK(-p - t > 0.05);
          an += dx[i] * x[m + j] * x[m + j] +
                2 * x[i] * x[m + j] * dx[m + j];
          goto found;
        }
      }
  found:;
    struct ctx c = {m, t};
    CHECK_CLOSE(an, fd_dir(first_pair_fd, &c, x, dx, 2 * m));
    CHECK_CLOSE(an, __enzyme_fwddiff((void *)first_pair, enzyme_dup, x, dx,
                                     enzyme_dup, x + m, dx + m, enzyme_const,
                                     m, enzyme_const, t));
  }
  return fd_report();
}
