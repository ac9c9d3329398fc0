// RUN: sh %testlib/run-c.sh %s
//
// A record updated through a copy and written back whole (`Body c = *p;
// ...; *p = c;`) over a pointer walking the array: clang stores the
// untouched `int id` and the padding after `float w` back as integers
// just loaded from the same place, with `sin`/`cos` calls in between.
// Reverse mode used to refuse them (integer accesses over records holding
// floats); they change nothing and are dropped from the differentiated
// body. Gradients of the double fields against finite differences, the
// float field's against its analytic value.
#include "enzyme.h"
#include "fdcheck.h"
typedef struct { double m; int id; double x, y; float w; } Body;
void drift(Body *b, int n, double dt) {
  for (Body *p = b; p != b + n; ++p) { Body c = *p; c.x += dt * sin(c.y) * c.m; c.y += dt * cos(c.x) * c.w; *p = c; }
}
static const float ws[3] = {0.5f, 1.5f, -0.25f};
/* The loss over the double fields (m, x, y of each body); w stays fixed
 * (float: finite differences through it are too coarse) and is checked
 * analytically: d/dw_i = (2 - i) dt cos(x_i after the step). */
static double F(const double *v, void *ctx) {
  Body b[3]; for (int i = 0; i < 3; ++i) { b[i].m = v[3*i]; b[i].id = i; b[i].x = v[3*i+1]; b[i].y = v[3*i+2]; b[i].w = ws[i]; }
  drift(b, 3, 0.3); double s = 0; for (int i = 0; i < 3; ++i) s += b[i].x * (i + 1) + b[i].y * (2 - i); return s;
}
int main(void) {
  double v[9] = {1.0, 0.3, -0.2, 2.0, -0.5, 0.7, 0.7, 1.1, 0.4}, g[9];
  Body b[3], d[3];
  for (int i = 0; i < 3; ++i) { b[i].m = v[3*i]; b[i].id = i; b[i].x = v[3*i+1]; b[i].y = v[3*i+2]; b[i].w = ws[i];
    d[i].m = 0; d[i].id = 0; d[i].x = i + 1; d[i].y = 2 - i; d[i].w = 0; }
  __enzyme_autodiff((void *)drift, enzyme_dup, b, d, enzyme_const, 3, enzyme_const, 0.3);
  for (int i = 0; i < 3; ++i) { g[3*i] = d[i].m; g[3*i+1] = d[i].x; g[3*i+2] = d[i].y; }
  CHECK_GRADIENT(F, 0, v, 9, g);
  for (int i = 0; i < 3; ++i) {
    CHECK_CLOSE_F((2 - i) * 0.3 * cos(b[i].x), d[i].w);
    CHECK(b[i].id == i && d[i].id == 0);
  }
  return fd_report();
}
