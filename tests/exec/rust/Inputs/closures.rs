// Closures capturing an active scalar, called through a table of `&dyn Fn`
// by an #[inline(never)] helper (tests/exec/rust/reverse-closures-width-*):
// the closures' environments hold pointers to the captured value, and the
// table holds them beside the vtables' addresses. (Boxed closures,
// `Vec<Box<dyn Fn>>`, are not here: reverse mode refuses their calls
// through the vtable, an invoke; docs/status.md.)

#[inline(never)]
fn apply(f: &dyn Fn(f64) -> f64, v: f64) -> f64 {
    f(v)
}

#[no_mangle]
pub fn dyn_pick(x: &[f64], k: f64) -> f64 {
    let sq = |v: f64| v * v * k;
    let ex = |v: f64| (v * k).exp();
    let fs: [&dyn Fn(f64) -> f64; 2] = [&sq, &ex];
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate() {
        s += apply(fs[i & 1], *v);
    }
    s
}
