"""A DAG's nodes as arrays, and the compiled passes over them: the walk, the uses, the tally of the count.

:class:`NodeArrays` reads every node of a :class:`~hornermcts.dag.Dag` once,
by C-level maps over the node tuples: its kind (:data:`ONE`, :data:`POW`,
:data:`MUL`, :data:`ADD`, :data:`SCALE`), its fields ``a``, ``b`` (a
power's variable, and 1 for the variable itself, 2 for a higher power: its
exponent, of any size, is read from the node; a product's factors, a sum's
operands, a scale node's node in ``a``; -1 where none) and its coefficients' ids ``ca``,
``cb`` into :attr:`NodeArrays.numbers` (the distinct numbers by value: a
sum's two, a scale node's one).  The DAG remembers them
(:meth:`~hornermcts.dag.Dag.arrays`), and what reads every node reads them:

* :func:`walk_order`, the order of :meth:`~hornermcts.dag.Dag.walk` (the
  same depth-first search: each node out after its operands, the last
  operand searched first);
* :func:`node_uses`, :meth:`~hornermcts.dag.Dag.uses`' rule (every node's
  operands, each output once): the code makes a node used twice a temporary;
* :func:`tally`, what :meth:`~hornermcts.dag.Dag.count` counts over the walk:
  sums, products, the distinct products by a number ``|c|*a`` (sum
  operands, scale nodes, outputs) and whether one is used twice (then
  :meth:`~hornermcts.dag.Dag.delivered` must share it), the signs;
* :func:`shared_operands`, the sums and outputs whose operand is such a
  product used twice: those :meth:`~hornermcts.dag.Dag.delivered` rewrites.

A Python pass over the nodes cost about 0.25 microseconds per node each
(the walk; the uses; the count), reading them into arrays about the same
once, a compiled pass over the arrays a few nanoseconds per node.

>>> import sympy
>>> from hornermcts.dag import Dag
>>> dag = Dag(sympy.symbols("x y"))
>>> s, total = dag.add((3, dag.power(0, 2)), (-6, dag.power(1, 1)))   # 3*x^2 - 6*y = 3*(x^2 - 2*y)
>>> dag.roots = [(s, dag.mul(total, dag.power(1, 1)))]
>>> arrays = dag.arrays()
>>> arrays.kind.tolist(), arrays.numbers, walk_order(arrays, dag.roots).tolist()
([0, 1, 1, 3, 2], [1, -2], [2, 1, 3, 4])
>>> node_uses(arrays, dag.roots).tolist()
[0, 1, 2, 1, 1]
"""
from __future__ import annotations

from itertools import chain, repeat
from operator import eq, itemgetter

import numpy as np
from numba import njit

__all__ = ["NodeArrays", "walk_order", "node_uses", "tally", "shared_operands", "ONE", "POW", "MUL", "ADD", "SCALE"]

ONE, POW, MUL, ADD, SCALE = range(5)


class NodeArrays:
    """The nodes of a DAG as arrays (see the module docstring): ``kind`` (int8), ``a``, ``b``, ``ca``, ``cb``
    (int64), ``numbers`` (the distinct coefficients, in the order first met).

    ``kind_of`` maps each node type to its kind.
    """

    __slots__ = ("kind", "a", "b", "ca", "cb", "numbers")

    def __init__(self, nodes: list, kind_of: dict):
        size = len(nodes)
        self.kind = kind = np.fromiter(map(kind_of.__getitem__, map(type, nodes)), np.int8, size)
        self.a, self.b = a, b = np.full(size, -1, np.int64), np.full(size, -1, np.int64)
        self.ca, self.cb = np.full(size, -1, np.int64), np.full(size, -1, np.int64)
        numbers: dict = {}  # the distinct coefficients, in order
        found = []
        for code in (POW, MUL, ADD, SCALE):
            at = np.flatnonzero(kind == code)
            n = len(at)
            if not n:
                continue
            flat = list(chain.from_iterable(itemgetter(*at.tolist(), 0)(nodes)[:-1]))  # (the extra 0: a tuple for one)
            x, y = flat[1::3], flat[2::3]  # each node's two fields, after its tag
            if code == POW:  # its exponent stays in the node (any size): here 1, or 2 for one above 1
                a[at], b[at] = np.fromiter(x, np.int64, n), 2 - np.fromiter(map(eq, y, repeat(1)), np.bool_, n)
                continue
            if code == MUL:
                a[at], b[at] = np.fromiter(x, np.int64, n), np.fromiter(y, np.int64, n)
                continue
            if code == SCALE:
                a[at] = np.fromiter(y, np.int64, n)
                found.append((self.ca, at, x))
            else:
                x, y = list(chain.from_iterable(x)), list(chain.from_iterable(y))  # c1, a, c1, a, ...
                a[at], b[at] = np.fromiter(x[1::2], np.int64, n), np.fromiter(y[1::2], np.int64, n)
                found += [(self.ca, at, x[0::2]), (self.cb, at, y[0::2])]
            for _, _, c in found[-2 if code == ADD else -1:]:
                numbers.update(dict.fromkeys(c))
        index = {c: k for k, c in enumerate(numbers)}
        for target, at, c in found:
            target[at] = np.fromiter(map(index.__getitem__, c), np.int64, len(at))
        self.numbers = list(index)


