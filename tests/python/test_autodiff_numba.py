"""The Numba package (python/autodiff_numba), as a Numba user calls it:
gradients of @enzyme_reverse / @enzyme_forward functions against finite
differences or the exact formula, the talk's seed case (a * b gives (b, a)),
float32, constants, arrays (1-D to 4-D, temporaries allocated by Numba's
runtime, a small MLP loss, shadows given by the caller), the
per-signature cache, and the error path."""
import math

import numba
import numpy as np
import pytest

from autodiff_numba import (AutodiffError, custom_adjoint, enzyme_forward,
                            enzyme_reverse, version)
from fdhelp import fd


def test_version():
    assert "LLVM 22" in version()


def test_seed_product():
    @enzyme_reverse()
    def mul(a, b):
        return a * b

    assert mul(3.0, 5.0) == (5.0, 3.0)


def test_const_dup_val_and_grad():
    @enzyme_reverse(enzyme_const="x", enzyme_dup="y", val_and_grad=True)
    def product(x, y):
        return x * y

    assert product(3.0, 5.0) == (15.0, 3.0)


def plain_loop(x, y, n):
    s = 0.0
    for i in range(n):
        s += math.sin(x * i) * y + math.exp(-y * i * 0.1)
    return s


def test_loop_against_finite_differences():
    grad = enzyme_reverse(enzyme_const="n")(plain_loop)
    args = (0.7, -1.3, 6)
    gx, gy = grad(*args)
    assert gx == pytest.approx(fd(plain_loop, args, 0), rel=1e-6)
    assert gy == pytest.approx(fd(plain_loop, args, 1), rel=1e-6)


def test_forward_matches_reverse():
    rev = enzyme_reverse(enzyme_const="n")(plain_loop)
    fwd = enzyme_forward(enzyme_const="n", val_and_grad=True)(plain_loop)
    args = (0.4, 2.1, 5)
    gx, gy = rev(*args)
    value, dx = fwd(*args, tangents={"x": 1.0})
    assert value == pytest.approx(plain_loop(*args))
    assert dx == pytest.approx(gx, rel=1e-12)
    assert fwd(*args, tangents={"y": 1.0})[1] == pytest.approx(gy, rel=1e-12)


def test_float32_and_cache():
    @enzyme_reverse(enzyme_dup="x")
    def cube(x, c):
        return c * x * x * x

    assert cube(np.float32(2.0), np.float32(0.5)) == pytest.approx(6.0)
    assert cube(2.0, 0.5) == pytest.approx(6.0)  # float64: a second entry
    assert len(cube.cache) == 2
    cube(3.0, 1.0)
    assert len(cube.cache) == 2


def test_integer_and_boolean_scalars():
    # Constant scalars of every integer width, signed or not, and booleans
    # (refused before, with a message that said integers were supported).
    def scaled(x, flag, n):
        s = np.sum(x ** 2)
        if flag:
            s = s * n
        return s

    grad = enzyme_reverse(enzyme_dup="x")(scaled)
    x = np.array([1.0, 2.0])
    for flag, n in ((True, 3), (np.bool_(True), np.uint64(3)),
                    (1, np.int8(3)), (True, np.uint16(3)), (1, np.int16(3)),
                    (True, np.uint32(3)), (True, np.uint8(3))):
        assert np.allclose(grad(x, flag, n), 6.0 * x)
        assert np.allclose(grad.jit(x, flag, n), 6.0 * x)
    assert np.allclose(grad(x, False, np.uint64(3)), 2.0 * x)
    with pytest.raises(AutodiffError, match="cannot be active"):
        enzyme_reverse(enzyme_dup=("x", "n"))(scaled)(x, True, np.uint8(2))
    tangent = enzyme_forward(enzyme_const=("flag", "n"))(scaled)
    assert tangent(x, True, np.uint32(3),
                   tangents={"x": np.array([1.0, 0.0])}) == pytest.approx(6.0)


def test_default_arguments():
    # Parameters with default values may be left out, as in the plain call.
    def power_sum(x, p=2.0, scale=1):
        return scale * np.sum(x ** p)

    x = np.array([1.0, 2.0])
    grad = enzyme_reverse()(power_sum)
    gx, gp = grad(x)
    assert np.allclose(gx, 2.0 * x)
    assert gp == pytest.approx(np.sum(x ** 2 * np.log(x)))
    assert np.allclose(grad(x, 3.0)[0], 3.0 * x ** 2)
    assert np.allclose(grad(x, 2.0, 2)[0], 4.0 * x)
    with pytest.raises(TypeError, match=r"takes 3 arguments \(x, p, scale\)"):
        grad()


@numba.njit
def poly_rec(x, n):
    if n == 0:
        return 1.0
    return 1.0 + x * poly_rec(x, n - 1)


@numba.njit
def tree_sum(a, lo, hi):
    if hi - lo == 1:
        return a[lo] * a[lo]
    mid = (lo + hi) // 2
    return tree_sum(a, lo, mid) + tree_sum(a, mid, hi)


def test_recursive_helpers():
    # Numba calls a recursive @njit helper through a global it fills in
    # later (`.numba.unresolved$NAME`): an unknown function pointer to the
    # core before the package linked the helper's body in.
    def uses_recursion(x, a):
        return poly_rec(x, 3) + tree_sum(a, 0, a.shape[0])

    x, a = 0.5, np.array([0.3, -1.2, 2.0, 0.7, 1.1])
    gx, ga = enzyme_reverse()(uses_recursion)(x, a)
    assert gx == pytest.approx(1 + 2 * x + 3 * x * x, rel=1e-12)
    assert np.allclose(ga, 2 * a, rtol=1e-12)
    tangent = enzyme_forward()(uses_recursion)(
        x, a, tangents={"x": 1.0, "a": np.ones(5)})
    assert tangent == pytest.approx(gx + np.sum(ga), rel=1e-12)


