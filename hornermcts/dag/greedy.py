"""Greedy optimizations after common subexpression elimination.

The Horner DAG of :mod:`hornermcts.dag.horner` is binary.  Here it is first read
as *n-ary* expressions: a sum node used once by another sum is merged into it
(its coefficients scaled), a product used once by a product likewise, so that
every expression is either a sum ``c1*a1 + c2*a2 + ...`` or a product
``a1^m1 * a2^m2 * ...`` of *operands* (variable powers, shared
subexpressions, other expressions).  Then, as long as it pays:

* **pair patterns**: the pattern that occurs in the most expressions is
  made a temporary and substituted everywhere: a product pair ``a*b``, or a
  sum pair ``a + r*b`` (occurring as ``c*a + c*r*b`` for any ``c``: sign and
  numeric factor are free), ``b`` possibly the constant 1 (``a + r``);
* **partial factorisation**: in a sum, the terms that are products used
  only there and share a factor ``f`` become ``f*(...)``; a term ``c*a*b``
  whose product is used elsewhere too joins with ``c*b`` when that is
  computed anyway (or ``c`` is +-1).

Each step saves operations in FORM's model (a pattern found in ``k``
expressions saves about ``k - 1``); the result is written back as a binary
:class:`~hornermcts.dag.Dag`, which hash-conses again, and is kept only if
its count is lower.  Only a whole sum gives its content (the gcd of its
coefficients) to its users; its partial sums keep their coefficients, so
``9 - 3*x + u*v`` is not written ``3*(3 - x) + u*v`` (one multiplication
more, and ``3*x`` no longer shared).  Every step is an algebraic identity,
so the output equals the input exactly.

Examples
--------
>>> import sympy
>>> from hornermcts.parse import from_sympy
>>> from hornermcts.dag.horner import horner_dag
>>> from hornermcts.dag.views import to_expression
>>> a, b, c, d, u, x, y = sympy.symbols("a b c d u x y")
>>> expr = sympy.expand((a + b)*(c + d)*x + 2*(a + b)*y + 3*(c + d)*u + x*y*u)
>>> dag = horner_dag(from_sympy(expr))
>>> better = greedy(dag)
>>> dag.count().total, better.count().total
(18, 12)
>>> sympy.expand(to_expression(better) - expr)
0
"""
from __future__ import annotations

from ..errors import OptionError

import heapq
from fractions import Fraction
from functools import lru_cache
from math import gcd

from ..polynomial.coefficients import quotient
from .graph import ONE, Add, Dag, Mul, Scale, content
from ..deadline import Deadline

__all__ = ["greedy", "nary", "pair_greedy", "factorize"]

SUM, PROD = 0, 1

#: Steps between two looks at the clock in the passes (a look costs ~50 ns).
CLOCK_EVERY = 64


