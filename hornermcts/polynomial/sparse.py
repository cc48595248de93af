"""The sparse polynomial every part of hornermcts works on.

A :class:`Polynomial` is an exponent matrix (one row per term, one column per
variable), one exact coefficient per term and the variables' SymPy symbols.
Non-polynomial pieces of an input (``sin(x)``, ``f(y)``, ``1/z``) are variables
too: *opaque* symbols that stand for the piece and are put back by
:meth:`Polynomial.to_sympy` and by every output view.

Examples
--------
>>> import sympy
>>> x, y = sympy.symbols("x y")
>>> p = Polynomial((x, y), [[2, 0], [0, 1], [2, 0]], [3, -1, 4])
>>> p.n_terms, p.n_vars
(2, 2)
>>> p.to_sympy()
7*x**2 - y
"""
from __future__ import annotations

from ..errors import OptionError

from fractions import Fraction
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np
import sympy

from .coefficients import to_fraction, to_number

# to_number lives in hornermcts.polynomial.coefficients; it stays importable from here
__all__ = ["Polynomial", "normalize_order", "to_number", "MAX_EXPONENT", "MAX_CELLS"]

#: The largest exponent of a variable (``x^2147483647``, 2^31 - 1).  Nothing
#: keeps a table as long as the largest exponent (the fast counter works on
#: each variable's exponent ranks), so memory follows the number of terms;
#: the limit keeps every exponent, and the sum of two, exact in 64-bit integers,
#: and refuses absurd inputs (``x^(10^20)``) with a clear message at once.
MAX_EXPONENT = 2**31 - 1

#: The most cells (terms times variables) of the dense exponent matrix an input may have.  Every stage keeps
#: that matrix (8 bytes a cell) and copies of it; a sum of 5,000 variables (25 million) is optimized within
#: 2 GB, a sum of 200,000 (40 billion) would ask for 298 GiB: it is refused by the reader, before allocating.
MAX_CELLS = 30_000_000


#: From this many terms on, :class:`Polynomial` looks at the rows' hashes before merging equal rows.
HASHED_ROWS = 10_000


def _distinct_rows(exps: np.ndarray) -> bool:
    """Whether the rows are known to be pairwise distinct: at least :data:`HASHED_ROWS` of them, with distinct
    64-bit hashes (a linear map with fixed random weights; equal hashes say nothing, the rows are merged)."""
    if exps.shape[0] < HASHED_ROWS:
        return False
    weights = np.random.default_rng(0).integers(1, 2**63, exps.shape[1], dtype=np.uint64) | np.uint64(1)
    hashes = np.zeros(exps.shape[0], dtype=np.uint64)
    for j in range(exps.shape[1]):
        hashes += exps[:, j].astype(np.uint64) * weights[j]  # wraps modulo 2^64
    hashes.sort()
    return not (hashes[1:] == hashes[:-1]).any()


def _merged(exps: np.ndarray, coefs: list) -> tuple[list[int], list]:
    """The first row of each distinct exponent row, in order, and its coefficients' sum."""
    merged: dict[bytes, int] = {}
    rows: list[int] = []
    total: list = []
    for i, key in enumerate(map(bytes, exps)):
        j = merged.get(key)
        if j is None:
            merged[key] = len(rows)
            rows.append(i)
            total.append(coefs[i])
        else:
            total[j] = total[j] + coefs[i]
    return rows, total