def test_forward_variable_size_buffers():
    # np.sum(A, axis=1) and a list built by append use variable-size NRT
    # buffers (NRT_MemInfo_new_varsize, NRT_MemInfo_varsize_realloc),
    # which forward mode refused.
    def row_sums_sq(a):
        return np.sum(np.sum(a, axis=1) ** 2)

    def list_sum(x):
        items = []
        for i in range(x.shape[0]):
            items.append(x[i] * 2.0)
        s = 0.0
        for v in items:
            s += v ** 2
        return s

    a = np.arange(6.0).reshape(2, 3)
    t = np.array([[1.0, 0.5, -1.0], [2.0, 0.0, 0.25]])
    grad = enzyme_reverse()(row_sums_sq)(a)
    assert np.allclose(grad, 2 * a.sum(axis=1)[:, None] * np.ones((2, 3)))
    tangent = enzyme_forward()(row_sums_sq)(a, tangents={"a": t})
    assert tangent == pytest.approx(np.sum(grad * t), rel=1e-12)
    x = np.array([0.5, -1.0, 2.0])
    d = np.array([1.0, -2.0, 0.5])
    assert enzyme_forward()(list_sum)(x, tangents={"x": d}) == \
        pytest.approx(np.sum(8 * x * d), rel=1e-12)


def test_copied_then_reshaped():
    # An array the function only copies, then reads through a view that a
    # runtime call made: the copy's type comes from the argument's element
    # type, which the package now declares ("enzyme_type").
    def copied(x):
        m = x.copy().reshape((2, 3))
        return np.sum(m ** 2)

    for dtype, tol in ((np.float64, 1e-12), (np.float32, 1e-5)):
        x = np.linspace(0.1, 0.6, 6).astype(dtype)
        assert np.allclose(enzyme_reverse()(copied)(x), 2 * x, rtol=tol)
        assert enzyme_forward()(copied)(x, tangents={"x": np.ones(6, dtype)}) \
            == pytest.approx(float(np.sum(2 * x)), rel=tol)


def test_errors():
    @enzyme_reverse()
    def total(x):
        return x.sum()

    with pytest.raises(AutodiffError, match="supported are float64"):
        total(np.zeros(3, dtype=np.complex128))
    with pytest.raises(AutodiffError, match="supported are float64"):
        total(np.zeros((2, 2), dtype=np.int64))
    with pytest.raises(AutodiffError, match="returns"):
        enzyme_reverse()(lambda x: x > 0.0)(1.0)
    with pytest.raises(AutodiffError, match="no parameter named z"):
        enzyme_reverse(enzyme_dup="z")(lambda x: x)
    with pytest.raises(AutodiffError, match="cannot be active"):
        enzyme_reverse(enzyme_dup="n")(plain_loop)(1.0, 2.0, 3)

    # Active data stored into a constant array: the message names the
    # Python parameter (it named the C callback's `.3`).
    def into_buffer(x, buf):
        buf[:] = np.sin(x)
        return np.sum(buf * x)

    with pytest.raises(AutodiffError, match="argument `buf`, which has no "
                                            "shadow"):
        enzyme_reverse(enzyme_const="buf")(into_buffer)(np.ones(3),
                                                        np.zeros(3))


def weighted_squares(a, w):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += (i + 1) * a[i, j] ** 2 + j * a[i, j] * w
    return s


def triple_in_place(x):
    s = 0.0
    for i in range(x.shape[0]):
        x[i] = 3.0 * x[i]
        s += x[i] * x[i]
    return s


def test_other_layouts():
    """Fortran-ordered, transposed and strided arrays (passed as
    C-contiguous copies): the same gradients as the C-ordered copy, the
    gradient in the argument's own layout, a caller's shadow of another
    layout incremented, in-place updates written back, forward mode."""
    grad = enzyme_reverse(enzyme_dup=("a", "w"))(weighted_squares)
    base = np.arange(12.0).reshape(3, 4) * 0.25 - 1.0
    for a in (np.asfortranarray(base), base.T, base[:, ::2], base[::2, 1:]):
        expect_a, expect_w = grad(np.ascontiguousarray(a), 0.5)
        da, dw = grad(a, 0.5)
        assert np.allclose(da, expect_a) and dw == pytest.approx(expect_w)
        rows = np.arange(a.shape[0])[:, None]
        cols = np.arange(a.shape[1])[None, :]
        assert np.allclose(da, 2 * (rows + 1) * a + cols * 0.5)
        assert dw == pytest.approx(float(np.sum(cols * a)))
    fa = np.asfortranarray(base)
    assert grad(fa, 0.5)[0].flags.f_contiguous
    shadow = np.asfortranarray(np.ones_like(base))
    da, _ = grad(fa, 0.5, shadows={"a": shadow})
    assert da is shadow and np.allclose(shadow, 1.0 + grad(base, 0.5)[0])

    scale_in_place = enzyme_reverse(enzyme_dup="x")(triple_in_place)

    column = np.ones((3, 2))
    dx = scale_in_place(column[:, 0])
    assert np.allclose(column[:, 0], 3.0) and np.allclose(column[:, 1], 1.0)
    assert np.allclose(dx, 18.0)  # d/dx of (3 x)^2, x the value passed in
    tangent = enzyme_forward(enzyme_dup="a")(weighted_squares)
    v = np.asfortranarray(np.linspace(-1.0, 1.0, 12).reshape(3, 4))
    assert tangent(fa, 0.5, tangents={"a": v}) == pytest.approx(
        float(np.sum(grad(base, 0.5)[0] * v)))


