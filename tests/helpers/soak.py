"""The soak of issue 14 point 8: random inputs through every preset and every emitter, each checked.

Shared by ``tests/test_soak.py`` (a small sample) and ``benchmarks/soak.py``
(10^4 inputs).  :func:`random_input` draws an input as a user could write it:
1 to 5 variables, integer, rational, large and float coefficients, opaque
pieces (``sin(x1)``, ``1/x2``, ``sqrt(x0)``, ``exp(x0*x1)``), constants,
zeros, and lists of up to three outputs (some zero).  :func:`check_case`
optimizes it with one preset and checks, for each output:

* ``exact``: the result's expression equals the input at a random point
  of positive rationals (exact rational arithmetic when the input is
  polynomial with exact coefficients; 50 digits otherwise, floats to 1e-12);
* ``count``: the operations of the emitted Python and C code, read from the
  text by the independent counter ``helpers/emitted_ops.py``, equal
  ``result.after``;
* ``python``, ``numpy``: the generated functions' values at the point, within
  1e-9 of the exact value relative to the sum of the terms' magnitudes;
* ``c`` (:func:`check_compiled`): many results compiled into one library,
  the same bound;
* ``cse``, ``horner``: ``hornermcts.cse`` and ``hornermcts.horner`` of the
  input equal it at the point (once per input, not per preset).

Every failure is a line that reproduces it: the seed of the input, the
preset and what differed.
"""
from __future__ import annotations


import numpy as np
import sympy

import hornermcts
from hornermcts import codegen
from hornermcts.options import PRESETS

from helpers.emitted_ops import count_c, count_python, total

SYMBOLS = sympy.symbols("x0:5")
PIECES = (lambda s: sympy.sin(s[1 % len(s)]), lambda s: 1 / s[2 % len(s)], lambda s: sympy.sqrt(s[0]),
          lambda s: sympy.exp(s[0] * s[-1]))
TOLERANCE = 1e-9


def _coefficient(rng: np.random.Generator):
    kind = rng.random()
    if kind < 0.6:
        return sympy.Integer(int(rng.integers(1, 10)) * int(rng.choice([-1, 1])))
    if kind < 0.8:
        return sympy.Rational(int(rng.integers(-9, 10)) or 1, int(rng.integers(1, 10)))
    if kind < 0.9:
        return sympy.Integer(int(rng.integers(1, 10**6))) ** 4  # 24 digits
    return sympy.Float(round(float(rng.normal()), 6))


def _output(rng: np.random.Generator, syms) -> sympy.Expr:
    n_terms = int(rng.integers(0, 13))
    terms = []
    for _ in range(n_terms):
        term = _coefficient(rng)
        for s in syms:
            if rng.random() < 0.5:
                term *= s ** int(rng.integers(1, 4))
        if rng.random() < 0.2:
            term *= PIECES[int(rng.integers(len(PIECES)))](syms)
        terms.append(term)
    return sympy.Add(*terms)


def random_input(seed: int):
    """The input of ``seed``: one expression, or a list of 2 or 3 (a few outputs zero)."""
    rng = np.random.default_rng(seed)
    syms = SYMBOLS[: int(rng.integers(1, 6))]
    if rng.random() < 0.7:
        return _output(rng, syms)
    return [_output(rng, syms) for _ in range(int(rng.integers(2, 4)))]


def _point(exprs, seed: int) -> dict:
    rng = np.random.default_rng(seed + 10**9)
    free = sorted(set().union(*(sympy.sympify(e).free_symbols for e in exprs)), key=str)
    return {s: sympy.Rational(int(rng.integers(1, 10)), int(rng.integers(1, 8))) for s in free}


def _value(expr, point: dict):
    """``(exact or 50-digit value, magnitude)`` of ``expr`` at ``point``."""
    expr = sympy.sympify(expr)
    terms = sympy.Add.make_args(sympy.expand(expr))
    magnitude = sum(abs(float(sympy.N(t.subs(point), 30))) for t in terms)
    value = expr.subs(point)
    exact = value.is_Rational and not expr.has(sympy.Float)
    return (value if exact else sympy.N(value, 50)), magnitude, exact


def _equal(got, want, magnitude: float, exact: bool, floats: bool) -> bool:
    if exact:
        return sympy.Rational(got) == want if sympy.sympify(got).is_Rational else False
    bound = (1e-12 if floats else 1e-40) * max(1.0, magnitude)
    return abs(float(sympy.N(sympy.sympify(got) - want, 50))) <= bound


