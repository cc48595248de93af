"""The fast counter: Horner + CSE operation count of an order, from the arrays.

This is the inner loop of every order search.  It computes exactly what
``horner_dag(poly, order).count()`` computes (tested on every path), without
building node objects: the terms are radix-sorted in the order's
lexicographic order, so the Horner recursion becomes a trie whose nodes are
runs of equal prefixes; the trie is folded bottom-up (level by level, or,
when most exponents are 0, node by node through the lcp intervals of the
sorted terms), every node of the Horner form is given a 64-bit structural
hash under the same canonical rules as :class:`~hornermcts.dag.Dag`
(operands sorted, sums divided by their content and sign), and a
generation-stamped open-addressing table counts the distinct ones.  Compiled
with Numba.

Examples
--------
>>> import sympy
>>> from hornermcts.polynomial import Polynomial
>>> from hornermcts.dag.horner import horner_dag
>>> x, y, z = sympy.symbols("x y z")
>>> p = Polynomial((x, y, z), [[3, 2, 0], [2, 1, 0], [3, 0, 1]], [1, 1, 1])
>>> counter = FastCounter(p)
>>> counter.count([1, 0, 2]) == horner_dag(p, [1, 0, 2]).count().total
True
>>> counter.count_detail([0, 1, 2])
OpCount(additions=2, multiplications=2, powers=2)
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import OptionError
from ..polynomial.coefficients import common_denominator, content_integers, exact_coefficients
from ..polynomial.sparse import normalize_order
from .counting import OpCount, pieces_count
from .kernels import announcing  # noqa: F401  (importing it announces the kernels' compiles)

__all__ = ["FastCounter"]

_ONE = np.uint64(1)
_TAG_POW = np.uint64(0x9E3779B97F4A7C15)
_TAG_MUL = np.uint64(0xC2B2AE3D27D4EB4F)
_TAG_ADD = np.uint64(0x165667B19E3779F9)
_TAG_SCALE = np.uint64(0x27D4EB2F165667C5)
_M1 = np.uint64(0xFF51AFD7ED558CCD)
_M2 = np.uint64(0xC4CEB9FE1A85EC53)


@njit(cache=True, inline="always")
def _fmix(x):
    x ^= x >> np.uint64(33)
    x *= _M1
    x ^= x >> np.uint64(33)
    x *= _M2
    x ^= x >> np.uint64(33)
    return x


# The node hashes.  A node's hash is one finalizer (_fmix) over a linear combination of its parts'
# hashes with odd multipliers: one mixing step on the chain of a Horner fold, where each step waits
# for the previous one.  Numbers (exponents, coefficients) are mixed on their own, off that chain.
_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)


@njit(cache=True, inline="always")
def _hash_pow(v, d):
    return _fmix(_TAG_POW + np.uint64(v) * _K1 + np.uint64(d) * _K2)


@njit(cache=True, inline="always")
def _hash_mul(a, b):
    lo = a if a < b else b
    hi = b if a < b else a
    return _fmix(_TAG_MUL + lo * _K1 + hi * _K2)


@njit(cache=True, inline="always")
def _hash_add(h1, c1, h2, c2):
    return _fmix(_TAG_ADD + h1 * _K1 + h2 * _K2 + _fmix(np.uint64(c1) * _K1 + np.uint64(c2)))


@njit(cache=True, inline="always")
def _hash_scale(c, h):
    return _fmix(_TAG_SCALE + h * _K1 + np.uint64(c) * _K2)


@njit(cache=True, inline="always")
def _insert(table, gen, h):
    """Insert ``h``; return 1 if it was new, 0 if present, -1 if the table is full.

    ``table[slot]`` is (key, generation): a slot whose generation is not
    ``gen`` is empty, so a new count starts with a new ``gen``, not a cleared
    table; key and generation share a cache line.
    """
    mask = table.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    for _ in range(table.shape[0]):
        if table[slot, 1] != gen:
            table[slot, 1] = gen
            table[slot, 0] = h
            return 1
        if table[slot, 0] == h:
            return 0
        slot = (slot + 1) & mask
    return -1


@njit(cache=True)
def _igcd(a, b):
    while b:
        a, b = b, a % b
    return a


@njit(cache=True)
def _find(have, n_have, x):
    """Index of ``x`` in the sorted ``have[:n_have]``, or -1."""
    lo = 0
    hi = n_have
    while lo < hi:
        mid = (lo + hi) >> 1
        if have[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < n_have and have[lo] == x else -1


@njit(cache=True)
def _add(have, n_have, x):
    """Insert ``x`` (absent) into the sorted ``have[:n_have]``; return the new length."""
    i = n_have
    while i > 0 and have[i - 1] > x:
        have[i] = have[i - 1]
        i -= 1
    have[i] = x
    return n_have + 1


@njit(cache=True)
def _power_plan_cost(exps):
    """Cost of :func:`hornermcts.cost.counting.power_plan` for the ascending distinct ``exps``.

    The exponents already computed are a sorted array, so time and memory
    follow how many exponents there are, not how large they are.
    """
    size = 1
    for n in exps:
        m = n
        while m:
            size += 2
            m >>= 1
    have = np.empty(size, dtype=np.int64)
    have[0] = 1
    n_have = 1
    cost = 0
    for n in exps:
        if n < 2 or _find(have, n_have, n) >= 0:
            continue
        found = False
        for k in range(n_have):
            if _find(have, n_have, n - have[k]) >= 0:
                found = True
                break
        if found:
            cost += 1
            n_have = _add(have, n_have, n)
            continue
        # left-to-right binary exponentiation, reusing what exists
        nbits = 0
        m = n
        while m:
            nbits += 1
            m >>= 1
        cur = 1
        for b in range(nbits - 2, -1, -1):
            if _find(have, n_have, 2 * cur) < 0:
                cost += 1
                n_have = _add(have, n_have, 2 * cur)
            cur *= 2
            if (n >> b) & 1:
                if _find(have, n_have, cur + 1) < 0:
                    cost += 1
                    n_have = _add(have, n_have, cur + 1)
                cur += 1
    return cost


#: Most buckets of one radix pass (:func:`_sort_terms`).
_MAX_BUCKETS = 4096


@njit(cache=True)
def _sort_terms(ET, perm, n_keys, counts, key):
    """Term indices in lexicographic order of the exponents along ``perm`` (LSD radix).

    ``ET`` is the transposed exponent matrix (variables x terms), narrow dtype;
    ``n_keys[v]`` the largest exponent (rank) of variable ``v`` plus one.  One
    pass sorts by several consecutive variables at once, their exponents read
    as the digits of one key of at most ``counts.shape[0] - 1`` values: the
    scatter, the pass's costly part, is done once for them all.  ``key`` is
    scratch (one per term).
    """
    n_terms = ET.shape[1]
    idx = np.arange(n_terms)
    tmp = np.empty(n_terms, dtype=np.int64)
    limit = counts.shape[0] - 1
    depth = perm.shape[0] - 1
    while depth >= 0:
        # the variables of this pass: perm[low..depth], innermost the least significant digit
        radix = 1
        low = depth + 1
        while low > 0 and (radix * n_keys[perm[low - 1]] <= limit or radix == 1):
            low -= 1
            radix *= n_keys[perm[low]]
            if radix > limit:
                break
        # (radix > limit: one variable with more exponents than buckets, sorted alone in buckets of its own)
        if radix > 1:
            buckets = counts if radix <= limit else np.zeros(radix + 1, dtype=np.int64)
            key[:n_terms] = 0
            for d in range(low, depth + 1):  # outermost first: the most significant digit
                v = perm[d]
                nk = n_keys[v]
                if nk == 1:
                    continue
                col = ET[v]
                for t in range(n_terms):
                    key[t] = key[t] * nk + col[t]
            buckets[:radix + 1] = 0
            for t in range(n_terms):
                buckets[key[t] + 1] += 1
            for k in range(radix):
                buckets[k + 1] += buckets[k]
            for t in range(n_terms):
                e = key[idx[t]]
                tmp[buckets[e]] = idx[t]
                buckets[e] += 1
            idx, tmp = tmp, idx
        depth = low - 1
    return idx


@njit(cache=True)
def _count(ET, E, values, offset, S, perm, content, unit_root, table, gen, need, large, n_keys, counts, key):
    """(additions, multiplications, powers); (-1, -1, -1) if the table filled up, (-2, -2, -2) if ``large`` did.

    ``ET`` holds the exponents (variables x terms) or, when ``values`` is not
    empty, each variable's exponent *ranks*: the exponent of rank r of
    variable v is then ``values[offset[v] + r]``; ``E`` is its transpose
    (terms x variables).  A power ``v^d`` with ``d < need.shape[1]`` is
    flagged in ``need``, a larger one is recorded once in ``large`` as
    ``v * 2^32 + d``.  ``table`` is the hash table (:func:`_insert`, current
    generation ``gen``); ``n_keys``, ``counts``, ``key`` serve the sort
    (:func:`_sort_terms`).
    """
    n_vars, n_terms = ET.shape
    if n_terms == 0:
        return 0, 0, 0
    idx = _sort_terms(ET, perm, n_keys, counts, key)
    # lcp[t]: length of the common prefix (along perm) of sorted terms t-1 and t
    lcp = np.zeros(n_terms, dtype=np.int64)
    for t in range(1, n_terms):
        a = idx[t - 1]
        b = idx[t]
        d = 0
        while d < n_vars and ET[perm[d], a] == ET[perm[d], b]:
            d += 1
        lcp[t] = d
    # the items of the fold, in sorted order: a run of terms sharing a prefix, read through its first
    # term (iterm), the lcp of that term with the previous run (ilcp), its Horner form so far (scal, hsh)
    n_items = n_terms
    iterm = idx  # idx is not read after the tails below
    ilcp = lcp
    scal = np.empty(n_terms, dtype=np.int64)
    hsh = np.empty(n_terms, dtype=np.uint64)
    for t in range(n_terms):
        scal[t] = S[idx[t]]
        hsh[t] = _ONE
    need[:, :] = False
    adds = 0
    mults = 0
    ks = np.empty(n_terms, dtype=np.int64)
    small = need.shape[1]
    n_large = 0
    ranked = values.shape[0] > 0
    # below the deepest common prefix every term is alone: its powers there multiply it, inner first
    # (the product step is written out here and in the fold: as a Numba helper taking the arrays it
    # cost 10-40% of the whole count, measured on HEP(sigma), res(7,5), h5)
    deepest = min(0, n_vars - 1)  # -1 without variables
    for t in range(1, n_terms):
        deepest = max(deepest, lcp[t])
    for t in range(n_terms):
        term = idx[t]
        acc_h = _ONE
        for depth in range(n_vars - 1, deepest, -1):
            v = perm[depth]
            d = values[offset[v] + E[term, v]] if ranked else np.int64(E[term, v])
            if d == 0:
                continue
            hp = _hash_pow(v, d)
            if d < small:
                need[v, d] = True
            else:
                r = _insert(table, gen, hp)
                if r < 0:
                    return -1, -1, -1
                if r == 1:
                    if n_large == large.shape[0]:
                        return -2, -2, -2
                    large[n_large] = (v << 32) | d
                    n_large += 1
            if acc_h == _ONE:
                acc_h = hp
            else:
                mh = _hash_mul(hp, acc_h)
                r = _insert(table, gen, mh)
                if r < 0:
                    return -1, -1, -1
                mults += r
                acc_h = mh
        hsh[t] = acc_h
    for depth in range(deepest, -1, -1):
        v = perm[depth]
        out = 0
        a = 0
        while a < n_items:
            b = a + 1
            while b < n_items and ilcp[b] >= depth:
                b += 1
            # children a..b-1 of one group, exponents of v ascending
            col = ET[v]
            base = offset[v]
            for j in range(a, b):
                ks[j] = values[base + col[iterm[j]]] if ranked else col[iterm[j]]
            if b - a == 1 and ks[a] == 0:
                iterm[out] = iterm[a]
                ilcp[out] = ilcp[a]
                scal[out] = scal[a]
                hsh[out] = hsh[a]
                out += 1
                a = b
                continue
            acc_s = scal[b - 1]
            acc_h = hsh[b - 1]
            for j in range(b - 2, a - 2, -1):
                if j >= a:
                    d = ks[j + 1] - ks[j]
                else:
                    d = ks[a]
                    if d == 0:
                        break
                # product v^d * acc
                hp = _hash_pow(v, d)
                if d < small:
                    need[v, d] = True
                else:
                    r = _insert(table, gen, hp)
                    if r < 0:
                        return -1, -1, -1
                    if r == 1:
                        if n_large == large.shape[0]:
                            return -2, -2, -2
                        large[n_large] = (v << 32) | d
                        n_large += 1
                if acc_h == _ONE:
                    mh = hp
                else:
                    mh = _hash_mul(hp, acc_h)
                    r = _insert(table, gen, mh)
                    if r < 0:
                        return -1, -1, -1
                    mults += r
                if j < a:
                    acc_h = mh
                    break
                # sum  scal[j]*hsh[j] + acc_s*mh
                c1 = scal[j]
                h1 = hsh[j]
                c2 = acc_s
                h2 = mh
                if h2 < h1:
                    c1, c2 = c2, c1
                    h1, h2 = h2, h1
                g = _igcd(abs(c1), abs(c2)) if content else 1
                if c1 < 0:
                    g = -g
                c1 //= g
                c2 //= g
                ah = _hash_add(h1, c1, h2, c2)
                r = _insert(table, gen, ah)
                if r < 0:
                    return -1, -1, -1
                if r == 1:
                    adds += 1
                    if h1 != _ONE and abs(c1) != 1:
                        r2 = _insert(table, gen, _hash_scale(abs(c1), h1))
                        if r2 < 0:
                            return -1, -1, -1
                        mults += r2
                    if abs(c2) != 1:
                        r2 = _insert(table, gen, _hash_scale(abs(c2), h2))
                        if r2 < 0:
                            return -1, -1, -1
                        mults += r2
                acc_s = g
                acc_h = ah
            iterm[out] = iterm[a]
            ilcp[out] = ilcp[a]
            scal[out] = acc_s
            hsh[out] = acc_h
            out += 1
            a = b
        n_items = out
    if hsh[0] != _ONE and abs(scal[0]) != unit_root:
        mults += 1
    return adds, mults, _powers_cost(need, large, n_large)


@njit(cache=True)
def _powers_cost(need, large, n_large):
    """Multiplications of the power plans, per variable, of the powers flagged in ``need`` and kept in ``large``."""
    small = need.shape[1]
    pows = 0
    big = np.sort(large[:n_large])
    k = 0
    exps = np.empty(small + n_large, dtype=np.int64)
    for v in range(need.shape[0]):
        m = 0
        for d in range(2, small):
            if need[v, d]:
                exps[m] = d
                m += 1
        while k < n_large and (big[k] >> 32) == v:
            exps[m] = big[k] & 0xFFFFFFFF
            m += 1
            k += 1
        if m:
            pows += _power_plan_cost(exps[:m])
    return pows


@njit(cache=True, inline="always")
def _power_hash(v, d, need, table, gen, large, n_large):
    """The hash of ``v^d``, the power recorded as :func:`_count` records it: ``(hash, n_large)``.

    ``n_large`` is -1 if the table filled up, -2 if ``large`` did.
    """
    hp = _hash_pow(v, d)
    if d < need.shape[1]:
        need[v, d] = True
    else:
        r = _insert(table, gen, hp)
        if r < 0:
            return hp, -1
        if r == 1:
            if n_large == large.shape[0]:
                return hp, -2
            large[n_large] = (v << 32) | d
            n_large += 1
    return hp, n_large


@njit(cache=True)
def _count_sparse(ET, term_ptr, var_ptr, var_term, var_exp, S, perm, content, unit_root, table, gen, need, large,
                  n_keys, counts, key, ptr, nz_depth, nz_exp):
    """:func:`_count` for terms with few nonzero exponents: the trie folded node by node, not level by level.

    Each node of the trie is an lcp interval of the sorted terms.  One scan
    with a stack of open intervals folds each node when it closes, and a run
    of terms passes the depths between two nodes through its own nonzero
    exponents only: the work follows the nonzero exponents, not variables x
    terms.  ``term_ptr`` delimits each term's nonzero exponents; ``var_ptr``,
    ``var_term``, ``var_exp`` hold each variable's (term, actual exponent);
    ``ptr``, ``nz_depth``, ``nz_exp`` are scratch.  The same hashes go into
    the table as in :func:`_count` (the Horner fold is written out in both:
    as a Numba helper taking the arrays it made the level-by-level count
    7-12% slower on res(6,5), res(7,5)), so the counts are the same.
    """
    n_vars, n_terms = ET.shape
    if n_terms == 0:
        return 0, 0, 0
    idx = _sort_terms(ET, perm, n_keys, counts, key)
    # the nonzero exponents of the term at sorted position p along perm (depth ascending), stored in
    # sorted order so that the fold reads them in sequence: nz_depth/nz_exp[ptr[p]:ptr[p + 1]]
    ptr[0] = 0
    for p in range(n_terms):
        t = idx[p]
        ptr[p + 1] = ptr[p] + term_ptr[t + 1] - term_ptr[t]
    where = key  # the next free slot of each term's list (the sort is done with key)
    for p in range(n_terms):
        where[idx[p]] = ptr[p]
    for depth in range(n_vars):
        v = perm[depth]
        for k in range(var_ptr[v], var_ptr[v + 1]):
            t = var_term[k]
            nz_depth[where[t]] = depth
            nz_exp[where[t]] = var_exp[k]
            where[t] += 1
    need[:, :] = False
    n_large = 0
    adds = 0
    mults = 0
    # items: runs of terms sharing a prefix, folded so far (scal, hsh), read through their first term, whose
    # nonzero exponents nz_*[bottom:top] are not folded in yet
    scal = np.empty(n_terms, dtype=np.int64)
    hsh = np.empty(n_terms, dtype=np.uint64)
    bottom = np.empty(n_terms, dtype=np.int64)
    top = np.empty(n_terms, dtype=np.int64)
    ks = np.empty(n_terms, dtype=np.int64)
    # open intervals: (depth, first item); the one at depth -1 holds the root, whose powers it folds in
    iv_depth = np.empty(n_terms + 1, dtype=np.int64)
    iv_start = np.empty(n_terms + 1, dtype=np.int64)
    iv_depth[0] = -1
    iv_start[0] = 0
    n_iv = 1
    n_items = 0
    for pos in range(n_terms + 1):
        lcp = -2 if pos == n_terms else n_vars  # after the last term: close every interval
        if 0 < pos < n_terms:  # the first depth where the terms at pos - 1 and pos differ
            i = ptr[pos - 1]
            j = ptr[pos]
            i_end = j
            j_end = ptr[pos + 1]
            while i < i_end and j < j_end and nz_depth[i] == nz_depth[j] and nz_exp[i] == nz_exp[j]:
                i += 1
                j += 1
            if i < i_end and j < j_end:
                lcp = min(nz_depth[i], nz_depth[j])
            elif i < i_end:
                lcp = nz_depth[i]
            elif j < j_end:
                lcp = nz_depth[j]
            else:
                lcp = n_vars  # equal terms (never in a Polynomial)
        last = n_items - 1
        while n_iv > 0 and iv_depth[n_iv - 1] > lcp:
            n_iv -= 1
            depth = iv_depth[n_iv]
            s = iv_start[n_iv]
            # each child: its own powers below depth folded in, then its exponent at depth read
            for c in range(s, n_items):
                low = bottom[c]
                k = top[c]
                acc_h = hsh[c]
                while k > low and nz_depth[k - 1] > depth:
                    k -= 1
                    hp, n_large = _power_hash(perm[nz_depth[k]], nz_exp[k], need, table, gen, large, n_large)
                    if n_large < 0:
                        return n_large, n_large, n_large
                    if acc_h == _ONE:
                        acc_h = hp
                    else:
                        mh = _hash_mul(hp, acc_h)
                        r = _insert(table, gen, mh)
                        if r < 0:
                            return -1, -1, -1
                        mults += r
                        acc_h = mh
                hsh[c] = acc_h
                ks[c] = 0
                if k > low and nz_depth[k - 1] == depth:
                    k -= 1
                    ks[c] = nz_exp[k]
                top[c] = k
            if depth < 0:
                break  # the root's powers are in: no variable to fold in
            # the Horner fold in v of children s..n_items-1, last child first (as in _count)
            v = perm[depth]
            acc_s = scal[n_items - 1]
            acc_h = hsh[n_items - 1]
            for j in range(n_items - 2, s - 2, -1):
                if j >= s:
                    d = ks[j + 1] - ks[j]
                else:
                    d = ks[s]
                    if d == 0:
                        break
                hp, n_large = _power_hash(v, d, need, table, gen, large, n_large)
                if n_large < 0:
                    return n_large, n_large, n_large
                if acc_h == _ONE:
                    mh = hp
                else:
                    mh = _hash_mul(hp, acc_h)
                    r = _insert(table, gen, mh)
                    if r < 0:
                        return -1, -1, -1
                    mults += r
                if j < s:
                    acc_h = mh
                    break
                c1 = scal[j]
                h1 = hsh[j]
                c2 = acc_s
                h2 = mh
                if h2 < h1:
                    c1, c2 = c2, c1
                    h1, h2 = h2, h1
                g = _igcd(abs(c1), abs(c2)) if content else 1
                if c1 < 0:
                    g = -g
                c1 //= g
                c2 //= g
                ah = _hash_add(h1, c1, h2, c2)
                r = _insert(table, gen, ah)
                if r < 0:
                    return -1, -1, -1
                if r == 1:
                    adds += 1
                    if h1 != _ONE and abs(c1) != 1:
                        r2 = _insert(table, gen, _hash_scale(abs(c1), h1))
                        if r2 < 0:
                            return -1, -1, -1
                        mults += r2
                    if abs(c2) != 1:
                        r2 = _insert(table, gen, _hash_scale(abs(c2), h2))
                        if r2 < 0:
                            return -1, -1, -1
                        mults += r2
                acc_s = g
                acc_h = ah
            scal[s] = acc_s
            hsh[s] = acc_h
            n_items = s + 1
            last = s
        if pos == n_terms:
            break
        if pos > 0 and iv_depth[n_iv - 1] < lcp:  # a new interval, from the item before this term
            iv_depth[n_iv] = lcp
            iv_start[n_iv] = last
            n_iv += 1
        scal[n_items] = S[idx[pos]]
        hsh[n_items] = _ONE
        bottom[n_items] = ptr[pos]
        top[n_items] = ptr[pos + 1]
        n_items += 1
    if hsh[0] != _ONE and abs(scal[0]) != unit_root:
        mults += 1
    return adds, mults, _powers_cost(need, large, n_large)


#: Below this share of nonzero exponents :class:`FastCounter` folds with :func:`_count_sparse`
#: (measured, per order: 1.2-1.5x faster at 8-15 %; 1.2x slower at 38-54 %, where it is not used).
SPARSE_SHARE = 0.25

#: Powers ``v^d`` with ``d`` below this are flagged in a fixed table per
#: variable; larger ones go through the hash table (memory does not grow with
#: the exponents).
_SMALL_POWER = 64


def exponent_ranks(exponents: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ranks, values, offset)``: the exponents as the counter reads them (variables x terms).

    Exponents below 256 are kept as they are (``uint8``, ``values`` empty).
    Otherwise each variable's exponents are replaced by their rank, in the
    narrowest unsigned dtype: rank r of variable v stands for the exponent
    ``values[offset[v] + r]`` (values ascending per variable).  Sorting and
    comparing ranks is sorting and comparing exponents, and the arrays are as
    large as the input whatever the exponents' size: ``x^1000000000 + y``
    needs no table of 10^9 entries.

    >>> ranks, values, offset = exponent_ranks(np.array([[0, 7], [10**9, 7], [3, 0]]))
    >>> ranks.tolist(), values.tolist(), offset.tolist()
    ([[0, 2, 1], [1, 1, 0]], [0, 3, 1000000000, 0, 7], [0, 3])
    >>> exponent_ranks(np.array([[0, 7], [255, 7]]))[0].tolist()
    [[0, 255], [7, 7]]
    """
    n_terms, n_vars = exponents.shape
    if not exponents.size or exponents.max() < 2**8:
        return np.ascontiguousarray(exponents.T, dtype=np.uint8), np.zeros(0, np.int64), np.zeros(1, np.int64)
    columns = []
    for v in range(n_vars):
        col = exponents[:, v]
        top = int(col.max()) if n_terms else 0
        if top <= 4 * n_terms + 256:  # a presence table no larger than the column: linear time
            present = np.zeros(top + 1, dtype=np.int64)
            present[col] = 1
            distinct = np.flatnonzero(present)
            rank_of = np.cumsum(present) - 1
            columns.append((distinct, rank_of[col]))
        else:
            distinct, inverse = np.unique(col, return_inverse=True)
            columns.append((distinct, inverse.reshape(-1)))
    widest = max((len(d) for d, _ in columns), default=1)
    narrow = np.uint8 if widest <= 2**8 else np.uint16 if widest <= 2**16 else np.uint32
    ranks = np.empty((n_vars, n_terms), dtype=narrow)
    for v, (_, r) in enumerate(columns):
        ranks[v] = r
    sizes = [len(d) for d, _ in columns]
    offset = np.zeros(max(n_vars, 1), dtype=np.int64)
    offset[1:n_vars] = np.cumsum(sizes)[:-1]
    values = np.concatenate([d for d, _ in columns]).astype(np.int64) if columns else np.zeros(0, np.int64)
    return ranks, values, offset