def test_jit_other_layouts():
    """`.jit` with Fortran-ordered and strided arrays: the same gradients
    as the C-ordered call (a Fortran array's data was read as C-ordered,
    a silently wrong gradient), in-place updates written back, and more
    dimensions an AutodiffError."""
    import numba
    grad = enzyme_reverse(enzyme_dup=("a", "w"))(weighted_squares)
    base = np.arange(12.0).reshape(3, 4) * 0.25 - 1.0
    for a in (np.asfortranarray(base), base.T, base[:, ::2]):
        da, dw = grad.jit(a, 0.5)
        rows = np.arange(a.shape[0])[:, None]
        cols = np.arange(a.shape[1])[None, :]
        assert np.allclose(da, 2 * (rows + 1) * a + cols * 0.5)
        assert dw == pytest.approx(float(np.sum(cols * a)))

    scale_in_place = enzyme_reverse(enzyme_dup="x")(triple_in_place)

    scale_jit = scale_in_place.jit

    @numba.njit
    def from_njit(m):
        return scale_jit(m[:, 0])

    column = np.ones((3, 2))
    assert np.allclose(from_njit(column), 18.0)
    assert np.allclose(column[:, 0], 3.0) and np.allclose(column[:, 1], 1.0)
    with pytest.raises(AutodiffError, match="supported are"):
        grad.jit(np.ones((2, 2), dtype=np.complex128), 0.5)


def shifted_product(x):
    y = np.zeros(x.shape[0])
    y[1:] = x[:-1]  # Numba's strided copy: addresses computed on integers
    return np.sum(y * x)


def test_slice_assignment():
    """`y[1:] = x[:-1]` walks an integer address around a loop: forward
    mode follows it (it gave a zero tangent for the copied part, a silently
    wrong derivative); so does reverse mode (it refused it)."""
    x = np.array([0.5, 1.0, 2.0, -1.5])
    t = np.array([1.0, -2.0, 0.5, 3.0])
    exact = float(x[:-1] @ t[1:] + x[1:] @ t[:-1])
    tangent = enzyme_forward()(shifted_product)
    assert tangent(x, tangents={"x": t}) == pytest.approx(exact, rel=1e-14)
    assert tangent.jit(x, t) == pytest.approx(exact, rel=1e-14)
    grad = enzyme_reverse()(shifted_product)(x)
    want = np.r_[x[1:], 0.0] + np.r_[0.0, x[:-1]]  # x[j+1] + x[j-1]
    assert np.allclose(grad, want, rtol=1e-15, atol=0)
    assert grad @ t == pytest.approx(exact, rel=1e-14)


def test_forward_value_once_and_tangent_checks():
    """Forward mode's val_and_grad takes the value from the derivative's own
    call (the function ran twice: an in-place update was applied twice and
    the value was the second run's, a silently wrong result); the caller's
    tangent arrays are not overwritten; a tangent of the wrong shape or a
    name that is not an active argument is an AutodiffError (a scalar
    tangent for an array read out of bounds)."""
    def scale_then_sum(x):
        for i in range(x.shape[0]):
            x[i] = 2.0 * x[i]
        return np.sum(x * x)

    both = enzyme_forward(val_and_grad=True)(scale_then_sum)
    x, t = np.array([1.0, 2.0, 3.0]), np.ones(3)
    value, derivative = both(x, tangents={"x": t})
    assert value == pytest.approx(56.0) and derivative == pytest.approx(48.0)
    assert np.allclose(x, [2.0, 4.0, 6.0]) and np.allclose(t, 1.0)
    value, derivative = both.jit(np.array([1.0, 2.0, 3.0]), t)
    assert value == pytest.approx(56.0) and derivative == pytest.approx(48.0)
    tangent = enzyme_forward()(scale_then_sum)
    with pytest.raises(AutodiffError, match="shape"):
        tangent(np.ones(5), tangents={"x": np.ones(3)})
    with pytest.raises(AutodiffError, match="not an active argument"):
        tangent(np.ones(5), tangents={"y": np.ones(5)})


def test_three_active_and_value_in_one_sweep():
    def h(a, b, c):
        return a * b * c + math.sin(a * c)

    grad = enzyme_reverse(val_and_grad=True)(h)
    args = (0.3, -1.7, 2.2)
    value, (ga, gb, gc) = grad(*args)
    assert value == pytest.approx(h(*args))
    for k, g in enumerate((ga, gb, gc)):
        assert g == pytest.approx(fd(h, args, k), rel=1e-6)


def energy(a, w):
    s = 0.0
    for i in range(a.shape[0]):
        s += w * a[i] * a[i] * np.sin(a[i])
    return s


