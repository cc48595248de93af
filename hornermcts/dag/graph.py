"""Hash-consed expression DAG: the optimized form of a polynomial.

A :class:`Dag` holds nodes of five kinds (:class:`Node` and its subclasses),
each stored once (hash-consing):

:class:`One` ``()``
    the constant 1, node 0 of every DAG;
:class:`Pow` ``(var, n)``
    the variable ``var`` raised to ``n >= 1`` (``n = 1`` is the variable itself);
:class:`Mul` ``(a, b)``
    the product of nodes ``a`` and ``b``;
:class:`Add` ``((c1, a), (c2, b))``
    the sum ``c1*a + c2*b`` with exact scalar coefficients;
:class:`Scale` ``(c, a)``
    the product ``c*a`` of a positive number ``c != 1`` and node ``a``, made
    a node of its own so that products can use it (``(2*x)*y`` with ``2*x``
    shared); the Horner construction never makes one, the greedy
    optimizations of :mod:`hornermcts.dag.greedy` do.

A *value* is a pair ``(c, node)``: a scalar times a node; each output
(``roots``, one per polynomial optimized together; ``root`` is the first) is
such a value.  Keys are canonical: the operands of a sum or product are
ordered by node id (``+`` and ``*`` commute), a sum's coefficients are divided
by their content (gcd, sign chosen so the first is positive) and the content
travels up to the parent as the scalar.  Two occurrences of the same
subexpression, up to sign and a numeric factor, are therefore one node:
building the DAG *is* common subexpression elimination (value numbering).
Every reader of a DAG (the counts here, :mod:`hornermcts.dag.views`,
:mod:`hornermcts.codegen`, :mod:`hornermcts.dag.greedy`) visits it through
:meth:`Dag.walk` and tells the kinds apart by their types.

Operation counts follow FORM's model (see :mod:`hornermcts.cost.counting`):

* a sum node costs one addition; an operand ``c*a`` with ``c`` not +-1 (and
  ``a`` not the constant) costs one multiplication, and with sharing each
  distinct ``|c|*a`` is computed once (FORM shares these too): the code
  realises this through :meth:`Dag.delivered`, which makes every such
  operand used more than once a scale node, so it becomes a temporary;
* a product node costs one multiplication; a scale node ``c*a`` costs one,
  and is the same value as an operand ``c*a`` of a sum (shared with it);
* an output costs one multiplication when its scalar is not +-1 (shared
  with an equal scaled operand elsewhere);
* powers: with sharing, the powers each variable needs
  (:meth:`Dag.powers_needed`) are computed together by :func:`~hornermcts.cost.counting.power_plan`
  (``x^2, x^3 = x^2*x, x^5 = x^3*x^2`` ...), never more than repeated
  squaring of each; without sharing each occurrence of ``x^n`` costs
  :func:`~hornermcts.cost.counting.power_cost` ``(n)``;
* each distinct opaque piece (``sin(x + y)``, ``1/z``) is computed once, at
  the cost of its own arithmetic (:func:`~hornermcts.cost.counting.expression_count`).

Every emitted artifact (:mod:`hornermcts.codegen`, the views of
:mod:`hornermcts.dag.views`) is written from :meth:`Dag.delivered` and contains
exactly :meth:`Dag.count` operations; the tests check this with a counter
that reads the emitted text.

Examples
--------
>>> import sympy
>>> x, y = sympy.symbols("x y")
>>> dag = Dag((x, y))
>>> s, total = dag.add((3, dag.power(0, 2)), (-6, dag.power(1, 1)))   # 3*x^2 - 6*y = 3*(x^2 - 2*y)
>>> s, dag.nodes[total], dag.nodes[total].children
(3, Add((1, 1), (-2, 2)), (1, 2))
>>> dag.roots = [(s, dag.mul(total, dag.power(1, 1)))]
>>> list(dag.walk())
[(2, Pow(1, 1)), (1, Pow(0, 2)), (3, Add((1, 1), (-2, 2))), (4, Mul(2, 3))]
>>> dag.count().total     # x^2, 2*y, the sum, the product, 3*(...)
5
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd
from operator import itemgetter
from typing import ClassVar, Iterator

import numpy as np

from ..polynomial.coefficients import int_if_integral, quotient
from ..collector import paused
from ..deadline import check_hard
from ..cost.counting import OpCount, charge, is_unit, pieces_count, power_cost, power_steps
from . import arrays as node_arrays

__all__ = ["Dag", "Walk", "Node", "One", "Pow", "Mul", "Add", "Scale", "content"]

ONE = 0


class Node(tuple):
    """A node of a :class:`Dag`: the tuple of its kind's tag and its fields.

    The tag (``"mul"`` ...) keeps the kinds apart as hash-consing keys
    (``Mul(3, 5)`` is not ``Pow(3, 5)``), and with it a node equals and
    hashes as the plain tuple ``("mul", 3, 5)``: interning compares keys in
    C, and :class:`Dag`'s builders look a node up by that tuple, making the
    object only for a new node.  Read a node by its type and fields, never
    by the tag: ``match node: case Mul(a, b): ...`` where SymPy does the
    work anyway (the views, the code), ``isinstance`` in the counts and the
    greedy step, which read every node of large DAGs and where a ``match``
    on classes costs about twice as much.  The fields are
    :func:`operator.itemgetter` properties, read in C for the same reason.
    """

    __slots__ = ()
    tag: ClassVar[str]

    #: The ids of the nodes this one computes from: none for a leaf (an empty slice, read in C).
    children = property(itemgetter(slice(0, 0)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}{tuple(self[1:])!r}"

    def __getnewargs__(self) -> tuple:
        # pickle and copy call cls.__new__(cls, *fields): the tag is not a field
        return tuple(self[1:])


class One(Node):
    """The constant 1 (node :data:`ONE`, id 0, of every DAG)."""

    __slots__ = ()
    tag = "one"

    def __new__(cls) -> One:
        return tuple.__new__(cls, (cls.tag,))


class Pow(Node):
    """``symbols[var]**n`` with ``n >= 1`` (``n = 1``: the variable itself)."""

    __slots__ = ()
    __match_args__ = ("var", "n")
    tag = "pow"

    def __new__(cls, var: int, n: int) -> Pow:
        return tuple.__new__(cls, (cls.tag, var, n))

    var = property(itemgetter(1), doc="The variable's column in the DAG's ``symbols``.")
    n = property(itemgetter(2), doc="The exponent.")


class Mul(Node):
    """The product of nodes ``a`` and ``b`` (``a <= b``; ``a == b`` is a square)."""

    __slots__ = ()
    __match_args__ = ("a", "b")
    tag = "mul"

    def __new__(cls, a: int, b: int) -> Mul:
        return tuple.__new__(cls, (cls.tag, a, b))

    a = property(itemgetter(1), doc="The first factor's id.")
    b = property(itemgetter(2), doc="The second factor's id.")
    children = property(itemgetter(slice(1, 3)), doc="``(a, b)``.")


class Add(Node):
    """The sum ``c1*a + c2*b`` of two operands ``first = (c1, a)``, ``second = (c2, b)``."""

    __slots__ = ()
    __match_args__ = ("first", "second")
    tag = "add"

    def __new__(cls, first: tuple, second: tuple) -> Add:
        return tuple.__new__(cls, (cls.tag, first, second))

    first = property(itemgetter(1), doc="The first operand ``(c1, a)``: a coefficient and a node id.")
    second = property(itemgetter(2), doc="The second operand ``(c2, b)``.")
    operands = property(itemgetter(slice(1, 3)), doc="``(first, second)``.")

    @property
    def children(self) -> tuple[int, ...]:
        """``(a, b)``."""
        return (self[1][1], self[2][1])


class Scale(Node):
    """The product ``c*a`` of a positive number ``c != 1`` and node ``a``."""

    __slots__ = ()
    __match_args__ = ("c", "a")
    tag = "scale"

    def __new__(cls, c, a: int) -> Scale:
        return tuple.__new__(cls, (cls.tag, c, a))

    c = property(itemgetter(1), doc="The number.")
    a = property(itemgetter(2), doc="The node's id.")
    children = property(itemgetter(slice(2, 3)), doc="``(a,)``.")


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


_KIND = {One: node_arrays.ONE, Pow: node_arrays.POW, Mul: node_arrays.MUL, Add: node_arrays.ADD,
         Scale: node_arrays.SCALE}


def _is_scaled(c, node: int) -> bool:
    """True if the value ``c*node`` is a product by a number: one multiplication in FORM's model."""
    return node != ONE and not is_unit(c)


