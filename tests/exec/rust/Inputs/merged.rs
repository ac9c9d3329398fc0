use std::hint::black_box;
#[no_mangle]
pub fn f(a: f64, b: f64) -> f64 { a * b.sin() }
#[no_mangle]
pub fn g(a: f64, b: f64) -> f64 { a.exp() + b }
// Two placeholders of the same shape: at opt-level 3 rustc's MergeFunctions
// turns one into an alias of the other
#[no_mangle]
#[inline(never)]
pub fn d_f(a: f64, b: f64, dret: f64) -> (f64, f64, f64) { black_box((a, b, dret)); (0.0, 0.0, 0.0) }
#[no_mangle]
#[inline(never)]
pub fn d_g(a: f64, b: f64, dret: f64) -> (f64, f64, f64) { black_box((a, b, dret)); (0.0, 0.0, 0.0) }
