; A target that already has a real body is not replaced: the item is an
; error naming the source and the target, autodiff-opt exits 1 and writes
; no output, and the user's function is untouched. --replace-targets asks
; for the replacement explicitly.
; RUN: rm -f %t.out.ll
; RUN: not %autodiff-opt %s -S -o %t.out.ll \
; RUN:   --autodiff 'f=autodiff_forward(k3, Dual, Const, DualOnly)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERROR
; RUN: not test -e %t.out.ll
; ERROR: autodiff-opt: error: in autodiff of `f` into `k3`: target `k3` already has a body that is not a placeholder, and lowering would replace it; check the target's name, or ask for the replacement explicitly (autodiff-opt --replace-targets, LoweringRequest::replace_defined_target)

; Every kind of real body is refused, all reported at once: a computed
; return, a write to memory the caller sees, a non-constant result through
; sret, a call that may have effects.
; RUN: not %autodiff-opt %s -S -o %t.out.ll \
; RUN:   --autodiff 'f=autodiff_forward(k3, Dual, Const, DualOnly)' \
; RUN:   --autodiff 'f=autodiff_forward(writes_global, Dual, Const, DualOnly)' \
; RUN:   --autodiff 'f=autodiff_forward(sret_value, 4, Dual, Const, DualOnly)' \
; RUN:   --autodiff 'f=autodiff_forward(prints, Dual, Const, DualOnly)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ALL
; ALL-DAG: error: in autodiff of `f` into `k3`: target `k3` already has a body
; ALL-DAG: error: in autodiff of `f` into `writes_global`: target `writes_global` already has a body
; ALL-DAG: error: in autodiff of `f` into `sret_value`: target `sret_value` already has a body
; ALL-DAG: error: in autodiff of `f` into `prints`: target `prints` already has a body
; RUN: not test -e %t.out.ll

; With the explicit request the body is replaced.
; RUN: %autodiff-opt %s --stop-after-lowering -S --replace-targets \
; RUN:   --autodiff 'f=autodiff_forward(k3, Dual, Const, DualOnly)' \
; RUN:   | FileCheck %s --check-prefix=REPLACED
; REPLACED-LABEL: define double @k3(double %a, double %b, double %c) {
; REPLACED-NEXT:  entry:
; REPLACED-NEXT:    [[T:%.*]] = call double (...) @__enzyme_fwddiff_k3(ptr @f, ptr @enzyme_dup, double %a, double %b, ptr @enzyme_const, double %c)
; REPLACED-NEXT:    ret double [[T]]
; REPLACED-NEXT:  }

; Without it nothing changed, and differentiation still runs when the
; target is a fresh name.
; RUN: %autodiff-opt %s -S -O0 \
; RUN:   --autodiff 'f=autodiff_forward(d_f, Dual, Const, DualOnly)' \
; RUN:   | FileCheck %s --check-prefix=KEPT
; KEPT-LABEL: define double @k3(double %a, double %b, double %c) {
; KEPT-NEXT:    %s = fadd double %a, 4.200000e+01

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @k3(double %a, double %b, double %c) {
  %s = fadd double %a, 42.0
  ret double %s
}

@counter = global i64 0

define double @writes_global(double %a, double %b, double %c) {
  store i64 1, ptr @counter
  ret double 0.0
}

define void @sret_value(ptr sret([4 x double]) %r, double %a, double %a0, double %a1, double %a2, double %a3, double %c) {
  store double %a, ptr %r
  ret void
}

declare i32 @puts(ptr)
@msg = private constant [5 x i8] c"todo\00"

define double @prints(double %a, double %b, double %c) {
  %r = call i32 @puts(ptr @msg)
  ret double 0.0
}