def _is_negated(c, node: int) -> bool:
    """True if the value ``c*node`` carries a sign (a negation; a negative constant is a number)."""
    return node != ONE and bool(c < 0)


@dataclass
class Dag:
    """Hash-consed DAG of a polynomial's optimized form (see module docstring)."""

    symbols: tuple
    opaque: dict = field(default_factory=dict)
    nodes: list = field(default_factory=lambda: [One()])
    roots: list = field(default_factory=lambda: [(0, ONE)])
    _index: dict = field(default_factory=dict, repr=False)
    _memo: dict = field(default_factory=dict, repr=False, compare=False)

    def _remembered(self, what: str, make):
        """``make()``, remembered until the DAG changes (nodes are only ever appended; outputs may be reset)."""
        hit = self._memo.get(what)
        if hit is None or hit[0] != (len(self.nodes), tuple(self.roots)):
            return self._remember(what, make())
        return hit[1]

    def _known(self, what: str):
        """What is remembered as ``what`` of the DAG as it is now, or None."""
        hit = self._memo.get(what)
        return hit[1] if hit is not None and hit[0] == (len(self.nodes), tuple(self.roots)) else None

    def _remember(self, what: str, value):
        """Remember ``value`` as ``what`` of the DAG as it is now; return it."""
        self._memo[what] = ((len(self.nodes), tuple(self.roots)), value)
        return value

    @property
    def root(self) -> tuple:
        """The (first) output value ``(scalar, node)``."""
        return self.roots[0]

    @root.setter
    def root(self, value: tuple) -> None:
        self.roots = [value]

    # ------------------------------------------------------------- building
    def _intern(self, key: tuple, kind: type[Node] | None = None) -> int:
        """The id of the node ``key``, added if new.

        ``key`` is a node, or the plain tuple ``(kind.tag, *fields)`` of a node
        of type ``kind``: a node equals its plain tuple, so the builders look
        up without making the object, which only a new node needs (most
        lookups of a Horner construction find one).
        """
        found = self._index.get(key)
        if found is None:
            node = key if kind is None else tuple.__new__(kind, key)
            found = len(self.nodes)
            self.nodes.append(node)
            self._index[node] = found
        return found

    def power(self, var: int, n: int) -> int:
        """Node of ``symbols[var]**n``."""
        return self._intern((Pow.tag, int(var), int(n)), Pow)

    def mul(self, a: int, b: int) -> int:
        """Node of the product of nodes ``a`` and ``b`` (the constant 1 is absorbed)."""
        if a == ONE:
            return b
        if b == ONE:
            return a
        return self._intern((Mul.tag, a, b) if a <= b else (Mul.tag, b, a), Mul)

    def monomial(self, factors, node: int = ONE) -> int:
        """Node of ``node`` times the powers ``factors`` = ``[(var, n), ...]``, innermost (first applied) first.

        The same nodes as ``mul(power(var, n), node)`` applied factor by
        factor; the builders' hot loop (a Horner scheme ends every term in a
        chain of them), with the lookups inlined.
        """
        index, pow_tag, mul_tag = self._index, Pow.tag, Mul.tag
        for var, n in factors:
            key = (pow_tag, var, n)
            p = index.get(key)
            if p is None:
                p = self._intern(key, Pow)
            if node == ONE:
                node = p
                continue
            key = (mul_tag, p, node) if p <= node else (mul_tag, node, p)
            found = index.get(key)
            node = self._intern(key, Mul) if found is None else found
        return node

    def scale(self, c, a: int) -> tuple:
        """Value ``c*a`` as ``(sign, scale node)``, or ``(c, a)`` when ``c`` is +-1 or 0 or ``a`` the constant."""
        if c == 0 or a == ONE or is_unit(c):
            return (c, a)
        return (1 if c > 0 else -1), self._intern((Scale.tag, abs(c), a), Scale)

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
        return g, self._intern((Add.tag, (c1, a), (c2, b)), Add)

    # ------------------------------------------------------------- visiting
    def walk(self) -> Walk:
        """The nodes the outputs depend on, each once, operands before users: ``(id, node)`` pairs.

        The one traversal of a DAG: counting, :meth:`delivered`, the views,
        the code and the greedy step all read the DAG in this order.
        Remembered until the DAG changes: counting a result walks it, and
        writing its code then reads the same walk (a third of the time of
        writing C from a 25,000-operation result).
        """
        return self._remembered("walk", self._walk)

    def _walk(self) -> Walk:
        """:meth:`walk`, made: a depth-first search, each node out after its operands (last operand first)."""
        check_hard()  # a large DAG's walk and what reads it take seconds: the call's hard end is looked at first
        nodes = self.nodes
        seen = bytearray(len(nodes))
        order: list[int] = []
        stack = [node for _, node in reversed(self.roots)]
        pop, push, extend, out = stack.pop, stack.append, stack.extend, order.append
        while stack:
            node = pop()
            if node < 0:  # ~id, pushed below its operands: they are out, so it goes out
                out(~node)
            elif not seen[node]:  # an operand already out is pushed anyway and skipped here
                seen[node] = 1
                push(~node)
                extend(nodes[node].children)
        return Walk(order, nodes)

    def _walk_of(self, arrays: node_arrays.NodeArrays) -> Walk:
        """:meth:`walk`, made from the nodes' arrays (the same order, by a compiled pass)."""
        check_hard()
        return Walk(None, self.nodes, node_arrays.walk_order(arrays, self.roots))

    def arrays(self) -> node_arrays.NodeArrays:
        """The nodes as arrays (:class:`~hornermcts.dag.arrays.NodeArrays`), remembered until the DAG changes:
        :meth:`delivered`, the count and the code read them (a pass over arrays instead of each a pass over
        the node objects)."""
        return self._remembered("arrays", lambda: node_arrays.NodeArrays(self.nodes, _KIND))

    def reachable(self) -> list[int]:
        """Ids of the nodes the outputs depend on, operands before users (those of :meth:`walk`)."""
        return list(self.walk().ids)  # a copy: the walk is remembered

    def powers_needed(self) -> dict[int, dict[int, int]]:
        """``{var: {n: node id}}`` of the powers ``x^n``, ``n >= 2``, the outputs depend on.

        Variables and exponents come in :meth:`walk` order; each variable's
        exponents are computed together by :func:`~hornermcts.cost.counting.power_plan`.
        """
        return self._powers(self.walk())

    def _powers(self, walk) -> dict[int, dict[int, int]]:
        """:meth:`powers_needed` from a :meth:`walk` already made (from the nodes' arrays when they are known)."""
        needed: dict[int, dict[int, int]] = {}
        arrays = self._known("arrays")
        if arrays is not None:
            order = walk.array()
            nodes = self.nodes
            for node_id in order[(arrays.kind[order] == node_arrays.POW) & (arrays.b[order] > 1)].tolist():
                _, var, n = nodes[node_id]
                needed.setdefault(var, {})[n] = node_id
            return needed
        for node_id, node in walk:
            if type(node) is Pow and node[2] > 1:  # type and field in place
                needed.setdefault(node.var, {})[node.n] = node_id
        return needed

    # ------------------------------------------------------------- counting
    def uses(self) -> list[int]:
        """How many times each node is used as an operand (each output counts once).

        Every node's operands count, those of a node no output reaches too
        (a DAG built by hand may hold one), so this reads :attr:`nodes`, not
        :meth:`walk`: the code makes a node used twice a temporary.  The rule
        is :func:`~hornermcts.dag.arrays.node_uses` over the nodes' arrays
        (:meth:`arrays`), which the code's lowering reads too.
        """
        return node_arrays.node_uses(self.arrays(), self.roots).tolist()

    def count(self, *, shared: bool = True) -> OpCount:
        """Operations to evaluate the DAG in FORM's model.

        ``shared=True`` counts every node once (after CSE) with powers
        computed by :func:`~hornermcts.cost.counting.power_plan`: the count of :meth:`delivered`, the
        form every emitted artifact is written from; ``shared=False`` counts
        the plain Horner form, every occurrence of a subexpression again.
        Remembered until the DAG changes.
        """
        if not shared:
            return self._remembered("tree count", self._tree_count)
        out = self.delivered()  # which tallied its walk on the way: the count reads that tally
        return out._remembered("count", lambda: out._shared_count(out.walk()))

    def _tally(self, walk) -> tuple[int, int, int, int, bool]:
        """:func:`~hornermcts.dag.arrays.tally` of the walk: sums, products, distinct products by a number,
        signs, and whether such a product is used twice.  Remembered: :meth:`delivered` asks first, the
        count later, if at all (writing the code of a DAG never counted does not)."""
        check_hard()
        return self._remembered("tally", lambda: node_arrays.tally(self.arrays(), walk.array(), self.roots,
                                                                     _is_scaled, _is_negated))

    def _shared_count(self, walk) -> OpCount:
        """:meth:`count` of a DAG that is its own :meth:`delivered`, from its walk.

        Each sum node one addition, each product node and each distinct product
        by a number (scale nodes included) one multiplication, each sign a
        negation, each step of the power plans a power step, priced by
        :func:`~hornermcts.cost.counting.charge`; the pieces on top.
        """
        sums, products, scaled, signs, _ = self._tally(walk)
        return self.pieces_count() + charge(
            additions=sums, multiplications=products + scaled, negations=signs,
            power_steps=sum(1 for _ in power_steps(self._powers(walk))))

    def _tree_count(self) -> OpCount:
        """``count(shared=False)``: the plain Horner form, every occurrence of a subexpression again."""
        adds = steps = 0
        mults = sum(1 for c, root in self.roots if _is_scaled(c, root))
        signs = sum(1 for c, root in self.roots if _is_negated(c, root))
        for node_id, times in enumerate(self.tree_multiplicity()):
            if not times:
                continue
            node = self.nodes[node_id]
            if isinstance(node, Add):
                adds += times
                for c, child in node.operands:
                    mults += times * _is_scaled(c, child)
                    signs += times * _is_negated(c, child)
            elif isinstance(node, (Mul, Scale)):
                mults += times
            elif isinstance(node, Pow):
                steps += times * power_cost(node.n)
        return self.pieces_count() + charge(additions=adds, multiplications=mults, negations=signs,
                                            power_steps=steps)

    def pieces_count(self) -> OpCount:
        """Operations inside the opaque pieces, each distinct piece once (``1/z``: one)."""
        return pieces_count(self.opaque)

    def _scaled_uses(self, walk) -> tuple[Counter, int]:
        """``{(|c|, node): uses}`` of the products by a number (sum operands, scale nodes, outputs), and the
        number of signs (sum operands and outputs ``c*node`` with ``c < 0``)."""
        uses = Counter((abs(c), root) for c, root in self.roots if _is_scaled(c, root))
        signs = sum(1 for c, root in self.roots if _is_negated(c, root))
        for _, node in walk:  # _is_scaled written out, the fields read in place: one pass per emission of a new DAG
            kind = type(node)
            if kind is Add:
                _, (c1, a), (c2, b) = node
                if a != ONE and c1 != 1:
                    if c1 != -1:
                        uses[abs(c1), a] += 1
                    if c1 < 0:
                        signs += 1
                if b != ONE and c2 != 1:
                    if c2 != -1:
                        uses[abs(c2), b] += 1
                    if c2 < 0:
                        signs += 1
            elif kind is Scale:
                uses[node[1], node[2]] += 1
        return uses, signs

    def delivered(self) -> "Dag":
        """This DAG with every coefficient operand ``c*a`` used more than once made a scale node.

        :meth:`count` charges each distinct ``|c|*a`` once (it is computed
        once and shared, as FORM does), whether it is a sum's operand, a
        scale node or an output.  In the DAG returned every sum operand or
        output that still carries a coefficient is its only use, and each
        shared one is a :class:`Scale` node ``(|c|, a)`` (the sign stays with
        the user); code that computes each node once and writes the operands
        inline therefore has exactly ``count()`` operations.  Sums that
        become equal on the way are merged (hash-consing).  The DAG itself
        is returned when there is nothing to share.

        >>> import sympy
        >>> from hornermcts.parse import from_sympy
        >>> from hornermcts.dag.horner import horner_dag
        >>> w, x, y, z = sympy.symbols("w x y z")
        >>> dag = horner_dag(from_sympy(x*(y + 2*z) + w + 2*z), ["x"])   # 2*z in two sums
        >>> out = dag.delivered()
        >>> out.nodes[2], out.nodes[-1], out.count() == dag.count()      # z, and 2*z computed once
        (Pow(1, 1), Scale(2, 2), True)
        >>> dag.nodes[3], out.nodes[3]                                   # w + 2*z, at its id: w + s
        (Add((1, 1), (2, 2)), Add((1, 1), (1, 9)))
        """
        return self._remembered("delivered", self._delivered_now)

    def _delivered_now(self) -> "Dag":
        with paused():  # copies of millions of acyclic nodes: the collector's passes would find nothing
            arrays = self.arrays()
            walk = self._remembered("walk", lambda: self._walk_of(arrays))
            if not self._tally(walk)[-1]:  # no product by a number used twice
                return self
            return self._delivered(walk)

    def _delivered(self, walk) -> "Dag":
        """:meth:`delivered` from this DAG's :meth:`walk` (some product by a number used twice or more).

        A copy that shares the nodes: each sum with a shared scaled operand
        (:func:`~hornermcts.dag.arrays.shared_operands`, in the walk's order)
        is replaced, at its id, by the sum of the scale node; the users keep
        their ids.  When a replaced sum equals one that exists (they must be
        merged, and their users may merge in turn), every node is rebuilt
        instead (:meth:`_rebuilt`).
        """
        out = Dag(self.symbols, dict(self.opaque), list(self.nodes), list(self.roots), dict(self._index))
        index, nodes = out._index, self.nodes
        sums, first, second, outputs = node_arrays.shared_operands(self.arrays(), walk.array(), self.roots,
                                                                   _is_scaled, _is_negated)

        def value(c, node: int, shared: bool) -> tuple:
            return ((1 if c > 0 else -1), out._intern((Scale.tag, abs(c), node), Scale)) if shared else (c, node)

        for node_id, shared1, shared2 in zip(sums, first, second):
            node = nodes[node_id]
            (c1, a), (c2, b) = node.operands
            key = (Add.tag, value(c1, a, shared1), value(c2, b, shared2))
            if key in index:
                return self._rebuilt(walk, self._scaled_uses(walk)[0])
            del index[node]
            out.nodes[node_id] = replaced = tuple.__new__(Add, key)
            index[replaced] = node_id
        out.roots = [value(c, node, shared) for (c, node), shared in zip(self.roots, outputs)]
        return out.delivered()

    def _rebuilt(self, walk, seen: Counter) -> "Dag":
        """:meth:`delivered` by building every node anew (merged sums merge their users)."""
        out = Dag(self.symbols, dict(self.opaque))
        new = {ONE: ONE}

        def value(c, node: int) -> tuple:
            """The value ``c*node`` of ``out``: a shared product by a number is a scale node."""
            if _is_scaled(c, node) and seen[abs(c), node] > 1:
                return (1 if c > 0 else -1), out._intern((Scale.tag, abs(c), new[node]), Scale)
            return c, new[node]

        for node_id, node in walk:
            if isinstance(node, Pow):
                new[node_id] = out._intern(node)
            elif isinstance(node, Mul):
                new[node_id] = out.mul(new[node.a], new[node.b])
            elif isinstance(node, Scale):
                new[node_id] = out._intern((Scale.tag, node.c, new[node.a]), Scale)
            elif isinstance(node, Add):
                (c1, a), (c2, b) = node.operands
                new[node_id] = out._intern((Add.tag, value(c1, a), value(c2, b)), Add)
        out.roots = [value(c, node) for c, node in self.roots]
        # writing c*a as a scale node can make two sums equal (hash-consing merges them, as in
        # 2*a + b next to s + b with s = Scale(2, a)), and merged operands may share anew
        return out.delivered()

    def tree_multiplicity(self) -> list[int]:
        """How often each node occurs in the fully expanded (unshared) tree."""
        times = [0] * len(self.nodes)
        for _, node in self.roots:
            times[node] += 1
        for node_id, node in reversed(self.walk()):
            t = times[node_id]
            for child in node.children:
                times[child] += t
        return times


