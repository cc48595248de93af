"""Accuracy: the floating-point error of the emitted program, measured, so no transformation trades it silently.

Fewer operations can cost accuracy.  New variables (:mod:`hornermcts.rewrites.substitution`)
are the clear case: ``expand((x1+x3)**40 + (x1-x3)**39)`` in ``_l0 = x1 + x3``
is 80 operations shorter, but where ``x1 ~ -x3`` the sum cancels before it is
raised to the 40th power, and the compiled code has a relative error of up to
13 against the exact value, where the same search in ``x1`` and ``x3`` stays
within 5e-15.  :func:`~hornermcts.pipeline.optimize` keeps a transformation
(new variables, factoring, the greedy step) only when the emitted program's
error bound (:func:`error_bounds`) is :func:`no_worse` than that of the form
without it, point by point at :data:`BOUND_SAMPLES` points, and reports the
error of what it returns, measured (:func:`relative_error`,
``OptimizeResult.relative_error``).  The bound decides, not the measured
error: the largest relative error at a few random points depends on how
close one of them falls to a zero of the output and on how the roundings
fall there, so two forms compared at 8 points disagreed with the same forms
compared at 40 others on 11 of 276 random inputs (``benchmarks/accuracy.py``).
Where cancellation is inherent in the polynomial, whatever its form, the
remedy is compensated (double-double) arithmetic:
:mod:`hornermcts.codegen.compensated`.

The measure: the DAG evaluated in float64 as the emitted code evaluates it
(each coefficient the nearest double, one rounding per node, the new
variables computed first from their linear forms), against its exact
rational value, at :data:`SAMPLES` points, half in [0.5, 2] and half in
[-1, 1] (a fixed seed: the same figure on every run); the largest relative
error over the points and outputs.  A few points give an estimate of
typical error, not a bound on the worst.  Other opaque pieces (``sin(y)``)
are taken as inputs: their own rounding is not the polynomial's.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
from sympy import default_sort_key

from ..polynomial.coefficients import to_fraction
from ..dag.graph import Add, Dag, Mul, Pow, Scale
from .running_bound import ADD, MUL, OTHER, POW, SCALE, running_bounds

try:  # exact arithmetic in C, about 4 times as fast as Fraction on HEP(sigma)
    from flint import fmpq as _fmpq

    def _exact(q: Fraction):
        return _fmpq(q.numerator, q.denominator)
except ImportError:  # pragma: no cover - python-flint is optional
    def _exact(q: Fraction):
        return q

__all__ = ["relative_error", "error_bounds", "no_worse", "TOLERANCE", "BOUND_TOLERANCE", "QUANTILE", "SAMPLES",
           "BOUND_SAMPLES", "BOUND_FLOOR", "UNIT", "MAX_NODES", "MAX_DEGREE",
           "SECONDS_PER_NODE", "measuring_seconds"]

#: The promise: a transformation makes the emitted program's error at most this many times larger
#: (``benchmarks/accuracy.py`` checks it at points of its own).
TOLERANCE = 10.0

#: The unit roundoff of doubles (half an ulp of 1): relative errors below it are rounding noise, compared as it.
UNIT = 2.0**-53

#: Sample points (half in [0.5, 2], half in [-1, 1]).
SAMPLES = 8

#: Larger DAGs, or of a higher degree, are not measured: the exact evaluation would cost more than the search.
MAX_NODES = 50_000
MAX_DEGREE = 1_000


#: Seconds per DAG node the accuracy work of a call takes: the final DAG's error measured at :data:`SAMPLES`
#: points and the bounds of the forms a check compares (res(7,6), 46,041 nodes, at a load of 3.5 on 2 cores:
#: 1.2 s and 0.24 s each, the bounds 0.84 s before their loop was compiled; about half that on an idle
#: machine): what a time-limited call keeps for it.
SECONDS_PER_NODE = 2e-5


def measuring_seconds(dag: Dag) -> float:
    """The time to keep for the accuracy work on a DAG of ``dag``'s size (none if it is too large to measure)."""
    return 0.0 if len(dag.nodes) > MAX_NODES else SECONDS_PER_NODE * len(dag.nodes)


