// tests/exec/gpu/lib/gpu_kernel.h - the calling convention of the GPU tests.
//
// Each test kernel file defines a device function
//   __device__ void body(const double *x, double *y, const int *aux, int n);
// and includes this header after it, which adds three kernels the host
// driver (gpu_check.c) launches: the primal, its reverse-mode gradient
// (__enzyme_autodiff, x and y duplicated) and its forward-mode tangent
// (__enzyme_fwddiff).
extern __device__ int enzyme_dup, enzyme_const;
template <typename... Args> __device__ void __enzyme_autodiff(void *, Args...);
template <typename... Args> __device__ void __enzyme_fwddiff(void *, Args...);

extern "C" __global__ void primal(const double *x, double *y, const int *aux,
                                  int n) {
  body(x, y, aux, n);
}
extern "C" __global__ void gradient(const double *x, double *dx, double *y,
                                    double *dy, const int *aux, int n) {
  __enzyme_autodiff((void *)body, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, aux, enzyme_const, n);
}
extern "C" __global__ void tangent(const double *x, double *dx, double *y,
                                   double *dy, const int *aux, int n) {
  __enzyme_fwddiff((void *)body, enzyme_dup, x, dx, enzyme_dup, y, dy,
                   enzyme_const, aux, enzyme_const, n);
}