class _Nary:
    """Mutable n-ary form: expressions keyed by id, each (kind, {operand: weight})."""

    def __init__(self, dag: Dag):
        self.dag = dag
        nodes = dag.nodes
        walk = dag.walk()
        uses = [0] * len(nodes)
        # the kind of each node's users: a sum used once by a sum (a product by a product) merges into it
        parent_kind: list = [None] * len(nodes)
        for _, r in dag.roots:
            uses[r] += 1
            parent_kind[r] = "root"
        for _, node in walk:
            kind = type(node)
            for ch in node.children:
                uses[ch] += 1
                parent_kind[ch] = kind if parent_kind[ch] in (None, kind) else "mixed"
        inline = [False] * len(nodes)
        for node_id, node in walk:
            if uses[node_id] == 1 and isinstance(node, (Add, Mul)) and parent_kind[node_id] is type(node):
                inline[node_id] = True
        self.exprs: dict[int, tuple[int, dict]] = {}
        self.numbers: dict = {}
        self.value_of: dict = {}
        for node_id, node in walk:
            if inline[node_id]:
                continue
            terms: dict = {}
            if isinstance(node, Scale):
                self.exprs[node_id] = (PROD, {self.number(node.c): 1, node.a: 1})
            elif isinstance(node, Add):
                sums = [(1, node)]
                while sums:
                    scale, inner = sums.pop()
                    for c, ch in inner.operands:
                        if inline[ch]:
                            sums.append((scale * c, nodes[ch]))
                        else:
                            terms[ch] = terms.get(ch, 0) + scale * c
                terms = {k: v for k, v in terms.items() if v != 0}
                self.exprs[node_id] = (SUM, terms)
            elif isinstance(node, Mul):
                products = [node]
                while products:
                    product = products.pop()
                    for ch in product.children:
                        if inline[ch]:
                            products.append(nodes[ch])
                        else:
                            terms[ch] = terms.get(ch, 0) + 1
                self.exprs[node_id] = (PROD, terms)
        self.roots = list(dag.roots)
        self.next_id = len(nodes)

    def number(self, c) -> int:
        """The operand id (negative) of the positive number ``c``."""
        got = self.numbers.get(c)
        if got is None:
            got = self.numbers[c] = -1 - len(self.numbers)
            self.value_of[got] = c
        return got

    def push_coefficients(self) -> None:
        """Move ``|c|`` into a product ``P`` that every use takes as a sum term ``+-c*P`` (one ``|c|``).

        ``c*P`` is computed once either way (a shared scaled operand counts
        once); inside ``P`` the number can pair with a factor (``c*a``
        needed elsewhere too) that the pair patterns then share.
        """
        scales: dict = {}
        for _, r in self.roots:
            scales[r] = None
        for kind, terms in self.exprs.values():
            for op, c in terms.items():
                if kind != SUM or c in (1, -1):
                    scales[op] = None
                elif scales.setdefault(op, abs(c)) != abs(c):
                    scales[op] = None
        pushed = set()
        for op, scale in scales.items():
            if scale is None or op not in self.exprs or self.exprs[op][0] != PROD:
                continue
            pushed.add(op)
            factors = self.exprs[op][1]
            for f in [f for f in factors if f < 0]:
                scale = scale * self.value_of[f] ** factors.pop(f)
            if scale != 1:
                factors[self.number(scale)] = 1
        for kind, terms in self.exprs.values():
            if kind == SUM:
                for op in pushed.intersection(terms):
                    terms[op] = 1 if terms[op] > 0 else -1

    def scaled_pairs(self) -> set:
        """``(number operand, operand)`` of every sum term ``c*a`` with ``|c| != 1``."""
        out = set()
        for kind, terms in self.exprs.values():
            if kind == SUM:
                for op, c in terms.items():
                    if op != ONE and c not in (1, -1):
                        out.add((self.number(abs(c)), op))
        return out

    def new(self, kind: int, terms: dict) -> int:
        e = self.next_id
        self.next_id += 1
        self.exprs[e] = (kind, terms)
        return e

    def use_counts(self) -> dict:
        uses: dict = {}
        for _, r in self.roots:
            uses[r] = uses.get(r, 0) + 1
        for _, terms in self.exprs.values():
            for op in terms:
                uses[op] = uses.get(op, 0) + 1
        return uses

    # ---------------------------------------------------------------- writing back
    def to_dag(self) -> Dag:
        """The n-ary form written back as a (hash-consed) binary DAG."""
        old = self.dag
        dag = Dag(old.symbols, dict(old.opaque))
        memo: dict = {ONE: (1, ONE)}
        exprs = self.exprs

        def value(op):
            got = memo.get(op)
            if got is not None:
                return got
            # iterative post-order to survive deep chains
            stack = [(op, False)]
            while stack:
                e, ready = stack.pop()
                if e in memo:
                    continue
                if e < 0:
                    memo[e] = (self.value_of[e], ONE)
                    continue
                if e not in exprs:  # a power of a variable: every other node is an expression
                    power = old.nodes[e]
                    memo[e] = (1, dag.power(power.var, power.n))
                    continue
                kind, terms = exprs[e]
                if not ready:
                    stack.append((e, True))
                    stack.extend((t, False) for t in terms if t not in memo)
                    continue
                if kind == PROD and len(terms) == 2 and sum(terms.values()) == 2 and min(terms) < 0:
                    num, factor = sorted(terms)
                    s, n = memo[factor]
                    memo[e] = dag.scale(self.value_of[num] * s, n)
                elif kind == PROD:
                    scale, node = 1, ONE
                    for t, m in sorted(terms.items()):
                        c, n = memo[t]
                        for _ in range(m):
                            scale = scale * c
                            node = dag.mul(node, n)
                    memo[e] = (scale, node)
                else:
                    acc: dict = {}
                    for t, c in terms.items():
                        s, n = memo[t]
                        acc[n] = acc.get(n, 0) + c * s
                    items = sorted((n, c) for n, c in acc.items() if c != 0)
                    if not items:
                        memo[e] = (0, ONE)
                        continue
                    g = 0  # the content of the whole sum goes to its users; the partial sums keep theirs
                    for _, c in items:
                        g = content(g, c) if g else abs(c)
                    items = [(n, quotient(c, g)) for n, c in items]
                    n0, c0 = items[0]
                    cur = (c0, n0)
                    for n, c in items[1:]:
                        cur = dag.add(cur, (c, n), use_content=False)
                    memo[e] = (g * cur[0], cur[1])
            return memo[op]

        dag.roots = []
        for c, r in self.roots:
            s, n = value(r)
            dag.roots.append((c * s, n) if c * s != 0 else (0, ONE))
        return dag


