"""The columns of a polynomial being read, and the SymPy -> sparse dict rules.

One :class:`Builder` serves :func:`~hornermcts.parse.from_sympy`,
:func:`~hornermcts.parse.from_poly` and the text parser, so the rules that
turn non-polynomial pieces into opaque placeholders (described in
:mod:`hornermcts.parse`) live in one place: :meth:`Builder.factor`.  A
column is a variable (a Symbol) or an opaque piece; :meth:`Builder.finish`
names the placeholders and makes the :class:`~hornermcts.polynomial.Polynomial`.
"""
from __future__ import annotations

from ..errors import LimitError, OptionError

from itertools import chain
from typing import Sequence

import numpy as np
import sympy
from sympy.core.function import AppliedUndef
from sympy.core.sorting import default_sort_key

from ..polynomial.coefficients import is_finite, product, to_number
from ..polynomial.sparse import MAX_CELLS, Polynomial
from .budget import MAX_TERMS, Budget
from .sparse import Term, poly_pow

__all__ = ["Builder", "check_cells", "not_finite_message"]

_S = sympy.S
_NOT_FINITE = (_S.NaN, _S.ComplexInfinity, _S.Infinity, _S.NegativeInfinity)


class Builder:
    """Columns (variables and opaque pieces) and the SymPy -> sparse dict rules.

    ``from_sympy``, ``from_poly`` and the text parser all go through one
    builder, so the placeholder rules live in one place: :meth:`convert`.
    Products and powers of sums are expanded under ``budget`` (a
    :class:`~hornermcts.parse.budget.Budget`; by default one of
    :data:`~hornermcts.parse.budget.MAX_TERMS` terms, no deadline).
    """

    def __init__(self, symbols: Sequence | None = None, *, strict: bool = False, budget: Budget | None = None):
        self.budget = Budget(where=lambda: "the SymPy expression") if budget is None else budget
        self.keys: list = []  # Symbol for a variable, the piece for an opaque column
        self.is_opaque: list[bool] = []
        self.index: dict = {}  # key -> column
        self.names: dict[str, int] = {}  # text identifiers -> column
        self.n_fixed = 0
        self.strict = strict and symbols is not None
        if symbols is not None:
            if isinstance(symbols, sympy.Basic):
                symbols = [symbols]
            for s in symbols:
                if not isinstance(s, sympy.Symbol):
                    raise TypeError(f"symbols must be SymPy Symbols, got {s!r} ({type(s).__name__})")
                if s in self.index:
                    raise OptionError(f"symbol {s} appears twice in symbols")
                self.var(s)
            self.n_fixed = len(self.keys)

    # ---- columns
    def var(self, s: sympy.Symbol) -> int:
        col = self.index.get(s)
        if col is None:
            if s.is_commutative is False:
                raise OptionError(f"non-commutative symbol {s} cannot be a polynomial variable")
            col = self._new(s, False)
            self.names.setdefault(s.name, col)
        return col

    def name_var(self, name: str) -> int:
        col = self.names.get(name)
        if col is None:
            col = self.var(sympy.Symbol(name))
            self.names[name] = col
        return col

    def piece(self, expr: sympy.Expr) -> int:
        col = self.index.get(expr)
        if col is None:
            if expr.is_commutative is False:
                raise OptionError(f"non-commutative piece {expr} cannot be a polynomial variable")
            col = self._new(expr, True)
        return col

    def _new(self, key, opaque: bool) -> int:
        col = len(self.keys)
        self.keys.append(key)
        self.is_opaque.append(opaque)
        self.index[key] = col
        return col

    # ---- SymPy -> sparse dict
    def convert(self, expr) -> dict:
        """``expr`` (a SymPy Expr) as a sparse dict; nested sums are walked with a stack."""
        acc: dict = {}
        if expr.is_Add:
            stack = [expr]
            while stack:
                e = stack.pop()
                if e.is_Add:
                    stack.extend(reversed(e.args))
                else:
                    self.add_term(acc, e)
            return {m: c for m, c in acc.items() if c}
        self.add_term(acc, expr)
        return acc

    def add_term(self, acc: dict, term) -> None:
        term_ = Term(self.budget)
        ex = term_.ex
        index = self.index
        if term.is_Mul:
            factors = term.args
            if any(f.is_Mul for f in factors):  # unevaluated nesting
                factors = _flatten_mul(term)
        else:
            factors = (term,)
        for f in factors:
            if f.is_Symbol:
                col = index.get(f)
                if col is None:
                    col = self.var(f)
                ex[col] = ex.get(col, 0) + 1
            elif f.is_Pow:
                b, e = f.args
                if b.is_Symbol and e.is_Integer and e.p > 0:
                    col = index.get(b)
                    if col is None:
                        col = self.var(b)
                    ex[col] = ex.get(col, 0) + int(e.p)
                else:
                    term_.times(self.factor(f, term))
            elif f.is_Rational or f.is_Float:
                # SymPy numbers are kept as they are: most terms are never
                # combined with another, so no arithmetic is needed at all
                coef = term_.coef
                term_.coef = f if type(coef) is int and coef == 1 else product(coef, f)
            else:
                term_.times(self.factor(f, term))
        term_.add_to(acc)

    def factor(self, f, term=None) -> dict:
        """One factor of a product as a sparse dict: the placeholder rules."""
        if f.is_Add or f.is_Mul:
            return self.convert(f)
        if f.is_Symbol:
            return {((self.var(f), 1),): 1}
        if f.is_Number:
            if not is_finite(f):
                raise OptionError(not_finite_message(f, term if term is not None else f))
            return {(): f} if f else {}
        if f.is_Pow:
            b, e = f.args
            if e.is_Integer:
                n = int(e.p)
                if n >= 0:
                    return poly_pow(self.factor(b, term), n, self.budget)
                return self._root_piece(b, _S.NegativeOne, -n, term)
            if e.is_Rational:
                p, q = int(e.p), int(e.q)
                return self._root_piece(b, sympy.Rational(1 if p > 0 else -1, q), abs(p), term)
            return self._opaque(f)
        if any(f is bad for bad in _NOT_FINITE):
            raise OptionError(not_finite_message(f, term if term is not None else f))
        if not isinstance(f, sympy.Expr):
            raise TypeError(f"{f} ({type(f).__name__}) inside {term} is not an expression")
        return self._opaque(f)

    def _root_piece(self, base, unit, n: int, term) -> dict:
        """``(base**unit)**n`` with ``base**unit`` (``1/b`` or ``b**(1/q)``) the piece."""
        key = sympy.Pow(base, unit)
        if key.is_Pow and key.exp == unit and key.base == base:
            return {((self.piece(key), n),): 1}
        # SymPy simplified the piece (1/(2*x) -> 1/2 * 1/x, 4**(1/2) -> 2): use that form
        return poly_pow(self.factor(key, term), n, self.budget)

    def _opaque(self, f) -> dict:
        return {((self.piece(f), 1),): 1}

    # ---- sparse dict -> SymPy (small pieces only: function arguments, divisors)
    def to_expr(self, p: dict) -> sympy.Expr:
        keys = self.keys
        terms = []
        for m, c in p.items():
            factors = [keys[i] if e == 1 else sympy.Pow(keys[i], e) for i, e in m]
            terms.append(sympy.Mul(to_number(c), *factors))
        return sympy.Add(*terms)

    # ---- sparse dict -> Polynomial
    def finish(self, acc: dict) -> Polynomial:
        """The Polynomial of the sparse dict ``acc``, which it empties (a million tuple monomials are ~1 GB)."""
        monos = [m for m, c in acc.items() if c]
        raw = [c for c in acc.values() if c]
        lengths = np.fromiter(map(len, monos), dtype=np.int64, count=len(monos))
        total = int(lengths.sum())
        try:
            pairs = np.fromiter(
                chain.from_iterable(chain.from_iterable(monos)), dtype=np.int64, count=2 * total
            ).reshape(total, 2)
        except OverflowError:
            raise OptionError("an exponent does not fit in 64 bits") from None
        n_terms = len(monos)
        del monos
        acc.clear()  # the monomials are in pairs now: free them before the arrays are built
        used = set(np.unique(pairs[:, 0]).tolist())
        if self.strict:
            extra = sorted(i for i in used if i >= self.n_fixed and not self.is_opaque[i])
            if extra:
                missing = ", ".join(str(self.keys[i]) for i in extra)
                fixed = ", ".join(str(s) for s in self.keys[: self.n_fixed])
                raise OptionError(f"symbol(s) {missing} are not in symbols=({fixed})")
        cols = [i for i in range(len(self.keys)) if i < self.n_fixed or i in used]
        remap = np.full(len(self.keys), -1, dtype=np.int64)
        remap[cols] = np.arange(len(cols))
        symbols = [self.keys[i] if not self.is_opaque[i] else None for i in cols]
        opaque = {}
        pieces = [i for i in cols if self.is_opaque[i]]
        if pieces:
            taken = {s.name for s in symbols if s is not None}
            for i in pieces:
                piece = self.keys[i]
                taken.update(s.name for s in piece.free_symbols if isinstance(s, sympy.Symbol))
                taken.update(str(a.func) for a in piece.atoms(AppliedUndef))
            k = 0
            for i in sorted(pieces, key=lambda i: default_sort_key(self.keys[i])):
                while f"_o{k}" in taken:
                    k += 1
                placeholder = sympy.Symbol(f"_o{k}")
                k += 1
                symbols[int(remap[i])] = placeholder
                opaque[placeholder] = self.keys[i]
        check_cells(n_terms, len(cols), self.budget.max_terms)
        exps = np.zeros((n_terms, len(cols)), dtype=np.int64)
        if total:
            rows = np.repeat(np.arange(n_terms), lengths)
            exps[rows, remap[pairs[:, 0]]] = pairs[:, 1]
            del rows, pairs
        coefs = [to_number(c) for c in raw]
        if not cols and n_terms:
            # Polynomial.__init__ turns an empty (n, 0) exponent matrix into (0, 0),
            # which loses a constant; build the constant around that.
            poly = Polynomial((), np.zeros((0, 0), dtype=np.int64), [])
            poly.exponents = exps
            poly.exponents.setflags(write=False)
            poly.coefficients = tuple(coefs)
            return poly
        return Polynomial(symbols, exps, coefs, opaque=opaque, copy=False)  # exps is ours: handed over


