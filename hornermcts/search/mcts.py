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
from dataclasses import dataclass, replace
from functools import partial
from math import inf, sqrt
from time import perf_counter
from typing import Any, Callable, Sequence

import numpy as np

from .arguments import budget, finite, generators, integer
from .arguments import clock as clock_function
from .expansion import make_expansion
from .node import Node
from .normalised_uct import SCOPES, VALUES, NormalisedUCT
from .parallel import fork_map, in_child, processes
from .playout import playout_policy
from .problem import check_problem
from .progress import make_progress
from .pruning import bounded_expansion, remove
from .pruning import prune as prune_tree
from .result import MCTSResult
from .schedules import make_schedule
from .selection import uct
from .values import Infeasible, better, is_cost_problem, outcome, upper_bound
from .warm_up import warm_up

__all__ = ["mcts", "sa_uct", "descend", "descend_interleaved", "backpropagate", "backpropagate_infeasible",
           "mark_done"]


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


def descend_interleaved(
    root: Node, select: Callable[[Node, float], Node], exploration: float, theta: int
) -> tuple[Node, list]:
    """Selection with interleaving (Rei §3.6, Alg. 3.1): descend past expandable nodes once every θ passes.

    A node that still has untried moves stops the descent (to be expanded)
    except on every ``theta``-th pass through it, when the rule picks one of
    its children instead, so that promising subtrees keep deepening while
    their parents are still being widened. Each node counts its passes
    (``node.passes``); the printed Alg. 3.1 counts children instead, which
    takes an argmax over no children and stops expanding once a node has θ
    children (docs/domains.md §A1-6). Unvisited children always stop the descent.

    Examples
    --------
    >>> root = Node("r"); root.untried = ["more"]
    >>> child = Node("c", "m", root); child.visits = root.visits = 1
    >>> root.children.append(child)
    >>> [descend_interleaved(root, uct, 1.0, 3)[0] is child for _ in range(6)]
    [False, False, True, False, False, True]
    """
    node = root
    moves = []
    while node.children and not node.unvisited:
        if node.untried:
            node.passes += 1
            if node.passes % theta:
                break
        node = select(node, exploration)
        moves.append(node.move)
    return node, moves


def backpropagate(node: Node, reward: float, moves: list | None) -> None:
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

def backpropagate_infeasible(node: Node, outcome: Infeasible, moves: list | None) -> None:
    """Backpropagate an infeasible outcome: tallies and violation extremes (Rei §3.3), no reward sums.

    Examples
    --------
    >>> root = Node("r"); child = Node("c", "m", root)
    >>> backpropagate_infeasible(child, Infeasible(3.0), ["m"])
    >>> root.visits, root.infeasible, root.least_violation, root.best_path
    (1, 1, 3.0, ('m',))
    """
    violation = outcome.violation
    while node is not None:
        node.visits += 1
        node.infeasible += 1
        if violation < node.least_violation:
            node.least_violation = violation
            if node.best == -inf:
                node.best_moves = moves
        if violation > node.most_violation:
            node.most_violation = violation
        node = node.parent


def mark_done(leaf: Node) -> bool:
    """Mark the terminal ``leaf`` done, then each ancestor whose moves are all expanded and children done.

    Returns True when the root is done: the whole tree has been seen, every
    terminal state reached, and the search can stop (its best is optimal).
    Used when the search keeps its whole tree (Rei's managed loop removes
    exhausted nodes instead, :mod:`.pruning`).

    Examples
    --------
    >>> root = Node("r"); root.untried = []
    >>> a, b = Node("a", "a", root), Node("b", "b", root)
    >>> root.children = [a, b]
    >>> mark_done(a), root.done
    (False, False)
    >>> mark_done(b), root.done
    (True, True)
    """
    node = leaf
    node.done = True
    while node.parent is not None:
        node = node.parent
        if node.untried is None or node.untried or node.unvisited or not all(c.done for c in node.children):
            return False
        node.done = True
    return True


