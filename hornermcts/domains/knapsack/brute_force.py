"""The 0/1 knapsack optimum by trying every subset: the oracle of the dynamic programme (up to ~20 items).

>>> from hornermcts.domains.knapsack import KnapsackInstance
>>> brute_force_knapsack(KnapsackInstance(values=(10, 40, 30, 50), weights=(5, 4, 6, 3), capacity=10))
(90, [1, 3])
"""

from __future__ import annotations

import numpy as np

from ...errors import OptionError
from .instances import KnapsackInstance

__all__ = ["brute_force_knapsack"]

_MAX_ITEMS = 22


def brute_force_knapsack(instance: KnapsackInstance) -> tuple[int, list[int]]:
    """The optimal value and the optimal item set of smallest bit mask (indices, ascending)."""
    n = instance.n
    if n > _MAX_ITEMS:
        raise OptionError(f"brute force takes at most {_MAX_ITEMS} items, got {n}")
    weights = np.zeros(1, dtype=np.int64)
    values = np.zeros(1, dtype=np.int64)
    for w, v in zip(instance.weights, instance.values):  # subset mask m: bit i = item i
        weights = np.concatenate([weights, weights + w])
        values = np.concatenate([values, values + v])
    values[weights > instance.capacity] = -1
    mask = int(np.argmax(values))
    return int(values[mask]), [i for i in range(n) if mask >> i & 1]
