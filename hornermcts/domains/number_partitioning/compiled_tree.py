"""MCTS for number partitioning on a compiled tree: the driver of :mod:`.tree_kernels`.

:func:`compiled_mcts` runs the thesis's MCTS (:data:`~.solve.THESIS_MCTS`,
the algorithm of :func:`hornermcts.search.mcts` on
:class:`~.problem.NumberPartitioning`) with the tree in arrays and every
phase compiled: it builds the node store, runs the compiled loop in chunks
of visits, reads the clock between chunks (a chunk lasts a few
milliseconds), doubles the store when it fills, and returns the best path
with its discrepancy recomputed exactly in Python ints from the path
(:meth:`~.problem.NumberPartitioning.descend`), checked against the
compiled search's value.

Time limits count search, not compilation: the kernels are compiled (or
loaded from Numba's cache) by a small search before the clock starts.

The speed-up (``benchmarks/partitioning_speed.py``, generated instances,
CPU time, load 0.8-2): the generic search ran 19,300 / 13,200 / 11,200
simulations per second at N = 100 / 200 / 300, its selection taking 46-49%
of the time and backpropagation 7-8% (cProfile on CPU time); this loop runs
342,000 / 156,000 / 84,000 (17.7 / 11.8 / 7.5 times as many).

Examples
--------
>>> result = compiled_mcts([8, 7, 6, 5, 4], iterations=100, seed=0)
>>> result.discrepancy, result.moves, result.stopped
(0, ('join',), 'target')
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from math import inf, log2, sqrt
from typing import Sequence

import numpy as np

from ...errors import OptionError
from ...search.arguments import budget, seed_value
from ...search.arguments import clock as clock_function
from .kernels import limb_count, to_limbs
from .problem import JOIN, SPLIT, NumberPartitioning
from .tree_kernels import (EXHAUSTED, FULL, HIST_LEN, ITER, ITERATIONS, MAX_ITER, PATH_LEN, PATH_STEPS, QUOTA,
                           TARGET, USED, new_node, run_chunk)

__all__ = ["compiled_mcts", "TreeResult"]

_STOPPED = {TARGET: "target", EXHAUSTED: "exhausted", ITERATIONS: "iterations"}
_CHUNK_SECONDS = (0.001, 0.004)  # a chunk's duration is kept in this range (the clock is read between chunks)


@dataclass(frozen=True)
class TreeResult:
    """What :func:`compiled_mcts` found.

    Attributes
    ----------
    discrepancy : int
        ``E`` of the best leaf, exact.
    value : float
        ``log2(E + 1)``.
    moves : tuple of str
        The best path: tree moves, then KK's SPLIT moves to the leaf.
    history : tuple of (int, float, float)
        ``(simulations before it, value, seconds)`` at each improvement.
    iterations : int
        Simulations done.
    seconds : float
        Seconds of search on the clock (the compile-time warm-up excluded).
    nodes : int
        Node rows the store used (live and freed).
    stopped : str
        ``"time"``, ``"iterations"``, ``"target"`` (a perfect partition) or ``"exhausted"`` (proven optimal).
    """

    discrepancy: int
    value: float
    moves: tuple
    history: tuple
    iterations: int
    seconds: float
    nodes: int
    stopped: str

    @property
    def proven(self) -> bool:
        """True when the whole tree was searched: the best is optimal."""
        return self.stopped == "exhausted"


class _Store:
    """The arrays of one search: the node store, the numbers as limb rows, the working sets."""

    def __init__(self, values: list, seed: int, cp: float, target: float, iterations: int | None, capacity: int):
        n = len(values)
        total = sum(values)
        limbs = limb_count(total.bit_length() + 1)
        self.numbers = (to_limbs(sorted(values, reverse=True), limbs), to_limbs([total >> 1], limbs), total & 1)
        self.buffers = (np.zeros((n + 2, limbs), np.uint32), np.zeros(3 * n + 1, np.int64),
                        np.zeros((n + 2, limbs), np.uint32), np.zeros(3 * n + 1, np.int64))
        meta = np.zeros(8, np.int64)
        meta[MAX_ITER] = iterations if iterations is not None else sys.maxsize
        self.tree = (np.empty((capacity, 6), np.int32), np.empty((capacity, 3)), np.empty(capacity, np.int32), meta,
                     np.array([-inf, -target, cp]), np.zeros(n, np.int8), np.zeros(4, np.int64), np.zeros(4),
                     np.array([seed % 2**64], np.uint64))
        new_node(*self.tree[:4], -1)  # the root, row 0

    def grow(self) -> None:
        """Double the node store."""
        links, values, free, *rest = self.tree
        self.tree = (np.concatenate([links, np.empty_like(links)]), np.concatenate([values, np.empty_like(values)]),
                     np.concatenate([free, np.empty_like(free)]), *rest)

    def drain(self, seconds: float) -> list:
        """The improvements since the last call, as ``(simulations before, value, seconds)``."""
        meta, hist_iter, hist_value = self.tree[3], self.tree[6], self.tree[7]
        found = [(int(hist_iter[k]), -float(hist_value[k]), seconds) for k in range(meta[HIST_LEN])]
        meta[HIST_LEN] = 0
        return found

    def best_path(self) -> tuple[list, int]:
        """The best's tree moves and KK steps."""
        meta, path = self.tree[3], self.tree[5]
        return [JOIN if bit else SPLIT for bit in path[:meta[PATH_LEN]]], int(meta[PATH_STEPS])


