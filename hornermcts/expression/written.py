"""``optimize_written``: optimize expressions as written, the regions decided by cost.

The stages: :func:`~hornermcts.expression.regions.regions` twice (every
product of sums kept as written, and every product expanded where it stays
within :data:`~hornermcts.expression.regions.DEFAULT_EXPAND_LIMIT` terms),
each scored by the quick Horner + CSE count of its units
(:func:`hornermcts.pipeline.quick_cost`); the cheaper is optimized by
:func:`hornermcts.optimize` with the caller's options, all units together;
:func:`~hornermcts.expression.assemble.assemble` writes the assignments.
``sympy.cse`` of the input is a candidate too, so the result never costs
more than it.

Examples
--------
>>> import sympy
>>> x, y = sympy.symbols("x y")
>>> r = optimize_written([sympy.sin(x**2 + y) + sympy.cos(x**2 + y)])
>>> r.after.total, r.form
(3, 'as written')
>>> [rhs for _, rhs in r.statements]
[x**2 + y, sin(_u0), cos(_u0)]
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import sympy

from ..errors import LimitError
from ..cost.counting import OpCount, expression_count
from .assemble import assemble, count, placeholders
from .sharing import share_across
from .regions import DEFAULT_EXPAND_LIMIT, Regions, regions

__all__ = ["WrittenResult", "optimize_written", "sympy_cse_named", "EXPANSION_GROWTH", "EXPANSION_WORK",
           "REGION_ITERATIONS", "REGION_CANDIDATES", "SYMPY_CSE_UP_TO"]

#: The regions are small polynomials in many atoms: the order search converges within a few dozen orders
#: (gait2d row 10: 396, 395, 395, 391 operations at 1000, 300, 100, 30 orders per search; the pendulum5
#: Jacobian 230 at each), so unless the caller sets ``iterations`` the searches score at most this many,
#: annealing runs ``repeats`` times, not once more per 10 atoms, and, unless ``workers`` is set, in this
#: process: forking costs more than it saves on searches this short (a 6x6 pendulum Jacobian: 0.52 s on two
#: processes, 0.26 s on one; the result is the same for any number of workers).
REGION_ITERATIONS = 50

#: ... and the greedy step runs on the best order only (gait2d row 10, rows 9-17 and the pendulum5 Jacobian:
#: 321, 1071 and 190 operations with 5, 2 or 1 candidates; 3.4, 1.3 and 0.9 s on row 10).
REGION_CANDIDATES = 1

#: Inputs of at most this many operations as written are also given to ``sympy.cse``, whose answer is kept
#: where it is cheaper (``[w*y + w + x + y + z, w*x*y]``: 6 operations against the Horner form's 7); there it
#: takes milliseconds, while on large expanded polynomials ours is far ahead (HEP(sigma): 1041 against 27017)
#: and sympy.cse takes seconds.  Expressions as written are asked always, by every preset: an answer that
#: costs more than sympy.cse's on what users write is a regression (``fast`` on gait2d rows 9-17: 1296 against
#: 1293 without it), though sympy.cse's time is then most of fast's budget there (0.18 of 0.36 s).
SYMPY_CSE_UP_TO = 500

#: The expanded candidate is given up when its regions reach this many times the terms of the regions as
#: written (the pendulum sets expand to 1.2-1.4 times and pay; gait2d row 10 to 6 times, and loses 2 to 1).
EXPANSION_GROWTH = 4

#: ... or when the forms its walk builds on the way (each sum's, each product's) reach this many times that
#: budget: gait2d rows 9-17 built 17,908 terms before its regions passed the budget of 4,164, row 10 9,604 of
#: 1,376 (0.2 and 0.1 s); the walks of the pendulum sets, which expand to themselves, build 3 times their terms.
EXPANSION_WORK = 2


@dataclass(frozen=True)
class WrittenResult:
    """What :func:`optimize_written` found.

    Attributes
    ----------
    statements : list of (sympy.Symbol, sympy.Expr)
        Assignments in evaluation order (the ``sympy.cse`` shape); the
        temporaries are ``Dummy`` symbols, named by the caller.
    outputs : list of sympy.Expr
        One per input expression.
    before, after : OpCount
        Operations as written (every occurrence counted,
        :func:`~hornermcts.cost.counting.expression_count`) and of ``statements`` +
        ``outputs``.
    form : str
        ``"as written"`` (products of sums kept), ``"expanded"`` (products
        expanded where they stay small) or ``"sympy.cse"`` (SymPy's own
        answer was cheaper).
    inlinable : set
        The statements' right-hand sides, which a writer may put in place
        where they are read once (as ``sympy.cse`` names only what repeats).
    seconds : float
        Wall time of the call.
    result : OptimizeResult
        What :func:`hornermcts.optimize` made of the units (None when the
        answer is ``sympy.cse``'s).
    many : bool
        Whether the input was a list (:meth:`nested` gives a list either way).
    """

    statements: list
    outputs: list
    before: OpCount
    after: OpCount
    form: str
    inlinable: set = field(default_factory=set)
    seconds: float = 0.0
    result: object = field(default=None, repr=False, compare=False)
    many: bool = True

    def named(self, symbols=None) -> tuple[list, list]:
        """``(replacements, outputs)`` with the temporaries named by ``symbols`` (default ``t0, t1, ...``).

        ``symbols`` is an iterable of SymPy symbols; names the expressions
        use are skipped; an OptionError when it runs out.
        """
        from ..errors import OptionError

        used = set().union(*(e.free_symbols for e in self.outputs), *(rhs.free_symbols for _, rhs in self.statements))
        names = iter(sympy.numbered_symbols("t") if symbols is None else symbols)
        rename: dict = {}
        for s, _ in self.statements:
            for name in names:
                if name not in used:
                    rename[s] = name
                    break
            else:
                raise OptionError(f"the symbols given for the temporaries ran out after {len(rename)}: give more "
                                  f"(e.g. sympy.numbered_symbols('x')) or none")
        with sympy.evaluate(False):  # renamed, not rewritten: 2*(x + y)/2 stays as it was counted
            return ([(rename[s], rhs.xreplace(rename)) for s, rhs in self.statements],
                    [e.xreplace(rename) for e in self.outputs])

    def nested(self) -> list:
        """The outputs with every assignment put in place: one SymPy expression each, exactly the input's value."""
        value: dict = {}
        for s, rhs in self.statements:
            value[s] = rhs.xreplace(value)
        return [e.xreplace(value) for e in self.outputs]


def _candidates(exprs, expand: bool = True) -> list:
    """``[(name, Regions)]``: products of sums as written, and (``expand``) expanded where they stay small."""
    out = [("as written", regions(exprs, expand_limit=1))]
    if not expand:
        return out
    try:  # an expansion to many times the terms as written does not pay: stopped when it gets there
        budget = EXPANSION_GROWTH * max(out[0][1].n_terms, 64)
        expanded = regions(exprs, expand_limit=min(DEFAULT_EXPAND_LIMIT, budget), term_budget=budget,
                           work_budget=EXPANSION_WORK * budget)
    except LimitError:
        return out
    if expanded.n_terms != out[0][1].n_terms or len(expanded.units) != len(out[0][1].units):
        out.append(("expanded", expanded))
    return out


def _quick_cost(r: Regions) -> int:
    """The quick Horner + CSE count of the units together, plus the divisions."""
    from ..pipeline import prepare_outputs, quick_cost

    _, joint, n_markers = prepare_outputs(r.polynomials())
    divisions = sum(1 for d in r.definitions.values() if d.is_Pow and d.exp == -1)
    return quick_cost(joint, fixed=tuple(range(n_markers))) + divisions


def _region_options(options, changes: dict):
    """The caller's options, with the search effort of :data:`REGION_ITERATIONS` unless ``iterations`` was set."""
    from ..options import make

    chosen = make(options, **changes)
    default = make(None)
    if "workers" not in changes and (options is None or options.workers == default.workers):
        chosen = chosen.replace(workers=1)
    if "candidates" not in changes and (options is None or options.candidates == default.candidates):
        chosen = chosen.replace(candidates=min(chosen.candidates, REGION_CANDIDATES))
    if "iterations" in changes or (options is not None and options.iterations != default.iterations) \
            or chosen.iterations is None:
        return chosen
    return chosen.replace(iterations=min(chosen.iterations, REGION_ITERATIONS), variables_per_restart=10**6)


def sympy_cse_named(exprs: list, temporaries=None) -> tuple[list, list]:
    """``sympy.cse(exprs)``, its temporaries named from ``temporaries``, or placeholders (Dummy symbols) where
    there are none or they run out (the caller names those, and says when names run out)."""
    if temporaries is not None:
        try:
            return sympy.cse(exprs, symbols=temporaries)
        except ValueError:  # ran out of names: asked again (any other error is raised again there)
            pass
    return sympy.cse(exprs, symbols=placeholders())


def optimize_written(exprs, options=None, *, deadline=None, temporaries=None, **changes) -> WrittenResult:
    """Optimize SymPy expressions as written (see the module docstring); ``options`` as :func:`hornermcts.optimize`.

    Parameters
    ----------
    exprs : list of sympy.Expr
    options : Options, optional
    deadline : Deadline, optional
        When the call must end, passed to :func:`hornermcts.optimize`.
    temporaries : iterator of sympy.Symbol, optional
        Names for the temporaries of ``sympy.cse``'s answer, where it is
        kept (default: placeholders, as every other answer's).
    **changes
        Options by name (``preset``, ``seed``, ``time_limit`` ...).

    Regions that are one unit (a polynomial in symbols and pieces of
    symbols, e.g. a small product of sums expanded) are optimized with the
    caller's options as they stand: the search effort of
    :data:`REGION_ITERATIONS` is for many small units.
    """
    from ..pipeline import optimize

    clock = time.perf_counter()
    exprs = [sympy.sympify(e) for e in exprs]
    chosen_options = _region_options(options, changes)

    # the fast preset (no search, no greedy step) takes the expressions as written: the expanded walk and the
    # two quick counts would take more than the rest of the call (gait2d rows 9-17: 0.55 s of 1.6 s)
    phase = deadline.phase if deadline is not None else lambda text: None
    phase("finding the polynomial regions")
    candidates = _candidates(exprs, expand=bool(chosen_options.stages))
    name, chosen = min(candidates, key=lambda c: _quick_cost(c[1])) if len(candidates) > 1 else candidates[0]
    units = chosen.polynomials()
    if len(units) > 1:
        result = optimize(units, chosen_options, deadline=deadline, report=False)
    else:
        result = optimize(units[0], options, deadline=deadline, **changes)
    replacements, unit_exprs = result.assignments(placeholders())
    statements, outputs = assemble(chosen, replacements, unit_exprs)
    after = count(statements, outputs)
    if chosen_options.stages:  # what the units left to share (not in fast: its time is short)
        phase("sharing across the regions")
        statements, outputs, after = share_across(statements, outputs)
    # never more than sympy.cse on what users write (run on another core beside ours, it saved 0.1 s of 0.87 s
    # on gait2d rows 9-17 and cost 0.04 s of fork on every small call: one after the other)
    phase("sympy.cse, to compare")
    own = sympy_cse_named(exprs, temporaries)
    own_count = count(*own)
    memo: dict = {}
    before = sum((expression_count(e, memo) for e in exprs), OpCount())
    if own_count.total < after.total:
        statements, outputs, after, name = own[0], own[1], own_count, "sympy.cse"
    inlinable = {rhs for _, rhs in statements}  # as sympy.cse names only what repeats
    return WrittenResult(statements, outputs, before, after, name, inlinable, time.perf_counter() - clock,
                         None if name == "sympy.cse" else result)
