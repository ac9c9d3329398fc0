// Memory the differentiated function allocates and hands to its caller
// (stored into a duplicated object, a std::vector grown by push_back, a
// malloc'd buffer returned through an output pointer): its shadow is the
// caller's too, made by the same allocator, and outlives the call. The
// reverse sweep released it, so the caller's delete[] of the shadow (or
// the shadow vector's destructor) freed it a second time ("double free
// detected"; C++ hunt). A vector grown in a loop frees each buffer but the
// last (and the caller's first one): which shadow outlives the call is
// decided at run time, the others are released once the reverse sweep is
// done with them. Under the sanitizer build, a leak, a double free or a
// mismatched delete fails the test.
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17

#include "fdcheck.h"

#include <cstdlib>
#include <vector>

extern "C" {
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...) noexcept;
void __enzyme_reverse(void *, ...) noexcept;
}

struct Holder {
  double *data;
};

double into_holder(const double *x, Holder *h) {
  h->data = new double[2];
  h->data[0] = x[0] * x[0];
  h->data[1] = 3 * x[0];
  return h->data[0] * h->data[1]; // 3 x^3
}

double into_vector(const double *x, std::vector<double> &work) {
  for (int i = 0; i < 3; ++i)
    work.push_back(x[i] * x[i]);
  return work[0] * work[1] + work[2] * x[0]; // grows twice, frees twice
}

double append_weighted(const double *x, std::vector<double> &w) {
  for (int i = 0; i < 3; ++i)
    w.push_back(x[i] * x[i]);
  double s = 0;
  for (size_t k = 0; k < w.size(); ++k)
    s += w[k] * (k + 1);
  return s;
}

double into_output(const double *x, double **out, int n) {
  double *buf = (double *)malloc(n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; ++i) {
    buf[i] = x[i] * (i + 1);
    s += buf[i] * buf[i];
  }
  *out = buf;
  return s;
}

int main() {
  double x[3] = {0.5, 2.0, -1.5}, dx[3] = {0};
  Holder h{nullptr}, dh{nullptr};
  __enzyme_autodiff((void *)into_holder, enzyme_dup, x, dx, enzyme_dup, &h,
                    &dh);
  CHECK_CLOSE(9 * x[0] * x[0], dx[0]);
  CHECK(dh.data != nullptr && dh.data != h.data);
  CHECK_CLOSE(0.0, dh.data[0]); // Overwritten by the function: consumed.
  delete[] h.data;
  delete[] dh.data;

  double dv[3] = {0};
  std::vector<double> work, dwork;
  __enzyme_autodiff((void *)into_vector, enzyme_dup, x, dv, enzyme_dup, &work,
                    &dwork);
  /* f = x0^2 x1^2 + x2^2 x0 */
  CHECK_CLOSE(2 * x[0] * x[1] * x[1] + x[2] * x[2], dv[0]);
  CHECK_CLOSE(2 * x[1] * x[0] * x[0], dv[1]);
  CHECK_CLOSE(2 * x[2] * x[0], dv[2]);
  CHECK(work.size() == 3 && dwork.size() == 3);
  for (double d : dwork)
    CHECK_CLOSE(0.0, d);

  /* The caller's vector holds one element: the first growth frees the
   * caller's buffer (its shadow, which the caller made, goes too). */
  double da[3] = {0};
  std::vector<double> prefilled = {5.0}, dprefilled = {0.25};
  __enzyme_autodiff((void *)append_weighted, enzyme_dup, x, da, enzyme_dup,
                    &prefilled, &dprefilled);
  for (int i = 0; i < 3; ++i)
    CHECK_CLOSE(2 * x[i] * (i + 2), da[i]);
  CHECK(prefilled.size() == 4 && dprefilled.size() == 4);

  /* The same in split mode: the reverse half releases what it recorded. */
  double ds[3] = {0};
  std::vector<double> split = {5.0}, dsplit = {0.25};
  void *tape = __enzyme_augmentfwd((void *)append_weighted, enzyme_dup, x, ds,
                                   enzyme_dup, &split, &dsplit);
  __enzyme_reverse((void *)append_weighted, enzyme_dup, x, ds, enzyme_dup,
                   &split, &dsplit, 1.0, tape);
  for (int i = 0; i < 3; ++i)
    CHECK_CLOSE(2 * x[i] * (i + 2), ds[i]);
  CHECK(split.size() == 4 && dsplit.size() == 4);

  double dw[3] = {0}, *out = nullptr, *dout = nullptr;
  __enzyme_autodiff((void *)into_output, enzyme_dup, x, dw, enzyme_dup, &out,
                    &dout, enzyme_const, 3);
  for (int i = 0; i < 3; ++i) {
    CHECK_CLOSE(2 * x[i] * (i + 1) * (i + 1), dw[i]);
    CHECK_CLOSE(x[i] * (i + 1), out[i]);
  }
  CHECK(dout != nullptr && dout != out);
  free(out);
  free(dout);
  return fd_report();
}
