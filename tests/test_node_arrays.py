"""The DAG's compiled passes over its nodes' arrays are the Python passes they replace (issue 36, item 7).

:mod:`hornermcts.dag.arrays` walks, counts uses and tallies the count over
arrays; each must give what the passes over the node objects give
(:meth:`~hornermcts.dag.Dag._walk`, ``_scaled_uses`` and the rule of
:meth:`~hornermcts.dag.Dag.uses` written out here), on DAGs of every kind:
Horner schemes of random polynomials with several outputs, negative and
rational coefficients, scale nodes, a DAG with nodes no
output reaches, a constant output, an exponent beyond 64 bits.
"""
from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from fractions import Fraction

import pytest
import sympy

from hornermcts import optimize
from hornermcts.dag import ONE, Add, Dag, Mul, Scale
from hornermcts.dag.arrays import node_uses, tally, walk_order
from hornermcts.dag.horner import horner_dag
from hornermcts.research.families import random_polynomial


def python_uses(dag: Dag) -> list[int]:
    """Each node's uses as operands (every node's operands; each output once), from the node objects."""
    n_use = [0] * len(dag.nodes)
    for _, node in dag.roots:
        n_use[node] += 1
    for node in dag.nodes:
        if isinstance(node, (Add, Mul, Scale)):
            for child in node.children:
                n_use[child] += 1
    return n_use


def python_delivered(dag: Dag) -> Dag:
    """:meth:`Dag.delivered` as it was written over the node objects (the reference of the compiled passes)."""
    walk = dag._walk()
    seen, _ = dag._scaled_uses(walk)
    if all(n == 1 for n in seen.values()):
        return dag
    out = Dag(dag.symbols, dict(dag.opaque), list(dag.nodes), list(dag.roots), dict(dag._index))

    def value(c, node: int) -> tuple:
        if node != ONE and c not in (1, -1) and seen[abs(c), node] > 1:
            return (1 if c > 0 else -1), out._intern(("scale", abs(c), node), Scale)
        return c, node

    for node_id, node in walk:
        if isinstance(node, Add):
            (c1, a), (c2, b) = node.operands
            v1, v2 = value(c1, a), value(c2, b)
            if v1 != (c1, a) or v2 != (c2, b):
                key = ("add", v1, v2)
                if key in out._index:
                    return python_delivered(dag._rebuilt(walk, seen))
                del out._index[node]
                out.nodes[node_id] = replaced = tuple.__new__(Add, key)
                out._index[replaced] = node_id
    out.roots = [value(c, node) for c, node in dag.roots]
    return python_delivered(out)


def merging() -> Dag:
    """A DAG whose delivered form merges two sums: 2*a + b and s + b, s = 2*a shared (a scale node)."""
    x, y, z = sympy.symbols("x y z")
    dag = Dag((x, y, z))
    a = dag.power(0, 1)
    s = dag._intern(("scale", 2, a), Scale)  # made before b: s + b and the replaced 2*a + b are the same key
    b = dag.power(1, 1)
    _, first = dag.add((2, a), (1, b))
    _, second = dag.add((1, s), (1, b))
    _, third = dag.add((2, a), (1, dag.power(2, 1)))
    dag.roots = [(1, dag.mul(first, second)), (3, third), (2, a)]
    return dag


@functools.cache
def dags() -> list[Dag]:
    out = []
    for seed in range(6):
        poly = random_polynomial(4, 40, max_degree=4, seed=seed)
        if seed % 2:  # negative and rational coefficients
            poly = type(poly)(poly.symbols, poly.exponents, [c * Fraction(-3, 2 + seed) for c in poly.coefficients])
        out.append(horner_dag(poly))
    out += [dag.delivered() for dag in out]  # scale nodes where a scaled operand is shared
    x, y, z = sympy.symbols("x y z")
    results = [optimize(e, preset="greedy", progress=None)
               for e in (2 * x * y + 2 * x * z + 4 * y * z + 6 * x, [x**2 + 3 * y, 3 * y * z + x, x * y * z])]
    out += [r.dag for r in results]
    hand = Dag((x, y))  # a node no output reaches, and an output that is a number
    unreached = hand.mul(hand.power(0, 2), hand.power(1, 1))
    s, total = hand.add((2, hand.power(0, 1)), (-4, unreached))
    hand.roots = [(s, total), (-5, ONE), (Fraction(1, 3), hand.power(1, 3))]
    hand.mul(unreached, hand.power(1, 2))
    huge = Dag((x, y))  # an exponent beyond int64: it stays in the node
    huge.roots = [(3, huge.mul(huge.power(0, 2**70), huge.power(1, 2))), (1, huge.power(0, 2**70))]
    out += [hand, merging(), huge]
    return out


@pytest.mark.parametrize("k", range(len(dags())))
def test_compiled_passes_are_the_python_passes(k):
    dag = dataclasses.replace(dags()[k], _memo={})
    walk = dag._walk()
    arrays = dag.arrays()
    assert walk_order(arrays, dag.roots).tolist() == walk.ids
    assert node_uses(arrays, dag.roots).tolist() == python_uses(dag) == dag.uses()
    scaled, signs = dag._scaled_uses(walk)
    kinds = Counter(type(node) for _, node in walk)
    sums, products, distinct, n_signs, shared = tally(arrays, walk.array(), dag.roots,
                                                      lambda c, n: n != ONE and c not in (1, -1),
                                                      lambda c, n: n != ONE and c < 0)
    assert (sums, products, distinct, n_signs, shared) == (kinds[Add], kinds[Mul], len(scaled), signs,
                                                           any(n > 1 for n in scaled.values()))
    powers = {}
    for node_id, node in walk:
        if type(node).__name__ == "Pow" and node.n > 1:
            powers.setdefault(node.var, {})[node.n] = node_id
    assert dag._powers(walk) == powers  # read from the arrays, now known


def test_the_walk_is_made_from_the_arrays_once_delivered():
    dag = dataclasses.replace(dags()[0], _memo={})
    delivered = dag.delivered()
    assert dag.walk().ids == dag._walk().ids and delivered.count() == dags()[0].count()


@pytest.mark.parametrize("k", range(len(dags())))
def test_delivered_is_the_python_delivered(k):
    dag = dataclasses.replace(dags()[k], _memo={})
    want, got = python_delivered(dataclasses.replace(dag, _memo={})), dag.delivered()
    assert (got.nodes, got.roots) == (want.nodes, want.roots)
    assert got.count() == want._shared_count(want.walk())
