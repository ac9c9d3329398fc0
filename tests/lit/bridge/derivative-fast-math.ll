; Fast-math flags on derivative arithmetic (--derivative-fast-math): by
; default reassoc, nsz, arcp and contract on the tangent and adjoint code,
; none added to the primal computation inside the derivative (its fdiv keeps
; exactly the flags it had); `none` adds nothing, `fast` everything, a list
; what it names; an unknown flag is an error. The same through the plugin.
; UNSUPPORTED: sanitizers
; RUN: %autodiff-opt %s -O0 -S -o - | FileCheck %s --check-prefix=DEF
; RUN: %autodiff-opt %s -O0 --derivative-fast-math=none -S -o - | FileCheck %s --check-prefix=NONE
; RUN: %autodiff-opt %s -O0 --derivative-fast-math=fast -S -o - | FileCheck %s --check-prefix=FAST
; RUN: %autodiff-opt %s -O0 --derivative-fast-math=contract,nsz -S -o - | FileCheck %s --check-prefix=LIST
; RUN: not %autodiff-opt %s --derivative-fast-math=reassoc,quick -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
; The plugin's option (opt; clang with -Xclang -load and -mllvm):
; RUN: %opt -load-pass-plugin=%plugin -passes=autodiff -S %s -o - | FileCheck %s --check-prefix=DEF
; RUN: %opt -load-pass-plugin=%plugin -passes=autodiff -autodiff-derivative-fast-math=none -S %s -o - | FileCheck %s --check-prefix=NONE
; RUN: not %opt -load-pass-plugin=%plugin -passes=autodiff -autodiff-derivative-fast-math=quick -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLUGINBAD

define double @div(double %a, double %b) {
  %q = fdiv ninf double %a, %b
  ret double %q
}

declare double @__enzyme_fwddiff(...)
declare double @__enzyme_autodiff(...)

define double @tangent(double %a, double %da, double %b, double %db) {
  %t = call double (...) @__enzyme_fwddiff(ptr @div, double %a, double %da, double %b, double %db)
  ret double %t
}

define { double, double } @gradient(double %a, double %b) {
  %g = call { double, double } (...) @__enzyme_autodiff(ptr @div, double %a, double %b)
  ret { double, double } %g
}

; DEF-LABEL: define internal double @fwddiffe_div(
; DEF:         %q = fdiv ninf double %a, %b
; DEF:         fmul reassoc ninf nsz arcp contract double
; DEF:         fdiv reassoc ninf nsz arcp contract double
; DEF-LABEL: define internal { double, double } @diffe_div(
; DEF:         %q = fdiv ninf double %a, %b
; DEF:         fdiv reassoc nsz arcp contract double
; DEF-NOT:     fdiv double
; DEF:         ret { double, double }

; NONE-LABEL: define internal double @fwddiffe_div(
; NONE:         %q = fdiv ninf double %a, %b
; NONE:         fmul ninf double
; NONE-LABEL: define internal { double, double } @diffe_div(
; NONE-NOT:     reassoc
; NONE:         ret { double, double }

; FAST-LABEL: define internal double @fwddiffe_div(
; FAST:         %q = fdiv ninf double %a, %b
; FAST:         fmul fast double
; FAST-LABEL: define internal { double, double } @diffe_div(
; FAST:         %q = fdiv ninf double %a, %b
; FAST:         fdiv fast double

; LIST-LABEL: define internal double @fwddiffe_div(
; LIST:         fmul ninf nsz contract double
; LIST-LABEL: define internal { double, double } @diffe_div(
; LIST:         fdiv nsz contract double

; PLUGINBAD: error: autodiff: -autodiff-derivative-fast-math: unknown fast-math flag `quick`

; BAD: autodiff-opt: error: --derivative-fast-math: unknown fast-math flag `quick` (expected none, fast, or a comma-separated list of reassoc, nnan, ninf, nsz, arcp, contract, afn)