@njit(cache=True)
def _by_variable(exponents, var_ptr):
    """The nonzero exponents variable by variable (``var_ptr``: where each variable's start), each variable's
    terms ascending: ``(terms, exponents)``, int32 (terms below 2^31, exponents at most MAX_EXPONENT: half the
    memory, 81 MB each on gait2d row 12's 10.6 million nonzero exponents)."""
    at = var_ptr[:-1].copy()
    terms = np.zeros(var_ptr[-1], dtype=np.int32)
    values = np.zeros(var_ptr[-1], dtype=np.int32)
    for t in range(exponents.shape[0]):
        for v in range(exponents.shape[1]):
            e = exponents[t, v]
            if e:
                terms[at[v]], values[at[v]] = t, e
                at[v] += 1
    return terms, values


class FastCounter:
    """Scores variable orders of one polynomial by their Horner + CSE count.

    Parameters
    ----------
    poly : Polynomial
    mode : {"content", "sign"}, optional
        As in :func:`~hornermcts.dag.horner.horner_dag` (default: the same choice).
    fold : {"levels", "intervals"}, optional
        How the trie of the sorted terms is folded; the counts are the same.
        ``"levels"`` visits every run of terms at every depth;
        ``"intervals"`` folds each node of the trie once and lets a run of
        terms pass only its own nonzero exponents between two nodes.
        Default: ``"intervals"`` when fewer than :data:`SPARSE_SHARE` of the
        exponents are nonzero (random(40,4000,4): 8 %, 1.5x faster per
        order; det(7): 14 %, 1.4x), else ``"levels"`` (res(6,5): 54 %, where
        the intervals are 1.2x slower).

    ``count(order)`` returns the total, ``count_detail(order)`` an
    :class:`~hornermcts.cost.counting.OpCount`; orders are column indices (outermost
    first) or anything :func:`~hornermcts.polynomial.sparse.normalize_order` accepts.
    The structural hashes are 64-bit, so two different subexpressions could in
    principle collide (probability about n^2 / 2^64); the exact DAG is what
    :func:`hornermcts.optimize` finally builds and reports.
    """

    def __init__(self, poly, *, mode: str | None = None, fold: str | None = None):
        self.poly = poly
        scaled = content_integers(poly) if mode in (None, "content") else None
        self.mode = mode or ("sign" if scaled is None else "content")
        exponents = np.asarray(poly.exponents, dtype=np.int64).reshape(poly.n_terms, poly.n_vars)
        present = exponents != 0  # the nonzero exponents counted by term and by variable (not listed: nonzero()
        per_term, per_variable = present.sum(axis=1), present.sum(axis=0)  # made 2 x 8 bytes each, 160 MB of
        n_nonzero = int(per_term.sum())  # gait2d row 12's)
        del present
        if fold is None:
            fold = "intervals" if n_nonzero < SPARSE_SHARE * exponents.size else "levels"
        if fold not in ("levels", "intervals"):
            raise OptionError(f"fold must be 'levels' or 'intervals', got {fold!r}")
        self.fold = fold
        if scaled is not None:
            self._unit_root, values = scaled
        elif self.mode == "content":  # asked for with a Float among the coefficients
            coefs = exact_coefficients(poly)
            scale = common_denominator(coefs)
            values = [int(c * scale) for c in coefs]
            self._unit_root = scale
        else:
            ids: dict = {}
            values = []
            for c in exact_coefficients(poly):
                mag = abs(c)
                key = 1 if mag == 1 else ids.setdefault(mag, len(ids) + 2)
                values.append(key if c > 0 else -key)
            self._unit_root = 1
        self._ET, self._values, self._offset = exponent_ranks(poly.exponents)
        self._n_keys = (self._ET.max(axis=1).astype(np.int64) + 1 if self._ET.size
                        else np.ones(poly.n_vars, dtype=np.int64))
        self._counts = np.zeros(min(_MAX_BUCKETS, max(256, poly.n_terms)) + 1, dtype=np.int64)
        self._key = np.zeros(max(poly.n_terms, 1), dtype=np.int64)
        self._E = np.ascontiguousarray(self._ET.T)  # terms x variables: one term's exponents together
        if fold == "intervals":  # the nonzero exponents by term, and by variable (term, actual exponent)
            self._term_ptr = np.zeros(poly.n_terms + 1, dtype=np.int64)
            np.cumsum(per_term, out=self._term_ptr[1:])
            self._var_ptr = np.zeros(poly.n_vars + 1, dtype=np.int64)
            np.cumsum(per_variable, out=self._var_ptr[1:])
            self._var_term, self._var_exp = _by_variable(exponents, self._var_ptr)
            self._ptr = np.zeros(poly.n_terms + 1, dtype=np.int64)
            self._nz_depth = np.zeros(n_nonzero, dtype=np.int32)  # depths and exponents: int32, as _by_variable's
            self._nz_exp = np.zeros(n_nonzero, dtype=np.int32)
        self._S = np.asarray(values, dtype=np.int64)
        self._need = np.zeros((max(poly.n_vars, 1), _SMALL_POWER), dtype=np.bool_)
        self._large = np.zeros(64, dtype=np.int64)
        capacity = 1 << max(10, int(4 * max(poly.n_terms, 1)).bit_length())
        self._alloc(capacity)
        self._pieces = pieces_count(poly.opaque)  # the opaque pieces' own arithmetic, the same for every order
        self._pieces_total = self._pieces.total
        self._columns = list(range(poly.n_vars))

    def _alloc(self, capacity: int) -> None:
        self._table = np.zeros((capacity, 2), dtype=np.uint64)
        self._gen = 0

    def _perm(self, order) -> np.ndarray:
        n = self.poly.n_vars
        if isinstance(order, np.ndarray) and order.dtype == np.int64 and order.shape == (n,):
            return order
        if isinstance(order, tuple) and len(order) == n:  # a full scheme of columns, as the searches give
            try:  # each column once (a third of the time of checking types, set and range on 16 columns)
                full = sorted(order) == self._columns
            except TypeError:  # names and numbers mixed
                full = False
            if full:
                return np.array(order, dtype=np.int64)
        return np.asarray(normalize_order(self.poly, order), dtype=np.int64)

    def count_detail(self, order) -> OpCount:
        """Additions, multiplications and power multiplications of ``order``."""
        adds, mults, pows = self._count_order(order)
        return OpCount(adds, mults, pows) + self._pieces

    def _count_order(self, order) -> tuple[int, int, int]:
        """The kernel's three counts of ``order`` (the opaque pieces' own arithmetic not included)."""
        perm = self._perm(order)
        while True:
            self._gen += 1
            if self._gen >= 2**31 - 1:
                self._alloc(len(self._table))
                self._gen = 1
            if self.fold == "levels":
                adds, mults, pows = _count(
                    self._ET, self._E, self._values, self._offset, self._S, perm, self.mode == "content",
                    self._unit_root, self._table, np.uint64(self._gen), self._need, self._large, self._n_keys,
                    self._counts, self._key,
                )
            else:
                adds, mults, pows = _count_sparse(
                    self._ET, self._term_ptr, self._var_ptr, self._var_term, self._var_exp, self._S, perm,
                    self.mode == "content", self._unit_root, self._table, np.uint64(self._gen), self._need,
                    self._large, self._n_keys, self._counts, self._key, self._ptr, self._nz_depth, self._nz_exp,
                )
            if adds >= 0:
                return int(adds), int(mults), int(pows)
            if adds == -2:
                self._large = np.zeros(2 * len(self._large), dtype=np.int64)
            else:
                self._alloc(2 * len(self._table))

    def count(self, order) -> int:
        """Total operation count of ``order`` after Horner and CSE (the searches' score: no OpCount made)."""
        return sum(self._count_order(order)) + self._pieces_total
