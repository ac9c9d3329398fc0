// A stack slot that holds an active pointer and later a float (optimized
// Numba code reuses an array struct's slot for the float a BLAS dot
// product writes; here a union at -O0). The forward sweep leaves the
// pointer's shadow in the slot's shadow; the float's adjoint used to be
// accumulated on top of those bits: a gradient scaled by whatever the
// shadow pointer's low word reads as (a helper hunt: float32 `A @ x`
// then `np.dot(u, u)` was wrong in a quarter of the processes). The
// shadow array is placed where its address's low word reads as 1000.0f,
// so the old behaviour gives 1001 times the gradient, every time.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

typedef union {
  float *p;
  float f;
} slot;

float sum_squares(float *x, int n) {
  slot s;
  s.p = x; /* the slot holds the (active) pointer */
  float *q = s.p;
  float acc = 0.0f;
  for (int i = 0; i < n; i++)
    acc += q[i] * q[i];
  s.f = acc; /* the same slot now holds a float */
  return s.f * 2.0f;
}

/* The other order: a float first, then the pointer. */
float float_then_pointer(float *x, int n) {
  slot s;
  s.f = x[0] * x[0];
  float first = s.f;
  s.p = x; /* the pointer's shadow is in the slot's shadow at the end */
  float *q = s.p;
  return first + q[n - 1];
}

/* A shadow buffer at an address whose low 32 bits are 0x447a0000
   (1000.0f), where the system allows it (not under AddressSanitizer,
   whose shadow memory is there); anywhere else otherwise. */
static int mapped;
static float *shadow_buffer(void) {
  void *want = (void *)(uintptr_t)0x10447a0000ull;
  void *p = mmap(want, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == MAP_FAILED)
    return calloc(1024, sizeof(float));
  mapped = 1;
  return p;
}

int main(void) {
  float x[3] = {1.0f, -2.0f, 0.5f};
  float *dx = shadow_buffer();
  __enzyme_autodiff((void *)sum_squares, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    CHECK_CLOSE(4.0 * x[i], (double)dx[i]);
  for (int i = 0; i < 3; i++)
    dx[i] = 0.0f;
  __enzyme_autodiff((void *)float_then_pointer, enzyme_dup, x, dx,
                    enzyme_const, 3);
  CHECK_CLOSE(2.0 * x[0], (double)dx[0]);
  CHECK_CLOSE(0.0, (double)dx[1]);
  CHECK_CLOSE(1.0, (double)dx[2]);
  if (mapped)
    munmap(dx, 4096);
  else
    free(dx);
  return fd_report();
}
