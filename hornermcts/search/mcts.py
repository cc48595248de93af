"""Monte Carlo Tree Search for single-agent optimisation: UCT and SA-UCT.

One iteration (Ruijl et al., ICAART 2014, fig. 2; Browne et al. 2012):

1. **selection** (:func:`descend`): from the root, while the node is fully
   expanded, move to the child the selection rule picks, with the
   exploration value ``T(i)`` of the cooling schedule for iteration ``i``;
2. **expansion**: the expansion rule adds a child (single) or all children
   (full) at the node reached and returns the node to play out from;
3. **playout**: the playout policy finishes that node's state; the
   terminal state's reward is computed;
4. **backpropagation** (:func:`backpropagate`): the reward is added to the
   statistics of every node from there to the root.

The search is for optimisation, so beside the tree statistics it keeps the
best complete path ever seen: the tree moves *and* the playout moves, which
may leave the tree. That path, not the most visited child, is the answer.

Terminal nodes inside the tree: a node whose playout played no move is
terminal; its reward is cached on the node (``terminal_reward``, rewards are
deterministic by the protocol) and each later visit backs the cached value
up again without calling the problem. Such nodes keep being selectable, so a
fully explored tree wastes iterations on revisits instead of stopping.
"""

from __future__ import annotations

from ..errors import OptionError

import sys
from functools import partial
from math import inf
from time import perf_counter
from typing import Any, Callable

import numpy as np

from .arguments import budget, generators, integer
from .expansion import make_expansion
from .node import Node
from .playout import random_playout
from .problem import check_problem
from .progress import make_progress
from .result import MCTSResult
from .schedules import make_schedule
from .selection import uct

__all__ = ["mcts", "sa_uct", "descend", "backpropagate"]


def descend(root: Node, select: Callable[[Node, float], Node], exploration: float) -> tuple[Node, list]:
    """Selection phase: follow ``select`` while the node is fully expanded.

    Stops at the first node that has untried moves, unvisited children, or
    no children (a leaf never expanded, or a terminal node).

    Returns
    -------
    node : Node
        Where the descent stopped.
    moves : list
        The moves from the root to ``node`` (a fresh list).

    Examples
    --------
    >>> root = Node("r")
    >>> root.untried = []
    >>> child = Node("c", "m", root)
    >>> child.visits = root.visits = 1
    >>> root.children.append(child)
    >>> descend(root, uct, 1.0) == (child, ["m"])
    True
    """
    node = root
    moves = []
    while node.children and not node.untried and not node.unvisited:
        node = select(node, exploration)
        moves.append(node.move)
    return node, moves


def backpropagate(node: Node, reward: float, moves: list) -> None:
    """Backpropagation phase: add ``reward`` to ``node`` and its ancestors.

    ``moves`` is the complete path (from the root) that earned ``reward``;
    a node whose best improves keeps a reference to it.

    Examples
    --------
    >>> root = Node("r"); child = Node("c", "m", root)
    >>> backpropagate(child, 2.0, ["m"]); backpropagate(child, 1.0, ["m"])
    >>> root.visits, root.total, root.total_sq, root.best, root.worst
    (2, 3.0, 5.0, 2.0, 1.0)
    """
    square = reward * reward
    while node is not None:
        node.visits += 1
        node.total += reward
        node.total_sq += square
        if reward > node.best:
            node.best = reward
            node.best_moves = moves
        if reward < node.worst:
            node.worst = reward
        node = node.parent


class _Run:
    """The outcome of one restart."""

    __slots__ = ("best", "history", "iterations", "elapsed", "stopped", "root")

    def __init__(self, best, history, iterations, elapsed, stopped, root):
        self.best = best
        self.history = history
        self.iterations = iterations
        self.elapsed = elapsed
        self.stopped = stopped
        self.root = root


class _Cadence:
    """Calls the progress callback, doubling the stride while calls come fast."""

    __slots__ = ("callback", "stride", "last")

    MIN_GAP = 0.2  # seconds: aim at a few calls per second
    MAX_GAP = 1.0

    def __init__(self, callback: Callable[[int, float], None]) -> None:
        self.callback = callback
        self.stride = 1
        self.last = perf_counter()

    def __call__(self, iteration: int, best_reward: float) -> int:
        """Report, and return the number of iterations until the next report."""
        self.callback(iteration, best_reward)
        now = perf_counter()
        gap = now - self.last
        self.last = now
        if gap < self.MIN_GAP:
            self.stride *= 2
        elif gap > self.MAX_GAP and self.stride > 1:
            self.stride //= 2
        return self.stride


