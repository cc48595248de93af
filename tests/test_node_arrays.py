"""The DAG's compiled passes over its nodes' arrays are the Python passes they replace (issue 36, item 7).

:mod:`hornermcts.dag.arrays` walks, counts uses and tallies the count over
arrays; each must give what the passes over the node objects give
(:meth:`~hornermcts.dag.Dag._walk`, ``_scaled_uses`` and the rule of
:meth:`~hornermcts.dag.Dag.uses` written out here), on DAGs of every kind:
Horner schemes of random polynomials with several outputs, negative and
rational coefficients, scale nodes, a DAG with nodes no
output reaches, a constant output.
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
    out.append(hand)
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
