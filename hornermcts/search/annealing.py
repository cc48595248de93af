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
>>> found = anneal(cost, (0, 1, 2, 3, 4), iterations=300, t_start=2.0, t_end=0.05, seed=0)
>>> found.best_moves, found.best_value
((3, 1, 4, 0, 2), 0)
"""
from __future__ import annotations

from ..errors import OptionError

import math
import time
from dataclasses import dataclass
from typing import Callable, ClassVar, Sequence

import numpy as np

from .arguments import generators, integer, seconds
from .parallel import fork_map, in_child, processes
from .progress import make_progress
from .result import SearchResult

__all__ = ["anneal", "AnnealResult", "NEIGHBOURHOODS"]

#: The neighbour moves :func:`anneal` knows.
NEIGHBOURHOODS = ("swap", "move")


@dataclass(frozen=True)
class AnnealResult(SearchResult):
    """What :func:`anneal` found.

    The fields of :class:`~hornermcts.search.result.SearchResult`:
    ``best_moves`` the permutation of lowest cost seen, ``best_value`` its
    cost (annealing minimises: :attr:`maximize` is false), ``history``
    ``(step, best cost)`` each time the best improved (steps counted over
    all restarts, 0 for the initial permutation), ``iterations`` the cost
    evaluations done (over all restarts), ``stopped`` ``"iterations"``,
    ``"time"`` or ``"interrupt"``; plus:

    Attributes
    ----------
    accepted : int
        Proposals accepted.
    """

    accepted: int = 0

    maximize: ClassVar[bool] = False


def _neighbour(perm: list, rng, kinds: Sequence[str], lo: int) -> list:
    n = len(perm)
    i, j = rng.choice(np.arange(lo, n), size=2, replace=False)
    out = list(perm)
    if kinds[rng.integers(len(kinds))] == "swap":
        out[i], out[j] = out[j], out[i]
    else:
        out.insert(j, out.pop(i))
    return out


@dataclass
class _Walked:
    """One annealing run: its best permutation and cost, improvements ``(step, cost)``, steps, accepted, stop."""

    best: tuple
    best_cost: float
    history: list
    iterations: int
    accepted: int
    stopped: str


@dataclass
class _Walk:
    """The settings of the runs of one :func:`anneal` call; :meth:`run` does one run."""

    cost: Callable[[tuple], float]
    iterations: int | None
    t_start: float
    ratio: float
    neighbourhood: tuple
    fixed: int
    deadline: float | None
    interrupted: bool = False

    def run(self, begin: tuple, rng, offset: int, runs_left: int, callback,
            temperatures: tuple[float, float] | None = None) -> _Walked:
        """Anneal from ``begin``; with a deadline, take 1 / ``runs_left`` of the time left.

        ``temperatures``: ``(t_start, t_end)`` of this run, if not the call's.

        ``offset`` (the steps before this run) is for progress reports only:
        the history counts this run's own steps.  After a Ctrl-C, this and
        every later run of the call return at once.
        """
        current, current_cost = list(begin), self.cost(tuple(begin))
        best, best_cost, history = tuple(begin), current_cost, []
        cost, iterations, deadline = self.cost, self.iterations, self.deadline
        k = accepted = 0
        stopped = "interrupt" if self.interrupted else "iterations"
        movable = len(begin) - self.fixed >= 2
        t_start, ratio = (self.t_start, self.ratio) if temperatures is None else \
            (temperatures[0], temperatures[1] / temperatures[0])
        run_start = last_report = time.perf_counter()
        try:
            while movable and stopped == "iterations":
                if iterations is not None and k >= iterations:
                    break
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    stopped = "time"
                    break
                if iterations is not None:
                    frac = k / iterations
                else:
                    frac = (now - run_start) / max((deadline - run_start) / runs_left, 1e-9)
                    if frac >= 1.0:
                        break
                temperature = t_start * ratio ** frac
                candidate = _neighbour(current, rng, self.neighbourhood, self.fixed)
                c = cost(tuple(candidate))
                k += 1
                delta = c - current_cost
                if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                    current, current_cost = candidate, c
                    accepted += 1
                    if c < best_cost:
                        best, best_cost = tuple(candidate), c
                        history.append((k, c))
                if callback is not None and now - last_report > 0.25:
                    callback(offset + k, -best_cost)
                    last_report = now
        except KeyboardInterrupt:
            stopped = "interrupt"
        if stopped == "interrupt":
            self.interrupted = True
        return _Walked(best, best_cost, history, k, accepted, stopped)


def _merged(initial: tuple, initial_cost: float, runs: Sequence[_Walked]) -> tuple[tuple, float, list]:
    """The best permutation over ``runs`` (the first met among equals), its cost, the history over all runs."""
    best, best_cost, history = initial, initial_cost, [(0, initial_cost)]
    done = 0
    for run in runs:
        for step, c in run.history:
            if c < history[-1][1]:
                history.append((done + step, c))
        if run.best_cost < best_cost:
            best, best_cost = run.best, run.best_cost
        done += run.iterations
    return best, best_cost, history


def _streams(seed, restarts: int, extra: int) -> tuple[list, int | None]:
    """One Generator per run: the ``restarts`` runs' as without ``extra`` runs, then the extra runs' own."""
    rngs, used = generators(seed, restarts)
    if not extra:
        return rngs, used
    if isinstance(seed, np.random.Generator):
        return rngs + list(seed.spawn(extra)), used
    children = np.random.SeedSequence(used).spawn(restarts + extra)[restarts:] if used is not None else \
        np.random.SeedSequence().spawn(extra)
    return rngs + [np.random.Generator(np.random.PCG64(child)) for child in children], used


def anneal(
    cost: Callable[[tuple], float],
    initial: Sequence,
    *,
    iterations: int | None = 1000,
    t_start: float = 10.0,
    t_end: float = 0.1,
    neighbourhood: Sequence[str] = NEIGHBOURHOODS,
    restarts: int = 1,
    restart_from: str = "initial",
    fixed: int = 0,
    seed: int | None = None,
    time_limit: float | None = None,
    workers: int | None = 1,
    books: Sequence = (),
    progress=None,
    also: Sequence[tuple[Sequence, float, float]] = (),
) -> AnnealResult:
    """Minimise ``cost`` over permutations of ``initial`` by simulated annealing.

    Parameters
    ----------
    cost : callable
        ``cost(permutation_tuple) -> float``, lower is better.
    initial : sequence
        The starting permutation.
    iterations : int, default 1000
        Proposals per run (each costs one ``cost`` call).  ``None`` with a
        ``time_limit`` runs until the time is up (cooling then follows the
        elapsed fraction of the time).
    t_start, t_end : float
        Temperatures of the geometric cooling ``T_k = t_start (t_end /
        t_start)^(k / iterations)``, in cost units.
    neighbourhood : sequence of {"swap", "move"}
        Neighbour moves, drawn uniformly.
    restarts : int, default 1
        Runs, each with its own Generator (spawned from ``seed``); each
        starts from ``initial`` (``restart_from="initial"``) or from the best
        permutation so far (``"best"``), at ``t_start``.
    fixed : int, default 0
        Leading positions that never move.
    seed : int, numpy Generator or None
        Makes step-bounded runs reproducible (as for
        :func:`~hornermcts.search.mcts.mcts`).
    time_limit : float, optional
        Seconds for the whole search; the best so far is returned when it
        runs out, and on Ctrl-C.
    workers : int or None, default 1
        Processes the runs from ``initial`` share (None: every core), by
        :func:`~hornermcts.search.parallel.fork_map`; the result of a
        step-bounded search is the same for every ``workers``.  Runs from
        the best so far (``restart_from="best"``) follow one another.
    books : sequence of ScoreBook
        Memos ``cost`` scores through: with ``workers > 1`` the scores the
        other processes add are copied back (see ``fork_map``).
    progress : None, True, "auto" or callable
        As for :func:`~hornermcts.search.mcts`; the callback receives
        ``(step, -best_cost)`` so that higher is better there too.
    also : sequence of (permutation, t_start, t_end)
        More runs after the ``restarts``, one from each permutation (of the
        same items) at its own temperatures, each with a stream of its own:
        the ``restarts`` runs stay what they are without them, so the best
        is never worse on an iteration budget (a portfolio of starts; under
        a ``time_limit`` every run takes its share of the time).
    """
    initial = tuple(initial)
    extra = [(tuple(p), float(t0), float(t1)) for p, t0, t1 in also]
    if any(sorted(map(repr, p)) != sorted(map(repr, initial)) or not 0 < t1 <= t0 for p, t0, t1 in extra):
        raise OptionError("also: each run needs a permutation of initial's items and temperatures 0 < t_end <= t_start")
    if iterations is None and time_limit is None:
        raise OptionError("no budget: give iterations=N and/or time_limit=seconds")
    integer("iterations", iterations, minimum=0, optional=True)
    seconds("time_limit", time_limit)
    if not (t_start > 0 and t_end > 0 and t_end <= t_start):
        raise OptionError(f"temperatures need 0 < t_end <= t_start, got t_start={t_start}, t_end={t_end}")
    bad = [k for k in neighbourhood if k not in NEIGHBOURHOODS]
    if bad or not neighbourhood:
        raise OptionError(f"neighbourhood must be a non-empty subset of {NEIGHBOURHOODS}, not {tuple(neighbourhood)!r}")
    integer("restarts", restarts, minimum=1)
    if restart_from not in ("initial", "best"):
        raise OptionError(f"restart_from must be 'initial' or 'best', not {restart_from!r}")
    if not 0 <= fixed <= len(initial):
        raise OptionError(f"fixed must lie in [0, {len(initial)}], not {fixed}")
    rngs, seed = _streams(seed, restarts, len(extra))
    starts = [(initial, None)] * restarts + [(p, (t0, t1)) for p, t0, t1 in extra]
    restarts = len(starts)
    workers = min(processes(workers), restarts)
    total = None if iterations is None else iterations * restarts
    callback, close = make_progress(progress, total=total)
    start = time.perf_counter()
    walk = _Walk(cost, iterations, t_start, t_end / t_start, tuple(neighbourhood), fixed,
                 None if time_limit is None else start + time_limit)
    initial_cost = cost(initial)
    runs: list[_Walked] = []
    try:
        if restart_from == "initial" and workers > 1:
            per = iterations if iterations is not None else 0

            def one(k: int) -> _Walked:  # process k % workers runs restarts k, k + workers, ...: it shares its time
                left = len(range(k, restarts, workers))
                return walk.run(starts[k][0], rngs[k], k * per, left, None if in_child() else callback, starts[k][1])

            runs = fork_map(one, range(restarts), workers, books=books)
        else:
            for k, rng in enumerate(rngs):
                begin = starts[k][0] if restart_from == "initial" or starts[k][1] is not None else \
                    _merged(initial, initial_cost, runs)[0]
                runs.append(walk.run(begin, rng, sum(run.iterations for run in runs), restarts - k, callback,
                                     starts[k][1]))
                if runs[-1].stopped != "iterations":
                    break
    except KeyboardInterrupt:  # in a progress call between runs
        walk.interrupted = True
    finally:
        best, best_cost, history = _merged(initial, initial_cost, runs)
        done = sum(run.iterations for run in runs)
        if callback is not None:
            callback(done, -best_cost)
        close()
    stopped = next((run.stopped for run in runs if run.stopped != "iterations"), "iterations")
    if walk.interrupted:
        stopped = "interrupt"
    return AnnealResult(best_moves=best, best_value=best_cost, history=tuple(history), iterations=done,
                        accepted=sum(run.accepted for run in runs), elapsed=time.perf_counter() - start,
                        stopped=stopped, seed=seed)
