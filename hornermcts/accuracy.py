"""Accuracy: the floating-point error of the emitted program, measured, so no transformation trades it silently.

Fewer operations can cost accuracy.  New variables (:mod:`hornermcts.substitution`)
are the clear case: ``expand((x1+x3)**40 + (x1-x3)**39)`` in ``_l0 = x1 + x3``
is 80 operations shorter, but where ``x1 ~ -x3`` the sum cancels before it is
raised to the 40th power, and the compiled code has a relative error of up to
13 against the exact value, where the same search in ``x1`` and ``x3`` stays
within 5e-15.  :func:`relative_error` measures a DAG's error;
:func:`~hornermcts.optimize.optimize` keeps a transformation (new variables,
factoring, the greedy step) only when its error is not :func:`worse` than the
form without it, and reports the error of what it returns
(``OptimizeResult.relative_error``).  Where cancellation is inherent in the
polynomial, whatever its form, the remedy is compensated (double-double)
arithmetic: :mod:`hornermcts.codegen.compensated`.

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

from .coefficients import to_fraction
from .dag import Add, Dag, Mul, Pow, Scale

try:  # exact arithmetic in C, about 4 times as fast as Fraction on HEP(sigma)
    from flint import fmpq as _fmpq

    def _exact(q: Fraction):
        return _fmpq(q.numerator, q.denominator)
except ImportError:  # pragma: no cover - python-flint is optional
    def _exact(q: Fraction):
        return q

__all__ = ["relative_error", "worse", "no_worse", "TOLERANCE", "SAMPLES", "MAX_NODES", "MAX_DEGREE"]

#: A transformation may make the error at most this many times larger.
TOLERANCE = 10.0

#: Errors below half an ulp of 1 are rounding noise: compared as this much.
FLOOR = 2.0**-53

#: Sample points (half in [0.5, 2], half in [-1, 1]).
SAMPLES = 8

#: Larger DAGs, or of a higher degree, are not measured: the exact evaluation would cost more than the search.
MAX_NODES = 50_000
MAX_DEGREE = 1_000


def relative_error(dag: Dag) -> float | None:
    """The largest relative error of the DAG's float64 evaluation at :data:`SAMPLES` points; None if not measured.

    Not measured: a DAG of more than :data:`MAX_NODES` nodes, of degree
    above :data:`MAX_DEGREE`, or with a coefficient beyond the doubles'
    range.  An output whose float64 value overflows has error ``inf``.  Measured once per DAG (remembered with it).

    >>> import sympy
    >>> from hornermcts.horner_scheme import horner_dag
    >>> from hornermcts.parse import as_polynomial
    >>> x = sympy.Symbol("x")
    >>> relative_error(horner_dag(as_polynomial(x**2 + 1))) < 2.0**-52   # 1 + x*x: two roundings, no cancellation
    True
    """
    measured = _measurement(dag)
    return None if measured is None else measured[0]


def _measurement(dag: Dag, known: tuple | None = None) -> tuple | None:
    """``(error, bases, exact values)`` of the DAG, remembered; ``known``: another form's bases and exact values.

    The points depend only on the bases (the variables sampled, in
    :func:`sympy.default_sort_key` order), so two forms of the same outputs
    over the same variables have the same exact values: the second form
    borrows them (the exact evaluation costs ten times the float one).
    """
    return dag._remembered("relative error", lambda: _measure(dag, known))


def _measure(dag: Dag, known: tuple | None) -> tuple | None:
    if len(dag.nodes) > MAX_NODES:
        return None
    walk = list(dag.walk())  # read three times
    if _degree(walk) > MAX_DEGREE:
        return None
    columns, bases = _columns(dag)
    rng = np.random.default_rng(0)
    half = SAMPLES // 2
    base = np.concatenate([rng.uniform(0.5, 2.0, (half, len(bases))),
                           rng.uniform(-1.0, 1.0, (SAMPLES - half, len(bases)))]).T
    try:
        approx = _evaluate(dag, walk, [column(base, float) for column in columns], float, np.ones(SAMPLES))
    except OverflowError:  # a coefficient beyond the doubles (10^400): no double program computes it
        return None
    if known is not None and known[0] == bases:
        exact = known[1]
    else:
        points = np.frompyfunc(lambda v: _exact(Fraction(v)), 1, 1)(base)  # the same points, exactly
        exact = _evaluate(dag, walk, [column(points, _exact) for column in columns], _exact,
                          np.full(SAMPLES, _exact(Fraction(1)), dtype=object))
    worst = 0.0
    for a, e in zip(approx, exact):
        for p in range(SAMPLES):
            worst = max(worst, _relative(float(a[p]), e[p]))
    return worst, bases, exact


def worse(error: float | None, reference: float | None) -> bool:
    """Whether ``error`` is more than :data:`TOLERANCE` times ``reference`` (both at least :data:`FLOOR`).

    An error not measured (None) is never worse, nor worse than.
    """
    if error is None or reference is None:
        return False
    return max(error, FLOOR) > TOLERANCE * max(reference, FLOOR)


def no_worse(dag: Dag, reference) -> bool:
    """Whether ``dag``'s error is not :func:`worse` than that of the DAG ``reference()`` makes (the same outputs).

    ``reference`` is called only when ``dag``'s error could be worse (it is
    measured and above ``TOLERANCE * FLOOR``): most DAGs are exact to a few
    ulps, and the reference need not be built.
    """
    measured = _measurement(dag)
    if measured is None or measured[0] <= TOLERANCE * FLOOR:
        return True
    other = reference()
    theirs = _measurement(other, known=measured[1:])  # the same outputs: the same exact values
    return theirs is None or not worse(measured[0], theirs[0])


def _relative(approx: float, exact) -> float:
    if not np.isfinite(approx):
        return float("inf")
    difference = _exact(Fraction(approx)) - exact
    if exact == 0:
        return 0.0 if difference == 0 else float("inf")
    return float(abs(difference) / abs(exact))


def _degree(walk: list) -> int:
    """The highest degree of a node (each column of degree 1)."""
    degree = {0: 0}
    for node_id, node in walk:
        if isinstance(node, Pow):
            degree[node_id] = node.n
        elif isinstance(node, Mul):
            degree[node_id] = degree[node.a] + degree[node.b]
        else:
            degree[node_id] = max((degree[child] for child in node.children), default=0)
    return max(degree.values())


def _columns(dag: Dag):
    """``(columns, bases)``: how each column's value comes from the sampled ``bases``, and those symbols.

    A column is a variable of its own (sampled), or a new variable: a linear
    form of others with rational coefficients, computed from them as the
    code computes it (one rounding per operation).  ``columns[j](values,
    number)`` gives column ``j``'s value from the bases' values.
    """
    forms = {}
    for s in dag.symbols:
        piece = dag.opaque.get(s)
        terms = piece.as_coefficients_dict() if piece is not None and piece.is_Add else None
        if terms and all(t.is_Symbol and c.is_Rational for t, c in terms.items()):
            forms[s] = [(to_fraction(c), t) for t, c in sorted(terms.items(), key=lambda tc: tc[0].sort_key())]
    bases = tuple(sorted({s for s in dag.symbols if s not in forms} | {t for form in forms.values() for _, t in form},
                         key=default_sort_key))
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


def _evaluate(dag: Dag, walk: list, columns: list, number, one) -> list:
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
