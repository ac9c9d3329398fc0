; A constant pointer stored next to an active one: its shadow is a pointer
; into the read-only zero arena (not null), so tangent loads through it read
; zero. The program checks the tangent itself and exits non-zero otherwise.

declare double @__enzyme_fwddiff(...)

; pair = {const data, active scale}; result = data[0] * data[1] * *scale
define double @use(ptr %pair) {
  %d = load ptr, ptr %pair
  %sp = getelementptr i8, ptr %pair, i64 8
  %s = load ptr, ptr %sp
  %a = load double, ptr %d
  %b.p = getelementptr double, ptr %d, i64 1
  %b = load double, ptr %b.p
  %sv = load double, ptr %s
  %ab = fmul double %a, %b
  %r = fmul double %ab, %sv
  ret double %r
}
define double @f(ptr %data, double %scale) {
  %slot = alloca double
  store double %scale, ptr %slot
  %pair = alloca { ptr, ptr }
  store ptr %data, ptr %pair
  %second = getelementptr i8, ptr %pair, i64 8
  store ptr %slot, ptr %second
  %r = call double @use(ptr %pair)
  ret double %r
}
@data = constant [2 x double] [double 3.0, double 5.0]
@enzyme_const = external global ptr
define i32 @main() {
  %d = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_const, ptr @data, double 2.0, double 1.0)
  %ok = fcmp oeq double %d, 15.0
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}