def walk_order(arrays: NodeArrays, roots: list) -> np.ndarray:
    """The ids :meth:`~hornermcts.dag.Dag.walk` visits, in its order, for the outputs ``roots`` ``[(c, node)]``."""
    return _walk(arrays.kind, arrays.a, arrays.b, np.array([node for _, node in roots], np.int64))


def node_uses(arrays: NodeArrays, roots: list) -> np.ndarray:
    """How many times each node is an operand (of every node, reachable or not; each output once)."""
    return _uses(arrays.kind, arrays.a, arrays.b, np.array([node for _, node in roots], np.int64))


def tally(arrays: NodeArrays, order: np.ndarray, roots: list, is_scaled, is_negated) -> tuple[int, int, int, int, bool]:
    """``(sums, products, scaled, signs, shared)`` of the nodes ``order`` (a walk) and the outputs ``roots``:
    the sum and product nodes, the distinct products by a number ``(|c|, a)``, the signs, and whether one of
    those products is used more than once (see :meth:`~hornermcts.dag.Dag.delivered`).

    A sum's operand ``c*a`` (``a`` not the constant) is a product by a number unless ``c`` is +-1 and carries a
    sign when ``c < 0``; a scale node ``c*a`` is one; an output ``(c, node)`` as ``is_scaled(c, node)`` and
    ``is_negated(c, node)`` say.
    """
    flags, root_rows = _flags(arrays, roots, is_scaled, is_negated)
    sums, products, scaled, signs, shared = _tally(arrays.kind, arrays.a, arrays.b, arrays.ca, arrays.cb, flags,
                                                   order, root_rows)
    return int(sums), int(products), int(scaled), int(signs), bool(shared)


def shared_operands(arrays: NodeArrays, order: np.ndarray, roots: list, is_scaled, is_negated) -> tuple:
    """The products by a number used more than once (:meth:`~hornermcts.dag.Dag.delivered` makes each a scale
    node): ``(sums, first, second, outputs)``, the sum nodes (in the order of the walk ``order``) with such an
    operand, whether their first, their second operand is one, and whether each output is one (the rules of
    :func:`tally`)."""
    flags, root_rows = _flags(arrays, roots, is_scaled, is_negated)
    sums, first, second, outputs = _shared(arrays.kind, arrays.a, arrays.b, arrays.ca, arrays.cb, flags, order,
                                           root_rows)
    return sums.tolist(), first.tolist(), second.tolist(), outputs.tolist()


def _flags(arrays: NodeArrays, roots: list, is_scaled, is_negated) -> tuple:
    """Per distinct number ``c``: (c == 1, c == -1, c < 0, id of |c|); per output (node, scaled, negated, id of |c|)."""
    absolute: dict = {}  # |c| -> its id
    flags = np.array([(c == 1, c == -1, bool(c < 0), absolute.setdefault(abs(c), len(absolute)))
                      for c in arrays.numbers], np.int64).reshape(-1, 4)
    root_rows = np.array([(node, is_scaled(c, node), is_negated(c, node), absolute.setdefault(abs(c), len(absolute)))
                          for c, node in roots], np.int64).reshape(-1, 4)
    return flags, root_rows


