; A Rust-like signature must describe the LLVM function: a slice is a
; pointer then an integer, scalars need their exact LLVM type, and the
; parameter count must match.






define double @sum(ptr %x.0, i64 %x.1) {
  ret double 0.0
}

define double @pair(ptr %a, ptr %b) {
  ret double 0.0
}

define double @half(double %x) {
  ret double %x
}