def nary(dag: Dag) -> _Nary:
    """The mutable n-ary form of ``dag`` that :func:`pair_greedy` and :func:`factorize` rewrite."""
    return _Nary(dag)


@lru_cache(maxsize=1 << 16)
def _int_ratio(a: int, b: int):
    return quotient(a, b)


def _ratio(a, b):
    """``quotient(a, b)``, remembered for two ints (the pair patterns ask for the same few ratios again and again)."""
    if type(a) is int and type(b) is int:
        return _int_ratio(a, b)
    return quotient(a, b)


def _pairs(kind, terms, shared=None, free_with=None):
    """The pair patterns of one expression.

    With ``shared`` (the operands that occur in two expressions or more),
    only the patterns that can: a pair with an operand found nowhere else
    saves nothing, unless it is a free product (``free_with[a]``: the ``b``
    of the computed products ``a*b``).  A sum of 5,000 variables then has
    no patterns, not 12.5 million.
    """
    ops = sorted(terms)
    out = []
    if kind == PROD:
        for i, a in enumerate(ops):
            partners = ops[i + 1:] if shared is None else _partners(a, ops[i + 1:], shared, free_with, terms)
            if terms[a] >= 2 and (shared is None or a in shared or a in free_with.get(a, ())):
                out.append((PROD, a, a, 1))
            for b in partners:
                out.append((PROD, a, b, 1))
    else:
        for i, a in enumerate(ops):
            if a == ONE or (shared is not None and a not in shared):
                continue
            ca = terms[a]
            for b in ops[i + 1:] if shared is None else [b for b in ops[i + 1:] if b in shared]:
                out.append((SUM, a, b, _ratio(terms[b], ca)))
            if ONE in terms and (shared is None or ONE in shared):  # x + c
                out.append((SUM, a, ONE, _ratio(terms[ONE], ca)))
    return out


def _partners(a, later: list, shared: set, free_with: dict, terms: dict) -> list:
    """The operands ``b`` of ``later`` (all above ``a``, ascending) that ``a*b`` can pay with."""
    if a in shared:
        free = [b for b in free_with.get(a, ()) if b in terms and b > a and b not in shared]
        partners = [b for b in later if b in shared]
        return sorted(partners + free) if free else partners
    return sorted(b for b in free_with.get(a, ()) if b in terms and b > a)


def _apply(nf: _Nary, e: int, pattern, t: int) -> bool:
    kind, terms = nf.exprs[e]
    pk, a, b, r = pattern
    if pk == PROD:
        need = 2 if a == b else 1
        if terms.get(a, 0) < need or terms.get(b, 0) < 1:
            return False
        for op in (a, b):
            terms[op] -= 1
            if terms[op] == 0:
                del terms[op]
        terms[t] = terms.get(t, 0) + 1
        return True
    if a not in terms or b not in terms or _ratio(terms[b], terms[a]) != r:
        return False
    ca = terms.pop(a)
    del terms[b]
    terms[t] = terms.get(t, 0) + ca
    if terms[t] == 0:
        del terms[t]
    return True


