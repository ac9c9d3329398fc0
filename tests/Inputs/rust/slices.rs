// Sources and placeholder targets for the lowering tests, compiled by
// regen.sh into slices.O0.ll and slices.O3.ll. The placeholders stand in
// for the derivative functions rustc's #[autodiff] macro would generate;
// their bodies are replaced by lowering.

/// Sum of squares of a slice.
#[inline(never)]
pub fn sum_sq(x: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    while i < x.len() {
        s += x[i] * x[i];
        i += 1;
    }
    s
}

/// y[i] = a * x[i] for the common prefix.
#[inline(never)]
pub fn scale(x: &[f64], y: &mut [f64], a: f64) {
    let mut i = 0;
    while i < x.len() && i < y.len() {
        y[i] = a * x[i];
        i += 1;
    }
}

/// x * y.
#[inline(never)]
pub fn mul(x: f64, y: f64) -> f64 {
    x * y
}

/// Placeholder for autodiff_reverse(d_sum_sq, Duplicated, Active).
#[inline(never)]
pub fn d_sum_sq(x: &[f64], dx: &mut [f64], dret: f64) -> f64 {
    std::hint::black_box((x, dx, dret));
    0.0
}

/// Placeholder for autodiff_reverse(d_mul, Active, Active, Active): returns
/// (primal, dx, dy) through an sret pointer.
#[inline(never)]
pub fn d_mul(x: f64, y: f64, dret: f64) -> (f64, f64, f64) {
    std::hint::black_box((x, y, dret));
    (0.0, 0.0, 0.0)
}