_warm = [False]


def _warm_up() -> None:
    """Compile the kernels (or load them from the cache) once per process, on a small instance."""
    if not _warm[0]:
        _warm[0] = True
        _search(_Store([9, 8, 7, 7, 6, 5, 4, 3, 2, 2, 1], 0, sqrt(2.0), 1.0, 60, 4), None, clock_function("cpu"))


def _search(store: _Store, time_limit: float | None, read) -> tuple[list, str, float]:
    """Run the chunks until a stop; returns (history, why it stopped, seconds)."""
    start = read()
    deadline = start + time_limit if time_limit is not None else inf
    meta = store.tree[3]
    history: list = []
    quota = 1
    while True:
        before = read()
        if before >= deadline and meta[ITER]:
            return history, "time", before - start
        status = run_chunk(store.tree, store.numbers, store.buffers, quota)
        after = read()
        history.extend(store.drain(after - start))
        if status == FULL:
            store.grow()
        elif status in _STOPPED:
            return history, _STOPPED[status], after - start
        elif status == QUOTA:
            if after - before < _CHUNK_SECONDS[0]:
                quota *= 2
            elif after - before > _CHUNK_SECONDS[1] and quota > 1:
                quota //= 2


def compiled_mcts(numbers: Sequence[int], *, time_limit: float | None = None, iterations: int | None = None,
                  seed: int = 0, cp: float = sqrt(2.0), target: float = 1.0, clock: str = "cpu") -> TreeResult:
    """The thesis's MCTS on the complete KK tree of ``numbers``, compiled; the best partition's path.

    ``time_limit`` (seconds on ``clock``, ``"cpu"`` or ``"wall"``) and
    ``iterations`` (simulations) bound the search, at least one of them;
    ``target`` stops it at a leaf with ``log2(E + 1) <= target`` (1: a
    perfect partition). ``seed`` orders the two children of each visit.
    """
    budget(iterations, time_limit)
    read = clock_function(clock)
    problem = NumberPartitioning(numbers)  # checks the numbers
    if not cp >= 0.0:
        raise OptionError(f"cp must be >= 0, got {cp!r}")
    _warm_up()
    store = _Store(list(problem.numbers), seed_value(seed), float(cp), float(target), iterations, 1 << 16)
    history, stopped, seconds = _search(store, time_limit, read)
    tree_moves, steps = store.best_path()
    state = problem.root()
    for move in tree_moves:
        state = problem.apply(state, move)
    leaf, kk_steps = problem.descend(state)
    e = problem.discrepancy(leaf)
    best = history[-1][1]
    if kk_steps != steps or log2(e + 1) != best:
        raise AssertionError(f"the compiled search's best ({best}, {steps} KK steps) is not its path's "
                             f"({log2(e + 1)}, {kk_steps} steps)")
    meta = store.tree[3]
    return TreeResult(e, log2(e + 1), tuple(tree_moves) + (SPLIT,) * steps, tuple(history), int(meta[ITER]),
                      seconds, int(meta[USED]), stopped)
