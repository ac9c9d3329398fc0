; An existing target must have exactly the planned parameters (after an
; optional sret pointer) and a return the leaves fit.
; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(t_count, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=COUNT
; COUNT: autodiff-opt: error: in autodiff of `f` into `t_count`: target `t_count` has 1 parameters, but the derivative takes 2

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(t_type, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TYPE
; TYPE: autodiff-opt: error: in autodiff of `f` into `t_type`: target `t_type`: parameter 1 (`dret`) has type float, but the derivative needs double

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(t_ret, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RET
; RET: autodiff-opt: error: in autodiff of `f` into `t_ret`: target `t_ret` returns double, but the derivative returns { double, double }

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(t_sret, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SRET
; SRET: autodiff-opt: error: in autodiff of `f` into `t_sret`: target `t_sret` returns through sret([3 x double]) and void, but the derivative returns { double, double } (it must fit the sret type exactly and the target must return void)

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(t_var, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=GLOBAL
; GLOBAL: autodiff-opt: error: in autodiff of `f` into `t_var`: target `t_var` exists but is not a function

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(t_vararg, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=VARARG
; VARARG: autodiff-opt: error: in autodiff of `f` into `t_vararg`: target `t_vararg` is variadic

; The declaration of the __enzyme entry point must be free for our use.
; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(t_taken, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TAKEN
; TAKEN: autodiff-opt: error: in autodiff of `f` into `t_taken`: `__enzyme_autodiff_t_taken` already exists with another type

define double @f(double %x) {
  ret double %x
}

declare { double, double } @t_count(double)
declare { double, double } @t_type(double, float)
declare double @t_ret(double, double)
declare void @t_sret(ptr sret([3 x double]), double, double)
@t_var = global i32 0
declare { double, double } @t_vararg(double, double, ...)
declare double @__enzyme_autodiff_t_taken(...)
