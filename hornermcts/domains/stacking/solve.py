"""Run MS or MCTS on a stacking instance and report it the same way (what the CLI and the benchmark call).

MCTS runs in the thesis's setting (:data:`THESIS_MCTS`): single expansion, a
fresh FO simulation per new node, the best value instead of the mean,
normalised by the parent's best and worst (Eq. 3.1), ``C = sqrt(2)``, CPU
time, and branch-and-bound with the inversion bound (Rei's code prunes
whenever a problem defines a bound, as its stacking problem does).  Every
solution returned is replayed by :func:`~.solution.check_solution`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ...errors import OptionError
from ...search import MCTSResult, mcts
from .instance import StackingInstance
from .multiple_simulation import multiple_simulation
from .problem import StackingProblem
from .solution import Solution, check_solution

__all__ = ["THESIS_MCTS", "METHODS", "tree_search", "solve", "StackingRun"]

#: The options of :func:`hornermcts.search.mcts` in the thesis's setting (Rei 2016, §5.4 and App. A).
THESIS_MCTS: dict[str, Any] = dict(expansion="single", value="best", normalize="parent", cp=math.sqrt(2),
                                   clock="cpu", prune=True)

#: The methods :func:`solve` runs.
METHODS = ("ms", "mcts")


def tree_search(instance: StackingInstance, *, time_limit: float | None = None, iterations: int | None = None,
                seed: int | None = 0, progress: Any = None, **options: Any) -> MCTSResult:
    """MCTS on ``instance`` with :data:`THESIS_MCTS`; ``options`` override them (any option of
    :func:`hornermcts.search.mcts`).

    Examples
    --------
    >>> from hornermcts.domains.stacking import random_instance, solve_exhaustive
    >>> inst = random_instance(10, 2, seed=6)
    >>> result = tree_search(inst, iterations=5000, seed=0)
    >>> result.best_value, result.proven, solve_exhaustive(StackingProblem(inst))[0]
    (3.0, True, 3)
    """
    settings = dict(THESIS_MCTS, **options)
    return mcts(StackingProblem(instance), time_limit=time_limit, iterations=iterations, seed=seed,
                progress=progress, **settings)


@dataclass(frozen=True)
class StackingRun:
    """One run of a method on an instance.

    Attributes
    ----------
    instance, method : str
    seed : int or None
    relocations : int
        The best solution's relocations (checked by replaying it).
    solution : Solution
    simulations : int
        FO simulations run (MS: aborted ones included; MCTS: its iterations).
    seconds : float
        Seconds used, on ``clock``.
    history : tuple of (float, int)
        ``(seconds, relocations)`` at each improvement of the incumbent.
    stopped : str
        Why the run ended (``"time"``, ``"iterations"``, ``"target"``, ``"exhausted"``, ``"interrupt"``).
    proven : bool
        MCTS with pruning exhausted the tree: the solution is optimal over the tree.
    clock : str
    """

    instance: str
    method: str
    seed: int | None
    relocations: int
    solution: Solution
    simulations: int
    seconds: float
    history: tuple
    stopped: str
    proven: bool = False
    clock: str = "cpu"


def solve(instance: StackingInstance, method: str = "ms", *, time_limit: float | None = None,
          iterations: int | None = None, seed: int | None = 0, clock: str = "cpu", progress: Any = None,
          **options: Any) -> StackingRun:
    """Run ``method`` (``"ms"`` or ``"mcts"``) on ``instance`` and check its solution.

    ``iterations`` is the number of simulations; ``options`` go to :func:`tree_search` (MCTS), or are
    ``delivery_order`` (MS: see :func:`~.multiple_simulation.multiple_simulation`).

    Examples
    --------
    >>> from hornermcts.domains.stacking import random_instance
    >>> inst = random_instance(30, 3, seed=1)
    >>> ms, tree = (solve(inst, m, iterations=300, seed=0) for m in METHODS)
    >>> ms.simulations, tree.simulations, ms.relocations >= tree.relocations, tree.history[-1][1]
    (300, 300, True, 10)
    """
    if method not in METHODS:
        raise OptionError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if method == "ms":
        order = options.pop("delivery_order", "recomputed")
        if options:
            raise OptionError(f"MS takes no search options but delivery_order, got {', '.join(sorted(options))}")
        ms = multiple_simulation(instance, time_limit=time_limit, simulations=iterations, seed=seed, clock=clock,
                                 delivery_order=order)
        solution = ms.solution
        run: dict[str, Any] = dict(simulations=ms.iterations, seconds=ms.elapsed, seed=ms.seed, stopped=ms.stopped,
                   history=tuple(zip(ms.times, (v for _, v in ms.history))), proven=False)
    else:
        result = tree_search(instance, time_limit=time_limit, iterations=iterations, seed=seed, clock=clock,
                             progress=progress, **options)
        solution = StackingProblem(instance).solution(result.best_moves)
        run = dict(simulations=result.iterations, seconds=result.elapsed, seed=result.seed, stopped=result.stopped,
                   history=tuple((s, int(v)) for s, (_, v) in zip(result.history_seconds, result.history)),
                   proven=result.proven)
    if solution is None:
        raise RuntimeError(f"{method} found no solution")  # cannot happen: the first simulation always ends
    checked = check_solution(instance, solution.placements)
    if checked != solution.relocations:
        raise RuntimeError(f"{method}: the solution replays to {checked} relocations, not {solution.relocations}")
    return StackingRun(instance=instance.name, method=method, relocations=checked, solution=solution, clock=clock,
                       **run)