class Polynomial:
    """Sparse multivariate polynomial with exact coefficients.

    Parameters
    ----------
    symbols : sequence of sympy.Symbol
        The variables, one per exponent column.
    exponents : array_like of int, shape (n_terms, n_vars)
        Non-negative exponents.
    coefficients : sequence of numbers, length n_terms
        int, ``Fraction``, float or SymPy numbers; kept exactly as given.
    opaque : mapping, optional
        ``{placeholder symbol: sympy expression}`` for non-polynomial pieces;
        each placeholder must be one of ``symbols``.
    copy : bool, default True
        False: the polynomial takes an int64 ``exponents`` array as it is (made
        read-only) when no row is merged or dropped, for a caller that made it
        and hands it over (a reader: 342 MB and 0.6 s on gait2d row 12).

    Duplicate exponent rows are merged (coefficients added exactly) and terms
    whose coefficient is zero vanish; the first occurrence fixes a term's
    position.  A constant is a row of zeros; the zero polynomial has no terms.
    """

    __slots__ = ("symbols", "exponents", "coefficients", "opaque", "_derived")
    #: The attributes a copy or a pickle carries (what :meth:`derived` remembers is made again).
    _STATE = ("symbols", "exponents", "coefficients", "opaque")

    def __init__(
        self,
        symbols: Sequence[sympy.Symbol],
        exponents,
        coefficients: Iterable,
        *,
        opaque: Mapping[sympy.Symbol, sympy.Expr] | None = None,
        copy: bool = True,
    ):
        symbols = tuple(symbols)
        if len(set(symbols)) != len(symbols):
            raise OptionError(f"duplicate symbols in {symbols}")
        exps = np.asarray(exponents, dtype=np.int64)
        if exps.ndim != 2 and exps.size == 0:
            exps = exps.reshape(0, len(symbols))
        if exps.ndim != 2 or exps.shape[1] != len(symbols):
            raise OptionError(
                f"exponents must have shape (n_terms, {len(symbols)}), got {exps.shape}"
            )
        if (exps < 0).any():
            raise OptionError("exponents must be non-negative")
        if exps.size and exps.max() > MAX_EXPONENT:
            row, col = np.unravel_index(int(exps.argmax()), exps.shape)
            raise OptionError(f"{symbols[col]}^{exps[row, col]} (term {row + 1}): exponents are limited to "
                              f"{MAX_EXPONENT:,} (hornermcts.polynomial.MAX_EXPONENT)")
        coefs = [to_number(c) for c in coefficients]
        if len(coefs) != exps.shape[0]:
            raise OptionError(
                f"{exps.shape[0]} exponent rows but {len(coefs)} coefficients"
            )
        if _distinct_rows(exps):  # nothing to merge (a large input, known from the rows' hashes)
            rows, total = list(range(len(coefs))), coefs
        else:
            rows, total = _merged(exps, coefs)
        keep = [k for k, c in enumerate(total) if not c.is_zero]
        self.symbols: tuple[sympy.Symbol, ...] = symbols
        if len(keep) == exps.shape[0]:  # every row kept, in order: a copy (unless the caller hands its array over)
            self.exponents: np.ndarray = exps.copy() if copy else exps
        else:
            self.exponents = exps[[rows[k] for k in keep]].reshape(len(keep), len(symbols))
        self.exponents.setflags(write=False)
        self.coefficients: tuple[sympy.Number, ...] = tuple(total[k] for k in keep)
        opaque = dict(opaque or {})
        for s in opaque:
            if s not in symbols:
                raise OptionError(f"opaque placeholder {s} is not one of the symbols")
        self.opaque: dict[sympy.Symbol, sympy.Expr] = opaque
        self._derived: dict = {}

    def __getstate__(self) -> tuple:
        return None, {name: getattr(self, name) for name in self._STATE}

    def __setstate__(self, state: tuple) -> None:
        for name, value in state[1].items():
            setattr(self, name, value)
        self._derived = {}

    def derived(self, what: Hashable, make: Callable[[], Any]) -> Any:
        """``make()``, made once per polynomial: what several stages derive from the same terms (the coefficients
        as scaled integers, their structural codes) is remembered as ``what``, while the exponents and the
        coefficients are the objects they were (a reader that sets them anew is not served a stale value).

        >>> p = Polynomial(sympy.symbols("x y"), [[1, 0], [0, 1]], [2, 3])
        >>> p.derived("sum", lambda: sum(p.coefficients)), p.derived("sum", lambda: 0)
        (5, 5)
        """
        hit = self._derived.get(what)
        if hit is not None and hit[0] is self.exponents and hit[1] is self.coefficients:
            return hit[2]
        return self.remember(what, make())

    def remember(self, what: Hashable, value: Any) -> Any:
        """Remember ``value`` as :meth:`derived`'s ``what`` of the polynomial as it is now (a caller that made
        the terms knows it already); return it."""
        self._derived[what] = (self.exponents, self.coefficients, value)
        return value

    @classmethod
    def of_valid_rows(cls, symbols: tuple, exponents: np.ndarray, coefficients: tuple,
                      opaque: Mapping | None = None) -> "Polynomial":
        """A polynomial from parts already valid, taken as they are, without the constructor's checks.

        For parts cut from a polynomial (its rows, its columns): distinct
        non-negative int64 exponent rows, one non-zero SymPy number per row,
        ``opaque`` over ``symbols``.  (246 outputs of a joint polynomial:
        the checks and merges took 40 ms, 4 times the rest.)
        """
        poly = cls.__new__(cls)
        poly.symbols = symbols
        poly.exponents = exponents
        poly.exponents.setflags(write=False)
        poly.coefficients = coefficients
        poly.opaque = dict(opaque or {})
        poly._derived = {}
        return poly

    # ------------------------------------------------------------------ basics
    @property
    def n_terms(self) -> int:
        """Number of (merged, non-zero) terms."""
        return self.exponents.shape[0]

    @property
    def n_vars(self) -> int:
        """Number of variables (columns), opaque placeholders included."""
        return len(self.symbols)

    def __repr__(self) -> str:
        names = ", ".join(map(str, self.symbols[:6])) + (", ..." if self.n_vars > 6 else "")
        return f"Polynomial({self.n_terms} terms in {self.n_vars} variables: {names})"

    def term_dict(self) -> dict[tuple[int, ...], sympy.Number]:
        """``{exponent tuple: coefficient}``, the polynomial as a dict."""
        return {tuple(map(int, r)): c for r, c in zip(self.exponents, self.coefficients)}

    def __eq__(self, other) -> bool:
        """Equal as polynomials: same symbols (any column order) and terms."""
        if not isinstance(other, Polynomial):
            return NotImplemented
        if set(self.symbols) != set(other.symbols) or self.opaque != other.opaque:
            return False
        perm = [other.symbols.index(s) for s in self.symbols]
        mine = self.term_dict()
        theirs = {tuple(k[j] for j in perm): c for k, c in other.term_dict().items()}
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable arrays inside: unhashable, as equality is by value

    def occurrence_order(self) -> list[int]:
        """Variable indices, most frequently occurring first (FORM's default scheme).

        Counts the terms each variable occurs in; ties keep the column order.

        >>> import sympy
        >>> x, y, z = sympy.symbols("x y z")
        >>> Polynomial((x, y, z), [[1, 1, 0], [0, 1, 1], [0, 2, 0]], [1, 1, 1]).occurrence_order()
        [1, 0, 2]
        """
        counts = (self.exponents > 0).sum(axis=0)
        return sorted(range(self.n_vars), key=lambda j: (-int(counts[j]), j))

    # ------------------------------------------------------------ conversions
    def to_sympy(self, *, restore_opaque: bool = True) -> sympy.Expr:
        """The polynomial as a SymPy expression, opaque pieces restored.

        Built with ``Add``/``Mul`` directly, so it is fast on 10^5 terms.
        """
        terms = []
        for row, c in zip(self.exponents, self.coefficients):
            factors = [c] if c != 1 else []
            for s, e in zip(self.symbols, row):
                if e == 1:
                    factors.append(s)
                elif e > 1:
                    factors.append(sympy.Pow(s, int(e)))
            terms.append(sympy.Mul(*factors))
        expr = sympy.Add(*terms)
        if restore_opaque and self.opaque:
            expr = expr.xreplace(self.opaque)
        return expr

    def evaluate(self, point) -> Fraction:
        """Exact value at ``point`` (a sequence in column order, or a dict by symbol).

        Values are converted to ``Fraction``; opaque placeholders take the value
        given for the placeholder symbol.

        >>> import sympy
        >>> x, y = sympy.symbols("x y")
        >>> Polynomial((x, y), [[2, 0], [0, 1]], [Fraction(1, 2), 3]).evaluate({x: 2, y: Fraction(1, 3)})
        Fraction(3, 1)
        """
        if isinstance(point, Mapping):
            vals = [Fraction(point[s]) for s in self.symbols]
        else:
            vals = [Fraction(v) for v in point]
        if len(vals) != self.n_vars:
            raise OptionError(f"need {self.n_vars} values, got {len(vals)}")
        total = Fraction(0)
        for row, c in zip(self.exponents, self.coefficients):
            term = to_fraction(c)
            for v, e in zip(vals, row):
                if e:
                    term *= v ** int(e)
            total += term
        return total


