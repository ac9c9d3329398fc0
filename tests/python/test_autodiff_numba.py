"""The Numba package (python/autodiff_numba), as a Numba user calls it:
gradients of @enzyme_reverse / @enzyme_forward functions against finite
differences or the exact formula, the talk's seed case (a * b gives (b, a)),
float32, constants, the per-signature cache, and the error path."""
import math

import numpy as np
import pytest

from autodiff_numba import (AutodiffError, enzyme_forward, enzyme_reverse,
                            version)


def fd(f, args, k, h=1e-6):
    up = list(args)
    down = list(args)
    up[k] += h
    down[k] -= h
    return (f(*up) - f(*down)) / (2 * h)


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


def test_errors():
    @enzyme_reverse()
    def total(x):
        return x.sum()

    with pytest.raises(AutodiffError, match="only float64, float32"):
        total(np.zeros(3))
    with pytest.raises(AutodiffError, match="no parameter named z"):
        enzyme_reverse(enzyme_dup="z")(lambda x: x)
    with pytest.raises(AutodiffError, match="cannot be active"):
        enzyme_reverse(enzyme_dup="n")(plain_loop)(1.0, 2.0, 3)


def test_three_active_and_value_in_one_sweep():
    def h(a, b, c):
        return a * b * c + math.sin(a * c)

    grad = enzyme_reverse(val_and_grad=True)(h)
    args = (0.3, -1.7, 2.2)
    value, (ga, gb, gc) = grad(*args)
    assert value == pytest.approx(h(*args))
    for k, g in enumerate((ga, gb, gc)):
        assert g == pytest.approx(fd(h, args, k), rel=1e-6)
