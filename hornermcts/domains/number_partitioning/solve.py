"""One named method on one instance: Karmarkar-Karp, the complete-KK DFS or MCTS, as in Table 4.1.

:func:`solve` runs a method under a CPU-time budget and returns a
:class:`Solution`: the discrepancy, Table 4.1's ``log2(E + 1)``, the
partition itself (checked: its sums differ by exactly ``E``), the CPU
seconds used, the simulations (or nodes) done and the incumbent's history
over CPU time. The command line and ``benchmarks/thesis_partitioning.py``
call it.

MCTS runs in the thesis's faithful setting (:data:`THESIS_MCTS`): full
expansion (both children of a node created and simulated at once, Rei's
``EXPANSION_LIMIT = inf``; one KK run serves both),
Rei's best-value statistic with the parent's normalisation, ``C = sqrt(2)``,
CPU-time budget, stopping at the first perfect partition. Its simulations
are deterministic, so the seed only orders the two children of a node and
breaks ties: on ``hard0100``, seeds 0 to 3 found the same incumbents at the
same simulations (within one) over 20,000 simulations. Runs under one CPU
budget differ by how many simulations fit in it, as the thesis's 10 runs
per instance must have. By default the search runs on the domain's
compiled tree (:mod:`.compiled_tree`: the same algorithm, which finds the
same values, at most one simulation apart, 7.5 to 18 times as many
simulations per second at N = 300 to 100); ``engine="core"`` runs it on the generic
:func:`hornermcts.search.mcts`, as does any option but ``cp``.

Examples
--------
>>> solution = solve([8, 7, 6, 5, 4], "kk")
>>> solution.discrepancy, solution.partition.subsets([8, 7, 6, 5, 4])
(2, ([8, 6], [7, 5, 4]))
>>> solve([8, 7, 6, 5, 4], "dfs", seconds=1.0).discrepancy
0
"""

from __future__ import annotations

from dataclasses import dataclass
from math import log2, sqrt
from time import process_time
from typing import Any, Sequence

from ...errors import OptionError
from .compiled_tree import compiled_mcts
from .complete_kk import complete_kk
from .karmarkar_karp import karmarkar_karp
from .partition import Partition, partition_from_moves
from .problem import SPLIT, NumberPartitioning

__all__ = ["solve", "Solution", "METHODS", "THESIS_MCTS", "ENGINES"]

#: The methods of Table 4.1.
METHODS = ("kk", "dfs", "mcts")

#: The engines of MCTS: the tree compiled for this domain (:mod:`.compiled_tree`), or the generic search core.
ENGINES = ("compiled", "core")

#: The thesis's MCTS setting for number partitioning (§4.2; docs/domains.md A5): options of ``mcts``.
THESIS_MCTS: dict[str, Any] = dict(expansion="full", expansion_limit=None, value="best", normalize="parent",
                                   cp=sqrt(2), clock="cpu")


@dataclass(frozen=True)
class Solution:
    """What one method found on one instance.

    Attributes
    ----------
    method : str
        One of :data:`METHODS`.
    discrepancy : int
        ``E``, exact.
    value : float
        ``log2(E + 1)``, Table 4.1's measure.
    partition : Partition
        The two subsets (indices into the numbers); its sums differ by ``E``.
    moves : tuple of str
        The path of the complete KK tree behind it.
    seconds : float
        CPU seconds of the whole call.
    simulations : int
        KK: 1; DFS: nodes visited; MCTS: simulations (iterations).
    history : tuple of (float, float)
        ``(cpu_seconds, value)`` each time the incumbent improved.
    proven : bool
        True when the search proved ``E`` optimal.
    stopped : str
        Why the method stopped (``"done"`` for KK).
    """

    method: str
    discrepancy: int
    value: float
    partition: Partition
    moves: tuple
    seconds: float
    simulations: int
    history: tuple
    proven: bool
    stopped: str


def solve(numbers: Sequence[int], method: str = "mcts", *, seconds: float = 10.0, seed: int = 0,
          **options: Any) -> Solution:
    """Run ``method`` on ``numbers`` for ``seconds`` of CPU time; return the checked :class:`Solution`.

    ``seed`` seeds MCTS (KK and the DFS are deterministic); ``options``
    override :data:`THESIS_MCTS` (MCTS only), e.g. ``prune=True`` or
    ``interleave=5``. ``engine`` (an option, MCTS only) picks who runs it:
    ``"compiled"`` (:func:`~.compiled_tree.compiled_mcts`, the same search
    with the tree in compiled arrays; the default when no option but ``cp``
    is given) or ``"core"`` (:func:`hornermcts.search.mcts`, the default
    with any other option).
    """
    if method not in METHODS:
        raise OptionError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    if not seconds > 0:
        raise OptionError(f"seconds must be > 0, got {seconds!r}")
    if options and method != "mcts":
        raise OptionError(f"options {sorted(options)} apply to mcts only")
    values = list(numbers)
    start = process_time()
    if method == "kk":
        e = karmarkar_karp(values)
        moves: tuple = (SPLIT,) * (len(values) - 1)
        used = process_time() - start
        history: tuple = ((used, log2(e + 1)),)
        simulations, proven, stopped = 1, False, "done"
    elif method == "dfs":
        result = complete_kk(values, time_limit=seconds, clock="cpu")
        e, moves, history = result.discrepancy, result.best_moves, result.incumbents
        simulations, proven, stopped = result.iterations, result.proven, result.stopped
    else:
        e, moves, history, simulations, proven, stopped = _mcts(values, seconds, seed, options)
    used = process_time() - start
    partition = partition_from_moves(values, moves)
    if partition.discrepancy != e:
        raise AssertionError(f"{method}: the partition's sums {partition.sums} differ by "
                             f"{partition.discrepancy}, not by the reported {e}")
    return Solution(method, e, log2(e + 1), partition, tuple(moves), used, simulations, tuple(history), proven,
                    stopped)


def _mcts(values: list, seconds: float, seed: int, options: dict) -> tuple:
    options = dict(options)
    engine = options.pop("engine", None)
    if engine is None:
        engine = "compiled" if set(options) <= {"cp"} else "core"
    if engine not in ENGINES:
        raise OptionError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "compiled":
        if set(options) - {"cp"}:
            raise OptionError(f"options {sorted(set(options) - {'cp'})} need engine='core' (the compiled tree runs "
                              "THESIS_MCTS, with cp)")
        found = compiled_mcts(values, time_limit=seconds, seed=seed, cp=options.get("cp", THESIS_MCTS["cp"]))
        history = tuple((at, value) for _, value, at in found.history)
        return found.discrepancy, found.moves, history, found.iterations, found.proven, found.stopped
    from ...search import mcts

    problem = NumberPartitioning(values)
    settings = dict(THESIS_MCTS, **options)
    settings.setdefault("target", problem.target)
    result = mcts(problem, time_limit=seconds, seed=seed, progress=None, **settings)
    e = problem.discrepancy(result.best_state)
    history = tuple(zip(result.history_seconds, (value for _, value in result.history)))
    return e, tuple(result.best_moves), history, result.iterations, bool(result.proven), result.stopped
