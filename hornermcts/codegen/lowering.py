"""A DAG's nodes lowered into expression entries: the statements and outputs of a program, by one compiled loop.

The DAG's nodes are read as arrays (:meth:`~hornermcts.dag.Dag.arrays`: each
node's kind, operands, coefficients, remembered by the DAG), then
:func:`_lower` visits them in :meth:`~hornermcts.dag.Dag.walk` order,
operands before users, and appends the entries of :class:`~hornermcts.codegen.expressions.Expressions`:

* a power is its local (``x``, ``x_3``); a product ``a*b``, a sum of two
  operands, a scale node: entries of their operands' entries;
* a scaled operand ``c*a`` (:func:`~hornermcts.cost.counting.scaled`'s rule)
  is ``a`` for ``c = 1``, ``-a`` for ``c = -1``, else the literal ``|c|``
  times ``a``, negated when ``c < 0``; an operand that is the constant 1 is
  the number ``c``;
* a node used more than once is a temporary (a statement of its own, named
  by the caller), as is one whose expression would hold more than
  ``max_inline`` operations (unless it is an output): the rest is written
  inline into its only user.

The operations are tallied by kind on the way (additions, products,
signs), for :func:`~hornermcts.cost.counting.charge`.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..dag import arrays as kinds
from ..dag.arrays import node_uses
from ..dag.graph import Dag
from .expressions import ADD, LITERAL, LOCAL, MUL, NEG, Expressions

__all__ = ["Lowered", "lower_dag"]

# the nodes' kinds (the entries' operations ADD, MUL are others)
_POW, _MUL, _ADD, _SCALE = kinds.POW, kinds.MUL, kinds.ADD, kinds.SCALE


class Lowered:
    """A DAG lowered (:func:`lower_dag`): ``statements`` ``[entry]`` of its temporaries (in order, to be
    named), ``outputs`` ``[entry]``, and the operations ``additions``, ``multiplications``, ``negations``."""

    def __init__(self, statements: list[int], outputs: list[int], additions: int, multiplications: int,
                 negations: int):
        self.statements, self.outputs = statements, outputs
        self.additions, self.multiplications, self.negations = additions, multiplications, negations


def _coefficients(numbers: list, table: Expressions, coefficient) -> np.ndarray:
    """Per distinct number ``c``: ``c == 1``, ``c == -1``, ``c > 0``, ``c >= 0``, the entry of the literal ``|c|``."""
    rows = [(c == 1, c == -1, bool(c > 0), bool(c >= 0), table.leaf(LITERAL, table.literal(coefficient(c))))
            for c in numbers]
    return np.array(rows, np.int64).reshape(-1, 5)


def lower_dag(dag: Dag, walk, local_of_power, table: Expressions, coefficient, max_inline: int) -> Lowered:
    """The entries of ``dag``'s temporaries and outputs, appended to ``table`` (see the module docstring).

    ``local_of_power(var, n)`` names the local holding ``symbols[var]**n``
    (None for a power no statement computes); ``coefficient(c)`` is the
    literal of ``|c|``.  The temporaries' names are the caller's: it adds
    them to ``table`` in order, right after.
    """
    arrays = dag.arrays()
    kind, a, b, numbers = arrays.kind, arrays.a, arrays.b, arrays.numbers
    numbers_of = _coefficients(numbers + [c for c, _ in dag.roots], table, coefficient)
    power_entry = np.full(len(kind), -1, np.int64)
    for node_id in np.flatnonzero(kind == _POW).tolist():
        _, var, n = dag.nodes[node_id]
        local = local_of_power(var, n)
        if local is not None:
            power_entry[node_id] = table.leaf(LOCAL, table.name(local))
    roots = np.array([node for _, node in dag.roots], np.int64)
    root_numbers = np.arange(len(numbers), len(numbers) + len(roots), dtype=np.int64)
    made, statements, outputs, tally = _lower(kind, a, b, arrays.ca, arrays.cb, node_uses(arrays, dag.roots),
                                              power_entry, numbers_of, walk.array(), roots, root_numbers,
                                              table.size, len(table.names), max_inline)
    table.extend_rows(made)
    adds, mults, signs = tally.tolist()
    return Lowered(statements.tolist(), outputs.tolist(), adds, mults, signs)


@njit(cache=True, inline="always")
def _entry(made, entry0, code, x, y):
    """Append the entry ``code`` of ``x`` (a local's name, a negated entry) or of ``x, y`` to ``made`` (rows
    ``(op, kids, x, y, 0)``, their number in ``made[0, 0]``); its id."""
    n = made[0, 0] + 1
    made[n, 0], made[n, 1], made[n, 2], made[n, 3] = code, 1 if code == LOCAL or code == NEG else 2, x, y
    made[0, 0] = n
    return entry0 + n - 1


@njit(cache=True, inline="always")
def _scaled(made, entry0, numbers_of, c, x):
    """``c*x`` (:func:`~hornermcts.cost.counting.scaled`'s rule): ``x``, ``-x``, ``|c|*x`` or ``-(|c|*x)``."""
    if numbers_of[c, 0]:
        return x
    if numbers_of[c, 1]:
        return _entry(made, entry0, NEG, x, 0)
    product = _entry(made, entry0, MUL, numbers_of[c, 4], x)
    return product if numbers_of[c, 2] else _entry(made, entry0, NEG, product, 0)


@njit(cache=True, inline="always")
def _constant(made, entry0, numbers_of, c):
    """The number ``c``: its literal, negated when ``c < 0``."""
    return numbers_of[c, 4] if numbers_of[c, 3] else _entry(made, entry0, NEG, numbers_of[c, 4], 0)


@njit(cache=True, inline="always")
def _operand(made, entry0, numbers_of, c, child, node_of):
    """A sum's operand ``c*child``: its entry, weight, products and signs (``node_of[child]``: its entry, weight)."""
    if child == 0:
        return _constant(made, entry0, numbers_of, c), 0, 0, 0
    w, m, s = node_of[child, 1], 0, 0
    if not numbers_of[c, 0]:
        s = 0 if numbers_of[c, 3] else 1
        if not numbers_of[c, 1]:
            w, m = w + 1, 1
    return _scaled(made, entry0, numbers_of, c, node_of[child, 0]), w, m, s


@njit(cache=True)
def _lower(kind, a, b, ca, cb, uses, power_entry, numbers_of, walk, roots, root_numbers, entry0, name0,
           max_inline):
    """The loop of :func:`lower_dag`: the entries made (row 0: their count), the temporaries' and outputs'
    entries, ``[adds, mults, signs]``; ``uses`` each node's (:func:`~hornermcts.dag.arrays.node_uses`)."""
    size = len(kind)
    is_root = np.zeros(size, np.bool_)
    for node in roots:
        is_root[node] = True
    made = np.empty((6 * len(walk) + 2 * len(roots) + 8, 5), np.int64)
    made[0, 0] = 0
    node_of = np.zeros((size, 2), np.int64)  # per node: its entry (a local's if a temporary), its weight
    statements = np.empty(len(walk), np.int64)
    n_statements = 0
    adds = mults = signs = 0
    for node in walk:
        k = kind[node]
        if k == _POW:
            node_of[node, 0] = power_entry[node]
            continue
        if k == _ADD:
            x, wx, mx, sx = _operand(made, entry0, numbers_of, ca[node], a[node], node_of)
            y, wy, my, sy = _operand(made, entry0, numbers_of, cb[node], b[node], node_of)
            expr = _entry(made, entry0, ADD, x, y)
            w = 1 + wx + wy
            adds += 1
            mults += mx + my
            signs += sx + sy
        elif k == _MUL:
            expr = _entry(made, entry0, MUL, node_of[a[node], 0], node_of[b[node], 0])
            w = 1 + node_of[a[node], 1] + node_of[b[node], 1]
            mults += 1
        elif k == _SCALE:
            expr = _scaled(made, entry0, numbers_of, ca[node], node_of[a[node], 0])
            w = 1 + node_of[a[node], 1]
            mults += 1
        else:  # the constant 1: operands write it as a number
            continue
        if uses[node] > 1 or (w > max_inline and not is_root[node]):
            statements[n_statements] = expr
            node_of[node, 0] = _entry(made, entry0, LOCAL, name0 + n_statements, 0)
            n_statements += 1
        else:
            node_of[node, 0], node_of[node, 1] = expr, w
    outputs = np.empty(len(roots), np.int64)
    for r in range(len(roots)):
        c = root_numbers[r]
        if roots[r] == 0:
            outputs[r] = _constant(made, entry0, numbers_of, c)
        else:
            outputs[r] = _scaled(made, entry0, numbers_of, c, node_of[roots[r], 0])
            mults += not (numbers_of[c, 0] or numbers_of[c, 1])
            signs += not numbers_of[c, 3]
    return made, statements[:n_statements], outputs, np.array([adds, mults, signs], np.int64)
