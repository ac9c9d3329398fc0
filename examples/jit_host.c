/* A host in C through the C API (autodiff/autodiff.h, -lautodiff): it
 * hands the JIT a module in memory (here a string; a language runtime
 * would have generated it), asks for a gradient with a rustc-style item,
 * and calls it. Built as build/bin/jit-host-example and run by the tests
 * (tests/lit/examples/jit-host.test). */
#include <autodiff/autodiff.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* f(x, n) = sum_i x_i^2 sin(x_i), over a slice */
static const char module[] =
    "declare double @llvm.sin.f64(double)\n"
    "define double @f(ptr %x, i64 %n) {\n"
    "entry:\n"
    "  br label %loop\n"
    "loop:\n"
    "  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]\n"
    "  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]\n"
    "  %p = getelementptr double, ptr %x, i64 %i\n"
    "  %v = load double, ptr %p\n"
    "  %v2 = fmul double %v, %v\n"
    "  %sin = call double @llvm.sin.f64(double %v)\n"
    "  %t = fmul double %v2, %sin\n"
    "  %s1 = fadd double %s, %t\n"
    "  %i1 = add i64 %i, 1\n"
    "  %done = icmp eq i64 %i1, %n\n"
    "  br i1 %done, label %exit, label %loop\n"
    "exit:\n"
    "  ret double %s1\n"
    "}\n";

/* d_f(x, dx, dret): adds dret * grad f(x) into dx (a slice: pointer and
 * length, its shadow the same), returns f(x) (Active return). */
typedef double (*grad_fn)(const double *x, size_t n, double *dx,
                          size_t dn, double dret);

int main(void) {
  char *err = NULL;
  ad_jit *jit = ad_jit_create("-O2", &err);
  if (!jit || !ad_jit_add_module(jit, module, strlen(module), &err) ||
      !ad_jit_add_item(jit,
                       "f(x: &[f64]) -> f64=autodiff_reverse(d_f, "
                       "Duplicated, Active)",
                       &err)) {
    fprintf(stderr, "error: %s\n", err);
    ad_free_error(err);
    ad_jit_destroy(jit);
    return 1;
  }
  grad_fn d_f = (grad_fn)ad_jit_lookup(jit, "d_f", &err);
  if (!d_f) {
    fprintf(stderr, "error: %s\n", err);
    ad_free_error(err);
    ad_jit_destroy(jit);
    return 1;
  }
  double x[3] = {0.5, -1.0, 2.0}, dx[3] = {0, 0, 0};
  double value = d_f(x, 3, dx, 3, 1.0);
  int ok = 1;
  printf("%s\nf(x) = %.6f\n", ad_version(), value);
  for (int i = 0; i < 3; ++i) {
    double exact = 2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i]);
    printf("df/dx%d = %.6f (exact %.6f)\n", i, dx[i], exact);
    ok &= fabs(dx[i] - exact) < 1e-12;
  }
  puts(ok ? "OK" : "MISMATCH");
  ad_jit_destroy(jit);
  return ok ? 0 : 1;
}
