"""``optimize``: find a Horner scheme by MCTS and return the optimized form.

Examples
--------
>>> import sympy
>>> x, y, z = sympy.symbols("x y z")
>>> result = optimize(x**3*y**2 + x**2*y + x**3*z, iterations=50, seed=0)
>>> result.order
(x, y, z)
>>> result.before.total, result.after.total
(11, 6)
>>> sympy.expand(result.expression() - (x**3*y**2 + x**2*y + x**3*z))
0
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from .dag import Dag
from .fastcount import FastCounter
from .horner import horner_dag
from .opcount import OpCount, original_count
from .orders import DIRECTIONS, HornerOrderProblem
from .polynomial import Polynomial
from .search import MCTSResult, mcts
from .views import to_assignments, to_expressions, to_networkx

__all__ = ["optimize", "OptimizeResult", "SCHEDULES", "DEFAULT_CP", "baseline_orders", "prepare_outputs"]

#: Selection schedules by name: the SA-UCT linear cooling, plain UCT, exponential.
SCHEDULES = {"sa-uct": "linear", "uct": "constant", "exponential": "exponential"}

#: Default initial exploration constant: the upper end of SA-UCT's measured
#: region of good Cp on HEP(sigma) at N=1000, [0.32, 1.0] (benchmarks/results/cp_sweep_hep_sigma.txt).
DEFAULT_CP = 1.0


@dataclass(frozen=True)
class OptimizeResult:
    """What :func:`optimize` found.

    Attributes
    ----------
    polynomial : Polynomial or list of Polynomial
        The input (a list when several outputs were optimized together).
    order : tuple of sympy.Expr
        The Horner scheme, outermost variable first (an opaque piece such as
        ``sin(y)`` stands for itself).
    before, after : OpCount
        Operations of the input and of the result (Horner + CSE), by kind.
    baselines : dict
        ``{"occurrence forward": ops, "occurrence backward": ops}``, the
        occurrence order every result is reported against.
    history : tuple of (int, int)
        ``(iteration, operations)`` each time the best improved.
    search : tuple of MCTSResult
        One per direction searched: tree statistics, stop reason, timing.
    options : dict
        The options the search ran with (seed included).
    """

    polynomial: Polynomial
    order: tuple
    before: OpCount
    after: OpCount
    baselines: dict
    history: tuple
    search: tuple
    options: dict
    dag: Dag = field(repr=False, compare=False)

    @property
    def elapsed(self) -> float:
        """Seconds spent searching."""
        return sum(s.elapsed for s in self.search)

    @property
    def iterations(self) -> int:
        """Iterations done, over all directions and restarts."""
        return sum(s.iterations for s in self.search)

    @property
    def node_count(self) -> int:
        """Nodes of the tree that found the best order."""
        return self._best_search.node_count

    @property
    def max_depth(self) -> int:
        """Depth of that tree's deepest node."""
        return self._best_search.max_depth

    @property
    def _best_search(self) -> MCTSResult:
        return max(self.search, key=lambda s: s.best_reward)

    def expression(self):
        """One nested SymPy expression, exactly equal to the input (a list for several outputs)."""
        exprs = to_expressions(self.dag)
        return exprs if isinstance(self.polynomial, list) else exprs[0]

    def assignments(self, symbols=None):
        """``(replacements, [expr])`` in the shape ``sympy.cse`` returns."""
        return to_assignments(self.dag, symbols)

    def graph(self):
        """The optimized DAG as a networkx DiGraph."""
        return to_networkx(self.dag)

    def summary(self) -> str:
        """A before/after table with the order, timing and tree statistics."""
        rows = [("input", self.before), ("optimized", self.after)]
        lines = [f"{'':<10} {'additions':>10} {'multiplications':>16} {'total':>8}"]
        for name, c in rows:
            lines.append(f"{name:<10} {c.additions:>10} {c.multiplications + c.powers:>16} {c.total:>8}")
        for name, ops in self.baselines.items():
            lines.append(f"{name:<21} {ops:>24}  (Horner + CSE)")
        ratio = self.before.total / max(self.after.total, 1)
        lines.append(f"reduction {ratio:.2f}x in {self.elapsed:.2f} s, {self.iterations} iterations, "
                     f"tree {self.node_count} nodes, depth {self.max_depth}")
        lines.append("order: " + ", ".join(map(str, self.order)))
        return "\n".join(lines)