def relative_error(dag: Dag) -> float | None:
    """The largest relative error of the DAG's float64 evaluation at :data:`SAMPLES` points; None if not measured.

    Not measured: a DAG of more than :data:`MAX_NODES` nodes, of degree
    above :data:`MAX_DEGREE`, or with a coefficient beyond the doubles'
    range.  An output whose float64 value overflows has error ``inf``.  Measured once per DAG (remembered with it).

    >>> import sympy
    >>> from hornermcts.dag.horner import horner_dag
    >>> from hornermcts.parse import as_polynomial
    >>> x = sympy.Symbol("x")
    >>> relative_error(horner_dag(as_polynomial(x**2 + 1))) < 2.0**-52   # 1 + x*x: two roundings, no cancellation
    True
    """
    return dag._remembered("relative error", lambda: _measure(dag))


def _measurable(dag: Dag):
    """The DAG's walk, or None for a DAG too large or of too high a degree to be measured.

    The walk as the DAG remembers it, not a list: a list of its 10^4-10^5
    pairs took longer than the whole bound (the collector scanning them).
    """
    if len(dag.nodes) > MAX_NODES:
        return None
    walk = dag.walk()
    return None if dag._remembered("degree", lambda: _degree(walk)) > MAX_DEGREE else walk


def _points(bases: tuple, samples: int, seed: int) -> np.ndarray:
    """``samples`` points, half in [0.5, 2] and half in [-1, 1], as one row per base: the same for the same bases."""
    rng = np.random.default_rng(seed)
    half = samples // 2
    return np.concatenate([rng.uniform(0.5, 2.0, (half, len(bases))),
                           rng.uniform(-1.0, 1.0, (samples - half, len(bases)))]).T


def _measure(dag: Dag) -> float | None:
    walk = _measurable(dag)
    if walk is None:
        return None
    columns, bases = _columns(dag)
    base = _points(bases, SAMPLES, seed=0)
    try:
        approx = _evaluate(dag, walk, [column(base, float) for column in columns], float, np.ones(SAMPLES))
    except OverflowError:  # a coefficient beyond the doubles (10^400): no double program computes it
        return None
    points = np.frompyfunc(lambda v: _exact(Fraction(v)), 1, 1)(base)  # the same points, exactly
    exact = _evaluate(dag, walk, [column(points, _exact) for column in columns], _exact,
                      np.full(SAMPLES, _exact(Fraction(1)), dtype=object))
    worst = 0.0
    for a, e in zip(approx, exact):
        for p in range(SAMPLES):
            worst = max(worst, _relative(float(a[p]), e[p]))
    return worst


#: Points at which :func:`error_bounds` compares two forms (in floats: cheap, so many).
BOUND_SAMPLES = 64

def error_bounds(dag: Dag, samples: int = BOUND_SAMPLES) -> tuple | None:
    """``(bounds, values)``: a first-order bound on each output's rounding error, and its double value, at points.

    A running error bound, as in Higham's *Accuracy and Stability of
    Numerical Algorithms* (2002, section 3.1): each node's computed value
    ``v`` carries a bound ``E`` on its distance from the exact value,
    ``E(a*b) = |a| E(b) + |b| E(a) + u |ab|``, ``E(c1 a + c2 b) = |c1| E(a)
    + |c2| E(b) + u |v|`` (plus ``u |c v|`` for each coefficient that is not
    a double), ``E(x^n) = n |x|^(n-1) E(x) + (n - 1) u |x^n|``, where ``u``
    is :data:`UNIT`; new variables carry the bound of their linear forms.
    It is computed in doubles at ``samples`` points (half in [0.5, 2], half
    in [-1, 1], the same for every DAG over the same variables), each array
    of shape ``(outputs, samples)``.  Unlike the measured error, it does not
    depend on how the roundings happen to fall at a few points, so two forms
    of the same outputs compare point by point (:func:`no_worse`).  None
    for a DAG :func:`relative_error` would not measure.

    >>> import sympy
    >>> from hornermcts.dag.horner import horner_dag
    >>> from hornermcts.parse import as_polynomial
    >>> x = sympy.Symbol("x")
    >>> bounds, values = error_bounds(horner_dag(as_polynomial(x**2 - 1)))
    >>> bool((bounds <= 3 * UNIT * (abs(values) + 2)).all())   # x*x - 1: two roundings, of at most x^2 + 1
    True
    """
    return dag._remembered(("error bounds", samples), lambda: _bounds(dag, samples))


