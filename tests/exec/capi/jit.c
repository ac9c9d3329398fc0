// The C API's JIT from a C host, compiled against the header and linked
// with -lautodiff only: a module from clang-22 with reverse and forward
// requests, a rustc-style item, a host symbol, two JITs used from two
// threads at once, the ahead-of-time entry point, and errors (garbage IR,
// a bad spec, a bad option, an unknown symbol, a missing host symbol)
// that come back as strings. Gradients against finite differences; the
// JIT's gradient bit for bit against the same module through autodiff-opt
// and clang-22 -O2 (loaded with dlopen).
// UNSUPPORTED: sanitizers
// RUN: %clang -O2 -S -emit-llvm %S/Inputs/kernels.c -o %t.kernels.ll
// RUN: %autodiff-opt %t.kernels.ll -O2 -o %t.aot.ll
// RUN: %clang -O2 -shared -fPIC %t.aot.ll -o %t.aot.so -lm
// RUN: %clang -O2 -I%capi-include %s -o %t.exe -L%libdir -lautodiff -Wl,-rpath,%libdir -lm -ldl
// RUN: %t.exe %t.kernels.ll %t.aot.so
#include "autodiff/autodiff.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define EXPECT(c)                                                              \
  do {                                                                         \
    if (!(c)) {                                                                \
      fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #c);          \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return 0;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc(n + 1);
  *size = fread(text, 1, n, f);
  text[*size] = 0;
  fclose(f);
  return text;
}

static int close_to(double a, double b) {
  return fabs(a - b) <= 1e-6 * (fabs(a) + fabs(b)) + 1e-9;
}

typedef double (*loss_fn)(const double *, const double *, int);
typedef void (*grad_fn)(const double *, double *, const double *, int);
typedef double (*dir_fn)(const double *, const double *, const double *, int);

enum { N = 6 };
static const double X[N] = {0.3, -0.7, 1.1, 0.45, -1.3, 0.8};
static const double W[N] = {1.0, 0.5, -2.0, 0.25, 1.5, -0.75};

static double fd(loss_fn f, int i) {
  double xp[N], xm[N];
  memcpy(xp, X, sizeof xp);
  memcpy(xm, X, sizeof xm);
  double h = 1e-6;
  xp[i] += h;
  xm[i] -= h;
  return (f(xp, W, N) - f(xm, W, N)) / (2 * h);
}

static const char *ir_path;
static char *ir;
static size_t ir_size;

static double host_scale(double x) { return 3 * x + 1; }

/* A JIT of its own: reverse and forward requests of the module. */
static void *one_jit(void *out) {
  char *err = 0;
  ad_jit *j = ad_jit_create("-O2", &err);
  if (!j || !ad_jit_add_module(j, ir, ir_size, &err) ||
      !ad_jit_define_symbol(j, "host_scale", (void *)host_scale, &err)) {
    fprintf(stderr, "%s\n", err ? err : "?");
    ad_free_error(err);
    ad_jit_destroy(j);
    return (void *)1;
  }
  grad_fn grad = (grad_fn)ad_jit_lookup(j, "grad_loss", &err);
  loss_fn loss = (loss_fn)ad_jit_lookup(j, "loss", &err);
  dir_fn dir = (dir_fn)ad_jit_lookup(j, "dir_loss", &err);
  long bad = !grad || !loss || !dir;
  if (!bad) {
    double dx[N] = {0}, e[N] = {0};
    grad(X, dx, W, N);
    for (int i = 0; i < N; ++i) {
      bad += !close_to(fd(loss, i), dx[i]);
      e[i] = 1;
      bad += !close_to(dir(X, e, W, N), dx[i]); /* forward = reverse */
      e[i] = 0;
    }
    memcpy(out, dx, sizeof dx);
  }
  ad_jit_destroy(j);
  return (void *)bad;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  ir_path = argv[1];
  ir = slurp(ir_path, &ir_size);
  EXPECT(ir != 0);
  EXPECT(strstr(ad_version(), "LLVM 22") != 0);

  /* Two JITs in two threads at once, and the result against AOT. */
  double dx1[N], dx2[N];
  pthread_t t1, t2;
  void *r1, *r2;
  pthread_create(&t1, 0, one_jit, dx1);
  pthread_create(&t2, 0, one_jit, dx2);
  pthread_join(t1, &r1);
  pthread_join(t2, &r2);
  EXPECT(r1 == 0 && r2 == 0);
  EXPECT(memcmp(dx1, dx2, sizeof dx1) == 0);
  void *aot = dlopen(argv[2], RTLD_LAZY | RTLD_LOCAL); /* host_scale: lazy */
  EXPECT(aot != 0);
  if (aot) {
    grad_fn g = (grad_fn)dlsym(aot, "grad_loss");
    double dx[N] = {0};
    g(X, dx, W, N);
    EXPECT(memcmp(dx, dx1, sizeof dx) == 0); /* bit for bit */
  }

  char *err = 0;
  ad_jit *j = ad_jit_create("-O2 --pre-opt=O1", &err);
  EXPECT(j != 0);
  /* An item, and a host function. */
  EXPECT(ad_jit_add_module(j, ir, ir_size, &err));
  EXPECT(ad_jit_add_item(j, "poly=autodiff_reverse(d_poly, Active, Const, "
                            "ActiveOnly)", &err));
  EXPECT(ad_jit_define_symbol(j, "host_scale", (void *)host_scale, &err));
  double (*d_poly)(double, double, double) =
      (double (*)(double, double, double))ad_jit_lookup(j, "d_poly", &err);
  EXPECT(d_poly != 0);
  if (d_poly) {
    double a = 0.7, b = -1.3;
    EXPECT(close_to(d_poly(a, b, 1.0), 3 * a * a * b + b * exp(a * b)));
  }
  double (*scaled)(double) = (double (*)(double))ad_jit_lookup(j, "scaled", &err);
  EXPECT(scaled && scaled(2.0) == 14.0);

  /* Errors come back as strings; the JIT stays usable. */
  EXPECT(!ad_jit_add_module(j, "this is not IR", 14, &err));
  EXPECT(err && strstr(err, "cannot read the module"));
  ad_free_error(err);
  err = 0;
  /* A value number LLVM's parser would truncate (and crash on). */
  const char *huge_id = "define double @s(double %x) {\n"
                        "  %m = fmul double %x, %9223372036854775807x\n"
                        "  ret double %m\n}\n";
  EXPECT(!ad_jit_add_module(j, huge_id, strlen(huge_id), &err));
  EXPECT(err && strstr(err, "2:24: invalid value number (too large)"));
  ad_free_error(err);
  err = 0;
  EXPECT(!ad_jit_add_item(j, "poly=autodiff_reverse(d2, Active, Foo)", &err));
  EXPECT(err && strstr(err, "Foo"));
  ad_free_error(err);
  err = 0;
  EXPECT(ad_jit_lookup(j, "no_such_function", &err) == 0);
  EXPECT(err && strstr(err, "no_such_function"));
  ad_free_error(err);
  err = 0;
  EXPECT(ad_jit_create("-O9", &err) == 0);
  EXPECT(err && strstr(err, "-O9"));
  ad_free_error(err);
  err = 0;
  {
    /* The undo log turned off is an accepted option. */
    ad_jit *nolog = ad_jit_create("-O2 --no-undo-log", &err);
    EXPECT(nolog && !err);
    ad_jit_destroy(nolog);
  }
  /* A request the core refuses: the diagnostic, and the JIT goes on. */
  const char *bad =
      "declare double @mystery(double)\n"
      "define double @f(double %x) {\n"
      "  %y = call double @mystery(double %x)\n  ret double %y\n}\n"
      "declare double @__enzyme_autodiff(...)\n"
      "define double @g(double %x) {\n"
      "  %d = call double (...) @__enzyme_autodiff(ptr @f, double %x)\n"
      "  ret double %d\n}\n";
  EXPECT(ad_jit_add_module(j, bad, strlen(bad), &err));
  EXPECT(ad_jit_lookup(j, "g", &err) == 0);
  EXPECT(err && strstr(err, "mystery") && strstr(err, "no body"));
  ad_free_error(err);
  err = 0;
  EXPECT(d_poly && d_poly(1.0, 2.0, 1.0) != 0); /* still callable */
  ad_jit_destroy(j);

  /* A host symbol nobody defined. */
  j = ad_jit_create("", &err);
  EXPECT(ad_jit_add_module(j, ir, ir_size, &err));
  EXPECT(ad_jit_lookup(j, "scaled", &err) == 0);
  EXPECT(err && strstr(err, "host_scale"));
  ad_free_error(err);
  err = 0;
  ad_jit_destroy(j);

  /* Ahead of time, with an item. */
  const char *items[] = {"poly=autodiff_forward(df_poly, Dual, Const, Dual)"};
  char *out = 0;
  size_t out_size = 0;
  EXPECT(ad_differentiate(ir, ir_size, "-O1", items, 1, &out, &out_size,
                          &err));
  EXPECT(out && strstr(out, "define") && strstr(out, "@df_poly") &&
         strlen(out) == out_size);
  ad_free_error(out);
  EXPECT(!ad_differentiate(ir, ir_size, "--bogus", 0, 0, &out, &out_size,
                           &err));
  EXPECT(err && strstr(err, "--bogus"));
  ad_free_error(err);
  free(ir);
  if (failures)
    fprintf(stderr, "%d failed\n", failures);
  else
    printf("ok\n");
  return failures != 0;
}
