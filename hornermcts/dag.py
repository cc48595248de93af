"""Hash-consed expression DAG: the optimized form of a polynomial.

A :class:`Dag` holds nodes of three kinds, each stored once (hash-consing):

``("pow", var, n)``
    the variable ``var`` raised to ``n >= 1`` (``n = 1`` is the variable itself);
``("mul", a, b)``
    the product of nodes ``a`` and ``b``;
``("add", (c1, a), (c2, b))``
    the sum ``c1*a + c2*b`` with exact scalar coefficients;
``("scale", c, a)``
    the product ``c*a`` of a positive number ``c != 1`` and node ``a``, made
    a node of its own so that products can use it (``(2*x)*y`` with ``2*x``
    shared); the Horner construction never makes one, the greedy
    optimizations of :mod:`hornermcts.greedy` do;

plus node 0, the constant 1.  A *value* is a pair ``(c, node)``: a scalar
times a node; each output (``roots``, one per polynomial optimized together;
``root`` is the first) is such a value.  Keys are canonical: the operands of a
sum or product are ordered by node id (``+`` and ``*`` commute), a sum's
coefficients are divided by their content (gcd, sign chosen so the first is
positive) and the content travels up to the parent as the scalar.  Two
occurrences of the same subexpression, up to sign and a numeric factor, are
therefore one node: building the DAG *is* common subexpression elimination
(value numbering).

Operation counts follow FORM's model (see :mod:`hornermcts.opcount`):

* a sum node costs one addition; an operand ``c*a`` with ``c`` not +-1 (and
  ``a`` not the constant) costs one multiplication, and with sharing each
  distinct ``|c|*a`` is computed once (FORM shares these too): the code
  realises this through :meth:`Dag.delivered`, which makes every such
  operand used more than once a scale node, so it becomes a temporary;
* a product node costs one multiplication; a scale node ``c*a`` costs one,
  and is the same value as an operand ``c*a`` of a sum (shared with it);
* an output costs one multiplication when its scalar is not +-1 (shared
  with an equal scaled operand elsewhere);
* powers: with sharing, the powers each variable needs are computed together
  by :func:`power_plan` (``x^2, x^3 = x^2*x, x^5 = x^3*x^2`` ...), never more
  than repeated squaring of each; without sharing each occurrence of ``x^n``
  costs :func:`~hornermcts.opcount.power_cost` ``(n)``;
* each distinct opaque piece (``sin(x + y)``, ``1/z``) is computed once, at
  the cost of its own arithmetic (:func:`~hornermcts.opcount.expression_count`).

Every emitted artifact (:mod:`hornermcts.codegen`, the views of
:mod:`hornermcts.views`) is written from :meth:`Dag.delivered` and contains
exactly :meth:`Dag.count` operations; the tests check this with a counter
that reads the emitted text.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd

from .coefficients import int_if_integral, quotient
from .opcount import OpCount, pieces_count, power_cost

__all__ = ["Dag", "power_plan", "content", "children"]

ONE = 0


def power_plan(exponents) -> list[tuple[int, int, int]]:
    """Steps ``(n, a, b)`` meaning ``x^n = x^a * x^b`` that compute all ``exponents``.

    Exponents are handled in increasing order; one already computed is free,
    one that is the sum of two computed ones costs one step, any other is
    built by left-to-right binary exponentiation reusing what exists.  So the
    plan never costs more than ``sum(power_cost(n))`` over the exponents.

    >>> power_plan([2, 3, 5])
    [(2, 1, 1), (3, 2, 1), (5, 3, 2)]
    >>> len(power_plan([8])), power_cost(8)
    (3, 3)
    """
    have = {1}
    steps: list[tuple[int, int, int]] = []
    for n in sorted(set(int(e) for e in exponents)):
        if n in have:
            continue
        pair = next((a for a in sorted(have, reverse=True) if n - a in have), None)
        if pair is not None:
            steps.append((n, pair, n - pair))
            have.add(n)
            continue
        cur = 1
        for bit in bin(n)[3:]:
            if 2 * cur not in have:
                steps.append((2 * cur, cur, cur))
                have.add(2 * cur)
            cur *= 2
            if bit == "1":
                if cur + 1 not in have:
                    steps.append((cur + 1, cur, 1))
                    have.add(cur + 1)
                cur += 1
    return steps


def content(a, b):
    """Exact content (gcd) of two rational scalars; 1 if either is not rational.

    >>> content(6, 4), content(Fraction(1, 2), Fraction(3, 4))
    (2, Fraction(1, 4))
    """
    if isinstance(a, int) and isinstance(b, int):
        return gcd(a, b) or 1
    if isinstance(a, (int, Fraction)) and isinstance(b, (int, Fraction)):
        a, b = Fraction(a), Fraction(b)
        g = Fraction(gcd(a.numerator, b.numerator), a.denominator * b.denominator // gcd(a.denominator, b.denominator))
        return int_if_integral(g)
    return 1


def _is_unit(c) -> bool:
    return c == 1 or c == -1


@dataclass
class Dag:
    """Hash-consed DAG of a polynomial's optimized form (see module docstring)."""

    symbols: tuple
    opaque: dict = field(default_factory=dict)
    nodes: list = field(default_factory=lambda: [("one",)])
    roots: list = field(default_factory=lambda: [(0, ONE)])
    _index: dict = field(default_factory=dict, repr=False)

    @property
    def root(self) -> tuple:
        """The (first) output value ``(scalar, node)``."""
        return self.roots[0]

    @root.setter
    def root(self, value: tuple) -> None:
        self.roots = [value]

    # ------------------------------------------------------------- building
    def _intern(self, key) -> int:
        node = self._index.get(key)
        if node is None:
            node = len(self.nodes)
            self.nodes.append(key)
            self._index[key] = node
        return node

    def power(self, var: int, n: int) -> int:
        """Node of ``symbols[var]**n``."""
        return self._intern(("pow", int(var), int(n)))

    def mul(self, a: int, b: int) -> int:
        """Node of the product of nodes ``a`` and ``b`` (the constant 1 is absorbed)."""
        if a == ONE:
            return b
        if b == ONE:
            return a
        return self._intern(("mul",) + ((a, b) if a <= b else (b, a)))

    def scale(self, c, a: int) -> tuple:
        """Value ``c*a`` as ``(sign, scale node)``, or ``(c, a)`` when ``c`` is +-1 or 0 or ``a`` the constant."""
        if c == 0 or a == ONE or _is_unit(c):
            return (c, a)
        return (1 if c > 0 else -1), self._intern(("scale", abs(c), a))

    def add(self, x: tuple, y: tuple, *, use_content: bool = True) -> tuple:
        """Value ``x + y`` of two values ``(c, node)``: ``(scalar, sum node)``.

        The coefficients are divided by their content (when ``use_content``)
        and by a sign so that the operand with the smaller id has a positive
        coefficient; what was divided out is returned as the scalar.
        """
        (c1, a), (c2, b) = (x, y) if x[1] <= y[1] else (y, x)
        if a == b:
            raise ValueError("a sum of one node with itself is never built by a Horner scheme")
        g = content(abs(c1), abs(c2)) if use_content else 1
        if c1 < 0:
            g = -g
        c1, c2 = _divide(c1, g), _divide(c2, g)
        return g, self._intern(("add", (c1, a), (c2, b)))

    # ------------------------------------------------------------- counting
    def uses(self) -> list[int]:
        """How many times each node is used as an operand (each output counts once)."""
        n_use = [0] * len(self.nodes)
        for _, node in self.roots:
            n_use[node] += 1
        for key in self.nodes:
            for child in children(key):
                n_use[child] += 1
        return n_use

    def count(self, *, shared: bool = True) -> OpCount:
        """Operations to evaluate the DAG in FORM's model.

        ``shared=True`` counts every node once (after CSE) with powers
        computed by :func:`power_plan`: the count of :meth:`delivered`, the
        form every emitted artifact is written from; ``shared=False`` counts
        the plain Horner form, every occurrence of a subexpression again.
        """
        if shared:
            delivered = self.delivered()
            if delivered is not self:
                return delivered.count()
        pieces = self.pieces_count()
        adds, mults, pows = pieces.additions, pieces.multiplications, pieces.powers
        if shared:
            needed: dict[int, set] = {}
            order = self.reachable()
            for node in order:
                key = self.nodes[node]
                kind = key[0]
                if kind == "add":
                    adds += 1
                elif kind == "mul":
                    mults += 1
                elif kind == "pow":
                    needed.setdefault(key[1], set()).add(key[2])
            mults += len(self._scaled_uses(order))  # scale nodes included
            pows += sum(len(power_plan(ns)) for ns in needed.values())
            return OpCount(adds, mults, pows)
        mults += sum(1 for c, root in self.roots if root != ONE and not _is_unit(c))
        times = self.tree_multiplicity()
        for node, t in enumerate(times):
            if not t:
                continue
            key = self.nodes[node]
            kind = key[0]
            if kind == "add":
                adds += t
                mults += t * sum(1 for cc, ch in key[1:] if ch != ONE and not _is_unit(cc))
            elif kind in ("mul", "scale"):
                mults += t
            elif kind == "pow":
                pows += t * power_cost(key[2])
        return OpCount(adds, mults, pows)

    def pieces_count(self) -> OpCount:
        """Operations inside the opaque pieces, each distinct piece once (``1/z``: one)."""
        return pieces_count(self.opaque)

    def _scaled_uses(self, order) -> Counter:
        """``{(|c|, node): uses}`` of the products by a number: sum operands, scale nodes, outputs."""
        uses = Counter((abs(c), root) for c, root in self.roots if root != ONE and not _is_unit(c))
        for node in order:
            key = self.nodes[node]
            if key[0] == "add":
                uses.update((abs(c), ch) for c, ch in key[1:] if ch != ONE and not _is_unit(c))
            elif key[0] == "scale":
                uses[key[1], key[2]] += 1
        return uses

    def delivered(self) -> "Dag":
        """This DAG with every coefficient operand ``c*a`` used more than once made a scale node.

        :meth:`count` charges each distinct ``|c|*a`` once (it is computed
        once and shared, as FORM does), whether it is a sum's operand, a
        scale node or an output.  In the DAG returned every sum operand or
        output that still carries a coefficient is its only use, and each
        shared one is a ``("scale", |c|, a)`` node (the sign stays with the
        user); code that computes each node once and writes the operands
        inline therefore has exactly ``count()`` operations.  Sums that
        become equal on the way are merged (hash-consing).  The DAG itself
        is returned when there is nothing to share.

        >>> import sympy
        >>> from hornermcts.parse import from_sympy
        >>> from hornermcts.horner import horner_dag
        >>> w, x, y, z = sympy.symbols("w x y z")
        >>> dag = horner_dag(from_sympy(x*(y + 2*z) + w + 2*z), ["x"])   # 2*z in two sums
        >>> out = dag.delivered()
        >>> [key for key in out.nodes if key[0] == "scale"], out.count() == dag.count()
        ([('scale', 2, 3)], True)
        """
        order = self.reachable()
        seen = self._scaled_uses(order)
        if all(n == 1 for n in seen.values()):
            return self
        out = Dag(self.symbols, dict(self.opaque))
        new = {ONE: ONE}
        for node in order:
            key = self.nodes[node]
            kind = key[0]
            if kind == "one":
                continue
            if kind == "pow":
                new[node] = out._intern(key)
            elif kind == "mul":
                new[node] = out.mul(new[key[1]], new[key[2]])
            elif kind == "scale":
                new[node] = out._intern(("scale", key[1], new[key[2]]))
            else:
                operands = []
                for c, ch in key[1:]:
                    if ch != ONE and not _is_unit(c) and seen[abs(c), ch] > 1:
                        operands.append((1 if c > 0 else -1, out._intern(("scale", abs(c), new[ch]))))
                    else:
                        operands.append((c, new[ch]))
                new[node] = out._intern(("add",) + tuple(operands))
        out.roots = []
        for c, node in self.roots:
            if node != ONE and not _is_unit(c) and seen[abs(c), node] > 1:
                out.roots.append((1 if c > 0 else -1, out._intern(("scale", abs(c), new[node]))))
            else:
                out.roots.append((c, new[node]))
        # writing c*a as a scale node can make two sums equal (hash-consing merges them, as in
        # 2*a + b next to s + b with s = ("scale", 2, a)), and merged operands may share anew
        return out.delivered()

    def reachable(self) -> list[int]:
        """Ids of the nodes the outputs depend on, operands before users."""
        seen = set()
        out = []
        stack = [(node, False) for _, node in reversed(self.roots)]
        while stack:
            node, done = stack.pop()
            if done:
                out.append(node)
                continue
            if node in seen:
                continue
            seen.add(node)
            stack.append((node, True))
            for child in children(self.nodes[node]):
                if child not in seen:
                    stack.append((child, False))
        return out

    def tree_multiplicity(self) -> list[int]:
        """How often each node occurs in the fully expanded (unshared) tree."""
        times = [0] * len(self.nodes)
        for _, node in self.roots:
            times[node] += 1
        for node in reversed(self.reachable()):
            t = times[node]
            for child in children(self.nodes[node]):
                times[child] += t
        return times


def children(key) -> tuple:
    """The operand nodes of the node with key ``key`` (none for a power of a variable or ONE).

    >>> children(("add", (1, 3), (-2, 5))), children(("mul", 3, 4)), children(("pow", 0, 2))
    ((3, 5), (3, 4), ())
    """
    kind = key[0]
    if kind == "mul":
        return key[1:]
    if kind == "add":
        return (key[1][1], key[2][1])
    if kind == "scale":
        return (key[2],)
    return ()


def _divide(c, g):
    """Exact ``c / g`` where ``g`` divides ``c`` (or is +-1)."""
    if g == 1:
        return c
    if g == -1:
        return -c
    return quotient(c, g)
