// Rust sources for tests/exec/rust/forward-slices-O*.test: functions over
// slices (and mutable output slices) in the shapes rustc's #[autodiff]
// lowering sees: index loops with bounds checks, iterator chains, folds,
// zips and windows. #[no_mangle] keeps the symbol names plain so the C
// driver (driver.c) can call both the primal and the derivative.

#[no_mangle]
pub fn sum_sq(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i] * x[i];
    }
    s
}

#[no_mangle]
pub fn log_sum_exp(x: &[f64]) -> f64 {
    let m = x.iter().fold(f64::NEG_INFINITY, |a, &b| if b > a { b } else { a });
    m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

#[no_mangle]
pub fn energy(x: &[f64]) -> f64 {
    let springs: f64 = x.windows(2).map(|w| (w[1] - w[0]).powi(2)).sum();
    springs + x.iter().map(|v| v.sin() * v.cosh()).sum::<f64>()
}

#[no_mangle]
pub fn poly(c: &[f64], t: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, ci| acc * t + ci)
}

#[no_mangle]
pub fn scale(x: &[f64], y: &mut [f64], a: f64) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi = a * xi.sin() + xi * xi;
    }
}

#[no_mangle]
pub fn normalize(x: &[f64], out: &mut [f64]) {
    let n = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    for (o, v) in out.iter_mut().zip(x) {
        *o = v / n;
    }
}

#[no_mangle]
pub fn logistic(x0: f64, r: f64, n: usize) -> f64 {
    let mut x = x0;
    for _ in 0..n {
        x = r * x * (1.0 - x);
    }
    x
}

#[no_mangle]
pub fn weighted_enumerate(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate() {
        s += (i as f64 + 1.0) * v * v;
    }
    s
}
