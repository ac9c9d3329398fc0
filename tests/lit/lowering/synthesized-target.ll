; Without a target in the module, lowering creates it: parameters named and
; typed as planned (a pointer's shadow has the pointer's type, the seed the
; return's), the return type made of the leaves, and the source's code
; generation attributes copied so both can be inlined alike.
; RUN: %autodiff-opt %s --stop-after-lowering -S \
; RUN:   --autodiff 'f=autodiff_reverse(d_f, Duplicated, Active, Const, Active)' \
; RUN:   | FileCheck %s

; CHECK-LABEL: define float @f(
define float @f(ptr %p, float %a, i32 %n) #0 {
  %v = load float, ptr %p
  %m = fmul float %v, %a
  ret float %m
}

; Two floats come back packed in one register, as C returns them.
; CHECK:       define <2 x float> @d_f(ptr %p, ptr %dp, float %a, i32 %n, float %dret) #[[ATTRS:[0-9]+]] {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %coerce = alloca { float, float }, align 8
; CHECK-NEXT:    [[R:%.*]] = call { float, float } (...) @__enzyme_autodiff_d_f(ptr @f, ptr @enzyme_primal_return, ptr @enzyme_seed, float %dret, ptr @enzyme_dup, ptr %p, ptr %dp, ptr @enzyme_out, float %a, ptr @enzyme_const, i32 %n)
; CHECK-NEXT:    store { float, float } [[R]], ptr %coerce, align 8
; CHECK-NEXT:    [[V:%.*]] = load <2 x float>, ptr %coerce, align 8
; CHECK-NEXT:    ret <2 x float> [[V]]
; CHECK-NEXT:  }
; CHECK: attributes #[[ATTRS]] = { uwtable "frame-pointer"="all" "target-cpu"="x86-64" "target-features"="+sse2" }

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "target-cpu"="x86-64" "target-features"="+sse2" }
