"""Python call overhead of autodiff_numba: one call of a derivative
through the decorated object and through its `.jit` dispatcher, against
one call of the same function compiled by numba.njit; best of five runs
of 100,000 calls each (timeit). Two functions: product(x, y) = x * y with
float arguments (y active), and the sum of squares of an 8-element array
(active: its gradient is a new array each call, which the primal call
does not allocate; an @njit function that only returns np.zeros_like(x)
is timed too, as the cost Numba itself has for returning a new array).
Run from the repository root after the build:

    PYTHONPATH=python /usr/bin/python3.11 bench/python_overhead.py
"""
import timeit

import numba
import numpy as np

from autodiff_numba import enzyme_reverse


def product(x, y):
    return x * y


def sum_of_squares(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * x[i]
    return s


def per_call(f, *args):
    n = 100000
    return min(timeit.repeat(lambda: f(*args), number=n, repeat=5)) / n


def report(name, grad, primal, *args):
    grad(*args)  # compiled, then called through the dispatcher
    t_primal = per_call(primal, *args)
    t_grad = per_call(grad, *args)
    t_fast = per_call(grad.jit, *args)
    print("%s: njit call %.2f us, gradient call %.2f us, ratio %.2f; "
          "through .jit %.2f us, ratio %.2f"
          % (name, t_primal * 1e6, t_grad * 1e6, t_grad / t_primal,
             t_fast * 1e6, t_fast / t_primal))


def main():
    grad = enzyme_reverse(enzyme_const="x", enzyme_dup="y")(product)
    primal = numba.njit(product)
    assert grad(3.0, 5.0) == 3.0 and primal(3.0, 5.0) == 15.0
    report("product", grad, primal, 3.0, 5.0)
    x = np.linspace(0.0, 1.0, 8)
    grad = enzyme_reverse()(sum_of_squares)
    assert np.allclose(grad(x), 2.0 * x)
    report("sum_of_squares[8]", grad, numba.njit(sum_of_squares), x)
    fresh = numba.njit(lambda x: np.zeros_like(x))
    fresh(x)
    print("an njit call returning np.zeros_like(x): %.2f us"
          % (per_call(fresh, x) * 1e6))


if __name__ == "__main__":
    main()
