; The placeholder bodies lowering replaces without being asked (see
; codegen/Placeholder.h): bodies whose only results are constants. Each
; target below gets the __enzyme_fwddiff call as its new body.
; RUN: %autodiff-opt %s --stop-after-lowering -S \
; RUN:   --autodiff 'f=autodiff_forward(only_unreachable, Dual, Dual)' \
; RUN:   --autodiff 'f=autodiff_forward(panics, Dual, Dual)' \
; RUN:   --autodiff 'f=autodiff_forward(returns_poison, Dual, Dual)' \
; RUN:   --autodiff 'f=autodiff_forward(black_boxed, Dual, Dual)' \
; RUN:   --autodiff 'f=autodiff_forward(asm_kept, Dual, Dual)' \
; RUN:   --autodiff 'f=autodiff_forward(calls_source, Dual, Dual)' \
; RUN:   --autodiff 'f=autodiff_forward(zeroed_sret, 3, Dual, Dual)' \
; RUN:   | FileCheck %s

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

; `unreachable` only (a `todo!()` after optimization).
; CHECK-LABEL: define { double, double } @only_unreachable(double %x, double %dx)
; CHECK:         call { double, double } (...) @__enzyme_fwddiff_only_unreachable(ptr @f,
define { double, double } @only_unreachable(double %x, double %dx) {
  unreachable
}

; A call that does not return (a Rust panic, abort).
; CHECK-LABEL: define { double, double } @panics(double %x, double %dx)
; CHECK:         call { double, double } (...) @__enzyme_fwddiff_panics(ptr @f,
declare void @rust_panic(ptr) noreturn
@what = private constant [16 x i8] c"not implemented\00"
define { double, double } @panics(double %x, double %dx) {
  call void @rust_panic(ptr @what)
  unreachable
}

; Returns poison after a branch on an argument.
; CHECK-LABEL: define { double, double } @returns_poison(double %x, double %dx)
; CHECK:         call { double, double } (...) @__enzyme_fwddiff_returns_poison(ptr @f,
define { double, double } @returns_poison(double %x, double %dx) {
  %neg = fcmp olt double %x, 0.0
  br i1 %neg, label %trap, label %done
trap:
  call void @llvm.trap()
  unreachable
done:
  ret { double, double } poison
}

; rustc at -O0: the arguments go through core::hint::black_box on the stack.
; CHECK-LABEL: define { double, double } @black_boxed(double %x, double %dx)
; CHECK:         call { double, double } (...) @__enzyme_fwddiff_black_boxed(ptr @f,
declare void @_ZN4core4hint9black_box17h0123456789abcdefE(ptr sret([16 x i8]), ptr)
define { double, double } @black_boxed(double %x, double %dx) {
  %args = alloca [16 x i8]
  %out = alloca [16 x i8]
  store double %x, ptr %args
  %p = getelementptr inbounds i8, ptr %args, i64 8
  store double %dx, ptr %p
  call void @_ZN4core4hint9black_box17h0123456789abcdefE(ptr sret([16 x i8]) %out, ptr %args)
  ret { double, double } zeroinitializer
}

; rustc at -O3: black_box is an empty inline asm; lifetime markers.
; CHECK-LABEL: define { double, double } @asm_kept(double %x, double %dx)
; CHECK:         call { double, double } (...) @__enzyme_fwddiff_asm_kept(ptr @f,
define { double, double } @asm_kept(double %x, double %dx) {
  %args = alloca [16 x i8]
  call void @llvm.lifetime.start.p0(ptr %args)
  store double %x, ptr %args
  call void asm sideeffect "", "r,~{memory}"(ptr %args)
  call void @llvm.lifetime.end.p0(ptr %args)
  ret { double, double } { double 0.0, double undef }
}

; rustc's older macro calls the source to keep it alive.
; CHECK-LABEL: define { double, double } @calls_source(double %x, double %dx)
; CHECK:         call { double, double } (...) @__enzyme_fwddiff_calls_source(ptr @f,
define { double, double } @calls_source(double %x, double %dx) {
  %keep = call double @f(double %x)
  call void asm sideeffect "", "r"(double %keep)
  ret { double, double } zeroinitializer
}

; Zeros written to the sret result, by memset and by stores.
; CHECK-LABEL: define void @zeroed_sret(ptr sret([4 x double]) %r, double %x, double %dx_0, double %dx_1, double %dx_2)
; CHECK:         call { double, double, double, double } (...) @__enzyme_fwddiff_zeroed_sret(ptr @f,
define void @zeroed_sret(ptr sret([4 x double]) %r, double %x, double %dx_0, double %dx_1, double %dx_2) {
  call void @llvm.memset.p0.i64(ptr %r, i8 0, i64 24, i1 false)
  %last = getelementptr inbounds i8, ptr %r, i64 24
  store double 0.0, ptr %last
  ret void
}

declare void @llvm.trap()
declare void @llvm.lifetime.start.p0(ptr)
declare void @llvm.lifetime.end.p0(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
