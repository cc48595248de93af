"""Views of an optimized DAG: SymPy assignments, one nested expression, a graph.

Every view is exactly equal to the input polynomial, with the opaque
(non-polynomial) pieces restored.

Examples
--------
>>> import sympy
>>> from hornermcts.polynomial import Polynomial
>>> from hornermcts.horner import horner_dag
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
>>> graph = to_networkx(dag)
>>> graph.nodes[graph.graph["root"]]["op"]
'mul'
"""
from __future__ import annotations

from fractions import Fraction
from typing import Iterator, Mapping

import sympy

from .dag import ONE, Dag

__all__ = ["to_expression", "to_expressions", "to_assignments", "to_networkx", "evaluate_dag"]


def _number(c) -> sympy.Expr:
    if isinstance(c, int):
        return sympy.Integer(c)
    if isinstance(c, Fraction):
        return sympy.Rational(c.numerator, c.denominator)
    return sympy.sympify(c)


def _scaled(c, expr):
    """``c*expr`` kept as a product (SymPy would distribute a number over a sum)."""
    if c == 1:
        return expr
    if c == -1:
        return sympy.Mul(sympy.S.NegativeOne, expr, evaluate=False)
    return sympy.Mul(_number(c), expr, evaluate=False)


def _node_expression(dag: Dag, key, operand) -> sympy.Expr:
    kind = key[0]
    if kind == "pow":
        sym = dag.symbols[key[1]]
        return sym if key[2] == 1 else sympy.Pow(sym, key[2], evaluate=False)
    if kind == "mul":
        return sympy.Mul(operand(key[1]), operand(key[2]), evaluate=False)
    if kind == "scale":
        return _scaled(key[1], operand(key[2]))
    if kind == "add":
        parts = []
        for c, child in key[1:]:
            parts.append(_number(c) if child == ONE else _scaled(c, operand(child)))
        return sympy.Add(*parts, evaluate=False)
    return sympy.S.One


def _restore(expr, dag: Dag):
    return expr.xreplace(dag.opaque) if dag.opaque else expr


def to_expressions(dag: Dag) -> list:
    """Each output of the DAG as one nested SymPy expression, no temporaries."""
    built: dict[int, sympy.Expr] = {}
    for node in dag.reachable():
        built[node] = _node_expression(dag, dag.nodes[node], built.__getitem__)
    return [_restore(_number(c) if root == ONE else _scaled(c, built[root]), dag) for c, root in dag.roots]


def to_expression(dag: Dag, output: int = 0) -> sympy.Expr:
    """The DAG's output (the first by default) as one nested SymPy expression."""
    return to_expressions(dag)[output]


def _temporary_names(dag: Dag, prefix: str = "t") -> Iterator[sympy.Symbol]:
    taken = {str(s) for s in dag.symbols} | {str(s) for e in dag.opaque.values() for s in e.free_symbols}
    return sympy.numbered_symbols(prefix, exclude=[sympy.Symbol(n) for n in taken])


def to_assignments(dag: Dag, symbols: Iterator[sympy.Symbol] | None = None):
    """The DAG in the shape ``sympy.cse`` returns: ``(replacements, [expr])``.

    Every node used more than once (a common subexpression), except bare
    variables, becomes a temporary ``(symbol, expression)``; temporaries come
    before their first use.  ``symbols`` is an iterator of names for them
    (default ``t0, t1, ...`` avoiding the input's names).
    """
    symbols = symbols if symbols is not None else _temporary_names(dag)
    uses = dag.uses()
    names: dict[int, sympy.Expr] = {}
    replacements = []
    for node in dag.reachable():
        key = dag.nodes[node]
        expr = _node_expression(dag, key, names.__getitem__)
        if uses[node] > 1 and not (key[0] == "pow" and key[2] == 1) and key[0] != "one":
            sym = next(symbols)
            replacements.append((sym, _restore(expr, dag)))
            expr = sym
        names[node] = expr
    outs = [_number(c) if root == ONE else _scaled(c, names[root]) for c, root in dag.roots]
    return replacements, [_restore(out, dag) for out in outs]


def to_networkx(dag: Dag):
    """The DAG as a ``networkx.DiGraph``.

    Nodes are DAG node ids with attributes ``op`` (``"one"``, ``"pow"``,
    ``"mul"``, ``"add"``, ``"scale"``), and for powers ``symbol`` and ``exponent``; edges
    go from operand to user with ``position`` (operand order) and
    ``coefficient`` (the exact scalar the operand is multiplied by).  Graph
    attributes: ``outputs``, the list of ``(scalar, node)`` of every output;
    ``root`` and ``root_coefficient``, the first one's node and scalar;
    ``opaque``, the placeholders and the pieces they stand for.
    """
    import networkx as nx

    graph = nx.DiGraph(root=dag.root[1], root_coefficient=dag.root[0], outputs=list(dag.roots),
                       opaque=dict(dag.opaque))
    for node in dag.reachable():
        key = dag.nodes[node]
        kind = key[0]
        if kind == "pow":
            sym = dag.symbols[key[1]]
            graph.add_node(node, op="pow", symbol=dag.opaque.get(sym, sym), exponent=key[2])
        else:
            graph.add_node(node, op=kind)
        if kind == "mul":
            for pos, child in enumerate(key[1:]):
                graph.add_edge(child, node, position=pos, coefficient=1)
        elif kind == "add":
            for pos, (c, child) in enumerate(key[1:]):
                graph.add_edge(child, node, position=pos, coefficient=c)
        elif kind == "scale":
            graph.add_edge(key[2], node, position=0, coefficient=key[1])
    return graph


def evaluate_dag(dag: Dag, point: Mapping | list, output: int = 0) -> Fraction:
    """Exact value of an output of the DAG at ``point`` (values per symbol or in column order)."""
    if isinstance(point, Mapping):
        vals = [Fraction(point[s]) for s in dag.symbols]
    else:
        vals = [Fraction(v) for v in point]
    value: dict[int, Fraction] = {ONE: Fraction(1)}
    for node in dag.reachable():
        key = dag.nodes[node]
        kind = key[0]
        if kind == "pow":
            value[node] = vals[key[1]] ** key[2]
        elif kind == "mul":
            value[node] = value[key[1]] * value[key[2]]
        elif kind == "add":
            value[node] = sum((Fraction(c) * value[ch] for c, ch in key[1:]), Fraction(0))
        elif kind == "scale":
            value[node] = Fraction(key[1]) * value[key[2]]
    c, root = dag.roots[output]
    return Fraction(c) * value[root]
