"""The expression as written, cut into polynomial regions over atoms.

:func:`regions` walks SymPy expressions once (iteratively, each distinct
subtree once: SymPy's trees are hash-consed, so this is a walk of the
expression DAG) and returns :class:`Regions`: a few small polynomials (the
*units*: one per output, one per sum kept whole, one per argument of a
function call) over *atoms*.  An atom is an input symbol, or a placeholder
standing for something the polynomial machinery cannot see through:

* a function call ``sin(u)``, ``Abs(u)``, ``exp(u)``, a non-integer power
  ``u**(1/2)``, whose argument ``u`` is a unit;
* a reciprocal ``1/u`` (a division), ``u`` a unit;
* a sum kept whole where it is a factor of a product or the base of a power
  (a *block*, itself a unit);
* anything else (``Piecewise``, ``pi``) as it stands.

A product or power of sums is distributed only when the product stays
within ``expand_limit`` terms: ``expand_limit=1`` keeps every product of
sums as written, a large limit expands where the terms stay few (the
decision between the two is made by cost in :mod:`hornermcts.expression.written`).
Products of sines and cosines that are angle sums are folded, exactly:
``cos(a)*cos(b) - sin(a)*sin(b)`` (a composition of rotations written out,
three operations) is ``cos(a + b)`` (one addition and one call), and nested
compositions fold again (``angle_sums=False`` keeps them as written).
A block stands for its sum divided by a leading coefficient (``-a + b`` and
``2*a - 2*b`` are one block, ``-1`` and ``2`` times it), so sums that differ
by a number are computed once.

Examples
--------
>>> import sympy
>>> x, y = sympy.symbols("x y")
>>> r = regions([sympy.sin(x + y)**2*(x + y) + 3*(x - y)**2])
>>> len(r.units), [str(d) for d in r.definitions.values()]
(3, ['_u0', 'sin(_a2)', '_u1'])
>>> r.check([sympy.sin(x + y)**2*(x + y) + 3*(x - y)**2])
True
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from ..errors import LimitError
from ..polynomial.sparse import MAX_EXPONENT

__all__ = ["Regions", "regions", "structured", "written_shape", "DEFAULT_EXPAND_LIMIT"]

#: The most terms a product of sums may expand to when expansion is allowed:
#: beyond it the product is kept as written.
DEFAULT_EXPAND_LIMIT = 4096

#: No region may hold more terms than this multiple of the input's size
#: (operations as written, at least 1,000): expansion never runs away.
TERMS_PER_INPUT_OPERATION = 64


def _mul(p: dict, q: dict) -> dict:
    """The product of two sparse polynomials ``{monomial: coefficient}`` (a monomial: sorted ``((atom, exp), ...)``)."""
    out: dict = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            if not m1:
                m = m2
            elif not m2:
                m = m1
            else:
                merged = dict(m1)
                for a, e in m2:
                    merged[a] = merged.get(a, 0) + e
                m = tuple(sorted(merged.items()))
            v = out.get(m, 0) + c1 * c2
            if v == 0:
                out.pop(m, None)
            else:
                out[m] = v
    return out


def _pow(p: dict, n: int) -> dict:
    """``p**n``: a monomial's exponents multiplied (``x**(10**20)`` at once), a sum multiplied out."""
    if len(p) == 1:
        (m, c), = p.items()
        return {tuple((a, e * n) for a, e in m): c**n}
    out: dict = {(): 1}
    for _ in range(n):
        out = _mul(out, p)
    return out


def _number(e):
    """An exact Python number for an exact SymPy number; a Float stays as it is."""
    if e.is_Integer:
        return int(e)
    if e.is_Rational:
        return Fraction(int(e.p), int(e.q))
    return e


def _divide(c, lead):
    if lead == 1:
        return c
    if type(c) is int and type(lead) is int and c % lead == 0:  # most coefficients: no Fraction made
        return c // lead
    if isinstance(c, (int, Fraction)) and isinstance(lead, (int, Fraction)):
        q = Fraction(c) / lead
        return int(q) if q.denominator == 1 else q
    return c / lead