def baseline_orders(poly, fixed=()) -> dict:
    """The occurrence order, forward and backward: ``{name: column order}``.

    Columns in ``fixed`` stay outermost in both.
    """
    fixed = list(fixed)
    occ = [j for j in poly.occurrence_order() if j not in fixed]
    return {"occurrence forward": fixed + occ, "occurrence backward": fixed + occ[::-1]}


def _is_many(expr) -> bool:
    import sympy

    return isinstance(expr, (list, tuple, sympy.MatrixBase))


def prepare_outputs(expr):
    """``(polys, joint, n_markers)`` for one expression or several.

    One expression: ``([poly], poly, 0)``.  Several (a list, tuple or Matrix):
    they are parsed together (shared symbols and opaque pieces) as
    ``sum_k m_k * expr_k`` with fresh marker variables ``m_k`` in the first
    columns of ``joint``; ``polys`` are the outputs over the other columns.
    A Horner scheme of ``joint`` with the markers outermost contains each
    output's Horner form, so the fast counter of ``joint`` scores an order
    for all outputs at once (up to the few operations that combine outputs).
    """
    import sympy

    from .parse import as_polynomial, from_sympy

    if not _is_many(expr):
        poly = as_polynomial(expr)
        return [poly], poly, 0
    items = list(expr)
    if not items:
        raise ValueError("no expressions to optimize")
    exprs = [e.to_sympy() if isinstance(e, Polynomial) else sympy.sympify(e) for e in items]
    markers = [sympy.Dummy(f"output{k}") for k in range(len(exprs))]
    joint = from_sympy(sympy.Add(*[sympy.Mul(m, e) for m, e in zip(markers, exprs)]))
    cols = [joint.symbols.index(m) for m in markers]
    rest = [j for j in range(joint.n_vars) if j not in cols]
    symbols = tuple(joint.symbols[j] for j in rest)
    exps = joint.exponents
    polys = []
    for c in cols:
        rows = exps[:, c] == 1
        polys.append(Polynomial(symbols, exps[rows][:, rest],
                                [joint.coefficients[i] for i in rows.nonzero()[0]], opaque=joint.opaque))
    joint = Polynomial(tuple(markers) + symbols, exps[:, cols + rest], joint.coefficients, opaque=joint.opaque)
    return polys, joint, len(markers)


def _check_options(iterations, cp, schedule, direction, repeats, time_limit) -> None:
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
            raise ValueError(f"iterations must be a non-negative integer, not {iterations!r}")
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    if iterations is None and time_limit is None:
        raise ValueError("give iterations, time_limit or both")
    if not (isinstance(cp, (int, float)) and math.isfinite(cp) and cp >= 0):
        raise ValueError(f"cp must be a finite number >= 0, not {cp!r}")
    if not callable(schedule) and schedule not in SCHEDULES:
        raise ValueError(f"schedule must be one of {sorted(SCHEDULES)} or a callable T(i, n), not {schedule!r}")
    if direction not in DIRECTIONS + ("both",):
        raise ValueError(f"direction must be 'forward', 'backward' or 'both', not {direction!r}")
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"repeats must be an integer >= 1, not {repeats!r}")