def pair_greedy(nf: _Nary, max_steps: int | None = None, deadline: Deadline | None = None) -> int:
    """Substitute the pair pattern of largest saving until none saves; return the steps taken.

    A pattern found in ``k`` expressions saves ``k - 1`` operations (``k``
    when it is a ``c*a`` already computed for a sum).  The passes stop early
    at ``max_steps`` or at ``deadline``; every step taken is kept (each is an
    identity, so ``nf`` is exact whenever it stops).
    """
    # an operand in one expression stays in at most one (a step takes operands out, its new one goes in),
    # so its pairs are left out (see _pairs): found once, they would never save anything
    seen: set = set()
    shared: set = set()
    for _, terms in nf.exprs.values():
        shared.update(seen.intersection(terms))
        seen.update(terms)
    free = {(PROD, a, b, 1) for a, b in nf.scaled_pairs()}
    free_with: dict = {}
    for _, a, b, _ in free:
        free_with.setdefault(a, set()).add(b)
    where: dict = {}
    for e, (kind, terms) in nf.exprs.items():
        for p in _pairs(kind, terms, shared, free_with):
            where.setdefault(p, set()).add(e)

    def gain(p, s) -> int:
        return len(s) - (p not in free)

    heap = [(-gain(p, s), p) for p, s in where.items() if gain(p, s) >= 1]
    heapq.heapify(heap)
    steps = looks = 0
    timed = deadline is not None and deadline.bounded
    while heap and (max_steps is None or steps < max_steps):
        looks += 1
        if timed and looks % CLOCK_EVERY == 0 and deadline.expired():  # type: ignore[union-attr]
            break
        negk, p = heapq.heappop(heap)
        occ = where.get(p)
        if not occ or gain(p, occ) != -negk:
            if occ and gain(p, occ) >= 1:
                heapq.heappush(heap, (-gain(p, occ), p))
            continue
        pk, a, b, r = p
        if pk == PROD:
            t = nf.new(PROD, {a: 2} if a == b else {a: 1, b: 1})
        else:
            t = nf.new(SUM, {a: 1, b: r})
        shared.add(t)
        steps += 1
        touched = list(occ)
        for e in touched:
            kind, terms = nf.exprs[e]
            old = _pairs(kind, terms, shared, free_with)
            if not _apply(nf, e, p, t):
                continue
            for q in old:
                s = where.get(q)
                if s is not None:
                    s.discard(e)
            for q in _pairs(kind, terms, shared, free_with):
                s = where.setdefault(q, set())
                s.add(e)
                if gain(q, s) >= 1:
                    heapq.heappush(heap, (-gain(q, s), q))
        where.pop(p, None)
    return steps


def _term_factors(nf: _Nary, uses: dict, op: int, c) -> tuple[int, dict, bool]:
    """``(sign, factors, is_product)`` of the sum term ``c*op``."""
    sign = 1 if c > 0 else -1
    if uses.get(op) == 1 and op in nf.exprs and nf.exprs[op][0] == PROD:
        factors = dict(nf.exprs[op][1])
        if abs(c) != 1:
            num = nf.number(abs(c))
            factors[num] = factors.get(num, 0) + 1
        return sign, factors, True
    factors = {op: 1}
    if abs(c) != 1:
        factors[nf.number(abs(c))] = 1
    return sign, factors, False


