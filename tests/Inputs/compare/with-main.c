/* A file written to be run on its own: it has a main, and its setup
   prints (tests/lit/tools/autodiff-compare.test). autodiff-compare renames
   main and keeps the program's output apart from its own results. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double cube_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * x[i];
  return s;
}

static double x[4] = {1, 2, 3, 4};

void setup_cubes(void) {
  printf("kernel cubes primal 0x1p+0 n 99\n");
  fprintf(stderr, "setting up\n");
}
double primal_cubes(void) { return cube_sum(x, 4); }
size_t gradient_cubes(double *grad, size_t cap) {
  memset(grad, 0, 4 * sizeof(double));
  __enzyme_autodiff((void *)cube_sum, enzyme_dup, x, grad, enzyme_const, 4);
  return 4;
}

int main(void) {
  double g[4];
  gradient_cubes(g, 4);
  printf("%g %g %g %g\n", g[0], g[1], g[2], g[3]);
  return g[3] == 48 ? 0 : 1;
}