def _bounds(dag: Dag, samples: int) -> tuple | None:
    walk = _measurable(dag)
    if walk is None:
        return None
    forms, bases = _forms(dag)
    base = _points(bases, samples, seed=1)
    where = {s: k for k, s in enumerate(bases)}
    zero = np.zeros(samples)
    factor = _Factors()

    def scale(c, v, e):
        """``c*v`` and its bound: exact for c = +-1, one rounding (two if c is not a double) else."""
        sign, number, rounding = factor[c]
        if sign:
            return sign * v, e
        w = number * v
        return w, abs(number) * e + rounding * np.abs(w)

    columns = []
    for s in dag.symbols:
        if s in forms:
            v = e = None
            for c, t in forms[s]:
                tv, te = scale(c, base[where[t]], zero)
                if v is None:
                    v, e = tv, te
                else:
                    v = v + tv
                    e = e + te + UNIT * np.abs(v)
            columns.append((v, e))
        else:
            columns.append((base[where[s]], zero))
    value, bound = running_bounds(*_table(walk, factor, columns, samples), len(dag.nodes), UNIT)
    outputs = [scale(c, value[root], bound[root]) for c, root in dag.roots]
    bounds, values = np.array([e for _, e in outputs]), np.array([v for v, _ in outputs])
    if not (np.isfinite(bounds).all() and np.isfinite(values).all()):
        return None  # beyond the doubles at a sample point (an overflow on the way): not compared
    return bounds, values


class _Factors(dict):
    """``c -> (sign, number, rounding)``: sign +-1 for ``c = +-1`` (exact), else 0 with ``c``'s nearest double and
    the roundings of a product by it (one, two when ``c`` is not a double)."""

    def __missing__(self, c):
        if c == 1 or c == -1:
            out = (int(c), float(c), 0.0)
        else:
            q = to_fraction(c)
            out = (0, float(q), 2 * UNIT if Fraction(float(q)) != q else UNIT)
        self[c] = out
        return out


def _table(walk, factor: _Factors, columns: list, samples: int) -> tuple:
    """The walk as the table :func:`~hornermcts.cost.running_bound.running_bounds` reads (ids, kinds, operands,
    coefficients), and the powers' values and bounds, computed here by NumPy."""
    m = len(walk)
    ids, kind = np.empty(m, np.int64), np.full(m, OTHER, np.int8)
    a, b = np.zeros(m, np.int64), np.zeros(m, np.int64)
    sign, number, rounding = np.zeros((m, 2), np.int8), np.ones((m, 2)), np.zeros((m, 2))
    powers, power_bounds = [], []
    for k, (node_id, node) in enumerate(walk):
        ids[k] = node_id
        t = type(node)
        if t is Pow:
            x, ex = columns[node.var]
            v = x ** node.n
            kind[k], a[k] = POW, len(powers)
            powers.append(v)
            power_bounds.append(node.n * np.abs(x) ** (node.n - 1) * ex + (node.n - 1) * UNIT * np.abs(v))
        elif t is Mul:
            kind[k], a[k], b[k] = MUL, node.a, node.b
        elif t is Add:
            (c1, a[k]), (c2, b[k]) = node.operands
            kind[k] = ADD
            sign[k, 0], number[k, 0], rounding[k, 0] = factor[c1]
            sign[k, 1], number[k, 1], rounding[k, 1] = factor[c2]
        elif t is Scale:
            kind[k], a[k] = SCALE, node.a
            sign[k, 0], number[k, 0], rounding[k, 0] = factor[node.c]
    shape = (len(powers), samples)
    return (ids, kind, a, b, sign, number, rounding, np.array(powers).reshape(shape),
            np.array(power_bounds).reshape(shape))


#: A transformation may make the error bound at most this many times larger, point by point: a margin under
#: :data:`TOLERANCE`, because a bound and the error it bounds differ by a factor that varies from form to form
#: (at 10 instead, one of 276 random inputs still lost 34 times in measured error: ``benchmarks/accuracy.py``).
BOUND_TOLERANCE = 3.0

#: Relative bounds below this (32 units roundoff) compare as it: a first-order bound exceeds the error it bounds by
#: about the roundings on its path, so such a bound is an error of a few units roundoff, rounding noise (on gait2d
#: rows 9-17 the greedy step was refused for one output whose bound went from 2.4e-16 to 1.9e-15: 85 operations).
BOUND_FLOOR = 2.0**-48

#: At each output, bounds below this quantile of the reference's relative bounds over the points compare as
#: that level: near the output's zeros every form's relative error is large, and a form is not worse for being
#: larger where the reference is no better than at its 10 % worst points.
QUANTILE = 0.9


