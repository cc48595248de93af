"""Factoring the input: when the expanded polynomial is a product, its factors are optimized, then multiplied.

No Horner scheme of an expanded product comes close to the product itself:
``(x + y + z + 1)**6 * (x - 2*y + w)**5`` has 892 terms and costs 555
operations after the best scheme, against 13 for the product of its two
factors, each a short sum raised by repeated squaring.  :func:`factorization`
asks python-flint (FLINT's multivariate factoring over the integers) for the
irreducible factors of a polynomial and reports them when there are at least
two that are not monomials (counted with their exponents); otherwise
(irreducible up to a number and a monomial, which a Horner scheme pulls out
anyway) it returns None and nothing changes.  :func:`hornermcts.optimize`
then optimizes each distinct factor by itself and multiplies the results
(:func:`product_dag`).

Factoring costs little next to a search: on the benchmark suite's inputs,
none of which factors, 0.02-0.33 s up to 43,166 terms (2-7% of the default
run) and 1.05 s for res(8,6)'s 114,080 (1.9%), measured by
``benchmarks/factoring.py``.
With a ``deadline`` it runs in a forked child process that is stopped after
:data:`TIME_SHARE` of the time left (then the input is optimized whole, as
if it did not factor); where there is no fork (Windows) it runs in this
process, without that cap.  Inputs with inexact (floating-point) coefficients
are not factored: an exact factorisation of their binary values would
change how the code rounds.  Without python-flint (``pip install
python-flint``) nothing is factored.

Examples
--------
>>> import sympy
>>> from hornermcts.parse import from_sympy
>>> x, y, z = sympy.symbols("x y z")
>>> poly = from_sympy(sympy.expand(6*x**2*(x + y)**3*(y - z)))
>>> split = factorization(poly)
>>> split.unit, {poly.symbols[j]: e for j, e in split.monomial.items()}
(-6, {x: 2})
>>> [(f.to_sympy(), e) for f, e in split.factors]
[(-y + z, 1), (x + y, 3)]
>>> factorization(from_sympy(x**2 + y**2)) is None                          # irreducible over the rationals
True
>>> factorization(from_sympy(sympy.expand(4*x*(x + y)))) is None            # a number and a monomial only
True
"""
from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .coefficients import common_denominator, int_if_integral, to_python
from .dag import ONE, Add, Dag, Mul, Pow, Scale
from .deadline import Deadline
from .polynomial import Polynomial

__all__ = ["Factorization", "factorization", "product_dag", "TIME_SHARE"]

#: With a deadline, factoring may take this share of the time left (it runs in a child process stopped then).
TIME_SHARE = 0.1


@dataclass(frozen=True)
class Factorization:
    """``unit * prod(x_j ** monomial[j]) * prod(f ** e for f, e in factors)``, equal to the polynomial factored.

    Attributes
    ----------
    unit : int or Fraction
        A rational number (the sign and content).
    monomial : dict
        ``{column: exponent}``: the variables that divide the polynomial.
    factors : tuple of (Polynomial, int)
        The distinct irreducible factors that are not monomials, with their
        exponents, largest first.  Each is over the columns it uses (its
        ``symbols`` a subset of the input's, opaque pieces kept), with
        coprime integer coefficients.
    """

    unit: int | Fraction
    monomial: dict
    factors: tuple


def factorization(poly: Polynomial, deadline: Deadline | None = None) -> Factorization | None:
    """The factors of ``poly`` when at least two are not monomials (with their exponents), else None.

    None also when python-flint is not installed, when a coefficient is not
    exact (``int`` or ``Fraction``), and when ``deadline`` is bounded and
    factoring would take more than :data:`TIME_SHARE` of the time left.
    """
    coefficients = [to_python(c) for c in poly.coefficients]
    if poly.n_terms < 2 or not all(type(c) in (int, Fraction) for c in coefficients):
        return None
    try:
        import flint  # noqa: F401
    except ImportError:
        return None
    scale = common_denominator(coefficients)
    terms = dict(zip(map(tuple, poly.exponents.tolist()), (int(c * scale) for c in coefficients)))
    if deadline is not None and deadline.bounded:
        found = _in_child(terms, poly.n_vars, TIME_SHARE * deadline.remaining())
    else:
        found = _factor(terms, poly.n_vars)
    if found is None:
        return None
    content, parts = found
    monomial: dict = {}
    factors = []
    for exps_of, power in parts:
        if len(exps_of) == 1:  # a monomial factor: x_j (FLINT gives each variable apart), or a number
            (row, c), = exps_of.items()
            content *= c ** power
            for j, e in enumerate(row):
                if e:
                    monomial[j] = monomial.get(j, 0) + e * power
            continue
        factors.append((exps_of, power))
    if sum(power for _, power in factors) < 2:
        return None
    factors.sort(key=lambda item: -len(item[0]))
    return Factorization(int_if_integral(Fraction(content, scale)), monomial,
                         tuple((_polynomial(poly, exps_of), power) for exps_of, power in factors))


