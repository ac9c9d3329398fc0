// Records copied by assignment whose float fields the code otherwise only
// moves as integers: an insertion sort of {float x, y, z} keyed on z
// (clang copies x and y as one i64 and z as a float, and `a[j + 1] =
// a[j]` is a memcpy). Nothing but the copy's `!tbaa.struct` (each field's
// offset, size and type) says that the i64 holds two floats; reverse mode
// refused the sort at -O1..-O3 ("an integer access to memory that holds
// active floating-point data", the hunt's p03). Both modes, against the
// gradient of the sorted sum, which is a permutation of the weights.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

typedef struct { float x, y, z; } v3;
typedef struct { double w; double v; int tag; } rec;

__attribute__((noinline)) static void isort(v3 *a, int n) {
  for (int i = 1; i < n; i++) {
    v3 key = a[i];
    int j = i - 1;
    while (j >= 0 && a[j].z > key.z) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = key;
  }
}

/* sum_k (k + 1) * (x_k + 2 y_k^2) over the records sorted by z. */
float sorted_sum(const float *in) {
  v3 p[4];
  for (int i = 0; i < 4; i++) {
    p[i].x = in[3 * i];
    p[i].y = in[3 * i + 1];
    p[i].z = in[3 * i + 2];
  }
  isort(p, 4);
  float s = 0;
  for (int k = 0; k < 4; k++)
    s += (k + 1) * (p[k].x + 2 * p[k].y * p[k].y);
  return s;
}

__attribute__((noinline)) static void swap_rec(rec *a, rec *b) {
  rec t = *a;
  *a = *b;
  *b = t;
}

/* r[0] and r[1] swapped when their tags say so: 3 w0 v0 + w1^2 v1 after. */
double swapped(const double *in, int flip) {
  rec r[2] = {{in[0], in[1], flip}, {in[2], in[3], 0}};
  if (r[0].tag)
    swap_rec(&r[0], &r[1]);
  return 3 * r[0].w * r[0].v + r[1].w * r[1].w * r[1].v;
}

float __enzyme_fwddiff_f(void *, int, const float *, const float *);
double __enzyme_fwddiff_d(void *, int, const double *, const double *, int,
                          int);

int main(void) {
  /* z order: record 2, record 0, record 3, record 1. */
  const float in[12] = {0.5f, 1.5f, 2.0f,  -1.0f, 0.25f, 9.0f,
                        2.0f, -0.5f, 1.0f,  1.25f, 0.75f, 3.0f};
  const int rank[4] = {1, 3, 0, 2};
  float g[12] = {0};
  __enzyme_autodiff((void *)sorted_sum, enzyme_dup, in, g);
  double dot = 0;
  const float v[12] = {1, -2, 0.5f, 3, 1, -1, 0.25f, 2, 1, -0.5f, 1, 2};
  for (int i = 0; i < 4; i++) {
    double w = rank[i] + 1;
    double gx = w, gy = w * 4 * in[3 * i + 1];
    CHECK_CLOSE_F(gx, g[3 * i]);
    CHECK_CLOSE_F(gy, g[3 * i + 1]);
    CHECK_CLOSE_F(0, g[3 * i + 2]);
    dot += gx * v[3 * i] + gy * v[3 * i + 1];
  }
  CHECK_CLOSE_F(dot, __enzyme_fwddiff_f((void *)sorted_sum, enzyme_dup, in, v));

  const double d[4] = {1.5, -0.75, 2.0, 0.5};
  const double dv[4] = {1, 2, -1, 0.5};
  for (int flip = 0; flip < 2; flip++) {
    double gd[4] = {0};
    __enzyme_autodiff((void *)swapped, enzyme_dup, d, gd, enzyme_const, flip);
    /* first/second record after the swap */
    int a = flip ? 2 : 0, b = flip ? 0 : 2;
    double e[4] = {0};
    e[a] = 3 * d[a + 1];
    e[a + 1] = 3 * d[a];
    e[b] = 2 * d[b] * d[b + 1];
    e[b + 1] = d[b] * d[b];
    double edot = 0;
    for (int i = 0; i < 4; i++) {
      CHECK_CLOSE(e[i], gd[i]);
      edot += e[i] * dv[i];
    }
    CHECK_CLOSE(edot, __enzyme_fwddiff_d((void *)swapped, enzyme_dup, d, dv,
                                         enzyme_const, flip));
  }
  return fd_report();
}
