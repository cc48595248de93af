"""Recursive circle packing as a search problem (a *reward* problem: maximise Eq. 6.1's value).

The tree is the semi-greedy construction's (Rei 2016, sec. 6.2.2, with
DOMAINS A5.7's resolution of the unspecified branching): a node is a
partial packing, and its moves are the choices of the next SG step. SG's
holder rule is deterministic (the open object with the least unused area,
objects found full closed on the way), so a node offers, for that holder,

- the tube types that have a feasible position there, in SG's greedy order
  (decreasing value-to-area ratio), at most ``tubes`` of them (default 1:
  only SG's own choice of tube); and
- for each of them, its ``rcl`` best ranked positions (default: all feasible
  positions, SG's own candidate list),

type by type, each type's positions in rank order. A move is the tuple
``(holder, kind, x, y)`` (holder ``-1`` is the container). With these
defaults the tree is exactly the support of SG: every playout's moves are
legal moves. A node is terminal when SG would stop: every tube placed or
nothing fits anywhere.

Forced steps (a single move: often a tube's bottom centre, or the only gap
left) are taken at once (``compress=True``, the default): :meth:`root` and
:meth:`apply` place them, so every inner node of the tree is a real choice
and the playout reports only the moves it chose. Half or more of SG's steps
are forced on the substitute instances; without this the tree would be a
chain of one-child nodes there. The leaves, the playouts and their values
are the same either way.

The playout is SG (:class:`~hornermcts.domains.circle_packing.SemiGreedy`)
from the node, every draw from the search's generator. The reward is the
value of the terminal packing.

:meth:`~CirclePackingProblem.bound` is a valid upper bound (optional
pruning): the value placed so far plus a fractional knapsack of the tubes
left, weighted by their *ring* areas ``pi (r_ext^2 - r_int^2)``, into the
free area of the container and of every placed tube's inside. (A tube takes
``pi r_ext^2`` from its holder and adds ``pi r_int^2`` of room, so the free
area of all objects shrinks by its ring area and never goes below zero.)

States (:class:`PackingState`) are immutable: the placement arrays, read
only. What a state's moves cost to compute (and which objects are known to
be full) is cached on the state for the problem that computed it; the cache
is not part of the state's identity (equality and pickling ignore it).

Examples
--------
>>> from hornermcts.domains.circle_packing import Instance, check_packing
>>> inst = Instance(60, 40, r_ext=[15, 6], r_int=[12, 0], value=[10, 2], count=[2, 4])
>>> problem = CirclePackingProblem(inst)
>>> root = problem.root()
>>> problem.moves(root)  # the two bottom corners for the big tube
((-1, 0, 15.0, 15.0), (-1, 0, 45.0, 15.0))
>>> state = problem.apply(root, (-1, 0, 15.0, 15.0))
>>> len(state), state.holders.tolist()  # then two rods into it, forced (its bottom, then on top)
(3, [-1, 0, 0])
>>> problem.moves(state)  # the next big tube: a corner, or up against the first
((-1, 0, 45.0, 15.0), (-1, 0, 43.2842712474619, 25.0))
>>> final, played = problem.playout(state, np.random.default_rng(0))
>>> problem.moves(final), problem.reward(final) == check_packing(inst, problem.packing(final))
((), True)
>>> problem.bound(root) >= problem.reward(final)
True
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...errors import OptionError
from .construction import SemiGreedy
from .instance import Instance
from .packing import Packing

__all__ = ["CirclePackingProblem", "PackingState"]

Move = tuple  # (holder, kind, x, y)
DTYPES = (np.int64, np.int64, np.float64, np.float64)


def _frozen(array: np.ndarray, dtype) -> np.ndarray:
    # a private copy: two fields never share one array (pickle would store a reference, and the bytes differ)
    array = np.array(array, dtype=dtype, copy=True)
    array.setflags(write=False)
    return array


class PackingState:
    """A partial packing: read-only ``kinds``, ``holders``, ``xs``, ``ys`` in placement order.

    Equal states have equal arrays; pickling keeps the arrays only (the
    cached moves are recomputed on demand).
    """

    __slots__ = ("kinds", "holders", "xs", "ys", "cache")

    def __init__(self, kinds: np.ndarray, holders: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                 cache: tuple | None = None) -> None:
        self.kinds = _frozen(kinds, np.int64)
        self.holders = _frozen(holders, np.int64)
        self.xs = _frozen(xs, np.float64)
        self.ys = _frozen(ys, np.float64)
        #: (owner problem, closed flags, moves or None): derived data, not identity
        self.cache = cache

    def __getstate__(self) -> tuple:
        return (self.kinds, self.holders, self.xs, self.ys)

    def __setstate__(self, arrays: tuple) -> None:
        for name, array, dtype in zip(("kinds", "holders", "xs", "ys"), arrays, DTYPES):
            object.__setattr__(self, name, _frozen(array, dtype))
        self.cache = None

    def __len__(self) -> int:
        return len(self.kinds)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PackingState):
            return NotImplemented
        return all(np.array_equal(getattr(self, k), getattr(other, k)) for k in ("kinds", "holders", "xs", "ys"))

    def __hash__(self) -> int:
        return hash((self.kinds.tobytes(), self.holders.tobytes(), self.xs.tobytes(), self.ys.tobytes()))

    def packing(self) -> Packing:
        """The placements as a :class:`~hornermcts.domains.circle_packing.Packing`."""
        return Packing(self.kinds, self.holders, self.xs, self.ys)

    def __repr__(self) -> str:
        return f"PackingState({len(self)} tubes)"


class CirclePackingProblem:
    """The SG tree of an instance for :func:`hornermcts.search.mcts` (see the module docstring).

    Parameters
    ----------
    instance : Instance
    tubes : int
        Tube types a node offers (SG's choice first), default 1.
    rcl : int or None
        Positions per type a node offers, and SG's candidate list length
        in the playouts (None: all feasible positions).
    compress : bool
        Take forced steps (a single move) at once, so that every inner node
        is a real choice (default True).
    """

    def __init__(self, instance: Instance, *, tubes: int = 1, rcl: int | None = None,
                 compress: bool = True) -> None:
        if not (isinstance(tubes, (int, np.integer)) and tubes >= 1):
            raise OptionError(f"tubes must be an integer >= 1, got {tubes!r}")
        self.instance = instance
        self.tubes = int(tubes)
        self.compress = bool(compress)
        self.construction = SemiGreedy(instance, rcl=rcl)
        self.rcl = self.construction.rcl
        self._ring = np.pi * (instance.r_ext ** 2 - instance.r_int ** 2)
        order = sorted(range(instance.types), key=lambda i: (-instance.value[i] / self._ring[i], i))
        self._by_density = np.array(order, np.int64)

    def root(self) -> PackingState:
        """The empty container (after its forced steps, with ``compress``)."""
        empty = np.empty(0)
        return self._advance(PackingState(empty.astype(np.int64), empty.astype(np.int64), empty, empty))

    def _known_closed(self, state: PackingState) -> np.ndarray | None:
        cache = state.cache
        if cache is not None and cache[0] is self:
            return cache[1]
        return None

    def moves(self, state: PackingState) -> tuple[Move, ...]:
        """The next SG step's choices ``(holder, kind, x, y)``; empty when the construction is over."""
        cache = state.cache
        if cache is not None and cache[0] is self and cache[2] is not None:
            return cache[2]
        packing = state.packing()
        holder, kinds, xs, ys, flags = self.construction.options(packing, self._known_closed(state),
                                                                 tubes=self.tubes)
        moves = tuple((int(holder), int(k), float(x), float(y)) for k, x, y in zip(kinds, xs, ys))
        state.cache = (self, flags, moves)
        return moves

    def _place(self, state: PackingState, move: Move) -> PackingState:
        holder, kind, x, y = move
        closed = self._known_closed(state)
        cache = None
        if closed is not None:
            cache = (self, np.concatenate((closed, np.zeros(1, np.bool_))), None)
        return PackingState(np.append(state.kinds, kind), np.append(state.holders, holder),
                            np.append(state.xs, x), np.append(state.ys, y), cache)

    def _advance(self, state: PackingState) -> PackingState:
        if self.compress:
            while len(self.moves(state)) == 1:
                state = self._place(state, self.moves(state)[0])
        return state

    def apply(self, state: PackingState, move: Move) -> PackingState:
        """The state with one more tube, ``move = (holder, kind, x, y)``, then its forced steps (``compress``)."""
        return self._advance(self._place(state, move))

    def reward(self, state: PackingState) -> float:
        """Eq. 6.1: the value of the tubes placed."""
        return float(math.fsum(self.instance.value[state.kinds].tolist()))

    def playout(self, state: PackingState, rng: Any) -> tuple[PackingState, list[Move]]:
        """SG from ``state`` to the end; returns the terminal state and the moves it chose (not the forced ones)."""
        packing, flags, choices = self.construction.finish(rng, state.packing(), self._known_closed(state),
                                                           tubes=self.tubes)
        n = len(state)
        final = PackingState(packing.kinds, packing.holders, packing.xs, packing.ys, (self, flags, ()))
        played = [(int(h), int(k), float(x), float(y))
                  for k, h, x, y, c in zip(packing.kinds[n:], packing.holders[n:], packing.xs[n:], packing.ys[n:],
                                           choices)
                  if c > 1 or not self.compress]
        return final, played

    def bound(self, state: PackingState) -> float:
        """An upper bound on the value of every packing completing ``state`` (module docstring)."""
        inst = self.instance
        kinds = state.kinds
        free = inst.width * inst.height + float(np.sum(np.pi * inst.r_int[kinds] ** 2))
        free -= float(np.sum(np.pi * inst.r_ext[kinds] ** 2))
        left = inst.count - np.bincount(kinds, minlength=inst.types)
        extra = 0.0
        for t in self._by_density:
            if free <= 0:
                break
            take = min(float(left[t]), free / self._ring[t])
            extra += take * float(inst.value[t])
            free -= take * self._ring[t]
        return self.reward(state) + extra

    def packing(self, state: PackingState) -> Packing:
        """The placements of ``state``."""
        return state.packing()

    def replay(self, moves) -> PackingState:
        """The state reached from the root by ``moves``, each checked to be legal (OptionError otherwise)."""
        state = self.root()
        for i, move in enumerate(moves):
            if tuple(move) not in self.moves(state):
                raise OptionError(f"move {i} {tuple(move)!r} is not legal here")
            state = self.apply(state, tuple(move))
        return state