@dataclass
class Regions:
    """Polynomial units over atoms (see the module docstring).

    Attributes
    ----------
    atoms : list of sympy.Symbol
        Atom ``k``'s symbol: the input symbol itself, or a placeholder
        (a ``Dummy``) for a call, reciprocal, block or opaque piece.
    definitions : dict
        ``{atom id: SymPy expression}`` for every placeholder, in terms of
        the atoms' symbols and of the units' symbols ``unit_symbols``
        (``sin(_u3)``, ``1/_u4``, ``_u2**(1/2)``, ``pi``); a block is its
        unit's symbol.  In the order they were made (operands first).
    units : list of dict
        Unit ``k`` as a sparse polynomial ``{monomial: coefficient}``,
        a monomial a sorted tuple of ``(atom id, exponent)``.
    unit_symbols : list of sympy.Dummy
        The symbol each unit's value is known by in ``definitions``.
    outputs : list of (coefficient, unit id)
        Each output: a number times a unit.
    """

    atoms: list = field(default_factory=list)
    definitions: dict = field(default_factory=dict)
    units: list = field(default_factory=list)
    unit_symbols: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    _polynomials: list | None = field(default=None, repr=False, compare=False)

    @property
    def n_terms(self) -> int:
        """Terms of all units together."""
        return sum(len(u) for u in self.units)

    def unit_expression(self, k: int) -> sympy.Expr:
        """Unit ``k`` as a SymPy expression of the atoms' symbols."""
        atoms = self.atoms
        return sympy.Add(*[_coefficient(c) * sympy.Mul(*[atoms[a] ** e for a, e in m])
                           for m, c in self.units[k].items()])

    def polynomials(self) -> list:
        """Every unit as a :class:`~hornermcts.polynomial.Polynomial` over all the atoms (the same columns)."""
        import numpy as np

        from ..polynomial.sparse import Polynomial, to_number

        if self._polynomials is not None:
            return self._polynomials
        out = []
        atoms = tuple(self.atoms)
        for unit in self.units:
            exponents = np.zeros((len(unit), len(atoms)), dtype=np.int64)
            largest = 0
            for row, monomial in enumerate(unit):
                for a, e in monomial:
                    exponents[row, a] = e
                    largest = max(largest, e)
            if largest <= MAX_EXPONENT:  # distinct monomials (the dict's keys), non-zero coefficients: valid rows
                out.append(Polynomial.of_valid_rows(atoms, exponents, tuple(map(to_number, unit.values()))))
            else:  # the constructor says which exponent is past the limit
                out.append(Polynomial(atoms, exponents, list(unit.values())))
        self._polynomials = out
        return out

    def inlined(self) -> list:
        """The outputs with every placeholder replaced by what it stands for (for checks).

        A definition reads only atoms made before it (operands first), so
        replacing in the order of the atom ids leaves no placeholder.
        """
        value: dict = {}
        units: dict = {}

        def unit(k):
            if k not in units:
                units[k] = self.unit_expression(k).xreplace(value)
            return units[k]

        for a in sorted(self.definitions):
            expr = self.definitions[a]
            expr = expr.xreplace({self.unit_symbols[k]: unit(k) for k in range(len(self.units))
                                  if self.unit_symbols[k] in expr.free_symbols})
            value[self.atoms[a]] = expr.xreplace(value)
        units.clear()
        return [_coefficient(c) * unit(k) for c, k in self.outputs]

    def check(self, exprs, points: int = 3, digits: int = 30, seed: int = 0) -> bool:
        """Whether the regions equal ``exprs`` at ``points`` random points (``digits``-digit evaluation)."""
        import random

        rng = random.Random(seed)
        inlined = self.inlined()
        symbols = sorted(set().union(*(sympy.sympify(e).free_symbols for e in exprs)), key=str)
        for _ in range(points):
            point = {s: sympy.Rational(rng.randint(5, 20), rng.randint(5, 20)) for s in symbols}
            for e, r in zip(exprs, inlined):
                a, b = sympy.N(sympy.sympify(e).xreplace(point), digits), sympy.N(r.xreplace(point), digits)
                if abs(a - b) > 10 ** (12 - digits) * max(1, abs(a)):
                    return False
        return True


def _coefficient(c):
    if isinstance(c, int):
        return sympy.Integer(c)
    if isinstance(c, Fraction):
        return sympy.Rational(c.numerator, c.denominator)
    return c


class _Walk:
    """The state of one :func:`regions` walk."""

    def __init__(self, expand_limit: int, term_budget: int, angle_sums: bool = True, budget_text: str = "",
                 work_budget: int | None = None):
        self.expand_limit = expand_limit
        self.budget_text = budget_text  # what the budget is, for its error
        self.work_budget = work_budget
        self.work = 0  # terms of every form built
        self.angle_sums = angle_sums
        self.trig: dict = {}  # atom of sin(a) or cos(a) -> (sin or cos, a as written)
        self.trig_atom: dict = {}  # and back
        self.term_budget = term_budget
        self.out = Regions()
        self.atom_ids: dict = {}
        self.unit_ids: dict = {}
        self.form: dict = {}  # SymPy node -> its sparse polynomial over atoms
        self.terms = 0  # of all units so far

    def atom(self, key, symbol=None, definition=None) -> int:
        found = self.atom_ids.get(key)
        if found is None:
            found = len(self.out.atoms)
            self.atom_ids[key] = found
            self.out.atoms.append(symbol if symbol is not None else sympy.Dummy(f"a{found}"))
            if definition is not None:
                self.out.definitions[found] = definition
        return found

    def unit(self, poly: dict) -> tuple:
        """``(lead, unit id)``: ``poly`` is ``lead`` times the unit (made canonical: its first coefficient 1)."""
        lead = poly[min(poly)] if poly else 1
        if not isinstance(lead, (int, Fraction)):
            lead = 1
        canon = {m: _divide(c, lead) for m, c in poly.items()}
        key = frozenset(canon.items())
        found = self.unit_ids.get(key)
        if found is None:
            found = len(self.out.units)
            self.unit_ids[key] = found
            self.out.units.append(canon)
            self.out.unit_symbols.append(sympy.Dummy(f"u{found}"))
            self.terms += len(canon)
            if self.terms > self.term_budget:
                raise LimitError(f"the expression's regions reached {self.terms} terms, over the budget of "
                                 f"{self.term_budget}{self.budget_text}")
        return lead, found

    def operand(self, e) -> tuple:
        """``(c, atom id)``: the value of ``e`` is ``c`` times the atom (a symbol, or a block of ``e``'s unit)."""
        poly = self.polynomial(e)
        if len(poly) == 1:
            (m, c), = poly.items()
            if len(m) == 1 and m[0][1] == 1 and isinstance(c, (int, Fraction)):
                return c, m[0][0]
        lead, k = self.unit(poly)
        symbol = self.out.unit_symbols[k]
        return lead, self.atom(("unit", k), definition=symbol)

    def operand_expression(self, e) -> sympy.Expr:
        c, a = self.operand(e)
        return _coefficient(c) * self.out.atoms[a]

    def polynomial(self, e) -> dict:
        """``e`` as a sparse polynomial over atoms (memoized; iterative, operands first)."""
        found = self.form.get(e)
        if found is not None:
            return found
        stack = [(e, False)]
        while stack:
            node, ready = stack.pop()
            if node in self.form:
                continue
            if not ready:
                stack.append((node, True))
                stack.extend((k, False) for k in _operands(node) if k not in self.form)
                continue
            form = self.make(node)
            if len(form) + self.terms > self.term_budget:  # every form ends in a unit: stopped before it is built
                raise LimitError(f"a subexpression of the regions reached {len(form)} terms, beyond the "
                                 f"{self.term_budget - self.terms} left of the budget of {self.term_budget}"
                                 f"{self.budget_text}")
            self.work += len(form)
            if self.work_budget is not None and self.work > self.work_budget:
                raise LimitError(f"the regions' forms reached {self.work} terms, over the work budget of "
                                 f"{self.work_budget}")
            self.form[node] = form
        return self.form[e]

    def make(self, e) -> dict:
        if e.is_Number and (e.is_Rational or e.is_Float):
            return {(): _number(e)} if e != 0 else {}
        if e.is_Symbol:
            return {((self.atom(e, e), 1),): 1}
        if e.is_Add:
            out: dict = {}
            for a in e.args:
                for m, c in self.form[a].items():
                    v = out.get(m, 0) + c
                    if v == 0:
                        out.pop(m, None)
                    else:
                        out[m] = v
            return self.fold_angles(out) if self.trig else out
        if e.is_Mul or _is_polynomial_power(e):
            return self.product(e)
        if e.is_Pow and e.exp.is_Integer:  # a negative power: a reciprocal's power
            return self.product(e)
        return {((self.call(e), 1),): 1}

    def product(self, e) -> dict:
        factors = [e] if e.is_Pow else list(e.args)
        acc: dict = {(): 1}
        sums = []
        for f in factors:
            base, n = (f.base, int(f.exp)) if f.is_Pow and f.exp.is_Integer else (f, 1)
            if abs(n) > MAX_EXPONENT:  # x**(10**20): a piece of its own, computed by the code as written
                acc = _mul(acc, {((self.atom(("piece", f), definition=f), 1),): 1})
            elif n < 0:
                c, a = self.operand(base)
                inverse = self.atom(("inverse", a), definition=1 / self.out.atoms[a])
                acc = _mul(acc, {((inverse, -n),): _reciprocal(c) ** -n})
            elif base.is_Add:
                sums.append((base, n))
            else:
                acc = _mul(acc, _pow(self.polynomial(base), n))
        for base, n in sorted(sums, key=lambda t: len(self.form[t[0]]) ** t[1]):
            if len(acc) * len(self.form[base]) ** n <= self.expand_limit:
                acc = _mul(acc, _pow(self.form[base], n))
            else:
                c, a = self.operand(base)
                acc = _mul(acc, {((a, n),): c ** n})
        return acc

    def call(self, e) -> int:
        """The atom of a non-polynomial piece: a call or non-integer power of units, or the piece as it stands."""
        if not e.is_Atom and not isinstance(e, sympy.Piecewise) and all(isinstance(a, sympy.Expr) for a in e.args) \
                and e.is_commutative:
            args = tuple(a if a.is_Number else self.operand_expression(a) for a in e.args)
            atom = self.atom(("call", e.func, args), definition=e.func(*args))
            if self.angle_sums and e.func in (sympy.sin, sympy.cos) and (e.func, e.args[0]) not in self.trig_atom:
                self.trig[atom] = (e.func, e.args[0])
                self.trig_atom[e.func, e.args[0]] = atom
            return atom
        return self.atom(("piece", e), definition=e)

    def fold_angles(self, poly: dict) -> dict:
        """``poly`` with each pair of terms that is an angle sum folded: ``p*(cos a cos b - sin a sin b)*M`` is
        ``p*cos(a + b)*M``, and likewise ``cos(a - b)``, ``sin(a + b)``, ``sin(a - b)``.

        Exact identities; a composition of rotations written out (gait2d:
        ``cos(qa)*cos(qb) - sin(qa)*sin(qb)``, three operations) becomes one
        call of a sum, and nested compositions fold again.
        """
        other = {sympy.sin: sympy.cos, sympy.cos: sympy.sin}
        work = list(poly)  # in order, each term once; a folded term goes on the end, its partner found from it
        for m in work:
            if m in poly:
                trig = [a for a, n in m if n == 1 and a in self.trig]
                for i, j in itertools.combinations(range(len(trig)), 2):
                    (fa, a), (fb, b) = self.trig[trig[i]], self.trig[trig[j]]
                    pa, pb = self.trig_atom.get((other[fa], a)), self.trig_atom.get((other[fb], b))
                    if pa is None or pb is None:
                        continue
                    rest = tuple(t for t in m if t[0] not in (trig[i], trig[j]))
                    partner = tuple(sorted(rest + ((pa, 1), (pb, 1))))
                    if partner == m or partner not in poly:
                        continue
                    folded = _angle_sum(fa, a, fb, b, poly[m], poly[partner])
                    if folded is None:
                        continue
                    coefficient, piece = folded
                    del poly[m], poly[partner]
                    term = tuple(sorted(rest + ((self.call(piece), 1),)))
                    v = poly.get(term, 0) + coefficient
                    if v == 0:
                        poly.pop(term, None)
                    else:
                        poly[term] = v
                        work.append(term)
                    break
        return poly


def _angle_sum(fa, a, fb, b, c, d):
    """``(p, piece)`` with ``c*fa(a)*fb(b) + d*fa'(a)*fb'(b) == p*piece`` (f' the other of sin, cos), or None."""
    if fa is fb:  # cos a cos b and sin a sin b: p is the cos-cos coefficient, q the sin-sin one
        p, q = (c, d) if fa is sympy.cos else (d, c)
        if q == -p:
            return p, sympy.cos(a + b)
        if q == p:
            return p, sympy.cos(a - b)
        return None
    p, q = (c, d) if fa is sympy.sin else (d, c)  # p: sin a cos b, q: cos a sin b
    if q == p:
        return p, sympy.sin(a + b)
    if q == -p:
        return p, sympy.sin(a - b)
    return None


def _reciprocal(c):
    return Fraction(1) / c if isinstance(c, (int, Fraction)) else 1 / c


def _is_polynomial_power(e) -> bool:
    return e.is_Pow and e.exp.is_Integer and e.exp > 0


def _operands(e) -> tuple:
    """The subexpressions :meth:`_Walk.make` reads the polynomial form of (calls' arguments are read on demand)."""
    if e.is_Add:
        return e.args
    if e.is_Mul:  # a divisor's base is read by the product (as an operand of its reciprocal)
        return tuple(a for a in e.args if not (a.is_Pow and a.exp.is_Integer and a.exp < 0))
    if _is_polynomial_power(e):
        return (e.base,)
    return ()