class _Run:
    """The outcome of one restart (values in the search's maximisation sense)."""

    __slots__ = ("best", "history", "seconds", "iterations", "elapsed", "stopped", "root", "shape")

    def __init__(self, best, history, seconds, iterations, elapsed, stopped, root):
        self.best = best
        self.history = history
        self.seconds = seconds
        self.iterations = iterations
        self.elapsed = elapsed
        self.stopped = stopped
        self.root = root
        self.shape = None  # (nodes, height, root visits) of a tree left behind in another process

    def summary(self) -> tuple:
        """``(node count, height, ((move, visits) of each root child))`` of the run's tree."""
        if self.root is None:
            return self.shape
        return self.root.size(), self.root.height(), tuple((child.move, child.visits) for child in self.root.children)

    def travel_light(self) -> _Run:
        """Keep the tree's summary, drop the tree: a restart run in a child process sends no tree back."""
        self.shape = self.summary()
        self.root = None
        return self


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


@dataclass(frozen=True)
class _Plan:
    """What every run of one search shares (built and checked by :func:`mcts`)."""

    score: Callable[[Any], Any]  # terminal state -> float (maximised) or Infeasible
    shown: Callable[[Any], float]  # search value -> the problem's sense, for progress
    schedule: Callable[[float, float], float]
    rule: Callable[[Node], Callable[[Node, float], Node]]  # run's board -> selection rule
    expand: Callable[[Node, Any, Any], Node]
    play: Callable[[Any, Any], tuple]
    iterations: int | None
    time_limit: float | None
    clock: Callable[[], float]
    managed: bool  # Rei's main loop: root simulated first, exhausted subtrees removed
    global_board: bool
    per_visit: int
    interleave: int | None
    bound: Callable[[Any], float] | None
    target: float | None
    shaping: Callable[[], Callable[[Node, Node], None]] | None
    cost_problem: bool  # the problem states costs (minimised): values are negated inside the search


def _leader(value: Any, other: Any) -> Any:
    """The better of two search values (``None`` is no value)."""
    if other is None or (value is not None and better(value, other)):
        return value
    return other


