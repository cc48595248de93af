"""The text of a program's expressions in every language: a compiled pass writes tokens, a language's words join them.

The entries of an :class:`~hornermcts.codegen.expressions.Expressions` table
are written by one compiled loop (:func:`_tokens`) into a stream of token ids,
the same for every language: the operators, parentheses and separators are
:data:`FIXED` words, a local, a literal, a call or a piece its own word.  A
language gives the words (its literals, its pair ``dd_pair(`` or ``(``, the
names of its locals, its printer's pieces) and the stream becomes text by
joins (:meth:`Rendered.texts`).  Code generation wrote
about 3-8 x 10^5 operations per CPU second through light tuples and a Python
writer; see ``benchmarks/results/emission_speed.txt`` for this one.

The parentheses are those of SymPy's ``CodePrinter._print_Mul`` and
``StrPrinter._print_Add`` on the unevaluated products (``Mul(a, b)``,
``Mul(-1, a)``) and sums of the program, with ``order="none"`` (the text
SymPy's printers gave, pinned by ``tests/codegen/test_emitted_text.py``):

* a factor of a product or a quotient is parenthesised when it is a
  product, a sum, a negation or a quotient (``a*(b*c)``, ``2*(x + y)``, ``(-a)*b``);
* a negation ``-a`` of a product writes its factors, each parenthesised only
  when it is a sum or a negation (``-2*x*y`` for ``-(2*(x*y))``), a sum in
  parentheses, ``-(-1)*a`` for ``-(-a)``;
* a sum writes ``a + b``, ``a - b`` for a term written with a leading ``-``,
  a term that is itself a sum in parentheses.

>>> from fractions import Fraction
>>> from hornermcts.codegen.expressions import Expressions
>>> table = Expressions()
>>> e = table.encode(("-", ("*", Fraction(1, 4), ("*", "x", ("+", "y", ("-", 3))))))
>>> render(table, [e]).texts(table, lambda v: repr(float(v)), table.names, "dd_pair(", "-1", str)
['-0.25*x*(y - 3.0)']
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .expressions import ADD, CALL, DIV, LITERAL, LOCAL, MUL, NEG, PIECE, Expressions

__all__ = ["Rendered", "render", "FIXED"]

#: The words every language writes alike, at ids 0..10: ``-``, parentheses, ``*``, ``/``, the sum's separators,
#: the argument separator; then the pair's opening (``dd_pair(`` in C, ``(`` in Python), ``-1``, the empty word.
FIXED = ("-", "(", ")", "*", "/", " + ", " - ", ", ")
_MINUS, _OPEN, _CLOSE, _TIMES, _OVER, _PLUS_SEP, _MINUS_SEP, _COMMA, _PAIR, _NEG_ONE, _EMPTY = range(11)
_FIRST_WORD = 11

# what a context parenthesises: a factor (of * or /), a factor of a negated product, a term of a sum
_FACTOR = (1 << MUL) | (1 << ADD) | (1 << NEG) | (1 << DIV)
_SIGNED = (1 << ADD) | (1 << NEG)
_TERM = 1 << ADD

# the tasks of the loop: write a word, write an entry (in a context), a sum's separator, its sign fixed
_EMIT, _WRITE, _SEPARATOR, _FIX = range(4)


class Rendered:
    """The token stream of some entries of a table (:func:`render`): ``tokens``, each root's ``bounds``, the
    locals read: ``read_roots[k]`` read the name ``read_names[k]`` (repeats included), in the order written;
    a piece ``-1 - id`` (its symbols).  ``sizes``: the table's names, literals, calls and pieces then (the
    words' ids follow from them, whatever the table holds since)."""

    def __init__(self, tokens: np.ndarray, bounds: np.ndarray, read_roots: np.ndarray, read_names: np.ndarray,
                 sizes: tuple[int, int, int, int]):
        self.tokens, self.bounds, self.read_roots, self.read_names = tokens, bounds, read_roots, read_names
        self.sizes = sizes

    def texts(self, table: Expressions, literal, names: list[str], pair: str, neg_one: str, piece_text) -> list[str]:
        """Each root's text in a language: :data:`FIXED`, ``pair`` (a pair's opening), ``neg_one``, then the
        names of the table's locals (``names``, by id), its literals (``literal(value)``), its calls
        (``name(``), its pieces (``piece_text(expression)``)."""
        n_names, n_literals, n_calls, n_pieces = self.sizes
        words = [*FIXED, pair, neg_one, "", *names[:n_names], *map(literal, table.literals[:n_literals]),
                 *(c + "(" for c in table.calls[:n_calls]), *map(piece_text, table.pieces[:n_pieces])]
        text = "".join(words)
        data = text.encode()
        ascii_only = len(data) == len(text)  # then a word's bytes are its characters
        lengths = map(len, words) if ascii_only else (len(w.encode()) for w in words)
        ends = np.fromiter(lengths, np.int64, len(words)).cumsum()
        joined, bounds = _joined(np.frombuffer(data, np.uint8), ends, self.tokens, self.bounds)
        bounds = bounds.tolist()
        if ascii_only:
            out = joined.tobytes().decode("ascii")
            return [out[a:b] for a, b in zip(bounds, bounds[1:])]
        return [joined[a:b].tobytes().decode() for a, b in zip(bounds, bounds[1:])]


