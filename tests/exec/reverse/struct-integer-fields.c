// Structs mixing doubles with integer fields that the differentiated code
// only copies (an id carried along, a tag, struct assignment in a swap):
// the integer fields are declared integer by the struct (TBAA at -O1 and
// above, the field address at -O0), so their copies are not taken for
// untyped moves of doubles (tests/lit/diagnostics/integer-view-untyped.c)
// and the gradient, through a sort by id, matches finite differences.
// RUN: sh %testlib/run-c.sh %s
#include <string.h>
#include "enzyme.h"
#include "fdcheck.h"

typedef struct {
  double x;
  long id;
  int tag;
  float w;
} Particle;

enum { N = 5 };

static void swap_particles(Particle *a, Particle *b) {
  Particle t = *a;
  *a = *b;
  *b = t;
}

static void copy_scaled(Particle *dst, const Particle *src, int n) {
  for (int i = 0; i < n; i++) {
    dst[i].id = src[i].id;
    dst[i].tag = src[i].tag;
    dst[i].x = 2 * src[i].x;
    dst[i].w = src[i].w;
  }
}

double loss(Particle *p, int n) {
  Particle q[N];
  copy_scaled(q, p, n);
  for (int pass = 0; pass < n; pass++)
    for (int i = 0; i + 1 < n; i++)
      if (q[i].id > q[i + 1].id)
        swap_particles(&q[i], &q[i + 1]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += q[i].x * q[i].x * (i + 1) * q[i].w + q[i].tag;
  return s;
}

static const long kIds[N] = {3, 1, 4, 0, 2};

static double loss_of_x(const double *x, void *ctx) {
  (void)ctx;
  Particle p[N];
  for (int i = 0; i < N; i++) {
    p[i].x = x[i];
    p[i].id = kIds[i];
    p[i].tag = i;
    p[i].w = 0.5f + (float)i;
  }
  return loss(p, N);
}

int main(void) {
  Particle p[N], dp[N];
  double x[N], grad[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.3 * i - 0.4;
    p[i].x = x[i];
    p[i].id = kIds[i];
    p[i].tag = i;
    p[i].w = 0.5f + (float)i;
  }
  memset(dp, 0, sizeof dp);
  __enzyme_autodiff((void *)loss, enzyme_dup, p, dp, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    grad[i] = dp[i].x;
    CHECK_CLOSE((double)kIds[i], (double)p[i].id);
  }
  CHECK_GRADIENT(loss_of_x, NULL, x, N, grad);
  return fd_report();
}
