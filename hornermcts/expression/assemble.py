"""The optimized units, calls and reciprocals as one list of assignments, in evaluation order.

:func:`assemble` takes the ``sympy.cse``-shaped assignments of the units
optimized together (their temporaries and one expression per unit) and the
definitions of the placeholders (``sin(_u3)``, ``1/_u4``), and returns one
list ``(replacements, outputs)``: every statement after what it reads, a
unit given a name only where a definition reads it, a placeholder that
merely renames another symbol replaced by it.  :func:`count` is the
operations of such a list, each statement once, in FORM's model
(:func:`~hornermcts.cost.counting.own_operations`); :func:`rewritten` and
:func:`in_order` are what the sharing passes over such a list
(:mod:`~hornermcts.expression.sharing`) rewrite and order it with.
"""
from __future__ import annotations

import sympy

from ..cost.counting import OpCount, expression_count

__all__ = ["assemble", "count", "share_scaled", "share_repeated", "placeholders", "rewritten", "rebuilt", "times",
           "in_order"]


def assemble(regions, replacements: list, unit_exprs: list) -> tuple[list, list]:
    """``(statements, outputs)`` in evaluation order; the placeholders of ``regions`` keep their Dummy symbols."""
    read = set()
    for definition in regions.definitions.values():
        read |= definition.free_symbols
    statements: dict = {}
    for t, rhs in replacements:
        statements[t] = rhs
    for k, symbol in enumerate(regions.unit_symbols):
        if symbol in read:
            statements[symbol] = unit_exprs[k]
    for a, definition in regions.definitions.items():
        statements[regions.atoms[a]] = definition
    outputs = [times(c, regions.unit_symbols[k] if regions.unit_symbols[k] in read else unit_exprs[k])
               for c, k in regions.outputs]
    # a statement that only names another symbol (a block is its unit) is replaced by it
    alias = {}
    for s, rhs in statements.items():
        if rhs.is_Symbol:
            alias[s] = rhs
    def resolve(s):
        while s in alias:
            s = alias[s]
        return s
    subs = {s: resolve(s) for s in alias}
    kept = {s: rhs.xreplace(subs) for s, rhs in statements.items() if s not in alias}
    outputs = [e.xreplace(subs) for e in outputs]
    # a reciprocal read once is a division where it is read: a*(1/b) costs two operations, a/b one
    order = in_order(kept, outputs)
    reads: dict = {}
    for e in [rhs for _, rhs in order] + outputs:
        for s in e.free_symbols:
            reads[s] = reads.get(s, 0) + 1
    once = {s: rhs for s, rhs in order if reads.get(s) == 1 and rhs.is_Pow and rhs.exp == -1}
    if once:  # SymPy may cancel what is put in place (u*(1/u)): what no output reads any more is dropped
        outputs = [e.xreplace(once) for e in outputs]
        order = in_order({s: rhs.xreplace(once) for s, rhs in order if s not in once}, outputs)
    return share_scaled(order, outputs)


def _scaled_pairs(e) -> list:
    """The ``(|c|, symbol)`` pairs a product ``c*symbol*...`` offers (c a rational other than +-1)."""
    if not e.is_Mul:
        return []
    numbers = [a for a in e.args if a.is_Rational]
    if len(numbers) != 1 or abs(numbers[0]) == 1:
        return []
    return [(abs(numbers[0]), a) for a in e.args if a.is_Symbol]


def share_scaled(statements: list, outputs: list) -> tuple[list, list]:
    """A number times a symbol that several products use, computed once: ``t = kc/8``, then ``t*b`` for ``kc*b/8``.

    The units are optimized one polynomial each, so ``kc*b**3/8`` in ten of
    them costs the multiplication by 1/8 ten times; named once it costs one.
    Pairs are taken greedily, the most used first, each only where it
    occurs in at least two products; the count never grows (each
    rewrite replaces ``k`` multiplications by one).
    """
    from collections import Counter

    trees = [rhs for _, rhs in statements] + list(outputs)
    uses: Counter = Counter()
    pairs_of: dict = {}  # each distinct product's pairs, counted once
    offers: list = []  # the pairs each tree's products offer
    for tree in trees:
        offered: set = set()
        for node in sympy.preorder_traversal(tree):
            if node.is_Mul:
                if node not in pairs_of:
                    pairs_of[node] = _scaled_pairs(node)
                    uses.update(pairs_of[node])
                offered.update(pairs_of[node])
        offers.append(offered)
    shared = {pair: sympy.Dummy("scaled") for pair, k in uses.most_common() if k >= 2}
    if not shared:
        return statements, outputs
    taken: dict = {}

    def rewrite(node):
        pairs = [p for p in _scaled_pairs(node) if p in shared]
        if not pairs:
            return None
        pair = max(pairs, key=lambda p: uses[p])
        c = next(a for a in node.args if a.is_Rational)
        rest = [a for a in node.args if a is not c and a != pair[1]] + [a for a in node.args if a == pair[1]][1:]
        taken[pair] = shared[pair]
        return sympy.Mul(sympy.sign(c), shared[pair], *rest)

    def replaced(tree, offered: set):
        if offered.isdisjoint(shared):  # no product in it offers a shared pair
            return tree
        return tree.replace(lambda n: n.is_Mul and rewrite(n) is not None, rewrite)

    statements = [(s, replaced(rhs, offered)) for (s, rhs), offered in zip(statements, offers)]
    outputs = [replaced(e, offered) for e, offered in zip(outputs, offers[len(statements):])]
    names = [(t, sympy.Mul(c, symbol)) for (c, symbol), t in taken.items()]
    return names + statements, outputs


