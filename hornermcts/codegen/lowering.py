"""A DAG's nodes lowered into expression entries: the statements and outputs of a program, by one compiled loop.

The DAG's nodes are read into arrays once (:func:`node_arrays`: each node's
kind, operands, coefficients), then :func:`_lower` visits them in
:meth:`~hornermcts.dag.Dag.walk` order, operands before users, and appends
the entries of :class:`~hornermcts.codegen.expressions.Expressions`:

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

from itertools import chain
from operator import itemgetter

import numpy as np
from numba import njit

from ..dag.graph import Add, Dag, Mul, Pow, Scale
from .expressions import ADD, LITERAL, LOCAL, MUL, NEG, Expressions

__all__ = ["Lowered", "lower_dag"]

_KIND = {"one": 0, Pow.tag: 1, Mul.tag: 2, Add.tag: 3, Scale.tag: 4}
_POW, _MUL, _ADD, _SCALE = 1, 2, 3, 4


class Lowered:
    """A DAG lowered (:func:`lower_dag`): ``statements`` ``[entry]`` of its temporaries (in order, to be
    named), ``outputs`` ``[entry]``, and the operations ``additions``, ``multiplications``, ``negations``."""

    def __init__(self, statements: list[int], outputs: list[int], additions: int, multiplications: int,
                 negations: int):
        self.statements, self.outputs = statements, outputs
        self.additions, self.multiplications, self.negations = additions, multiplications, negations


def node_arrays(dag: Dag) -> tuple:
    """``(kind, a, b, ca, cb, coefficients)`` of every node: its kind (0 the constant, then power, product,
    sum, scale node), its operands' ids (-1 where none) and its coefficients' ids into ``coefficients`` (the
    distinct numbers, by value: a sum's two, a scale node's one), read from the nodes by C-level maps."""
    flat = list(chain.from_iterable(dag.nodes[1:]))  # node 0 is the constant 1, the only node without fields
    size = len(flat) // 3 + 1
    kind = np.zeros(size, np.int8)
    kind[1:] = np.fromiter(map(_KIND.__getitem__, flat[0::3]), np.int8, size - 1)
    first, second = [None, *flat[1::3]], [None, *flat[2::3]]
    a, b = np.full(size, -1, np.int64), np.full(size, -1, np.int64)
    ca, cb = np.full(size, -1, np.int64), np.full(size, -1, np.int64)
    numbers: dict = {}  # the distinct coefficients, in order
    found = []
    for code in (_MUL, _ADD, _SCALE):
        at = np.flatnonzero(kind == code)
        if not len(at):
            continue
        take = itemgetter(*at.tolist(), 0)  # the extra index keeps a tuple for one node
        x, y = take(first)[:-1], take(second)[:-1]
        if code == _MUL:
            a[at], b[at] = x, y
            continue
        if code == _SCALE:
            a[at] = y
            found.append((ca, at, x))
        else:
            x, y = list(chain.from_iterable(x)), list(chain.from_iterable(y))  # c1, a, c1, a, ...
            a[at], b[at] = x[1::2], y[1::2]
            found += [(ca, at, x[0::2]), (cb, at, y[0::2])]
        for _, _, c in found[-2 if code == _ADD else -1:]:
            numbers.update(dict.fromkeys(c))
    index = {c: k for k, c in enumerate(numbers)}
    for target, at, c in found:
        target[at] = list(map(index.__getitem__, c))
    return kind, a, b, ca, cb, list(index)


def _coefficient_flags(numbers: list, table: Expressions, coefficient) -> tuple:
    """Per distinct number: ``c == 1``, ``c == -1``, ``c > 0``, ``c >= 0``, and the entry of the literal ``|c|``."""
    flags = np.array([(c == 1, c == -1, bool(c > 0), bool(c >= 0)) for c in numbers], np.bool_).reshape(-1, 4)
    entries = np.array([table.leaf(LITERAL, table.literal(coefficient(c))) for c in numbers], np.int64)
    return flags, entries


def lower_dag(dag: Dag, walk, local_of_power, table: Expressions, coefficient, max_inline: int) -> Lowered:
    """The entries of ``dag``'s temporaries and outputs, appended to ``table`` (see the module docstring).

    ``local_of_power(var, n)`` names the local holding ``symbols[var]**n``
    (None for a power no statement computes); ``coefficient(c)`` is the
    literal of ``|c|``.  The temporaries' names are the caller's: it adds
    them to ``table`` in order, right after.
    """
    kind, a, b, ca, cb, numbers = node_arrays(dag)
    flags, literal_entry = _coefficient_flags(numbers + [c for c, _ in dag.roots], table, coefficient)
    powers = np.flatnonzero(kind == _POW).tolist()
    power_entry = np.full(len(kind), -1, np.int64)
    for node_id in powers:
        local = local_of_power(dag.nodes[node_id][1], dag.nodes[node_id][2])
        if local is not None:
            power_entry[node_id] = table.leaf(LOCAL, table.name(local))
    roots = np.array([node for _, node in dag.roots], np.int64)
    root_numbers = np.arange(len(numbers), len(numbers) + len(roots), dtype=np.int64)
    op, first, count, kids, statements, outputs, tally = _lower(
        kind, a, b, ca, cb, power_entry, flags, literal_entry, np.array(walk.ids, np.int64), roots, root_numbers,
        table.size, table.n_kids, len(table.names), max_inline)
    table.extend(op, first, count, kids)
    adds, mults, signs = tally.tolist()
    return Lowered(statements.tolist(), outputs.tolist(), adds, mults, signs)


@njit(cache=True, inline="always")
def _entry(op, first, count, kids, at, code, x, y, m):
    """Append entry ``code`` of ``m`` kids ``x, y`` at ``at = [entries, kids, first entry id, first kid id]``."""
    e = at[0]
    op[e], first[e], count[e] = code, at[3] + at[1], m
    kids[at[1]] = x
    if m == 2:
        kids[at[1] + 1] = y
    at[0] += 1
    at[1] += m
    return at[2] + e


@njit(cache=True, inline="always")
def _scaled(op, first, count, kids, at, flags, literal_entry, c, x):
    """``c*x``: ``x``, ``-x``, ``|c|*x`` or ``-(|c|*x)``."""
    if flags[c, 0]:
        return x
    if flags[c, 1]:
        return _entry(op, first, count, kids, at, NEG, x, 0, 1)
    product = _entry(op, first, count, kids, at, MUL, literal_entry[c], x, 2)
    return product if flags[c, 2] else _entry(op, first, count, kids, at, NEG, product, 0, 1)


@njit(cache=True, inline="always")
def _constant(op, first, count, kids, at, flags, literal_entry, c):
    """The number ``c``: its literal, negated when ``c < 0``."""
    return literal_entry[c] if flags[c, 3] else _entry(op, first, count, kids, at, NEG, literal_entry[c], 0, 1)


@njit(cache=True, inline="always")
def _operand(op, first, count, kids, at, flags, literal_entry, c, child, ref, weight):
    """A sum's operand ``c*child``: its entry, weight, products and signs."""
    if child == 0:
        return _constant(op, first, count, kids, at, flags, literal_entry, c), 0, 0, 0
    w, m, s = weight[child], 0, 0
    if not flags[c, 0]:
        s = 0 if flags[c, 3] else 1
        if not flags[c, 1]:
            w, m = w + 1, 1
    return _scaled(op, first, count, kids, at, flags, literal_entry, c, ref[child]), w, m, s


