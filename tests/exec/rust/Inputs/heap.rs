// Rust heap allocation inside differentiated code: Box and Vec. rustc 1.95
// calls the allocator through v0-mangled shims (`..___rustc12___rust_alloc`),
// and grows a Vec with __rust_realloc. At opt-level 0 a Vec grows through
// liballoc functions whose bodies are not in the module, so only the Box
// functions are differentiated there (heap-O0.specs).

#[no_mangle]
pub fn boxed(s: f64) -> f64 {
    let b = Box::new(s * s);
    *b + s
}

#[no_mangle]
pub fn boxed_slice(x: &[f64]) -> f64 {
    let b = Box::new(x[0] * x[1]);
    *b + x[2].sin()
}

#[no_mangle]
pub fn vec_collect(x: &[f64]) -> f64 {
    let v: Vec<f64> = x.iter().map(|a| a.sin()).collect();
    v.iter().zip(x).map(|(s, a)| s * a).sum()
}

#[no_mangle]
pub fn vec_push(x: &[f64]) -> f64 {
    let mut v = Vec::new();
    for &a in x {
        v.push(a * a + 1.0);
    }
    v.iter().map(|t| t.ln()).sum()
}