class _Search:
    """One run from a fresh root: the tree, the best path found, why it stopped; the phases are its methods.

    An iteration (:func:`_run` is the loop) is :meth:`select`, then for each
    child simulated from the node reached (``expansion_limit`` of them at
    most) :meth:`expand`, :meth:`simulate` and :meth:`backpropagate`;
    :meth:`visit` runs those for one selected node.  ``plan.shaping()``, if
    given, returns a hook ``after_iteration(root, leaf)`` run after each
    backpropagation: the hook for tree shaping such as beam pruning
    (:mod:`.beam`).
    """

    def __init__(self, problem: Any, plan: _Plan, rng: np.random.Generator, offset: int) -> None:
        self.problem, self.plan, self.rng, self.offset = problem, plan, rng, offset
        self.root = Node(problem.root())
        self.board = Node(None) if plan.global_board else None
        self.rule = plan.rule(self.board) if self.board is not None else plan.rule(self.root)
        self.expansion = plan.expand
        self.incumbent: list = [None]  # the best feasible value, read by the bounded expansion
        if plan.bound is not None:
            self.expansion = bounded_expansion(self.expansion, plan.bound, self.incumbent)
            self.root.bound = plan.bound(self.root.state)
        self.after_iteration = plan.shaping() if plan.shaping is not None else None
        # the tree is kept whole (no removal, no beam): a done root means every terminal state was reached
        self.whole_tree = not plan.managed and self.after_iteration is None
        self.best: tuple | None = None  # (value, moves, terminal state): replaced whole, never mutated
        self.history: list[tuple[int, Any]] = []
        self.seconds: list[float] = []
        self.max_iterations = plan.iterations if plan.iterations is not None else sys.maxsize
        self.budget = float(plan.iterations) if plan.iterations is not None else inf
        self.start = plan.clock()
        self.deadline = self.start + plan.time_limit if plan.time_limit is not None else inf
        self.stopped = "iterations"
        self.i = 0

    def temperature(self) -> float | None:
        """The exploration value of this iteration by the schedule; None when the time limit has come."""
        plan, i = self.plan, self.i
        if plan.time_limit is None:
            return plan.schedule(i, self.budget)
        now = plan.clock()
        if now >= self.deadline and i:
            self.stopped = "time"
            return None
        elapsed = now - self.start
        # iterations the run will reach at the current rate: i / n is then the elapsed fraction of the time limit
        projected = i * plan.time_limit / elapsed if i and elapsed > 0.0 else inf
        return plan.schedule(i, projected if projected < self.budget else self.budget)

    def select(self, temperature: float) -> tuple[Node, list]:
        """Selection: the node to expand and the moves to it (Rei's loop simulates the root first)."""
        if self.plan.managed and not self.root.visits:
            return self.root, []
        if self.plan.interleave is None:
            return descend(self.root, self.rule, temperature)
        return descend_interleaved(self.root, self.rule, temperature, self.plan.interleave)

    def visit(self, node: Node, moves: list) -> None:
        """Expand, simulate and backpropagate at ``node`` until its children for this visit are simulated."""
        plan, done = self.plan, 0
        while True:
            leaf = self.expand(node)
            if leaf is None:
                return
            path = moves if plan.per_visit == 1 else list(moves)
            if leaf is not node:
                path.append(leaf.move)
            reward, final = self.simulate(leaf, path)
            self.backpropagate(leaf, reward, path, final)
            self.i += 1
            done += 1
            if (done >= plan.per_visit or leaf is node or self.stopped != "iterations"
                    or self.i >= self.max_iterations or not (node.untried or node.unvisited)):
                return

    def expand(self, node: Node) -> Node | None:
        """Expansion: the node to simulate from (a new child, or ``node``); None when nothing is left here."""
        managed = self.plan.managed
        if node.terminal_reward is not None or (managed and not node.visits):
            return node
        leaf = self.expansion(node, self.problem, self.rng)
        if leaf is node and managed and node.untried is not None and not node.untried and not node.unvisited:
            # every move used or bounded away: nothing to simulate here
            if not node.children and remove(node):
                self.stopped = "exhausted"
            return None
        return leaf

    def simulate(self, leaf: Node, path: list) -> tuple[Any, Any]:
        """Playout: ``(reward, terminal state)`` from ``leaf``; its moves extend ``path``; a terminal leaf caches it."""
        reward = leaf.terminal_reward
        if reward is not None:
            return reward, leaf.state
        final, tail = self.plan.play(leaf.state, self.rng)
        reward = self.plan.score(final)
        if tail:
            path.extend(tail)
        else:
            leaf.terminal_reward = reward
            if leaf.untried is None:
                leaf.untried = []
            if self.whole_tree and mark_done(leaf):
                self.stopped = "exhausted"
        return reward, final

    def backpropagate(self, leaf: Node, reward: Any, path: list, final: Any) -> None:
        """Backpropagation: the statistics up to the root, the best path, pruning and the stop conditions."""
        managed, board = self.plan.managed, self.board
        # Rei's loop keeps the run's best path only: a path per node costs depth x nodes
        kept = None if managed else path
        if reward.__class__ is Infeasible:
            if not managed:
                raise OptionError(
                    f"the problem scored {reward!r}: infeasible outcomes need value='best' "
                    "or normalize= (Rei's ranking of infeasible solutions)"
                )
            backpropagate_infeasible(leaf, reward, kept)
            if board is not None:
                backpropagate_infeasible(board, reward, kept)
        else:
            backpropagate(leaf, reward, kept)
            if board is not None:
                backpropagate(board, reward, kept)
        if managed and leaf.own is None:
            leaf.own = reward
        if self.best is None or better(reward, self.best[0]):
            self._improved(reward, path, final)
        if managed and leaf.terminal_reward is not None and remove(leaf):
            self.stopped = "exhausted"
        if self.after_iteration is not None:
            self.after_iteration(self.root, leaf)

    def _improved(self, reward: Any, path: list, final: Any) -> None:
        """A new best: recorded; the bound prunes by it; a target reached stops the run."""
        self.best = (reward, path, final)
        self.history.append((self.offset + self.i, reward))
        self.seconds.append(self.plan.clock() - self.start)
        if reward.__class__ is Infeasible:
            return
        if self.plan.bound is not None:
            self.incumbent[0] = reward
            if prune_tree(self.root, reward):
                self.stopped = "exhausted"
        if self.plan.target is not None and reward >= self.plan.target:
            self.stopped = "target"

    def interrupted(self) -> None:
        """Stop on a KeyboardInterrupt, the best so far recorded as the last improvement."""
        self.stopped = "interrupt"
        best = self.best
        if best is not None and (not self.history or self.history[-1][1] != best[0]):
            self.history.append((self.offset + self.i, best[0]))
            self.seconds.append(self.plan.clock() - self.start)

    def outcome(self) -> _Run:
        return _Run(self.best, self.history, self.seconds, self.i, self.plan.clock() - self.start, self.stopped,
                    self.root)


