// The clang plugin reports a problem of the core at its source location,
// in clang's own `file:line:col: error:` form: from the debug location
// with -g (at -O0 and -O2), at the function's declaration without it.
// Several problems each get their own location. opt prints the location
// in front of the message.
// UNSUPPORTED: sanitizers
// RUN: not %clang -fpass-plugin=%plugin -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: not %clang -fpass-plugin=%plugin -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: not %clang -fpass-plugin=%plugin -O0 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NODEBUG
// RUN: not %clang -fpass-plugin=%plugin -O2 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NODEBUG
// RUN: not %clang -fpass-plugin=%plugin -O0 -g -DMARKERS -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: %clang -S -emit-llvm -O0 -g -Xclang -disable-O0-optnone %s -o %t.ll
// RUN: not %opt -load-pass-plugin=%plugin -passes=autodiff -disable-output %t.ll 2>&1 | FileCheck %s --check-prefix=OPT

double __enzyme_fwddiff(void *, ...);
double opaque(double);

// NODEBUG: plugin-location.c:[[@LINE+1]]:8: error: autodiff: in function `f` (while generating `fwddiffe_f`), call to `opaque`: no derivative rule for call to `opaque`
double f(double x) {
  double y = x * x;
  // DEBUG: plugin-location.c:[[@LINE+3]]:10: error: autodiff: in function `f` (while generating `fwddiffe_f`), call to `opaque` at {{.*}}plugin-location.c:[[@LINE+3]]:10: no derivative rule for call to `opaque`
  // DEBUG-NEXT: {{^}}  instruction: {{.*}}call double @opaque(
  // OPT: error: {{.*}}plugin-location.c:[[@LINE+1]]:10: autodiff: in function `f`
  return opaque(y) + 1.0;
}
// DEBUG-NOT: error:
// NODEBUG-NOT: error:

#ifdef MARKERS
extern int enzyme_bogus;
double d1(double x) {
  // TWO: plugin-location.c:[[@LINE+1]]:10: error: autodiff: in function `d1`, call to `__enzyme_fwddiff` at {{.*}}: unknown marker `enzyme_bogus`
  return __enzyme_fwddiff((void *)f, enzyme_bogus, x, 1.0);
}
double d2(double x) {
  // TWO: plugin-location.c:[[@LINE+1]]:10: error: autodiff: in function `d2`, call to `__enzyme_fwddiff` at {{.*}}: too many arguments
  return __enzyme_fwddiff((void *)f, x, 1.0, 2.0);
}
// TWO: 2 errors generated.
#else
double df(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
#endif