def test_array_gradient():
    grad = enzyme_reverse(enzyme_const="w")(energy)
    a = np.array([0.3, -0.7, 1.1, 0.45, -1.3])
    g = grad(a, 2.0)
    assert np.allclose(g, 2.0 * (2 * a * np.sin(a) + a * a * np.cos(a)),
                       rtol=1e-12)
    assert np.array_equal(a, [0.3, -0.7, 1.1, 0.45, -1.3])  # not modified
    # the caller's shadow is incremented
    dy = np.ones_like(a)
    out = grad(a, 2.0, shadows={"a": dy})
    assert out is dy
    assert np.allclose(dy, 1.0 + g, rtol=1e-12)


def test_array_temporaries_and_value():
    @enzyme_reverse(val_and_grad=True)
    def scaled(x):
        t = np.exp(x) * 2.0  # a temporary array (NRT)
        return np.sum(t * x)

    x = np.linspace(-1.0, 1.0, 7)
    value, g = scaled(x)
    assert value == pytest.approx(np.sum(2 * np.exp(x) * x))
    assert np.allclose(g, 2 * np.exp(x) * (1 + x), rtol=1e-12)


def mlp_loss(w1, w2, x, y):
    # loops here; `@` goes through BLAS (test_matrix_vector_product)
    loss = 0.0
    for n in range(x.shape[0]):
        p = 0.0
        for j in range(w1.shape[1]):
            z = 0.0
            for i in range(w1.shape[0]):
                z += x[n, i] * w1[i, j]
            p += np.tanh(z) * w2[j]
        loss += 0.5 * (p - y[n]) ** 2
    return loss / x.shape[0]


def test_matrix_vector_product():
    # `A @ w` calls BLAS gemv (numba_xxgemv): for a C-ordered matrix and
    # for its transpose inside the function (trans 't' and 'n'), the core's
    # built-in rule, both modes.
    def quad(w, a, y):
        r = a @ w - y
        return np.sum(np.tanh(r) * r)

    def quad_t(w, b, y):
        r = b.T @ w - y
        return np.sum(np.tanh(r) * r)

    rng = np.random.default_rng(3)
    a = rng.normal(size=(4, 3))
    w = rng.normal(size=3)
    y = rng.normal(size=4)
    r = a @ w - y
    dr = np.tanh(r) + r * (1 - np.tanh(r) ** 2)
    v = rng.normal(size=3)
    for f, m, want_m in ((quad, a, np.outer(dr, w)),
                         (quad_t, np.ascontiguousarray(a.T), np.outer(w, dr))):
        gw, gm = enzyme_reverse(enzyme_const="y")(f)(w, m, y)
        assert np.allclose(gw, a.T @ dr, rtol=1e-12)
        assert np.allclose(gm, want_m, rtol=1e-12)
        tangent = enzyme_forward(enzyme_const="y")(f)(w, m, y,
                                                      tangents={"w": v})
        assert tangent == pytest.approx(float(gw @ v), rel=1e-12)


def test_matrix_product():
    # `A @ B` of matrices calls BLAS gemm (numba_xxgemm): the core's
    # built-in rule (two gemms each way), with C-ordered operands and a
    # transposed view, in both modes.
    def loss(a, b):
        c = a @ b
        return np.sum(np.sin(c) * c)

    def loss_t(a, b):
        c = a.T @ b
        return np.sum(np.sin(c) * c)

    rng = np.random.default_rng(5)
    a = rng.normal(size=(3, 4))
    b = rng.normal(size=(4, 2))
    at = np.ascontiguousarray(a.T)
    va = rng.normal(size=(3, 4))
    vb = rng.normal(size=(4, 2))
    c = a @ b
    g = np.sin(c) + c * np.cos(c)  # d loss / d c
    for f, m, want_m in ((loss, a, g @ b.T), (loss_t, at, (g @ b.T).T)):
        gm, gb = enzyme_reverse()(f)(m, b)
        assert np.allclose(gm, want_m, rtol=1e-12)
        assert np.allclose(gb, a.T @ g, rtol=1e-12)
        vm = va if f is loss else np.ascontiguousarray(va.T)
        tangent = enzyme_forward()(f)(m, b, tangents={"a": vm, "b": vb})
        assert tangent == pytest.approx(float(np.sum(gm * vm) + np.sum(gb * vb)),
                                        rel=1e-12)


def test_dot_of_vectors():
    # np.dot of two vectors calls BLAS (numba_xxdot): the core's built-in
    # rule differentiates it, in both modes.
    def dots(x, y):
        return np.sin(np.dot(x, y)) + np.dot(x, x)

    x = np.array([0.3, -0.7, 1.1, 0.45])
    y = np.array([1.5, 0.2, -0.4, 0.9])
    value, (gx, gy) = enzyme_reverse(val_and_grad=True)(dots)(x, y)
    c = math.cos(np.dot(x, y))
    assert value == pytest.approx(math.sin(np.dot(x, y)) + np.dot(x, x))
    assert np.allclose(gx, c * y + 2 * x, rtol=1e-12)
    assert np.allclose(gy, c * x, rtol=1e-12)
    v = np.array([1.0, -2.0, 0.5, 0.25])
    tangent = enzyme_forward(enzyme_const="y")(dots)(x, y, tangents={"x": v})
    assert tangent == pytest.approx(float(gx @ v), rel=1e-12)


