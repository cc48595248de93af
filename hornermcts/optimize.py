"""``optimize``: find a Horner scheme, eliminate common subexpressions, simplify greedily.

The pipeline: candidate orders come from a search (the occurrence order,
MCTS, simulated annealing, or MCTS refined by annealing), each scored by the
fast counter (Horner + CSE); the best few are built as DAGs and given the
greedy optimizations of :mod:`hornermcts.greedy`; the best result wins.
Presets name the usual combinations (:data:`PRESETS`), like FORM's levels
O1..O4.

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
>>> optimize(x**3*y**2 + x**2*y + x**3*z, preset="fast").after.total
6
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .dag import Dag
from .fastcount import FastCounter
from .given import given_dag
from .horner import horner_dag
from .opcount import OpCount, expression_count, original_count, pieces_count
from .orders import DIRECTIONS, HornerOrderProblem
from .polynomial import Polynomial
from .greedy import greedy as greedy_step
from .search import MCTSResult, mcts
from .search.annealing import AnnealResult, anneal
from .views import to_assignments, to_expressions, to_networkx

__all__ = ["optimize", "OptimizeResult", "PRESETS", "SCHEDULES", "DEFAULT_CP", "baseline_orders", "prepare_outputs"]

#: Presets: ``name -> (searches, greedy)``.  ``fast`` is FORM's O1 (occurrence
#: order + CSE), ``greedy`` O2 (+ greedy), ``mcts`` O3 (MCTS + greedy),
#: ``anneal`` O4 (annealing over orders + greedy); ``default`` runs MCTS, refines
#: its best order by low-temperature annealing, and applies the greedy step:
#: the best counts for the time (``benchmarks/optimizer_vs_form.py``).
PRESETS = {
    "fast": ((), False),
    "greedy": ((), True),
    "mcts": (("mcts",), True),
    "anneal": (("anneal",), True),
    "default": (("mcts", "anneal"), True),
}

#: Annealing temperatures, as fractions of the starting order's operations:
#: from scratch, and as refinement after MCTS (measured on HEP(sigma), res(7,5)).
ANNEAL_FROM_SCRATCH = (0.1, 0.0005)
ANNEAL_REFINE = (0.02, 0.0005)

#: Annealing restarts grow with the searched variables: one run up to
#: ANNEAL_ONE_RUN_UP_TO variables, one more per VARIABLES_PER_RESTART beyond (many
#: variables make MCTS trees deep and the order landscape rugged; measured on
#: structured(30,6000,1), where one or two runs left some seeds above FORM O4).
ANNEAL_ONE_RUN_UP_TO = 15
VARIABLES_PER_RESTART = 10

#: How many of the best orders found get the greedy step (FORM's O3 does the same).
DEFAULT_CANDIDATES = 5

#: Greedy passes given to the winning candidate (the first one screens them all).
GREEDY_ROUNDS = 3

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
        Operations of the input as given and of the result, by kind.  A
        SymPy input counts as written (``(x + y)**8``: 4, not its 9 expanded
        terms; :func:`~hornermcts.opcount.expression_count`); a polynomial,
        a file or text as its terms (:func:`~hornermcts.opcount.original_count`),
        each opaque piece's own arithmetic once.  ``after`` is exactly what
        every artifact holds: the emitted code (:mod:`hornermcts.codegen`),
        :meth:`assignments` and :meth:`graph`; :meth:`expression` repeats
        what is shared (its own count: ``expression_count(result.expression())``).
    form : str
        ``"optimized"``, or ``"input"`` when the input as written costs fewer
        operations than the best optimized form found: then the result is
        the input's own form (common subexpressions shared), never worse
        than what was given.
    cse : OpCount
        Operations of the result's order after Horner + CSE alone (before the
        greedy step; equal to ``after`` without it).
    baselines : dict
        ``{"occurrence forward": ops, "occurrence backward": ops}``, the
        occurrence order every result is reported against.
    history : tuple of (int, int)
        ``(iteration, operations)`` each time the best improved.
    search : tuple of MCTSResult and AnnealResult
        One per search run (MCTS per direction, then annealing): tree
        statistics, stop reason, timing.
    options : dict
        The options the search ran with (preset and seed included).
    seconds : float
        Wall time of the whole call (search, DAGs, greedy step).
    """

    polynomial: Polynomial
    order: tuple
    before: OpCount
    after: OpCount
    cse: OpCount
    baselines: dict
    history: tuple
    search: tuple
    options: dict
    seconds: float = 0.0
    dag: Dag = field(default=None, repr=False, compare=False)
    form: str = "optimized"

    @property
    def elapsed(self) -> float:
        """Seconds spent searching orders."""
        return sum(s.elapsed for s in self.search)

    @property
    def iterations(self) -> int:
        """Orders scored by the searches: MCTS iterations plus annealing steps."""
        return sum(s.iterations if isinstance(s, MCTSResult) else s.steps for s in self.search)

    @property
    def node_count(self) -> int:
        """Nodes of the MCTS tree that found the best order (0 without MCTS)."""
        best = self._best_tree
        return best.node_count if best else 0

    @property
    def max_depth(self) -> int:
        """Depth of that tree's deepest node (0 without MCTS)."""
        best = self._best_tree
        return best.max_depth if best else 0

    @property
    def _best_tree(self) -> MCTSResult | None:
        trees = [s for s in self.search if isinstance(s, MCTSResult)]
        return max(trees, key=lambda s: s.best_reward) if trees else None

    def expression(self):
        """One nested SymPy expression, exactly equal to the input (a list for several outputs).

        It has no temporaries, so what the other views share is written
        again at every use: its own count is
        ``hornermcts.expression_count(result.expression())`` (at least
        ``result.after``; on HEP(sigma) with the fast preset 20394 against 5407), which counts the
        expression as it stands.  Use :meth:`assignments` or
        :mod:`hornermcts.codegen` to get ``result.after`` operations.
        """
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
        rows = [("input", self.before), ("Horner+CSE", self.cse), ("optimized", self.after)]
        lines = [f"{'':<10} {'additions':>10} {'multiplications':>16} {'total':>8}"]
        for name, c in rows:
            lines.append(f"{name:<10} {c.additions:>10} {c.multiplications + c.powers:>16} {c.total:>8}")
        for name, ops in self.baselines.items():
            lines.append(f"{name:<21} {ops:>24}  (Horner + CSE)")
        ratio = self.before.total / max(self.after.total, 1)
        tree = f", tree {self.node_count} nodes, depth {self.max_depth}" if self._best_tree else ""
        lines.append(f"reduction {ratio:.2f}x in {self.seconds:.2f} s (preset {self.options.get('preset')}), "
                     f"{self.iterations} orders scored{tree}")
        lines.append("order: " + ", ".join(map(str, self.order)))
        if self.form == "input":
            lines.append("the input as written needs fewer operations than any Horner scheme found: "
                         "it is returned in its own form")
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
    present = [m for m in markers if m in joint.symbols]  # a zero output has no marker column
    cols = [joint.symbols.index(m) for m in present]
    rest = [j for j in range(joint.n_vars) if j not in cols]
    symbols = tuple(joint.symbols[j] for j in rest)
    exps = joint.exponents
    polys = []
    for m in markers:
        if m not in present:
            polys.append(Polynomial(symbols, np.zeros((0, len(symbols)), dtype=np.int64), [], opaque=joint.opaque))
            continue
        rows = exps[:, joint.symbols.index(m)] == 1
        polys.append(Polynomial(symbols, exps[rows][:, rest],
                                [joint.coefficients[i] for i in rows.nonzero()[0]], opaque=joint.opaque))
    joint = Polynomial(tuple(present) + symbols, exps[:, cols + rest], joint.coefficients, opaque=joint.opaque)
    return polys, joint, len(present)