def share_repeated(statements: list, outputs: list) -> tuple[list, list]:
    """What still repeats across the assembled statements, named once: ``sympy.cse`` over them all.

    The units are optimized together, but what the Horner schemes of two
    units associate differently (a mass-matrix entry in two rows of an
    equation of motion), or a product of atoms of two units (a placeholder
    times a block) is computed in each.  ``sympy.cse`` of the statements'
    right-hand sides and the outputs together (the statements' names are
    atoms to it) finds such repeats: n-link pendulum n=5 201 -> 180
    operations, gait2d rows 9-17 1071 -> 1057, in 0.02 and 0.25 s.  The
    caller keeps the cheaper (``sympy.cse`` may also write a product
    ``2*(a + b)`` out).
    """
    n = len(statements)
    found, reduced = sympy.cse([rhs for _, rhs in statements] + list(outputs), symbols=placeholders())
    table = dict(found)
    table.update((s, rhs) for (s, _), rhs in zip(statements, reduced[:n]))
    outputs = list(reduced[n:])
    return in_order(table, outputs), outputs


def rewritten(statements: list, outputs: list, rule) -> tuple[list, list]:
    """``(statements, outputs)`` rewritten node by node, bottom up: ``rule(node)`` (its arguments rewritten already)
    gives the new node, or None for the node as it is; the statements the outputs still read, in order."""
    memo: dict = {}

    def walk(e):
        if e.is_Atom:
            return e
        got = memo.get(e)
        if got is None:
            node = rebuilt(e, [walk(a) for a in e.args])
            got = memo[e] = rule(node) if (node.is_Add or node.is_Mul) else None
            if got is None:
                got = memo[e] = node
        return got

    table = {s: walk(rhs) for s, rhs in statements}
    outputs = [walk(e) for e in outputs]
    return in_order(table, outputs), outputs


def rebuilt(e, args, again: bool = False):
    """``e`` with new arguments, evaluated (``e`` itself where they are its own, unless ``again``); a number other
    than -1 times a sum kept whole (SymPy would distribute ``2*(a + b)``: one multiplication for each term, not one)."""
    if not again and all(a is b for a, b in zip(args, e.args)):
        return e
    if e.is_Mul and len(args) == 2 and any(a.is_Number and a != -1 for a in args) and any(a.is_Add for a in args):
        return sympy.Mul(*args, evaluate=False)
    return e.func(*args)


def times(c, expr):
    """``c*expr``, a sum kept whole (SymPy would distribute ``2*(a + b)``)."""
    if c == 1:
        return expr
    return sympy.Mul(sympy.sympify(c), expr, evaluate=False) if expr.is_Add else sympy.sympify(c) * expr


def in_order(statements: dict, outputs: list) -> list:
    """The statements the outputs need, each after the statements it reads (depth first, iterative)."""
    order: list = []
    done: set = set()
    reads: dict = {}
    keys: dict = {}  # each symbol's sort key once (computing it is most of the time here)

    def _sorted(symbols) -> list:
        """``symbols`` in a fixed order (placeholders by creation), last first: the depth-first walk pops the first."""
        for s in symbols:
            if s not in keys:
                keys[s] = sympy.default_sort_key(s)
        return sorted(symbols, key=keys.__getitem__, reverse=True)

    for root in outputs:
        stack = [(s, False) for s in _sorted(root.free_symbols) if s in statements]
        while stack:
            s, ready = stack.pop()
            if s in done:
                continue
            if ready:
                done.add(s)
                order.append((s, statements[s]))
                continue
            stack.append((s, True))
            if s not in reads:
                reads[s] = [d for d in _sorted(statements[s].free_symbols) if d in statements]
            stack.extend((d, False) for d in reads[s] if d not in done)
    return order


def placeholders():
    """Endless fresh Dummy symbols: temporaries that whoever writes the assignments names afterwards."""
    return (sympy.Dummy() for _ in iter(int, 1))


def count(statements: list, outputs: list) -> OpCount:
    """Operations of ``statements`` and ``outputs`` in FORM's model, each statement once (its name is free)."""
    memo: dict = {}  # the subtrees' counts, shared by the statements
    return sum((expression_count(e, memo) for e in [*(rhs for _, rhs in statements), *outputs]), OpCount())
