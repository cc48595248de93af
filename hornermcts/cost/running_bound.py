"""The running error bound's inner loop: every node's double value and first-order error bound, compiled.

:func:`~hornermcts.cost.accuracy.error_bounds` describes the bound (Higham's
running error bound) and lays the DAG out as arrays, one row per node of its
walk: a kind, two operands, and for a sum or a scaling each operand's
coefficient as ``(sign, number, rounding)`` (sign +-1: an exact negation or
copy; 0: a product by ``number`` that rounds once, or twice when the
coefficient is not a double).  The powers of the variables come in computed
(by NumPy: its ``x**n`` and a compiled ``pow`` may differ in the last bit).
This loop took 25 us a node in NumPy calls on 64 points; compiled, it is
no longer what the accuracy check waits for.
"""
from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["running_bounds", "POW", "MUL", "ADD", "SCALE", "OTHER"]

#: The node kinds of a walk's table.
POW, MUL, ADD, SCALE, OTHER = 0, 1, 2, 3, 4


@njit(cache=True)
def running_bounds(ids, kind, a, b, sign, number, rounding, powers, power_bounds, n_nodes, unit):
    """``(value, bound)``, rows by node id, at the points: the walk's table (see the module docstring) evaluated.

    Each operation in the order NumPy evaluated it before this loop was
    compiled, so the bounds are the same to the last bit.
    """
    samples = powers.shape[1]
    value = np.ones((n_nodes, samples))
    bound = np.zeros((n_nodes, samples))
    for k in range(len(ids)):
        i, t, x, y = ids[k], kind[k], a[k], b[k]
        if t == POW:
            for p in range(samples):
                value[i, p] = powers[x, p]
                bound[i, p] = power_bounds[x, p]
        elif t == MUL:
            for p in range(samples):
                u = value[x, p]
                w = value[y, p]
                v = u * w
                value[i, p] = v
                bound[i, p] = abs(u) * bound[y, p] + abs(w) * bound[x, p] + unit * abs(v)
        else:  # c1*a + c2*b, or c*a (c2 = 0): each c*v and its bound as _Factors says
            for p in range(samples):
                v = 0.0
                e = 0.0
                for j in range(2 if t == ADD else 1):
                    z = y if j else x
                    w = value[z, p]
                    ew = bound[z, p]
                    if sign[k, j] != 0:
                        w = sign[k, j] * w
                    else:
                        w = number[k, j] * w
                        ew = abs(number[k, j]) * ew + rounding[k, j] * abs(w)
                    v = w if j == 0 else v + w
                    e = ew if j == 0 else e + ew
                value[i, p] = v
                bound[i, p] = e + unit * abs(v) if t == ADD else e
    return value, bound
