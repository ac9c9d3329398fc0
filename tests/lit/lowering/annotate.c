// C has no #[autodiff]; an annotate attribute on the source function is the
// request. Annotations that are not autodiff requests stay in place.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t.ll
// RUN: %autodiff-opt %t.ll --stop-after-lowering -S | FileCheck %s
// RUN: %autodiff-opt %t.ll --stop-after-lowering --no-annotations -S \
// RUN:   | FileCheck %s --check-prefix=IGNORED

typedef struct { double primal, dx; } D2;
typedef struct { double primal, dx, dy; } D3;

__attribute__((annotate("autodiff_reverse(d_f, Active, Active)")))
double f(double x) { return x * x; }

// Three doubles come back through sret.
__attribute__((annotate("autodiff_reverse(d_g, Active, Active, Active)")))
__attribute__((annotate("keep me")))
double g(double x, double y) { return x * y; }

// Pointers are Dual; the target is synthesized (never declared). clang names
// no parameters, so the planned names are arg0, darg0, ...
__attribute__((annotate("autodiff_forward(fwd_h, Dual, Const, Dual)")))
double h(double *p, int n) { return p[0] * n; }

D2 d_f(double x, double dret);
D3 d_g(double x, double y, double dret);

double use(double x) { return d_f(x, 1.0).dx + d_g(x, x, 1.0).dy; }

// CHECK-NOT: autodiff_reverse(
// CHECK-NOT: autodiff_forward(
// CHECK: @llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @g, ptr @{{.*}}, ptr @{{.*}}, i32 17, ptr null }], section "llvm.metadata"

// CHECK-LABEL: define { double, double } @d_f(double noundef %arg0, double noundef %dret)
// CHECK-NEXT:  entry:
// CHECK-NEXT:    [[R:%.*]] = call { double, double } (...) @__enzyme_autodiff_d_f(ptr @f, ptr @enzyme_primal_return, ptr @enzyme_seed, double %dret, ptr @enzyme_out, double %arg0)
// CHECK-NEXT:    ret { double, double } [[R]]

// CHECK-LABEL: define void @d_g(ptr dead_on_unwind writable sret(%struct.D3) align 8 %0, double noundef %arg0, double noundef %arg1, double noundef %dret)
// CHECK-NEXT:  entry:
// CHECK-NEXT:    [[R:%.*]] = call { double, double, double } (...) @__enzyme_autodiff_d_g(ptr @g, ptr @enzyme_primal_return, ptr @enzyme_seed, double %dret, ptr @enzyme_out, double %arg0, ptr @enzyme_out, double %arg1)
// CHECK-NEXT:    store { double, double, double } [[R]], ptr %0
// CHECK-NEXT:    ret void

// CHECK-LABEL: define { double, double } @fwd_h(ptr %arg0, ptr %darg0, i32 %arg1)
// CHECK:         call { double, double } (...) @__enzyme_fwddiff_fwd_h(ptr @h, ptr @enzyme_primal_return, ptr @enzyme_dup, ptr %arg0, ptr %darg0, ptr @enzyme_const, i32 %arg1)

// IGNORED: autodiff_reverse(d_f, Active, Active)
// IGNORED: declare { double, double } @d_f(
// IGNORED-NOT: __enzyme
