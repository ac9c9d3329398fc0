// Rust Vec growth inside reverse-differentiated code (rustc opt-level 3):
// the buffer moves through __rust_realloc while active values are pushed,
// inserted, extended or collected. After inlining, the new buffer's address
// comes back from `finish_grow` through an integer field of a stack slot
// (ptrtoint, store i64, load i64, inttoptr): activity, the type analysis
// and the shadows follow the address through it.

#[no_mangle]
pub fn vec_push(x: &[f64]) -> f64 {
    let mut v = Vec::new();
    for &a in x {
        v.push(a * a + 1.0);
    }
    v.iter().map(|t| t.ln()).sum()
}

#[no_mangle]
pub fn push_then_update(x: &[f64]) -> f64 {
    let mut v: Vec<f64> = Vec::with_capacity(2);
    for &a in x {
        v.push(a.sin());
    }
    for i in 1..v.len() {
        v[i] = v[i] * v[i - 1] + x[i];
    }
    v.iter().sum()
}

#[no_mangle]
pub fn two_vecs(x: &[f64]) -> f64 {
    let mut evens = Vec::new();
    let mut odds = Vec::new();
    for (i, &a) in x.iter().enumerate() {
        if i % 2 == 0 {
            evens.push(a * 2.0);
        } else {
            odds.push(a.exp());
        }
    }
    let e: f64 = evens.iter().map(|t| t * t).sum();
    let o: f64 = odds.iter().sum();
    e * o
}

#[no_mangle]
pub fn stack_machine(x: &[f64]) -> f64 {
    let mut stack = Vec::new();
    for &a in x {
        stack.push(a);
        if stack.len() >= 2 {
            let b = stack.pop().unwrap();
            let c = stack.pop().unwrap();
            stack.push(b * c + a);
        }
    }
    stack.iter().sum()
}

#[no_mangle]
pub fn extend_and_scale(x: &[f64], k: f64) -> f64 {
    let mut v = Vec::new();
    v.extend_from_slice(x);
    v.extend(x.iter().map(|a| a * k));
    let mut s = 0.0;
    for (i, t) in v.iter().enumerate() {
        s += t * (i as f64 + 1.0);
    }
    s * k
}

#[no_mangle]
pub fn insert_front(x: &[f64]) -> f64 {
    let mut v = Vec::new();
    for &a in x {
        v.insert(0, a * 1.5);
    }
    v.iter().enumerate().map(|(i, t)| t * (i as f64 + 1.0)).sum()
}

#[no_mangle]
pub fn retain_pos(x: &[f64]) -> f64 {
    let mut v: Vec<f64> = x.iter().map(|a| a.sin()).collect();
    v.retain(|t| *t > 0.0);
    v.iter().map(|t| t * t).sum()
}

#[no_mangle]
pub fn rev_iter(x: &[f64]) -> f64 {
    let v: Vec<f64> = x.iter().rev().map(|a| a * a).collect();
    let mut s = 0.0;
    for (i, t) in v.iter().enumerate() {
        s += t * (i as f64);
    }
    s
}

#[no_mangle]
pub fn vec_of_vec(x: &[f64]) -> f64 {
    let mut rows: Vec<Vec<f64>> = Vec::new();
    for r in 0..3 {
        let row: Vec<f64> = x.iter().map(|a| a * (r as f64 + 1.0)).collect();
        rows.push(row);
    }
    rows.iter().map(|r| r.iter().map(|t| t.cos()).sum::<f64>()).sum()
}

#[no_mangle]
pub fn rows_and_copy(x: &[f64]) -> f64 {
    // a Vec<Vec<f64>> collected from chunks, then a second Vec: both
    // buffers' addresses come back as integers into slots that one exit
    // path frees through a phi of the two (the type analysis saw a pointer
    // and an integer in one slot and refused it as "may hold a float")
    let rows: Vec<Vec<f64>> = x.chunks(3).map(|c| c.to_vec()).collect();
    let b = x.to_vec();
    let mut s = 0.0;
    for r in &rows {
        s += r[0] * r[0] + r[r.len() - 1].sin();
    }
    s + b[1] * b[2]
}

#[derive(Clone, Copy)]
pub struct Rec {
    pub x: f64,
    pub id: u32,
    pub w: f32,
}

#[no_mangle]
pub fn records_clone(x: &[f64]) -> f64 {
    // a Vec of records mixing f64, u32 and f32, cloned: one memcpy of
    // run-time length; rustc declares no struct type, so the records'
    // size is the step the code indexes them with
    let v: Vec<Rec> = x
        .iter()
        .enumerate()
        .map(|(i, &a)| Rec { x: a, id: i as u32, w: (i as f32) * 0.5 })
        .collect();
    let c = v.clone();
    let mut s = 0.0;
    for (i, p) in c.iter().enumerate() {
        // (the f32 field carries no derivative: finite differences of
        // f32 rounding would be noise)
        s += p.x * p.x * (i as f64 + 1.0) + p.w as f64 * p.x * p.id as f64;
    }
    s
}

#[no_mangle]
pub fn records_rotate(x: &[f64]) -> f64 {
    // the same records rotated in place (memmoves of run-time length)
    let mut v: Vec<Rec> = x
        .iter()
        .enumerate()
        .map(|(i, &a)| Rec { x: a, id: i as u32, w: 0.25 })
        .collect();
    v.rotate_left(3);
    let mut s = 0.0;
    for (i, p) in v.iter().enumerate() {
        s += p.x * p.x * (i as f64 + 1.0) + p.w as f64 * p.x * p.id as f64;
    }
    s
}

#[no_mangle]
pub fn truncate_sum(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.push(1.0);
    v.truncate(x.len() / 2 + 1);
    v.iter().map(|t| t.exp()).sum()
}

#[no_mangle]
pub fn windows_diff(x: &[f64]) -> f64 {
    let d: Vec<f64> = x.windows(2).map(|w| w[1] - w[0]).collect();
    d.iter().map(|t| t * t).sum()
}
