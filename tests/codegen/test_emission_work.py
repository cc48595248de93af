"""Work emission shares instead of redoing (issue 36, item 7: code emission at 10^6 operations/s).

The speed itself is measured by ``benchmarks/emission_speed.py``; these
tests check what the speed rests on: the DAG's walk is made once and
remembered until the DAG changes, and the locals each statement reads,
recorded by the compiled pass that writes the text, are those a walk of the
statements' light tuples finds (:func:`names_in`).
"""
from __future__ import annotations

import sympy

from hornermcts import optimize
from hornermcts.codegen.compensated import compensate
from hornermcts.codegen.forms import LinearForm
from hornermcts.codegen.program import Program
from hornermcts.dag import Dag
from hornermcts.research.families import random_polynomial


def test_walk_is_remembered_until_the_dag_changes():
    x, y = sympy.symbols("x y")
    dag = Dag((x, y))
    dag.roots = [(1, dag.mul(dag.power(0, 1), dag.power(1, 2)))]
    first = dag.walk()
    assert dag.walk() is first
    dag.reachable().append(99)  # a copy: the remembered walk stays as it is
    assert dag.walk().ids == first.ids == [2, 1, 3]
    s, total = dag.add((1, dag.power(0, 1)), (3, 0))  # x + 3, a new node
    dag.roots = [(s, total)]
    assert dag.walk() is not first and dag.walk().ids == [1, 0, total]


def names_in(expr, into: set) -> set:
    """The locals a light expression reads, added to ``into`` (a SymPy piece: the names of its symbols)."""
    stack = [expr]
    while stack:
        e = stack.pop()
        t = type(e)
        if t is str:
            into.add(e)
        elif t is tuple:
            stack.extend(e[2:] if e[0] == "call" else e[1:])
        elif isinstance(e, sympy.Basic):
            into.update(s.name for s in e.free_symbols)
        elif isinstance(e, LinearForm):  # a new variable's definition
            into.update(e.names)
    return into


def _step_reads(prog: Program) -> list[set]:
    reads, outputs = prog.reads()
    assert outputs == names_in(("outputs", *prog.outputs), set())
    return reads


def test_reads_of_the_written_statements_are_those_of_the_statements():
    # shared scaled operands (scale nodes), negations, powers, an opaque piece, two outputs
    poly = random_polynomial(4, 60, max_degree=4, seed=3)
    x, y, z = sympy.symbols("x y z")
    expr = poly.to_sympy() + 3 * x * sympy.sin(z) - 2 * y * sympy.sin(z)
    w = sympy.Symbol("w")
    new_variables = sympy.expand((x + y) ** 7 + (x - y) ** 5 * w + (x + y + z + w) ** 4)  # linear forms
    results = [optimize(e, preset="fast", progress=None) for e in (expr, poly, new_variables)]
    prog = Program(results, "f")
    assert prog.pieces  # read from the token pass (render), which writes the text
    assert any(isinstance(e, LinearForm) for _, e in prog.pieces) and any(isinstance(e, sympy.Basic)
                                                                          for _, e in prog.pieces)
    expected = [names_in(e, set()) for _, e in prog.pieces + prog.steps]
    assert _step_reads(prog) == expected
    assert _step_reads(compensate(prog)) == expected  # the same locals, in pairs
    prog.steps = prog.steps[:-1]  # steps set otherwise: read again
    assert _step_reads(prog) == [names_in(e, set()) for _, e in prog.pieces + prog.steps]