def render(table: Expressions, roots) -> Rendered:
    """The token stream of the entries ``roots`` of ``table``.

    A piece is a statement of its own (or a pair's argument), never a sum's
    term: whether its text starts with ``-`` is not asked.
    """
    op, first, count, kids = table.arrays()
    n_names, n_literals, n_calls = len(table.names), len(table.literals), len(table.calls)
    pair = table.call_id.get("dd_pair", -1)
    literal0 = _FIRST_WORD + n_names
    call0 = literal0 + n_literals
    piece0 = call0 + n_calls
    capacity, done = 1024 + 4 * len(kids), False
    while not done:
        tokens, bounds, read_roots, read_names, done = _tokens(op, first, count, kids, np.asarray(roots, np.int64),
                                                               literal0, call0, piece0, pair, capacity)
        capacity *= 2
    return Rendered(tokens, bounds, read_roots, read_names, (n_names, n_literals, n_calls, len(table.pieces)))


@njit(cache=True)
def _joined(data, ends, tokens, bounds):
    """The bytes of the words ``tokens`` (word ``k`` is ``data[ends[k - 1]:ends[k]]``), and each root's bounds."""
    size = 0
    for t in tokens:
        size += ends[t] - (ends[t - 1] if t else 0)
    out = np.empty(size, np.uint8)
    at = np.empty(len(bounds), np.int64)
    n, root = 0, 0
    for k in range(len(tokens)):
        while root < len(bounds) and bounds[root] == k:
            at[root] = n
            root += 1
        t = tokens[k]
        start = ends[t - 1] if t else 0
        for b in range(start, ends[t]):
            out[n] = data[b]
            n += 1
    while root < len(bounds):
        at[root] = n
        root += 1
    return out, at


