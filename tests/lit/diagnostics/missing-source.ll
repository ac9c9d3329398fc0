; The source must be defined in the module; the message names source and
; target.
; RUN: not %autodiff-opt %s --autodiff 'nope=autodiff_reverse(d_nope, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MISSING
; MISSING: autodiff-opt: error: in autodiff of `nope` into `d_nope`: could not find source function `nope`

; RUN: not %autodiff-opt %s --autodiff 'ext=autodiff_reverse(d_ext, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DECL
; DECL: autodiff-opt: error: in autodiff of `ext` into `d_ext`: could not find source function `ext` (the module only declares it)

; Every failing request is reported, one line each.
; RUN: not %autodiff-opt %s --autodiff 'nope=autodiff_reverse(d_nope, Active, Active)' \
; RUN:   --autodiff 'f=autodiff_reverse(d_f, Active, Active)' \
; RUN:   --autodiff 'ext=autodiff_reverse(d_ext, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ALL
; ALL:      autodiff-opt: error: in autodiff of `nope` into `d_nope`: could not find source function `nope`
; ALL-NEXT: autodiff-opt: error: in autodiff of `ext` into `d_ext`: could not find source function `ext` (the module only declares it)

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(f, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SELF
; SELF: autodiff-opt: error: in autodiff of `f` into `f`: the target must differ from the source

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(d_f, Active, Active)' \
; RUN:   --autodiff 'f=autodiff_forward(d_f, Dual, Dual)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TWICE
; TWICE: autodiff-opt: error: target `d_f` is requested twice (from `f` and from `f`)

; Nothing is written when lowering fails.
; RUN: rm -f %t.out.ll
; RUN: not %autodiff-opt %s --autodiff 'nope=autodiff_reverse(d_nope, Active, Active)' -o %t.out.ll
; RUN: not ls %t.out.ll

declare double @ext(double)

define double @f(double %x) {
  ret double %x
}

; RUN: not %autodiff-opt %s --autodiff 'va=autodiff_reverse(d_va, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=VARARG
; VARARG: autodiff-opt: error: in autodiff of `va` into `d_va`: source `va` is variadic, which cannot be differentiated
define double @va(double %x, ...) {
  ret double %x
}
