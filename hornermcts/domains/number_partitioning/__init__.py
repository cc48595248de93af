"""Number partitioning: Karmarkar-Karp, complete-KK depth-first search and MCTS (Rei's thesis, ch. 4).

Given ``N`` positive integers, split them in two sets whose sums differ by
as little as possible: minimise the discrepancy ``E``; ``E <= 1`` is a
*perfect* partition. The thesis measures ``log2(E + 1)`` (Table 4.1), as
every search here does.

- :func:`karmarkar_karp`: the differencing heuristic (Alg. 4.1);
- :func:`complete_kk`: the complete-KK depth-first search (Alg. 4.2),
  anytime under a CPU-time budget;
- :class:`NumberPartitioning`: the same tree as a cost problem of the
  search core (:func:`hornermcts.search.mcts`), simulated by KK, with a
  lower bound for branch-and-bound;
- :func:`partition_from_moves`: the two subsets behind any of their
  answers (a :class:`Partition`, whose sums are checked);
  :func:`brute_force_partition`: the optimum of small instances;
- :func:`generate`, :func:`read_numbers`, :func:`thesis_instance`: the
  instances (the thesis's ``hard0100`` ... ``hard1000`` are not public; the
  ones named so here are generated substitutes);
- :func:`solve`: one named method (``kk``, ``dfs``, ``mcts``) on an
  instance under a CPU-time budget, with the partition found; the command
  ``hornermcts partition`` (:mod:`.cli`).

Examples
--------
>>> numbers = [8, 7, 6, 5, 4]
>>> karmarkar_karp(numbers), complete_kk(numbers).discrepancy
(2, 0)
>>> partition_from_moves(numbers, complete_kk(numbers).best_moves).subsets(numbers)
([8, 7], [6, 5, 4])
"""

from __future__ import annotations

from .brute_force import brute_force_partition
from .complete_kk import CompleteKKResult, complete_kk
from .instances import THESIS_INSTANCES, generate, read_numbers, thesis_instance, write_numbers
from .karmarkar_karp import karmarkar_karp
from .partition import Partition, partition_from_moves
from .problem import JOIN, SPLIT, NumberPartitioning, PartitionState
from .solve import METHODS, THESIS_MCTS, Solution, solve

__all__ = [
    "karmarkar_karp",
    "complete_kk",
    "CompleteKKResult",
    "NumberPartitioning",
    "PartitionState",
    "SPLIT",
    "JOIN",
    "Partition",
    "partition_from_moves",
    "brute_force_partition",
    "generate",
    "read_numbers",
    "write_numbers",
    "thesis_instance",
    "THESIS_INSTANCES",
    "solve",
    "Solution",
    "METHODS",
    "THESIS_MCTS",
]
