; Activities checked against the signature, with rustc's wording.






; With a Rust signature the types are the declared ones.


define double @f(double %x, ptr %p, i64 %n) {
  ret double %x
}
