"""Python call overhead of autodiff_numba: one call of the derivative of
product(x, y) = x * y (enzyme_reverse, y active), through the decorated
object and through its `.jit` dispatcher, against one call of the same
function compiled by numba.njit, all with float arguments; best of five
runs of 100,000 calls each (timeit). Run from the repository root
after the build:

    PYTHONPATH=python /usr/bin/python3.11 bench/python_overhead.py
"""
import timeit

import numba

from autodiff_numba import enzyme_reverse


def product(x, y):
    return x * y


def main():
    grad = enzyme_reverse(enzyme_const="x", enzyme_dup="y")(product)
    primal = numba.njit(product)
    assert grad(3.0, 5.0) == 3.0 and primal(3.0, 5.0) == 15.0
    n = 100000
    t_primal = min(timeit.repeat(lambda: primal(3.0, 5.0), number=n,
                                 repeat=5)) / n
    t_grad = min(timeit.repeat(lambda: grad(3.0, 5.0), number=n,
                               repeat=5)) / n
    fast = grad.jit
    assert fast(3.0, 5.0) == 3.0
    t_fast = min(timeit.repeat(lambda: fast(3.0, 5.0), number=n,
                               repeat=5)) / n
    print("njit call %.2f us, gradient call %.2f us, ratio %.2f; "
          "through .jit %.2f us, ratio %.2f"
          % (t_primal * 1e6, t_grad * 1e6, t_grad / t_primal,
             t_fast * 1e6, t_fast / t_primal))


if __name__ == "__main__":
    main()
