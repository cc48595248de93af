"""The new variables' definitions, linear forms with integer coefficients, written without SymPy's printers.

A result of the linear substitution (:mod:`hornermcts.rewrites.substitution`)
has opaque pieces ``x4 + x5``, ``amel2 + e2e1 - e3e1 - e4e1``: sums of
integer multiples of the input's variables.  Printing them with SymPy's
printers was most of an emission's fixed cost (HEP(sigma), 8 forms: SymPy's
``str`` for the header 0.8 ms, C's printer 0.3 ms, of a 3 ms emission of
1,500 operations).  :class:`LinearForm` holds such a piece as its terms
``(local, coefficient)`` and writes the text SymPy's printers wrote for the
same ``Add`` (``tests/codegen/test_forms.py`` compares them on random forms):

* :meth:`LinearForm.__str__` as ``sympy.sstr`` (the header's "computed
  first" lines): the terms ordered by their variables' names;
* :meth:`LinearForm.code` as the code printers with ``order="none"`` (C99,
  Python, NumPy, Fortran): the terms in the ``Add``'s own order (SymPy's
  canonical order: the variables with coefficient 1 by name, then those
  with -1 by name, then the others by coefficient, then name).

Each term is ``x``, ``-x``, ``3*x`` or ``-3*x``, joined by `` + `` and `` - ``.
Any other piece (``sin(y)``, ``1/z``, a rational coefficient, a constant
term) stays a SymPy expression, printed by the language's printer.

>>> import sympy
>>> x, y, z = sympy.symbols("x y z")
>>> form = LinearForm.of(-x + 2*z + y, {x: "x_", y: "y", z: "z"})
>>> str(form), form.code(), form.code({"y": "t[1]"})
('-x_ + y + 2*z', 'y - x_ + 2*z', 't[1] - x_ + 2*z')
>>> form.as_sympy() == (-x + 2*z + y).xreplace({x: sympy.Symbol("x_")})
True
>>> LinearForm.of(x + sympy.sin(y), {x: "x", y: "y"}) is None
True
"""
from __future__ import annotations

import sympy

from ..cost.counting import OpCount, charge

__all__ = ["LinearForm", "piece_names"]

#: Coefficients beyond this in absolute value are left to SymPy (their text is compared up to it).
_LARGEST = 10**40


class LinearForm:
    """A sum of integer multiples of locals: ``terms`` ``((local, coefficient), ...)`` in SymPy's canonical order.

    :meth:`of` recognises one in a SymPy piece; :attr:`names` are the locals
    it reads.
    """

    __slots__ = ("terms", "names")

    def __init__(self, terms):
        self.terms = tuple(sorted(terms, key=_canonical))
        self.names = frozenset(name for name, _ in self.terms)

    @classmethod
    def of(cls, piece, local: dict) -> LinearForm | None:
        """The form of the SymPy expression ``piece`` in the locals ``local[symbol]``, or None when ``piece`` is
        not a sum of at least two terms ``c*symbol`` (``c`` an integer, each symbol a plain ``Symbol`` of
        ``local``)."""
        if not piece.is_Add:
            return None
        terms = []
        for term in piece.args:
            if type(term) is sympy.Symbol:
                c, s = 1, term
            elif term.is_Mul and len(term.args) == 2 and term.args[0].is_Integer:
                c, s = int(term.args[0]), term.args[1]
                if type(s) is not sympy.Symbol or abs(c) > _LARGEST:
                    return None
            else:
                return None
            name = local.get(s)
            if name is None:
                return None
            terms.append((name, c))
        return cls(terms)

    def __str__(self) -> str:
        """The text of ``sympy.sstr``: the terms ordered by name."""
        return _joined(sorted(self.terms))

    def code(self, rename: dict | None = None) -> str:
        """The text of the code printers (``order="none"``); ``rename`` maps a local to its text where that
        is not its name (C: ``t[3]``, ``x[k]``)."""
        if not rename:
            return _joined(self.terms)
        return _joined([(rename.get(name, name), c) for name, c in self.terms])

    def printed_by(self, printer, rename: dict | None = None) -> str | None:
        """:meth:`code`, the text ``printer`` (a SymPy code printer) writes; None when it reserves one of the
        names (it would write ``entry_`` for ``entry``: then it prints the form itself)."""
        return self.code(rename) if self.names.isdisjoint(printer.reserved_words) else None

    def count(self) -> OpCount:
        """Its operations, as :func:`~hornermcts.cost.counting.expression_count` counts the SymPy sum: an
        addition between terms, a multiplication per coefficient other than +-1, a negation per sign."""
        return charge(additions=len(self.terms) - 1, multiplications=sum(c not in (1, -1) for _, c in self.terms),
                      negations=sum(c < 0 for _, c in self.terms))

    def as_sympy(self):
        """The SymPy expression of the form, in the locals' symbols (for a printer this module does not write)."""
        return sympy.Add(*[c * sympy.Symbol(name) for name, c in self.terms])

    def __repr__(self) -> str:
        return f"LinearForm({str(self)!r})"


def piece_names(piece) -> frozenset:
    """The names of the locals a piece reads: a :class:`LinearForm`'s, or those of a SymPy piece's symbols."""
    if type(piece) is LinearForm:
        return piece.names
    return frozenset(s.name for s in piece.free_symbols)


def _canonical(term: tuple) -> tuple:
    """SymPy's order of the terms of an ``Add`` (``Basic.compare``): a symbol before a product; products
    ``-1*x`` before ``c*x``, those by ``c``; then the name."""
    name, c = term
    if c == 1:
        return (0, 0, 0, name)
    return (1, 0, 0, name) if c == -1 else (1, 1, c, name)


def _joined(terms) -> str:
    """``a + b - c - 2*d``: each term ``x``, ``-x``, ``c*x``, after the first its sign as the separator."""
    out = []
    for name, c in terms:
        out += [" - " if c < 0 else " + ", name if c in (1, -1) else f"{abs(c)}*{name}"]
    if out[0] == " + ":
        out[0] = ""
    else:
        out[0] = "-"
    return "".join(out)
