"""Latin square completion (Cazenave 2024, sec. 4.1): generated instances, a checker, the CSP playout, the Dual prior.

Complete a partial Latin square of order ``n`` (``n <= 62``): fill the
blanks with ``1..n`` so that no value repeats in a row or a column.

- :class:`LatinSquareInstance`, :func:`generate`, :func:`read_instance`,
  :func:`write_instance`: instances (a full square built by playouts, 42 %
  of its cells blanked at random by default) and their text format;
- :func:`violations`, :func:`is_solution`: the independent checker;
- :class:`LatinSquareCompletion`: the search problem (forward checking, MRV,
  channeling at the calibrated strength :data:`CALIBRATED`; moves (cell,
  value); reward ``-(empty cells)``, 0 when solved), with a compiled
  playout through the coded hook of :func:`hornermcts.search.nrpa`, and the
  Dual prior code;
- :func:`learn_prior`, :func:`training_instances`: the Dual prior by Replay
  of generated solved problems;
- :func:`search`: Sampling, NRPA and GNRPA as in the paper's Table 1;
- the command ``hornermcts latin`` (:mod:`.cli`).

One concept per module: :mod:`.instance`, :mod:`.checker`, :mod:`.kernels`
(Numba: bitset domains, channeling, MRV, playouts, Replay),
:mod:`.problem`, :mod:`.prior`, :mod:`.solve`, :mod:`.cli`.

Examples
--------
>>> instance = generate(10, seed=3)
>>> problem = LatinSquareCompletion(instance)
>>> result = search(problem, "sampling", playouts=2000, target=0.0, seed=0)
>>> result.reached is not None and is_solution(instance.givens, problem.grid(result.best_state))
True
"""

from __future__ import annotations

from .checker import is_solution, violations
from .instance import LatinSquareInstance, format_grid, full_square, generate, read_instance, write_instance
from .prior import TRAINING_SEED, learn_prior, training_instances
from .problem import CALIBRATED, CHANNELING, LatinSquareCompletion
from .solve import METHODS, TEMPERATURE, search, search_seed

__all__ = [
    "LatinSquareInstance",
    "generate",
    "full_square",
    "read_instance",
    "write_instance",
    "format_grid",
    "violations",
    "is_solution",
    "LatinSquareCompletion",
    "CHANNELING",
    "CALIBRATED",
    "learn_prior",
    "training_instances",
    "TRAINING_SEED",
    "search",
    "search_seed",
    "METHODS",
    "TEMPERATURE",
]
