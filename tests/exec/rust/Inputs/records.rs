// Arrays of (float, integer) records built by core::array::from_fn and
// searched by key (reverse-records-O0.test, -O3.test). At opt-level 0 the
// array is moved whole by 48- and 56-byte copies whose records the type
// analysis saw as one element ({[0]: double, [8]: integer}, the rest
// left out): the copies moved the first record's adjoint only, and the
// gradient came back zero with no diagnostic (found by the Rust hunt).
// Also fmax/fmin of a NaN operand (ln or sqrt of a negative): the result
// is the other operand, which gets the derivative.
#[no_mangle] pub fn maxkey(x: &[f32]) -> f32 {
    let a: [(f32, i32); 7] = core::array::from_fn(|i| (x[i], i as i32));
    a.iter().max_by_key(|p| p.1).unwrap().0 * 3.0
}
#[no_mangle] pub fn maxkey64(x: &[f64]) -> f64 {
    let a: [(f64, i64); 3] = core::array::from_fn(|i| (x[i], i as i64));
    a.iter().max_by_key(|p| p.1).unwrap().0 * 3.0
}
#[no_mangle] pub fn minby(x: &[f32]) -> f32 {
    let a: [(f32, i32); 7] = core::array::from_fn(|i| (x[i], i as i32));
    let m = a.iter().min_by(|p, q| p.0.partial_cmp(&q.0).unwrap()).unwrap();
    m.0 * m.0 * m.1 as f32
}
#[no_mangle] pub fn max2(a: f64, b: f64) -> f64 { a.max(b.ln()) }
#[no_mangle] pub fn min2(a: f64, b: f64) -> f64 { a.min(b.sqrt()) }
#[no_mangle] pub fn maxln(x: &[f64]) -> f64 { x.iter().map(|a| a.ln()).fold(f64::NEG_INFINITY, f64::max) }
// Computed, then dropped by a filter: ln of 0 and of a negative, and a
// Vec of square roots filtered by is_nan (NaN gradients before: the
// dropped values' zero adjoints times infinite or NaN partials).
#[no_mangle] pub fn ln_gt(x: &[f64]) -> f64 { x.iter().map(|&a| a.ln()).filter(|v| *v > -10.0).sum() }
#[no_mangle] pub fn vec_notnan(x: &[f64]) -> f64 {
    let v: Vec<f64> = x.iter().map(|&a| a.sqrt()).collect();
    v.iter().filter(|t| !t.is_nan()).sum()
}
// sqrt and ln of a negative, packed into one vector for f64::max with 0
// at opt-level 3: the lanes' zero adjoints reached sqrt and ln through the
// insertelements (NaN before).
#[no_mangle] pub fn sqrt_max(x: &[f64]) -> f64 {
    x.iter().map(|&a| a.sqrt().max(0.0) + 0.0f64.max(a.ln())).sum()
}
