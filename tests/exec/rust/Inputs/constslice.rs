// A constant slice next to an active scalar. At opt-level 0 the iterator
// adapters build structs holding the slice's pointers beside the closure's
// pointer to the active scalar, so those constant pointers need shadows
// that read as zero (the zero arena). The weighted form also keeps an
// active slice beside a constant one.

#[no_mangle]
pub fn cs_map(x: &[f64], s: f64) -> f64 {
    x.iter().map(|v| v * s).sum()
}

#[no_mangle]
pub fn cs_loop(x: &[f64], s: f64) -> f64 {
    let mut a = 0.0;
    for v in x {
        a += v * s;
    }
    a
}

#[no_mangle]
pub fn cs_weighted(w: &[f64], x: &[f64], s: f64) -> f64 {
    w.iter().zip(x).map(|(wi, xi)| wi * (xi * s).sin()).sum()
}
