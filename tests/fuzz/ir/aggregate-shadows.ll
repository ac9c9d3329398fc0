; Aggregates holding an active pointer next to inactive ones, as Numba's
; unoptimized IR and clang -O0 build them: a phi joining such a struct with
; zeroinitializer (its shadow is zeroinitializer too), a struct whose
; inactive pointer field has no shadow (a null shadow field, beside the
; active one's), and a struct returned by value, stored and loaded whole.
; Each program checks its gradient and exits non-zero otherwise.

; sum x[k]^2 over k < 2 read through {ptr meminfo, ptr data}; with n <= 1
; the struct is zeroinitializer and x[0] is read directly.
define double @agg(ptr %x, ptr %meminfo, i64 %n) {
entry:
  %slot = alloca { ptr, ptr }
  %c = icmp sgt i64 %n, 1
  br i1 %c, label %A, label %B
A:
  %s0 = insertvalue { ptr, ptr } undef, ptr %meminfo, 0
  %s = insertvalue { ptr, ptr } %s0, ptr %x, 1
  br label %J
B:
  br label %J
J:
  %arr = phi { ptr, ptr } [ %s, %A ], [ zeroinitializer, %B ]
  store { ptr, ptr } %arr, ptr %slot
  %back = load { ptr, ptr }, ptr %slot
  %dp = extractvalue { ptr, ptr } %back, 1
  %isn = icmp eq ptr %dp, null
  %p = select i1 %isn, ptr %x, ptr %dp
  %v0 = load double, ptr %p
  %q = getelementptr double, ptr %p, i64 1
  %v1 = load double, ptr %q
  %sel1 = select i1 %isn, double 0.0, double %v1
  %sq0 = fmul double %v0, %v0
  %sq1 = fmul double %sel1, %sel1
  %sum = fadd double %sq0, %sq1
  ret double %sum
}

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(...)
declare i64 @atol(ptr)

define i32 @main(i32 %argc, ptr %argv) {
  %x = alloca [2 x double]
  %dx = alloca [2 x double]
  %m = alloca i8
  store double 3.0, ptr %x
  %x1 = getelementptr double, ptr %x, i64 1
  store double 5.0, ptr %x1
  store double 0.0, ptr %dx
  %dx1 = getelementptr double, ptr %dx, i64 1
  store double 0.0, ptr %dx1
  %argp = getelementptr ptr, ptr %argv, i64 1
  %arg = load ptr, ptr %argp
  %n = call i64 @atol(ptr %arg)
  %r = call double (...) @__enzyme_autodiff(ptr @agg, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, ptr %m, ptr @enzyme_const, i64 %n)
  %d0 = load double, ptr %dx
  %d1 = load double, ptr %dx1
  %two = icmp sgt i64 %n, 1
  %want1 = select i1 %two, double 10.0, double 0.0
  %ok0 = fcmp oeq double %d0, 6.0
  %ok1 = fcmp oeq double %d1, %want1
  %ok = and i1 %ok0, %ok1
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}
