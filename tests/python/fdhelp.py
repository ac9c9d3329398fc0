"""Central finite differences for the Numba package's tests."""


def fd(f, args, k, h=1e-6):
    """d f / d args[k] at args, by a central difference of step h."""
    up = list(args)
    down = list(args)
    up[k] += h
    down[k] -= h
    return (f(*up) - f(*down)) / (2 * h)
