"""The compiled (Numba) MCTS loop of number partitioning: the tree in arrays, every phase compiled.

The same search as :func:`hornermcts.search.mcts` runs on
:class:`~.problem.NumberPartitioning` with :data:`~.solve.THESIS_MCTS` (Rei's
main loop: the root simulated first; full expansion, both children of a node
created and simulated in one visit, in random order; the best value with the
parent's normalisation, ``U = (b_c - w_p) / (b_p - w_p) + C sqrt(ln v_p / v_c)``,
ties to the SPLIT child; a terminal child removed at once and the removal
cascading up through exhausted parents, each remaining ancestor's best
recomputed from its own simulation and its children). Only the storage
differs:

- a node is a row of ``links`` (int32: parent, SPLIT child, JOIN child, the
  KK steps of its own simulation, visits, expanded) and of ``values``
  (float64: best, worst, own reward); removed nodes go on a free list;
- a node holds no state: the descent replays the moves from the root on a
  working set of limb rows (:mod:`.kernels`' representation) in a
  descending index array, as KK does;
- one KK run per visit: the SPLIT child's simulation is the rest of its
  parent's (the same leaf, one step fewer), the JOIN child's is run on a
  copy of the working set.

Rewards are ``-log2(E + 1)`` computed as CPython does for the exact ``E``
(:func:`~.kernels.limbs_log2`), so that the selection compares the same
floats as the generic search and the two grow the same tree: at the same
iteration counts they find the same values (the tests check it).

:func:`run_chunk` runs visits until a quota, an improvement, a full node
store, the target, exhaustion or the iteration budget; the driver
(:mod:`.compiled_tree`) reads the clock between chunks.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .kernels import add_into, compare, insert_descending, limbs_log2, subtract_into, top_limb

__all__ = ["run_chunk", "new_node", "load_root", "QUOTA", "IMPROVED", "FULL", "TARGET", "EXHAUSTED", "ITERATIONS",
           "PARENT", "SPLIT_CHILD", "JOIN_CHILD", "STEPS", "VISITS", "EXPANDED", "BEST", "WORST", "OWN",
           "USED", "FREE_TOP", "ITER", "PATH_LEN", "PATH_STEPS", "HIST_LEN", "MAX_ITER", "BEST_REWARD", "TARGET_REWARD",
           "CP", "ROOT"]

# links columns
PARENT, SPLIT_CHILD, JOIN_CHILD, STEPS, VISITS, EXPANDED = 0, 1, 2, 3, 4, 5
# values columns
BEST, WORST, OWN = 0, 1, 2
# meta entries (int64)
USED, FREE_TOP, ITER, PATH_LEN, PATH_STEPS, HIST_LEN, MAX_ITER = 0, 1, 2, 3, 4, 5, 6
# fmeta entries (float64)
BEST_REWARD, TARGET_REWARD, CP = 0, 1, 2
# why run_chunk returned
QUOTA, IMPROVED, FULL, TARGET, EXHAUSTED, ITERATIONS = 0, 1, 2, 3, 4, 5
ROOT = 0


@njit(cache=True)
def _move(pool, order, head, tail, join, hrow, limbs):  # pragma: no cover - compiled
    """Replace the two largest ``u >= v`` by ``u + v`` (join) or ``u - v``; the sum's half follows. New (head, tail)."""
    ui = order[head]
    vi = order[head + 1]
    if join:
        add_into(pool, ui, pool, vi, limbs)
    else:
        subtract_into(pool, hrow, pool, vi, limbs)
        subtract_into(pool, ui, pool, vi, limbs)
    head += 2
    top = top_limb(pool, ui, limbs)
    if head < tail:
        other = top_limb(pool, order[head], limbs)
        if other > top:
            top = other
    return insert_descending(pool, order, head, tail, ui, top)


@njit(cache=True)
def load_root(originals, half, pool, order):  # pragma: no cover - compiled
    """The root's numbers (descending) and half sum into a working set; returns (head, tail)."""
    n, limbs = originals.shape
    for s in range(n):
        for q in range(limbs):
            pool[s, q] = originals[s, q]
        order[n + s] = s
    for q in range(limbs):
        pool[n, q] = half[0, q]
    return n, 2 * n


@njit(cache=True)
def _copy_set(pool, order, head, tail, scratch, order2, n, limbs):  # pragma: no cover - compiled
    """Copy a working set (numbers and half sum, row n) into the scratch one; returns its (head, tail)."""
    count = tail - head
    for s in range(count):
        row = order[head + s]
        for q in range(limbs):
            scratch[s, q] = pool[row, q]
        order2[n + s] = s
    for q in range(limbs):
        scratch[n, q] = pool[n, q]
    return n, n + count


