"""Benchmark polynomial families: resultants, determinants, random and structured
polynomials, and the shipped HEP(sigma) expression.

Every generator builds the :class:`~hornermcts.polynomial.Polynomial` straight
from exponent arrays (no SymPy expression is built on the way), is exact and is
deterministic: the same arguments (and ``seed``) give the same polynomial, terms
in the same order.

* :func:`resultant` -- ``res_x(sum a_i x^i, sum b_i x^i)``, the Sylvester
  determinant; ``res(7,5)`` and ``res(7,6)`` are the HEPGAME benchmarks.
* :func:`determinant` -- the determinant of a generic ``n x n`` matrix.
* :func:`random_polynomial` -- unstructured random sparse polynomials.
* :func:`structured_random` -- random sums of products of shared building
  blocks, expanded: polynomials with good Horner orders and common
  subexpressions to find.
* :func:`complete_symmetric` -- ``h_k(x_0..x_{n-1})``, every monomial of
  degree ``k``: a symmetric family.
* :func:`hep_sigma` -- the HEP(sigma) Feynman-diagram expression.
* :func:`renamed` -- a polynomial with its variables renamed and its terms
  shuffled (the same polynomial written another way).
* :func:`gradient` -- the partial derivatives of a polynomial: a multi-output
  input.
* :func:`pendulum_equations` -- the mass matrix and forcing of an ``n``-link
  planar pendulum from :mod:`sympy.physics.mechanics`, ``sin``/``cos`` kept
  opaque: a multi-output input with non-polynomial pieces.
* :func:`load` / :func:`available` -- the benchmarks by name.

Examples
--------
>>> from hornermcts.cost.counting import original_count
>>> p = resultant(7, 5)
>>> p.n_terms, original_count(p).total
(11380, 142711)
>>> load("det(4)").n_terms
24
"""
from __future__ import annotations

from ..errors import OptionError

import itertools
import math
import re
from fractions import Fraction
from importlib import resources

import numpy as np
import sympy

from hornermcts.parse import read_file
from hornermcts.polynomial import Polynomial

__all__ = [
    "resultant",
    "determinant",
    "random_polynomial",
    "structured_random",
    "complete_symmetric",
    "hep_sigma",
    "renamed",
    "gradient",
    "pendulum_equations",
    "load",
    "available",
]


# ----------------------------------------------------------------- helpers
# Monomials are packed into one Python int, ``bits`` bits per variable
# (variable j in bits [j*bits, (j+1)*bits)), so a product of monomials is an
# integer addition; callers choose ``bits`` so that no exponent can overflow.

def _unpack(keys, n_vars: int, bits: int) -> np.ndarray:
    """Exponent matrix (len(keys) x n_vars) of packed monomials."""
    if n_vars == 0:
        return np.zeros((len(keys), 0), dtype=np.int64)
    mask = (1 << bits) - 1
    if n_vars * bits <= 62:
        arr = np.fromiter(keys, dtype=np.int64, count=len(keys))
        shifts = np.arange(n_vars, dtype=np.int64) * bits
    else:  # wide monomials: exact Python ints in an object array
        arr = np.empty(len(keys), dtype=object)
        arr[:] = list(keys)
        shifts = np.array([j * bits for j in range(n_vars)], dtype=object)
    return ((arr[:, None] >> shifts[None, :]) & mask).astype(np.int64)


def _to_polynomial(symbols, terms: dict, bits: int) -> Polynomial:
    """Polynomial from ``{packed monomial: coefficient}``, terms sorted
    lexicographically (first variable most significant, highest first)."""
    terms = {k: c for k, c in terms.items() if c}
    keys = list(terms)
    exps = _unpack(keys, len(symbols), bits)
    if len(keys) > 1 and exps.shape[1]:
        order = np.lexsort(exps.T[::-1])[::-1]
    else:
        order = np.arange(len(keys))
    return Polynomial(symbols, exps[order], [terms[keys[i]] for i in order])


def _mul(p: dict, q: dict) -> dict:
    """Product of two packed polynomials."""
    out: dict = {}
    get = out.get
    for kq, cq in q.items():
        for kp, cp in p.items():
            k = kp + kq
            out[k] = get(k, 0) + cp * cq
    return {k: c for k, c in out.items() if c}


def _add_into(total: dict, p: dict, scale=1) -> None:
    get = total.get
    for k, c in p.items():
        v = get(k, 0) + scale * c
        if v:
            total[k] = v
        else:
            total.pop(k, None)


