// Records copied whole (clang copies a struct with memcpy at -O0, SROA
// then moves its parts as integers) with fields this function never reads
// by themselves: an `int id` beside a double, two unused ints in front of
// the sort key. The type analysis knew nothing of those bytes, so the
// copy's adjoint was refused at -O0 ("an integer copy through a pointer to
// active memory whose type the type analysis cannot deduce", "a memory
// copy of active data whose type is mixed or unknown"); the struct type
// the address is computed on declares them (DeclaredLayout.cpp). Found by
// the C and C++ new-user hunts. Checked: gradients against finite
// differences, the records' other fields kept, at -O0..-O3.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

#include <math.h>
#include <string.h>

enum { N = 5 };

typedef struct { double x; int id; } body;
typedef struct { double x; long cell; } cell_body;
typedef struct { int id; int cell; double x; } part;
typedef struct { int tag; double a; short s; double b; } mixed;
typedef struct { double a; float b; int k; } dfrec;
typedef struct { double a; double *p; } pref;

/* Copy, update, write back: `body c = bs[i]; ...; bs[i] = c;`. */
__attribute__((noinline)) double drift(body *bs, int n, double dt) {
  double e = 0;
  for (int i = 0; i < n; ++i) {
    body c = bs[i];
    c.x += dt * c.x * c.x;
    bs[i] = c;
    e += c.x * (i + 1);
  }
  return e;
}

__attribute__((noinline)) double drift_long(cell_body *bs, int n, double dt) {
  double e = 0;
  for (int i = 0; i < n; ++i) {
    cell_body c = bs[i];
    c.x = sin(c.x) + dt;
    bs[i] = c;
    e += c.x * c.x;
  }
  return e;
}

/* Insertion sort of records by an int key computed from x, swapping
 * whole records; `id` is never read. */
__attribute__((noinline)) double sort_parts(part *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i].cell = (int)floor(p[i].x);
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && p[j - 1].cell > p[j].cell; --j) {
      part t = p[j - 1];
      p[j - 1] = p[j];
      p[j] = t;
    }
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += (i + 1) * p[i].x * p[i].x;
  return r;
}

/* Records copied into a local array and back in reverse order. */
__attribute__((noinline)) double reverse_mixed(mixed *m, int n) {
  mixed tmp[N];
  for (int i = 0; i < n; ++i)
    tmp[i] = m[n - 1 - i];
  for (int i = 0; i < n; ++i)
    m[i] = tmp[i];
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += (i + 1) * m[i].a + m[i].b * m[i].b;
  return r;
}

/* A memcpy of run-time length over records of a double, a float and an
 * int (memcpy of arrays of such records was refused at -O0..-O2). */
__attribute__((noinline)) double copy_dfrec(const dfrec *in, int n) {
  dfrec tmp[N];
  memcpy(tmp, in, n * sizeof(dfrec));
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += tmp[i].a * tmp[i].b * (i + 1) + tmp[i].k;
  return s;
}

/* A fixed-size copy of records holding a pointer: the pointer fields'
 * shadows are copied by the forward sweep, the doubles' adjoints moved
 * back (both sweeps must agree on the fields: a later hunt found the
 * forward sweep copying none while the reverse sweep moved the doubles,
 * and the derivative read a null shadow pointer at -O1..-O3). */
__attribute__((noinline)) double ptr_records(const pref *r) {
  pref tmp[3];
  memcpy(tmp, r, sizeof tmp);
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += tmp[i].a * tmp[i].p[0] * tmp[i].p[0];
  return s;
}

static body B0[N];
static cell_body C0[N];
static part P0[N];
static mixed M0[N];

static double drift_F(const double *v, void *c) {
  (void)c;
  body b[N];
  memcpy(b, B0, sizeof b);
  for (int i = 0; i < N; ++i) b[i].x = v[i];
  return drift(b, N, v[N]);
}
static double drift_long_F(const double *v, void *c) {
  (void)c;
  cell_body b[N];
  memcpy(b, C0, sizeof b);
  for (int i = 0; i < N; ++i) b[i].x = v[i];
  return drift_long(b, N, v[N]);
}
static double sort_F(const double *v, void *c) {
  (void)c;
  part p[N];
  memcpy(p, P0, sizeof p);
  for (int i = 0; i < N; ++i) p[i].x = v[i];
  return sort_parts(p, N);
}
static double mixed_F(const double *v, void *c) {
  (void)c;
  mixed m[N];
  memcpy(m, M0, sizeof m);
  for (int i = 0; i < N; ++i) { m[i].a = v[i]; m[i].b = v[N + i]; }
  return reverse_mixed(m, N);
}

