// Rust functions returning a pair, `(f64, f64)`: at the LLVM level a
// `{ double, double }` return. Their forward derivatives return
// (primal pair, tangent pair), 32 bytes, which the synthesized targets pass
// back through an sret pointer as the C ABI does.

#[no_mangle]
pub fn polar(r: f64, t: f64) -> (f64, f64) {
    (r * t.cos(), r * t.sin())
}

#[no_mangle]
pub fn moments(x: &[f64]) -> (f64, f64) {
    let mut s = 0.0;
    let mut q = 0.0;
    for v in x {
        s += v;
        q += v * v;
    }
    (s, q)
}

// f32 results: C returns two floats packed in one register.
#[no_mangle]
pub fn sq32(x: f32) -> f32 {
    x * x
}

#[no_mangle]
pub fn pair32(x: f32, y: f32) -> (f32, f32) {
    (x * y, x + y * y)
}