def _check_options(iterations, cp, schedule, direction, repeats, time_limit, preset="default", greedy=None,
                   candidates=DEFAULT_CANDIDATES) -> None:
    if preset not in PRESETS:
        raise ValueError(f"preset must be one of {sorted(PRESETS)}, not {preset!r}")
    if greedy not in (None, True, False):
        raise ValueError(f"greedy must be None (the preset decides), True or False, not {greedy!r}")
    if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 1:
        raise ValueError(f"candidates must be an integer >= 1, not {candidates!r}")
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
    preset: str = "default",
    iterations: int | None = 1000,
    cp: float = DEFAULT_CP,
    schedule: str | Callable = "sa-uct",
    direction: str = "forward",
    repeats: int = 1,
    seed: int | None = 0,
    time_limit: float | None = None,
    progress: Any = None,
    greedy: bool | None = None,
    candidates: int = DEFAULT_CANDIDATES,
) -> OptimizeResult:
    """Find a good Horner scheme for ``expr``; return the optimized form.

    Parameters
    ----------
    expr : Polynomial, SymPy expression, Poly, path or text; or a list/Matrix of them
        Anything :func:`hornermcts.parse.as_polynomial` accepts.  Several
        expressions are optimized together: one order, one DAG with one
        output each, common subexpressions shared across outputs (see
        :func:`prepare_outputs`).
    preset : {"default", "fast", "greedy", "mcts", "anneal"}
        Which searches run and whether the greedy step follows (see
        :data:`PRESETS`): ``"fast"`` the occurrence order + CSE (FORM O1),
        ``"greedy"`` + greedy (O2), ``"mcts"`` MCTS + greedy (O3),
        ``"anneal"`` simulated annealing over orders + greedy (O4),
        ``"default"`` MCTS, then annealing from its best order, + greedy.
    iterations : int, default 1000
        Orders scored per search: MCTS iterations (per direction and
        restart) and annealing steps (per restart).  0 skips the searches.
    cp : float, default 1.0
        MCTS exploration constant Cp (SA-UCT: the initial temperature), in
        units of the reward ``input operations / operations``.
    schedule : {"sa-uct", "uct", "exponential"} or callable
        SA-UCT's linear cooling ``T(i) = Cp (N - i) / N`` (default), constant
        ``Cp`` (UCT), exponential cooling, or a callable ``T(i, n)``.
    direction : {"forward", "backward", "both"}
        MCTS builds schemes outermost-first, innermost-first, or runs both.
    repeats : int, default 1
        Independent restarts of each search; the best is kept.  Annealing
        runs at least once, plus once per :data:`VARIABLES_PER_RESTART`
        variables beyond :data:`ANNEAL_ONE_RUN_UP_TO`.
    seed : int or None, default 0
        Makes the searches reproducible (iteration budgets only): by default
        every call on the same input gives the same result, as
        ``sympy.cse`` does.  ``None`` draws a fresh seed each call (the one
        drawn is in ``result.options["seed"]``); another integer gives
        another reproducible search.
    time_limit : float, optional
        Seconds per search run (direction, restart); a search returns its
        best so far when it runs out (and on Ctrl-C).
    progress : None, True, "auto" or callable
        A tqdm bar (True), a bar on a terminal for long runs ("auto"), or a
        callback ``progress(iteration, best_reward)``.
    greedy : bool, optional
        Override the preset: ``False`` keeps Horner + CSE only (the setting
        of the SA-UCT paper's experiments), ``True`` adds the greedy step.
    candidates : int, default 5
        How many of the best distinct orders found get the greedy step.

    Returns
    -------
    OptimizeResult
    """
    clock = time.perf_counter()
    _check_options(iterations, cp, schedule, direction, repeats, time_limit, preset, greedy, candidates)
    searches_wanted, preset_greedy = PRESETS[preset]
    use_greedy = preset_greedy if greedy is None else greedy
    polys, joint, n_markers = prepare_outputs(expr)
    fixed = tuple(range(n_markers))
    counter = FastCounter(joint)
    scored: dict[tuple, int] = {}

    def score(scheme) -> int:
        scheme = tuple(scheme)
        ops = scored.get(scheme)
        if ops is None:
            ops = scored[scheme] = counter.count(scheme)
        return ops

    orders = baseline_orders(joint, fixed)
    for order in orders.values():
        score(order)
    searches = []
    history: list[tuple[int, int]] = []
    offset = 0

    def record(found_history, to_ops) -> None:
        for it, value in found_history:
            ops = to_ops(value)
            if not history or ops < history[-1][1]:
                history.append((offset + it, ops))

    run = iterations != 0 and joint.n_terms
    interrupted = False
    if run and "mcts" in searches_wanted:
        directions = DIRECTIONS if direction == "both" else (direction,)
        sched = SCHEDULES.get(schedule, schedule) if not callable(schedule) else schedule
        for k, d in enumerate(directions):
            problem = HornerOrderProblem(joint, direction=d, counter=counter, fixed=fixed)
            run_seed = None if seed is None else seed + 7919 * k
            found = mcts(problem, iterations=iterations, time_limit=time_limit, cp=float(cp),
                         schedule=sched, seed=run_seed, repeats=repeats, progress=progress)
            searches.append(found)
            record(found.history, lambda reward: round(problem.input_operations / reward))
            offset += found.iterations
            for scheme, ops in problem.scored().items():
                scored.setdefault(scheme, ops)
            if found.interrupted:
                interrupted = True
                break
    if run and "anneal" in searches_wanted and not interrupted:
        problem = HornerOrderProblem(joint, counter=counter, fixed=fixed)
        start = min(scored, key=scored.get)
        start_ops = scored[start]
        t_start, t_end = ANNEAL_REFINE if searches else ANNEAL_FROM_SCRATCH
        free = problem.state_of(start)
        if len(free) >= 2:
            extra = math.ceil(max(len(free) - ANNEAL_ONE_RUN_UP_TO, 0) / VARIABLES_PER_RESTART)
            restarts = max(repeats, 1 + extra)
            found = anneal(lambda state: score(problem.scheme(state)), free, steps=iterations,
                           t_start=t_start * start_ops, t_end=t_end * start_ops, restarts=restarts,
                           seed=None if seed is None else seed + 104729, time_limit=time_limit,
                           progress=progress)
            searches.append(found)
            record(found.history, lambda ops: int(ops))
            offset += found.steps

    ranked = sorted(scored, key=lambda s: (scored[s], s))
    pool = ranked[:candidates] if use_greedy else ranked[:1]
    best = None
    for scheme in pool:  # one greedy pass screens the candidates, the winner gets more passes
        order = [j - n_markers for j in scheme if j >= n_markers]
        dag = horner_dag(polys, order)
        cse = dag.count()
        final = greedy_step(dag, rounds=1) if use_greedy else dag
        after = final.count()
        if best is None or (after.total, cse.total) < (best[2].total, best[1].total):
            best = (order, cse, after, final)
    order, cse, after, dag = best
    if use_greedy:
        dag = greedy_step(dag, rounds=GREEDY_ROUNDS - 1)
        after = dag.count()
    symbols = polys[0].symbols
    given = _given_expressions(expr)
    form = "optimized"
    if given is None:
        before = sum((original_count(p) for p in polys), pieces_count(polys[0].opaque))
    else:
        before = sum((expression_count(e) for e in given), OpCount())
        if before.total <= after.total:  # a factored input: its own form may be the cheaper one
            own = given_dag(given, polys[0])
            own_count = own.count() if own is not None else None
            if own_count is not None and own_count.total < after.total:
                dag, after, form = own, own_count, "input"
    options = dict(preset=preset, iterations=iterations, cp=cp, schedule=schedule, direction=direction,
                   repeats=repeats, seed=seed if seed is not None else (searches[0].seed if searches else None),
                   time_limit=time_limit, greedy=use_greedy, candidates=candidates)
    baselines = {name: (scored[tuple(o)] if n_markers == 0 else
                        horner_dag(polys, [j - n_markers for j in o if j >= n_markers]).count().total)
                 for name, o in orders.items()}
    return OptimizeResult(
        polynomial=polys if _is_many(expr) else polys[0],
        order=tuple(dag.opaque.get(symbols[j], symbols[j]) for j in order),
        before=before,
        after=after,
        cse=cse,
        baselines=baselines,
        history=tuple(history),
        search=tuple(searches),
        options=options,
        seconds=time.perf_counter() - clock,
        dag=dag.delivered(),
        form=form,
    )


def _given_expressions(expr) -> list | None:
    """The SymPy expressions as the caller wrote them, or None for a polynomial, file or text input."""
    import sympy

    items = list(expr) if _is_many(expr) else [expr]
    if all(isinstance(e, sympy.Expr) for e in items):
        return items
    return None
