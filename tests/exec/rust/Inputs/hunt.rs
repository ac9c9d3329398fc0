// Rust sources for tests/exec/rust/reverse-hunt-O*.test: numerical code
// over slices as a Rust scientist writes it (chunks_exact, zip, windows,
// iterator folds, in-place updates through &mut [f64], an explicit time
// loop, several Active scalars, a Vec collected and a Box on the heap).
// #[no_mangle] keeps the names plain for the C driver (hunt_driver.c).

#[no_mangle]
pub fn lj_energy(pos: &[f64], eps: f64, sigma: f64) -> f64 {
    let n = pos.len() / 3;
    let mut e = 0.0;
    for i in 0..n {
        let a = &pos[3 * i..3 * i + 3];
        for j in (i + 1)..n {
            let b = &pos[3 * j..3 * j + 3];
            let r2: f64 = a.iter().zip(b).map(|(p, q)| (p - q) * (p - q)).sum();
            let s6 = (sigma * sigma / r2).powi(3);
            e += 4.0 * eps * (s6 * s6 - s6);
        }
    }
    e
}

#[no_mangle]
pub fn weighted_lse(z: &[f64], w: &[f64]) -> f64 {
    let m = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let s: f64 = z.iter().zip(w).map(|(zi, wi)| wi * (zi - m).exp()).sum();
    m + s.ln()
}

#[no_mangle]
pub fn relax(x: &mut [f64], sweeps: usize) {
    let n = x.len();
    for _ in 0..sweeps {
        for i in 1..n - 1 {
            x[i] = 0.5 * x[i] + 0.25 * (x[i - 1] + x[i + 1]) + 0.05 * x[i].sin();
        }
    }
}

#[no_mangle]
pub fn damped_osc(x0: f64, v0: f64, k: f64, c: f64, steps: usize) -> f64 {
    let (mut x, mut v) = (x0, v0);
    let dt = 1e-3;
    for _ in 0..steps {
        let a = -k * x - c * v;
        v += dt * a;
        x += dt * v;
    }
    x * x + v
}

#[no_mangle]
pub fn chain_curvature(p: &[f64]) -> f64 {
    p.windows(3)
        .map(|w| {
            let d = w[0] - 2.0 * w[1] + w[2];
            d * d / (1.0 + w[1] * w[1])
        })
        .sum()
}

#[no_mangle]
pub fn mat_quad(a: &[f64], x: &[f64], y: &mut [f64]) -> f64 {
    let n = x.len();
    let mut q = 0.0;
    for (i, row) in a.chunks_exact(n).enumerate() {
        let yi: f64 = row.iter().zip(x).map(|(aij, xj)| aij * xj).sum();
        y[i] = yi.tanh();
        q += x[i] * yi;
    }
    q
}

#[no_mangle]
pub fn softmax_entropy(z: &[f64]) -> f64 {
    let m = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = z.iter().map(|v| (v - m).exp()).collect();
    let s: f64 = e.iter().sum();
    e.iter()
        .map(|v| {
            let p = v / s;
            -p * p.ln()
        })
        .sum()
}

#[no_mangle]
pub fn boxed_bins(x: &[f64]) -> f64 {
    let mut b = Box::new([0.0f64; 4]);
    for (i, v) in x.iter().enumerate() {
        b[i % 4] += v * v;
    }
    b.iter().map(|t| t.sqrt()).sum()
}

#[no_mangle]
pub fn min_total(x: &[f64]) -> f64 {
    // total_cmp compares the raw bits: they decide, they carry nothing
    let m = x.iter().copied().min_by(|a, b| a.total_cmp(b)).unwrap();
    m * m + x.iter().sum::<f64>()
}

#[no_mangle]
pub fn copy_stencil(x: &[f64]) -> f64 {
    // copy_from_slice is a memcpy of the slice's f64s (the signature says so)
    let mut buf = [0.0f64; 16];
    buf[1..x.len() + 1].copy_from_slice(x);
    let mut s = 0.0;
    for i in 1..x.len() + 1 {
        s += (buf[i - 1] - 2.0 * buf[i] + buf[i + 1]).powi(2);
    }
    s
}

#[no_mangle]
pub fn splice(x: &[f64], y: &mut [f64]) -> f64 {
    // sub-slices on both sides: the copy's pointers come out of the
    // `{ptr, usize}` pairs that `index`/`index_mut` return (opt-level 0)
    y[1..4].copy_from_slice(&x[2..5]);
    let mut s = 0.0;
    for (i, v) in y.iter().enumerate() {
        s += (i as f64 + 1.0) * v * v;
    }
    s + x[0] * y[0]
}

#[no_mangle]
pub fn flip(x: &mut [f64]) -> f64 {
    // reverse in place: the elements move as f64s or, at opt-level 3, as
    // vectors
    x.reverse();
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate() {
        s += (i as f64 + 1.0) * v.sin();
    }
    s
}

#[repr(C)]
pub struct Params {
    pub k: f64,
    pub c: f64,
}

#[no_mangle]
pub fn spring4(a: &[f64; 4], p: &Params) -> f64 {
    // an array and a struct behind references (`&[f64; 4]`, `&Params` in
    // the spec)
    let mut e = 0.0;
    for i in 0..3 {
        let d = a[i + 1] - a[i];
        e += 0.5 * p.k * d * d + p.c * d.powi(4);
    }
    e
}

#[no_mangle]
pub fn binned(x: &[f64]) -> f64 {
    // bins from `as` casts of active values (llvm.fptosi.sat and
    // llvm.fptoui.sat, which carry no derivative)
    let mut s = 0.0;
    for &v in x {
        let k = (v * 3.0).floor() as i64;
        let u = (v.abs() * 2.0) as usize;
        s += v * v * (k as f64 + 1.0) + v * (u % 3) as f64;
    }
    s
}