def optimize(
    expr,
    *,
    iterations: int | None = 1000,
    cp: float = DEFAULT_CP,
    schedule: str | Callable = "sa-uct",
    direction: str = "forward",
    repeats: int = 1,
    seed: int | None = None,
    time_limit: float | None = None,
    progress: Any = None,
) -> OptimizeResult:
    """Find a good Horner scheme for ``expr`` by MCTS; return the optimized form.

    Parameters
    ----------
    expr : Polynomial, SymPy expression, Poly, path or text; or a list/Matrix of them
        Anything :func:`hornermcts.parse.as_polynomial` accepts.  Several
        expressions are optimized together: one order, one DAG with one
        output each, common subexpressions shared across outputs (see
        :func:`prepare_outputs`).
    iterations : int, default 1000
        Tree updates N per direction and restart; 0 skips the search (the
        better occurrence order is used).
    cp : float, default 1.0
        Exploration constant Cp (SA-UCT: the initial temperature), in units
        of the reward ``input operations / operations``.
    schedule : {"sa-uct", "uct", "exponential"} or callable
        SA-UCT's linear cooling ``T(i) = Cp (N - i) / N`` (default), constant
        ``Cp`` (UCT), exponential cooling, or a callable ``T(i, n)``.
    direction : {"forward", "backward", "both"}
        Build schemes outermost-first, innermost-first, or run both and keep
        the better.
    repeats : int, default 1
        Independent restarts R; the best is kept.
    seed : int, optional
        Makes the search reproducible (iteration budgets only).
    time_limit : float, optional
        Seconds per direction and restart; the search returns its best so far
        when it runs out (and on Ctrl-C).
    progress : None, True, "auto" or callable
        A tqdm bar (True), a bar on a terminal for long runs ("auto"), or a
        callback ``progress(iteration, best_reward)``.

    Returns
    -------
    OptimizeResult
    """
    _check_options(iterations, cp, schedule, direction, repeats, time_limit)
    polys, joint, n_markers = prepare_outputs(expr)
    fixed = tuple(range(n_markers))
    counter = FastCounter(joint)

    def exact(scheme) -> int:
        if n_markers == 0:
            return counter.count(scheme)
        return horner_dag(polys, [j - n_markers for j in scheme if j >= n_markers]).count().total

    orders = baseline_orders(joint, fixed)
    baselines = {name: exact(order) for name, order in orders.items()}
    best_scheme = orders[min(baselines, key=baselines.get)]
    best_ops = counter.count(best_scheme)
    searches = []
    history: list[tuple[int, int]] = []
    offset = 0
    directions = DIRECTIONS if direction == "both" else (direction,)
    sched = SCHEDULES.get(schedule, schedule) if not callable(schedule) else schedule
    if iterations != 0 and joint.n_terms:
        for k, d in enumerate(directions):
            problem = HornerOrderProblem(joint, direction=d, counter=counter, fixed=fixed)
            run_seed = None if seed is None else seed + 7919 * k
            found = mcts(problem, iterations=iterations, time_limit=time_limit, cp=float(cp),
                         schedule=sched, seed=run_seed, repeats=repeats, progress=progress)
            searches.append(found)
            for it, reward in found.history:
                ops = round(problem.input_operations / reward)
                if not history or ops < history[-1][1]:
                    history.append((offset + it, ops))
            offset += found.iterations
            if found.best_moves or found.best_state:
                ops = problem.operations(found.best_state)
                if ops < best_ops:
                    best_ops, best_scheme = ops, list(problem.scheme(found.best_state))
            if found.interrupted:
                break
    order = [j - n_markers for j in best_scheme if j >= n_markers]
    dag = horner_dag(polys, order)
    after = dag.count()
    symbols = polys[0].symbols
    before = original_count(polys[0])
    for p in polys[1:]:
        before = before + original_count(p)
    options = dict(iterations=iterations, cp=cp, schedule=schedule, direction=direction,
                   repeats=repeats, seed=seed if seed is not None else (searches[0].seed if searches else None),
                   time_limit=time_limit)
    return OptimizeResult(
        polynomial=polys if n_markers else polys[0],
        order=tuple(dag.opaque.get(symbols[j], symbols[j]) for j in order),
        before=before,
        after=after,
        baselines=baselines,
        history=tuple(history),
        search=tuple(searches),
        options=options,
        dag=dag,
    )
