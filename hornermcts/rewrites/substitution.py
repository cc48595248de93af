"""Linear substitution: the polynomial in sums and differences of its variables, when that is shorter.

A Horner scheme only pulls variables out of brackets; it cannot see that a
polynomial is short when written in ``x - y`` instead of ``x`` and ``y``.
Feynman amplitudes often are: HEP(sigma) has 5,717 terms in its 15
variables and 873 in 15 others, each a sum or difference of a few of them,
13 additions away (``zk``, ``xcp3 - xcp1``, ``e3e2 - e2e1``, ...).
:func:`linear_substitution` finds such variables greedily.  A step replaces
one column ``x_i`` of the polynomial by ``x_i + s*x_j`` (``s = +-1``, ``j``
another column): of the steps whose terms pair up as a binomial would
(``c*x_i*m`` beside ``-s*c*x_j*m``, the coefficients in the ratio of
``(x_i - s*x_j)**n``), the :data:`CANDIDATES` with the most such pairs are
counted exactly (:mod:`hornermcts.rewrites.shift`, python-flint's
composition when a coefficient may outgrow 64 bits) and the one leaving the
fewest terms is taken.  Steps go on while they take off at least
:data:`MIN_SHRINK` of the terms, and stop after :data:`PATIENCE` steps that
do not lower the cost below the best prefix's (and after
:data:`STEPS_PER_VARIABLE` steps per variable).  Fewer terms need not mean fewer
operations (the complete symmetric polynomial ``h_5`` of 12 variables has
fewer terms in differences but needs 441 operations instead of 103), so
the caller's ``cost`` (the optimizer's quick Horner + CSE count) scores
every prefix of the steps, the linear forms' own additions included, and
the cheapest prefix is kept; none when the input as given is the cheapest.

After the steps the outputs are polynomials ``Q`` with ``P(x) = Q(L x)``,
``L`` an integer matrix of determinant 1 (each step is one elementary row
operation): ``Q`` is exactly ``P`` in new variables.  Each changed column
becomes an opaque placeholder ``_l0, _l1, ...`` standing for its linear
form in the input's variables, so the search, the DAG, the counts and the
emitted code treat it like any opaque piece: computed once, first, at the
cost of its own additions (a coefficient other than +-1 one
multiplication), and :meth:`~hornermcts.polynomial.Polynomial.to_sympy`
puts the forms back, which gives the input again.

Only exact (integer or rational) coefficients are substituted, only the
plain variables (not opaque pieces, not output markers); without
python-flint nothing is.

Examples
--------
>>> import sympy
>>> from hornermcts.parse import from_sympy
>>> x, y, z = sympy.symbols("x y z")
>>> poly = from_sympy(sympy.expand((x - y)**4 * z + (x - y)**2 + z**2))
>>> found = linear_substitution(poly, cost=lambda p: p.n_terms)
>>> found.terms, found.steps, found.forms
((9, 3), (('x', 1, 'y'),), {_l0: x - y})
>>> found.joint.to_sympy(restore_opaque=False)
_l0**4*z + _l0**2 + z**2
>>> sympy.expand(found.joint.to_sympy() - poly.to_sympy())      # the forms put back: the input
0
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import sympy
from numba import njit

from ..polynomial.coefficients import scaled_integers_of
from ..deadline import Deadline
from ..cost.counting import pieces_count
from ..polynomial.sparse import Polynomial
from ..order.structure import structural_order
from .shift import Shifts

__all__ = ["Substitution", "linear_substitution", "binomial_pairs", "CANDIDATES", "MAX_TRIED", "MIN_SHRINK", "PATIENCE",
           "STEPS_PER_VARIABLE", "PAIRS_PER_TERM"]

#: Steps carried out per batch (those whose terms pair up most as a binomial would), the best taken.
CANDIDATES = 8
#: At most this many steps are carried out per round, in batches of :data:`CANDIDATES` until one pays.
MAX_TRIED = 32
#: A step must take off at least this share of the terms for the search to go on; a candidate step is tried
#: only when at least this share of the terms pair up as a binomial would.
MIN_SHRINK = 0.01
#: At most this many steps per variable that may change.
STEPS_PER_VARIABLE = 2
#: The search stops after this many steps in a row that leave the cost above the best prefix's.
PATIENCE = 3
#: :func:`binomial_pairs` tells the keys no other entry has by a table of at most ``2**SHARED_BITS`` bytes.
SHARED_BITS = 26
#: :func:`binomial_pairs` looks at this many pairs of terms per term at most (HEP(sigma) has 8,
#: structured(30,6000,1) 4, h_5 of 12 variables 21; a sum of 5,000 variables 2,500).
PAIRS_PER_TERM = 32


@dataclass(frozen=True)
class Substitution:
    """The input in new variables.

    Attributes
    ----------
    joint : Polynomial
        The (joint) polynomial in the new variables: each changed column is an
        opaque placeholder whose piece is a linear form of the input's symbols.
    forms : dict
        ``{placeholder: linear form}`` for the changed columns.
    steps : tuple of (str, int, str)
        The steps kept, in order: ``(x_i, s, x_j)`` replaced column ``x_i`` by ``x_i + s*x_j``.
    terms : (int, int)
        Terms before and after.
    costs : (int, int)
        ``cost`` of the input and of the result (linear forms included).
    """

    joint: Polynomial
    forms: dict
    steps: tuple
    terms: tuple
    costs: tuple


def linear_substitution(joint: Polynomial, n_markers: int = 0, *, cost: Callable[[Polynomial], int],
                        deadline: Deadline | None = None, candidates: int = CANDIDATES) -> Substitution | None:
    """The cheapest prefix of the greedy substitution steps for ``joint``, or None when no step pays.

    Parameters
    ----------
    joint : Polynomial
        The input (several outputs joined, as :func:`hornermcts.pipeline.prepare_outputs` makes them).
    n_markers : int
        Leading output-marker columns, never substituted.
    cost : callable
        ``cost(polynomial) -> operations``: scores each prefix (the linear forms' own operations are
        added here).
    deadline : Deadline, optional
        No new step starts after it.
    candidates : int
        Steps carried out per batch.
    """
    scaled = scaled_integers_of(joint)  # None unless every coefficient is exact
    if joint.n_terms < 2 or scaled is None:
        return None
    eligible = [j for j in range(n_markers, joint.n_vars) if joint.symbols[j] not in joint.opaque]
    if len(eligible) < 2:
        return None
    try:
        import flint
    except ImportError:
        return None
    scale, integers = scaled
    exponents = joint.exponents
    ctx = flint.fmpz_mpoly_ctx.get(("x", joint.n_vars), "lex")
    rank: dict = {}  # the columns' structural ranks, made when a step is first tried: they break ties between
    # steps, not the names
    forms = np.eye(joint.n_vars, dtype=np.int64)  # row k: column k's value as a form of the input's columns
    best: tuple = ()  # (cost, steps, polynomial, placeholders), the input's first
    steps: list = []
    while ((deadline is None or not deadline.expired()) and (not best or len(steps) - best[1] < PATIENCE)
           and len(steps) < STEPS_PER_VARIABLE * len(eligible)):
        pairs = _candidate_steps(exponents, integers, eligible)
        if not pairs:
            break
        if not rank:
            rank = {col: k for k, col in enumerate(structural_order(joint))}
        ranked = sorted(pairs, key=lambda step: (-pairs[step], rank[step[0]], rank[step[1]], -step[2]))
        found = _best_step(exponents, integers, ranked, ctx, candidates)
        if found[0] > (1 - MIN_SHRINK) * len(integers):
            break
        if not best:
            input_cost = cost(joint)
            best = (input_cost, 0, joint, {})
        _, i, j, s, exponents, integers = found
        del found  # (it held the step's matrix: one copy, as the new polynomial's, is kept, 264 MB on gait2d row 12)
        forms[i] -= s * forms[j]
        steps.append((str(joint.symbols[i]), s, str(joint.symbols[j])))
        changed, placeholders = _in_new_variables(joint, exponents, integers, scale, forms)
        exponents = changed.exponents  # the same matrix
        total = cost(changed) + pieces_count(placeholders).total
        if total < best[0]:
            best = (total, len(steps), changed, placeholders)
    if not best or best[1] == 0:
        return None
    total, kept, changed, placeholders = best
    return Substitution(changed, placeholders, tuple(steps[:kept]), (joint.n_terms, changed.n_terms),
                        (input_cost, total))


def _candidate_steps(exponents: np.ndarray, integers: list, eligible: list) -> dict:
    """``{(i, j, s): pairs}`` (:func:`binomial_pairs`) for the steps worth trying: those with enough pairs.

    The caller tries them most pairs first, equal counts by the columns' structural ranks, not by their positions,
    so that the steps taken do not depend on the names or the order of the terms.
    """
    signs = np.array([1 if v > 0 else -1 for v in integers])
    logs = np.array([math.log(abs(v)) for v in integers])
    return binomial_pairs(exponents, signs, logs, eligible, least=math.ceil(MIN_SHRINK * len(integers)))


def binomial_pairs(exponents: np.ndarray, signs: np.ndarray, logs: np.ndarray, eligible: list, *,
                   least: int = 1) -> dict:
    """``{(i, j, s): pairs}``: terms ``c*x_i*m`` whose partner ``c'*x_j*m`` has the ratio of ``(x_i - s*x_j)**n``.

    In ``(x_i - s*x_j)**n`` the term ``x_i**a * x_j**b`` and the one with
    ``x_i**(a-1) * x_j**(b+1)`` have coefficients in the ratio
    ``-s*a/(b+1)``; a polynomial shorter after ``x_i -> x_i + s*x_j`` has
    many such pairs.  Every term ``t`` and column ``i`` it contains give an
    entry keyed by ``t / x_i``; two entries with one key and columns ``i``
    and ``j`` are such a pair when their coefficients, each times its own
    exponent (``a`` and ``b + 1``), have equal size and the sign ``-s``, and
    then a pair for ``(i, j, s)`` and ``(j, i, s)`` alike.  Monomials are
    keyed by a 64-bit hash (a linear map of the exponents with fixed random
    weights) and the coefficients compared by their signs and logarithms
    (``signs``, ``logs``), so a rare collision only makes a candidate look
    better than it is: the step itself is exact.  Only steps with at least
    ``least`` pairs are returned.

    A key shared by ``g`` entries holds ``g*(g-1)/2`` pairs of them but
    gives each step one pair at most, so the work is bounded by leaving out
    the largest keys: those past the first :data:`PAIRS_PER_TERM` pairs per
    term, smallest keys first (a sum of ``n`` variables is one key of ``n``
    entries, ``n**2/2`` pairs, and no step pays).  A step then counts fewer
    pairs by at most the number of keys left out; the work and memory grow
    as the terms.
    """
    n_vars = exponents.shape[1]
    weights = np.random.default_rng(0).integers(1, 2**62, n_vars, dtype=np.int64) | 1
    exps = np.ascontiguousarray(exponents, dtype=np.int64)
    power_logs = np.r_[0.0, np.log(np.arange(1, int(exps.max(initial=0)) + 1))]  # np.log(power), looked up
    key, col, size, sign = _entries(exps, np.asarray(eligible, dtype=np.int64), weights,
                                    np.asarray(logs, dtype=np.float64), power_logs, np.asarray(signs, dtype=np.int64))
    # equal keys adjacent, the keys no other entry has left out first (on gait2d row 12, 87 % of 10.6 million
    # entries: they make no pair); within one, the entries' own order is looked at in the pairs
    shared = _shared(key, max(8, min(SHARED_BITS, len(key).bit_length() + 2)))
    order = shared[np.argsort(key[shared])]
    starts, counts = _runs(key, order)
    largest = _largest_key_kept(counts, PAIRS_PER_TERM * exponents.shape[0])
    numbers = _pair_numbers(starts, counts, order, col, size, sign, largest, n_vars)
    out = {}
    for c in np.flatnonzero(numbers >= max(least, 1)).tolist():
        i, j, s = c // 2 // n_vars, c // 2 % n_vars, -1 if c % 2 else 1
        out[i, j, s] = out[j, i, s] = int(numbers[c])
    return out


@njit(cache=True)
def _entries(exps, cols, weights, logs, power_logs, signs):
    """Every term ``t`` and eligible column ``i`` it contains, term by term: the key (a hash of ``t / x_i``,
    wrapping), the column, the size (the coefficient's log plus the exponent's) and the sign."""
    n_terms = exps.shape[0]
    n = 0
    for t in range(n_terms):
        for c in cols:
            if exps[t, c] >= 1:
                n += 1
    key = np.zeros(n, dtype=np.int64)
    col = np.zeros(n, dtype=np.int32)  # (narrow: 21 bytes an entry, not 32)
    size = np.zeros(n, dtype=np.float64)
    sign = np.zeros(n, dtype=np.int8)
    k = 0
    for t in range(n_terms):
        h = np.int64(0)
        for v in range(exps.shape[1]):
            h += exps[t, v] * weights[v]
        for c in cols:
            e = exps[t, c]
            if e >= 1:
                key[k], col[k], size[k], sign[k] = h - weights[c], c, logs[t] + power_logs[e], signs[t]
                k += 1
    return key, col, size, sign


@njit(cache=True)
def _shared(key, bits):
    """The entries whose key another entry may have, in their order: a table of ``2**bits`` saturating counters
    indexed by the keys' top bits; an entry whose counter stays at 1 has a key no other entry has."""
    shift = np.uint64(64 - bits)
    counter = np.zeros(1 << bits, dtype=np.uint8)
    for e in range(key.shape[0]):
        c = np.int64(np.uint64(key[e]) >> shift)
        if counter[c] < 2:
            counter[c] += 1
    m = 0
    for e in range(key.shape[0]):
        if counter[np.int64(np.uint64(key[e]) >> shift)] > 1:
            m += 1
    kept = np.empty(m, dtype=np.int64)
    m = 0
    for e in range(key.shape[0]):
        if counter[np.int64(np.uint64(key[e]) >> shift)] > 1:
            kept[m] = e
            m += 1
    return kept


