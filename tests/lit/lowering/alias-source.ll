; A source that is an alias of another function (rustc -O3 and clang merge
; identical functions that way): the request differentiates the aliasee.
; RUN: %autodiff-opt %s --derivative-fast-math=none --autodiff 'g=autodiff_reverse(d_g, Active, Active)' \
; RUN:   --autodiff 'g=autodiff_forward(df_g, Dual, Dual)' -S -o - | FileCheck %s
; CHECK-LABEL: define { double, double } @d_g(double %x, double %dret)
; CHECK: call double @sin(double %x)
; CHECK: %[[C:.*]] = {{.*}}call double @llvm.cos.f64(double %x)
; CHECK: fmul double %[[C]]
; CHECK-LABEL: define { double, double } @df_g(double %x, double %dx)
; CHECK: %[[D:.*]] = {{.*}}call double @llvm.cos.f64(double %x)
; CHECK: fmul double %dx, %[[D]]

; An alias of something that is not a function is still reported.
; RUN: not %autodiff-opt %s --autodiff 'h=autodiff_reverse(d_h, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NOTFN
; NOTFN: autodiff-opt: error: in autodiff of `h` into `d_h`: could not find source function `h`

@g = unnamed_addr alias double (double), ptr @f
@data = global double 1.0
@h = alias double, ptr @data

define double @f(double %x) {
  %s = call double @sin(double %x)
  ret double %s
}

declare double @sin(double)
