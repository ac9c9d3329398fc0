; Without markers: integers are const, floats dup (value then tangent) in
; forward mode, pointers dup. The callee is reached through a cast, and
; the request comes through an invoke.

define double @g(ptr %p, double %x, i32 %n) {
  %v = load double, ptr %p
  %m = fmul double %v, %x
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)
declare i32 @__gxx_personality_v0(...)

define double @caller(ptr %p, ptr %dp, double %x) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke double (ptr, ...) @__enzyme_fwddiff(ptr @g, ptr %p, ptr %dp, double %x, double 2.0, i32 7)
          to label %ok unwind label %lp
ok:
  ret double %r
lp:
  %l = landingpad { ptr, i32 } cleanup
  ret double 0.0
}

