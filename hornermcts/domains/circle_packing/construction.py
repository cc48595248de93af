"""The semi-greedy construction SG (Rei 2016, Alg. 6.1) and its tube order (the value-to-area estimate).

SG fills an instance one tube per step. It keeps the set ``O`` of *open*
objects, at first the container alone; each step:

1. takes the open object ``o`` with the least unused area (container:
   ``W H`` minus the areas ``pi r_ext^2`` of the tubes directly in it; tube:
   ``pi r_int^2`` minus those of the tubes directly in it; ties: the
   container, then the earliest placed tube), so telescoping comes first;
2. tries the tube types that are left and fit in ``o`` (``r_ext <= r_int``
   of ``o``) in **decreasing value-to-area ratio** (below); the first one
   that has a feasible position in ``o``
   (:func:`~hornermcts.domains.circle_packing.geometry.ranked_positions`) is
   placed, at a position drawn **semi-greedily**: the ``k``-th ranked
   position (``k = 0`` the greedy one: lowest, then leftmost) with
   probability proportional to ``1 / (k + 1)`` among the ``rcl`` best ranked
   (all of them by default), and becomes open;
3. if no type fits anywhere in ``o``, closes ``o`` (for good: its contents
   and the tubes left can only shrink).

It stops when ``O`` is empty or every tube is placed.

**The value-to-area estimate** (the thesis: "an estimate of the total value
of a tube and all tubes that can potentially be telescoped into it, divided
by its area ... similar to the greedy heuristic for the knapsack problem";
its exact form is not given). For each type ``t``, in increasing ``r_ext``::

    E(t) = v_t + fill(t),   ratio(t) = E(t) / (pi r_ext(t)^2)

``fill(t)`` is the fractional knapsack of capacity ``D pi r_int(t)^2`` with
``D = pi / (2 sqrt 3)`` (the density of the hexagonal packing of equal
circles) over the types ``i`` that fit inside ``t``: item ``i`` has weight
``pi r_ext(i)^2``, worth ``E(i)`` (so what fits inside it counts too) and
``count(i)`` copies, taken in decreasing ``ratio(i)``, the last one
fractionally. The estimate is computed once per instance from the full
counts (static while a construction runs). Ties in the ratio go to the
larger tube, then to the lower type index.

Examples
--------
>>> from hornermcts.domains.circle_packing import Instance, check_packing
>>> inst = Instance(100, 60, r_ext=[30, 12], r_int=[25, 0], value=[10, 3], count=[2, 5])
>>> value_estimates(inst).round(2).tolist()  # a tube's hollow holds about 3.94 rods: 10 + 3.94 * 3
[21.81, 3.0]
>>> greedy_order(inst).tolist()  # ratios 21.81 / (pi 30^2) = 0.0077 and 3 / (pi 12^2) = 0.0066
[0, 1]
>>> packing = semi_greedy(inst, seed=0)
>>> check_packing(inst, packing), len(packing)
(22.0, 5)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from ...errors import OptionError
from .geometry import TOLERANCE, ranked_positions
from .instance import Instance
from .packing import Packing

__all__ = ["DENSITY", "value_estimates", "greedy_order", "SemiGreedy", "semi_greedy"]

#: Fraction of a tube's inner area the value estimate fills: the hexagonal packing density pi / (2 sqrt 3).
DENSITY = math.pi / (2.0 * math.sqrt(3.0))


def value_estimates(instance: Instance) -> np.ndarray:
    """``E(t)`` per type: own value plus a fractional knapsack of what may telescope inside (module docstring)."""
    k = instance.types
    estimate = np.zeros(k)
    ratio = np.zeros(k)
    area = np.pi * instance.r_ext.astype(float) ** 2
    for t in sorted(range(k), key=lambda i: (instance.r_ext[i], i)):
        capacity = DENSITY * math.pi * float(instance.r_int[t]) ** 2
        inside = [i for i in range(k) if instance.r_ext[i] <= instance.r_int[t]]
        inside.sort(key=lambda i: (-ratio[i], -instance.r_ext[i], i))
        fill = 0.0
        for i in inside:
            if capacity <= 0:
                break
            take = min(float(instance.count[i]), capacity / area[i])
            fill += take * estimate[i]
            capacity -= take * area[i]
        estimate[t] = float(instance.value[t]) + fill
        ratio[t] = estimate[t] / area[t]
    return estimate


def greedy_order(instance: Instance) -> np.ndarray:
    """Tube types in the order SG tries them: decreasing value-to-area ratio (ties: larger, then lower index)."""
    ratio = value_estimates(instance) / (np.pi * instance.r_ext ** 2)
    return np.array(sorted(range(instance.types), key=lambda i: (-ratio[i], -instance.r_ext[i], i)), np.int64)


@njit(cache=True)
def next_options(width, height, r_ext, r_int, order, remaining, kinds, holders, xs, ys, outer, inner, n, closed,
                 tubes, rcl, tol):
    """The choices of the next SG step: its holder and up to ``tubes`` x ``rcl`` (type, position) pairs.

    Closes (``closed[holder + 1] = True``, in place) every object SG finds
    full on the way. Returns ``(holder, kinds, xs, ys)``; ``holder`` is
    ``-2`` and the arrays empty when the construction is over. The pairs
    come type by type in the greedy order (only types with a feasible
    position; the first is SG's own choice), each type's ``rcl`` best
    ranked positions in rank order (``rcl <= 0``: all).
    """
    out_k = np.empty(0, np.int64)
    out_x = np.empty(0)
    out_y = np.empty(0)
    left = 0
    for t in range(len(remaining)):
        left += remaining[t]
    if left == 0:
        return -2, out_k, out_x, out_y
    used = np.zeros(n + 1)
    for j in range(n):
        used[holders[j] + 1] += np.pi * outer[j] * outer[j]
    while True:
        holder = -2
        least = np.inf
        for o in range(-1, n):
            if closed[o + 1]:
                continue
            free = (width * height if o < 0 else np.pi * inner[o] * inner[o]) - used[o + 1]
            if free < least:
                least = free
                holder = o
        if holder == -2:
            return -2, out_k, out_x, out_y
        found = 0
        for idx in range(len(order)):
            t = order[idx]
            if remaining[t] == 0:
                continue
            radius = r_ext[t]
            if holder < 0:
                if 2.0 * radius > min(width, height) + 2.0 * tol:
                    continue
            elif r_int[kinds[holder]] < radius:
                continue
            px, py = ranked_positions(radius, holder, width, height, xs, ys, outer, inner, holders, n, tol)
            m = len(px)
            if m == 0:
                continue
            if 0 < rcl < m:
                m = rcl
            out_k = np.concatenate((out_k, np.full(m, t, np.int64)))
            out_x = np.concatenate((out_x, px[:m]))
            out_y = np.concatenate((out_y, py[:m]))
            found += 1
            if found == tubes:
                break
        if found:
            return holder, out_k, out_x, out_y
        closed[holder + 1] = True


@njit(cache=True)
def harmonic_rank(u, m):
    """The rank ``k < m`` drawn with probability proportional to ``1 / (k + 1)``, from a uniform ``u`` in [0, 1)."""
    total = 0.0
    for k in range(m):
        total += 1.0 / (k + 1.0)
    target = u * total
    acc = 0.0
    for k in range(m):
        acc += 1.0 / (k + 1.0)
        if target < acc:
            return k
    return m - 1


@njit(cache=True)
def complete(width, height, r_ext, r_int, order, remaining, kinds, holders, xs, ys, outer, inner, n, closed,
             uniforms, rcl, tol, choices, tubes):
    """Run SG from the first ``n`` placements to the end, in place; return the final number of placements.

    The arrays have room for every tube left; ``remaining`` is decremented
    and ``closed`` updated in place; step ``s`` draws its rank from
    ``uniforms[s]``. ``choices[j]`` receives, for each placement ``j`` made,
    the choices a tree offering ``tubes`` types has at that step: 1 for a
    forced step, more otherwise (with ``tubes > 1``, only the first type's
    positions are counted unless it has a single one).
    """
    step = 0
    while True:
        holder, ok, ox, oy = next_options(width, height, r_ext, r_int, order, remaining, kinds, holders, xs, ys,
                                          outer, inner, n, closed, 1, rcl, tol)
        if holder == -2:
            return n
        options = len(ok)
        if options == 1 and tubes > 1:
            more = next_options(width, height, r_ext, r_int, order, remaining, kinds, holders, xs, ys, outer, inner,
                                n, closed, tubes, rcl, tol)
            options = len(more[1])
        k = harmonic_rank(uniforms[step], len(ok))
        step += 1
        t = ok[k]
        kinds[n] = t
        holders[n] = holder
        xs[n] = ox[k]
        ys[n] = oy[k]
        outer[n] = r_ext[t]
        inner[n] = r_int[t]
        choices[n] = options
        closed[n + 1] = False
        remaining[t] -= 1
        n += 1


class SemiGreedy:
    """SG bound to an instance: the arrays its kernels read, the tube order, the candidate list length.

    Parameters
    ----------
    instance : Instance
    rcl : int or None
        Restricted candidate list: the position is drawn among the ``rcl``
        best ranked ones (None: among all feasible positions).

    Examples
    --------
    >>> from hornermcts.domains.circle_packing import Instance
    >>> sg = SemiGreedy(Instance(100, 60, r_ext=[30, 12], r_int=[25, 0], value=[10, 3], count=[2, 5]), rcl=3)
    >>> first = sg.run(np.random.default_rng(1))
    >>> first == sg.run(np.random.default_rng(1)), sg.run(np.random.default_rng(1), start=first) == first
    (True, True)
    """

    def __init__(self, instance: Instance, *, rcl: int | None = None) -> None:
        if rcl is not None and not (isinstance(rcl, (int, np.integer)) and rcl >= 1):
            raise OptionError(f"rcl must be an integer >= 1 or None (all positions), got {rcl!r}")
        self.instance = instance
        self.rcl = None if rcl is None else int(rcl)
        self.order = greedy_order(instance)
        self.r_ext = np.ascontiguousarray(instance.r_ext, dtype=np.float64)
        self.r_int = np.ascontiguousarray(instance.r_int, dtype=np.float64)
        self.count = np.asarray(instance.count, dtype=np.int64)

    def arrays(self, start: Packing | None, room: int) -> tuple:
        """Working copies ``(remaining, kinds, holders, xs, ys, outer, inner, n)`` of ``start`` with ``room`` spare."""
        n = 0 if start is None else len(start)
        size = n + room
        kinds = np.zeros(size, np.int64)
        holders = np.zeros(size, np.int64)
        xs = np.zeros(size)
        ys = np.zeros(size)
        remaining = self.count.copy()
        if n:
            assert start is not None
            kinds[:n] = start.kinds
            holders[:n] = start.holders
            xs[:n] = start.xs
            ys[:n] = start.ys
            remaining -= np.bincount(start.kinds, minlength=len(remaining))
        outer = self.r_ext[kinds]
        inner = self.r_int[kinds]
        return remaining, kinds, holders, xs, ys, outer, inner, n

    def closed_flags(self, start: Packing | None, closed: np.ndarray | None, room: int) -> np.ndarray:
        """``closed`` (one flag per object: the container, then each placement) padded to ``room`` more objects."""
        n = 0 if start is None else len(start)
        flags = np.zeros(n + 1 + room, np.bool_)
        if closed is not None:
            flags[: len(closed)] = closed
        return flags

    def options(self, start: Packing | None, closed: np.ndarray | None = None, *, tubes: int = 1,
                rcl: int | None = None) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The next step's holder and (type, x, y) choices (see :func:`next_options`) and the closed flags.

        ``closed`` is a hint (objects known to be full); the choices do not
        depend on it. ``rcl`` defaults to this SG's own.
        """
        remaining, kinds, holders, xs, ys, outer, inner, n = self.arrays(start, 0)
        flags = self.closed_flags(start, closed, 0)
        length = self.rcl if rcl is None else rcl
        holder, ok, ox, oy = next_options(self.instance.width, self.instance.height, self.r_ext, self.r_int,
                                          self.order, remaining, kinds, holders, xs, ys, outer, inner, n, flags,
                                          tubes, length or 0, TOLERANCE)
        return holder, ok, ox, oy, flags

    def run(self, rng: Any, start: Packing | None = None,
            closed: np.ndarray | None = None) -> Packing:
        """One construction from ``start`` (default: the empty container), every draw from ``rng``."""
        packing, _, _ = self.finish(rng, start, closed)
        return packing

    def finish(self, rng: Any, start: Packing | None = None, closed: np.ndarray | None = None,
               tubes: int = 1) -> tuple[Packing, np.ndarray, np.ndarray]:
        """Like :meth:`run`; also return the final closed flags and, per placement made, the choices of its step.

        A step has one choice (it is forced) exactly when a tree offering
        ``tubes`` types per node (:class:`~.problem.CirclePackingProblem`)
        has one move there.
        """
        room = int(self.count.sum()) - (0 if start is None else len(start))
        remaining, kinds, holders, xs, ys, outer, inner, n = self.arrays(start, room)
        flags = self.closed_flags(start, closed, room)
        uniforms = rng.random(max(room, 1))
        choices = np.zeros(len(kinds), np.int64)
        end = complete(self.instance.width, self.instance.height, self.r_ext, self.r_int, self.order, remaining,
                       kinds, holders, xs, ys, outer, inner, n, flags, uniforms, self.rcl or 0, TOLERANCE, choices,
                       tubes)
        return Packing(kinds[:end], holders[:end], xs[:end], ys[:end]), flags[: end + 1], choices[n:end]


def semi_greedy(instance: Instance, seed: Any = None, *, rcl: int | None = None) -> Packing:
    """One SG construction of ``instance`` (``seed``: an int, a Generator or None)."""
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return SemiGreedy(instance, rcl=rcl).run(rng)
