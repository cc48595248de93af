"""The stacking problem (Rei 2016, ch. 5): store items in stacks, deliver them on time, relocate as little as possible.

Items arrive at their release date and leave at their due date, both met
exactly; only the top item of a stack can be taken, so delivering an item
buried under others means relocating those first (each move one relocation);
there is no height limit.  The package follows the thesis:

- :mod:`~.instance` (:class:`StackingInstance`, its calendar),
  :mod:`~.reader` (:func:`read_instance`, :func:`find_instance`: Rei's file
  format, instances by name in ``HORNERMCTS_STACKING_DATA``),
  :mod:`~.generator` (:func:`random_instance`);
- :mod:`~.simulation`: the event simulation with the Flexibility Optimization
  heuristic (:func:`fo_score`, Eq. 5.1; :func:`simulate`), compiled in
  :mod:`~.kernels`;
- :mod:`~.solution`: :class:`Solution` and :func:`check_solution`, which
  replays a solution independently and counts its relocations;
- :mod:`~.multiple_simulation`: MS (:func:`multiple_simulation`);
- :mod:`~.state` and :mod:`~.problem`: the tree search problem
  (:class:`StackingProblem`, a cost problem with the inversion lower bound);
  :mod:`~.brute_force` (:func:`solve_exhaustive`), its optimum on tiny
  instances;
- :mod:`~.solve`: :func:`tree_search` (MCTS in the thesis's setting,
  :data:`THESIS_MCTS`) and :func:`solve` (MS or MCTS, the solution checked);
- :mod:`~.cli`: ``hornermcts stacking``.

Examples
--------
>>> inst = StackingInstance([0, 1, 2], [3, 4, 5], width=2, name="three")
>>> solution = simulate(inst, seed=0)
>>> solution.relocations, check_solution(inst, solution.placements)
(1, 1)
>>> multiple_simulation(inst, simulations=20, seed=0).best_value
1
"""

from __future__ import annotations

from .brute_force import solve_exhaustive
from .generator import random_instance
from .instance import StackingInstance
from .multiple_simulation import MSResult, multiple_simulation
from .problem import StackingProblem
from .reader import DATA_VARIABLE, find_instance, parse_instance, read_instance
from .simulation import fo_choice_set, fo_score, root_state, simulate
from .solution import InvalidSolution, Solution, check_solution
from .solve import METHODS, THESIS_MCTS, StackingRun, solve, tree_search
from .state import StackingState

__all__ = [
    "StackingInstance",
    "read_instance",
    "parse_instance",
    "find_instance",
    "DATA_VARIABLE",
    "random_instance",
    "fo_score",
    "fo_choice_set",
    "simulate",
    "root_state",
    "Solution",
    "InvalidSolution",
    "check_solution",
    "multiple_simulation",
    "MSResult",
    "StackingState",
    "StackingProblem",
    "solve_exhaustive",
    "tree_search",
    "solve",
    "StackingRun",
    "THESIS_MCTS",
    "METHODS",
]