def _run(
    problem: Any,
    rng: np.random.Generator,
    *,
    iterations: int | None,
    time_limit: float | None,
    schedule: Callable[[float, float], float],
    select: Callable[[Node, float], Node],
    expand: Callable[[Node, Any, Any], Node],
    play: Callable[[Any, Any], tuple],
    offset: int,
    best_before: float,
    cadence: _Cadence | None,
    after_iteration: Callable[[Node, Node], None] | None = None,
) -> _Run:
    """One search from a fresh root; catches KeyboardInterrupt.

    ``after_iteration(root, leaf)``, if given, runs after each backpropagation:
    the hook for tree shaping such as beam pruning (:mod:`.beam`).
    """
    reward_of = problem.reward
    root = Node(problem.root())
    best = None  # (reward, moves, terminal state): replaced whole, never mutated
    history: list[tuple[int, float]] = []
    max_iterations = iterations if iterations is not None else sys.maxsize
    budget = float(iterations) if iterations is not None else inf
    timed = time_limit is not None
    start = perf_counter()
    deadline = start + time_limit if timed else inf
    next_report = 1 if cadence is not None else sys.maxsize
    stopped = "iterations"
    i = 0
    try:
        while i < max_iterations:
            if timed:
                now = perf_counter()
                if now >= deadline and i:
                    stopped = "time"
                    break
                elapsed = now - start
                # iterations the run will reach at the current rate: i / n is
                # then the elapsed fraction of the time limit
                projected = i * time_limit / elapsed if i and elapsed > 0.0 else inf
                temperature = schedule(i, projected if projected < budget else budget)
            else:
                temperature = schedule(i, budget)

            node, moves = descend(root, select, temperature)
            if node.terminal_reward is None:
                leaf = expand(node, problem, rng)
                if leaf is not node:
                    moves.append(leaf.move)
            else:
                leaf = node

            reward = leaf.terminal_reward
            if reward is None:
                final, tail = play(leaf.state, rng)
                reward = float(reward_of(final))
                if reward != reward:
                    raise OptionError(f"problem.reward returned NaN for state {final!r}")
                if tail:
                    moves.extend(tail)
                else:
                    leaf.terminal_reward = reward
                    if leaf.untried is None:
                        leaf.untried = []
            else:
                final = leaf.state

            if best is None or reward > best[0]:
                best = (reward, moves, final)
                history.append((offset + i, reward))
            backpropagate(leaf, reward, moves)
            if after_iteration is not None:
                after_iteration(root, leaf)
            i += 1
            if i >= next_report:
                next_report = i + cadence(offset + i, max(best[0], best_before))
    except KeyboardInterrupt:
        stopped = "interrupt"
        if best is not None and (not history or history[-1][1] != best[0]):
            history.append((offset + i, best[0]))
    return _Run(best, history, i, perf_counter() - start, stopped, root)