def test_linalg_norm():
    # np.linalg.norm calls BLAS (numba_xxnrm2) for vectors, strided views
    # and (on a flattened copy) matrices: a built-in rule, both modes,
    # float64 and float32.
    def norms(x, m):
        return np.linalg.norm(x) * np.sin(x[0]) + np.linalg.norm(x[::2]) ** 2 \
            + np.linalg.norm(m) * m[0, 1]

    rng = np.random.default_rng(7)
    x = rng.normal(size=7)
    m = rng.normal(size=(3, 4))
    gx, gm = enzyme_reverse()(norms)(x, m)
    plain = numba.njit(norms)

    def array_fd(f, a, h=1e-6):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            up, down = a.copy(), a.copy()
            up[idx] += h
            down[idx] -= h
            g[idx] = (f(up) - f(down)) / (2 * h)
        return g

    assert np.allclose(gx, array_fd(lambda v: plain(v, m), x), rtol=1e-6,
                       atol=1e-8)
    assert np.allclose(gm, array_fd(lambda v: plain(x, v), m), rtol=1e-6,
                       atol=1e-8)
    tx, tm = rng.normal(size=7), rng.normal(size=(3, 4))
    tangent = enzyme_forward()(norms)(x, m, tangents={"x": tx, "m": tm})
    assert tangent == pytest.approx(float(gx @ tx + np.sum(gm * tm)),
                                    rel=1e-10)
    x32, m32 = x.astype(np.float32), m.astype(np.float32)
    gx32, gm32 = enzyme_reverse()(norms)(x32, m32)
    assert gx32.dtype == np.float32
    assert np.allclose(gx32, gx, rtol=1e-3, atol=1e-4)
    assert np.allclose(gm32, gm, rtol=1e-3, atol=1e-4)


def test_reductions_of_views():
    # np.sum, np.mean, np.max of views that are neither C- nor F-ordered:
    # Numba's loop over them addresses elements as
    # `gep i8, inttoptr(row offset), address` (the address in the index),
    # and both modes gave a derivative of exactly zero without a word.
    def views(a):
        return (np.sum(a[1:, 1:]) * np.sum(a ** 2) + np.mean(a[:, ::2])
                + np.max(a[::2, 1:]))

    rng = np.random.default_rng(5)
    a = rng.uniform(0.5, 1.5, size=(4, 5))
    plain = numba.njit(views)
    ref = np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[idx] += 1e-6
        down[idx] -= 1e-6
        ref[idx] = (plain(up) - plain(down)) / 2e-6
    grad = enzyme_reverse()(views)(a)
    assert np.allclose(grad, ref, rtol=1e-6, atol=1e-7)
    t = rng.normal(size=a.shape)
    tangent = enzyme_forward()(views)(a, tangents={"a": t})
    assert tangent == pytest.approx(float(np.sum(ref * t)), rel=1e-6)


def test_read_only_arrays():
    # A read-only array is a type of its own to Numba: reading it works,
    # writing into it is Numba's typing error as for a plain call. (The
    # version compiled for a writable array was reused: it scaled the
    # read-only array in place, and crashed on a read-only memory map.)
    def scale_in_place(x, a):
        x *= a
        return np.sum(x ** 2)

    def read_only(x, a):
        return np.sum(x ** 2) * a

    grad = enzyme_reverse()(scale_in_place)
    gx, ga = grad(np.ones(3), 2.0)
    assert np.allclose(gx, 8.0) and ga == pytest.approx(12.0)
    frozen = np.array([1.0, 2.0, 3.0])
    frozen.flags.writeable = False
    with pytest.raises(numba.core.errors.TypingError):
        grad(frozen, 2.0)
    assert np.array_equal(frozen, [1.0, 2.0, 3.0])
    gx, ga = enzyme_reverse()(read_only)(frozen, 2.0)
    assert np.allclose(gx, 4.0 * frozen) and ga == pytest.approx(14.0)


def test_mlp_loss_against_finite_differences():
    rng = np.random.default_rng(1)
    w1 = rng.normal(size=(3, 4))
    w2 = rng.normal(size=(4,))
    x = rng.normal(size=(5, 3))
    y = rng.normal(size=(5,))
    grad = enzyme_reverse(enzyme_dup=["w1", "w2"])(mlp_loss)
    g1, g2 = grad(w1, w2, x, y)
    for w, g in ((w1, g1), (w2, g2)):
        for idx in np.ndindex(w.shape):
            old = w[idx]
            w[idx] = old + 1e-6
            up = mlp_loss(w1, w2, x, y)
            w[idx] = old - 1e-6
            down = mlp_loss(w1, w2, x, y)
            w[idx] = old
            assert g[idx] == pytest.approx((up - down) / 2e-6, rel=1e-5,
                                           abs=1e-8)


def test_forward_with_array_tangents():
    fwd = enzyme_forward(enzyme_const="w")(energy)
    rev = enzyme_reverse(enzyme_const="w")(energy)
    a = np.array([0.3, -0.7, 1.1, 0.45, -1.3])
    direction = np.array([1.0, 0.5, -2.0, 0.25, 3.0])
    assert fwd(a, 1.5, tangents={"a": direction}) == pytest.approx(
        float(rev(a, 1.5) @ direction), rel=1e-12)


