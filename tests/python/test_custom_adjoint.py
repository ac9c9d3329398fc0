"""Hand-written adjoints of inner @njit functions (`custom_adjoint`): the
registered adjoint is used instead of differentiating the inner function
(shown by adjoints that differ from the true derivative on purpose), for
scalars, arrays (the adjoint increments their shadows), float32, calls in
a loop and through an @njit helper; gradients with true adjoints against
finite differences; the error paths."""
import numba
import numpy as np
import pytest

from autodiff_numba import (AutodiffError, custom_adjoint, enzyme_forward,
                            enzyme_reverse)
from fdhelp import fd


@numba.njit
def scaled_norm(x, s):
    return np.sum(x * x) * s


@custom_adjoint(scaled_norm)
def scaled_norm_vjp(x, s, dout, dx):
    dx += 2.0 * s * dout * x
    return np.sum(x * x) * dout


def test_array_and_scalar_against_finite_differences():
    @enzyme_reverse(enzyme_dup=("x", "s"))
    def outer(x, s):
        return scaled_norm(x, s) * 3.0 + s * s

    x = np.array([1.0, 2.0, -3.0])
    dx, ds = outer(x, 2.0)
    assert np.allclose(dx, 12.0 * x)
    assert ds == pytest.approx(3.0 * 14.0 + 4.0)

    def primal(x0, x1, x2, s):
        y = np.array([x0, x1, x2])
        return np.sum(y * y) * s * 3.0 + s * s

    args = [x[0], x[1], x[2], 2.0]
    for k in range(3):
        assert dx[k] == pytest.approx(fd(primal, args, k), rel=1e-6)
    assert ds == pytest.approx(fd(primal, args, 3), rel=1e-6)


@numba.njit
def product3(a, b, k):
    return a * b * k


@custom_adjoint(product3)
def product3_marked(a, b, k, dout):
    # Not the derivative: shows the adjoint is what is used.
    return 100.0 * dout, 1000.0 * dout


def test_registered_adjoint_is_used():
    @enzyme_reverse()
    def g(a, b):
        return product3(a, b, 2) + a

    assert g(1.0, 2.0) == (101.0, 1000.0)


@numba.njit
def softplus(x):
    return np.log1p(np.exp(x))


@custom_adjoint(softplus)
def softplus_vjp(x, dout):
    return dout / (1.0 + np.exp(-x))


@numba.njit
def helper(x, n):
    total = 0.0
    for i in range(n):
        total += softplus(x[i] * (i + 1))
    return total


def test_in_a_loop_through_a_helper():
    # softplus is called from an @njit helper, once per element; each call
    # gets its own adjoint call in the reverse sweep.
    @enzyme_reverse(enzyme_dup="x")
    def loss(x, n):
        return helper(x, n) * 2.0

    x = np.array([0.5, -1.0, 2.0, 0.25])
    grad = loss(x, 4)
    expect = [2.0 * (i + 1) / (1.0 + np.exp(-(i + 1) * x[i]))
              for i in range(4)]
    assert np.allclose(grad, expect, rtol=1e-12)


@numba.njit
def weighted(x, w):
    return np.sum(x * w)


@custom_adjoint(weighted)
def weighted_vjp(x, w, dout, dx, dw):
    dx += 7.0 * dout  # marked: the true adjoint of x is w * dout
    dw += x * dout


def test_float32_arrays_and_no_scalar_gradients():
    @enzyme_reverse(enzyme_dup=("x", "w"))
    def f(x, w):
        return weighted(x, w)

    x = np.array([1.0, 2.0], dtype=np.float32)
    w = np.array([3.0, 4.0], dtype=np.float32)
    dx, dw = f(x, w)
    assert dx.dtype == np.float32
    assert np.allclose(dx, [7.0, 7.0])
    assert np.allclose(dw, x)


def test_forward_mode_differentiates_the_inner_function():
    @enzyme_forward(enzyme_dup="a")
    def h(a, b):
        return product3(a, b, 2)

    assert h(1.5, 4.0, tangents={"a": 1.0}) == pytest.approx(8.0)


@numba.njit
def two_results(a, b):
    return a * b


@custom_adjoint(two_results)
def two_results_wrong(a, b, dout):
    return dout * b  # one gradient where two float arguments need two


def test_errors():
    with pytest.raises(AutodiffError, match="not an @njit function"):
        custom_adjoint(lambda x: x)
    with pytest.raises(AutodiffError, match="could not be compiled"):
        enzyme_reverse()(lambda a, b: two_results(a, b))(1.0, 2.0)


@numba.njit
def squared_norm(x):
    return np.sum(x * x)


@custom_adjoint(squared_norm)
def squared_norm_vjp(x, dout, dx):
    dx += 2.0 * dout * x


def test_adjoint_sees_the_arrays_of_the_call():
    """The adjoint reads the array arguments as the call saw them (a copy on
    the rule's tape): a temporary Numba frees after the call (it read freed
    memory, a gradient of about -5e57 without an error; Numba-user hunt),
    and an array the function overwrites after the call."""
    @enzyme_reverse()
    def on_temporary(x):
        return squared_norm(x * 2.0)

    @enzyme_reverse()
    def then_overwritten(x):
        y = x * 1.0
        s = squared_norm(y)
        for i in range(y.shape[0]):
            y[i] = 0.0
        return s + np.sum(y)

    x = np.array([1.0, 2.0, -3.0])
    assert np.allclose(on_temporary(x), 8.0 * x, rtol=1e-14)
    assert np.allclose(then_overwritten(x), 2.0 * x, rtol=1e-14)


@numba.njit
def _late_square(a):
    return a * a


def _calls_late_square(a):
    return _late_square(a)


def test_adjoint_registered_after_first_use():
    # A derivative used before an adjoint of a function it calls was
    # registered uses the adjoint afterwards, for the signatures it had
    # compiled too (it kept differentiating the function itself).
    grad = enzyme_reverse()(_calls_late_square)
    assert grad(3.0) == pytest.approx(6.0)

    @custom_adjoint(_late_square)
    def _late_square_vjp(a, dout):
        return 100.0 * dout  # deliberately not the derivative: visible

    assert grad(3.0) == pytest.approx(100.0)
    assert grad(np.float32(3.0)) == pytest.approx(100.0)


@numba.njit
def doubled(x):
    return x * 2.0


@custom_adjoint(doubled)
def doubled_marked(x, dout):
    return 5.0 * dout  # Not the derivative: shows the adjoint is used.


def test_several_adjoints_in_one_function():
    # Two registered functions, one of them at two argument types (two
    # instances): each brings its rule glue into one module (its
    # declarations of malloc and free came twice, and the module was
    # rejected as invalid IR).
    @enzyme_reverse(enzyme_dup="x")
    def outer(x):
        return doubled(x[0]) + doubled(np.int64(3)) + squared_norm(x)

    x = np.array([0.5, -1.5, 2.0])
    g = outer(x)
    assert np.allclose(g, [5.0 + 2 * 0.5, 2 * -1.5, 2 * 2.0])


def test_unsupported_argument_is_the_package_error():
    # A registered function called with an argument its adjoint cannot
    # take (a strided view): the package's own error, not Numba's
    # TypingError around it.
    @enzyme_reverse(enzyme_dup="x")
    def outer(x):
        return squared_norm(x[::2])

    with pytest.raises(AutodiffError, match="array.*is not supported"):
        outer(np.arange(6.0))
