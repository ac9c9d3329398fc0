// The pass plugin reports errors through the LLVMContext: clang and opt
// print `error: autodiff: ...` once and fail.
// UNSUPPORTED: sanitizers
// RUN: not %clang -fpass-plugin=%plugin -O0 -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -fpass-plugin=%plugin -O2 -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t.ll
// RUN: not %opt -load-pass-plugin=%plugin -passes=autodiff-lower -disable-output %t.ll 2>&1 | FileCheck %s
// RUN: not %opt -load-pass-plugin=%plugin -passes=autodiff -disable-output %t.ll 2>&1 | FileCheck %s

// CHECK: error: autodiff: {{.*}}plugin.c:[[@LINE+2]]: in annotation `autodiff_reverse(d_f, Active, Actve)` on `f`: did not recognize Activity: `Actve`
__attribute__((annotate("autodiff_reverse(d_f, Active, Actve)")))
double f(double x) { return x * x; }
// CHECK-NOT: error:
