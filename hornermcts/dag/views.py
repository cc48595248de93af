"""Views of an optimized DAG: SymPy assignments, one nested expression, a graph.

Every view is exactly equal to the input polynomial, with the opaque
(non-polynomial) pieces restored.  The assignments and the graph are written
from :meth:`~hornermcts.dag.Dag.delivered` and realise exactly
``dag.count()`` operations: each shared subexpression, each shared scaled
operand ``c*a`` and each power step (``x^3 = x^2*x``) is a temporary, and an
opaque piece with arithmetic inside (``1/z``, ``sin(x + y)``) is computed
once.  The nested expression has no temporaries by nature: it repeats what
is shared, and its own count is :func:`~hornermcts.cost.counting.expression_count`
of it (``>= dag.count()``).

Examples
--------
>>> import sympy
>>> from hornermcts.polynomial import Polynomial
>>> from hornermcts.dag.horner import horner_dag
>>> x, y = sympy.symbols("x y")
>>> p = Polynomial((x, y), [[2, 1], [3, 1], [2, 0], [3, 0]], [1, 1, 3, 3])
>>> dag = horner_dag(p, [x, y])
>>> to_expression(dag)
x**2*(x*(y + 3) + (y + 3))
>>> replacements, (out,) = to_assignments(dag)
>>> replacements
[(t0, y + 3)]
>>> out
x**2*(t0*x + t0)
>>> dag.count().total
5
>>> graph = to_networkx(dag)
>>> sum(1 for _, op in graph.nodes(data="op") if op in ("add", "mul"))
5
"""
from __future__ import annotations

from ..errors import OptionError

from collections import Counter
from fractions import Fraction
from typing import Iterator, Mapping

import sympy

from ..polynomial.coefficients import to_fraction, to_number
from ..cost.counting import expression_count, power_steps, scaled
from .graph import ONE, Add, Dag, Mul, Pow, Scale

__all__ = ["to_expression", "to_expressions", "to_assignments", "to_networkx", "program_graph", "evaluate_dag"]


def _negation(expr) -> sympy.Expr:
    return sympy.Mul(sympy.S.NegativeOne, expr, evaluate=False)


def _product(c, expr) -> sympy.Expr:
    return sympy.Mul(to_number(c), expr, evaluate=False)


def _negated_value(value: tuple) -> tuple:
    """``(sign, node)`` negated."""
    return -value[0], value[1]


def scaled_expr(c, expr) -> sympy.Expr:
    """``c*expr`` kept as a product (SymPy would distribute a number over a sum).

    :func:`~hornermcts.cost.counting.scaled` with the sign a factor -1, any
    other coefficient the exact SymPy number.

    >>> x, y = sympy.symbols("x y")
    >>> scaled_expr(-1, x + y), scaled_expr(-2, x + y), scaled_expr(1, x + y)
    (-(x + y), -2*(x + y), x + y)
    """
    return scaled(c, expr, _negation, _product)


def _square(a) -> sympy.Expr:
    """``a**2``; ``(b**n)**2`` is written ``b**(2n)``: one squaring either way.

    (SymPy would not see ``(b**n)**2`` equal ``b**(2n)``.)
    """
    if a.is_Pow and a.exp.is_Integer and a.exp > 0:
        return sympy.Pow(a.base, 2 * a.exp, evaluate=False)
    return sympy.Pow(a, 2, evaluate=False)


def _node_expression(node, operand, power) -> sympy.Expr:
    """The expression of one node, its operands given by ``operand(id)``, its powers by ``power(var, n)``."""
    match node:
        case Pow(var, n):
            return power(var, n)
        case Mul(a, b):
            if a == b:
                return _square(operand(a))
            return sympy.Mul(operand(a), operand(b), evaluate=False)
        case Scale(c, a):
            return scaled_expr(c, operand(a))
        case Add():
            parts = [to_number(c) if child == ONE else scaled_expr(c, operand(child)) for c, child in node.operands]
            return sympy.Add(*parts, evaluate=False)
    return sympy.S.One


def _outputs(dag: Dag, names) -> list:
    return [to_number(c) if root == ONE else scaled_expr(c, names[root]) for c, root in dag.roots]


def to_expressions(dag: Dag) -> list:
    """Each output of the DAG as one nested SymPy expression, no temporaries.

    The opaque pieces stand in place; nothing is re-evaluated, so the
    expression is the optimized form as built (its operations:
    :func:`~hornermcts.cost.counting.expression_count`).
    """
    bases = [dag.opaque.get(s, s) for s in dag.symbols]

    def power(var, n):
        return bases[var] if n == 1 else sympy.Pow(bases[var], n, evaluate=False)

    built: dict[int, sympy.Expr] = {}
    for node_id, node in dag.walk():
        built[node_id] = _node_expression(node, built.__getitem__, power)
    return _outputs(dag, built)


def to_expression(dag: Dag, output: int = 0) -> sympy.Expr:
    """The DAG's output (the first by default) as one nested SymPy expression."""
    return to_expressions(dag)[output]


def _temporary_names(dag: Dag, prefix: str = "t") -> Iterator[sympy.Symbol]:
    taken = {str(s) for s in dag.symbols} | {str(s) for e in dag.opaque.values() for s in e.free_symbols}
    return sympy.numbered_symbols(prefix, exclude=[sympy.Symbol(n) for n in taken])


def to_assignments(dag: Dag, symbols: Iterator[sympy.Symbol] | None = None):
    """The DAG in the shape ``sympy.cse`` returns: ``(replacements, [expr, ...])``.

    Temporaries ``(symbol, expression)`` come before their first use: every
    opaque piece with arithmetic inside (``1/z``), every power step used
    more than once (``x**2`` for ``x**3 = x**2*x``), every node used more
    than once (a common subexpression, or a scaled operand ``2*a`` shared by
    several sums).  Counted in FORM's model the replacements and outputs
    hold exactly ``dag.count()`` operations.  ``symbols`` is an iterable of
    names for the temporaries (default ``t0, t1, ...`` avoiding the input's
    names); a ValueError if it runs out.
    """
    dag = dag.delivered()
    symbols = iter(symbols) if symbols is not None else _temporary_names(dag)
    replacements: list = []

    def temporary(expr):
        try:
            sym = next(symbols)
        except StopIteration:
            raise OptionError(f"the symbols given for the temporaries ran out after {len(replacements)}: "
                             f"give more (e.g. sympy.numbered_symbols('x')) or none") from None
        replacements.append((sym, expr))
        return sym

    bases = []
    for s in dag.symbols:
        piece = dag.opaque.get(s)
        bases.append(s if piece is None else temporary(piece) if expression_count(piece).total else piece)
    uses = dag.uses()
    powers = _power_steps(dag, uses)
    value: dict = {}

    def power(var, n):
        if (var, n) not in value:
            if n == 1:
                value[var, n] = bases[var]
            else:
                a, b, shared = powers[var, n]
                expr = _square(power(var, a)) if a == b else sympy.Mul(power(var, a), power(var, b), evaluate=False)
                value[var, n] = temporary(expr) if shared else expr
        return value[var, n]

    names: dict[int, sympy.Expr] = {}
    for node_id, node in dag.walk():
        expr = _node_expression(node, names.__getitem__, power)
        if uses[node_id] > 1 and isinstance(node, (Add, Mul, Scale)):
            expr = temporary(expr)
        names[node_id] = expr
    return replacements, _outputs(dag, names)


def _power_steps(dag: Dag, uses) -> dict:
    """``{(var, n): (a, b, shared)}``: ``x^n = x^a * x^b`` by the power plan, ``shared`` if used twice or more."""
    needed = dag.powers_needed()
    plan = list(power_steps(needed))
    reads = Counter((var, m) for var, _, a, b in plan for m in {a, b})
    return {(var, n): (a, b, reads[var, n] + (uses[needed[var][n]] if n in needed[var] else 0) > 1)
            for var, n, a, b in plan}


def to_networkx(dag: Dag):
    """The optimized form as a ``networkx.DiGraph`` in which every operation is one node.

    Nodes are numbered ``0, 1, ...`` with an attribute ``op``:

    ``"input"``
        a variable or an opaque piece: ``symbol`` (the variable, or the
        piece such as ``sin(y)``) and ``operations`` (the arithmetic inside
        the piece, computed once; 0 for a variable);
    ``"constant"``
        a number, ``value`` (exact, as text: ``"3/4"``);
    ``"add"``
        one addition of its two operands;
    ``"mul"``
        one multiplication: of its two operands; of its one operand by
        itself when ``square`` is True; or of its one operand by the number
        ``coefficient`` (exact, as text).  ``power=True`` marks the steps
        that raise a variable to a power (``x^3 = x^2*x``).

    ``"output"``
        output number ``index``: its one edge brings the value (with a sign).

    Edges go from operand to user with ``position`` (0, 1) and ``sign``
    (+1 or -1: the operand is added or subtracted, the output negated).
    Graph attributes ``root`` and ``root_sign``: the first output is
    ``root_sign * value(root)``.  The ``"add"`` and ``"mul"`` nodes plus the
    pieces' ``operations`` are exactly ``dag.count()``; every attribute is a
    number, a string or a bool, so the graph exports to GraphML, GEXF and
    node-link JSON.
    """
    import networkx as nx

    dag = dag.delivered()
    graph = nx.DiGraph()
    ids: dict = {}

    def node(key, **attrs) -> int:
        if key not in ids:
            ids[key] = len(ids)
            graph.add_node(ids[key], **attrs)
        return ids[key]

    def edge(src: int, dst: int, position: int, sign: int = 1) -> None:
        graph.add_edge(src, dst, position=position, sign=sign)

    def product(key, first: int, second: int, **attrs) -> int:
        made = node(key, op="mul", square=first == second, **attrs)
        edge(first, made, 0)
        if second != first:
            edge(second, made, 1)
        return made

    def leaf(var: int) -> int:
        s = dag.symbols[var]
        piece = dag.opaque.get(s)
        symbol = s if piece is None else piece
        return node(("input", var), op="input", symbol=str(symbol),
                    operations=0 if piece is None else expression_count(piece).total)

    def power(var: int, n: int) -> int:
        if n == 1:
            return leaf(var)
        key = ("pow", var, n)
        if key not in ids:
            a, b, _ = steps[var, n]
            product(key, power(var, a), power(var, b), power=True)
        return ids[key]

    def times(c, value: tuple) -> tuple:
        """``(sign, node)`` of ``c`` times the value ``(1, operand)``: a coefficient multiplication node."""
        key = ("scale", abs(c), value[1])
        if key not in ids:
            node(key, op="mul", coefficient=str(abs(c)))
            edge(value[1], ids[key], 0)
        return (1 if c > 0 else -1), ids[key]

    def coefficient_product(c, operand: int) -> tuple:
        """``(sign, node)`` of ``c * operand``: a coefficient multiplication unless ``c`` is +-1."""
        return scaled(c, (1, operand), _negated_value, times)

    def constant(c) -> int:
        return node(("constant", c), op="constant", value=str(c))

    steps = _power_steps(dag, dag.uses())
    made: dict[int, int] = {}
    for node_id, dag_node in dag.walk():  # (node() adds a graph node)
        match dag_node:
            case Pow(var, n):
                made[node_id] = power(var, n)
            case Mul(a, b):
                made[node_id] = product(("node", node_id), made[a], made[b], power=False)
            case Scale(c, a):
                made[node_id] = coefficient_product(c, made[a])[1]
            case Add():
                made[node_id] = node(("node", node_id), op="add")
                for pos, (c, child) in enumerate(dag_node.operands):
                    sign, src = (1, constant(c)) if child == ONE else coefficient_product(c, made[child])
                    edge(src, made[node_id], pos, sign)
    for k, (c, root) in enumerate(dag.roots):
        sign, src = (1, constant(c)) if root == ONE else coefficient_product(c, made[root])
        edge(src, node(("output", k), op="output", index=k), 0, sign)
        if k == 0:
            graph.graph.update(root=src, root_sign=sign)
    return graph