def no_worse(dag: Dag, reference) -> bool:
    """Whether ``dag``'s error bound is within :data:`BOUND_TOLERANCE` of that of ``reference()`` (same outputs).

    Compared point by point (:func:`error_bounds`: the same points for
    both), relative to the reference's value, each relative bound at least
    :data:`BOUND_FLOOR`, and those below the reference's :data:`QUANTILE`
    raised to it.  ``reference`` is called only when ``dag``'s relative
    bound is above :data:`BOUND_TOLERANCE` times the floor somewhere: most
    small DAGs are exact to a few ulps, and the reference need not be built.  A DAG whose bound
    is not computed (too large, or beyond the doubles) is not worse, nor
    worse than.
    """
    mine = error_bounds(dag)
    if mine is None:
        return True
    bound, value = mine
    if (bound <= BOUND_TOLERANCE * BOUND_FLOOR * np.abs(value)).all():
        return True
    theirs = error_bounds(reference())
    if theirs is None:
        return True
    scale = np.maximum(np.abs(theirs[1]), np.finfo(float).tiny)
    ours, their = np.maximum(bound / scale, BOUND_FLOOR), np.maximum(theirs[0] / scale, BOUND_FLOOR)
    level = np.quantile(their, QUANTILE, axis=1, keepdims=True)
    return bool((np.maximum(ours, level) <= BOUND_TOLERANCE * np.maximum(their, level)).all())


def _relative(approx: float, exact) -> float:
    if not np.isfinite(approx):
        return float("inf")
    difference = _exact(Fraction(approx)) - exact
    if exact == 0:
        return 0.0 if difference == 0 else float("inf")
    return float(abs(difference) / abs(exact))


def _degree(walk) -> int:
    """The highest degree of a node (each column of degree 1)."""
    degree = {0: 0}
    for node_id, node in walk:
        t = type(node)
        if t is Pow:
            degree[node_id] = node[2]
        elif t is Mul:
            degree[node_id] = degree[node[1]] + degree[node[2]]
        elif t is Add:
            a, b = degree[node[1][1]], degree[node[2][1]]
            degree[node_id] = a if a > b else b
        elif t is Scale:
            degree[node_id] = degree[node[2]]
        else:
            degree[node_id] = 0
    return max(degree.values())


def _forms(dag: Dag) -> tuple[dict, tuple]:
    """``(forms, bases)``: each new variable's linear form ``[(c, symbol), ...]``, and the symbols sampled."""
    forms = {}
    for s in dag.symbols:
        piece = dag.opaque.get(s)
        terms = piece.as_coefficients_dict() if piece is not None and piece.is_Add else None
        if terms and all(t.is_Symbol and c.is_Rational for t, c in terms.items()):
            forms[s] = [(to_fraction(c), t) for t, c in sorted(terms.items(), key=lambda tc: tc[0].sort_key())]
    bases = tuple(sorted({s for s in dag.symbols if s not in forms} | {t for form in forms.values() for _, t in form},
                         key=default_sort_key))
    return forms, bases


def _columns(dag: Dag):
    """``(columns, bases)``: how each column's value comes from the sampled ``bases``, and those symbols.

    A column is a variable of its own (sampled), or a new variable: a linear
    form of others with rational coefficients, computed from them as the
    code computes it (one rounding per operation).  ``columns[j](values,
    number)`` gives column ``j``'s value from the bases' values.
    """
    forms, bases = _forms(dag)
    where = {s: k for k, s in enumerate(bases)}

    def plain(k):
        return lambda values, number: values[k]

    def linear(form):
        def value(values, number):
            total = None
            for c, t in form:
                term = values[where[t]] if c == 1 else number(c) * values[where[t]]
                total = term if total is None else total + term
            return total
        return value

    return [linear(forms[s]) if s in forms else plain(where[s]) for s in dag.symbols], bases


def _evaluate(dag: Dag, walk, columns: list, number, one) -> list:
    """The outputs from the columns' values: ``number`` turns a coefficient into the arithmetic's number."""
    value = {0: one}
    coefficient = {}

    def times(c, v):
        if c == 1:
            return v
        if c == -1:
            return -v
        known = coefficient.get(c)
        if known is None:
            known = coefficient[c] = number(to_fraction(c))
        return known * v

    for node_id, node in walk:
        if isinstance(node, Pow):
            value[node_id] = columns[node.var] ** node.n
        elif isinstance(node, Mul):
            value[node_id] = value[node.a] * value[node.b]
        elif isinstance(node, Add):
            (c1, a), (c2, b) = node.operands
            value[node_id] = times(c1, value[a]) + times(c2, value[b])
        elif isinstance(node, Scale):
            value[node_id] = times(node.c, value[node.a])
    return [times(c, value[root]) * one for c, root in dag.roots]