def regions(exprs, expand_limit: int = 1, term_budget: int | None = None, angle_sums: bool = True,
            work_budget: int | None = None) -> Regions:
    """The polynomial regions of ``exprs`` (a list of SymPy expressions), products of sums expanded to ``expand_limit``.

    ``angle_sums`` folds products of sines and cosines that are angle sums
    (:meth:`_Walk.fold_angles`).  ``term_budget`` bounds the terms of all regions together (default
    :data:`TERMS_PER_INPUT_OPERATION` times the operations as written, at
    least 64,000), ``work_budget`` (default none) the terms of every form
    the walk builds on the way (a sum's and each of its terms'); reaching
    either is a :class:`~hornermcts.errors.LimitError`.
    """
    budget_text = ""
    if term_budget is None:
        from ..cost.counting import expression_count

        memo: dict = {}  # the subtrees' counts, shared by the expressions
        size = sum(expression_count(e, memo).total for e in exprs)
        term_budget = TERMS_PER_INPUT_OPERATION * max(size, 1000)
        budget_text = f" ({TERMS_PER_INPUT_OPERATION} per operation as written)"
    walk = _Walk(expand_limit, term_budget, angle_sums, budget_text, work_budget)
    for e in exprs:
        poly = walk.polynomial(sympy.sympify(e))
        lead, k = walk.unit(poly)
        walk.out.outputs.append((lead, k))
    return walk.out


def written_shape(exprs) -> str:
    """What ``exprs`` (SymPy expressions) are as written, in one walk: "structured", "pieces" or "polynomial".

    ``"structured"``: more than one polynomial region, when they hold a
    product or power of sums (``(a + b)*(c + d)``, ``(a + b)**3``), or a
    call, root or reciprocal of anything but a symbol or a number
    (``sin(x + y)``, ``sqrt(2*x)``, ``1/(x - y)``): what expanding at the door
    would destroy, or could not share; also when they hold what no
    polynomial can (``oo``, ``zoo``, ``nan``, ``x**(10**20)``), which the
    regions keep as pieces.  ``"pieces"``: one region, a polynomial in
    symbols and pieces of symbols (a call, a root, a reciprocal,
    ``Piecewise``, a constant such as ``pi``: ``x*sin(y) + x**2``).
    ``"polynomial"``: sums, products, integer powers, symbols and numbers only.

    >>> import sympy
    >>> x, y = sympy.symbols("x y")
    >>> [written_shape([e]) for e in (x*sympy.sin(y) + x**2, sympy.sin(x + y), (x + 1)*(y + 1), x**2 + 3*x*y, x/y)]
    ['pieces', 'structured', 'structured', 'polynomial', 'pieces']
    """
    pieces = False
    for e in _subexpressions(exprs):
        if e.is_Atom:
            if e in (sympy.S.Infinity, sympy.S.NegativeInfinity, sympy.S.ComplexInfinity, sympy.S.NaN):
                return "structured"
        elif e.is_Mul:
            if sum(1 for f in e.args if f.is_Add or _is_polynomial_power(f) and f.base.is_Add) >= 2:
                return "structured"
        elif _is_polynomial_power(e):
            if e.base.is_Add and e.exp > 1 or e.exp > MAX_EXPONENT:
                return "structured"
        elif not e.is_Add and not all(a.is_Atom for a in (e.args[:1] if e.is_Pow else e.args)):
            return "structured"
        pieces = pieces or not (e.is_Symbol or e.is_Rational or e.is_Float or e.is_Add or e.is_Mul
                                or _is_polynomial_power(e))
    return "pieces" if pieces else "polynomial"


def structured(exprs) -> bool:
    """Whether ``exprs`` (SymPy expressions) are more than one polynomial region as written (:func:`written_shape`).

    >>> import sympy
    >>> x, y = sympy.symbols("x y")
    >>> structured([x*sympy.sin(y) + x**2]), structured([sympy.sin(x + y)]), structured([(x + 1)*(y + 1)])
    (False, True, True)
    """
    return written_shape(exprs) == "structured"


def _subexpressions(exprs):
    """Each distinct subexpression of ``exprs`` (SymPy expressions) once, the expressions' own first."""
    seen: set = set()
    stack = [sympy.sympify(e) for e in exprs]
    while stack:
        e = stack.pop()
        if e not in seen:
            seen.add(e)
            yield e
            stack.extend(e.args)
