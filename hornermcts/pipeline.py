"""``optimize``: find a Horner scheme, eliminate common subexpressions, simplify greedily.

:func:`optimize` calls named stages, like SymPy's ``cse``:
:func:`prepare_outputs` (the input as a polynomial, several outputs joined),
:func:`~hornermcts.rewrites.factoring.factorization` (a product's factors are
optimized one by one, as below, and multiplied; the whole is optimized too
and the cheaper kept),
:func:`search_orders` (the occurrence orders, then the preset's searches,
MCTS and simulated annealing, every order scored by the fast counter,
Horner + CSE; the generic driver is :func:`hornermcts.search.shortlist`),
:func:`screen_candidates` (the best few orders built as DAGs and given the
greedy optimizations of :mod:`hornermcts.dag.greedy`; the best wins), then
:func:`compare_with_input` (the input's own form when it is cheaper).
The options are one :class:`~hornermcts.options.Options`; presets
(:data:`PRESETS`) are lists of stages, like FORM's levels O1..O4.

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

from .errors import OptionError

import math
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import cache, partial
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, cast

import numpy as np

from .cost.kernels import announcing
from .cost.accuracy import SAMPLES, measuring_seconds, no_worse, relative_error
from .dag.graph import Dag
from .cli.status_line import showing_phases
from .deadline import HARD_MARGIN, Deadline, hard_end
from .order.problem import HornerOrderProblem
from .rewrites.factoring import factorization, product_dag
from .cost.fast_counter import FastCounter
from .dag.given import given_dag
from .dag.greedy import greedy as greedy_step
from .dag.horner import horner_dag
from .cost.counting import OpCount, expression_count, original_count, pieces_count
from .options import PRESETS, Options, make
from .polynomial.sparse import Polynomial
from .search import MCTSResult, mcts
from .search.annealing import anneal
from .search.arguments import seed_value
from .search.parallel import fork_map, on_cluster, processes
from .search.shortlist import ScoreBook, Shortlist, Stage, shortlist
from .order.splitting import splitting_orders
from .order.structure import structural_order
from .rewrites.substitution import linear_substitution
from .dag.views import program_graph, to_assignments, to_expressions, to_networkx

if TYPE_CHECKING:
    from .expression.written import WrittenResult

__all__ = ["optimize", "OptimizeResult", "Options", "PRESETS", "baseline_orders", "prepare_outputs",
           "search_orders", "screen_candidates", "compare_with_input", "Candidate", "quick_cost", "quick_counts"]



#: Inputs of fewer terms are searched in this process when neither ``workers`` nor a time limit is given:
#: forking the workers costs more than their searches (res(3,2), 13 terms, default preset, warm: 0.13-0.21 s on
#: two processes), and with an iteration budget the result is the same for any number of workers.  A
#: time-limited search keeps every core: one after another in one process, the restarts would score fewer orders.
IN_PROCESS_TERMS = 100


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
        terms; :func:`~hornermcts.cost.counting.expression_count`); a polynomial,
        a file or text as its terms (:func:`~hornermcts.cost.counting.original_count`),
        each opaque piece's own arithmetic once.  ``after`` is exactly what
        every artifact holds: the emitted code (:mod:`hornermcts.codegen`),
        :meth:`assignments` and :meth:`graph`; :meth:`expression` repeats
        what is shared (its own count: ``expression_count(result.expression())``).
    form : str
        ``"optimized"``; ``"factored"`` when the input is a product
        (:mod:`hornermcts.rewrites.factoring`) and the product of its optimized
        factors is the cheaper form (then ``order``, ``search`` and
        ``factors`` are the factors', ``history`` is empty); or ``"input"``
        when the input as written costs fewer operations than the best
        optimized form found: then the result is the input's own form
        (common subexpressions shared), never worse than what was given.
    factors : tuple of (OptimizeResult, int)
        When ``form`` is ``"factored"``: each distinct factor optimized by
        itself, with its exponent, largest first (``order`` is the first's);
        else empty.
    variables : dict
        The new variables the input was written in before the search
        (:mod:`hornermcts.rewrites.substitution`), ``{placeholder: linear form of the
        input's variables}``; ``order`` names them by their forms and the
        code computes each first.  Empty when none paid.
    cse : OpCount
        Operations of the result's order after Horner + CSE alone (before the
        greedy step; equal to ``after`` without it).
    relative_error : float or None
        The emitted double-precision code's largest relative error at a few
        sample points against the exact value (:func:`hornermcts.cost.accuracy.relative_error`;
        None when the result is too large to measure, or when the time limit
        leaves no time to measure it).  No transformation
        (new variables, factoring, the greedy step) is kept whose running
        error bound is more than three times that of the form without it at
        any of 64 points (:func:`hornermcts.cost.accuracy.no_worse`), so that its
        error stays within ten times; where it is large anyway, the
        polynomial cancels: compensated arithmetic (``precision="compensated"``) is the remedy.
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
    written : WrittenResult or None
        For SymPy input that is more than one polynomial region as written
        (products of sums, calls or reciprocals of sums:
        :func:`~hornermcts.expression.regions.structured`), what the
        expression front end made of it
        (:func:`~hornermcts.expression.optimize_written`): its assignments in
        evaluation order; ``form`` is then ``"as written"``, ``"expanded"``
        or ``"sympy.cse"``, ``polynomial`` the units, ``order`` and
        ``search`` their search's, ``dag`` None (the views and
        :mod:`hornermcts.codegen` read ``written``), ``cse`` equal to
        ``after`` and ``relative_error`` None.  Else None.
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
    dag: Dag | None = field(default=None, repr=False, compare=False)
    form: str = "optimized"
    factors: tuple = ()
    variables: dict = field(default_factory=dict)
    relative_error: float | None = None
    written: WrittenResult | None = field(default=None, repr=False, compare=False)

    @property
    def elapsed(self) -> float:
        """Seconds spent searching orders."""
        return sum(s.elapsed for s in self.search)

    @property
    def iterations(self) -> int:
        """Orders scored by the searches: MCTS iterations plus annealing steps."""
        return sum(s.iterations for s in self.search)

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
        return max(trees, key=lambda s: s.best_value) if trees else None

    def expression(self):
        """One nested SymPy expression, exactly equal to the input (a list for several outputs).

        It has no temporaries, so what the other views share is written
        again at every use: its own count is
        ``hornermcts.expression_count(result.expression())`` (at least
        ``result.after``; on HEP(sigma) with the fast preset 20394 against 5407), which counts the
        expression as it stands.  Use :meth:`assignments` or
        :mod:`hornermcts.codegen` to get ``result.after`` operations.
        """
        if self.written is not None:
            exprs = self.written.nested()
            return exprs if self.written.many else exprs[0]
        exprs = to_expressions(self.dag)
        return exprs if isinstance(self.polynomial, list) else exprs[0]

    def assignments(self, symbols=None):
        """``(replacements, [expr])`` in the shape ``sympy.cse`` returns."""
        if self.written is not None:
            return self.written.named(symbols)
        return to_assignments(self.dag, symbols)

    def graph(self):
        """The optimized DAG as a networkx DiGraph (:func:`~hornermcts.dag.views.to_networkx`; a result as written:
        its program's, :func:`~hornermcts.dag.views.program_graph`: the code's statements)."""
        if self.written is not None:
            from .codegen.program import Program

            return program_graph(Program(self, "f"))
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
        if self.order or self.written is None:
            lines.append("order: " + ", ".join(map(str, self.order)))
        if self.form == "factored":
            lines.append("the input factors: " + " * ".join(
                f"({r.polynomial.n_terms} terms, {r.after.total} operations)" + (f"^{e}" if e > 1 else "")
                for r, e in self.factors) + "; each factor optimized, then multiplied")
        if self.variables:
            lines.append(f"in {len(self.variables)} new variables: " + ", ".join(
                f"{s} = {form}" for s, form in self.variables.items()))
        if self.relative_error is not None:
            lines.append(f"relative error {self.relative_error:.1e} in double precision "
                         f"(largest at {SAMPLES} sample points, against the exact value)")
        if self.written is not None and self.form == "sympy.cse":
            lines.append(f"the expression as written: sympy.cse's own answer needs the fewest operations "
                         f"({len(self.written.statements)} assignments)")
        elif self.written is not None:
            units = self.polynomial if isinstance(self.polynomial, list) else [self.polynomial]
            lines.append(f"the expression as written ({self.form}): {len(units)} polynomial region(s) optimized "
                         f"together, {len(self.written.statements)} assignments")
        if self.form == "input":
            lines.append("the input as written needs fewer operations than any Horner scheme found: "
                         "it is returned in its own form")
        return "\n".join(lines)


def baseline_orders(poly, fixed=(), columns=None) -> dict:
    """The occurrence order, forward and backward: ``{name: column order}``.

    Columns in ``fixed`` stay outermost in both.  Columns occurring in
    equally many terms are ordered by :func:`~hornermcts.order.structure.structural_order`
    (or by ``columns``, that order already computed), not by name.
    """
    fixed = list(fixed)
    columns = structural_order(poly, fixed) if columns is None else columns
    occ = [j for j in columns if j not in fixed]
    return {"occurrence forward": fixed + occ, "occurrence backward": fixed + occ[::-1]}


def _is_many(expr) -> bool:
    import sympy

    return isinstance(expr, (list, tuple, sympy.MatrixBase))


class Prepared(NamedTuple):
    """What :func:`prepare_outputs` makes of the input (a tuple, so ``polys, joint, n_markers = ...`` reads it)."""

    polys: list  # one polynomial per output
    joint: Polynomial  # all outputs in one, the markers in the first columns
    n_markers: int  # 0 for one output


def prepare_outputs(expr, deadline: Deadline | None = None, max_terms: int | None = None) -> Prepared:
    """``(polys, joint, n_markers)`` for one expression or several.

    One expression: ``([poly], poly, 0)``.  ``deadline`` bounds the reading
    of text and files, ``max_terms`` its expansions (:mod:`hornermcts.parse.budget`).
    Several (a list, tuple or Matrix): they are parsed together (shared symbols and opaque pieces) as
    ``sum_k m_k * expr_k`` with fresh marker variables ``m_k`` in the first
    columns of ``joint``; ``polys`` are the outputs over the other columns.
    A Horner scheme of ``joint`` with the markers outermost contains each
    output's Horner form, so the fast counter of ``joint`` scores an order
    for all outputs at once (up to the few operations that combine outputs).
    """
    import sympy

    from .parse import as_expression, as_polynomial, from_sympy

    if not _is_many(expr):
        poly = as_polynomial(expr, deadline=deadline, max_terms=max_terms)
        return Prepared([poly], poly, 0)
    items = list(expr)
    if not items:
        raise OptionError("no expressions to optimize")
    first = items[0]
    if all(isinstance(e, Polynomial) and e.symbols == first.symbols and e.opaque == first.opaque for e in items):
        return _joined(items)
    exprs = [as_expression(e, deadline=deadline, max_terms=max_terms) for e in items]
    markers = [sympy.Dummy(f"output{k}") for k in range(len(exprs))]
    joint = from_sympy(sympy.Add(*[sympy.Mul(m, e) for m, e in zip(markers, exprs)]), max_terms=max_terms)
    present = [m for m in markers if m in joint.symbols]  # a zero output has no marker column
    cols = [joint.symbols.index(m) for m in present]
    rest = [j for j in range(joint.n_vars) if j not in cols]
    symbols = tuple(joint.symbols[j] for j in rest)
    joint = Polynomial(tuple(present) + symbols, joint.exponents[:, cols + rest], joint.coefficients,
                       opaque=joint.opaque)
    return Prepared(_outputs(joint, len(present), [m not in present for m in markers]), joint, len(present))


def _joined(polys: list) -> Prepared:
    """:func:`prepare_outputs` of polynomials over the same columns: joined without SymPy (exponent rows stacked)."""
    import sympy

    zero = [p.n_terms == 0 for p in polys]
    markers = tuple(sympy.Dummy(f"output{k}") for k in range(len(polys)) if not zero[k])
    live = [p for p in polys if p.n_terms]
    blocks = [np.hstack([np.zeros((p.n_terms, len(markers)), dtype=np.int64), p.exponents]) for p in live]
    for k, block in enumerate(blocks):
        block[:, k] = 1
    exponents = np.vstack(blocks) if blocks else np.zeros((0, len(markers) + len(polys[0].symbols)), dtype=np.int64)
    joint = Polynomial(markers + polys[0].symbols, exponents, [c for p in live for c in p.coefficients],
                       opaque=polys[0].opaque)
    return Prepared(_outputs(joint, len(markers), zero), joint, len(markers))


def _outputs(joint: Polynomial, n_markers: int, zero: list) -> list[Polynomial]:
    """The outputs ``joint`` joins (marker ``k`` in column ``k``), over its other columns; ``zero[k]``: output k is 0.

    A zero output has no marker column, so the markers are taken in turn by the outputs that are not zero.
    """
    if n_markers == 0:
        return [joint]
    symbols = joint.symbols[n_markers:]
    exps = joint.exponents
    markers = iter(range(n_markers))
    polys = []
    for is_zero in zero:
        if is_zero:
            polys.append(Polynomial(symbols, np.zeros((0, len(symbols)), dtype=np.int64), [], opaque=joint.opaque))
            continue
        rows = exps[:, next(markers)] == 1  # an output's rows of the joint: distinct, their coefficients non-zero
        polys.append(Polynomial.of_valid_rows(symbols, np.ascontiguousarray(exps[rows][:, n_markers:]),
                                              tuple(joint.coefficients[i] for i in rows.nonzero()[0]), joint.opaque))
    return polys


def optimize(expr, options: Options | None = None, *, progress="auto", deadline: Deadline | None = None,
             report: bool = True, client=None, **changes) -> OptimizeResult:
    """Find a good Horner scheme for ``expr``; return the optimized form.

    SymPy input that is more than one polynomial region as written (products
    or powers of sums, calls, roots or reciprocals of sums:
    :func:`~hornermcts.expression.regions.structured`) goes to the
    expression front end (:mod:`hornermcts.expression`), which optimizes its
    regions by the stages below; the result's ``written`` holds what it made.
    The stages: :func:`prepare_outputs` (parse), the factors when the input
    is a product (each optimized by these stages, then multiplied;
    :mod:`hornermcts.rewrites.factoring`), :func:`search_orders` (the
    occurrence orders, then the searches of the preset: MCTS, annealing),
    :func:`screen_candidates` (the best few orders built as DAGs, one greedy
    pass each; the best wins and gets the remaining greedy passes),
    :func:`compare_with_input` (the input's own form if it is cheaper), and
    the result.

    Parameters
    ----------
    expr : Polynomial, SymPy expression, Poly, path or text; or a list/Matrix of them
        Anything :func:`hornermcts.parse.as_polynomial` accepts.  Several
        expressions are optimized together: one order, one DAG with one
        output each, common subexpressions shared across outputs (see
        :func:`prepare_outputs`).
    options : Options, optional
        How to search (:class:`~hornermcts.options.Options`: preset,
        iterations, cp, schedule, direction, repeats, seed, time_limit,
        greedy, candidates, greedy_rounds, annealing temperatures).
    progress : "auto" (default), None, True or callable
        On a terminal ("auto"), or always (True): the searches' tqdm bars
        once a search has run 1 s, and the phase the call is in (new
        variables, factoring, building the DAGs, greedy, ...) on a status
        line once it has run 2 s, with its seconds
        (:class:`~hornermcts.cli.status_line.Phases`); None: silent; a
        callable: called as ``progress(iteration, best_reward)`` by the
        searches.
    deadline : Deadline, optional
        When the call must end (:class:`~hornermcts.deadline.Deadline`), for
        a caller whose clock started earlier (the command line counts
        ``--time-limit`` from its start and keeps time to write the code);
        default ``time_limit`` seconds from now.
    report : bool
        False: ``result.baselines`` is left empty where it would cost DAG
        builds (several outputs: each occurrence order built once more) and
        ``result.relative_error`` is None (not measured), for callers that
        report neither (the expression front end).
    client : dask.distributed.Client, optional
        Run the restarts and the candidate builds on its cluster instead of
        forked processes (:class:`~hornermcts.search.parallel.on_cluster`;
        the workers need hornermcts installed): the result is the same for
        any number of workers, as with ``workers``.
    **changes
        Any option by name, applied to ``options`` (e.g.
        ``optimize(expr, iterations=200, seed=1)``); an unknown name is a
        TypeError listing the options.

    Returns
    -------
    OptimizeResult
    """
    if client is not None:
        if make(options, **changes).time_limit is not None or deadline is not None:
            raise OptionError("client= runs iteration budgets only: a time limit is kept by this machine's clock, "
                              "which the cluster's workers do not share")
        with on_cluster(client):
            return optimize(expr, options, progress=progress, deadline=deadline, report=report, **changes)
    clock = time.perf_counter()
    options = make(options, **changes)
    if options.seed is None:  # draw it now and record it: the run can be repeated
        options = options.replace(seed=seed_value(None))
    deadline = Deadline(options.time_limit, start=clock) if deadline is None else deadline
    # the phases on a terminal's status line, a kernel compiling among them
    with showing_phases(deadline, progress), announcing(deadline.phases) if deadline.phases else nullcontext(), \
            _hard_end(options.time_limit, deadline):
        return _optimize(expr, options, progress, deadline, report, clock)


def _hard_end(limit: float | None, deadline: Deadline):
    """The call ends by ``limit`` + 10 % + 1 s from its start (the deadline's start: the command line's clock)."""
    if limit is None or not deadline.bounded:
        return hard_end(None, str)
    hard = 1.1 * limit + 1.0

    def message() -> str:
        return (f"time_limit={limit:g}: no answer within {hard:.1f} s (the limit + 10 % + 1 s): "
                f"{deadline.current or 'the first Horner scheme'} was still running; what any answer needs takes "
                f"longer on this input: raise the limit")

    return hard_end(deadline.at - limit + hard - HARD_MARGIN, message)


def _optimize(expr, options: Options, progress, deadline: Deadline, report: bool, clock: float) -> OptimizeResult:
    """:func:`optimize` once its options and deadline are made: SymPy input as written by the front end, a
    polynomial by the stages; a polynomial in pieces (of at most :data:`WRITTEN_PIECES_LIMIT` operations as
    written, without a time limit) both ways, the cheaper kept."""
    shape, items = _written_input(expr)
    if shape == "structured":
        return _optimize_written(expr, items, options, deadline, clock)
    pieces = items if shape == "pieces" and not deadline.bounded and sum(
        expression_count(e).total for e in items) <= WRITTEN_PIECES_LIMIT else None
    result = _optimize_polynomial(expr, options, progress, deadline, report, clock)
    if pieces is not None:
        deadline.phase("the expression as written, to compare")
        other = _optimize_written(expr, pieces, options, deadline, clock)
        if other.after.total < result.after.total:
            return other
    return result


def _optimize_polynomial(expr, options: Options, progress, deadline: Deadline, report: bool,
                         clock: float) -> OptimizeResult:
    """:func:`optimize` of one polynomial region: parsed, factored, searched."""
    deadline.phase("reading the input")
    polys, joint, n_markers = prepare_outputs(expr, deadline, options.max_terms)  # reading is timed and budgeted
    if options.factor and n_markers == 0 and not deadline.expired():
        deadline.phase("factoring")
        split = factorization(polys[0], deadline)
    else:
        split = None
    if split is None:
        found = _optimize_whole(polys, joint, n_markers, options, progress, deadline, report)
    else:
        found = _optimize_product(polys, joint, split, options, progress, deadline)
    substitution = found.substitution
    before, best, form = compare_with_input(expr, polys, found.best)
    if found.factors and form != "input":
        form = "factored"
    symbols = best.dag.symbols
    recorded = options.as_dict()
    recorded["greedy"] = "greedy" in options.stages
    return OptimizeResult(
        polynomial=cast(Polynomial, polys) if _is_many(expr) else polys[0],  # several: the list (see the field)
        order=tuple(best.dag.opaque.get(symbols[j], symbols[j]) for j in best.order),
        before=before,
        after=best.after,
        cse=best.cse,
        baselines=found.baselines,
        history=found.history,
        search=found.searches,
        options=recorded,
        seconds=time.perf_counter() - clock,
        dag=best.dag.delivered(),
        form=form,
        factors=found.factors if form == "factored" else (),
        variables=dict(substitution.forms) if substitution is not None and form == "optimized" else {},
        relative_error=_measured_error(best.dag, deadline) if report else None,
    )


def _measured_error(dag: Dag, deadline: Deadline) -> float | None:
    """The result's relative error at sample points, unless a time limit leaves no time for measuring it.

    (res(7,6), 46,041 nodes: the measurement ended 0.8 s past its 3 s.)
    """
    if deadline.bounded and deadline.remaining() < measuring_seconds(dag):
        return None
    deadline.phase("measuring the accuracy")
    return relative_error(dag)


#: SymPy input that is one polynomial region in symbols and pieces (``x*sin(y) + x**2``), of at most this many
#: operations as written, also goes to the expression front end, without a time limit, and the cheaper result is
#: kept: the front end shares through the pieces and folds angle sums (pendulum5 forcing: 91 operations there, 123
#: as one polynomial; its Jacobian 144 against 209), but on trigonometry expanded into products
#: (``families.pendulum_equations(5)``) the polynomial wins (193-202 against 280-294).  HEP(sigma) plus one sin
#: term: 6.2 s there, 1.2 s as one polynomial, the same count: a larger input takes the polynomial path only.
WRITTEN_PIECES_LIMIT = 20_000


def _sympy_items(expr) -> list | None:
    """``expr`` as a list of SymPy expressions, or None if it is not SymPy input."""
    import sympy

    items = list(expr) if _is_many(expr) else [expr]
    return items if items and all(isinstance(e, sympy.Expr) for e in items) else None


def _written_input(expr) -> tuple[str, list]:
    """``(shape, items)``: SymPy input's :func:`~hornermcts.expression.regions.written_shape` and its expressions;
    ``("polynomial", [])`` for anything else."""
    from .expression.regions import written_shape

    items = _sympy_items(expr)
    return ("polynomial", []) if items is None else (written_shape(items), items)


def _optimize_written(expr, exprs: list, options: Options, deadline: Deadline, clock: float) -> OptimizeResult:
    """:func:`optimize` of SymPy expressions as written: :func:`~hornermcts.expression.optimize_written`."""
    from dataclasses import replace

    from .expression.written import optimize_written

    w = replace(optimize_written(exprs, options, deadline=deadline), many=_is_many(expr))
    inner = cast("OptimizeResult | None", w.result)
    recorded = options.as_dict()
    recorded["greedy"] = "greedy" in options.stages
    return OptimizeResult(
        polynomial=inner.polynomial if inner is not None else cast(Polynomial, []),
        order=inner.order if inner is not None else (),
        before=w.before,
        after=w.after,
        cse=w.after,
        baselines={},
        history=inner.history if inner is not None else (),
        search=inner.search if inner is not None else (),
        options=recorded,
        seconds=time.perf_counter() - clock,
        form=w.form,
        variables=dict(inner.variables) if inner is not None else {},
        written=w,
    )


@dataclass(frozen=True)
class _Found:
    """What the stages found for a polynomial input: the best candidate, and how it was reached."""

    best: Candidate
    searches: tuple  # the searches' results, in the order they ran
    history: tuple  # (iteration, operations) improvements
    baselines: dict  # the input's occurrence orders' counts, by name
    substitution: Any  # the new variables the input was written in first, or None
    factors: tuple = ()  # ((result, exponent), ...) of a product's factors; empty when the whole was optimized


def _optimize_whole(polys, joint, n_markers, options, progress, deadline, with_baselines: bool = True,
                    portfolio: bool = True) -> _Found:
    """The input optimized as one polynomial.

    ``substitution`` (None if none pays) holds the new variables the input
    was written in first (:mod:`hornermcts.rewrites.substitution`); the baselines are
    the input's own occurrence orders.  ``portfolio``: as for :func:`search_orders`.
    """
    fixed = tuple(range(n_markers))
    if options.workers is None and options.time_limit is None and joint.n_terms < IN_PROCESS_TERMS:
        options = options.replace(workers=1)
    given_polys, given_joint = polys, joint
    substitution = None
    if options.substitute:
        deadline.phase("looking for new variables")
        substitution = linear_substitution(joint, n_markers, cost=partial(quick_cost, fixed=fixed),
                                           deadline=Deadline(deadline.stage_seconds("substitution"))
                                           if deadline.bounded else None)
    if substitution is not None:
        joint = substitution.joint
        polys = _outputs(joint, n_markers, [p.n_terms == 0 for p in polys])
    fallback, search_deadline, screen_deadline = None, deadline, deadline
    if deadline.bounded:  # an answer first, then the searches in the time the screening leaves them
        deadline.phase("the first Horner scheme (occurrence order)")
        fallback, reserve = _fallback(polys, joint, n_markers, options)
        deadline.keep_for(fallback.cse.total)  # the time to write the code, if the caller writes it
        # writing the last DAG back, counting it twice, building its greedy step's input again for the accuracy
        # check, and measuring its accuracy (res(7,6) at 3 s: 1.3 s; a random 30,000 terms at 3 s ended at 4.6 s
        # when the check had no time kept for it)
        screen_deadline = deadline.before(3 * fallback.seconds + measuring_seconds(fallback.dag))
        search_deadline = screen_deadline.before(min(reserve, screen_deadline.remaining() / 2))
        if search_deadline.expired() and substitution is None:  # no time to search: the answer in hand
            # (the searches' set-up alone, structural order and fast counter, took 1.9 s on res(8,6))
            return _Found(fallback, (), (), {"occurrence forward": fallback.cse.total}, None)
    found = search_orders(joint, options, fixed=fixed, progress=progress, deadline=search_deadline,
                          portfolio=portfolio)
    best = screen_candidates(polys, [s for s, _ in found.best], options, n_markers=n_markers,
                             deadline=screen_deadline, fallback=fallback)
    if n_markers:
        def count(order):
            order = [j - n_markers for j in order if j >= n_markers]
            if substitution is None and list(best.order) == order:  # built already (the fast preset's only DAG)
                return best.cse.total
            return horner_dag(given_polys, order).count().total
    else:  # the search scored the occurrence orders of what it searched; those of the input itself, when
        # substituted, the substitution search counted (quick_counts remembers them with the input)
        counted = quick_counts(given_joint, fixed) if substitution is not None else {}
        count = (lambda order: counted[tuple(order)]) if counted else lambda order: found.book(tuple(order))
    orders = baseline_orders(given_joint, fixed) if with_baselines or not n_markers else {}
    baselines = {name: count(order) for name, order in orders.items()}
    if substitution is not None and not no_worse(best.dag, lambda: horner_dag(given_polys, _own_order(given_joint,
                                                                                                     n_markers))):
        # the new variables cancel, maybe: the same search in the input's own variables decides (issue 36)
        deadline.phase("the same search in the input's own variables (the new ones may cancel)")
        # (without the splitting orders' run: a better search there can win on accuracy with more operations,
        # pendulum(5) seed 0: 248 in its own variables against 193 in new ones)
        own = _optimize_whole(given_polys, given_joint, n_markers, options.replace(substitute=False), progress,
                              deadline, portfolio=False)
        if not no_worse(best.dag, lambda: own.best.dag):
            return own
    return _Found(best, found.searches, found.history, baselines, substitution)


def _own_order(joint: Polynomial, n_markers: int) -> list:
    """The occurrence order of the outputs' columns (the markers dropped)."""
    return [j - n_markers for j in baseline_orders(joint, range(n_markers))["occurrence forward"] if j >= n_markers]


def quick_cost(poly: Polynomial, fixed: tuple = ()) -> int:
    """The cheaper occurrence order's Horner + CSE count of ``poly`` (``fixed`` columns outermost).

    How :func:`~hornermcts.rewrites.substitution.linear_substitution` scores the new variables it tries.

    >>> from hornermcts.research.families import hep_sigma
    >>> quick_cost(hep_sigma())
    5407
    """
    return min(quick_counts(poly, fixed).values())


def quick_counts(poly: Polynomial, fixed: tuple = ()) -> dict:
    """``{order: Horner + CSE count}`` of ``poly``'s occurrence orders (:func:`baseline_orders`, ``fixed`` columns
    outermost), counted once per polynomial: the substitution search scores the input by them, and a result in
    new variables reports the same counts as its baselines (gait2d row 12: 2 s, a counter of 333 MB, not twice)."""
    def counts() -> dict:
        counter = FastCounter(poly)
        return {tuple(order): counter.count(order) for order in baseline_orders(poly, fixed).values()}

    return poly.derived(("occurrence counts", tuple(fixed)), counts)


def _optimize_product(polys, joint, split, options, progress, deadline) -> _Found:
    """A product: its factors optimized (in at most half the time), then the whole; the cheaper is kept.

    ``factors`` of the result are empty when the whole is kept (also on a
    tie).  The whole is always optimized too: its search
    can take the occurrence order's count down tenfold (det(7): 7957 to
    778), so no bound from the occurrence order says the product wins.
    """
    factors, product = _optimize_factors(polys[0], split, options, progress,
                                         deadline.before(deadline.remaining() / 2) if deadline.bounded else deadline)
    whole = _optimize_whole(polys, joint, 0, options, progress, deadline)
    # the cheaper, unless it is a transformation whose error bound is worse than the other's: a whole in new
    # variables lost 35x in accuracy against its own factors (benchmarks/accuracy.py, input 329), which the
    # check against the whole's own Horner scheme did not see (a whole in the input's variables is not a
    # transformation: x**5 - 1 stays 4 operations, though (x - 1)*(...) is more accurate near 1)
    if whole.best.after.total <= product.after.total:
        keep_whole = whole.substitution is None or no_worse(whole.best.dag, lambda: product.dag)
    else:
        keep_whole = not no_worse(product.dag, lambda: whole.best.dag)
    if keep_whole:
        return whole
    return _Found(product, tuple(s for r, _ in factors for s in r.search), (), whole.baselines, None, factors)


def _optimize_factors(poly: Polynomial, split, options: Options, progress, deadline: Deadline):
    """Each factor of ``split`` optimized by itself, then multiplied: ``(((result, exponent), ...), candidate)``.

    The factors share the time to ``deadline``; the candidate's order is
    the largest factor's, its ``cse`` the product of the factors' Horner +
    CSE forms.
    """
    results = []
    for k, (factor, power) in enumerate(split.factors):
        share = deadline.share(len(split.factors) - k)
        part = deadline.part(share) if share is not None else deadline
        deadline.phase(f"factor {k + 1} of {len(split.factors)}")
        # each factor in its own variables: the product is built over the input's columns
        results.append((optimize(factor, options.replace(factor=False, substitute=False), progress=progress,
                                 deadline=part), power))
    columns = []
    for (factor, _), (result, _) in zip(split.factors, results):
        own = {factor.opaque.get(s, s): j for j, s in enumerate(factor.symbols)}
        columns.append([own[s] for s in result.order])
    dag = product_dag(poly, split, [result.dag for result, _ in results])
    cse = product_dag(poly, split, [horner_dag(f, cols) for (f, _), cols in zip(split.factors, columns)]).count()
    first = split.factors[0][0]
    order = [poly.symbols.index(first.symbols[j]) for j in columns[0]]
    return tuple(results), Candidate(order, cse, dag.count(), dag)


def search_orders(poly: Polynomial, options: Options, *, fixed=(), progress=None,
                  deadline: Deadline | None = None, portfolio: bool = True) -> Shortlist:
    """Stage 1: score the occurrence orders, run the preset's searches, keep the best orders.

    Every order is scored by the fast counter (Horner + CSE) through one
    :class:`~hornermcts.search.shortlist.ScoreBook`; MCTS runs once per
    direction, annealing starts from the best order found before it.  In
    the default preset (MCTS, then annealing) annealing runs once more from
    the best splitting order when it beats every order scored before
    (:func:`_anneal_stage`): a portfolio of starts that takes det(7) from
    774-840 operations (seeds 0-2) to 762 on each, the Cayley-Menger
    determinant of 7 points from 2165-2354 to 2165-2172 (``portfolio=False``:
    without that run).  The
    shortlist keeps ``options.candidates`` orders with the greedy step, one
    without; each search gets its own seed derived from ``options.seed``.
    The searches share the time up to ``deadline`` (default: ``time_limit``
    seconds from now), each taking an equal part of what is left when it
    starts (a search that stops early, its tree exhausted, leaves its time
    to the next).

    Examples
    --------
    >>> from hornermcts.research.families import hep_sigma
    >>> found = search_orders(hep_sigma(), Options(iterations=100))
    >>> len(found.best), [s.__class__.__name__ for s in found.searches]
    (5, ['MCTSResult', 'AnnealResult'])
    >>> found.best[0][1] == min(found.book.scores.values())
    True
    """
    fixed = tuple(fixed)
    deadline = Deadline(options.time_limit) if deadline is None else deadline
    searches = [s for s in ("mcts", "anneal") if s in options.stages and options.iterations != 0 and poly.n_terms]
    deadline.phase(f"searching orders ({' and '.join(searches)})" if searches else "scoring the occurrence orders",
                   bar=bool(searches))
    counter = FastCounter(poly)
    columns = structural_order(poly, fixed)  # the searches see the columns in this order, not by name
    rank = {j: k for k, j in enumerate(columns)}

    def tie(order) -> tuple:  # equal counts: ranked by the structural order, not by the column numbers
        return tuple(map(rank.__getitem__, order))

    book = ScoreBook(counter.count, tie=tie)
    plans: list = []  # each makes a Stage, given its time limit and the orders it may score
    if options.iterations != 0 and poly.n_terms:
        if "mcts" in options.stages:
            directions = ("forward", "backward") if options.direction == "both" else (options.direction,)
            plans += [partial(_mcts_stage, poly, d, counter, fixed, columns, options, progress) for d in directions]
        if "anneal" in options.stages:
            problem = HornerOrderProblem(poly, counter=counter, fixed=fixed, columns=columns)
            if len(problem.variables) >= 2:
                # the default's portfolio: one more annealing run, from a splitting order when one leads
                splits = partial(split_orders, poly, fixed, columns) if "mcts" in options.stages and portfolio \
                    and poly.n_terms >= SPLIT_MIN_TERMS else None
                plans.append(partial(_anneal_stage, problem, options, progress, refine="mcts" in options.stages,
                                     splits=splits))
    most = max(ORDER_ENTRIES // (max(poly.n_vars, 1) * max(len(plans), 1)), MIN_ORDERS)
    plans = [partial(plan, most) for plan in plans]
    # each search: an equal part of the time left when it starts, shared with those after it
    stages = [plan(partial(deadline.share, len(plans) - i)) for i, plan in enumerate(plans)]
    keep = options.candidates if "greedy" in options.stages else 1
    return shortlist(book, starts=[tuple(o) for o in baseline_orders(poly, fixed, columns).values()],
                     stages=stages, keep=keep, seed=options.seed)


def split_orders(poly: Polynomial, fixed: tuple, columns: list) -> list[tuple]:
    """The splitting orders (:func:`~hornermcts.order.splitting.splitting_orders`), forward then backward."""
    forward = [order[len(fixed):] for order in splitting_orders(poly, fixed, columns)]
    return [(*fixed, *order) for order in forward] + [(*fixed, *order[::-1]) for order in forward]


#: The orders the searches of one call score together, times the variables (each order one entry per variable):
#: a bound on their work and memory for inputs of very many variables.  Scoring an order costs time in
#: proportion to the variables or more (a sum of 1,000 / 2,000 / 5,000 variables: 1.7 / 3.7 / 34 ms), and the
#: score book keeps every order scored; the default's annealing restarts grow with the variables too, so its
#: orders grew as their square: 102,000 orders of 1,000 variables, 220 s and 3.1 GB on a sum of 1,000.
#: Split between the searches (two in the default: MCTS, then annealing), the bound leaves every input up to
#: 100 variables as it was (det(7), 49 variables: 5,000 annealing steps, 245,000 entries) and gives a sum of
#: 5,000 variables 200 orders per search: 20 s and 1.1 GB in all (the command, default preset).
ORDER_ENTRIES = 2_000_000
#: The fewest orders a search is given by that bound.
MIN_ORDERS = 10


def _mcts_stage(poly, direction: str, counter, fixed, columns, options: Options, progress, most: int,
                time_limit) -> Stage:
    """MCTS in one direction: ``options.iterations`` per restart, the restarts scoring at most ``most`` orders."""
    iterations = options.iterations if options.iterations is None else \
        min(options.iterations, max(most // options.repeats, 1))

    def run(book, seed):
        problem = HornerOrderProblem(poly, direction=direction, counter=counter, fixed=fixed, score=book,
                                     columns=columns)
        limit = time_limit()  # mcts's limit is per restart: the restarts one process runs share it
        rounds = math.ceil(options.repeats / min(processes(options.workers), options.repeats))
        return mcts(problem, iterations=iterations, time_limit=None if limit is None else limit / rounds,
                    cp=float(options.cp),
                    schedule=options.selection_schedule, seed=seed, repeats=options.repeats,
                    workers=options.workers, books=[book], progress=progress)

    input_operations = HornerOrderProblem(poly, counter=counter, fixed=fixed, columns=columns).input_operations
    return Stage(f"mcts {direction}", run, cost_of=lambda reward: round(input_operations / reward),
                 space=direction)


def _anneal_stage(problem: HornerOrderProblem, options: Options, progress, most: int, time_limit, *,
                  refine: bool, splits: Callable[[], list] | None = None) -> Stage:
    """Annealing: ``options.iterations`` steps per restart, the restarts scoring at most ``most`` steps.

    ``splits()``: orders (:func:`split_orders`) of which the best (the first
    of equals), if it has fewer operations than every order scored before,
    is annealed from in one more run, at temperatures of its own count.  The
    other runs are what they would be without it, so on an iteration budget
    the best found is never worse (under a time limit the run takes its share
    of the time); where no split is better, nothing changes (their scores are
    not kept).  Under a time limit, only when annealing has :data:`SPLIT_SECONDS` or more.
    """
    def run(book, seed):
        start, start_ops = book.leader()
        t_start, t_end = options.anneal_refine if refine else options.anneal_from_scratch
        free = problem.state_of(start)
        extra = math.ceil(max(len(free) - options.anneal_one_run_up_to, 0) / options.variables_per_restart)
        restarts, iterations = max(options.repeats, 1 + extra), options.iterations
        if iterations is not None and restarts * iterations > most:
            restarts = max(options.repeats, min(restarts, most // iterations))
            iterations = min(iterations, max(most // restarts, 1))
        also = []
        limit = time_limit()
        if splits is not None and (limit is None or limit >= SPLIT_SECONDS):
            orders = splits()
            costs = [book.cost(order) for order in orders]  # scored aside: kept only if one leads
            split_ops = min(costs)
            if split_ops < start_ops:
                split = orders[costs.index(split_ops)]
                also = [(problem.state_of(split), t_start * split_ops, t_end * split_ops)]
        return anneal(lambda state: book(problem.scheme(state)), free, iterations=iterations,
                      t_start=t_start * start_ops, t_end=t_end * start_ops,
                      restarts=restarts, seed=seed, time_limit=None if limit is None else time_limit(),
                      workers=options.workers, books=[book], progress=progress, also=also)

    return Stage("anneal", run, cost_of=int, space=problem.direction)  # skipped if MCTS saw every order there


#: The least time annealing must have for the splitting orders' run: building and scoring them takes 0.01-0.1 s on
#: 15-60 variables, up to 1 s on res(8,6)'s 114,080 terms (a loaded machine).  det(7) at time_limit=1 ended 0.1-0.4 s
#: late when they were built in any share of time; with this bound it ends at 0.8 s, and at time_limit=3 has
#: 762 operations (2521 without the run).
SPLIT_SECONDS = 0.25

#: ... and the least terms: below it the run found nothing on the 15 inputs of ``benchmarks/small_inputs.py`` (the
#: same counts without it) and cost det(4) 0.084 -> 0.103 s warm, past issue 37's 0.1 s for inputs under 100 terms.
SPLIT_MIN_TERMS = 100


@dataclass(frozen=True)
class Candidate:
    """An order built as a DAG: its column order, Horner + CSE count, final count, DAG and seconds taken."""

    order: list
    cse: OpCount
    after: OpCount
    dag: Dag
    seconds: float = 0.0


#: A candidate (its DAG, then one greedy pass) takes about this many times
#: as long as building its DAG (2.1-2.3 on HEP(sigma) and a random 30,000-term
#: input): what a time-limited call keeps back from the searches for them.
CANDIDATE_COST = 3.0


def _fallback(polys: list, joint: Polynomial, n_markers: int, options: Options) -> tuple[Candidate, float]:
    """The occurrence order's Horner + CSE DAG (an answer in hand), and the seconds to keep for screening.

    Building it times one DAG; the screening of :func:`screen_candidates`
    is expected to take :data:`CANDIDATE_COST` times that per candidate
    and per extra greedy pass.
    """
    start = time.perf_counter()
    order = _own_order(joint, n_markers)
    dag = horner_dag(polys, order)
    cse = dag.count()
    seconds = time.perf_counter() - start
    builds = options.candidates + options.greedy_rounds - 1 if "greedy" in options.stages else 1
    return Candidate(order, cse, cse, dag, seconds), CANDIDATE_COST * seconds * builds


def screen_candidates(polys: list, schemes: list, options: Options, *, n_markers: int = 0,
                      deadline: Deadline | None = None, fallback: Candidate | None = None) -> Candidate:
    """Stage 2: build each scheme's DAG, give it one greedy pass, keep the best; refine it.

    The winner (fewest operations after the pass, then after Horner + CSE)
    gets ``options.greedy_rounds - 1`` more greedy passes.  Without the
    greedy stage the first scheme's Horner + CSE DAG is the result.
    ``schemes`` hold the columns of the joint polynomial: the first
    ``n_markers`` (the output markers of several outputs) are dropped.

    The schemes are built on ``options.workers`` processes, each taking
    them best first; the winner does not depend on the number.  With a
    ``deadline`` a process builds a scheme only while the time left is
    longer than its last build took (the first: than building
    ``fallback``'s DAG took, about), and the greedy passes stop at it;
    ``fallback`` (a candidate in hand) is the answer if none is built.
    """
    use_greedy = "greedy" in options.stages
    deadline = Deadline(None) if deadline is None else deadline
    took = 0.0 if fallback is None else fallback.seconds  # this process's last build

    def build(scheme) -> Candidate | None:
        nonlocal took
        if deadline.bounded and deadline.remaining() < took:
            return None  # no time for another build
        start = time.perf_counter()
        order = [j - n_markers for j in scheme if j >= n_markers]
        dag = horner_dag(polys, order)
        cse = dag.count()
        final = greedy_step(dag, rounds=1, deadline=deadline) if use_greedy else dag
        took = time.perf_counter() - start
        return Candidate(order, cse, final.count(), final, took)

    best: Candidate | None = fallback
    deadline.phase(f"building {len(schemes)} DAG{'s' if len(schemes) > 1 else ''} (Horner, CSE"
                   f"{', a greedy pass' if use_greedy else ''})")
    for candidate in fork_map(build, schemes, options.workers):  # independent builds: on every core
        if candidate is not None and (best is None or (candidate.after.total, candidate.cse.total)
                                      < (best.after.total, best.cse.total)):
            best = candidate
    if best is None:
        raise AssertionError("no candidate schemes to screen: the occurrence orders are always scored")
    if use_greedy and options.greedy_rounds > 1 and not deadline.expired():
        deadline.phase(f"greedy ({options.greedy_rounds - 1} more pass{'es' if options.greedy_rounds > 2 else ''})")
        dag = greedy_step(best.dag, rounds=options.greedy_rounds - 1, deadline=deadline)
        best = Candidate(best.order, best.cse, dag.count(), dag, best.seconds)
    if use_greedy and best.after.total < best.cse.total:
        deadline.phase("checking the greedy step's accuracy")
        plain = cache(partial(horner_dag, polys, best.order))  # the greedy step's input, built if needed
        if not no_worse(best.dag, plain):
            best = Candidate(best.order, best.cse, best.cse, plain(), best.seconds)
    return best


def compare_with_input(expr, polys: list, best: Candidate) -> tuple[OpCount, Candidate, str]:
    """Stage 3: ``(before, best, form)``: the input's own count, and its own form if that is cheaper.

    A SymPy input counts as written (``(x + y)**8``: 4 operations); when it
    needs no more operations than ``best``, its own form (common
    subexpressions shared) replaces it and ``form`` is ``"input"`` (on a
    tie the caller gets back what was written, not a rewrite of it).  A
    polynomial, file or text counts as its terms (FORM's ``original``).
    """
    given = _given_expressions(expr)
    if given is None:
        return sum((original_count(p) for p in polys), pieces_count(polys[0].opaque)), best, "optimized"
    before = sum((expression_count(e) for e in given), OpCount())
    if before.total <= best.after.total:  # a factored input: its own form may be the cheaper one
        own = given_dag(given, polys[0])
        if own is not None and own.count().total <= best.after.total:
            return before, Candidate(best.order, best.cse, own.count(), own), "input"
    return before, best, "optimized"


def _given_expressions(expr) -> list | None:
    """The SymPy expressions as the caller wrote them, or None for a polynomial, file or text input."""
    import sympy

    items = list(expr) if _is_many(expr) else [expr]
    if all(isinstance(e, sympy.Expr) for e in items):
        return items
    return None