def _run(problem: Any, plan: _Plan, rng: np.random.Generator, offset: int, best_before: Any,
         cadence: _Cadence | None) -> _Run:
    """One search from a fresh root, phase by phase (see :class:`_Search`); catches KeyboardInterrupt."""
    search = _Search(problem, plan, rng, offset)
    next_report = 1 if cadence is not None else sys.maxsize
    try:
        while search.i < search.max_iterations:
            temperature = search.temperature()
            if temperature is None:
                break
            search.visit(*search.select(temperature))
            if search.stopped != "iterations":
                break
            if search.i >= next_report:
                best = search.best[0] if search.best is not None else None
                next_report = search.i + cadence(offset + search.i, plan.shown(_leader(best, best_before)))
    except KeyboardInterrupt:
        search.interrupted()
    return search.outcome()


def mcts(
    problem: Any,
    *,
    iterations: int | None = None,
    time_limit: float | None = None,
    clock: str = "wall",
    cp: float | None = None,
    schedule: str | Callable[[float, float], float] = "constant",
    selection: Callable[[Node, float], Node] = uct,
    value: str = "mean",
    normalize: str | None = None,
    depth_bonus: bool = False,
    expansion: str | Callable[[Node, Any, Any], Node] = "single",
    expansion_limit: int | None = 1,
    interleave: int | None = None,
    prune: bool = False,
    target: float | None = None,
    playout: Callable[[Any, Any, Any], tuple] | None = None,
    seed: int | np.random.Generator | None = None,
    repeats: int = 1,
    workers: int | None = 1,
    books: Sequence = (),
    progress: Any = "auto",
    shaping: Callable[[], Callable[[Node, Node], None]] | None = None,
) -> MCTSResult:
    """Search ``problem`` with Monte Carlo Tree Search; return the best path.

    Parameters
    ----------
    problem : Problem
        Any object with ``root``, ``moves``, ``apply`` and ``reward``
        (maximised) or ``cost`` (minimised), and optionally ``playout`` and
        ``bound``; see :mod:`hornermcts.search.problem`.
    iterations : int, optional
        Iterations per run (each restart gets this many): simulations, one
        per iteration unless ``expansion_limit`` lets an iteration simulate
        several new children (each counts).
    time_limit : float, optional
        Seconds per run on ``clock``. With both budgets a run stops at
        whichever comes first; at least one budget is required. The limit is
        checked between iterations (a long playout is not cut short) and
        every run does at least one iteration.
    clock : {"wall", "cpu"}, default "wall"
        What ``time_limit`` and ``elapsed`` measure: wall-clock seconds, or
        the CPU seconds of this process (the thesis' budgets, Rei 2016).
    cp : float, optional
        ``Cp``, the initial exploration constant of a named ``schedule``,
        ``>= 0``; default ``1/sqrt(2)`` (the classic UCT value for rewards in
        [0, 1]) with the default rule, ``sqrt(2)`` with Rei's rule
        (``value=``/``normalize=``, whose values lie in [0, 1] and whose
        exploration term is ``C sqrt(ln v_p / v_n)``). Scale it to your
        rewards. Leave unset with a callable schedule.
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
    value : {"mean", "best"}, default "mean"
        The child statistic of the selection: the mean outcome (UCT), or the
        best outcome found in the child's subtree (Rei §3.1), with the rule
        :class:`~.normalised_uct.NormalisedUCT`.
    normalize : {None, "parent", "global"}, default None
        Map each child's value onto [0, 1] by the best and worst outcomes
        under its parent (Eq. 3.1) or of the whole run (Rei's code); needed
        to rank infeasible outcomes (Eqs. 3.2–3.3).
    depth_bonus : bool, default False
        Add ``1 / (1 + depth)`` to each child's score (Rei's code).
    expansion : {"single", "full", "lazy"} or callable, default "single"
        ``"single"``: one untried child per visit, chosen at random;
        ``"full"``: all children at once, then visited in random order;
        ``"lazy"``: one child per visit, the next move of
        ``problem.iter_moves(state)`` (or of ``moves``), in that order (Rei
        §3.5); or ``expand(node, problem, rng) -> node`` (see
        :mod:`.expansion`). Unvisited children are always visited before the
        rule chooses.
    expansion_limit : int or None, default 1
        Children expanded and simulated per visit of a node (Rei's
        ``EXPANSION_LIMIT``; ``None``: as many as the node has).
    interleave : int, optional
        θ >= 2 of selection interleaving (Rei §3.6): a node that can still
        be expanded lets the descent pass into its children once every θ
        passes (:func:`descend_interleaved`). Default: never (θ = ∞).
    prune : bool, default False
        Branch-and-bound with ``problem.bound`` (Rei §3.4): a child whose
        bound cannot beat the incumbent is not created, and the tree is swept
        whenever the incumbent improves (:mod:`.pruning`).
    target : float, optional
        Stop as soon as a feasible outcome at least this good (a reward
        ``>= target``, a cost ``<= target``) is found (``stopped="target"``).
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
    workers : int or None, default 1
        Processes the restarts run on (None: every core), by
        :func:`~hornermcts.search.parallel.fork_map`; the result is the same
        for every ``workers`` (each restart has its own Generator), except
        :attr:`~MCTSResult.tree`: the tree of a restart run in another
        process stays there (None; its node count, depth and root visits
        are kept), as sending it back would cost more than growing it.
    books : sequence of ScoreBook
        Memos the problem scores through: with ``workers > 1`` the scores
        the other processes add are copied back (see ``fork_map``).
    progress : None, bool, "auto" or callable, default "auto"
        A callback ``progress(iteration, best)``, called a few times a second
        at most and once at the end, ``best`` in the problem's sense (a cost
        for a cost problem); ``True`` for a tqdm bar; ``"auto"`` for a bar
        only on a terminal after one second.
    shaping : callable, optional
        Tree shaping: a factory called once per restart that returns a hook
        ``after_iteration(root, leaf)``, run after every backpropagation
        (beam pruning in :func:`~hornermcts.search.beam.beam_mcts`).

    With ``value="best"``, ``normalize``, ``depth_bonus``, ``interleave`` or
    ``prune``, the search runs Rei's main loop (App. A.1): the root is
    simulated first; a fully explored subtree leaves the tree (each ancestor's
    best is recomputed from what remains, :mod:`.pruning`); outcomes may be
    :class:`~.values.Infeasible`; and when the root itself is exhausted the
    search stops with ``stopped="exhausted"`` and ``proven=True``: every
    terminal state was reached or ruled out by the bound, so the best is
    optimal.

    Returns
    -------
    MCTSResult
        Best moves, value (in the problem's sense: a cost for a cost
        problem) and terminal state, improvement history (with its times in
        ``history_seconds``), iterations, elapsed time, tree statistics, stop
        reason, ``proven``. A KeyboardInterrupt during the search is caught:
        the result holds the best found so far and ``stopped == "interrupt"``
        (``interrupted``); remaining restarts are skipped. If it came before
        the first outcome, ``best_value`` is ``-inf`` (``inf`` for a cost)
        and ``best_moves`` empty.

    Raises
    ------
    ValueError
        (:class:`~hornermcts.errors.OptionError`) For an invalid budget,
        ``clock``, ``cp``, ``schedule``, ``value``, ``normalize``,
        ``expansion``, ``expansion_limit``, ``interleave``, ``target``,
        ``seed``, ``repeats`` or ``progress``, naming the parameter; for
        ``prune`` without ``problem.bound``; if the problem scores NaN, or
        Infeasible without Rei's loop.
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

    The same as a cost, searched by Rei's rules: the tree is exhausted, so
    the answer is proven optimal.

    >>> class OrderCost(Order):
    ...     reward = None
    ...     def cost(self, s): return sum(i * weights[x] for i, x in enumerate(s))
    >>> result = mcts(OrderCost(), iterations=50, value="best", normalize="parent", seed=7)
    >>> result.best_value, result.best_moves, result.stopped, result.proven, result.maximize
    (4.0, ('a', 'c', 'b'), 'exhausted', True, False)
    """
    check_problem(problem)
    budget(iterations, time_limit)
    integer("repeats", repeats, minimum=1)
    workers = processes(workers)
    plan = _plan(problem, iterations=iterations, time_limit=time_limit, clock=clock, cp=cp, schedule=schedule,
                 selection=selection, value=value, normalize=normalize, depth_bonus=depth_bonus, expansion=expansion,
                 expansion_limit=expansion_limit, interleave=interleave, prune=prune, target=target,
                 playout=playout, shaping=shaping)
    if time_limit is not None:  # compile the problem's kernels before the clock starts (search/warm_up.py)
        warm_up(problem, plan.play, bound=prune and hasattr(problem, "bound"))
    rngs, seed_used = generators(seed, repeats)
    total = iterations * repeats if iterations is not None else None
    callback, close = make_progress(progress, total=total)
    try:
        runs, wall = _restarts(problem, plan, rngs, workers, books, callback)
    finally:
        close()
    combined = _combine(runs, seed_used, plan.cost_problem)
    if wall is not None and plan.clock is perf_counter:  # overlapping restarts: their wall time
        combined = replace(combined, elapsed=wall)
    return combined