# --------------------------------------------------------------- resultant
def _row_minors(rows: list[dict[int, int]], bits: int) -> dict[int, dict]:
    """Minors of the top rows on every column subset, by row-by-row expansion.

    ``rows[r]`` maps column -> variable index (the entry is that variable).
    Returns ``{column bitmask: {packed monomial: coefficient}}`` for the
    full set of rows (bitmasks with ``len(rows)`` bits), zero minors omitted.
    Adding row r at column j to a minor on ``mask`` expands the new minor
    along its last row: the sign is (-1)^(number of columns of mask right of j).
    """
    level: dict[int, dict] = {0: {0: 1}}
    for row in rows:
        nxt: dict[int, dict] = {}
        for mask, minor in level.items():
            for col, var in row.items():
                bit = 1 << col
                if mask & bit:
                    continue
                sign = -1 if bin(mask >> (col + 1)).count("1") & 1 else 1
                inc = 1 << (var * bits)
                target = nxt.get(mask | bit)
                if target is None:
                    target = nxt[mask | bit] = {}
                get = target.get
                for k, c in minor.items():
                    k += inc
                    target[k] = get(k, 0) + sign * c
        level = {}
        for mask, minor in nxt.items():
            minor = {k: c for k, c in minor.items() if c}
            if minor:
                level[mask] = minor
    return level


def resultant(m: int, n: int) -> Polynomial:
    """Resultant ``res_x(f, g)`` of two generic univariate polynomials.

    ``f = a0 + a1 x + ... + am x^m`` and ``g = b0 + b1 x + ... + bn x^n`` with
    symbolic coefficients; the result is the determinant of their
    ``(m+n) x (m+n)`` Sylvester matrix (n shifted rows of f's coefficients,
    leading one first, then m shifted rows of g's), so that
    ``res(f, g) = a_m^n * prod g(roots of f)``.  :func:`sympy.resultant`
    agrees except for the sign when ``m < n`` and both are odd (a SymPy bug,
    sympy/sympy#10666, present in 1.14).

    Parameters
    ----------
    m, n : int
        Degrees of ``f`` and ``g`` (non-negative).

    Returns
    -------
    Polynomial
        In the variables ``a0, ..., am, b0, ..., bn`` (in that order), terms in
        lexicographic order.

    Notes
    -----
    Every Sylvester entry is a single symbol or 0, so the determinant is
    computed exactly without expression swell by the generalised Laplace
    expansion along the first n rows: the minors of the a-rows and of the
    b-rows are built for every column subset by row-by-row expansion (each
    minor reused by all larger ones), then
    ``det = sum_S sign(S) * minor_a(S) * minor_b(complement of S)``.
    Monomials are packed integers, so this takes about 0.1 s for ``res(7,5)``
    (11380 terms) and under a second for ``res(7,6)`` (43166 terms), most of
    it in building the :class:`Polynomial`.

    Examples
    --------
    >>> p = resultant(1, 1)
    >>> p.symbols
    (a0, a1, b0, b1)
    >>> p.to_sympy()
    -a0*b1 + a1*b0
    >>> resultant(2, 1).to_sympy()
    a0*b1**2 - a1*b0*b1 + a2*b0**2
    >>> resultant(7, 6).n_terms
    43166
    """
    m, n = int(m), int(n)
    if m < 0 or n < 0:
        raise OptionError(f"degrees must be non-negative, got m={m}, n={n}")
    symbols = tuple(sympy.Symbol(f"a{i}") for i in range(m + 1)) + tuple(
        sympy.Symbol(f"b{i}") for i in range(n + 1)
    )
    # a_i occurs n times in the matrix, b_i m times: exponents never exceed these
    bits = max(m, n, 1).bit_length()
    size = m + n
    # a-row i holds a_m, ..., a_0 in columns i..i+m; b-row j holds b_n..b_0
    a_rows = [{i + k: m - k for k in range(m + 1)} for i in range(n)]
    b_rows = [{j + k: (m + 1) + (n - k) for k in range(n + 1)} for j in range(m)]
    a_minors = _row_minors(a_rows, bits)
    b_minors = _row_minors(b_rows, bits)
    full = (1 << size) - 1
    # sign of the Laplace term: (-1)^(sum of the a-row indices + sum of columns in S)
    row_parity = n * (n - 1) // 2
    total: dict = {}
    get = total.get
    for cols, minor_a in a_minors.items():
        minor_b = b_minors.get(full ^ cols)
        if minor_b is None:
            continue
        col_sum = sum(j for j in range(size) if cols >> j & 1)
        sign = -1 if (row_parity + col_sum) & 1 else 1
        for kb, cb in minor_b.items():
            cb *= sign
            for ka, ca in minor_a.items():
                k = ka + kb
                total[k] = get(k, 0) + ca * cb
    return _to_polynomial(symbols, total, bits)