def _common_numbers(nf: _Nary, split: dict, scaled_uses: dict, members: dict, saving: dict) -> None:
    """Add to ``members``/``saving`` the integers ``g`` that divide the numbers of two terms or more.

    ``6*a + 4*b``: ``g = 2`` takes both, leaving ``3*a`` and ``2*b`` inside
    (counted as a saving when ``c*a`` was computed for this sum alone, as a
    cost when ``(c/g)*a`` is not computed anyway); the terms whose number
    is ``g`` itself are the factor ``g`` already.
    """
    numbers = {}
    for op, (_sign, factors, is_product) in split.items():
        nums = [k for k in factors if k < 0]
        if len(nums) == 1 and factors[nums[0]] == 1 and isinstance(nf.value_of[nums[0]], int):
            numbers[op] = (nf.value_of[nums[0]], is_product)
    values = sorted({n for n, _ in numbers.values()})
    for g in sorted({gcd(m, n) for i, m in enumerate(values) for n in values[i + 1:]} - {1}):
        f = nf.number(g)
        for op, (n, is_product) in numbers.items():
            if n == g or n % g:
                continue
            saves = 0 if is_product else scaled_uses.get((n, op)) == 1  # a plain term's number is its |c|
            costs = 0 if is_product else not scaled_uses.get((n // g, op))
            if saves >= costs:
                members.setdefault(f, []).append(op)
                saving[f] = saving.get(f, 0) + saves - costs


def _shared_pair(nf: _Nary, op: int) -> tuple:
    """``((a, b), (b, a))`` if ``op`` is a product ``a*b`` of two distinct operands, else ``()``."""
    got = nf.exprs.get(op)
    if got is None or got[0] != PROD or len(got[1]) != 2 or any(m != 1 or g < 0 for g, m in got[1].items()):
        return ()
    a, b = got[1]
    return ((a, b), (b, a))


def factorize(nf: _Nary, deadline: Deadline | None = None) -> int:
    """Partial factorisation: ``f*A + f*B + C -> f*(A + B) + C`` while it saves; return steps.

    Each sum in turn: the factor that saves the most over its terms
    (:func:`_best_factor`) is taken out of the terms that have it
    (:func:`_factored_out`), and the sum and the new inner sum are looked at
    again.  Stops early at ``deadline`` (the steps taken are kept).
    """
    uses = nf.use_counts()
    scaled_uses: dict = {}
    for kind, terms in nf.exprs.values():
        if kind == SUM:
            for op, c in terms.items():
                if op != ONE and c not in (1, -1):
                    scaled_uses[abs(c), op] = scaled_uses.get((abs(c), op), 0) + 1
    work = [e for e, (kind, _) in nf.exprs.items() if kind == SUM]
    steps = looks = 0
    timed = deadline is not None and deadline.bounded
    while work:
        looks += 1
        if timed and looks % CLOCK_EVERY == 0 and deadline.expired():  # type: ignore[union-attr]
            break
        e = work.pop()
        terms = nf.exprs[e][1]
        if len(terms) < 2:
            continue
        split = {op: _term_factors(nf, uses, op, c) for op, c in terms.items() if op != ONE}
        chosen = _best_factor(nf, terms, split, scaled_uses)
        if chosen is None:
            continue
        f, members = chosen
        inner: dict = {}
        for op in members:
            key, coef = _factored_out(nf, uses, terms, scaled_uses, split[op], op, f)
            inner[key] = inner.get(key, 0) + coef
            if inner[key] == 0:
                del inner[key]
            if key != ONE and abs(coef) != 1:
                scaled_uses[abs(coef), key] = scaled_uses.get((abs(coef), key), 0) + 1
        s = nf.new(SUM, inner)
        q = nf.new(PROD, {f: 1, s: 1})
        uses[s] = uses[q] = 1
        terms[q] = terms.get(q, 0) + 1
        steps += 1
        work += [e, s]
    return steps


def _best_factor(nf: _Nary, terms: dict, split: dict, scaled_uses: dict) -> tuple[int, list] | None:
    """``(factor, the terms that have it)`` that saves at least one operation taken out of the sum; else None."""
    saving: dict = {}
    members: dict = {}
    for op, (_sign, factors, is_product) in split.items():
        c = terms[op]
        for f in factors:
            members.setdefault(f, []).append(op)
            saves = is_product or (abs(c) != 1 and scaled_uses.get((abs(c), op)) == 1)
            saving[f] = saving.get(f, 0) + saves
        if not is_product:
            # a product a*b used elsewhere too: f = a leaves c*b, never worse when c*b is computed anyway
            for f, q in _shared_pair(nf, op):
                saves = abs(c) != 1 and scaled_uses.get((abs(c), op)) == 1
                costs = abs(c) != 1 and not scaled_uses.get((abs(c), q))
                if saves >= costs:
                    members.setdefault(f, []).append(op)
                    saving[f] = saving.get(f, 0) + saves - costs
    _common_numbers(nf, split, scaled_uses, members, saving)
    if not saving:
        return None
    f = max(saving, key=lambda k: (saving[k], -k))
    if saving[f] - 1 < 1 or len(members[f]) < 2:
        return None
    return f, members[f]


def _factored_out(nf: _Nary, uses: dict, terms: dict, scaled_uses: dict, term: tuple, op: int, f: int) -> tuple:
    """The term ``op`` of the sum leaves it divided by ``f``: ``(key, coefficient)`` of what stays inside."""
    sign, factors, is_product = term
    if f < 0 and f not in factors:  # a number g dividing the term's number n: n/g stays inside
        factors = dict(factors)
        g = nf.value_of[f]
        n = next(k for k in factors if k < 0 and nf.value_of[k] % g == 0)
        rest = nf.number(nf.value_of[n] // g)
        del factors[n]
        factors[rest] = factors.get(rest, 0) + 1
        factors[f] = factors.get(f, 0) + 1
    elif f not in factors:  # a shared product a*b, f one of them: both gain a use (counts stay upper bounds)
        factors = {g: 1 for g in nf.exprs[op][1]}
        for g in factors:
            uses[g] = uses.get(g, 0) + 1
        if abs(terms[op]) != 1:
            factors[nf.number(abs(terms[op]))] = 1
    c = terms.pop(op)
    if not is_product and abs(c) != 1:
        scaled_uses[abs(c), op] -= 1
    factors[f] -= 1
    if factors[f] == 0:
        del factors[f]
    nums = [g for g in factors if g < 0]
    scale = 1
    for g in nums:
        scale = scale * nf.value_of[g] ** factors.pop(g)
    if not factors:
        return ONE, sign * scale
    if len(factors) == 1 and next(iter(factors.values())) == 1:
        return next(iter(factors)), sign * scale
    if scale != 1:
        factors[nf.number(scale)] = 1
    if is_product:
        nf.exprs[op] = (PROD, factors)
        return op, sign
    key = nf.new(PROD, factors)
    uses[key] = 1
    return key, sign


_factorize = factorize  # greedy()'s keyword of the same name hides it there


def _exact_scalars(dag: Dag) -> bool:
    """True if every scalar of the DAG is an exact rational (the rewrites then stay exact)."""
    scalars = [c for c, _ in dag.roots]
    for node in dag.nodes:
        if isinstance(node, Add):
            scalars += [c for c, _ in node.operands]
        elif isinstance(node, Scale):
            scalars.append(node.c)
    return all(isinstance(c, (int, Fraction)) for c in scalars)


def greedy(dag: Dag, *, factorize: bool = True, rounds: int = 3, deadline: Deadline | None = None) -> Dag:
    """The greedy optimizations of ``dag`` (see the module docstring); never worse.

    Parameters
    ----------
    dag : Dag
        Typically a Horner DAG after CSE (:func:`~hornermcts.dag.horner.horner_dag`).
    factorize : bool, default True
        Also apply partial factorisation (then pair patterns again).
    rounds : int, default 3
        Passes at most; each reads the previous pass's DAG anew (the
        hash-consing of the write-back exposes new patterns) and the passes
        stop when one gains nothing.
    deadline : Deadline, optional
        Stop at this moment (:class:`~hornermcts.deadline.Deadline`) with
        the steps taken so far: a pass cut short still gives an exact DAG
        (writing it back takes a moment more); no pass starts after it.

    Returns
    -------
    Dag
        A new DAG with fewer operations, exactly equal to ``dag``; or
        ``dag`` itself when nothing pays, or when a scalar is a float
        (rescaling and merging numbers would round: the step is skipped).
    """
    if rounds < 1:
        raise OptionError(f"rounds must be >= 1, not {rounds!r}")
    if not _exact_scalars(dag):
        return dag
    best, best_ops = dag, dag.count().total
    for _ in range(rounds):
        if deadline is not None and deadline.expired():
            break
        nf = _Nary(best)
        nf.push_coefficients()
        pair_greedy(nf, deadline=deadline)
        if factorize and not (deadline is not None and deadline.expired()) and _factorize(nf, deadline):
            pair_greedy(nf, deadline=deadline)
        out = nf.to_dag()
        ops = out.count().total
        if ops >= best_ops:
            break
        best, best_ops = out, ops
    return best
