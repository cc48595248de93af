"""Multiple simulation (MS; Rei 2016, §5.2): repeat the FO simulation with different seeds, keep the best.

A simulation is aborted as soon as its relocations reach the incumbent's (it
cannot improve on it), which makes later simulations short.  Simulation ``j``
of a run is seeded by the run's seed and ``j`` alone; the simulations run in
compiled batches whose size doubles while a batch takes under 20 ms, so the
clock is read often (the time of an improvement is the time at the end of its
batch).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...errors import OptionError
from ...search.arguments import budget, seed_value
from ...search.result import SearchResult
from . import kernels
from .instance import StackingInstance
from .simulation import root_state
from .solution import Solution

__all__ = ["multiple_simulation", "MSResult", "CLOCKS"]

#: The clocks a budget can be measured on: CPU time of this process (the thesis's) or wall time.
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}

#: The delivery orders FO can follow (:func:`multiple_simulation`).
DELIVERY_ORDERS = ("recomputed", "fixed")

BATCH_SECONDS = 0.02
MAX_BATCH = 1 << 14


@dataclass(frozen=True)
class MSResult(SearchResult):
    """What MS found: the fields of :class:`~hornermcts.search.SearchResult` (``best_value`` the fewest
    relocations, a cost; ``best_moves`` its placements as tree moves ``(item, stack)``; ``iterations``
    the simulations run, aborted ones included; ``history`` ``(simulation, relocations)`` per
    improvement), plus:

    Attributes
    ----------
    solution : Solution
        The best solution, placements with their dates.
    times : tuple of float
        Seconds on the run's clock at each improvement of ``history``.
    clock : str
        ``"cpu"`` or ``"wall"``: what ``elapsed`` and ``times`` measure.
    """

    solution: Solution | None = None
    times: tuple = ()
    clock: str = "cpu"

    maximize: ClassVar[bool] = False


def multiple_simulation(instance: StackingInstance, *, time_limit: float | None = None,
                        simulations: int | None = None, seed: int | None = 0, target: int | None = None,
                        clock: str = "cpu", delivery_order: str = "recomputed") -> MSResult:
    """Run FO simulations until the budget is spent; return the best solution.

    Parameters
    ----------
    instance : StackingInstance
    time_limit : float, optional
        Seconds on ``clock``; checked between batches.
    simulations : int, optional
        The number of simulations. At least one budget is required; with both, the first one reached ends.
    seed : int or None, default 0
        The run's seed (``None``: fresh entropy, reported in the result).
    target : int, optional
        Stop as soon as a solution with at most this many relocations is found (``stopped == "target"``).
    clock : {"cpu", "wall"}, default "cpu"
    delivery_order : {"recomputed", "fixed"}, default "recomputed"
        Which buried delivery of a date FO relocates for first: the shallowest now, ties at random
        (the thesis's rule), or in an order fixed at the date's first decision by the depths then, ties
        by item (Rei's code: the second MS row of Table 5.1 in ``benchmarks/thesis_stacking.py``).

    Examples
    --------
    >>> from hornermcts.domains.stacking import random_instance
    >>> inst = random_instance(12, 3, seed=5)
    >>> result = multiple_simulation(inst, simulations=50, seed=1)
    >>> result.iterations, result.best_value == result.solution.relocations == result.history[-1][1]
    (50, True)
    >>> from hornermcts.domains.stacking import check_solution
    >>> check_solution(inst, result.solution.placements) == result.best_value
    True
    """
    budget(simulations, time_limit, what="simulations")
    if clock not in CLOCKS:
        raise OptionError(f"clock must be 'cpu' or 'wall', got {clock!r}")
    if delivery_order not in DELIVERY_ORDERS:
        raise OptionError(f"delivery_order must be {' or '.join(map(repr, DELIVERY_ORDERS))}, got {delivery_order!r}")
    fixed = delivery_order == "fixed"
    if target is not None and (isinstance(target, bool) or not isinstance(target, (int, np.integer))):
        raise OptionError(f"target must be an integer number of relocations, got {target!r}")
    used = seed_value(seed)
    now = CLOCKS[clock]
    root = root_state(instance)
    calendar = instance.calendar
    best = np.int64(1) << np.int64(62)
    buffer = np.empty((0, 3), np.int64)
    placements: np.ndarray | None = None
    history: list[tuple[int, int]] = []
    times: list[float] = []
    done = 0
    batch = 1
    stopped = "iterations"
    if time_limit is not None:  # compile the kernel before the clock starts (search/warm_up.py): one throwaway run
        kernels.multiple_simulation_batch(root.stacks, root.heights, root.counters, instance.due, *calendar,
                                          instance.capacity, used, 0, 1, best, np.empty((0, 3), np.int64), fixed)
    start = now()
    try:
        while True:
            count = batch if simulations is None else min(batch, simulations - done)
            began = now()
            best, buffer, made, improvements = kernels.multiple_simulation_batch(  # type: ignore[call-arg]
                root.stacks, root.heights, root.counters, instance.due, *calendar, instance.capacity, used, done,
                count, best, buffer, fixed)
            finished = now()
            done += count
            if made >= 0:
                placements = buffer[:made].copy()
            for j, value in improvements.tolist():
                history.append((j, value))
                times.append(finished - start)
            if target is not None and best <= target:
                stopped = "target"
                break
            if simulations is not None and done >= simulations:
                stopped = "iterations"
                break
            if time_limit is not None and finished - start >= time_limit:
                stopped = "time"
                break
            if finished - began < BATCH_SECONDS and batch < MAX_BATCH:
                batch *= 2
    except KeyboardInterrupt:
        stopped = "interrupt"
    elapsed = now() - start
    if placements is None:
        return MSResult(best_moves=(), best_value=float("inf"), iterations=done, elapsed=elapsed, stopped=stopped,
                        seed=used, history=(), solution=None, times=(), clock=clock)
    rows = tuple(tuple(row) for row in placements.tolist())
    return MSResult(best_moves=tuple((item, stack) for _, item, stack in rows), best_value=int(best),
                    iterations=done, elapsed=elapsed, stopped=stopped, seed=used, history=tuple(history),
                    solution=Solution(rows, int(best)), times=tuple(times), clock=clock)
