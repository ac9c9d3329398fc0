; Address arithmetic no object can have: constant offsets whose sum
; overflows 64 bits, an index scaled by the most negative i64, a field of
; an array element far past any allocation, copies of -1 and 2^63 bytes.
; The type analysis's place arithmetic overflowed on them (undefined
; behaviour, an abort under the sanitizers: found by fuzz_ir); such places
; are now "somewhere in the object". Both derivatives are still built.

declare void @__enzyme_autodiff(...)
declare double @__enzyme_fwddiff(...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @f(ptr %p, i64 %i) {
  %a = getelementptr i8, ptr %p, i64 9223372036854775000
  %b = getelementptr i8, ptr %a, i64 9223372036854775000
  %v = load double, ptr %b
  %m = mul i64 %i, -9223372036854775808
  %c = getelementptr i8, ptr %p, i64 %m
  %w = load double, ptr %c
  %d = getelementptr [4 x {double, i64}], ptr %p, i64 %i, i64 9223372036854775000, i32 1
  %x = load i64, ptr %d
  %big = getelementptr [2 x [4611686018427387904 x i8]], ptr %p, i64 0, i64 1
  store double 0.0, ptr %big
  %tmp = alloca [4 x double]
  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %p, i64 -1, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %b, ptr %p, i64 9223372036854775000, i1 false)
  %y = load double, ptr %tmp
  %s = fadd double %v, %w
  %s2 = fadd double %s, %y
  ret double %s2
}

define double @h(ptr %p, ptr %dp, i64 %i) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, i64 %i)
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, i64 %i)
  ret double %r
}