def _plan(problem: Any, *, iterations, time_limit, clock, cp, schedule, selection, value, normalize, depth_bonus,
          expansion, expansion_limit, interleave, prune, target, playout, shaping) -> _Plan:
    """The options of :func:`mcts` checked (each error names its parameter) and made one :class:`_Plan`."""
    read_clock = clock_function(clock)
    if value not in VALUES:
        raise OptionError(f"value must be 'mean' or 'best', got {value!r}")
    if normalize not in SCOPES:
        raise OptionError(f"normalize must be None, 'parent' or 'global', got {normalize!r}")
    if not isinstance(depth_bonus, bool):
        raise OptionError(f"depth_bonus must be True or False, got {depth_bonus!r}")
    if not isinstance(prune, bool):
        raise OptionError(f"prune must be True or False, got {prune!r}")
    if expansion_limit is not None:
        integer("expansion_limit", expansion_limit, minimum=1)
    if interleave is not None:
        integer("interleave", interleave, minimum=2)
    if not callable(selection):
        raise OptionError(f"selection must be a callable rule(node, exploration), got {selection!r}")
    rei_rule = value == "best" or normalize is not None or depth_bonus
    if rei_rule and selection is not uct:
        raise OptionError("value=, normalize= and depth_bonus= define the selection rule: do not also pass selection=")
    cost_problem = is_cost_problem(problem)
    target_value = None
    if target is not None:
        target_value = finite("target", target)
        if cost_problem:
            target_value = -target_value
    if rei_rule and cp is None and not callable(schedule):
        cp = sqrt(2.0)
    temperature_schedule = make_schedule(schedule, cp)
    if rei_rule:
        def rule(board: Node) -> Callable[[Node, float], Node]:
            return NormalisedUCT(value, normalize, depth_bonus, board if normalize == "global" else None)
    else:
        def rule(board: Node) -> Callable[[Node, float], Node]:
            return selection
    expand = make_expansion(expansion)
    play = playout_policy(problem, playout)
    return _Plan(
        score=outcome(problem),
        shown=partial(_shown, cost_problem),
        schedule=temperature_schedule,
        rule=rule,
        expand=expand,
        play=play,
        iterations=iterations,
        time_limit=time_limit,
        clock=read_clock,
        managed=rei_rule or prune or interleave is not None,
        global_board=normalize == "global",
        per_visit=expansion_limit if expansion_limit is not None else sys.maxsize,
        interleave=interleave,
        bound=upper_bound(problem) if prune else None,
        target=target_value,
        shaping=shaping,
        cost_problem=cost_problem,
    )