@njit(cache=True)
def _tokens(op, first, count, kids, roots, literal0, call0, piece0, pair, capacity):
    """The token stream of each root (see the module docstring); an explicit stack of tasks, no recursion.

    Returns the tokens, each root's bounds, the reads, and False when
    ``capacity`` tokens or tasks were too few (the arrays grow outside: a
    growing array inside the loop made it ten times slower).
    """
    tokens = np.empty(capacity, np.int32)
    n = 0
    bounds = np.empty(len(roots) + 1, np.int64)
    read_roots = np.empty(len(kids) + len(roots), np.int64)  # a local or piece read once per reference
    read_names = np.empty(len(kids) + len(roots), np.int64)
    n_reads = 0
    task = np.empty(capacity, np.int64)  # (kind, a, b) triples
    where = np.empty(len(kids) + 1, np.int64)  # the positions of the open separators, one per operand at most
    for r in range(len(roots)):
        bounds[r] = n
        top = 0
        n_where = 0
        task[0], task[1], task[2] = _WRITE, roots[r], 0
        top = 3
        while top:
            top -= 3
            kind, a, b = task[top], task[top + 1], task[top + 2]
            if n + 8 > len(tokens):
                return tokens, bounds, read_roots, read_names, False
            if kind == _EMIT:
                tokens[n] = a
                n += 1
                continue
            if kind == _SEPARATOR:
                where[n_where] = n
                n_where += 1
                tokens[n] = _PLUS_SEP
                n += 1
                continue
            if kind == _FIX:  # " + -a" becomes " - a"
                n_where -= 1
                p = where[n_where]
                t = tokens[p + 1]
                if t == _MINUS:
                    tokens[p], tokens[p + 1] = _MINUS_SEP, _EMPTY
                continue
            e = a
            code = op[e]
            at = first[e]
            m = count[e]
            if top + 3 * (3 * m + 6) > len(task):
                return tokens, bounds, read_roots, read_names, False
            if (b >> code) & 1:  # in parentheses: (, the entry, )
                task[top], task[top + 1], task[top + 2] = _EMIT, _CLOSE, 0
                task[top + 3], task[top + 4], task[top + 5] = _WRITE, e, 0
                tokens[n] = _OPEN
                n += 1
                top += 6
                continue
            if code == LOCAL:
                tokens[n] = _FIRST_WORD + kids[at]
                n += 1
                read_roots[n_reads], read_names[n_reads] = r, kids[at]
                n_reads += 1
            elif code == LITERAL:
                tokens[n] = literal0 + kids[at]
                n += 1
            elif code == PIECE:  # its reads are its symbols': -1 - its id
                tokens[n] = piece0 + kids[at]
                n += 1
                read_roots[n_reads], read_names[n_reads] = r, -1 - kids[at]
                n_reads += 1
            elif code == MUL or code == DIV:  # pushed last first
                task[top], task[top + 1], task[top + 2] = _WRITE, kids[at + 1], _FACTOR
                task[top + 3], task[top + 4], task[top + 5] = _EMIT, _TIMES if code == MUL else _OVER, 0
                task[top + 6], task[top + 7], task[top + 8] = _WRITE, kids[at], _FACTOR
                top += 9
            elif code == ADD:
                for k in range(m - 1, 0, -1):
                    task[top], task[top + 1], task[top + 2] = _FIX, 0, 0
                    task[top + 3], task[top + 4], task[top + 5] = _WRITE, kids[at + k], _TERM
                    task[top + 6], task[top + 7], task[top + 8] = _SEPARATOR, 0, 0
                    top += 9
                task[top], task[top + 1], task[top + 2] = _WRITE, kids[at], _TERM
                top += 3
            elif code == CALL:
                task[top], task[top + 1], task[top + 2] = _EMIT, _CLOSE, 0
                top += 3
                for k in range(m - 1, 0, -1):
                    task[top], task[top + 1], task[top + 2] = _WRITE, kids[at + k], 0
                    top += 3
                    if k > 1:
                        task[top], task[top + 1], task[top + 2] = _EMIT, _COMMA, 0
                        top += 3
                tokens[n] = _PAIR if kids[at] == pair else call0 + kids[at]
                n += 1
            else:  # NEG
                tokens[n] = _MINUS
                n += 1
                inner = kids[at]
                inner_code = op[inner]
                inner_at = first[inner]
                if inner_code == MUL:  # -x*y: the factors parenthesised only when sums or negations
                    task[top], task[top + 1], task[top + 2] = _WRITE, kids[inner_at + 1], _SIGNED
                    task[top + 3], task[top + 4], task[top + 5] = _EMIT, _TIMES, 0
                    task[top + 6], task[top + 7], task[top + 8] = _WRITE, kids[inner_at], _SIGNED
                    top += 9
                elif inner_code == ADD:
                    task[top], task[top + 1], task[top + 2] = _WRITE, inner, _TERM
                    top += 3
                elif inner_code == NEG:  # -(-1)*a
                    tokens[n], tokens[n + 1], tokens[n + 2], tokens[n + 3] = _OPEN, _NEG_ONE, _CLOSE, _TIMES
                    n += 4
                    task[top], task[top + 1], task[top + 2] = _WRITE, kids[inner_at], _SIGNED
                    top += 3
                else:
                    task[top], task[top + 1], task[top + 2] = _WRITE, inner, 0
                    top += 3
    bounds[len(roots)] = n
    return tokens[:n], bounds, read_roots[:n_reads], read_names[:n_reads], True