# ------------------------------------------------------------- determinant
def determinant(n: int) -> Polynomial:
    """Determinant of the generic ``n x n`` matrix ``(m_i_j)``.

    Parameters
    ----------
    n : int
        Matrix size, at least 1.

    Returns
    -------
    Polynomial
        ``n!`` terms with coefficients +-1 in the ``n^2`` variables
        ``m_0_0, m_0_1, ..., m_{n-1}_{n-1}`` (row-major, 0-based), one term per
        permutation (Leibniz formula), permutations in lexicographic order.
        FORM cannot read names with underscores: :func:`hornermcts.polynomial.text.write_text`
        renames them (``m_0_0`` becomes ``m00``) when writing FORM syntax.

    Examples
    --------
    >>> determinant(2).to_sympy()
    m_0_0*m_1_1 - m_0_1*m_1_0
    >>> [determinant(k).n_terms for k in (4, 5, 6)]
    [24, 120, 720]
    """
    n = int(n)
    if n < 1:
        raise OptionError(f"the matrix size must be at least 1, got {n}")
    symbols = tuple(sympy.Symbol(f"m_{i}_{j}") for i in range(n) for j in range(n))
    perms = np.array(list(itertools.permutations(range(n))), dtype=np.int64)
    inversions = np.zeros(len(perms), dtype=np.int64)
    for i in range(n):
        for j in range(i + 1, n):
            inversions += perms[:, i] > perms[:, j]
    exps = np.zeros((len(perms), n * n), dtype=np.int64)
    rows = np.arange(len(perms))
    for i in range(n):
        exps[rows, i * n + perms[:, i]] = 1
    signs = np.where(inversions & 1, -1, 1)
    return Polynomial(symbols, exps, signs.tolist())


# ------------------------------------------------------ random polynomials
_COEFFICIENT_KINDS = ("one", "sign", "integer", "rational")


def _random_coefficients(rng: np.random.Generator, count: int, kind: str) -> list:
    if kind == "one":
        return [1] * count
    signs = rng.choice(np.array([-1, 1]), size=count)
    if kind == "sign":
        return signs.tolist()
    if kind == "integer":
        return (signs * rng.integers(1, 10, size=count)).tolist()
    if kind == "rational":
        num = signs * rng.integers(1, 10, size=count)
        den = rng.integers(1, 10, size=count)
        return [Fraction(int(p), int(q)) for p, q in zip(num, den)]
    raise OptionError(f"coefficients must be one of {_COEFFICIENT_KINDS}, got {kind!r}")


def _variables(n_vars: int) -> tuple[sympy.Symbol, ...]:
    return tuple(sympy.Symbol(f"x{i}") for i in range(n_vars))


def _all_monomials(n_vars: int, max_degree: int) -> np.ndarray:
    """Every exponent vector of total degree <= max_degree, by degree."""
    rows = []
    for d in range(max_degree + 1):
        for combo in itertools.combinations_with_replacement(range(n_vars), d):
            rows.append(np.bincount(np.array(combo, dtype=np.int64), minlength=n_vars))
    return np.array(rows, dtype=np.int64).reshape(len(rows), n_vars)


def random_polynomial(
    n_vars: int,
    n_terms: int,
    *,
    max_degree: int = 4,
    seed=None,
    coefficients: str = "integer",
) -> Polynomial:
    """A random sparse polynomial without deliberate structure.

    Each term has a total degree drawn uniformly from ``0..max_degree`` and
    that many variables drawn uniformly with replacement (so ``x3^2*x7`` is a
    degree-3 term); repeated monomials are redrawn, so the result has exactly
    ``n_terms`` distinct terms.

    Parameters
    ----------
    n_vars : int
        Number of variables ``x0, x1, ...`` (at least 1).
    n_terms : int
        Number of terms; at most the number of monomials of degree
        ``<= max_degree``.
    max_degree : int, default 4
        Largest total degree of a term.
    seed : int, numpy.random.Generator or None
        Seed for :func:`numpy.random.default_rng`; the same seed gives the
        same polynomial.
    coefficients : {"integer", "sign", "one", "rational"}
        Nonzero integers in ``[-9, 9]``, ``+-1``, all 1, or fractions ``p/q``
        with ``1 <= |p|, q <= 9``.

    Returns
    -------
    Polynomial

    Examples
    --------
    >>> p = random_polynomial(5, 20, max_degree=3, seed=1)
    >>> p.n_terms, p.n_vars, int(p.exponents.sum(axis=1).max()) <= 3
    (20, 5, True)
    >>> p == random_polynomial(5, 20, max_degree=3, seed=1)
    True
    """
    n_vars, n_terms, max_degree = int(n_vars), int(n_terms), int(max_degree)
    if n_vars < 1 or n_terms < 0 or max_degree < 0:
        raise OptionError("need n_vars >= 1, n_terms >= 0 and max_degree >= 0")
    if coefficients not in _COEFFICIENT_KINDS:
        raise OptionError(
            f"coefficients must be one of {_COEFFICIENT_KINDS}, got {coefficients!r}"
        )
    space = math.comb(n_vars + max_degree, max_degree)
    if n_terms > space:
        raise OptionError(
            f"only {space} monomials of degree <= {max_degree} in {n_vars} variables, "
            f"cannot make {n_terms} distinct terms"
        )
    rng = np.random.default_rng(seed)
    if 2 * n_terms > space:
        # dense request: sample without replacement (rejection would crawl)
        pool = _all_monomials(n_vars, max_degree)
        exps = pool[np.sort(rng.choice(len(pool), size=n_terms, replace=False))]
    else:
        seen: set[bytes] = set()
        chosen: list[np.ndarray] = []
        while len(chosen) < n_terms:
            batch = 2 * (n_terms - len(chosen)) + 16
            degrees = rng.integers(0, max_degree + 1, size=batch)
            picks = rng.integers(0, n_vars, size=(batch, max(max_degree, 1)))
            block = np.zeros((batch, n_vars), dtype=np.int64)
            for slot in range(max_degree):
                live = degrees > slot
                np.add.at(block, (np.nonzero(live)[0], picks[live, slot]), 1)
            for row in block:
                key = row.tobytes()
                if key not in seen:
                    seen.add(key)
                    chosen.append(row)
                    if len(chosen) == n_terms:
                        break
        exps = np.array(chosen, dtype=np.int64).reshape(n_terms, n_vars)
    return Polynomial(_variables(n_vars), exps, _random_coefficients(rng, n_terms, coefficients))