def _restarts(problem: Any, plan: _Plan, rngs: list, workers: int, books: Sequence,
              callback: Callable[[int, float], None] | None) -> tuple[list[_Run], float | None]:
    """The runs, one per Generator (on ``workers`` processes), and their wall time when they overlapped (else None).

    A restart that ends the restarts (:data:`ENDS_RESTARTS`) is the last;
    ``callback`` hears of the progress, and once more at the end.
    """
    cadence = _Cadence(callback) if callback is not None else None
    runs: list[_Run] = []
    wall = None
    overall = None
    try:
        if workers > 1 and len(rngs) > 1:
            wall = perf_counter()
            runs = _parallel_runs(problem, plan, rngs, workers, books, cadence)
            wall = perf_counter() - wall
        else:
            for rng in rngs:
                run = _run(problem, plan, rng, sum(r.iterations for r in runs), overall, cadence)
                runs.append(run)
                if run.best is not None:
                    overall = _leader(run.best[0], overall)
                if run.stopped in ENDS_RESTARTS:
                    break  # nothing better to find, or the user asked to stop
        if callback is not None:
            for run in runs if wall is not None else ():
                if run.best is not None:
                    overall = _leader(run.best[0], overall)
            callback(sum(run.iterations for run in runs), plan.shown(overall))
    except KeyboardInterrupt:  # in the final progress call
        if runs:
            runs[-1].stopped = "interrupt"
    return runs, wall