def check_cells(n_terms: int, n_vars: int, max_terms: int | None) -> None:
    """Refuse an exponent matrix of more cells (terms x variables) than ``max_terms`` allows, before it is made.

    :data:`~hornermcts.polynomial.MAX_CELLS` per :data:`~hornermcts.parse.budget.MAX_TERMS` of ``max_terms``
    (None: the default).
    """
    max_terms = MAX_TERMS if max_terms is None else max_terms
    cells = MAX_CELLS * max_terms // MAX_TERMS  # the default max_terms: MAX_CELLS
    if n_terms * n_vars > cells:
        raise LimitError(f"{n_terms:,} terms in {n_vars:,} variables need {n_terms * n_vars:,} exponent "
                         f"cells (terms x variables), over the limit of {cells:,} (hornermcts.polynomial."
                         f"MAX_CELLS per {MAX_TERMS:,} of max_terms={max_terms:,}; raise it with "
                         f"--max-terms; 20 million cells took 1.5 GB in the fast preset)")


def _flatten_mul(term) -> list:
    out, stack = [], [term]
    while stack:
        e = stack.pop()
        if e.is_Mul:
            stack.extend(reversed(e.args))
        else:
            out.append(e)
    return out


def not_finite_message(f, term) -> str:
    """Why ``f`` (nan, oo, -oo or zoo, met in ``term``) cannot be a coefficient."""
    what = "undefined (NaN)" if f is _S.NaN else "infinite"
    where = "" if term is f else f" in {term}"
    return f"{what} coefficient {f}{where} cannot be part of a polynomial"
