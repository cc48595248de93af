"""Multiple simulation (MS, Rei 2016 sec. 6.2.2): repeat the semi-greedy construction, keep the best.

Each construction draws from one generator seeded by ``seed``, so a run is
reproducible for a given number of constructions. The budget is CPU
seconds by default (the thesis's clock), wall seconds with
``clock="wall"``, or a number of constructions; ``target`` stops the run as
soon as a packing reaches that value.

Examples
--------
>>> from hornermcts.domains.circle_packing import Instance, check_packing
>>> inst = Instance(100, 60, r_ext=[30, 12], r_int=[25, 0], value=[10, 3], count=[2, 5])
>>> result = multiple_simulation(inst, simulations=20, seed=0)
>>> result.simulations, result.best_value == check_packing(inst, result.best)
(20, True)
>>> [value for _, value in result.history] == sorted(value for _, value in result.history)
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import OptionError
from ...search.warm_up import warm_up_rng
from .construction import SemiGreedy
from .instance import Instance
from .packing import Packing

__all__ = ["MSResult", "multiple_simulation", "clock_function"]


@dataclass
class MSResult:
    """The outcome of :func:`multiple_simulation`.

    ``history`` holds ``(seconds, value)`` at each improvement (seconds on
    the run's clock since its start); ``improvements`` the matching
    ``(construction, value)`` (1-based construction numbers).
    """

    best: Packing
    best_value: float
    simulations: int
    elapsed: float
    history: list[tuple[float, float]] = field(default_factory=list)
    improvements: list[tuple[int, float]] = field(default_factory=list)
    seed: Any = None
    stopped: str = "time"


def clock_function(clock: str):
    """``time.process_time`` for ``"cpu"``, ``time.perf_counter`` for ``"wall"``."""
    if clock == "cpu":
        return time.process_time
    if clock == "wall":
        return time.perf_counter
    raise OptionError(f"clock must be 'cpu' or 'wall', got {clock!r}")


def multiple_simulation(instance: Instance, *, time_limit: float | None = None, simulations: int | None = None,
                        seed: Any = None, rcl: int | None = None, clock: str = "cpu",
                        target: float | None = None) -> MSResult:
    """Repeat SG until the budget is spent; return the best packing and the incumbent history.

    Parameters
    ----------
    instance : Instance
    time_limit : float, optional
        Seconds on ``clock``; at least one construction is always made.
    simulations : int, optional
        Constructions; with ``time_limit`` too, the first limit reached stops.
    seed : int, Generator or None
    rcl : int or None
        SG's candidate list length (None: all positions).
    clock : {"cpu", "wall"}
    target : float, optional
        Stop once a packing reaches this value.
    """
    if time_limit is None and simulations is None:
        raise OptionError("give time_limit (seconds) or simulations (a count), or both")
    if time_limit is not None and not time_limit > 0:
        raise OptionError(f"time_limit must be > 0, got {time_limit!r}")
    if simulations is not None and not (isinstance(simulations, (int, np.integer)) and simulations >= 1):
        raise OptionError(f"simulations must be an integer >= 1, got {simulations!r}")
    now = clock_function(clock)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    construction = SemiGreedy(instance, rcl=rcl)
    if time_limit is not None:  # compile the geometry kernels before the clock starts (search/warm_up.py)
        SemiGreedy(instance, rcl=rcl).run(warm_up_rng())
    start = now()
    best: Packing | None = None
    best_value = -np.inf
    history: list[tuple[float, float]] = []
    improvements: list[tuple[int, float]] = []
    done = 0
    stopped = "simulations"
    while True:
        packing = construction.run(rng)
        done += 1
        value = packing.value(instance)
        if value > best_value:
            best, best_value = packing, value
            history.append((now() - start, value))
            improvements.append((done, value))
        if target is not None and best_value >= target:
            stopped = "target"
            break
        if simulations is not None and done >= simulations:
            stopped = "simulations"
            break
        if time_limit is not None and now() - start >= time_limit:
            stopped = "time"
            break
    assert best is not None
    return MSResult(best, float(best_value), done, now() - start, history, improvements, seed, stopped)