def normalize_order(poly, order) -> list[int]:
    """Turn ``order`` (symbols, names or column indices) into a full permutation.

    Variables the order leaves out are appended in occurrence order (most
    frequent first), so opaque placeholders need not be named.  An unknown or
    repeated variable is a ``ValueError``.

    >>> import sympy
    >>> from hornermcts.polynomial import Polynomial
    >>> x, y, z = sympy.symbols("x y z")
    >>> p = Polynomial((x, y, z), [[1, 1, 0], [0, 1, 1]], [1, 1])
    >>> normalize_order(p, ["z"])
    [2, 1, 0]
    """
    if order is None:
        return poly.occurrence_order()
    names: dict[str, int] | None = None  # built when a name is met: str() of every symbol is slow
    out: list[int] = []
    for item in order:
        if isinstance(item, sympy.Basic):
            if item not in poly.symbols:
                raise OptionError(f"order names {item}, which is not a variable of the polynomial {poly.symbols}")
            j = poly.symbols.index(item)
        elif isinstance(item, str):
            if names is None:
                names = {str(s): i for i, s in enumerate(poly.symbols)}
            if item not in names:
                raise OptionError(f"order names {item!r}, which is not a variable of the polynomial {poly.symbols}")
            j = names[item]
        else:
            try:
                j = int(item)
            except (TypeError, ValueError):
                raise TypeError(f"an order holds symbols, names or column indices, not {item!r}") from None
            if not 0 <= j < poly.n_vars:
                raise OptionError(f"variable index {j} out of range for {poly.n_vars} variables")
        if j in out:
            raise OptionError(f"variable {poly.symbols[j]} appears twice in the order")
        out.append(j)
    seen = set(out)
    if len(seen) < poly.n_vars:
        out += [j for j in poly.occurrence_order() if j not in seen]
    return out