def test_torch_compat():
    # torch_compat=True: a PyTorch function whose backward gives the
    # library's gradients (checked with torch.autograd.gradcheck), usable
    # inside a model: loss.backward() reaches the parameters through it.
    torch = pytest.importorskip("torch")

    @enzyme_reverse(enzyme_const="scale", torch_compat=True)
    def energy(x, w, scale):
        s = 0.0
        for i in range(x.shape[0]):
            s += np.tanh(w[i] * x[i]) ** 2 * scale
        return s

    x = torch.tensor([0.3, -0.7, 1.1, 0.45], dtype=torch.float64,
                     requires_grad=True)
    w = torch.tensor([1.5, 0.2, -0.4, 0.9], dtype=torch.float64,
                     requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b: energy(a, b, 2.0), (x, w))

    value = energy(x, w, 2.0)
    want = float(torch.sum(torch.tanh(w * x) ** 2 * 2.0))
    assert float(value) == pytest.approx(want, rel=1e-12)
    # Inside a model: a linear layer feeds the Numba function.
    torch.manual_seed(0)
    layer = torch.nn.Linear(4, 4).double()
    inputs = torch.randn(4, dtype=torch.float64)
    loss = 3.0 * energy(layer(inputs), w, 2.0)
    loss.backward()
    reference = torch.nn.Linear(4, 4).double()
    reference.load_state_dict(layer.state_dict())
    w2 = w.detach().clone().requires_grad_(True)
    expected = 3.0 * torch.sum(torch.tanh(w2 * reference(inputs)) ** 2 * 2.0)
    expected.backward()
    assert torch.allclose(layer.weight.grad, reference.weight.grad, rtol=1e-12)
    assert torch.allclose(w.grad, w2.grad, rtol=1e-12)


def test_three_and_four_dimensions():
    # Arrays of any number of dimensions (two was the limit): reverse and
    # forward mode, .jit, Fortran order and strided views (copies written
    # back), a custom adjoint taking a 3-D array; against the formula.
    def weighted(x, w):
        s = 0.0
        for i in range(x.shape[0]):
            for j in range(x.shape[1]):
                for k in range(x.shape[2]):
                    s += np.sin(x[i, j, k]) * w[k] * (i + 1)
        return s

    def formula(x, w):
        return (np.cos(x) * w[None, None, :] *
                (np.arange(x.shape[0])[:, None, None] + 1))

    grad = enzyme_reverse(enzyme_dup=("x", "w"))(weighted)
    tangent = enzyme_forward()(weighted)
    rng = np.random.default_rng(3)
    x, w = rng.random((2, 3, 4)), rng.random(4)
    gx, gw = grad(x, w)
    assert np.allclose(gx, formula(x, w), rtol=1e-13, atol=0)
    by_w = np.sum(np.sin(x) * (np.arange(2)[:, None, None] + 1), axis=(0, 1))
    assert np.allclose(gw, by_w, rtol=1e-13, atol=0)
    assert gw[1] == pytest.approx(
        fd(lambda v: weighted(x, np.array([w[0], v, w[2], w[3]])),
           [w[1]], 0), rel=1e-6)
    gx_jit, gw_jit = grad.jit(x, w)
    assert np.array_equal(gx_jit, gx) and np.array_equal(gw_jit, gw)
    gf, _ = grad(np.asfortranarray(x), w)
    assert gf.flags.f_contiguous and np.allclose(gf, gx, rtol=1e-15)
    view = rng.random((4, 3, 8))[::2, :, ::2]
    gv, _ = grad(view, w)
    assert np.allclose(gv, formula(view, w), rtol=1e-13, atol=0)
    t = rng.random((2, 3, 4))
    want = np.sum(formula(x, w) * t)
    assert tangent(x, w, tangents={"x": t}) == pytest.approx(want, rel=1e-13)
    assert tangent.jit(x, w, t, np.zeros(4)) == pytest.approx(want, rel=1e-13)

    @enzyme_reverse(enzyme_dup="x")
    def cubes(x):
        return np.sum(x * x * x)

    x4 = rng.random((2, 2, 2, 3))
    assert np.allclose(cubes(x4), 3 * x4 * x4, rtol=1e-14, atol=0)

    assert np.allclose(_outer_of_cube(x), 6 * x, rtol=1e-15, atol=0)


@numba.njit
def _sum_squares(a):
    return np.sum(a * a)


@custom_adjoint(_sum_squares)
def _sum_squares_vjp(a, dout, da):
    da += 2.0 * dout * a


@enzyme_reverse(enzyme_dup="x")
def _outer_of_cube(x):
    return _sum_squares(x) * 3.0


def test_torch_compat_integer_first_and_plain_scalar():
    # The value has the function's result type, not the first tensor's (an
    # integer tensor first made it an integer tensor, which backward()
    # refused); an active scalar given as a plain number gets no gradient
    # (backward() used to fail on it), given as a tensor it gets its own.
    torch = pytest.importorskip("torch")

    @enzyme_reverse(enzyme_const="n", torch_compat=True)
    def head_sum(n, x, s):
        t = 0.0
        for i in range(n):
            t += x[i] * s
        return t + 0.25

    n = torch.tensor(2)
    x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    value = head_sum(n, x, 1.5)
    assert value.dtype == torch.float64
    assert float(value) == pytest.approx(4.75, rel=1e-15)
    value.backward()
    assert x.grad.tolist() == [1.5, 1.5, 0.0]
    x.grad = None
    s = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
    head_sum(n, x, s).backward()
    assert x.grad.tolist() == [1.5, 1.5, 0.0]
    assert float(s.grad) == pytest.approx(3.0, rel=1e-15)


def test_iteration_and_row_sums():
    # `for v in x` and np.sum(A, axis=1) in reverse mode (refused before:
    # Numba's loop keeps the element address in an integer phi).
    @enzyme_reverse()
    def squares(x):
        s = 0.0
        for v in x:
            s += v * v
        return s

    @enzyme_reverse()
    def row_sums(A):
        return np.sum(np.sum(A, axis=1) ** 2)

    x = np.arange(1.0, 6.0)
    assert np.allclose(squares(x), 2 * x, rtol=1e-15, atol=0)
    A = np.arange(1.0, 7.0).reshape(2, 3)
    want = 2 * np.repeat(A.sum(axis=1)[:, None], 3, axis=1)
    assert np.allclose(row_sums(A), want, rtol=1e-15, atol=0)


