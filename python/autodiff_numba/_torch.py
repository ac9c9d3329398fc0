"""torch_compat: a Numba function with a derivative, as a PyTorch function.

`enzyme_reverse(..., torch_compat=True)` returns a callable that takes
tensors (or numbers) and returns a 0-dim tensor holding the function's
value; `backward()` through it gives each active argument the gradient the
library computed, scaled by the incoming gradient (the function returns a
scalar, so that is its vector-Jacobian product). Inactive arguments get no
gradient. Arguments cross as NumPy arrays (C-contiguous copies on the CPU)
and scalars; the forward pass computes the value and the gradient in one
call, so the backward pass only scales.
"""


def _to_numpy(value):
    import numpy as np
    import torch
    if not torch.is_tensor(value):
        return value
    array = value.detach().cpu().numpy()
    if array.ndim == 0:
        return array.item()
    # A copy: a function that updates an argument in place must not change
    # a tensor behind autograd's back.
    return np.array(array, order="C", copy=True)


class TorchFunction:
    """Calls `derivative` (a val_and_grad reverse _Derivative) from a
    torch.autograd.Function."""

    def __init__(self, derivative):
        import torch

        class _Apply(torch.autograd.Function):
            @staticmethod
            def forward(ctx, *args):
                values = [_to_numpy(a) for a in args]
                value, grads = derivative(*values)
                entry = derivative._entry(values)
                plan, types = entry[3], entry[4]
                active = [a.index for a in plan if a.active]
                if len(active) == 1:
                    grads = (grads,)
                # A gradient for each tensor argument (autograd takes
                # none for an argument that is no tensor: a plain number).
                per_arg = [None] * len(args)
                for index, grad in zip(active, grads):
                    like = args[index]
                    if torch.is_tensor(like):
                        per_arg[index] = torch.as_tensor(grad, dtype=like.dtype)
                ctx.grads = per_arg
                # The value in the function's own result type (not the
                # first tensor's: an index tensor would truncate it).
                ret = derivative._njit.overloads[types].signature.return_type
                dtype = torch.float32 if str(ret) == "float32" else torch.float64
                return torch.tensor(value, dtype=dtype)

            @staticmethod
            def backward(ctx, grad_output):
                # The gradient is a constant here: its own derivative (a
                # second derivative, create_graph=True) would be silently
                # missing the function's curvature.
                if torch.is_grad_enabled():
                    raise RuntimeError(
                        "%s: torch_compat gives first derivatives only; "
                        "backward with create_graph=True (a second "
                        "derivative) is not supported" % derivative.func.__name__)
                return tuple(None if g is None else g * grad_output
                             for g in ctx.grads)

        self._apply = _Apply.apply
        self.__name__ = derivative.func.__name__
        self.__doc__ = derivative.func.__doc__

    def __call__(self, *args):
        return self._apply(*args)
