; An active global with a registered shadow (`!enzyme_shadow`): the
; derivative reads and writes the shadow global. The program checks the
; tangent itself and exits non-zero on a mismatch.

@g = global double 3.0, !enzyme_shadow !0
@dg = global double 0.5
@out = global double 0.0, !enzyme_shadow !1
@dout = global double 0.0

declare double @__enzyme_fwddiff(...)

; f(x) = g * x * x; also stores g * x into @out.
define double @f(double %x) {
  %gv = load double, ptr @g
  %a = fmul double %gv, %x
  store double %a, ptr @out
  %r = fmul double %a, %x
  ret double %r
}

define i32 @main() {
  ; d/dt f with x' = 1, g' = 0.5: g'x^2 + 2gx = 0.5*4 + 2*3*2 = 14 at x = 2.
  %d = call double (...) @__enzyme_fwddiff(ptr @f, double 2.0, double 1.0)
  %ok1 = fcmp oeq double %d, 14.0
  ; out' = g'x + g x' = 1 + 3 = 4.
  %do = load double, ptr @dout
  %ok2 = fcmp oeq double %do, 4.0
  %ok = and i1 %ok1, %ok2
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}

!0 = !{ptr @dg}
!1 = !{ptr @dout}
