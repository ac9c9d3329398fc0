// Runs of floats copied as integers out of a float array that the same
// function also reads at a variable index: `memcpy(b, a, 8)` becomes an
// i64 load and store at -O1..-O3, `memcpy(b, a + k, 16)` a wider one.
// The type analysis knew "floats at every offset" of `a` from the
// variable-index reads, but an element fact only described a copy of one
// float's size, so the i64 copy was typed integer by itself and reverse
// mode dropped the adjoints of the copied floats without a word (a
// gradient of 0 for 2 and 108 for 116 at -O1..-O3). A copy whose size is
// a multiple of the array's element now moves floats in both modes.
// Gradients against hand-written adjoints, tangents against gradients.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <string.h>

#define N 6

/* b = {a0, a1, a2*a1, a3*a2, ...}: the first `lead` floats copied. */
__attribute__((noinline)) void lead_then_products(const float *a, float *b,
                                                  int n) {
  memcpy(b, a, 8);
  for (int i = 2; i < n; i++) b[i] = a[i] * a[i - 1];
}
__attribute__((noinline)) void three_then_squares(const float *a, float *b,
                                                  int n) {
  memcpy(b, a, 12);
  for (int i = 3; i < n; i++) b[i] = a[i] * a[i];
}
/* Four floats from a variable start, then a variable-index read. */
__attribute__((noinline)) float window(const float *a, int k, int j) {
  float w[4];
  memcpy(w, a + k, 16);
  return w[0] * w[1] + w[2] * w[3] * w[3] + a[j];
}

float weighted_squares(const float *b, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * b[i] * b[i];
  return s;
}
float loss_products(const float *a, int n) {
  float b[N];
  lead_then_products(a, b, n);
  return weighted_squares(b, n);
}
float loss_squares(const float *a, int n) {
  float b[N];
  three_then_squares(a, b, n);
  return weighted_squares(b, n);
}
float loss_window(const float *a, int k, int j) { return window(a, k, j); }
/* The copy in the differentiated function itself. */
float loss_inline(const float *a, int n) {
  float b[2];
  memcpy(b, a + 1, 8);
  float s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s * b[0] + b[1] * b[1];
}

static void expect_products(const float *a, double *g) {
  double b[N], db[N];
  b[0] = a[0]; b[1] = a[1];
  for (int i = 2; i < N; i++) b[i] = (double)a[i] * a[i - 1];
  for (int i = 0; i < N; i++) { db[i] = 2.0 * (i + 1) * b[i]; g[i] = 0; }
  g[0] += db[0]; g[1] += db[1];
  for (int i = 2; i < N; i++) { g[i] += db[i] * a[i - 1]; g[i - 1] += db[i] * a[i]; }
}
static void expect_squares(const float *a, double *g) {
  for (int i = 0; i < N; i++) {
    double b = i < 3 ? a[i] : (double)a[i] * a[i];
    double db = 2.0 * (i + 1) * b;
    g[i] = i < 3 ? db : db * 2.0 * a[i];
  }
}


float __enzyme_fwddiff_2(void *, int, const float *, const float *, int, int);
float __enzyme_fwddiff_3(void *, int, const float *, const float *, int, int,
                         int, int);

int main(void) {
  const float a[N] = {0.5f, -1.25f, 0.75f, 1.5f, -0.5f, 2.0f};
  const float v[N] = {1.0f, 0.5f, -0.25f, 2.0f, 0.125f, -1.0f};
  float da[N];
  double g[N];
  /* (A request names its function directly: at -O0 a function pointer
     read from an array is not a constant.) */
#define CHECK_LOSS(loss, expect)                                               \
  do {                                                                         \
    memset(da, 0, sizeof da);                                                  \
    __enzyme_autodiff((void *)loss, enzyme_dup, a, da, enzyme_const, N);       \
    expect(a, g);                                                              \
    double dot_ = 0;                                                           \
    for (int i = 0; i < N; i++) {                                              \
      CHECK_CLOSE_F(g[i], da[i]);                                              \
      dot_ += g[i] * v[i];                                                     \
    }                                                                          \
    CHECK_CLOSE_F(dot_, __enzyme_fwddiff_2((void *)loss, enzyme_dup, a, v,     \
                                           enzyme_const, N));                  \
  } while (0)
  CHECK_LOSS(loss_products, expect_products);
  CHECK_LOSS(loss_squares, expect_squares);
  /* window at k = 1, j = 4: w = a1..a4 */
  memset(da, 0, sizeof da);
  __enzyme_autodiff((void *)loss_window, enzyme_dup, a, da, enzyme_const, 1,
                    enzyme_const, 4);
  double gw[N] = {0, a[2], a[1], (double)a[4] * a[4],
                  2.0 * a[3] * a[4] + 1.0, 0};
  double dot = 0;
  for (int i = 0; i < N; i++) { CHECK_CLOSE_F(gw[i], da[i]); dot += gw[i] * v[i]; }
  CHECK_CLOSE_F(dot, __enzyme_fwddiff_3((void *)loss_window, enzyme_dup, a, v,
                                        enzyme_const, 1, enzyme_const, 4));
  /* inline: (sum a) * a1 + a2^2 */
  memset(da, 0, sizeof da);
  __enzyme_autodiff((void *)loss_inline, enzyme_dup, a, da, enzyme_const, N);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += a[i];
  dot = 0;
  for (int i = 0; i < N; i++) {
    double gi = a[1] + (i == 1 ? sum : 0) + (i == 2 ? 2.0 * a[2] : 0);
    CHECK_CLOSE_F(gi, da[i]);
    dot += gi * v[i];
  }
  CHECK_CLOSE_F(dot, __enzyme_fwddiff_2((void *)loss_inline, enzyme_dup, a, v,
                                        enzyme_const, N));
  return fd_report();
}
