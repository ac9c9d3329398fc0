// OpenMP parallel regions (`#pragma omp parallel`, outlined by clang and
// started with `__kmpc_fork_call`) are not differentiated yet. A region
// that touches active data, through its arguments or through a global
// with a shadow, is a clear diagnostic (never a silently wrong derivative,
// never advice to mark the runtime inactive); a region on inactive data
// only is kept as it is. Emitting IR with -fopenmp needs no OpenMP library.
// UNSUPPORTED: sanitizers
// RUN: %clang -fopenmp -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: not %autodiff-opt %t.O2.ll -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=register_derivative
// RUN: %clang -fopenmp -O0 -Xclang -disable-O0-optnone -S -emit-llvm %s -o %t.O0.ll
// RUN: not %autodiff-opt %t.O0.ll -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=register_derivative
// RUN: not %clang -fopenmp -fpass-plugin=%plugin -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=PLUGIN

double __enzyme_fwddiff(void *, ...);

// The active arrays are arguments of the region.
// CHECK-DAG: error: in function `square_all` (while generating `fwddiffe_square_all`), call to `__kmpc_fork_call`: OpenMP parallel regions (`#pragma omp parallel`, outlined into `square_all.omp_outlined` and started with `__kmpc_fork_call`) are not supported yet, and this one touches active data; build the differentiated code without -fopenmp, or move the parallel region out of it
// PLUGIN: openmp.c:[[@LINE+2]]:1: error: autodiff: in function `square_all` (while generating `fwddiffe_square_all`), call to `__kmpc_fork_call` at {{.*}}openmp.c:[[@LINE+2]]:1: OpenMP parallel regions
void square_all(const double *x, double *y, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * x[i];
}

// The region uses an active global (it has a shadow) that it is not passed;
// the first region writes inactive data only and is fine.
double acc[4], d_acc[4];
void *__enzyme_shadow_global_acc[2] = {acc, d_acc};
int counts[4];
// CHECK-DAG: error: in function `spread` (while generating `fwddiffe_spread`), call to `__kmpc_fork_call`: OpenMP parallel regions (`#pragma omp parallel`, outlined into `spread.omp_outlined.1` and started with `__kmpc_fork_call`) are not supported yet, and this one touches active data
double spread(double x) {
#pragma omp parallel for
  for (int i = 0; i < 4; ++i)
    counts[i] = i;
  acc[0] = x * x;
  // PLUGIN: openmp.c:[[@LINE+1]]:1: error: autodiff: in function `spread`
#pragma omp parallel for
  for (int i = 1; i < 4; ++i)
    acc[i] = acc[0] * i;
  return acc[3];
}

// Inactive data only: differentiated, the region runs as in the primal.
int squares[8];
double count_then_square(double x) {
#pragma omp parallel for
  for (int i = 0; i < 8; ++i)
    squares[i] = i * i;
  return x * x;
}

void d_square_all(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_fwddiff((void *)square_all, x, dx, y, dy, n);
}
// PLUGIN: 2 errors generated.
double d_spread(double x) { return __enzyme_fwddiff((void *)spread, x, 1.0); }
double d_count(double x) {
  return __enzyme_fwddiff((void *)count_then_square, x, 1.0);
}
