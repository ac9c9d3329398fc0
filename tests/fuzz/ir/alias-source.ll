; A source that is an alias of another function (rustc -O3 and clang merge
; identical functions that way): the request differentiates the aliasee.

; An alias of something that is not a function is still reported.

@g = unnamed_addr alias double (double), ptr @f
@data = global double 1.0
@h = alias double, ptr @data

define double @f(double %x) {
  %s = call double @sin(double %x)
  ret double %s
}

declare double @sin(double)
