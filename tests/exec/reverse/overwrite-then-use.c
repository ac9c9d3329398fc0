// Argument memory overwritten outside loops and the new value used again
// after the store, nonlinearly: `t = r[0] + 2; r[0] = t; return t * t`, a
// 3-vector normalized in place, one Euler step on a struct, a swap, an
// unrolled in-place scaling, `r[1] += s[1] * r[2]`. The reverse sweep
// undoes such stores; it once recomputed the values after the store from
// memory it had not yet put back (silently wrong at every level: dr = 8.8
// instead of 4.8). Now such loads are cached. Against central differences
// on fresh copies (the functions overwrite their input).
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>
#include <string.h>
/* Argument memory overwritten outside loops, then the new value used
   again, nonlinearly, after the store. */
__attribute__((noinline)) double bump(double *r) {
  double t = r[0] + 2.0;
  r[0] = t;
  return t * t;
}
typedef struct { double x, y, z; } vec3;
__attribute__((noinline)) double normalize3(vec3 *v) {
  double n = sqrt(v->x * v->x + v->y * v->y + v->z * v->z);
  v->x /= n; v->y /= n; v->z /= n;
  return 2 * v->x + v->z * v->z;
}
typedef struct { double pos, vel, k; } spring;
__attribute__((noinline)) double euler(spring *s, double dt) {
  s->vel += dt * (-s->k * s->pos);
  s->pos += dt * s->vel;
  return s->pos * s->pos;
}
__attribute__((noinline)) double swap_use(double *x) {
  double a = x[0];
  x[0] = x[1];
  x[1] = a;
  return x[0] * x[0] * x[1];
}
__attribute__((noinline)) double scale3(double *x) {
  for (int i = 0; i < 3; ++i) x[i] *= 2;
  return x[0] * x[1] * x[2];
}
__attribute__((noinline)) double accumulate(double *r, const double *s) {
  r[1] += s[1] * r[2];
  return r[0] + r[1] * r[1];
}
/* f(v) on a fresh copy of v, which f overwrites. */
#define FD(f, v0, n, k, ...)                                               \
  ({                                                                         \
    double h = 1e-6, a[n], b[n];                                             \
    memcpy(a, v0, sizeof a); memcpy(b, v0, sizeof b);                        \
    a[k] += h; b[k] -= h;                                                    \
    (f((void *)a, ##__VA_ARGS__) - f((void *)b, ##__VA_ARGS__)) / (2 * h);                     \
  })
int main(void) {
  {
    double r0[1] = {0.4}, r[1] = {0.4}, dr[1] = {0};
    __enzyme_autodiff((void *)bump, enzyme_dup, r, dr);
    CHECK_CLOSE(FD(bump, r0, 1, 0), dr[0]);
    CHECK_CLOSE(2.4, r[0]); /* the primal's store happened */
  }
  {
    double v0[3] = {0.7, -0.4, 1.3}, v[3], dv[3] = {0};
    memcpy(v, v0, sizeof v);
    __enzyme_autodiff((void *)normalize3, enzyme_dup, v, dv);
    for (int k = 0; k < 3; k++)
      CHECK_CLOSE(FD(normalize3, v0, 3, k), dv[k]);
  }
  {
    double s0[3] = {0.8, -0.3, 2.5}, s[3], ds[3] = {0};
    memcpy(s, s0, sizeof s);
    __enzyme_autodiff((void *)euler, enzyme_dup, s, ds, 0.1);
    for (int k = 0; k < 3; k++)
      CHECK_CLOSE(FD(euler, s0, 3, k, 0.1), ds[k]);
  }
  {
    double x0[2] = {0.7, -0.4}, x[2], dx[2] = {0};
    memcpy(x, x0, sizeof x);
    __enzyme_autodiff((void *)swap_use, enzyme_dup, x, dx);
    for (int k = 0; k < 2; k++)
      CHECK_CLOSE(FD(swap_use, x0, 2, k), dx[k]);
  }
  {
    double x0[3] = {0.7, -0.4, 1.3}, x[3], dx[3] = {0};
    memcpy(x, x0, sizeof x);
    __enzyme_autodiff((void *)scale3, enzyme_dup, x, dx);
    for (int k = 0; k < 3; k++)
      CHECK_CLOSE(FD(scale3, x0, 3, k), dx[k]);
  }
  {
    double r0[3] = {0.5, 1.5, -0.7}, r[3], dr[3] = {0};
    double s[2] = {0, 1.1}, ds[2] = {0};
    memcpy(r, r0, sizeof r);
    __enzyme_autodiff((void *)accumulate, enzyme_dup, r, dr, enzyme_dup, s, ds);
    for (int k = 0; k < 3; k++)
      CHECK_CLOSE(FD(accumulate, r0, 3, k, s), dr[k]);
    /* d/ds1 of r0 + (r1 + s1 r2)^2 = 2 (r1 + s1 r2) r2 */
    CHECK_CLOSE(2 * (r0[1] + s[1] * r0[2]) * r0[2], ds[1]);
  }
  return fd_report();
}