def test_messages_name_python_functions_and_scalar_kinds_stay():
    # The core's diagnostics name the Python functions, not Numba's
    # mangled symbols; an integer where an earlier call had a float (which
    # silently changed the gradients returned) is an error.
    @enzyme_reverse()
    def weighted(x, a):
        return np.sum(x * x) * a

    x = np.array([1.0, 2.0])
    gx, ga = weighted(x, 2.0)
    assert gx.tolist() == [4.0, 8.0] and ga == 5.0
    with pytest.raises(AutodiffError, match="is an integer here and was a float"):
        weighted(x, 2)

    from autodiff_numba._capi import readable
    text = readable("in function `cfunc._ZN13_3cdynamic_3e8callbackB2v8B44c8t"
                    "JTIcFHzwl2ILiXkcBV0KBSiNiHkkANTZhEkUQPZoAE10float64_2ax` "
                    "(while generating `diffe_cfunc._ZN13_3cdynamic_3e8callback"
                    "B2v8B44c8tE10float64_2ax`), call to `_ZN5numba2np6linalg15"
                    "outer_impl_noneB3v45B42c8tJTIcFHzwl2ILiXkcBV0KBSmNG`")
    assert text == ("in function `the C callback` (while generating `diffe_the "
                    "C callback`), call to `numba.np.linalg.outer_impl_none`")


def test_numpy_math_helpers():
    # Numba calls NumPy's npymath (`npy_log2`, `npy_exp2`, `npy_logaddexp`)
    # and its own helpers (`numba_gamma`): derivatives in both modes (they
    # were "no body and no derivative rule").
    cases = {
        "log2": (lambda x: np.log2(x), lambda x: 1 / (x * math.log(2))),
        "exp2": (lambda x: np.exp2(x), lambda x: 2 ** x * math.log(2)),
        "logaddexp": (lambda x: np.logaddexp(x, 0.5),
                      lambda x: math.exp(x) / (math.exp(x) + math.exp(0.5))),
        "logaddexp2": (lambda x: np.logaddexp2(x, 0.5),
                       lambda x: 2 ** x / (2 ** x + 2 ** 0.5)),
        "gamma": (lambda x: math.gamma(x), None),
    }
    for name, (f, exact) in cases.items():
        x = 1.3
        g = enzyme_reverse()(f)(x)
        d = enzyme_forward()(f)(x, tangents={f.__code__.co_varnames[0]: 1.0})
        want = exact(x) if exact else fd(f, [x], 0)
        assert g == pytest.approx(want, rel=1e-6 if exact is None else 1e-13), name
        assert d == pytest.approx(g, rel=1e-13), name


def test_aliased_active_arrays():
    # The same memory for two active arrays has no gradient for each (the
    # two shadows gave 6a where the call's derivative is 8a).
    @enzyme_reverse()
    def doubled_dot(x, y):
        for i in range(x.shape[0]):
            x[i] = 2.0 * x[i]
        return np.sum(x * y)

    a = np.array([1.0, 2.0, 3.0])
    with pytest.raises(AutodiffError, match="share memory"):
        doubled_dot(a, a)
    with pytest.raises(AutodiffError, match="share memory"):
        doubled_dot(a[:2], a[1:])
    gx, gy = doubled_dot(a.copy(), a.copy())
    assert gx.tolist() == [2.0, 4.0, 6.0] and gy.tolist() == [2.0, 4.0, 6.0]


def test_shadow_and_tangent_checks():
    # A read-only shadow array, shadows= naming an active scalar, and a
    # forward .jit tangent of another shape are errors (the first two were
    # ignored or written silently, the last read past the tangent's end).
    @enzyme_reverse()
    def weighted(x, a):
        return np.sum(x * x) * a

    frozen = np.zeros(3)
    frozen.flags.writeable = False
    with pytest.raises(AutodiffError, match="read-only"):
        weighted(np.ones(3), 2.0, shadows={"x": frozen})
    with pytest.raises(AutodiffError, match="a scalar: its gradient is returned"):
        weighted(np.ones(3), 2.0, shadows={"a": np.zeros(1)})

    @enzyme_reverse()
    def scalars(a, b):
        return a * b

    with pytest.raises(AutodiffError, match="a scalar"):
        scalars(1.0, 2.0, shadows={"a": np.zeros(1)})

    @enzyme_forward()
    def total(x):
        return np.sum(x * x)

    x = np.arange(5.0)
    assert total.jit(x, np.ones(5)) == pytest.approx(2 * np.sum(x))
    with pytest.raises(ValueError, match="must have its shape"):
        total.jit(x, np.ones(3))
    with pytest.raises(ValueError, match="must have its shape"):
        total.jit(x, 1.0)