@njit(cache=True)
def _lower(kind, a, b, ca, cb, power_entry, flags, literal_entry, walk, roots, root_numbers, entry0, kid0,
           name0, max_inline):
    """The loop of :func:`lower_dag`: entries, the temporaries' and outputs' entries, ``[adds, mults, signs]``."""
    size = len(kind)
    uses = np.zeros(size, np.int64)
    for node in range(size):
        if kind[node] == _ADD or kind[node] == _MUL:
            uses[a[node]] += 1
            uses[b[node]] += 1
        elif kind[node] == _SCALE:
            uses[a[node]] += 1
    is_root = np.zeros(size, np.bool_)
    for node in roots:
        uses[node] += 1
        is_root[node] = True
    capacity = 6 * len(walk) + 2 * len(roots) + 8
    op, first, count = np.empty(capacity, np.int8), np.empty(capacity, np.int64), np.empty(capacity, np.int64)
    kids = np.empty(2 * capacity, np.int64)
    at = np.array([0, 0, entry0, kid0], np.int64)
    ref = np.full(size, -1, np.int64)
    weight = np.zeros(size, np.int64)
    statements = np.empty(len(walk), np.int64)
    n_statements = 0
    adds = mults = signs = 0
    for node in walk:
        k = kind[node]
        if k == _POW:
            ref[node] = power_entry[node]
            continue
        if k == _ADD:
            x, wx, mx, sx = _operand(op, first, count, kids, at, flags, literal_entry, ca[node], a[node], ref, weight)
            y, wy, my, sy = _operand(op, first, count, kids, at, flags, literal_entry, cb[node], b[node], ref, weight)
            expr = _entry(op, first, count, kids, at, ADD, x, y, 2)
            w = 1 + wx + wy
            adds += 1
            mults += mx + my
            signs += sx + sy
        elif k == _MUL:
            expr = _entry(op, first, count, kids, at, MUL, ref[a[node]], ref[b[node]], 2)
            w = 1 + weight[a[node]] + weight[b[node]]
            mults += 1
        elif k == _SCALE:
            expr = _scaled(op, first, count, kids, at, flags, literal_entry, ca[node], ref[a[node]])
            w = 1 + weight[a[node]]
            mults += 1
        else:  # the constant 1: operands write it as a number
            continue
        if uses[node] > 1 or (w > max_inline and not is_root[node]):
            statements[n_statements] = expr
            ref[node] = _entry(op, first, count, kids, at, LOCAL, name0 + n_statements, 0, 1)
            n_statements += 1
        else:
            ref[node], weight[node] = expr, w
    outputs = np.empty(len(roots), np.int64)
    for r in range(len(roots)):
        c = root_numbers[r]
        if roots[r] == 0:
            outputs[r] = _constant(op, first, count, kids, at, flags, literal_entry, c)
        else:
            outputs[r] = _scaled(op, first, count, kids, at, flags, literal_entry, c, ref[roots[r]])
            mults += not (flags[c, 0] or flags[c, 1])
            signs += not flags[c, 3]
    tally = np.array([adds, mults, signs], np.int64)
    return (op[:at[0]], first[:at[0]], count[:at[0]], kids[:at[1]], statements[:n_statements], outputs, tally)