class Walk:
    """The nodes of a :class:`Dag` its outputs depend on, operands before users (:meth:`Dag.walk`).

    Iterating gives ``(id, node)`` pairs, as often as needed; ``reversed``
    gives users before operands; ``ids`` is the list of ids.  The pairs are
    made as they are read (``zip`` reuses one tuple), not stored: a list of
    them would keep one more object per node for the garbage collector to
    scan, and the counts walk DAGs of 10^5 nodes.

    >>> import sympy
    >>> dag = Dag(sympy.symbols("x y"))
    >>> dag.roots = [(2, dag.mul(dag.power(0, 1), dag.power(1, 3)))]
    >>> walk = dag.walk()
    >>> list(walk), walk.ids, len(walk)
    ([(2, Pow(1, 3)), (1, Pow(0, 1)), (3, Mul(1, 2))], [2, 1, 3], 3)
    """

    __slots__ = ("_ids", "_nodes", "_array")

    def __init__(self, ids: list[int] | None, nodes: list, array=None):
        self._ids = ids  # or None, made from the array when first asked (the code reads the array only)
        self._nodes = nodes
        self._array = array

    @property
    def ids(self) -> list[int]:
        """The ids, in order (a list, made once)."""
        if self._ids is None:
            self._ids = self._array.tolist()
        return self._ids

    def array(self):
        """The ids as a NumPy array (int64), made once."""
        if self._array is None:
            self._array = np.array(self._ids, np.int64)
        return self._array

    def __iter__(self) -> Iterator[tuple[int, Node]]:
        return zip(self.ids, map(self._nodes.__getitem__, self.ids))

    def __reversed__(self) -> Iterator[tuple[int, Node]]:
        ids = self.ids[::-1]
        return zip(ids, map(self._nodes.__getitem__, ids))

    def __len__(self) -> int:
        return len(self._ids) if self._ids is not None else len(self._array)


def _divide(c, g):
    """Exact ``c / g`` where ``g`` divides ``c`` (or is +-1)."""
    if g == 1:
        return c
    if g == -1:
        return -c
    return quotient(c, g)
