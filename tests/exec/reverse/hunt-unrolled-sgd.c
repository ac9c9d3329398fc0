// Reverse mode through an unrolled training loop: logistic regression
// trained by 25 epochs of SGD with the weights updated in place, then the
// training loss; the gradient with respect to the initial weights and the
// learning rate (a hyper-gradient) is checked against finite differences.
// RUN: sh %testlib/run-c.sh %s
// RUN: env ADTEST_LEVELS=3 sh %testlib/run-c.sh %s -march=native

#include <string.h>
#include "enzyme.h"
#include "fdcheck.h"
enum { D = 3, NS = 8 };
/* logistic regression trained by `epochs` SGD passes (weights updated in place),
   returns the training loss at the end: d/d(lr) and d/d(w0) by reverse mode */
double train(double *w, const double *X, const double *y, double lr, int epochs) {
  for (int e = 0; e < epochs; ++e)
    for (int s = 0; s < NS; ++s) {
      double z = w[D];
      for (int j = 0; j < D; ++j) z += w[j] * X[s * D + j];
      double p = 1 / (1 + exp(-z)), g = p - y[s];
      for (int j = 0; j < D; ++j) w[j] -= lr * g * X[s * D + j];
      w[D] -= lr * g;
    }
  double loss = 0;
  for (int s = 0; s < NS; ++s) {
    double z = w[D];
    for (int j = 0; j < D; ++j) z += w[j] * X[s * D + j];
    loss += log1p(exp(-z)) + (1 - y[s]) * z;
  }
  return loss / NS;
}
static double X[NS * D], Y[NS];
static double F(const double *v, void *c) {
  (void)c; double w[D + 1]; memcpy(w, v, sizeof w);
  return train(w, X, Y, v[D + 1], 25);
}
int main(void) {
  for (int s = 0; s < NS; ++s) { for (int j = 0; j < D; ++j) X[s * D + j] = sin(1.3 * s + 0.7 * j); Y[s] = s % 3 == 0; }
  double w[D + 1] = {0.1, -0.2, 0.05, 0.0}, dw[D + 1] = {0}, v[D + 2] = {0.1, -0.2, 0.05, 0.0, 0.3};
  double dlr = __enzyme_autodiff((void *)train, enzyme_dup, w, dw, enzyme_const, X, enzyme_const, Y, 0.3, enzyme_const, 25);
  double got[D + 2] = {dw[0], dw[1], dw[2], dw[3], dlr};
  for (int i = 0; i < D + 2; ++i) { double e[D + 2] = {0}; e[i] = 1; CHECK_CLOSE_TOL(fd_dir(F, 0, v, e, D + 2), got[i], 1e-6, 1e-9); }
  return fd_report();
}
