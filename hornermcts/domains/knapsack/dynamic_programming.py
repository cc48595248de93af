"""The exact 0/1 knapsack optimum by dynamic programming over capacities: the oracle.

``best[c]``, the most value within weight ``c``, is updated item by item
(NumPy, one vectorised step per item); a table of the decisions gives the
items back. Time and memory ``O(n * capacity)``: instances with
``n * (capacity + 1)`` beyond :data:`MAX_CELLS` are refused.

Examples
--------
>>> from hornermcts.domains.knapsack import KnapsackInstance
>>> knapsack_dp(KnapsackInstance(values=(10, 40, 30, 50), weights=(5, 4, 6, 3), capacity=10))
(90, [1, 3])
"""

from __future__ import annotations

import numpy as np

from ...errors import OptionError
from .instances import KnapsackInstance

__all__ = ["knapsack_dp", "MAX_CELLS"]

#: The largest decision table (items x capacities) :func:`knapsack_dp` builds (bytes).
MAX_CELLS = 200_000_000


def knapsack_dp(instance: KnapsackInstance) -> tuple[int, list[int]]:
    """The optimal value and one optimal set of items (indices, ascending)."""
    n, capacity = instance.n, instance.capacity
    if n * (capacity + 1) > MAX_CELLS:
        raise OptionError(f"dynamic programming needs a table of {n} x {capacity + 1} cells, "
                          f"more than {MAX_CELLS:,}")
    if sum(instance.values) >= 2**62:
        raise OptionError("the values must stay below 2**62 in total (int64)")
    best = np.zeros(capacity + 1, dtype=np.int64)
    taken = np.zeros((n, capacity + 1), dtype=np.bool_)
    for i, (value, weight) in enumerate(zip(instance.values, instance.weights)):
        if weight > capacity:
            continue
        candidate = best[: capacity + 1 - weight] + value
        better = candidate > best[weight:]
        taken[i, weight:] = better
        best[weight:] = np.where(better, candidate, best[weight:])
    items = []
    c = capacity
    for i in range(n - 1, -1, -1):
        if taken[i, c]:
            items.append(i)
            c -= instance.weights[i]
    items.reverse()
    return int(best[capacity]), items
