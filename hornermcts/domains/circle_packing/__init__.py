"""Recursive circle packing (Rei 2016, ch. 6; problem of Pedroso, Cunha and Tavares [PCT14]).

Tubes of several types (external radius, internal radius, value, copies)
are packed into a ``W x H`` container, directly or *telescoped* into a
placed tube whose internal radius is at least their external radius; tubes
with the same holder must not overlap and every tube lies inside its
holder. The value (Eq. 6.1) is the sum of the values of the packed tubes.

The package, one concept per module:

- :mod:`~.instance`: :class:`Instance`, its text format, :func:`read_instance`;
- :mod:`~.substitutes`: :func:`generate_instance` and :func:`substitute_instance`,
  generated **substitutes** for the thesis's small03/05/16 and large03/05/16
  (the PCT14 data is not available);
- :mod:`~.geometry`: the candidate positions of sec. 6.2.1, their
  feasibility and ranking (Numba);
- :mod:`~.packing`: :class:`Packing` and the independent checker
  :func:`check_packing`;
- :mod:`~.construction`: the semi-greedy construction SG (Alg. 6.1):
  :class:`SemiGreedy`, :func:`semi_greedy`, the value-to-area estimate
  :func:`value_estimates`;
- :mod:`~.multiple_simulation`: MS, repeated SG (:func:`multiple_simulation`);
- :mod:`~.problem`: :class:`CirclePackingProblem`, the SG tree for
  :func:`hornermcts.search.mcts`;
- :mod:`~.solve`: :func:`solve` runs SG, MS or MCTS (:func:`tree_search`, the
  thesis's setting :data:`THESIS_MCTS`) for a CPU budget, value checked;
- :mod:`~.exhaustive`: brute force over that tree (:func:`solve_exhaustive`);
- :mod:`~.drawing`: :func:`packing_svg`; :mod:`~.cli`: ``hornermcts circles``.

Examples
--------
>>> inst = substitute_instance("small05")
>>> inst.name, inst.types
('small05-substitute', 5)
>>> ms = multiple_simulation(inst, simulations=3, seed=1)
>>> check_packing(inst, ms.best) == ms.best_value
True
"""

from __future__ import annotations

from .construction import DENSITY, SemiGreedy, greedy_order, semi_greedy, value_estimates
from .drawing import packing_svg
from .exhaustive import ExhaustiveResult, solve_exhaustive
from .geometry import TOLERANCE, ranked_positions
from .instance import Instance, format_instance, parse_instance, read_instance, write_instance
from .multiple_simulation import MSResult, multiple_simulation
from .packing import InvalidPacking, Packing, as_packing, check_packing, packing_violations
from .problem import CirclePackingProblem, PackingState
from .solve import METHODS, THESIS_MCTS, Run, solve, tree_search
from .substitutes import SUBSTITUTES, generate_instance, substitute_instance

__all__ = [
    "Instance",
    "parse_instance",
    "read_instance",
    "format_instance",
    "write_instance",
    "generate_instance",
    "substitute_instance",
    "SUBSTITUTES",
    "TOLERANCE",
    "ranked_positions",
    "Packing",
    "as_packing",
    "check_packing",
    "packing_violations",
    "InvalidPacking",
    "DENSITY",
    "value_estimates",
    "greedy_order",
    "SemiGreedy",
    "semi_greedy",
    "MSResult",
    "multiple_simulation",
    "CirclePackingProblem",
    "PackingState",
    "METHODS",
    "THESIS_MCTS",
    "Run",
    "solve",
    "tree_search",
    "ExhaustiveResult",
    "solve_exhaustive",
    "packing_svg",
]
