"""One entry point for the three methods of the thesis's experiment: SG, MS and MCTS (Rei 2016, sec. 6.3).

:func:`solve` runs a method on an instance for a CPU budget and returns a
:class:`Run`: the best packing, its value **as recomputed by the independent
checker**, the CPU seconds used, the constructions (simulations) made and the
incumbent history over CPU time. :func:`tree_search` is MCTS in the thesis's
setting (:data:`THESIS_MCTS`: single expansion, best value, values normalised
by the parent's best and worst, C = sqrt 2, CPU clock) on
:class:`~hornermcts.domains.circle_packing.CirclePackingProblem`; no pruning
(the thesis specifies no bound for this problem).

Examples
--------
>>> from hornermcts.domains.circle_packing import substitute_instance
>>> inst = substitute_instance("small03")
>>> run = solve(inst, "ms", time_limit=0.2, seed=0)
>>> run.method, run.value > 0, run.simulations > 1, run.history[-1][1] == run.value
('ms', True, True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import OptionError
from .construction import semi_greedy
from .instance import Instance
from .multiple_simulation import clock_function, multiple_simulation
from .packing import Packing, check_packing
from .problem import CirclePackingProblem

__all__ = ["METHODS", "THESIS_MCTS", "Run", "solve", "tree_search"]

METHODS = ("sg", "ms", "mcts")

#: The options of :func:`hornermcts.search.mcts` for the thesis's MCTS (sec. 6.2.2 and ch. 3; docs/domains.md A5).
THESIS_MCTS: dict[str, Any] = dict(expansion="single", value="best", normalize="parent", cp=math.sqrt(2.0), clock="cpu")


@dataclass
class Run:
    """A method's outcome: ``history`` holds ``(seconds, value)`` at each improvement, on the run's clock."""

    method: str
    packing: Packing
    value: float
    seconds: float
    simulations: int
    history: list[tuple[float, float]] = field(default_factory=list)
    stopped: str = ""
    seed: Any = None


def tree_search(instance: Instance, *, time_limit: float | None = None, iterations: int | None = None, seed=None,
                rcl: int | None = None, tubes: int = 1, cp: float = math.sqrt(2.0), clock: str = "cpu",
                progress=None, problem: CirclePackingProblem | None = None):
    """MCTS in the thesis's setting on ``instance`` (or on ``problem``); returns the core's result."""
    from ...search import mcts

    if problem is None:
        problem = CirclePackingProblem(instance, rcl=rcl, tubes=tubes)
    options: dict[str, Any] = dict(THESIS_MCTS, cp=cp, clock=clock)
    return mcts(problem, time_limit=time_limit, iterations=iterations, seed=seed, progress=progress, **options)


def solve(instance: Instance, method: str, *, time_limit: float = 10.0, seed=0, rcl: int | None = None,
          tubes: int = 1, cp: float = math.sqrt(2.0), clock: str = "cpu", progress=None) -> Run:
    """Run ``method`` (``"sg"``, ``"ms"`` or ``"mcts"``) on ``instance`` for ``time_limit`` seconds on ``clock``.

    ``rcl`` is SG's candidate list length (all positions by default), for
    every method; ``tubes`` and ``cp`` apply to MCTS. The returned value is
    the checker's (:func:`~hornermcts.domains.circle_packing.check_packing`).
    """
    if method not in METHODS:
        raise OptionError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    now = clock_function(clock)
    start = now()
    if method == "sg":
        packing = semi_greedy(instance, np.random.default_rng(seed), rcl=rcl)
        spent = now() - start
        value = check_packing(instance, packing)
        return Run(method, packing, value, spent, 1, [(spent, value)], "done", seed)
    if method == "ms":
        ms = multiple_simulation(instance, time_limit=time_limit, seed=seed, rcl=rcl, clock=clock)
        value = check_packing(instance, ms.best)
        return Run(method, ms.best, value, ms.elapsed, ms.simulations, list(ms.history), ms.stopped, seed)
    result = tree_search(instance, time_limit=time_limit, seed=seed, rcl=rcl, tubes=tubes, cp=cp, clock=clock,
                         progress=progress)
    spent = now() - start
    packing = result.best_state.packing()
    value = check_packing(instance, packing)
    history = [(float(s), float(v)) for s, (_, v) in zip(result.history_seconds, result.history)]
    return Run(method, packing, value, spent, int(result.iterations), history, str(result.stopped), seed)
