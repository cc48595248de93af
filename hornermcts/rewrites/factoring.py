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
Factoring has bounds, so that it never costs more than a small share of
a run, with or without a time limit.  FLINT's time and memory grow with
``terms * variables**2``, with the cube of the variables and with the
degree: a sum of 800 variables takes 3.7 s and 536 MB, 100 variables and
100,000 terms 32 s and 7.6 GB, and ``x**10000 - y**10000`` (25 factors)
21 s.  So an input above :data:`MAX_COST`, :data:`MAX_VARIABLES` or
:data:`MAX_DEGREE` is not factored, nor is one linear after its monomial
content is taken out (irreducible then, whatever its size: a sum of 5,000
variables).  Below them it runs in a forked child process, stopped after
:data:`FACTOR_SECONDS` (or the share :data:`~hornermcts.deadline.STAGE_SHARES` gives it of the time left to a
``deadline``, if less) and given :data:`FACTOR_MEMORY` bytes more address
space than this process; the input is then optimized whole, as if it did
not factor.  Where there is no fork (Windows) it runs in this process,
under the size bounds alone.  Inputs with inexact (floating-point) coefficients
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

import math
import multiprocessing
import os
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..polynomial.coefficients import int_if_integral, scaled_integers
from ..dag.graph import ONE, Add, Dag, Mul, Pow, Scale
from ..deadline import Deadline, check_hard
from ..polynomial.sparse import Polynomial

__all__ = ["Factorization", "factorization", "product_dag", "FACTOR_SECONDS", "FACTOR_MEMORY",
           "MAX_COST", "MAX_VARIABLES", "MAX_DEGREE"]

#: Factoring is stopped after this many seconds, deadline or not (res(8,6), 114,080 terms, takes 1.2 s).
FACTOR_SECONDS = 10.0

