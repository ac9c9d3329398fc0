// RUN: sh %testlib/run-c.sh %s
//
// Small records mixing float fields with integer fields or padding,
// swapped whole: clang copies them as `i64` (a `{int; float}` pair) or
// `<2 x i64>` (two adjacent records) at -O1 and above, which reverse mode
// cuts into one copy per field so the float fields carry their adjoints.
// Gradients against the analytic value at the position each record ends
// up in; the shadows' integer fields are left alone.
#include "enzyme.h"
#include "fdcheck.h"
#include <stdlib.h>
typedef struct { int k; float w; } P;       /* integer then float, packed in an i64 */
typedef struct { float w; int k; } Q;       /* float then integer */
typedef struct { double m; float w; int k; } R;    /* float then padding */

__attribute__((noinline)) static void swapP(P *a, P *b) { P t = *a; *a = *b; *b = t; }
double lossP(P *p, int n) {
  for (int i = 0; i + 1 < n; i += 2) if (p[i].k < p[i + 1].k) swapP(&p[i], &p[i + 1]);
  double s = 0;
  for (int i = 0; i < n; ++i) s += (double)p[i].w * p[i].w * (i + 1);
  return s;
}
double lossQ(Q *p, int n) {
  for (int i = 0; i + 1 < n; i += 2) if (p[i].k < p[i + 1].k) { Q t = p[i]; p[i] = p[i + 1]; p[i + 1] = t; }
  double s = 0;
  for (int i = 0; i < n; ++i) s += (double)p[i].w * p[i].w * (i + 1);
  return s;
}
double lossR(R *p, int n) {
  for (int i = 0; i + 1 < n; i += 2) if (p[i].m < p[i + 1].m) { R t = p[i]; p[i] = p[i + 1]; p[i + 1] = t; }
  double s = 0;
  for (int i = 0; i < n; ++i) s += p[i].m * p[i].w * (i + 1);
  return s;
}
/* Insertion sort: the record taken out is put back at an index computed
 * as `(j << 32) >> 29` at -O2 (a multiple of the record's size). */
double lossI(P *p, int n) {
  for (int i = 1; i < n; ++i) {
    P t = p[i];
    int j = i - 1;
    while (j >= 0 && p[j].k > t.k) { p[j + 1] = p[j]; --j; }
    p[j + 1] = t;
  }
  double s = 0;
  for (int i = 0; i < n; ++i) s += (double)p[i].w * p[i].w * (i + 1);
  return s;
}
#define N 6
/* d loss / d w_j = 2 w_j (pos(j)+1) for P, Q; m_pos * (pos+1) for R, where
 * pos(j) is where element j ends up: found by running the primal on
 * records whose w is their index. */
#define RUN(T, loss, init, grad_of)                                            \
  {                                                                            \
    T p[N], d[N], id[N];                                                       \
    for (int i = 0; i < N; ++i) { init(p[i], i); init(id[i], i); id[i].w = (float)i; } \
    memset(d, 0, sizeof d);                                                    \
    for (int i = 0; i < N; ++i) d[i].k = 100 + i;                              \
    __enzyme_autodiff((void *)loss, enzyme_dup, p, d, enzyme_const, N);        \
    loss(id, N);                                                               \
    for (int pos = 0; pos < N; ++pos) {                                        \
      int j = (int)id[pos].w;                                                  \
      CHECK_CLOSE_F(grad_of(p[pos], pos), d[j].w);                             \
      CHECK(d[pos].k == 100 + pos);                                           \
    }                                                                          \
  }
#include <string.h>
static const double xs[N] = {0.5, -1.25, 0.75, 1.5, -0.5, 2.0};
#define INITK(r, i) ((r).k = ((i) * 7) % 5, (r).w = (float)xs[i])
#define INITM(r, i) ((r).m = 0.3 * (i) * (i) - (i), (r).w = (float)xs[i])
#define GW(r, pos) (2.0 * (r).w * ((pos) + 1))
#define GM(r, pos) ((r).m * ((pos) + 1))
int main(void) {
  RUN(P, lossP, INITK, GW)
  RUN(Q, lossQ, INITK, GW)
  RUN(P, lossI, INITK, GW)
  RUN(R, lossR, INITM, GM)
  return fd_report();
}
