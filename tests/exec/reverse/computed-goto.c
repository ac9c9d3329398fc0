// Computed goto (GNU labels as values, an `indirectbr` through a static
// label table): a small bytecode interpreter, differentiated in both
// modes, and called from another function (reverse mode keeps such a
// callee out of line). The table holds the primal's block addresses; the
// derivative's jumps once went through them into the primal function and
// crashed. Against central differences.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>

enum { ADD, MUL, SIN, SQR, END };

double interp(const double *x, const int *code) {
  static void *ops[] = {&&op_add, &&op_mul, &&op_sin, &&op_sqr, &&op_end};
  double acc = 1.0;
  int pc = 0, k = 0;
  goto *ops[code[pc]];
op_add:
  acc += x[k++];
  goto *ops[code[++pc]];
op_mul:
  acc *= x[k++];
  goto *ops[code[++pc]];
op_sin:
  acc = sin(acc);
  goto *ops[code[++pc]];
op_sqr:
  acc = acc * acc;
  goto *ops[code[++pc]];
op_end:
  return acc;
}

double twice(const double *x, const int *code) {
  return interp(x, code) + 0.5 * interp(x + 1, code);
}

static const int program[] = {ADD, MUL, SIN, SQR, ADD, MUL, END};
static double interp_at(const double *x, void *ctx) {
  return interp(x, (const int *)ctx);
}
static double twice_at(const double *x, void *ctx) {
  return twice(x, (const int *)ctx);
}

int main(void) {
  double x[5] = {0.5, 2.0, 0.3, -1.2, 0.7};
  for (int i = 0; i < 5; ++i) {
    double e[5] = {0};
    e[i] = 1;
    double fd = fd_dir(interp_at, (void *)program, x, e, 5);
    double dx[5] = {0};
    __enzyme_autodiff((void *)interp, enzyme_dup, x, dx, enzyme_const,
                           program);
    CHECK_CLOSE(fd, dx[i]);
    double dx2[5] = {0};
    __enzyme_autodiff((void *)twice, enzyme_dup, x, dx2, enzyme_const,
                           program);
    CHECK_CLOSE(fd_dir(twice_at, (void *)program, x, e, 5), dx2[i]);
    CHECK_CLOSE(fd, __enzyme_fwddiff((void *)interp, enzyme_dup, x, e,
                                     enzyme_const, program));
  }
  return fd_report();
}