def check_case(seed: int, preset: str, *, iterations: int = 20) -> tuple[int, list[str], object]:
    """``(checks, failures, result)`` of input ``seed`` optimized with ``preset``."""
    expr = random_input(seed)
    exprs = expr if isinstance(expr, list) else [expr]
    where = f"seed={seed} preset={preset}"
    try:
        result = hornermcts.optimize(expr, preset=preset, iterations=iterations, seed=seed, progress=None)
    except Exception as err:  # every exception of a valid input is a failure to report
        return 1, [f"{where}: optimize raised {type(err).__name__}: {err}"], None
    failures: list[str] = []
    checks = 0
    point = _point(exprs, seed)
    got = result.expression()
    got = got if isinstance(got, list) else [got]
    wanted = [_value(e, point) for e in exprs]
    floats = any(sympy.sympify(e).has(sympy.Float) for e in exprs)
    for k, ((want, magnitude, exact), g) in enumerate(zip(wanted, got)):
        checks += 1
        if not _equal(sympy.sympify(g).subs(point), want, magnitude, exact, floats):
            failures.append(f"{where}: output {k}: the result differs from the input")
    source = codegen.to_python(result)
    for label, counted in (("python", total(count_python(source))),
                           ("c", total(count_c(codegen.to_c(result, batch=False))))):
        checks += 1
        if counted != result.after.total:
            failures.append(f"{where}: {label} code has {counted} operations, result.after says {result.after.total}")
    args = codegen.input_symbols(result)
    values = [float(point.get(s, 1)) for s in args]
    python = codegen.load_python(source)(values)
    numpy = codegen.load_python(codegen.to_numpy(result))(*[np.array([v]) for v in values])
    python = tuple(python) if isinstance(python, (tuple, list)) else (python,)
    numpy = tuple(np.asarray(numpy, dtype=float).reshape(-1))
    for label, outputs in (("python", python), ("numpy", numpy)):
        for k, ((want, magnitude, _), v) in enumerate(zip(wanted, outputs)):
            checks += 1
            if not abs(float(v) - float(want)) <= TOLERANCE * max(1.0, magnitude):
                failures.append(f"{where}: {label} output {k} = {float(v)!r}, exact {float(want)!r}")
    return checks, failures, (result, wanted, point)


def check_compiled(cases: list) -> tuple[int, list[str]]:
    """Compile the results of ``cases`` (``(where, (result, wanted, point))``) into one library; check each value."""
    cases = [(where, c) for where, c in cases if c is not None]
    if not cases:
        return 0, []
    compiled = codegen.compile([c[0] for _, c in cases], cache=False)
    failures: list[str] = []
    checks = 0
    by_name = {str(s): s for s in compiled.symbols}
    outputs = iter(range(compiled.n_outputs))
    for where, (_, wanted, point) in cases:
        values = [float(point.get(by_name[str(s)], 1)) for s in compiled.symbols]
        out = np.atleast_1d(compiled(values))
        for want, magnitude, _ in wanted:
            k = next(outputs)
            checks += 1
            if not abs(float(out[k]) - float(want)) <= TOLERANCE * max(1.0, magnitude):
                failures.append(f"{where}: compiled C output {k} = {float(out[k])!r}, exact {float(want)!r}")
    return checks, failures


def check_dropins(seed: int) -> tuple[int, list[str]]:
    """``hornermcts.cse`` and ``hornermcts.horner`` of input ``seed`` equal it at a point."""
    expr = random_input(seed)
    exprs = expr if isinstance(expr, list) else [expr]
    point = _point(exprs, seed)
    floats = any(sympy.sympify(e).has(sympy.Float) for e in exprs)
    failures = []
    replacements, reduced = hornermcts.cse(exprs)
    rebuilt = [sympy.sympify(r) for r in reduced]
    for sym, value in reversed(replacements):
        rebuilt = [r.subs(sym, value) for r in rebuilt]
    horner = [hornermcts.horner(e) for e in exprs]
    for label, outs in (("cse", rebuilt), ("horner", horner)):
        for k, (e, g) in enumerate(zip(exprs, outs)):
            want, magnitude, exact = _value(e, point)
            if not _equal(sympy.sympify(g).subs(point), want, magnitude, exact, floats):
                failures.append(f"seed={seed}: hornermcts.{label} output {k} differs from the input")
    return 2 * len(exprs), failures


__all__ = ["PRESETS", "random_input", "check_case", "check_compiled", "check_dropins"]