@njit(cache=True)
def _products(kind, a, b, ca, cb, flags, order, root_rows):
    """Each product by a number in ``order`` and the outputs: its key ``id of |c| * nodes + node`` and where it
    is (``2 * position + 0/1`` of a sum's operand in ``order``, ``-1`` a scale node, ``-2 - r`` output ``r``);
    the sums, products and signs."""
    keys = np.empty(2 * len(order) + len(root_rows), np.int64)
    where = np.empty(len(keys), np.int64)
    n_keys = 0
    width = len(kind)
    sums = products = signs = 0
    for i in range(len(order)):
        node = order[i]
        k = kind[node]
        if k == ADD:
            sums += 1
            for j in range(2):
                c, x = (ca[node], a[node]) if j == 0 else (cb[node], b[node])
                if x != 0 and not flags[c, 0]:
                    if not flags[c, 1]:
                        keys[n_keys], where[n_keys] = flags[c, 3] * width + x, 2 * i + j
                        n_keys += 1
                    if flags[c, 2]:
                        signs += 1
        elif k == MUL:
            products += 1
        elif k == SCALE:
            keys[n_keys], where[n_keys] = flags[ca[node], 3] * width + a[node], -1
            n_keys += 1
    for r in range(len(root_rows)):
        if root_rows[r, 1]:
            keys[n_keys], where[n_keys] = root_rows[r, 3] * width + root_rows[r, 0], -2 - r
            n_keys += 1
        signs += root_rows[r, 2]
    return keys[:n_keys], where[:n_keys], sums, products, signs


@njit(cache=True)
def _shared(kind, a, b, ca, cb, flags, order, root_rows):
    keys, where, _, _, _ = _products(kind, a, b, ca, cb, flags, order, root_rows)
    by_key = np.argsort(keys, kind="mergesort")
    twice = np.zeros(len(keys), np.bool_)  # the occurrence's key occurs more than once
    start = 0
    for i in range(1, len(keys) + 1):
        if i == len(keys) or keys[by_key[i]] != keys[by_key[start]]:
            if i - start > 1:
                for j in range(start, i):
                    twice[by_key[j]] = True
            start = i
    operand = np.zeros((len(order), 2), np.bool_)
    outputs = np.zeros(len(root_rows), np.bool_)
    for i in range(len(keys)):
        if twice[i]:
            w = where[i]
            if w >= 0:
                operand[w // 2, w % 2] = True
            elif w <= -2:
                outputs[-2 - w] = True
    at = np.flatnonzero(operand[:, 0] | operand[:, 1])
    return order[at], operand[at, 0], operand[at, 1], outputs


@njit(cache=True)
def _walk(kind, a, b, roots):
    """:meth:`~hornermcts.dag.Dag.walk`'s depth-first search: a node goes out after its operands (``~id`` is
    pushed below them), the operands pushed first to last (the last searched first)."""
    size = len(kind)
    seen = np.zeros(size, np.bool_)
    order = np.empty(size, np.int64)
    stack = np.empty(3 * size + len(roots) + 1, np.int64)
    top = 0
    for r in range(len(roots) - 1, -1, -1):
        stack[top] = roots[r]
        top += 1
    n = 0
    while top:
        top -= 1
        node = stack[top]
        if node < 0:
            order[n] = ~node
            n += 1
        elif not seen[node]:
            seen[node] = True
            stack[top] = ~node
            top += 1
            k = kind[node]
            if k == MUL or k == ADD:
                stack[top], stack[top + 1] = a[node], b[node]
                top += 2
            elif k == SCALE:
                stack[top] = a[node]
                top += 1
    return order[:n]


@njit(cache=True)
def _uses(kind, a, b, roots):
    uses = np.zeros(len(kind), np.int64)
    for node in roots:
        uses[node] += 1
    for node in range(len(kind)):
        k = kind[node]
        if k == MUL or k == ADD:
            uses[a[node]] += 1
            uses[b[node]] += 1
        elif k == SCALE:
            uses[a[node]] += 1
    return uses


@njit(cache=True)
def _tally(kind, a, b, ca, cb, flags, order, root_rows):
    """:func:`tally` over arrays (:func:`_flags`)."""
    keys, _, sums, products, signs = _products(kind, a, b, ca, cb, flags, order, root_rows)
    found = np.sort(keys)
    distinct, shared = 0, False
    for i in range(len(found)):
        if i and found[i] == found[i - 1]:
            shared = True
        else:
            distinct += 1
    return sums, products, distinct, signs, shared