@njit(cache=True)
def _kk_leaf(pool, order, head, tail, n, parity, limbs):  # pragma: no cover - compiled
    """KK from the working set to a leaf of the complete-KK tree: ``(steps, log2(E + 1))``; the set is consumed.

    Row ``n`` holds half the sum, row ``n + 1`` is scratch for ``E + 1``.
    """
    full = limbs - 1
    hrow = n
    erow = n + 1
    top = top_limb(pool, order[head], limbs)
    steps = 0
    while tail - head > 4:
        ui = order[head]
        if compare(pool, ui, pool, hrow, full) >= 0:  # d >= -1: the largest alone is optimal
            break
        vi = order[head + 1]
        subtract_into(pool, hrow, pool, vi, limbs)
        subtract_into(pool, ui, pool, vi, top + 1)
        head, tail = insert_descending(pool, order, head + 2, tail, ui, top)
        steps += 1
        while top > 0 and pool[order[head], top] == 0:
            top -= 1
    if tail - head > 4:  # E = |2 (u - half) - parity|, so E + 1 = parity + 1 or 2 (u - half) + 1 - parity
        ui = order[head]
        for q in range(limbs):
            pool[erow, q] = pool[ui, q]
        subtract_into(pool, erow, pool, hrow, limbs)
        if top_limb(pool, erow, limbs) == 0 and pool[erow, 0] == 0:
            pool[erow, 0] = parity + 1
        else:
            carry = np.uint32(1 - parity)
            for q in range(limbs):
                word = pool[erow, q]
                pool[erow, q] = (word << np.uint32(1)) | carry
                carry = word >> np.uint32(31)
    else:  # four numbers or fewer: KK is exact
        while tail - head > 1:
            ui = order[head]
            subtract_into(pool, ui, pool, order[head + 1], limbs)
            head, tail = insert_descending(pool, order, head + 2, tail, ui, full)
        for q in range(limbs):
            pool[erow, q] = 0
        pool[erow, 0] = 1
        add_into(pool, erow, pool, order[head], limbs)
    return steps, limbs_log2(pool, erow, limbs)


@njit(cache=True)
def new_node(links, values, free, meta, parent):  # pragma: no cover - compiled
    """A fresh node under ``parent`` (from the free list first)."""
    if meta[FREE_TOP] > 0:
        meta[FREE_TOP] -= 1
        x = free[meta[FREE_TOP]]
    else:
        x = meta[USED]
        meta[USED] += 1
    links[x, PARENT] = parent
    links[x, SPLIT_CHILD] = -1
    links[x, JOIN_CHILD] = -1
    links[x, STEPS] = 0
    links[x, VISITS] = 0
    links[x, EXPANDED] = 0
    values[x, BEST] = -np.inf
    values[x, WORST] = np.inf
    values[x, OWN] = -np.inf
    return x


@njit(cache=True)
def _backpropagate(links, values, node, reward):  # pragma: no cover - compiled
    """Visits, best and worst from ``node`` up to the root."""
    while node != -1:
        links[node, VISITS] += 1
        if reward > values[node, BEST]:
            values[node, BEST] = reward
        if reward < values[node, WORST]:
            values[node, WORST] = reward
        node = links[node, PARENT]


@njit(cache=True)
def _refresh(links, values, node):  # pragma: no cover - compiled
    """Recompute the best of ``node`` and its ancestors from their own simulation and children (pruning.refresh)."""
    while node != -1:
        best = values[node, OWN]
        for slot in (SPLIT_CHILD, JOIN_CHILD):
            child = links[node, slot]
            if child != -1 and values[child, BEST] > best:
                best = values[child, BEST]
        if best == values[node, BEST]:
            return
        values[node, BEST] = best
        node = links[node, PARENT]


@njit(cache=True)
def _remove(links, values, free, meta, node):  # pragma: no cover - compiled
    """Take ``node`` out of the tree, then each ancestor left without children; True if the root goes."""
    parent = links[node, PARENT]
    while parent != -1:
        slot = SPLIT_CHILD if links[parent, SPLIT_CHILD] == node else JOIN_CHILD
        links[parent, slot] = -1
        free[meta[FREE_TOP]] = node
        meta[FREE_TOP] += 1
        if links[parent, SPLIT_CHILD] != -1 or links[parent, JOIN_CHILD] != -1:
            _refresh(links, values, parent)
            return False
        node = parent
        parent = links[node, PARENT]
    return True


@njit(cache=True)
def _select(links, values, node, cp):  # pragma: no cover - compiled
    """The child of ``node`` with the largest normalised best plus exploration; ties to the first (SPLIT)."""
    log_parent = math.log(links[node, VISITS])
    b = values[node, BEST]
    w = values[node, WORST]
    span = b - w
    chosen = -1
    best_score = -np.inf
    for slot in (SPLIT_CHILD, JOIN_CHILD):
        child = links[node, slot]
        if child == -1:
            continue
        x = (values[child, BEST] - w) / span if span != 0.0 else 0.0
        score = x + cp * math.sqrt(log_parent / links[child, VISITS])
        if chosen == -1 or score > best_score:
            best_score = score
            chosen = child
    return chosen


@njit(cache=True)
def _next_bit(rng):  # pragma: no cover - compiled
    """A random bit from a splitmix64 generator whose state is rng[0]."""
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return z >> np.uint64(63)


