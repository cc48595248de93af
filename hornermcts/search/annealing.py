"""Simulated annealing over permutations: local search for orders.

The state is a permutation of items; a step proposes a neighbour, either a
*swap* of two positions or a *move* of one item to another position, and
accepts it by Metropolis' rule: always when its cost is not higher, else with
probability ``exp(-(new - old) / T)``.  The temperature cools geometrically
from ``t_start`` to ``t_end`` over the steps of a run (Kirkpatrick et al.
1983; for Horner orders, Ruijl et al. 2014 "Why local search excels in
expression simplification").  Costs are minimised and in the problem's own
units (for Horner orders: operations), so temperatures are too.  Restarts
start again from the initial permutation (or from the best so far, with
``restart_from="best"``); the best permutation ever seen is returned.

The core knows no domain: ``cost(permutation) -> number`` is all it needs.

Examples
--------
>>> target = (3, 1, 4, 0, 2)
>>> cost = lambda p: sum(abs(a - b) for a, b in zip(p, target))
>>> found = anneal(cost, (0, 1, 2, 3, 4), steps=300, t_start=2.0, t_end=0.05, seed=0)
>>> found.best, found.best_cost
((3, 1, 4, 0, 2), 0)
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from .progress import make_progress

__all__ = ["anneal", "AnnealResult", "NEIGHBOURHOODS"]

#: The neighbour moves :func:`anneal` knows.
NEIGHBOURHOODS = ("swap", "move")


@dataclass(frozen=True)
class AnnealResult:
    """What :func:`anneal` found.

    Attributes
    ----------
    best : tuple
        The permutation of lowest cost seen.
    best_cost : float
        Its cost.
    history : tuple of (int, float)
        ``(step, best_cost)`` each time the best improved (steps counted over
        all restarts, 0 for the initial permutation).
    steps : int
        Cost evaluations done (over all restarts).
    accepted : int
        Proposals accepted.
    elapsed : float
        Wall-clock seconds.
    stopped : str
        ``"steps"``, ``"time"`` or ``"interrupt"``.
    seed : int or None
        The integer seed used (drawn when none was given).
    """

    best: tuple
    best_cost: float
    history: tuple
    steps: int
    accepted: int
    elapsed: float
    stopped: str
    seed: int | None


def _neighbour(perm: list, rng, kinds: Sequence[str], lo: int) -> list:
    n = len(perm)
    i, j = rng.choice(np.arange(lo, n), size=2, replace=False)
    out = list(perm)
    if kinds[rng.integers(len(kinds))] == "swap":
        out[i], out[j] = out[j], out[i]
    else:
        out.insert(j, out.pop(i))
    return out


def anneal(
    cost: Callable[[tuple], float],
    initial: Sequence,
    *,
    steps: int | None = 1000,
    t_start: float = 10.0,
    t_end: float = 0.1,
    neighbourhood: Sequence[str] = NEIGHBOURHOODS,
    restarts: int = 1,
    restart_from: str = "initial",
    fixed: int = 0,
    seed: int | None = None,
    time_limit: float | None = None,
    progress=None,
) -> AnnealResult:
    """Minimise ``cost`` over permutations of ``initial`` by simulated annealing.

    Parameters
    ----------
    cost : callable
        ``cost(permutation_tuple) -> float``, lower is better.
    initial : sequence
        The starting permutation.
    steps : int, default 1000
        Proposals per run (each costs one ``cost`` call).  ``None`` with a
        ``time_limit`` runs until the time is up (cooling then follows the
        elapsed fraction of the time).
    t_start, t_end : float
        Temperatures of the geometric cooling ``T_k = t_start (t_end /
        t_start)^(k / steps)``, in cost units.
    neighbourhood : sequence of {"swap", "move"}
        Neighbour moves, drawn uniformly.
    restarts : int, default 1
        Runs; each starts from ``initial`` (``restart_from="initial"``) or
        from the best permutation so far (``"best"``), at ``t_start``.
    fixed : int, default 0
        Leading positions that never move.
    seed : int, optional
        Makes step-bounded runs reproducible.
    time_limit : float, optional
        Seconds for the whole search; the best so far is returned when it
        runs out, and on Ctrl-C.
    progress : None, True, "auto" or callable
        As for :func:`~hornermcts.search.mcts`; the callback receives
        ``(step, -best_cost)`` so that higher is better there too.
    """
    initial = tuple(initial)
    if steps is None and time_limit is None:
        raise ValueError("anneal needs steps, a time_limit, or both")
    if steps is not None and (not isinstance(steps, (int, np.integer)) or steps < 0):
        raise ValueError(f"steps must be a non-negative integer, not {steps!r}")
    if not (t_start > 0 and t_end > 0 and t_end <= t_start):
        raise ValueError(f"temperatures need 0 < t_end <= t_start, got t_start={t_start}, t_end={t_end}")
    bad = [k for k in neighbourhood if k not in NEIGHBOURHOODS]
    if bad or not neighbourhood:
        raise ValueError(f"neighbourhood must be a non-empty subset of {NEIGHBOURHOODS}, not {tuple(neighbourhood)!r}")
    if not isinstance(restarts, int) or restarts < 1:
        raise ValueError(f"restarts must be a positive integer, not {restarts!r}")
    if restart_from not in ("initial", "best"):
        raise ValueError(f"restart_from must be 'initial' or 'best', not {restart_from!r}")
    if not 0 <= fixed <= len(initial):
        raise ValueError(f"fixed must lie in [0, {len(initial)}], not {fixed}")
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2**63)
    rng = np.random.default_rng(seed)
    total = None if steps is None else steps * restarts
    callback, close = make_progress(progress, total=total)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    best = initial
    best_cost = cost(initial)
    history = [(0, best_cost)]
    done = accepted = 0
    stopped = "steps"
    movable = len(initial) - fixed >= 2
    ratio = t_end / t_start
    last_report = start
    try:
        for run in range(restarts):
            current = list(initial if restart_from == "initial" else best)
            current_cost = cost(tuple(current))
            run_start = time.perf_counter()
            k = 0
            while movable:
                if steps is not None and k >= steps:
                    break
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    stopped = "time"
                    break
                if steps is not None:
                    frac = k / steps
                else:
                    frac = (now - run_start) / max((deadline - run_start) / (restarts - run), 1e-9)
                    if frac >= 1.0:
                        break
                temperature = t_start * ratio ** frac
                candidate = _neighbour(current, rng, neighbourhood, fixed)
                c = cost(tuple(candidate))
                k += 1
                done += 1
                delta = c - current_cost
                if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                    current, current_cost = candidate, c
                    accepted += 1
                    if c < best_cost:
                        best, best_cost = tuple(candidate), c
                        history.append((done, c))
                if callback is not None and now - last_report > 0.25:
                    callback(done, -best_cost)
                    last_report = now
            if stopped == "time":
                break
    except KeyboardInterrupt:
        stopped = "interrupt"
    finally:
        if callback is not None:
            callback(done, -best_cost)
        close()
    return AnnealResult(best=best, best_cost=best_cost, history=tuple(history), steps=done,
                        accepted=accepted, elapsed=time.perf_counter() - start, stopped=stopped, seed=seed)