@njit(cache=True)
def _runs(key, order):
    """Where each run of equal keys starts in ``order`` (the entries sorted by key), and its length."""
    n = order.shape[0]
    m = 0
    for a in range(n):  # the runs counted first: two arrays as long as the runs, not as the entries
        if a == 0 or key[order[a]] != key[order[a - 1]]:
            m += 1
    starts = np.zeros(m, dtype=np.int64)
    counts = np.zeros(m, dtype=np.int64)
    m = 0
    a = 0
    while a < n:
        b = a + 1
        while b < n and key[order[b]] == key[order[a]]:
            b += 1
        starts[m], counts[m] = a, b - a
        m += 1
        a = b
    return starts, counts


@njit(cache=True)
def _pair_numbers(starts, counts, order, col, size, sign, largest, n_vars):
    """Pairs per code ``(i * n_vars + j) * 2 + (s == -1)`` (``i < j``) of :func:`binomial_pairs`'s keys.

    Each pair of entries of a key of at most ``largest`` entries whose
    sizes are close (``np.isclose(earlier, later)``, the later entry in the
    input's order being the reference) counts once.
    """
    numbers = np.zeros(2 * n_vars * n_vars, dtype=np.int64)
    for k in range(starts.shape[0]):
        if counts[k] < 2 or counts[k] > largest:
            continue
        for a in range(starts[k], starts[k] + counts[k]):
            for b in range(a + 1, starts[k] + counts[k]):
                p, q = min(order[a], order[b]), max(order[a], order[b])
                if abs(size[p] - size[q]) <= 1e-08 + 1e-05 * abs(size[q]):
                    i, j = min(col[p], col[q]), max(col[p], col[q])
                    numbers[(i * n_vars + j) * 2 + (1 if sign[p] == sign[q] else 0)] += 1
    return numbers