@njit(cache=True)
def _record(tree, node, steps, reward):  # pragma: no cover - compiled
    """A new best: its path (0 SPLIT, 1 JOIN per tree move) and KK steps, and a history entry."""
    links, values, free, meta, fmeta, path, hist_iter, hist_value, rng = tree
    depth = 0
    x = node
    while links[x, PARENT] != -1:
        depth += 1
        x = links[x, PARENT]
    x = node
    for k in range(depth - 1, -1, -1):
        parent = links[x, PARENT]
        path[k] = 1 if links[parent, JOIN_CHILD] == x else 0
        x = parent
    meta[PATH_LEN] = depth
    meta[PATH_STEPS] = steps
    fmeta[BEST_REWARD] = reward
    hist_iter[meta[HIST_LEN]] = meta[ITER] - 1  # as the generic search counts: simulations before this one
    hist_value[meta[HIST_LEN]] = reward
    meta[HIST_LEN] += 1


@njit(cache=True)
def _outcome(tree, node, steps, reward):  # pragma: no cover - compiled
    """Backpropagate a simulation of ``node``; the status it ends the chunk with (QUOTA: go on)."""
    links, values, free, meta, fmeta, path, hist_iter, hist_value, rng = tree
    links[node, STEPS] = steps
    values[node, OWN] = reward
    _backpropagate(links, values, node, reward)
    meta[ITER] += 1
    status = QUOTA
    if reward > fmeta[BEST_REWARD]:
        _record(tree, node, steps, reward)
        status = TARGET if reward >= fmeta[TARGET_REWARD] else IMPROVED
    if steps == 0 and _remove(links, values, free, meta, node):
        return EXHAUSTED  # proven, even if the target is reached too
    if status == TARGET or meta[ITER] >= meta[MAX_ITER]:
        return TARGET if status == TARGET else ITERATIONS
        return ITERATIONS
    return status


@njit(cache=True)
def _visit(tree, numbers, buffers, node, head, tail):  # pragma: no cover - compiled
    """Full expansion of ``node`` (its state in the working set): both children simulated, in random order."""
    links, values, free, meta, fmeta, path, hist_iter, hist_value, rng = tree
    originals, half, parity = numbers
    pool, order, scratch, order2 = buffers
    n, limbs = originals.shape
    split = new_node(links, values, free, meta, node)
    join = new_node(links, values, free, meta, node)
    links[node, SPLIT_CHILD] = split
    links[node, JOIN_CHILD] = join
    links[node, EXPANDED] = 1
    join_first = _next_bit(rng)
    status = QUOTA
    for k in range(2):
        if (k == 0) == (join_first == 1):
            h2, t2 = _copy_set(pool, order, head, tail, scratch, order2, n, limbs)
            h2, t2 = _move(scratch, order2, h2, t2, True, n, limbs)
            steps, value = _kk_leaf(scratch, order2, h2, t2, n, parity, limbs)
            result = _outcome(tree, join, steps, -value)
        else:  # the rest of the parent's own KK run
            result = _outcome(tree, split, links[node, STEPS] - 1, values[node, OWN])
        if result != QUOTA:
            if result != IMPROVED:
                return result
            status = IMPROVED
    return status


@njit(cache=True)
def _simulate_root(tree, numbers, buffers):  # pragma: no cover - compiled
    """Rei's loop simulates the root first."""
    originals, half, parity = numbers
    pool, order, scratch, order2 = buffers
    n, limbs = originals.shape
    head, tail = load_root(originals, half, scratch, order2)
    steps, value = _kk_leaf(scratch, order2, head, tail, n, parity, limbs)
    return _outcome(tree, ROOT, steps, -value)


@njit(cache=True)
def run_chunk(tree, numbers, buffers, quota):  # pragma: no cover - compiled
    """Up to ``quota`` visits; returns why it stopped (QUOTA, IMPROVED, FULL, TARGET, EXHAUSTED, ITERATIONS).

    ``tree`` = (links, values, free, meta, fmeta, path, hist_iter, hist_value, rng), ``numbers`` =
    (originals descending, half the sum as a (1, L) row, parity of the sum), ``buffers`` = (pool, order,
    scratch, order2): working sets of ``n + 2`` limb rows and ``3 n + 1`` indices.
    """
    links, values, free, meta, fmeta, path, hist_iter, hist_value, rng = tree
    originals, half, parity = numbers
    pool, order, scratch, order2 = buffers
    n, limbs = originals.shape
    cp = fmeta[CP]
    for _ in range(quota):
        if meta[ITER] >= meta[MAX_ITER]:
            return ITERATIONS
        if links[ROOT, VISITS] == 0:
            status = _simulate_root(tree, numbers, buffers)
        else:
            if links.shape[0] - meta[USED] + meta[FREE_TOP] < 2:
                return FULL
            node = ROOT
            head, tail = load_root(originals, half, pool, order)
            while links[node, EXPANDED]:
                child = _select(links, values, node, cp)
                head, tail = _move(pool, order, head, tail, links[node, JOIN_CHILD] == child, n, limbs)
                node = child
            status = _visit(tree, numbers, buffers, node, head, tail)
        if status != QUOTA:
            return status
    return QUOTA