def _factor(terms: dict, n_vars: int) -> tuple[int, list]:
    """FLINT's factors of the integer polynomial ``terms``: ``(content, [({exponents: coefficient}, power)])``."""
    import flint

    ctx = flint.fmpz_mpoly_ctx.get(("x", n_vars), "lex")
    content, parts = ctx.from_dict(terms).factor()
    return int(content), [({tuple(map(int, k)): int(v) for k, v in f.to_dict().items()}, int(e)) for f, e in parts]


def _in_child(terms: dict, n_vars: int, seconds: float) -> tuple[int, list] | None:
    """:func:`_factor` in a forked child stopped after ``seconds`` (None then, or if it fails); here without fork."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return _factor(terms, n_vars)
    receive, send = multiprocessing.get_context("fork").Pipe(duplex=False)
    pid = os.fork()
    if pid == 0:  # the child: factor, send, leave without running the parent's clean-up
        code = 0
        try:
            send.send(_factor(terms, n_vars))
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    send.close()
    try:
        found = receive.recv() if receive.poll(seconds) else None
    except EOFError:  # the child failed (FLINT raised or died): not factored
        found = None
    finally:
        receive.close()
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    return found


def _polynomial(poly: Polynomial, terms: dict) -> Polynomial:
    """The factor ``terms`` (over all of ``poly``'s columns) as a Polynomial over the columns it uses."""
    exps = np.array(list(terms), dtype=np.int64)
    used = np.flatnonzero(exps.any(axis=0))
    symbols = tuple(poly.symbols[j] for j in used)
    opaque = {s: piece for s, piece in poly.opaque.items() if s in symbols}
    return Polynomial(symbols, exps[:, used], list(terms.values()), opaque=opaque)


def product_dag(poly: Polynomial, split: Factorization, dags: list) -> Dag:
    """One DAG over ``poly``'s columns computing the product ``split`` stands for.

    ``dags[k]`` is the optimized DAG of ``split.factors[k]`` (over that
    factor's columns).  Its nodes are copied over (equal nodes of two
    factors become one); a factor's power is taken by repeated squaring, the
    monomial's variables as powers, and every number goes to the output's
    scalar (one multiplication at most).

    >>> import sympy
    >>> from hornermcts.parse import from_sympy
    >>> from hornermcts.horner_scheme import horner_dag
    >>> x, y, z = sympy.symbols("x y z")
    >>> poly = from_sympy(sympy.expand(-3*x*(x + y)**3*(y + 2*z)))
    >>> split = factorization(poly)
    >>> dag = product_dag(poly, split, [horner_dag(f, list(range(f.n_vars))) for f, _ in split.factors])
    >>> from hornermcts.views import to_expressions
    >>> sympy.expand(to_expressions(dag)[0] - poly.to_sympy()), dag.count().total   # x*(x+y)^3*(y+2z)*(-3)
    (0, 8)
    """
    out = Dag(poly.symbols, dict(poly.opaque))
    scalar = split.unit
    node = ONE
    for j, n in sorted(split.monomial.items()):
        node = out.mul(node, out.power(j, n))
    for (factor, power), dag in zip(split.factors, dags):
        c, root = _copy(dag, factor, poly, out)
        scalar *= c ** power
        raised = root
        for bit in bin(power)[3:]:  # repeated squaring, as FORM and the input's own form do
            raised = out.mul(raised, raised)
            if bit == "1":
                raised = out.mul(raised, root)
        node = out.mul(node, raised)
    out.roots = [(int_if_integral(Fraction(scalar)), node)]
    return out


def _copy(dag: Dag, factor: Polynomial, poly: Polynomial, out: Dag) -> tuple:
    """Copy ``dag``'s (one) output into ``out``: its value ``(scalar, node)`` there.

    Columns are renumbered from ``factor``'s to ``poly``'s.  Each node
    becomes a value ``(sign, node)`` of ``out``: a sum's operands are put
    in ``out``'s order, which may flip its sign; the signs travel to the
    users, so no number changes and no operation is added.
    """
    column = [poly.symbols.index(s) for s in factor.symbols]
    value = {ONE: (1, ONE)}
    for node_id, node in dag.walk():
        if isinstance(node, Pow):
            value[node_id] = (1, out.power(column[node.var], node.n))
        elif isinstance(node, Mul):
            (s, a), (t, b) = value[node.a], value[node.b]
            value[node_id] = (s * t, out.mul(a, b))
        elif isinstance(node, Scale):
            s, a = value[node.a]
            t, scaled = out.scale(node.c, a)
            value[node_id] = (s * t, scaled)
        elif isinstance(node, Add):
            (c1, a), (c2, b) = node.operands
            (s, a), (t, b) = value[a], value[b]
            value[node_id] = out.add((c1 * s, a), (c2 * t, b), use_content=False)
    (c, root), = dag.roots
    s, node = value[root]
    return (c * s, node)