def test_torch_compat_first_order_only_and_inputs_kept():
    # Second derivatives through torch_compat are refused (they came out
    # without the function's curvature), and a function updating its
    # argument in place leaves the tensor alone.
    torch = pytest.importorskip("torch")

    @enzyme_reverse(torch_compat=True)
    def cube_sum(x):
        return np.sum(x ** 3)

    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    loss = cube_sum(x) * torch.sum(x)
    (g,) = torch.autograd.grad(loss, x)
    assert g.tolist() == pytest.approx([3 * 3 + 9, 12 * 3 + 9])
    with pytest.raises(RuntimeError, match="first derivatives only"):
        torch.autograd.grad(cube_sum(x) * torch.sum(x), x, create_graph=True)

    @enzyme_reverse(torch_compat=True)
    def scale_first(x):
        x[0] = 10.0 * x[0]
        return x[0] + x[1]

    y = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    value = scale_first(y)
    value.backward()
    assert y.detach().tolist() == [1.0, 2.0]
    assert float(value) == 12.0 and y.grad.tolist() == [10.0, 1.0]


def test_exceptions_and_print_inside():
    # An exception inside the function is raised by the derivative's call,
    # with its own type and message, in both modes and through .jit (Numba
    # used to print "Exception ignored" and the call returned zero
    # gradients). print() inside the function prints (it used to stop the
    # call with "missing Environment").
    @enzyme_reverse(enzyme_dup="x")
    def checked(x, s):
        if s < 0:
            raise ValueError("negative scale")
        return np.sum(x * x) * s

    @enzyme_forward()
    def checked_forward(x, s):
        if s < 0:
            raise ValueError("negative scale")
        return np.sum(x * x) * s

    @enzyme_reverse()
    def ratio(a, b):
        return a / b

    x = np.array([1.0, 2.0])
    assert checked(x, 2.0).tolist() == [4.0, 8.0]
    with pytest.raises(ValueError, match="negative scale"):
        checked(x, -1.0)
    with pytest.raises(ValueError, match="negative scale"):
        checked.jit(x, -1.0)
    assert x.tolist() == [1.0, 2.0]
    assert checked.jit(x, 3.0).tolist() == [6.0, 12.0]
    assert checked_forward(x, 2.0, tangents={"s": 1.0}) == 5.0
    with pytest.raises(ValueError, match="negative scale"):
        checked_forward(x, -2.0, tangents={"s": 1.0})
    assert ratio(1.0, 2.0) == (0.5, -0.25)
    with pytest.raises(ZeroDivisionError):
        ratio(1.0, 0.0)

    @enzyme_reverse(enzyme_dup="x")
    def chatty(x, s):
        print("chatty", s)
        return np.sum(x * x) * s

    assert chatty(x, 2.0).tolist() == [4.0, 8.0]
    assert chatty.jit(x, 1.0).tolist() == [2.0, 4.0]


def test_jit_dispatcher():
    # derivative.jit: the same gradients through a Numba dispatcher, from
    # Python and from @njit code; scalars, arrays and val_and_grad.
    import numba

    def energy(x, w, scale):
        s = 0.0
        for i in range(x.shape[0]):
            s += np.tanh(w[i] * x[i]) ** 2 * scale
        return s

    grad = enzyme_reverse(enzyme_const="scale", val_and_grad=True)(energy)
    x = np.array([0.3, -0.7, 1.1, 0.45])
    w = np.array([1.5, 0.2, -0.4, 0.9])
    value, (gx, gw) = grad.jit(x, w, 2.0)
    want_value, (want_gx, want_gw) = grad(x, w, 2.0)
    assert value == want_value
    assert np.array_equal(gx, want_gx) and np.array_equal(gw, want_gw)
    t = np.tanh(w * x)
    assert np.allclose(gx, 2.0 * 2 * t * (1 - t ** 2) * w, rtol=1e-12)

    product = enzyme_reverse(enzyme_const="x")(lambda x, y: x * y)
    inner = product.jit

    @numba.njit
    def twice(x, y):
        return 2.0 * inner(x, y)

    assert twice(3.0, 5.0) == 6.0


def sine_sum(a, w, n):
    s = 0.0
    for i in range(a.shape[0]):
        s += np.sin(a[i] * w) * n
    return s


def test_jit_forward():
    """Forward mode's `.jit`: the arguments, then a tangent per parameter
    not named constant; the same directional derivative as the decorated
    call and as the reverse gradient's dot product, from Python and from
    @njit code, with val_and_grad and with a strided array."""
    import numba
    tangent = enzyme_forward(enzyme_const="n")(sine_sum)
    grad = enzyme_reverse(enzyme_const="n")(sine_sum)
    a = np.linspace(0.1, 1.0, 5)
    ta = np.linspace(-0.5, 0.5, 5)
    da, dw = grad(a, 2.0, 3)
    expect = float(np.dot(da, ta)) + dw * 1.5
    assert tangent.jit(a, 2.0, 3, ta, 1.5) == pytest.approx(expect, rel=1e-12)
    assert tangent.jit(a, 2.0, 3, ta, 1.5) == pytest.approx(
        tangent(a, 2.0, 3, tangents={"a": ta, "w": 1.5}), rel=1e-14)
    along_a = tangent.jit

    @numba.njit
    def directional(x, v):
        return along_a(x, 2.0, 3, v, 0.0)

    assert directional(a, ta) == pytest.approx(float(np.dot(da, ta)),
                                               rel=1e-12)
    both = enzyme_forward(enzyme_const="n", val_and_grad=True)(sine_sum)
    value, derivative = both.jit(a[::2], 2.0, 3, ta[:3], 0.0)
    assert value == pytest.approx(sine_sum(a[::2], 2.0, 3), rel=1e-14)
    assert derivative == pytest.approx(float(np.dot(grad(
        np.ascontiguousarray(a[::2]), 2.0, 3)[0], ta[:3])), rel=1e-12)