def _structured_parts(
    n_vars: int,
    n_terms: int,
    *,
    seed=None,
    n_factors: int | None = None,
    factor_vars: tuple[int, int] = (2, 5),
    factor_terms: tuple[int, int] = (2, 4),
    product_size: tuple[int, int] = (2, 4),
    coefficients: str = "sign",
):
    """The unexpanded form behind :func:`structured_random`.

    Returns ``(symbols, factors, products, bits, total)``: ``factors`` a list
    of packed polynomials, ``products`` a list of ``(coefficient, hub
    monomial (packed), factor indices)``, ``total`` the packed expansion of
    ``sum coefficient * hub * prod factors``.
    """
    n_vars, n_terms = int(n_vars), int(n_terms)
    lo_v, hi_v = factor_vars
    lo_t, hi_t = factor_terms
    lo_p, hi_p = product_size
    if n_vars < 2 or n_terms < 1:
        raise OptionError("need n_vars >= 2 and n_terms >= 1")
    if not (1 <= lo_v <= hi_v and 1 <= lo_t <= hi_t and 1 <= lo_p <= hi_p):
        raise OptionError("factor_vars, factor_terms, product_size must be ranges (lo, hi), 1 <= lo <= hi")
    if coefficients not in _COEFFICIENT_KINDS:
        raise OptionError(
            f"coefficients must be one of {_COEFFICIENT_KINDS}, got {coefficients!r}"
        )
    rng = np.random.default_rng(seed)
    if n_factors is None:
        n_factors = max(3, n_vars // 2)
    n_factors = int(n_factors)
    # popularity: a few hub variables (couplings, masses) in most factors, a long tail
    popularity = 1.0 / (1.0 + rng.permutation(n_vars)) ** 1.2
    hubs = np.argsort(-popularity, kind="stable")[: max(1, n_vars // 8)]
    # every variable lands in some factor: deal them out first, then add popular ones
    dealt = rng.permutation(n_vars)
    members = [set() for _ in range(n_factors)]
    for pos, v in enumerate(dealt):
        members[pos % n_factors].add(int(v))
    # a factor's terms have degree <= 2 in each variable, the hub prefactor too
    bits = (2 * hi_p + 2).bit_length()
    factors: list[dict] = []
    for f in range(n_factors):
        want = int(rng.integers(lo_v, hi_v + 1))
        while len(members[f]) < min(want, n_vars):
            members[f].add(int(rng.choice(n_vars, p=popularity / popularity.sum())))
        vs = np.array(sorted(members[f]), dtype=np.int64)
        n_t = int(rng.integers(lo_t, hi_t + 1))
        poly: dict = {}
        tries = 0
        while len(poly) < n_t and tries < 50 * n_t:
            tries += 1
            deg = int(rng.integers(1, 3))
            key = 0
            for v in rng.choice(vs, size=deg):
                key += 1 << (int(v) * bits)
            if key not in poly:
                poly[key] = int(rng.choice([-2, -1, -1, 1, 1, 2]))
        # every member variable occurs in the factor
        missing = [int(v) for v in vs if not any((k >> (int(v) * bits)) & ((1 << bits) - 1) for k in poly)]
        for v in missing:
            poly[1 << (v * bits)] = poly.get(1 << (v * bits), 0) + 1
        if rng.random() < 0.3:  # a constant, like p^2 - m^2 with numeric parts
            poly[0] = int(rng.choice([-1, 1]))
        factors.append({k: c for k, c in poly.items() if c})
    products = []
    total: dict = {}
    unused = list(rng.permutation(n_factors))
    limit = 20 * n_terms + 100
    while (len(total) < n_terms or unused) and len(products) < limit:
        # products that bring in a factor for the first time are kept small,
        # so that using every factor does not overshoot small sizes by much
        size = lo_p if unused else int(rng.integers(lo_p, hi_p + 1))
        picks = [int(x) for x in rng.integers(0, n_factors, size=size)]
        if unused:
            picks[0] = int(unused.pop())
        hub = 0
        if rng.random() < 0.5:
            for v in rng.choice(hubs, size=int(rng.integers(1, 3))):
                hub += 1 << (int(v) * bits)
        coef = _random_coefficients(rng, 1, coefficients)[0]
        term = {hub: 1}
        for f in picks:
            term = _mul(term, factors[f])
        _add_into(total, term, coef)
        products.append((coef, hub, tuple(picks)))
    return _variables(n_vars), factors, products, bits, total


def structured_random(
    n_vars: int,
    n_terms: int,
    *,
    seed=None,
    n_factors: int | None = None,
    factor_vars: tuple[int, int] = (2, 5),
    factor_terms: tuple[int, int] = (2, 4),
    product_size: tuple[int, int] = (2, 4),
    coefficients: str = "sign",
) -> Polynomial:
    """A random polynomial with shared structure: a sum of products of a few
    recurring sparse factors, multiplied out.

    What it models: expressions from perturbative calculations (like
    HEP(sigma)) are sums of products of a small set of recurring building
    blocks -- propagator numerators, kinematic invariants, mass combinations --
    multiplied out.  The blocks share variables and a few *hub* variables
    (couplings, masses) occur in most of them, so the expansion has good Horner
    orders (hubs and shared variables outermost), and common subexpressions
    (the blocks and their partial products) for CSE to find, while a random
    order or no CSE does poorly.

    Construction, all drawn from one ``numpy`` Generator: ``n_factors`` factor
    polynomials, each in 2-5 variables (every variable is dealt to some factor,
    the rest are drawn by a skewed popularity), with 2-4 terms of degree 1-2,
    small integer coefficients and sometimes a constant; then products of 2-4
    factors (repeats allowed, so powers occur), each times a random
    coefficient and, half the time, a monomial in the hub variables, are added
    until the expanded sum has at least ``n_terms`` terms and every factor has
    been used.

    Parameters
    ----------
    n_vars : int
        Number of variables ``x0, x1, ...``; meant for 15-50, at least 2.
    n_terms : int
        Rough size: the result has at least this many terms and overshoots by
        at most one product's expansion (a few hundred terms), or is larger
        when using every factor once already needs more.  It falls short only
        if the variables cannot support that many terms (after
        ``20 * n_terms + 100`` products the sum is returned as it is).
    seed : int, numpy.random.Generator or None
        The same seed gives the same polynomial.
    n_factors : int, optional
        Number of building blocks, default ``max(3, n_vars // 2)``.
    factor_vars, factor_terms, product_size : (int, int)
        Inclusive ranges: variables per factor, terms per factor, factors per
        product.
    coefficients : {"sign", "one", "integer", "rational"}
        Kind of the coefficient of each product (see
        :func:`random_polynomial`); the factors' own coefficients are in
        ``{-2, -1, 1, 2}``.

    Returns
    -------
    Polynomial
        Terms in lexicographic order.

    Examples
    --------
    >>> p = structured_random(30, 3000, seed=0)
    >>> p.n_vars, 3000 <= p.n_terms < 3500
    (30, True)
    >>> bool((p.exponents > 0).any(axis=0).all())  # every variable occurs
    True
    >>> p == structured_random(30, 3000, seed=0)
    True
    """
    symbols, _, _, bits, total = _structured_parts(
        n_vars,
        n_terms,
        seed=seed,
        n_factors=n_factors,
        factor_vars=factor_vars,
        factor_terms=factor_terms,
        product_size=product_size,
        coefficients=coefficients,
    )
    return _to_polynomial(symbols, total, bits)


# --------------------------------------------- symmetric, rewritten, derived
def complete_symmetric(n_vars: int, degree: int) -> Polynomial:
    """The complete homogeneous symmetric polynomial ``h_k``: every monomial of degree ``k``, coefficient 1.

    ``C(n + k - 1, k)`` terms in ``x0 .. x{n-1}``; its best Horner forms
    cost about ``2 n k`` operations (``h_k(x_i..) = x_i h_{k-1}(x_i..) +
    h_k(x_{i+1}..)``, shared).

    >>> p = complete_symmetric(3, 2)
    >>> p.n_terms, p.to_sympy()
    (6, x0**2 + x0*x1 + x0*x2 + x1**2 + x1*x2 + x2**2)
    """
    n_vars, degree = int(n_vars), int(degree)
    if n_vars < 1 or degree < 0:
        raise OptionError(f"complete_symmetric needs n_vars >= 1 and degree >= 0, got {n_vars}, {degree}")
    rows = [np.bincount(np.array(c, dtype=np.int64), minlength=n_vars)
            for c in itertools.combinations_with_replacement(range(n_vars), degree)]
    exps = np.array(rows, dtype=np.int64).reshape(len(rows), n_vars)
    return Polynomial(_variables(n_vars), exps, [1] * len(rows))


def renamed(poly: Polynomial, seed: int) -> Polynomial:
    """``poly`` written another way: variables renamed ``v0, v1, ...`` in a random order, terms shuffled.

    The same polynomial up to the names; a result that changes with
    ``seed`` depends on how the input is written.

    >>> p = renamed(determinant(2), seed=1)
    >>> sorted(map(str, p.symbols)), p.n_terms
    (['v0', 'v1', 'v2', 'v3'], 2)
    """
    if poly.opaque:
        raise OptionError("renamed: a polynomial with opaque pieces is renamed through its SymPy form")
    rng = np.random.default_rng(seed)
    names = sympy.symbols(f"v0:{poly.n_vars}")
    symbols = tuple(names[k] for k in rng.permutation(poly.n_vars))
    rows = rng.permutation(poly.n_terms)
    return Polynomial(symbols, poly.exponents[rows], [poly.coefficients[i] for i in rows])


def _sparse_determinant(entries: list, symbols: tuple) -> Polynomial:
    """The determinant of a matrix whose entries are 0, 1 or one of ``symbols`` (its index), exactly.

    Expansion along the rows, one column subset at a time (``2^n`` subsets,
    each entry a monomial, so each step shifts exponents): fast for the
    sparse and bordered matrices below, where most of the ``n!`` Leibniz
    terms vanish or coincide.
    """
    n = len(entries)
    width = len(symbols)
    minors: dict = {0: {(0,) * width: 1}}  # column subset (bitmask) -> polynomial {exponents: coefficient}
    for row in range(n):
        following: dict = {}
        for subset, poly in minors.items():
            for col in range(n):
                entry = entries[row][col]
                if subset >> col & 1 or entry == 0:
                    continue
                sign = -1 if bin(subset >> col).count("1") % 2 else 1  # columns of the subset after col
                target = following.setdefault(subset | 1 << col, {})
                for exps, c in poly.items():
                    if entry != 1:
                        exps = exps[:entry - 2] + (exps[entry - 2] + 1,) + exps[entry - 1:]
                    total = target.get(exps, 0) + sign * c
                    if total:
                        target[exps] = total
                    else:
                        del target[exps]
        minors = following
    result = minors.get((1 << n) - 1, {})
    keys = sorted(result, reverse=True)
    return Polynomial(symbols, np.array(keys, dtype=np.int64).reshape(len(keys), width),
                      [result[k] for k in keys])


def cayley_menger(points: int) -> Polynomial:
    """The Cayley-Menger determinant of ``points`` points, in their squared distances ``d_i_j`` (``i < j``).

    The bordered ``(points + 1) x (points + 1)`` matrix ``[[0, 1, ..., 1],
    [1, 0, d_1_2, ...], ...]`` of distance geometry: up to a factor it is
    the squared volume of the simplex the points span (zero when they lie
    in a space of fewer dimensions).

    >>> cayley_menger(3).to_sympy()   # -16 x (the triangle's area)^2: Heron's formula in the squared sides
    d_1_2**2 - 2*d_1_2*d_1_3 - 2*d_1_2*d_2_3 + d_1_3**2 - 2*d_1_3*d_2_3 + d_2_3**2
    >>> [cayley_menger(k).n_terms for k in (4, 5, 6, 7)]
    [22, 130, 822, 6202]
    """
    points = int(points)
    if points < 2:
        raise OptionError(f"a Cayley-Menger determinant needs at least 2 points, got {points}")
    pairs = [(i, j) for i in range(1, points + 1) for j in range(i + 1, points + 1)]
    symbols = tuple(sympy.Symbol(f"d_{i}_{j}") for i, j in pairs)
    index = {pair: k + 2 for k, pair in enumerate(pairs)}  # entry codes: 0, 1, or 2 + the symbol's index
    entries = [[0] + [1] * points]
    for i in range(1, points + 1):
        entries.append([1] + [0 if i == j else index[(min(i, j), max(i, j))] for j in range(1, points + 1)])
    return _sparse_determinant(entries, symbols)


def sparse_determinant(n: int, per_row: int, seed: int = 0) -> Polynomial:
    """The determinant of an ``n x n`` sparse symbolic matrix, in the style of the Lewis-Wester benchmarks.

    Each row holds its diagonal entry and ``per_row - 1`` other entries in
    random columns (``seed``), every nonzero entry a symbol of its own
    ``m_i_j``; the others are zero.  Its expansion has far fewer than ``n!``
    terms, with the structure of the matrix's sparsity pattern.

    >>> sparse_determinant(3, 1).to_sympy()   # diagonal
    m_0_0*m_1_1*m_2_2
    """
    n, per_row = int(n), int(per_row)
    if n < 1 or not 1 <= per_row <= n:
        raise OptionError(f"a sparse determinant needs n >= 1 and 1 <= per_row <= n, got n={n}, per_row={per_row}")
    rng = np.random.default_rng(seed)
    nonzero = []
    for i in range(n):
        others = [j for j in range(n) if j != i]
        chosen = sorted({i, *(int(j) for j in rng.choice(others, per_row - 1, replace=False))})
        nonzero += [(i, j) for j in chosen]
    symbols = tuple(sympy.Symbol(f"m_{i}_{j}") for i, j in nonzero)
    index = {pair: k + 2 for k, pair in enumerate(nonzero)}
    entries = [[index.get((i, j), 0) for j in range(n)] for i in range(n)]
    return _sparse_determinant(entries, symbols)


def gradient(poly: Polynomial) -> list[Polynomial]:
    """The partial derivatives of ``poly``, one per variable (a multi-output input, exact).

    >>> [g.to_sympy() for g in gradient(determinant(2))]
    [m_1_1, -m_1_0, -m_0_1, m_0_0]
    """
    if poly.opaque:
        raise OptionError("gradient: differentiate a polynomial with opaque pieces through its SymPy form")
    out = []
    for j in range(poly.n_vars):
        rows = np.nonzero(poly.exponents[:, j])[0]
        exps = poly.exponents[rows].copy()
        factors = exps[:, j].tolist()
        exps[:, j] -= 1
        out.append(Polynomial(poly.symbols, exps, [poly.coefficients[i] * f for i, f in zip(rows, factors)]))
    return out


def pendulum_equations(n_links: int) -> list:
    """Kane's equations of an ``n``-link planar pendulum: the mass matrix entries, then the forcing terms.

    Link ``i`` (mass ``m_i`` at its tip, length ``l_i``) turns by ``q_i``
    relative to link ``i - 1``, with speed ``u_i``; gravity ``g``.  Built by
    :class:`sympy.physics.mechanics.KanesMethod`, with ``q_i(t)``,
    ``u_i(t)`` replaced by plain symbols and the sines and cosines of the
    sums of angles expanded into products of ``sin(q_i)`` and ``cos(q_i)``,
    which :func:`hornermcts.optimize` keeps opaque.  ``n_links**2 + n_links``
    SymPy expressions (5 links: 30 outputs, 1,385 terms).
    """
    from sympy.physics import mechanics as me

    n = int(n_links)
    if n < 1:
        raise OptionError(f"pendulum_equations needs at least one link, got {n}")
    q, u = me.dynamicsymbols(f"q:{n}"), me.dynamicsymbols(f"u:{n}")
    m, lengths, g = sympy.symbols(f"m:{n}"), sympy.symbols(f"l:{n}"), sympy.Symbol("g")
    inertial = me.ReferenceFrame("N")
    point = me.Point("O")
    point.set_vel(inertial, 0)
    frame, particles, loads, kinematics = inertial, [], [], []
    for i in range(n):
        link = frame.orientnew(f"A{i}", "Axis", [q[i], frame.z])
        link.set_ang_vel(frame, u[i] * frame.z)
        tip = point.locatenew(f"P{i}", lengths[i] * link.x)
        tip.v2pt_theory(point, inertial, link)
        particles.append(me.Particle(f"mass{i}", tip, m[i]))
        loads.append((tip, -m[i] * g * inertial.y))
        kinematics.append(q[i].diff() - u[i])
        frame, point = link, tip
    kane = me.KanesMethod(inertial, q_ind=q, u_ind=u, kd_eqs=kinematics)
    kane.kanes_equations(particles, loads)
    plain = {**{qi: sympy.Symbol(f"q{i}") for i, qi in enumerate(q)},
             **{ui: sympy.Symbol(f"u{i}") for i, ui in enumerate(u)}}
    return [sympy.expand(sympy.expand_trig(e.subs(plain))) for e in [*kane.mass_matrix, *kane.forcing]]


# ------------------------------------------------------------ HEP(sigma)
def _data_file(name: str):
    return resources.files("hornermcts").joinpath("data", name)


def hep_sigma() -> Polynomial:
    """The HEP(sigma) expression of the HEPGAME papers.

    A Feynman-diagram expression shipped as ``hornermcts/data/hep_sigma.txt``
    (FORM syntax, one term per line, read by
    :func:`hornermcts.parse.read_file`): 5717 terms in 15 variables, 47424
    operations unoptimized in FORM's model.  Variables in order of first
    appearance in the file (``amel2, zk, xcp3, ...``).

    Examples
    --------
    >>> from hornermcts.cost.counting import original_count
    >>> p = hep_sigma()
    >>> p.n_terms, p.n_vars, original_count(p).total
    (5717, 15, 47424)
    """
    resource = _data_file("hep_sigma.txt")
    with resources.as_file(resource) as path:
        return read_file(path)


# ----------------------------------------------------------------- by name
_BENCHMARKS = ("hep_sigma", "res(7,5)", "res(7,6)", "det(4)", "det(5)", "det(6)", "det(7)", "structured(30,6000,1)")
_RES = re.compile(r"res(?:\((\d+),(\d+)\)|_(\d+)_(\d+)|(\d)(\d))")
_DET = re.compile(r"det(?:\((\d+)\)|_?(\d+))")
_STRUCTURED = re.compile(r"structured\((\d+),(\d+)(?:,(\d+))?\)")
_RANDOM = re.compile(r"random\((\d+),(\d+),(\d+)(?:,(\d+))?\)")
_SYMMETRIC = re.compile(r"symmetric\((\d+),(\d+)\)")
_RENAMED = re.compile(r"renamed\((.+),(\d+)\)")


def available() -> list[str]:
    """Names of the benchmark expressions :func:`load` knows.

    ``load`` also accepts any ``res(m,n)``, ``det(n)``,
    ``structured(n_vars,n_terms,seed)``, ``random(n_vars,n_terms,max_degree,seed)``,
    ``symmetric(n_vars,degree)`` and ``renamed(NAME,seed)``, and the aliases
    ``res75``/``res_7_5`` (``resMN`` for one-digit degrees), ``det6``/``det_6``.

    >>> available()
    ['hep_sigma', 'res(7,5)', 'res(7,6)', 'det(4)', 'det(5)', 'det(6)', 'det(7)', 'structured(30,6000,1)']
    """
    return list(_BENCHMARKS)


def load(name: str) -> Polynomial:
    """A benchmark expression by name.

    Parameters
    ----------
    name : str
        ``"hep_sigma"``, ``"res(m,n)"`` (also ``"res_m_n"`` and, for one-digit
        degrees, ``"resmn"`` such as ``"res75"``), ``"det(n)"`` (also
        ``"det_n"``, ``"detn"``), ``"structured(n_vars,n_terms,seed)"``
        (:func:`structured_random`, seed 0 if left out),
        ``"random(n_vars,n_terms,max_degree,seed)"`` (:func:`random_polynomial`,
        integer coefficients, seed 0 if left out), ``"symmetric(n_vars,degree)"``
        (:func:`complete_symmetric`) or ``"renamed(NAME,seed)"`` (:func:`renamed`
        applied to ``load(NAME)``); case and spaces are ignored.

    Raises
    ------
    ValueError
        For an unknown name; the message lists the valid ones.

    Examples
    --------
    >>> load("res75").n_terms
    11380
    >>> load("det(5)").n_vars
    25
    >>> load("renamed(det(5),3)").n_terms, load("random(6,40,3,1)").n_terms, load("symmetric(10,5)").n_terms
    (120, 40, 2002)
    >>> load("res(8,8)x")
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: unknown expression 'res(8,8)x'; valid names: hep_sigma, res(7,5), ...
    """
    key = re.sub(r"\s+", "", str(name)).lower()
    if key in ("hep_sigma", "hepsigma", "hep(sigma)"):
        return hep_sigma()
    match = _RES.fullmatch(key)
    if match:
        degrees = [g for g in match.groups() if g is not None]
        return resultant(int(degrees[0]), int(degrees[1]))
    match = _DET.fullmatch(key)
    if match and int(match.group(1) or match.group(2)) >= 1:
        return determinant(int(match.group(1) or match.group(2)))
    match = _STRUCTURED.fullmatch(key)
    if match:
        return structured_random(int(match.group(1)), int(match.group(2)), seed=int(match.group(3) or 0))
    match = _RANDOM.fullmatch(key)
    if match:
        n_vars, n_terms, degree, seed = (int(g or 0) for g in match.groups())
        return random_polynomial(n_vars, n_terms, max_degree=degree, seed=seed)
    match = _SYMMETRIC.fullmatch(key)
    if match:
        return complete_symmetric(int(match.group(1)), int(match.group(2)))
    match = _RENAMED.fullmatch(key)
    if match:
        return renamed(load(match.group(1)), int(match.group(2)))
    raise OptionError(
        f"unknown expression {name!r}; valid names: {', '.join(_BENCHMARKS)}"
        " (and any res(m,n), det(n), structured(n_vars,n_terms,seed), random(n_vars,n_terms,max_degree,seed),"
        " symmetric(n_vars,degree) or renamed(NAME,seed); aliases res75, res_7_5, det6)"
    )
