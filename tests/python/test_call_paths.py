"""The two ways a decorated reverse-mode derivative is called: its first
call (and any call with `shadows=`) goes through the package's Python
path, which compiles and checks; later calls without keyword arguments go
through the Numba dispatcher of `.jit` (bench/python_overhead.py). Both
must give the same results, and the checks of the first path (arrays
sharing memory, a scalar changing kind, exceptions, adjoints registered
late) must hold on the second."""
import numba
import numpy as np
import pytest

from autodiff_numba import AutodiffError, custom_adjoint, enzyme_reverse


def _same(a, b):
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray)
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.flags.f_contiguous == b.flags.f_contiguous
        assert np.array_equal(a, b)
    else:
        assert type(a) is type(b) and a == b


def _calls_agree(grad, *args):
    """The first call (Python path) and two later ones (dispatcher) give
    the same results; the arguments are copied for each call."""
    def fresh():
        return [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    first = grad(*fresh())
    assert grad._fast_call is not None
    second = grad(*fresh())
    third = grad(*fresh())
    _same(first, second)
    _same(second, third)
    return first


def test_results_agree_across_paths():
    def product(x, y):
        return x * y
    g = _calls_agree(enzyme_reverse(enzyme_const="x", enzyme_dup="y")(product),
                     3.0, 5.0)
    assert g == 3.0

    def three(a, b, c):
        return a * b * c + np.sin(a)
    v, g = _calls_agree(enzyme_reverse(val_and_grad=True)(three),
                        0.5, 2.0, 3.0)
    assert v == pytest.approx(3.0 + np.sin(0.5))
    assert g == pytest.approx((6.0 + np.cos(0.5), 1.5, 1.0))

    def weighted(x, w, n):
        s = 0.0
        for i in range(n):
            s += w * x[i] * x[i]
        return s
    x = np.array([1.0, -2.0, 0.5])
    gx, gw = _calls_agree(enzyme_reverse(enzyme_const="n")(weighted),
                          x, 2.0, 3)
    assert np.allclose(gx, 4.0 * x) and gw == pytest.approx(np.sum(x * x))

    def matrix(a):
        return np.sum(np.tanh(a) * a)
    a = np.arange(6.0).reshape(2, 3) / 7.0
    for arg in (a, np.asfortranarray(a), a.astype(np.float32)):
        g = _calls_agree(enzyme_reverse()(matrix), arg)
        want = np.tanh(arg) + arg * (1.0 - np.tanh(arg) ** 2)
        assert np.allclose(g, want, rtol=1e-5)


def test_sharing_checked_on_both_paths():
    @enzyme_reverse()
    def doubled_dot(x, y):
        for i in range(x.shape[0]):
            x[i] = 2.0 * x[i]
        return np.sum(x * y)

    a = np.array([1.0, 2.0, 3.0, 4.0])
    _calls_agree(doubled_dot, a[:2], a[2:])
    with pytest.raises(AutodiffError, match="share memory"):
        doubled_dot(a, a)
    with pytest.raises(AutodiffError, match="share memory"):
        doubled_dot(a[:3], a[1:])
    # Interleaved views overlap in extent, not in elements: allowed.
    b = np.array([1.0, 2.0, 3.0, 4.0])
    gx, gy = doubled_dot(b[::2], b[1::2])
    assert gx.tolist() == [4.0, 8.0] and gy.tolist() == [2.0, 6.0]


def test_scalar_kind_and_exceptions_on_the_fast_path():
    @enzyme_reverse(enzyme_const="x")
    def guarded(x, y):
        if y < 0.0:
            raise ValueError("y must not be negative")
        return x * y * y

    assert guarded(2.0, 3.0) == 12.0
    assert guarded(2.0, 3.0) == 12.0  # the dispatcher
    with pytest.raises(ValueError, match="must not be negative"):
        guarded(2.0, -1.0)
    with pytest.raises(AutodiffError):
        guarded(2.0, 3)  # y was a float: an integer now is an error
    assert guarded(2.0, 1.5) == 6.0


@numba.njit
def _cube(a):
    return a * a * a


def _calls_cube(a):
    return _cube(a) + a


def test_adjoint_registered_after_the_dispatcher_was_used():
    grad = enzyme_reverse()(_calls_cube)
    assert grad(2.0) == pytest.approx(13.0)
    assert grad(2.0) == pytest.approx(13.0)  # the dispatcher
    old_jit = grad.jit
    assert old_jit(2.0) == pytest.approx(13.0)

    @custom_adjoint(_cube)
    def _cube_vjp(a, dout):
        return 100.0 * dout  # deliberately not the derivative: visible

    assert grad(2.0) == pytest.approx(101.0)
    assert grad(2.0) == pytest.approx(101.0)
    assert grad.jit is not old_jit and grad.jit(2.0) == pytest.approx(101.0)


def test_decorating_a_function_numba_compiled():
    # `@enzyme_reverse()` above `@numba.njit` (Numba refused to compile
    # its dispatcher again); the options it was given are kept.
    @enzyme_reverse(val_and_grad=True)
    @numba.njit
    def f(x, y):
        return x * y + np.sin(x)

    v, g = _calls_agree(f, 1.0, 2.0)
    assert v == pytest.approx(2.0 + np.sin(1.0))
    assert g == pytest.approx((2.0 + np.cos(1.0), 1.0))

    @enzyme_reverse(enzyme_const="y")
    @numba.njit(fastmath=True)
    def g2(x, y):
        return x * x * y
    assert _calls_agree(g2, 3.0, 2.0) == 12.0

    from autodiff_numba import enzyme_forward

    @enzyme_forward()
    @numba.njit
    def h(x):
        return np.exp(x)
    assert h(1.0, tangents={"x": 2.0}) == pytest.approx(2.0 * np.e)