#: Seconds per term that handing a polynomial's terms to FLINT takes before any factoring (exact integers, a
#: dict of exponent tuples; 200,000 terms in 20 variables: 0.47 s at load 2): a bounded deadline whose factoring share
#: is shorter than that skips factoring.
PREPARE_SECONDS_PER_TERM = 2.5e-6
#: The child process that factors may grow by this many bytes of address space; past that FLINT fails there.
FACTOR_MEMORY = 1 << 30
#: Inputs with more than this ``terms * variables**2`` are not factored (measured at the bound, one factor each:
#: 100 variables and 10,000 terms 1.4 s, 190 MB; 40 and 62,500 1.6 s; 10 and 900,000 3.7 s, 577 MB;
#: res(8,6), 114,080 terms in 16 variables, is 2.9e7: 1.2 s).
MAX_COST = 10**8
#: Inputs in more variables are not factored: with few terms FLINT's time grows as their cube (100 terms of
#: degree 3: 0.2 s in 200 variables, 1.0 s in 300, 38 s in 1,000).
MAX_VARIABLES = 300
#: Inputs with a variable's degree above this are not factored (``x**2000 - y**2000``: 0.7 s, 20 factors).
MAX_DEGREE = 2000
#: Inputs of fewer terms and at most this degree in each variable are factored in this process: forking the
#: child that caps the work took 45 ms, most of a small input's call (res(3,2), 13 terms: 0.26 s in all), and
#: FLINT factors such inputs in well under a millisecond (``(x + 1)**16 * (y + 2)**16``-sized inputs: 2 ms).
IN_PROCESS_TERMS, IN_PROCESS_DEGREE = 100, 16


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
    exact (``int`` or ``Fraction``), when the input is above the size
    bounds (:data:`MAX_COST`, :data:`MAX_VARIABLES`, :data:`MAX_DEGREE`),
    and when factoring would take more than :data:`FACTOR_SECONDS`, or
    the share :data:`~hornermcts.deadline.STAGE_SHARES` gives it of the time left to a bounded ``deadline``, or
    :data:`FACTOR_MEMORY` more memory.
    """
    if poly.n_terms < 2:
        return None
    try:
        import flint  # noqa: F401
    except ImportError:
        return None
    seconds = FACTOR_SECONDS
    if deadline is not None and deadline.bounded:
        seconds = min(seconds, deadline.stage_seconds("factoring"))  # a child process, stopped then
        if poly.n_terms * PREPARE_SECONDS_PER_TERM > seconds:  # handing the terms over alone takes longer
            return None
    if not _may_factor(poly.exponents):
        return None
    scaled = scaled_integers(poly.coefficients)
    if scaled is None:  # a coefficient that is not exact
        return None
    scale, integers = scaled
    terms = dict(zip(map(tuple, poly.exponents.tolist()), integers))
    check_hard()
    small = poly.n_terms < IN_PROCESS_TERMS and int(poly.exponents.max()) <= IN_PROCESS_DEGREE
    found = _factor(terms, poly.n_vars) if small else _in_child(terms, poly.n_vars, seconds)
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


def _may_factor(exponents: np.ndarray) -> bool:
    """Whether factoring may find two factors at a bounded cost (:data:`MAX_COST`, :data:`MAX_VARIABLES`,
    :data:`MAX_DEGREE`).

    Not when the terms are linear once their monomial content (each
    column's least exponent) is taken out: that is one factor, and FLINT
    would spend ``variables**3`` on a long sum to find it.
    """
    n_terms, n_vars = exponents.shape
    if not n_vars or n_vars > MAX_VARIABLES or n_terms * n_vars**2 > MAX_COST or exponents.max() > MAX_DEGREE:
        return False
    return int((exponents - exponents.min(axis=0)).sum(axis=1).max()) > 1


def _factor(terms: dict, n_vars: int) -> tuple[Fraction, list]:
    """FLINT's factors of the integer polynomial ``terms``: ``(content, [({exponents: coefficient}, power)])``.

    Each factor comes with coprime integer coefficients.  The polynomial is
    made over the rationals (``fmpq_mpoly``), not the integers: python-flint's
    ``fmpz_mpoly.factor`` sorts the factors by a key that converts
    coefficients to a C ``int``, which raises OverflowError when two factors
    first differ in a coefficient beyond 2**31 (``(x + 2**31)*(x + 1)``);
    the rational key compares the numbers themselves.
    """
    import flint

    ctx = flint.fmpq_mpoly_ctx.get(("x", n_vars), "lex")
    content, parts = ctx.from_dict(terms).factor()
    content = Fraction(int(content.p), int(content.q))
    found = []
    for f, e in parts:
        values = {tuple(map(int, k)): Fraction(int(v.p), int(v.q)) for k, v in f.to_dict().items()}
        lcm = math.lcm(*(v.denominator for v in values.values()))
        unit = Fraction(lcm, math.gcd(*(int(v * lcm) for v in values.values())))  # primitive over the integers
        found.append(({k: int(v * unit) for k, v in values.items()}, int(e)))
        content /= unit ** int(e)
    return content, found


def _in_child(terms: dict, n_vars: int, seconds: float) -> tuple[Fraction, list] | None:
    """:func:`_factor` in a forked child stopped after ``seconds`` or at :data:`FACTOR_MEMORY` more (None then).

    None too if it fails; here, without those caps, where there is no fork.
    """
    if "fork" not in multiprocessing.get_all_start_methods():
        return _factor(terms, n_vars)
    receive, send = multiprocessing.get_context("fork").Pipe(duplex=False)
    pid = os.fork()
    if pid == 0:  # the child: factor, send, leave without running the parent's clean-up
        code = 0
        try:
            _quiet_and_capped()
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


def _quiet_and_capped() -> None:
    """In the child: address space capped at :data:`FACTOR_MEMORY` more than now, no core file, output silent.

    FLINT aborts when an allocation fails (its message, on standard output,
    where it would break ``--json``, and a core dump would reach the user);
    the parent then reads that the child died.
    """
    import faulthandler
    import resource

    faulthandler.disable()  # it writes to a copy of stderr it keeps (pytest's does)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # the answer goes through the pipe
    os.dup2(devnull, 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    try:
        with open("/proc/self/statm") as fh:
            size = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:  # no /proc (macOS, where the address-space limit is not enforced anyway)
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = size + FACTOR_MEMORY
    if hard == resource.RLIM_INFINITY or limit < hard:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


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
    >>> from hornermcts.dag.horner import horner_dag
    >>> x, y, z = sympy.symbols("x y z")
    >>> poly = from_sympy(sympy.expand(-3*x*(x + y)**3*(y + 2*z)))
    >>> split = factorization(poly)
    >>> dag = product_dag(poly, split, [horner_dag(f, list(range(f.n_vars))) for f, _ in split.factors])
    >>> from hornermcts.dag.views import to_expressions
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