def _largest_key_kept(counts: np.ndarray, budget: int) -> int:
    """The largest number of entries a key of :func:`binomial_pairs` may have for its pairs to fit ``budget``.

    Keys are taken smallest first, all keys of one size together.
    """
    sizes, keys = np.unique(counts, return_counts=True)
    within = np.cumsum(keys * sizes * (sizes - 1) // 2) <= budget
    return int(sizes[within][-1]) if within.any() else 1


def _best_step(exponents: np.ndarray, integers: list, ranked: list, ctx, candidates: int) -> tuple:
    """``(terms, i, j, s, exponents, integers)``: the best step of the first batch of ``candidates`` that pays.

    Batches are tried in turn, :data:`MAX_TRIED` steps at most, until one
    holds a step taking off :data:`MIN_SHRINK` of the terms; the best step
    tried is returned either way, with its terms in FLINT's ``lex`` order.
    A step is counted without being made (:class:`~hornermcts.rewrites.shift.Shifts`)
    when its coefficients fit in 64 bits, else composed by FLINT (``ctx``).
    """
    shifts = Shifts(exponents, np.array(integers, dtype=np.int64)) if _small(integers) else None
    fitting: dict = {}
    poly = None  # the polynomial in FLINT, made when a step does not fit

    def attempt(i: int, j: int, s: int) -> tuple:
        nonlocal poly
        if shifts is not None and fitting.setdefault(i, shifts.fits(i)):
            return shifts.count(i, j, s), None
        if poly is None:
            poly = ctx.from_dict(dict(zip(map(tuple, exponents.tolist()), integers)))
        subs = list(ctx.gens())
        subs[i] = subs[i] + s * subs[j]
        new = poly.compose(*subs)
        return len(new), new

    best: tuple = ()
    ranked = ranked[:MAX_TRIED]
    for start in range(0, len(ranked), candidates):
        for i, j, s in ranked[start:start + candidates]:
            terms, made = attempt(i, j, s)
            if not best or terms < best[0]:
                best = (terms, i, j, s, made)
        if best[0] <= (1 - MIN_SHRINK) * len(integers):
            break
    terms, i, j, s, made = best
    if made is None:
        exps, ints = shifts.shifted(i, j, s)  # type: ignore[union-attr]
        return terms, i, j, s, exps, ints.tolist()
    found = made.to_dict()
    exps = np.array(list(found), dtype=np.int64).reshape(len(found), exponents.shape[1])
    return terms, i, j, s, exps, [int(v) for v in found.values()]


def _small(integers: list) -> bool:
    """Whether every integer fits in 62 bits (the shifts' kernels then hold them)."""
    return max(map(abs, integers), default=0) < 2**62


def _in_new_variables(joint: Polynomial, exponents: np.ndarray, integers: list, scale: int,
                      forms: np.ndarray) -> tuple[Polynomial, dict]:
    """The terms (integers, ``scale`` times the input's) as a Polynomial whose changed columns are placeholders.

    A column whose form is ``x_k`` or ``-x_k`` keeps a plain variable
    (``x_k``, its odd powers' terms negated), any other becomes a placeholder.
    """
    taken = {str(s) for s in joint.symbols}
    symbols = list(joint.symbols)
    signs = np.ones(len(integers), dtype=np.int64)
    placeholders: dict = {}
    k = 0
    for col in range(joint.n_vars):
        used = np.flatnonzero(forms[col])
        if len(used) == 1:
            symbols[col] = joint.symbols[used[0]]
            if forms[col, used[0]] == -1:
                signs[exponents[:, col] % 2 == 1] *= -1
            continue
        while f"_l{k}" in taken:
            k += 1
        symbol = sympy.Symbol(f"_l{k}")
        k += 1
        placeholders[symbol] = sympy.Add(*[int(c) * joint.symbols[m] for m, c in enumerate(forms[col]) if c])
        symbols[col] = symbol
    signed = integers if (signs == 1).all() else [v * int(g) for v, g in zip(integers, signs)]
    numbers: dict = {}  # the coefficients as SymPy numbers, each value made once (they repeat)
    coefficients = [numbers.get(v) or numbers.setdefault(v, sympy.Rational(v, scale)) for v in signed]
    # distinct rows, nonzero coefficients: taken as they are (no copy of the matrix, no merge)
    changed = Polynomial.of_valid_rows(tuple(symbols), exponents, tuple(coefficients), {**joint.opaque, **placeholders})
    common = math.gcd(scale, *signed)  # its scaled integers, known: ``signed`` over the lowest common scale
    changed.remember("scaled integers", (scale // common, signed if common == 1 else [v // common for v in signed]))
    return changed, placeholders