int main(void) {
  double v[2 * N], g[2 * N];
  for (int i = 0; i < N; ++i) {
    B0[i] = (body){0.3 + 0.2 * i, 100 + i};
    C0[i] = (cell_body){0.5 - 0.3 * i, 7 * i};
    P0[i] = (part){i, -1, 3.7 - 1.3 * i + 0.45 * (i % 2)};
    M0[i] = (mixed){i, 0.4 * i - 1, (short)(3 * i), 1.1 - 0.2 * i};
  }

  /* drift: gradient in each x and in dt (enzyme_out) */
  {
    body b[N], db[N];
    memcpy(b, B0, sizeof b);
    memset(db, 0, sizeof db);
    double ddt = __enzyme_autodiff((void *)drift, enzyme_dup, b, db,
                                   enzyme_const, N, enzyme_out, 0.25);
    for (int i = 0; i < N; ++i) { v[i] = B0[i].x; g[i] = db[i].x; }
    v[N] = 0.25; g[N] = ddt;
    CHECK_GRADIENT(drift_F, 0, v, N + 1, g);
    for (int i = 0; i < N; ++i) CHECK(b[i].id == 100 + i);
  }
  {
    cell_body b[N], db[N];
    memcpy(b, C0, sizeof b);
    memset(db, 0, sizeof db);
    double ddt = __enzyme_autodiff((void *)drift_long, enzyme_dup, b, db,
                                   enzyme_const, N, enzyme_out, -0.5);
    for (int i = 0; i < N; ++i) { v[i] = C0[i].x; g[i] = db[i].x; }
    v[N] = -0.5; g[N] = ddt;
    CHECK_GRADIENT(drift_long_F, 0, v, N + 1, g);
    for (int i = 0; i < N; ++i) CHECK(b[i].cell == 7 * i);
  }
  /* sort: the gradient reaches each record's x where it started */
  {
    part p[N], dp[N];
    memcpy(p, P0, sizeof p);
    memset(dp, 0, sizeof dp);
    __enzyme_autodiff((void *)sort_parts, enzyme_dup, p, dp, enzyme_const, N);
    for (int i = 0; i < N; ++i) { v[i] = P0[i].x; g[i] = dp[i].x; }
    CHECK_GRADIENT(sort_F, 0, v, N, g);
    for (int i = 1; i < N; ++i) CHECK(p[i - 1].cell <= p[i].cell);
    int ids = 0;
    for (int i = 0; i < N; ++i) ids += p[i].id;
    CHECK(ids == 0 + 1 + 2 + 3 + 4);
  }
  /* records with ints and shorts between the doubles, reversed */
  {
    mixed m[N], dm[N];
    memcpy(m, M0, sizeof m);
    memset(dm, 0, sizeof dm);
    __enzyme_autodiff((void *)reverse_mixed, enzyme_dup, m, dm, enzyme_const, N);
    for (int i = 0; i < N; ++i) {
      v[i] = M0[i].a; g[i] = dm[i].a;
      v[N + i] = M0[i].b; g[N + i] = dm[i].b;
    }
    CHECK_GRADIENT(mixed_F, 0, v, 2 * N, g);
    for (int i = 0; i < N; ++i) CHECK(m[i].tag == N - 1 - i && m[i].s == 3 * (N - 1 - i));
  }
  {
    double q[3] = {0.5, -1.5, 2.0}, dq[3] = {0};
    pref r[3], dr[3];
    for (int i = 0; i < 3; ++i) {
      r[i] = (pref){1.0 + i, &q[i]};
      dr[i] = (pref){0, &dq[i]};
    }
    __enzyme_autodiff((void *)ptr_records, enzyme_dup, r, dr);
    for (int i = 0; i < 3; ++i) {
      CHECK_CLOSE(q[i] * q[i], dr[i].a);
      CHECK_CLOSE(2 * r[i].a * q[i], dq[i]);
      CHECK(dr[i].p == &dq[i]);
    }
  }
  /* the float field's adjoint is a float: checked exactly against the
     analytic gradient (a, b) -> (b (i+1), a (i+1)) */
  {
    dfrec r[N], dr[N];
    memset(dr, 0, sizeof dr);
    for (int i = 0; i < N; ++i) r[i] = (dfrec){0.5 + i, 2.0f - i, i};
    __enzyme_autodiff((void *)copy_dfrec, enzyme_dup, r, dr, enzyme_const, N);
    for (int i = 0; i < N; ++i) {
      CHECK_CLOSE((double)r[i].b * (i + 1), dr[i].a);
      CHECK_CLOSE_TOL((double)(float)(r[i].a * (i + 1)), (double)dr[i].b, 1e-6, 1e-6);
      CHECK(dr[i].k == 0);
    }
  }
  return fd_report();
}
