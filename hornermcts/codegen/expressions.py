"""The expressions of a program as arrays: an operation code and operands per entry, shared by every language.

A :class:`~hornermcts.codegen.program.Program`'s statements and outputs are
entries of one :class:`Expressions` table: entry ``e`` is the operation
``op[e]`` of its operands ``kids[first[e]:first[e] + count[e]]``:

* :data:`LOCAL` (a name's id in ``names``), :data:`LITERAL` (an exact
  coefficient's id in ``literals``, never negative), :data:`PIECE` (a SymPy
  expression's id in ``pieces``, printed by each language's printer): leaves;
* :data:`NEG` ``-a``, :data:`MUL` ``a*b``, :data:`DIV` ``a/b``, :data:`ADD`
  ``a + b + ...`` of entries;
* :data:`CALL`: a function of the double-double runtime (its name's id in
  ``calls``, then the arguments' entries).

The DAG's nodes are lowered into the table by a compiled loop
(:mod:`hornermcts.codegen.lowering`), rewritten in double-double arithmetic
by another (:mod:`hornermcts.codegen.compensated`); results as written come
in as the light tuples of :func:`~hornermcts.codegen.program.as_sympy`'s
form (:meth:`Expressions.encode`), and :meth:`Expressions.decode` gives an
entry back as such a tuple.  Every language writes the entries with
:mod:`hornermcts.codegen.render`.

>>> table = Expressions()
>>> e = table.encode(("+", ("*", 2, "x"), ("-", "y")))
>>> table.decode(e), int(table.op[e]) == ADD
(('+', ('*', 2, 'x'), ('-', 'y')), True)
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
from numba import njit

__all__ = ["Expressions", "LOCAL", "LITERAL", "NEG", "MUL", "ADD", "DIV", "CALL", "PIECE"]

LOCAL, LITERAL, NEG, MUL, ADD, DIV, CALL, PIECE = range(8)

#: The tuple tags of the operations with entry operands.
TAGS = {"-": NEG, "*": MUL, "+": ADD, "/": DIV}
_TAG_OF = {op: tag for tag, op in TAGS.items()}


def _interned(ids: dict, items: list, value) -> int:
    """The id of ``value`` in ``items`` (``ids`` maps each item to its id), appended if new."""
    found = ids.get(value)
    if found is None:
        found = ids[value] = len(items)
        items.append(value)
    return found


class Expressions:
    """A table of expression entries (see the module docstring), with its names, literals, calls and pieces.

    Entries are appended one by one (:meth:`add`, :meth:`encode`) or many at
    once (:meth:`extend`, the lowered DAG); :meth:`arrays` gives the table
    as NumPy arrays for the compiled passes.
    """

    def __init__(self) -> None:
        self.names: list[str] = []
        self.name_id: dict[str, int] = {}
        self.literals: list = []
        self.literal_id: dict = {}
        self.calls: list[str] = []
        self.call_id: dict[str, int] = {}
        self.pieces: list = []
        # the entries in arrays with room to grow (op, first, count; kids), then those appended one by one since
        self._entries = (np.zeros(64, np.int8), np.zeros(64, np.int64), np.zeros(64, np.int64))
        self._kid_array = np.zeros(64, np.int64)
        self._stored = self._stored_kids = 0  # entries and kids in the arrays
        self._op: list[int] = []
        self._first: list[int] = []
        self._count: list[int] = []
        self._kids: list[int] = []
        self.size = 0  # entries
        self.n_kids = 0
        self._leaf: dict[tuple, int] = {}  # (op, id) -> its entry: each leaf once

    # ------------------------------------------------------------- tables
    def name(self, text: str) -> int:
        """The id of the local ``text``, added if new."""
        return _interned(self.name_id, self.names, text)

    def new_names(self, texts: list[str]) -> None:
        """Add the locals ``texts``, none of them known yet, in order (ids from ``len(names)`` on)."""
        self.name_id.update(zip(texts, range(len(self.names), len(self.names) + len(texts))))
        self.names += texts

    def literal(self, value) -> int:
        """The id of the exact coefficient ``value`` (an ``int`` or ``Fraction``, not negative), added if new."""
        return _interned(self.literal_id, self.literals, value)

    def call(self, name: str) -> int:
        """The id of the runtime function ``name``, added if new."""
        return _interned(self.call_id, self.calls, name)

    # ------------------------------------------------------------- entries
    def add(self, op: int, kids) -> int:
        """A new entry ``op`` of ``kids``; its id."""
        self._op.append(op)
        self._first.append(self.n_kids)
        self._count.append(len(kids))
        self._kids.extend(kids)
        self.n_kids += len(kids)
        self.size += 1
        return self.size - 1

    def leaf(self, op: int, ident: int) -> int:
        """The entry of a leaf (:data:`LOCAL` name, :data:`LITERAL`, :data:`PIECE`), each made once."""
        found = self._leaf.get((op, ident))
        if found is None:
            found = self._leaf[op, ident] = self.add(op, (ident,))
        return found

    def extend(self, op, first, count, kids) -> None:
        """Append entries made elsewhere (their ids and operands already counted from :attr:`size`, :attr:`n_kids`)."""
        self._flush()
        self._store(op, first, count, kids)
        self.size += len(op)
        self.n_kids += len(kids)

    def extend_rows(self, made: np.ndarray) -> None:
        """Append the entries a compiled pass made: rows ``(op, m, kid, kid, kid)`` (``m`` kids) after row 0,
        whose first cell holds their number; their ids counted from :attr:`size`."""
        self.extend(*_arrays_of_rows(made, self.n_kids))

    def _flush(self) -> None:
        if self._op:
            self._store(self._op, self._first, self._count, self._kids)
            self._op, self._first, self._count, self._kids = [], [], [], []

    def _store(self, op, first, count, kids) -> None:
        """Copy entries into the arrays, doubling them when full."""
        n, m = self._stored + len(op), self._stored_kids + len(kids)
        if n > len(self._entries[0]):
            self._entries = tuple(np.concatenate([a, np.zeros(max(n, 2 * len(a)), a.dtype)]) for a in self._entries)
        if m > len(self._kid_array):
            self._kid_array = np.concatenate([self._kid_array, np.zeros(max(m, 2 * len(self._kid_array)), np.int64)])
        for array, values in zip(self._entries, (op, first, count)):
            array[self._stored:n] = values
        self._kid_array[self._stored_kids:m] = kids
        self._stored, self._stored_kids = n, m

    def arrays(self) -> tuple:
        """``(op, first, count, kids)``: the table as NumPy arrays (int8, int64, int64, int64; views, valid until
        entries are added)."""
        self._flush()
        op, first, count = self._entries
        return op[:self.size], first[:self.size], count[:self.size], self._kid_array[:self.n_kids]

    @property
    def op(self) -> np.ndarray:
        return self.arrays()[0]

    # ------------------------------------------------------------- light tuples
    def encode(self, expr) -> int:
        """The entry of a light expression: a local (``str``), a literal, a tuple, or a SymPy piece."""
        t = type(expr)
        if t is str:
            return self.leaf(LOCAL, self.name(expr))
        if t is int or t is Fraction:
            return self.leaf(LITERAL, self.literal(expr))
        if t is not tuple:
            self.pieces.append(expr)
            return self.add(PIECE, (len(self.pieces) - 1,))
        if expr[0] == "call":
            return self.add(CALL, (self.call(expr[1]), *map(self.encode, expr[2:])))
        return self.add(TAGS[expr[0]], tuple(map(self.encode, expr[1:])))

    def decode(self, entry: int):
        """The light expression of ``entry`` (the inverse of :meth:`encode`)."""
        return self.decode_all([entry])[0]

    def decode_all(self, entries) -> list:
        """:meth:`decode` of each entry."""
        op, first, count, kids = (a.tolist() for a in self.arrays())
        return [self._decoded(int(e), op, first, count, kids) for e in entries]

    def _decoded(self, e: int, op: list, first: list, count: list, kids: list):
        code, args = op[e], kids[first[e]:first[e] + count[e]]
        if code == LOCAL:
            return self.names[args[0]]
        if code == LITERAL:
            return self.literals[args[0]]
        if code == PIECE:
            return self.pieces[args[0]]
        if code == CALL:
            return ("call", self.calls[args[0]], *(self._decoded(a, op, first, count, kids) for a in args[1:]))
        return (_TAG_OF[code], *(self._decoded(a, op, first, count, kids) for a in args))


@njit(cache=True)
def _arrays_of_rows(made, kid0):
    """The entries ``made`` (:meth:`Expressions.extend_rows`) as the arrays of :meth:`Expressions.extend`."""
    n = made[0, 0]
    op, first, count = np.empty(n, np.int8), np.empty(n, np.int64), np.empty(n, np.int64)
    kids = np.empty(3 * n, np.int64)
    m = 0
    for e in range(n):
        row = made[e + 1]
        op[e], first[e], count[e] = row[0], kid0 + m, row[1]
        for k in range(row[1]):
            kids[m] = row[2 + k]
            m += 1
    return op, first, count, kids[:m]
