/* A few explicit steps of a nonlinear 2-D diffusion (5-point stencil with a
   cubic source) on an n x n grid with fixed boundary values, then the
   energy of the result. The gradient is that of the energy with respect
   to the initial field.

     build/bin/autodiff-compare examples/compare/stencil.c
*/
#include <math.h>
#include <stddef.h>
#include <string.h>

#ifndef N
#define N 64
#endif
#ifndef STEPS
#define STEPS 10
#endif

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double diffuse(const double *u0, double *u, double *v, int n, int steps) {
  memcpy(u, u0, sizeof(double) * n * n);
  memcpy(v, u0, sizeof(double) * n * n);
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        double c = u[i * n + j];
        double lap = u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                     u[i * n + j - 1] + u[i * n + j + 1] - 4 * c;
        v[i * n + j] = c + 0.1 * lap - 0.01 * c * c * c;
      }
    double *w = u;
    u = v;
    v = w;
  }
  double e = 0;
  for (int k = 0; k < n * n; k++)
    e += u[k] * u[k];
  return e;
}

static double u0[N * N], u[N * N], v[N * N], du[N * N], dv[N * N];

void setup_stencil(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      u0[i * N + j] = sin(0.2 * i) * cos(0.3 * j);
}

double primal_stencil(void) { return diffuse(u0, u, v, N, STEPS); }

size_t gradient_stencil(double *grad, size_t cap) {
  memset(grad, 0, sizeof(double) * N * N);
  memset(du, 0, sizeof du);
  memset(dv, 0, sizeof dv);
  __enzyme_autodiff((void *)diffuse, enzyme_dup, u0, grad, enzyme_dup, u, du,
                    enzyme_dup, v, dv, enzyme_const, N, enzyme_const, STEPS);
  return N * N;
}