def mcts(
    problem: Any,
    *,
    iterations: int | None = None,
    time_limit: float | None = None,
    cp: float | None = None,
    schedule: str | Callable[[float, float], float] = "constant",
    selection: Callable[[Node, float], Node] = uct,
    expansion: str | Callable[[Node, Any, Any], Node] = "single",
    playout: Callable[[Any, Any, Any], tuple] | None = None,
    seed: int | np.random.Generator | None = None,
    repeats: int = 1,
    progress: Any = "auto",
    shaping: Callable[[], Callable[[Node, Node], None]] | None = None,
) -> MCTSResult:
    """Search ``problem`` with Monte Carlo Tree Search; return the best path.

    Parameters
    ----------
    problem : Problem
        Any object with ``root``, ``moves``, ``apply``, ``reward`` (and
        optionally ``playout``); see :mod:`hornermcts.search.problem`.
    iterations : int, optional
        Iterations per run (each restart gets this many).
    time_limit : float, optional
        Seconds per run. With both budgets a run stops at whichever comes
        first; at least one budget is required. The limit is checked
        between iterations (a long playout is not cut short) and every run
        does at least one iteration.
    cp : float, optional
        ``Cp``, the initial exploration constant of a named ``schedule``,
        ``>= 0``; default ``1/sqrt(2)``, the classic UCT value for rewards in
        [0, 1]. Scale it to your rewards. Leave unset with a callable schedule.
    schedule : str or callable, default "constant"
        The exploration value ``T(i, n)`` of iteration ``i``:
        ``"constant"`` (UCT: ``T = Cp``), ``"linear"`` (SA-UCT:
        ``Cp (N - i) / N``), ``"exponential"`` (``Cp`` down to ``Cp/100``),
        or a callable (see :mod:`hornermcts.search.schedules`). ``n`` is the
        iteration budget; with a time limit it is the number of iterations
        the run is projected to reach at its current rate (the smaller of the
        two if both are set), so ``i / n`` is the elapsed fraction of the
        time limit and SA-UCT cools to zero as time runs out.
    selection : callable, default uct
        ``rule(node, exploration) -> child`` (see :mod:`.selection`).
    expansion : {"single", "full"} or callable, default "single"
        ``"single"``: one untried child per visit, chosen at random;
        ``"full"``: all children at once, then visited in random order;
        or ``expand(node, problem, rng) -> node`` (see :mod:`.expansion`).
        Unvisited children are always visited before the rule chooses.
    playout : callable, optional
        ``policy(problem, state, rng) -> (terminal_state, moves)``; default
        ``problem.playout`` if the problem has one, else
        :func:`~hornermcts.search.playout.random_playout`.
    seed : int, numpy.random.Generator or None
        The only source of randomness (handed to expansion and playout): the
        same int gives a bit-for-bit identical iterations-only run. ``None``
        draws fresh entropy, reported as ``result.seed``.
    repeats : int, default 1
        ``R`` independent restarts, each with a fresh tree and its own
        Generator (spawned from ``seed``); the best over all is returned.
    progress : None, bool, "auto" or callable, default "auto"
        A callback ``progress(iteration, best_reward)``, called a few times a
        second at most and once at the end; ``True`` for a tqdm bar;
        ``"auto"`` for a bar only on a terminal after one second.
    shaping : callable, optional
        Tree shaping: a factory called once per restart that returns a hook
        ``after_iteration(root, leaf)``, run after every backpropagation
        (beam pruning in :func:`~hornermcts.search.beam.beam_mcts`).

    Returns
    -------
    MCTSResult
        Best moves, reward and terminal state, improvement history,
        iterations, elapsed time, tree statistics, stop reason. A
        KeyboardInterrupt during the search is caught: the result holds the
        best found so far and ``stopped == "interrupt"`` (``interrupted``);
        remaining restarts are skipped. If it came before the first reward,
        ``best_reward`` is ``-inf`` and ``best_moves`` empty.

    Raises
    ------
    ValueError
        For an invalid budget, ``cp``, ``schedule``, ``expansion``, ``seed``,
        ``repeats`` or ``progress``, naming the parameter; if the problem's
        reward is NaN.
    TypeError
        If ``problem`` lacks a required method.

    Examples
    --------
    Order three items; the cost of an order is the sum of position × weight:

    >>> from itertools import permutations
    >>> weights = {"a": 3, "b": 1, "c": 2}
    >>> class Order:
    ...     def root(self): return ()
    ...     def moves(self, s): return [x for x in "abc" if x not in s]
    ...     def apply(self, s, m): return s + (m,)
    ...     def reward(self, s): return -sum(i * weights[x] for i, x in enumerate(s))
    >>> result = mcts(Order(), iterations=50, seed=7)
    >>> result.best_moves, result.best_reward, result.iterations
    (('a', 'c', 'b'), -4.0, 50)
    >>> max(Order().reward(p) for p in permutations("abc"))
    -4
    >>> result.history[-1][1] == result.best_reward, result.stopped
    (True, 'iterations')
    """
    check_problem(problem)
    budget(iterations, time_limit)
    integer("repeats", repeats, minimum=1)
    temperature_schedule = make_schedule(schedule, cp)
    if not callable(selection):
        raise OptionError(f"selection must be a callable rule(node, exploration), got {selection!r}")
    expand = make_expansion(expansion)
    if playout is None:
        method = getattr(problem, "playout", None)
        play = method if callable(method) else partial(random_playout, problem)
    elif callable(playout):
        play = partial(playout, problem)
    else:
        raise OptionError(f"playout must be a callable policy(problem, state, rng), got {playout!r}")
    rngs, seed_used = generators(seed, repeats)
    total = iterations * repeats if iterations is not None else None
    callback, close = make_progress(progress, total=total)
    cadence = _Cadence(callback) if callback is not None else None

    runs: list[_Run] = []
    done = 0
    overall = -inf
    try:
        for rng in rngs:
            run = _run(
                problem,
                rng,
                iterations=iterations,
                time_limit=time_limit,
                schedule=temperature_schedule,
                select=selection,
                expand=expand,
                play=play,
                offset=done,
                best_before=overall,
                cadence=cadence,
                after_iteration=shaping() if shaping is not None else None,
            )
            runs.append(run)
            done += run.iterations
            if run.best is not None and run.best[0] > overall:
                overall = run.best[0]
            if run.stopped == "interrupt":
                break
        if callback is not None:
            callback(done, overall)
    except KeyboardInterrupt:  # in the final progress call
        if runs:
            runs[-1].stopped = "interrupt"
    finally:
        close()
    return _combine(runs, seed_used)