#: A restart that stops for one of these reasons ends the restarts.
ENDS_RESTARTS = ("interrupt", "exhausted", "target")


def _parallel_runs(problem: Any, plan: _Plan, rngs: list, workers: int, books: Sequence,
                   cadence: _Cadence | None) -> list[_Run]:
    """The restarts on ``workers`` processes (:func:`~.parallel.fork_map`), as a one-process run leaves them.

    Each restart has its own Generator, so its search is the same wherever
    it runs; its history is shifted by the iterations of the restarts before
    it, and the restarts after the first that ends them (an interrupt,
    exhaustion, a target) are dropped, as one process would not have run them.
    """
    per = plan.iterations if plan.iterations is not None else 0

    def one(k: int) -> _Run:
        run = _run(problem, plan, rngs[k], k * per, None, None if in_child() else cadence)
        return run.travel_light() if in_child() else run  # a tree costs more to send than to grow

    runs = fork_map(one, range(len(rngs)), workers, books=books)
    for end, run in enumerate(runs):
        if run.stopped in ENDS_RESTARTS:
            runs = runs[:end + 1]
            break
    done = 0
    for k, run in enumerate(runs):
        shift = done - k * per
        run.history = [(index + shift, value) for index, value in run.history]
        done += run.iterations
    return runs


def _shown(cost_problem: bool, value: Any) -> float:
    """A search value in the problem's sense, as a float for progress displays."""
    if value is None:
        return inf if cost_problem else -inf
    if value.__class__ is Infeasible:
        return inf if cost_problem else -inf
    return -value if cost_problem else value


def _result(run: _Run, history: list, seconds: list, iterations: int, elapsed: float, stopped: str, seed, runs,
            tree, cost_problem: bool) -> MCTSResult:
    def sense(value: Any) -> Any:
        return -value if cost_problem and value.__class__ is not Infeasible else value

    if run.best is None:
        best, moves, state = -inf, (), None
    else:
        best, moves, state = run.best
    nodes, height, root_visits = run.summary()
    return MCTSResult(
        best_moves=tuple(moves),
        best_value=sense(best),
        best_state=state,
        history=tuple((index, sense(value)) for index, value in history),
        history_seconds=tuple(seconds),
        iterations=iterations,
        elapsed=elapsed,
        node_count=nodes,
        max_depth=height,
        root_visits=root_visits,
        stopped=stopped,
        proven=stopped == "exhausted",
        maximize=not cost_problem,
        seed=seed,
        runs=runs,
        tree=tree,
    )


def _combine(runs: list[_Run], seed: int | None, cost_problem: bool) -> MCTSResult:
    """The result of the best run, with history and counts over all runs."""
    best_run = runs[0]
    for run in runs[1:]:
        if run.best is not None and (best_run.best is None or better(run.best[0], best_run.best[0])):
            best_run = run
    history: list[tuple[int, Any]] = []
    seconds: list[float] = []
    clock_offset = 0.0
    for run in runs:
        for entry, at in zip(run.history, run.seconds):
            if not history or better(entry[1], history[-1][1]):
                history.append(entry)
                seconds.append(clock_offset + at)
        clock_offset += run.elapsed
    iterations = sum(run.iterations for run in runs)
    elapsed = sum(run.elapsed for run in runs)
    stopped = runs[-1].stopped  # an interrupt, exhaustion or target ends the restarts, so it is the last
    per_run: tuple = ()
    if len(runs) > 1:
        offset = 0
        per_run_list = []
        for run in runs:
            own = [(index - offset, reward) for index, reward in run.history]
            per_run_list.append(
                _result(run, own, run.seconds, run.iterations, run.elapsed, run.stopped, None, (), None,
                        cost_problem)
            )
            offset += run.iterations
        per_run = tuple(per_run_list)
    return _result(best_run, history, seconds, iterations, elapsed, stopped, seed, per_run, best_run.root,
                   cost_problem)


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