def program_graph(program):
    """A :class:`~hornermcts.codegen.program.Program` (a result as written's) as the ``networkx.DiGraph`` of
    :func:`to_networkx`.

    The same nodes and edges, one per operation of the program's
    statements, exactly as the code performs them (``"add"``; ``"mul"``,
    with ``coefficient`` for a number times an operand and ``division=True``
    for a quotient), plus ``"call"`` nodes (``function``: ``sin``, ``sqrt``,
    ``Pow`` for a non-integer power, ...; free, as in FORM's model) whose
    edges bring their arguments, and ``"input"`` nodes for the variables and
    for constants such as ``pi``.  The ``"add"`` and ``"mul"`` nodes are the
    program's count.

    >>> import sympy, hornermcts
    >>> x, y = sympy.symbols("x y")
    >>> g = hornermcts.optimize(sympy.sin(x + y) / (x + y)**2).graph()
    >>> sorted(op for _, op in g.nodes(data="op"))
    ['add', 'call', 'input', 'input', 'mul', 'mul', 'output']
    """
    import networkx as nx

    graph = nx.DiGraph()
    local: dict = {}

    def node(**attrs) -> int:
        k = graph.number_of_nodes()
        graph.add_node(k, **attrs)
        return k

    def edge(src: tuple, dst: int, position: int) -> None:
        graph.add_edge(src[1], dst, position=position, sign=src[0])

    def build(e) -> tuple:
        """``(sign, node)``: the value of the light expression ``e`` is ``sign`` times the node's."""
        if type(e) is str:
            return local[e]
        if type(e) in (int, Fraction):
            return 1, node(op="constant", value=str(e))
        if type(e) is tuple and e[0] == "-":
            sign, made = build(e[1])
            return -sign, made
        if type(e) is tuple and e[0] == "+":
            out = build(e[1])
            for term in e[2:]:
                made = node(op="add")
                edge(out, made, 0)
                edge(build(term), made, 1)
                out = (1, made)
            return out
        if type(e) is tuple and e[0] in ("*", "/"):
            a, b = e[1], e[2]
            if e[0] == "*" and type(a) in (int, Fraction):  # a number times an operand
                made = node(op="mul", coefficient=str(a))
                edge(build(b), made, 0)
                return 1, made
            made = node(op="mul", square=a == b, **({"division": True} if e[0] == "/" else {}))
            edge(build(a), made, 0)
            if a != b or e[0] == "/":
                edge(build(b), made, 1)
            return 1, made
        if e.args and all(isinstance(a, sympy.Expr) for a in e.args):  # a call of locals
            made = node(op="call", function=type(e).__name__ if e.is_Pow else str(e.func))
            for k, a in enumerate(e.args):
                edge(local[a.name] if a.is_Symbol else build(fraction_of(a)), made, k)
            return 1, made
        return 1, node(op="input", symbol=str(e), operations=expression_count(e).total)  # pi, Piecewise ...

    for symbol, name in program.inputs:
        local[name] = (1, node(op="input", symbol=str(symbol), operations=0))
    for name, e in program.steps:
        local[name] = build(e)
    for k, e in enumerate(program.outputs):
        src = build(e)
        edge(src, node(op="output", index=k), 0)
        if k == 0:
            graph.graph.update(root=src[1], root_sign=src[0])
    return graph


def fraction_of(number) -> Fraction:
    """A SymPy number as an exact Fraction (a call's numeric argument in :func:`program_graph`)."""
    return Fraction(int(number.p), int(number.q)) if number.is_Rational else to_fraction(number)


def evaluate_dag(dag: Dag, point: Mapping | list, output: int = 0) -> Fraction:
    """Exact value of an output of the DAG at ``point`` (values per symbol or in column order).

    Point values and coefficients may be ints, Fractions, floats or SymPy
    numbers; a float (or a SymPy ``Float``) counts as the exact value of its
    binary representation.  Given per symbol, an opaque placeholder missing
    from ``point`` takes its piece's value at the point when that is an exact
    number (the new variables of :mod:`hornermcts.rewrites.substitution`, ``1/z``);
    in column order, every column's value is given, placeholders' too.

    >>> import sympy
    >>> from hornermcts.parse import from_sympy
    >>> from hornermcts.dag.horner import horner_dag
    >>> x, y = sympy.symbols("x y")
    >>> dag = horner_dag(from_sympy(x + 1/y))
    >>> evaluate_dag(dag, {x: 1, y: 4})
    Fraction(5, 4)
    """
    if isinstance(point, Mapping):
        vals = [_value_at(dag, s, point) for s in dag.symbols]
    else:
        vals = [to_fraction(v) for v in point]
    value: dict[int, Fraction] = {ONE: Fraction(1)}
    for node_id, node in dag.walk():
        match node:
            case Pow(var, n):
                value[node_id] = vals[var] ** n
            case Mul(a, b):
                value[node_id] = value[a] * value[b]
            case Add():
                value[node_id] = sum((to_fraction(c) * value[ch] for c, ch in node.operands), Fraction(0))
            case Scale(c, a):
                value[node_id] = to_fraction(c) * value[a]
    c, root = dag.roots[output]
    return to_fraction(c) * value[root]


def _value_at(dag: Dag, symbol, point: Mapping) -> Fraction:
    """``point[symbol]``, or an opaque placeholder's piece evaluated exactly at ``point``."""
    if symbol in point:
        return to_fraction(point[symbol])
    piece = dag.opaque.get(symbol)
    if piece is None:
        raise OptionError(f"the point gives no value for {symbol}")
    missing = sorted(map(str, piece.free_symbols - set(point)))
    if missing:
        raise OptionError(f"the point gives no value for {', '.join(missing)} (in the piece {piece} of {symbol})")
    value = piece.xreplace({s: to_number(to_fraction(point[s])) for s in piece.free_symbols})
    if not isinstance(value, sympy.Rational):
        raise OptionError(f"the piece {piece} of {symbol} is not an exact number at this point ({value}): "
                          f"give {symbol} a value")
    return to_fraction(value)