def _result(run: _Run, history: list, iterations: int, elapsed: float, stopped: str, seed, runs, tree) -> MCTSResult:
    if run.best is None:
        reward, moves, state = -inf, (), None
    else:
        reward, moves, state = run.best
    root = run.root
    return MCTSResult(
        best_moves=tuple(moves),
        best_value=reward,
        best_state=state,
        history=tuple(history),
        iterations=iterations,
        elapsed=elapsed,
        node_count=root.size(),
        max_depth=root.height(),
        root_visits=tuple((child.move, child.visits) for child in root.children),
        stopped=stopped,
        seed=seed,
        runs=runs,
        tree=tree,
    )


def _combine(runs: list[_Run], seed: int | None) -> MCTSResult:
    """The result of the best run, with history and counts over all runs."""
    best_run = runs[0]
    for run in runs[1:]:
        if run.best is not None and (best_run.best is None or run.best[0] > best_run.best[0]):
            best_run = run
    history: list[tuple[int, float]] = []
    for run in runs:
        for entry in run.history:
            if not history or entry[1] > history[-1][1]:
                history.append(entry)
    iterations = sum(run.iterations for run in runs)
    elapsed = sum(run.elapsed for run in runs)
    stopped = runs[-1].stopped  # an interrupt ends the restarts, so it is the last
    per_run: tuple = ()
    if len(runs) > 1:
        offset = 0
        per_run_list = []
        for run in runs:
            own = [(index - offset, reward) for index, reward in run.history]
            per_run_list.append(
                _result(run, own, run.iterations, run.elapsed, run.stopped, None, (), None)
            )
            offset += run.iterations
        per_run = tuple(per_run_list)
    return _result(best_run, history, iterations, elapsed, stopped, seed, per_run, best_run.root)


def sa_uct(problem: Any, *, cp: float | None = None, **options: Any) -> MCTSResult:
    """MCTS with SA-UCT: :func:`mcts` with the linear schedule ``T(i) = Cp (N - i) / N``.

    Takes the same keyword options as :func:`mcts` (except ``schedule``).

    Examples
    --------
    >>> class Bits:
    ...     def root(self): return ()
    ...     def moves(self, s): return (0, 1) if len(s) < 4 else ()
    ...     def apply(self, s, m): return s + (m,)
    ...     def reward(self, s): return float(sum(s))
    >>> sa_uct(Bits(), cp=1.0, iterations=40, seed=3).best_moves
    (1, 1, 1, 1)
    """
    if "schedule" in options:
        raise TypeError("sa_uct() fixes schedule='linear'; use mcts() for another schedule")
    return mcts(problem, schedule="linear", cp=cp, **options)
