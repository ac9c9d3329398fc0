; Pointers whose shadows cannot be made: they come from functions without a
; body, directly or copied through memory (a struct copy), or from an
; invoke of one, in either mode. Each is a diagnostic naming the function, never a
; derivative that dereferences a null shadow.

declare ptr @get_buf(i64)
declare void @make_buf(ptr sret([16 x i8]), i64)
declare i32 @__gxx_personality_v0(...)

define double @copied(double %x) {
  %a = alloca [16 x i8]
  %b = alloca [16 x i8]
  %buf = call ptr @get_buf(i64 8)
  store ptr %buf, ptr %a
  call void @llvm.memcpy.p0.p0.i64(ptr %b, ptr %a, i64 16, i1 false)
  %p = load ptr, ptr %b
  store double %x, ptr %p
  %v = load double, ptr %p
  %m = fmul double %v, %v
  ret double %m
}

define double @invoked(double %x) personality ptr @__gxx_personality_v0 {
entry:
  %r = alloca [16 x i8]
  invoke void @make_buf(ptr sret([16 x i8]) %r, i64 8)
          to label %ok unwind label %lp
ok:
  %p = load ptr, ptr %r
  store double %x, ptr %p
  %v = load double, ptr %p
  %m = fmul double %v, %v
  ret double %m
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

declare double @__enzyme_autodiff(...)

declare double @__enzyme_fwddiff(...)
define double @f1(double %x) {
  %d = call double (...) @__enzyme_fwddiff(ptr @copied, double %x, double 1.0)
  ret double %d
}
define double @d1(double %x) {
  %d = call double (...) @__enzyme_autodiff(ptr @copied, double %x)
  ret double %d
}
define double @d2(double %x) {
  %d = call double (...) @__enzyme_autodiff(ptr @invoked, double %x)
  ret double %d
}
