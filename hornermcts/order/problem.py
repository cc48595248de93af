"""The Horner-order search problem, for the domain-agnostic search core.

A state is a partial order (a tuple of variable columns), a move appends a
variable, a terminal state holds every variable that occurs in the
polynomial.  In the *forward* direction the tuple is the Horner scheme,
outermost variable first; in the *backward* direction the tree chooses the
innermost variable first and the scheme is the reversed tuple (SA-UCT paper,
section 6), so the well-explored top of the tree decides the end of the
scheme.  The reward is the paper's normalisation, input operations divided
by the operations of the order after Horner and CSE (the fast counter):
higher is better, 1.0 is no gain.

Examples
--------
>>> import sympy
>>> from hornermcts.polynomial import Polynomial
>>> from hornermcts.search import mcts
>>> x, y, z = sympy.symbols("x y z")
>>> p = Polynomial((x, y, z), [[3, 2, 0], [2, 1, 0], [3, 0, 1]], [1, 1, 1])
>>> problem = HornerOrderProblem(p)
>>> result = mcts(problem, iterations=20, cp=1.0, seed=1, progress=None)
>>> problem.scheme(result.best_state), problem.operations(result.best_state)
((0, 1, 2), 6)
"""
from __future__ import annotations

from ..errors import OptionError

import numpy as np

from ..cost.fast_counter import FastCounter
from ..cost.counting import original_count
from ..options import SCHEME_DIRECTIONS as DIRECTIONS
from .structure import structural_order

__all__ = ["HornerOrderProblem", "DIRECTIONS"]


class HornerOrderProblem:
    """Choose a Horner scheme variable by variable (see the module docstring).

    Parameters
    ----------
    poly : Polynomial
    direction : {"forward", "backward"}
    counter : FastCounter, optional
        Reuse a counter (and its compiled state) across problems.
    fixed : sequence of int, optional
        Columns always placed outermost, in this order, and not searched
        (the output markers of several polynomials optimized together).
    score : callable, optional
        ``score(scheme) -> operations`` for a complete scheme (a tuple of
        columns); default: the counter's.  Pass a shared
        :class:`~hornermcts.search.shortlist.ScoreBook` so that several
        searches never count one order twice.
    columns : sequence of int, optional
        Every column, in the order the moves are offered (the order of a
        node's children, of a playout's draws); default
        :func:`~hornermcts.order.structure.structural_order`, so that the search
        does not depend on the variables' names or the order of the terms.

    Variables that do not occur in ``poly`` are not searched; they are
    appended to every scheme (they cost nothing).  Scores of complete orders
    are cached, so an order the search meets again costs nothing.
    """

    def __init__(self, poly, *, direction: str = "forward", counter: FastCounter | None = None, fixed=(),
                 score=None, columns=None):
        if direction not in DIRECTIONS:
            raise OptionError(f"direction must be one of {DIRECTIONS}, not {direction!r}")
        self.poly = poly
        self.direction = direction
        self.counter = counter or FastCounter(poly)
        self.score = score if score is not None else self.counter.count
        self.input_operations = max(original_count(poly).total, 1)
        self.fixed = tuple(int(j) for j in fixed)
        present = (poly.exponents > 0).any(axis=0) if poly.n_terms else np.zeros(poly.n_vars, bool)
        present[list(self.fixed)] = False
        if columns is None:
            columns = structural_order(poly, self.fixed)
        if sorted(columns) != list(range(poly.n_vars)):
            raise OptionError(f"columns must list each of the {poly.n_vars} columns once, got {list(columns)!r}")
        self.variables = tuple(int(j) for j in columns if present[j])
        self.absent = tuple(int(j) for j in np.flatnonzero(~present) if j not in self.fixed)
        self._cache: dict[tuple, int] = {}

    # ------------------------------------------------------------ protocol
    def root(self) -> tuple:
        return ()

    def moves(self, state: tuple) -> tuple:
        if len(state) == len(self.variables):
            return ()
        chosen = set(state)
        return tuple(v for v in self.variables if v not in chosen)

    def apply(self, state: tuple, move: int) -> tuple:
        return state + (move,)

    def playout(self, state: tuple, rng) -> tuple:
        rest = self.moves(state)
        if not rest:
            return state, ()
        tail = tuple(rest[i] for i in rng.permutation(len(rest)))
        return state + tail, tail

    def reward(self, state: tuple) -> float:
        return self.input_operations / max(self.operations(state), 1)

    # ------------------------------------------------------------ helpers
    def scheme(self, state: tuple) -> tuple:
        """The Horner scheme (outermost first) of a complete state."""
        order = state if self.direction == "forward" else state[::-1]
        return self.fixed + tuple(order) + self.absent

    def operations(self, state: tuple) -> int:
        """Horner + CSE operation count of a complete state (cached)."""
        ops = self._cache.get(state)
        if ops is None:
            ops = self.score(self.scheme(state))
            self._cache[state] = ops
        return ops

    def scored(self) -> dict:
        """``{scheme: operations}`` of every complete order scored so far."""
        return {self.scheme(state): ops for state, ops in self._cache.items()}

    def state_of(self, scheme) -> tuple:
        """The complete state whose scheme is ``scheme`` (inverse of :meth:`scheme`)."""
        order = tuple(v for v in scheme if v not in self.absent and v not in self.fixed)
        return order if self.direction == "forward" else order[::-1]
