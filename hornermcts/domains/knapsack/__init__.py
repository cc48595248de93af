"""The 0/1 knapsack: dynamic programming and MCTS with Dantzig's bound (Rei's thesis, App. A.3).

Pack items of given values and weights into a knapsack of limited
capacity, maximising the value packed.

- :class:`KnapsackInstance`, :func:`generate`, :func:`read_instance`,
  :func:`write_instance`: instances (text format: the capacity, then
  ``value weight`` per line);
- :class:`Knapsack`: the thesis's binary pack-or-skip tree as a reward
  problem of the search core (:func:`hornermcts.search.mcts`), with random
  playouts (compiled, :mod:`.kernels`) and Dantzig's LP bound for
  branch-and-bound;
- :func:`knapsack_dp`: the exact optimum (dynamic programming);
  :func:`brute_force_knapsack`: every subset, for tiny instances;
- the command ``hornermcts knapsack`` (:mod:`.cli`).

Examples
--------
>>> instance = KnapsackInstance(values=(10, 40, 30, 50), weights=(5, 4, 6, 3), capacity=10)
>>> knapsack_dp(instance)
(90, [1, 3])
>>> problem = Knapsack(instance)
>>> problem.bound(problem.root())
105.0
"""

from __future__ import annotations

from .brute_force import brute_force_knapsack
from .dynamic_programming import knapsack_dp
from .instances import CORRELATIONS, KnapsackInstance, generate, read_instance, write_instance
from .problem import Knapsack, KnapsackState

__all__ = [
    "KnapsackInstance",
    "generate",
    "read_instance",
    "write_instance",
    "CORRELATIONS",
    "Knapsack",
    "KnapsackState",
    "knapsack_dp",
    "brute_force_knapsack",
]
