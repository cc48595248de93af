"""The compiled (Numba) kernels of the stacking problem: the event simulation, FO, tree moves.

A *compact state* is what a tree node keeps: ``stacks`` (int32, the items of
stack 0 bottom to top, then stack 1, ...), ``heights`` (int32, one per stack)
and ``counters`` (int64: the current instant, relocations so far, due-date
inversions in the stacks, items not yet released).  The kernels unpack it into
working arrays: ``items[s, l]`` the item at level ``l`` of stack ``s``,
``mins[s, l]`` the earliest due date among levels ``0..l``, ``earliest[s]``
the stack movement date ``m_s`` of Eq. 5.1 (``mins`` at the top level, a
sentinel larger than every date when the stack is empty), and for each
item its stack (``-1`` when absent) and level.

An item above a smaller due date is an *inversion* (it must move at least once
more: the lower bound); pushing onto a stack whose ``m_s`` is smaller than the
item's due date creates one, popping such an item removes it.

The event logic (:func:`advance`): at each instant, items due then that are on
top of their stack are delivered (repeatedly, so a stack is emptied of them);
the process stops at a *decision*: an item due now that is buried (a
relocation must be made) or an item released now that has not been placed.
It stops at a *leaf* when every item has been released and no inversion is
left: every later delivery then finds its item on top, the cost is known.

Equivalent stacks (same height, same due dates level by level) are
interchangeable; the tree lists one per class (the lowest index, the source of
a relocation excluded), and the FO simulation, after drawing a stack of its
restricted candidate list uniformly, places on that class representative, so
that every move it plays is a tree move and replaying its moves gives its
state exactly.

Random numbers: splitmix64 on a one-element ``uint64`` array, seeded by the
caller (one draw from a :class:`numpy.random.Generator`).

Examples
--------
Two stacks; item 0 (due 5) and item 1 (due 9) are released at dates 0 and 1.
FO puts item 1 on the empty stack rather than above item 0 (which would be an
inversion):

>>> due = np.array([5, 9], np.int64)
>>> calendar = calendar_arrays(np.array([0, 1]), due)
>>> stacks, heights, counters = root_state(2, calendar, due, 2)
>>> counters.tolist()  # instant 0, no relocation, no inversion, 2 items to release
[0, 0, 0, 2]
>>> out = playout(stacks, heights, counters, due, calendar, 2, 7, 1 << 62, np.empty((1, 3), np.int64))
>>> stacks, heights, counters, moves, count, finished = out
>>> moves[:count].tolist(), heights.tolist(), counters.tolist()  # (date, item, stack) per placement
([[0, 0, 0], [1, 1, 1]], [1, 1], [1, 0, 0, 0])
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["calendar_arrays", "root_state", "advance", "playout", "apply_move", "legal_moves", "move_codes",
           "multiple_simulation_batch", "fo_target", "count_inversions"]

INSTANT, RELOCATIONS, INVERSIONS, UNRELEASED = 0, 1, 2, 3
NONE = np.int64(1) << np.int64(62)  # larger than every due date

# error codes of apply_move
OK, BAD_TARGET, NOT_ON_TOP, SAME_STACK, NOT_BLOCKING, NOT_PENDING = 0, 1, 2, 3, 4, 5


def calendar_arrays(release: np.ndarray, due: np.ndarray) -> tuple:
    """The calendar as the kernels take it: ``(dates, releases_start, releases, deliveries_start, deliveries)``.

    The releases of an instant by decreasing due date, then item; its deliveries by item
    (the layout of :class:`~hornermcts.domains.stacking.StackingInstance`).

    Examples
    --------
    >>> [a.tolist() for a in calendar_arrays(np.array([0, 0]), np.array([4, 7]))]
    [[0, 4, 7], [0, 2, 2, 2], [1, 0], [0, 0, 1, 2], [0, 1]]
    """
    release = np.asarray(release, np.int64)
    due = np.asarray(due, np.int64)
    n = release.size
    dates = np.unique(np.concatenate([release, due]))
    r_at = np.searchsorted(dates, release)
    d_at = np.searchsorted(dates, due)
    releases = np.lexsort((np.arange(n), -due, r_at)).astype(np.int32)
    deliveries = np.lexsort((np.arange(n), d_at)).astype(np.int32)
    r_start = np.concatenate([[0], np.cumsum(np.bincount(r_at, minlength=dates.size))]).astype(np.int32)
    d_start = np.concatenate([[0], np.cumsum(np.bincount(d_at, minlength=dates.size))]).astype(np.int32)
    return dates.astype(np.int64), r_start, releases, d_start, deliveries


# ---------------------------------------------------------------- random numbers


@njit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _below(rs, k):
    """A uniform integer in ``[0, k)``; advances the splitmix64 state ``rs[0]``."""
    rs[0] += np.uint64(0x9E3779B97F4A7C15)
    u = np.float64(_mix(rs[0]) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    return min(np.int64(u * k), k - 1)


# ---------------------------------------------------------------- stacks


@njit(cache=True, inline="always")
def _push(items, mins, height, earliest, where, level, due, s, i):
    """Put item ``i`` on stack ``s``; return 1 if it lands above an earlier due date (an inversion)."""
    h = height[s]
    items[s, h] = i
    d = due[i]
    created = 0
    m = earliest[s]
    if m < d:
        created = 1
    else:
        m = d
    mins[s, h] = m
    earliest[s] = m
    height[s] = h + 1
    where[i] = s
    level[i] = h
    return created


@njit(cache=True, inline="always")
def _pop(items, mins, height, earliest, where, due, s):
    """Take the top item of stack ``s``; return it and 1 if it was an inversion."""
    h = height[s] - 1
    i = items[s, h]
    below = mins[s, h - 1] if h > 0 else NONE
    removed = 1 if below < due[i] else 0
    earliest[s] = below
    height[s] = h
    where[i] = -1
    return i, removed


@njit(cache=True, inline="always")
def _flush(items, mins, height, earliest, where, due, s, date, counters):
    """Deliver the items due at ``date`` from the top of stack ``s``."""
    while height[s] > 0 and due[items[s, height[s] - 1]] == date:
        _, removed = _pop(items, mins, height, earliest, where, due, s)
        counters[INVERSIONS] -= removed


@njit(cache=True, inline="always")
def _equivalent(items, height, due, a, b):
    """Whether stacks ``a`` and ``b`` hold the same due dates, level by level."""
    h = height[a]
    if h != height[b]:
        return False
    for lv in range(h - 1, -1, -1):
        if due[items[a, lv]] != due[items[b, lv]]:
            return False
    return True


@njit(cache=True)
def _load(stacks, heights, due, capacity):
    width = heights.size
    n = due.size
    items = np.empty((width, capacity), np.int32)
    mins = np.empty((width, capacity), np.int64)
    height = np.zeros(width, np.int32)
    earliest = np.empty(width, np.int64)
    where = np.full(n, -1, np.int32)
    level = np.zeros(n, np.int32)
    _fill(items, mins, height, earliest, where, level, due, stacks, heights)
    return items, mins, height, earliest, where, level


@njit(cache=True)
def _fill(items, mins, height, earliest, where, level, due, stacks, heights):
    for s in range(heights.size):
        height[s] = 0
        earliest[s] = NONE
    where[:] = -1
    p = 0
    for s in range(heights.size):
        for _ in range(heights[s]):
            _push(items, mins, height, earliest, where, level, due, s, stacks[p])
            p += 1


@njit(cache=True)
def _store(items, height):
    total = 0
    for s in range(height.size):
        total += height[s]
    stacks = np.empty(total, np.int32)
    p = 0
    for s in range(height.size):
        for lv in range(height[s]):
            stacks[p] = items[s, lv]
            p += 1
    return stacks, height.copy()


@njit(cache=True)
def count_inversions(stacks, heights, due):
    """Items lying above an earlier due date in their stack, counted from scratch.

    Examples
    --------
    >>> due = np.array([5, 9, 7], np.int64)   # stack 0: items 0, 1, 2 bottom to top
    >>> int(count_inversions(np.array([0, 1, 2], np.int32), np.array([3, 0], np.int32), due))
    2
    """
    count = 0
    p = 0
    for s in range(heights.size):
        earliest = NONE
        for _ in range(heights[s]):
            d = due[stacks[p]]
            if d > earliest:
                count += 1
            earliest = min(earliest, d)
            p += 1
    return count


# ---------------------------------------------------------------- events


@njit(cache=True, inline="always")
def _advance(items, mins, height, earliest, where, due, dates, r_start, releases, d_start, deliveries, counters):
    """Deliver what can be delivered and move on to the next decision; True at a leaf."""
    k = counters[INSTANT]
    while True:
        date = dates[k]
        pending = False
        for p in range(d_start[k], d_start[k + 1]):
            j = deliveries[p]
            if where[j] >= 0:
                _flush(items, mins, height, earliest, where, due, where[j], date, counters)
                if where[j] >= 0:
                    pending = True
        if counters[UNRELEASED] == 0 and counters[INVERSIONS] == 0:
            counters[INSTANT] = k
            return True
        if not pending:
            for p in range(r_start[k], r_start[k + 1]):
                if where[releases[p]] < 0:
                    pending = True
                    break
        if pending:
            counters[INSTANT] = k
            return False
        k += 1
        if k >= dates.size:  # cannot happen: an inversion is resolved by a later delivery
            counters[INSTANT] = dates.size - 1
            return True


def advance(stacks, heights, counters, due, calendar, capacity):
    """Run :func:`_advance` on a compact state; return the new one and whether it is a leaf.

    Examples
    --------
    >>> due = np.array([3], np.int64)
    >>> calendar = calendar_arrays(np.array([1]), due)
    >>> stacks, heights, counters, leaf = advance(np.array([0], np.int32), np.array([1, 0], np.int32),
    ...                                           np.array([0, 0, 0, 0]), due, calendar, 1)
    >>> leaf, counters.tolist()
    (True, [0, 0, 0, 0])
    """
    return _advance_compact(stacks, heights, np.array(counters, np.int64), due, *calendar, capacity)


@njit(cache=True)
def _advance_compact(stacks, heights, counters, due, dates, r_start, releases, d_start, deliveries, capacity):
    items, mins, height, earliest, where, level = _load(stacks, heights, due, capacity)
    leaf = _advance(items, mins, height, earliest, where, due, dates, r_start, releases, d_start, deliveries,
                    counters)
    stacks, heights = _store(items, height)
    return stacks, heights, counters, leaf


def root_state(width, calendar, due, capacity):
    """The compact state at the first decision: empty stacks, nothing released."""
    counters = np.array([0, 0, 0, due.size], np.int64)
    stacks, heights, counters, _ = advance(np.empty(0, np.int32), np.zeros(width, np.int32), counters, due,
                                           calendar, capacity)
    return stacks, heights, counters


# ---------------------------------------------------------------- FO


@njit(cache=True, inline="always")
def _fo_target(items, mins, height, earliest, due, i, source, rs, ok, bad):
    """Where FO puts item ``i`` (Eq. 5.1; never on ``source``): the class representative of a uniform draw
    from the restricted candidate list.

    f(i, s) is increasing in ``m_s`` below ``D_i`` (an inversion, f < 0), 0 on an empty stack and
    decreasing in ``m_s`` from ``D_i`` on (f in (0, 1]), so its argmax is: the smallest ``m_s >= D_i``,
    else an empty stack, else the largest ``m_s``, every stack of that ``m_s`` tying.
    """
    d = due[i]
    n_ok = 0
    best_ok = NONE
    n_bad = 0
    best_bad = np.int64(-1)
    empty = -1
    for s in range(height.size):
        m = earliest[s]
        if m == NONE:
            if empty < 0 and s != source:
                empty = s
            continue
        if s == source:
            continue
        if m >= d:
            if m < best_ok:
                best_ok = m
                n_ok = 0
            if m == best_ok:
                ok[n_ok] = s
                n_ok += 1
        elif n_ok == 0:
            if m > best_bad:
                best_bad = m
                n_bad = 0
            if m == best_bad:
                bad[n_bad] = s
                n_bad += 1
    if n_ok > 0:
        rcl = ok
        size = n_ok
    elif empty >= 0:
        return empty
    else:
        rcl = bad
        size = n_bad
    if size == 1:
        return rcl[0]
    pick = rcl[_below(rs, size)]
    for q in range(size):
        t = rcl[q]
        if t == pick or _equivalent(items, height, due, t, pick):
            return t
    return pick


def fo_target(stacks, heights, due, item, source, seed, capacity):
    """The stack FO chooses for ``item`` on a compact state (``source = -1`` for a release).

    Examples
    --------
    >>> due = np.array([5, 8, 6], np.int64)   # stack 0 holds item 0, stack 1 item 1, stack 2 is empty
    >>> int(fo_target(np.array([0, 1], np.int32), np.array([1, 1, 0], np.int32), due, 2, -1, 0, 3))
    1
    """
    return _fo_target_compact(stacks, heights, due, item, source, np.array([seed], np.uint64), capacity)


@njit(cache=True)
def _fo_target_compact(stacks, heights, due, item, source, rs, capacity):
    items, mins, height, earliest, where, level = _load(stacks, heights, due, capacity)
    buffer = np.empty((2, heights.size), np.int32)
    return _fo_target(items, mins, height, earliest, due, item, source, rs, buffer[0], buffer[1])


@njit(cache=True, inline="always")
def _fo_step(items, mins, height, earliest, where, level, due, dates, r_start, releases, d_start, deliveries, counters,
             rs, buffer, ok, bad, moves, m, fixed, rank, ranked):
    """One FO placement at a decision: a relocation for the shallowest buried delivery, else a release
    (latest due date first); ties at random.  Records ``(date, item, stack)`` as ``moves[m]``.

    ``fixed``: the deliveries' order is fixed at the date's first decision, by the depths then (kept in
    ``rank``; ``ranked[0]`` the date ranked), ties by item, as Rei's code orders them; otherwise the
    depths are those of now, ties at random (the thesis's rule, the project's default)."""
    k = counters[INSTANT]
    date = dates[k]
    if fixed and ranked[0] != k:
        for p in range(d_start[k], d_start[k + 1]):
            j = deliveries[p]
            if where[j] >= 0:
                rank[j] = height[where[j]] - 1 - level[j]
        ranked[0] = k
    best = np.int64(NONE)
    count = 0
    for p in range(d_start[k], d_start[k + 1]):
        j = deliveries[p]
        s = where[j]
        if s >= 0:
            depth = rank[j] if fixed else height[s] - 1 - level[j]
            if depth < best:
                best = depth
                count = 0
            if depth == best:
                buffer[count] = j
                count += 1
    if count > 0:
        x = buffer[0] if count == 1 or fixed else buffer[_below(rs, count)]  # deliveries are in item order
        source = where[x]
        for t in range(source):
            if _equivalent(items, height, due, t, source):
                source = t
                break
        top = items[source, height[source] - 1]
        target = _fo_target(items, mins, height, earliest, due, top, source, rs, ok, bad)
        _, removed = _pop(items, mins, height, earliest, where, due, source)
        created = _push(items, mins, height, earliest, where, level, due, target, top)
        counters[INVERSIONS] += created - removed
        counters[RELOCATIONS] += 1
        moves[m, 0] = date
        moves[m, 1] = top
        moves[m, 2] = target
        _flush(items, mins, height, earliest, where, due, source, date, counters)
        return
    latest = np.int64(-1)
    for p in range(r_start[k], r_start[k + 1]):
        j = releases[p]
        if where[j] < 0:
            if due[j] > latest:
                latest = due[j]
                count = 0
            if due[j] == latest:
                buffer[count] = j
                count += 1
    y = buffer[0] if count == 1 else buffer[_below(rs, count)]
    target = _fo_target(items, mins, height, earliest, due, y, -1, rs, ok, bad)
    counters[INVERSIONS] += _push(items, mins, height, earliest, where, level, due, target, y)
    counters[UNRELEASED] -= 1
    moves[m, 0] = date
    moves[m, 1] = y
    moves[m, 2] = target


@njit(cache=True)
def _grow(moves):
    bigger = np.empty((2 * moves.shape[0] + 16, 3), np.int64)
    bigger[: moves.shape[0]] = moves
    return bigger


@njit(cache=True)
def _simulate(items, mins, height, earliest, where, level, due, dates, r_start, releases, d_start, deliveries, counters,
              rs, cutoff, moves, fixed=False):
    """FO from a decision state to a leaf, or until the relocations reach ``cutoff``.

    Returns ``(moves, count, finished)``; ``moves`` may be a larger copy of the buffer given.
    ``fixed``: the delivery order of :func:`_fo_step`.
    """
    width = height.size
    rank = np.empty(due.size, np.int64)
    ranked = np.full(1, -1, np.int64)
    buffer = np.empty(due.size, np.int32)
    ok = np.empty(width, np.int32)
    bad = np.empty(width, np.int32)
    count = 0
    leaf = counters[UNRELEASED] == 0 and counters[INVERSIONS] == 0
    while not leaf:
        if counters[RELOCATIONS] >= cutoff:
            return moves, count, False
        if count == moves.shape[0]:
            moves = _grow(moves)
        _fo_step(items, mins, height, earliest, where, level, due, dates, r_start, releases, d_start, deliveries,
                 counters, rs, buffer, ok, bad, moves, count, fixed, rank, ranked)
        count += 1
        leaf = _advance(items, mins, height, earliest, where, due, dates, r_start, releases, d_start, deliveries,
                        counters)
    return moves, count, counters[RELOCATIONS] < cutoff


def playout(stacks, heights, counters, due, calendar, capacity, seed, cutoff, moves):
    """FO simulation from a compact decision state, seeded by ``seed``.

    Returns ``(stacks, heights, counters, moves, count, finished)``: the leaf state (or the state where
    the relocations reached ``cutoff``, then ``finished`` is False) and the ``count`` placements made,
    rows ``(date, item, stack)`` of ``moves`` (the buffer given, or a larger one).
    """
    return _playout(stacks, heights, np.array(counters, np.int64), due, *calendar, capacity,
                    np.uint64(seed), cutoff, moves)


@njit(cache=True)
def _playout(stacks, heights, counters, due, dates, r_start, releases, d_start, deliveries, capacity, seed,
             cutoff, moves):
    items, mins, height, earliest, where, level = _load(stacks, heights, due, capacity)
    rs = np.empty(1, np.uint64)
    rs[0] = seed
    moves, count, finished = _simulate(items, mins, height, earliest, where, level, due, dates, r_start, releases,
                                       d_start, deliveries, counters, rs, cutoff, moves)
    stacks, heights = _store(items, height)
    return stacks, heights, counters, moves, count, finished


@njit(cache=True)
def move_codes(moves, count, width):
    """``item * width + stack`` of the first ``count`` placements ``(date, item, stack)``.

    Examples
    --------
    >>> move_codes(np.array([[0, 3, 1], [2, 0, 2]]), 2, 4).tolist()
    [13, 2]
    """
    codes = np.empty(count, np.int64)
    for m in range(count):
        codes[m] = moves[m, 1] * width + moves[m, 2]
    return codes


@njit(cache=True)
def multiple_simulation_batch(stacks, heights, counters, due, dates, r_start, releases, d_start, deliveries,
                              capacity, seed, first, count, best, best_moves, fixed=False):
    """MS: FO simulations ``first .. first + count - 1`` from a compact state, each aborted once its
    relocations reach the incumbent ``best`` (``fixed``: the delivery order of :func:`_fo_step`).

    Simulation ``j`` is seeded by ``seed`` and ``j`` alone, so it does not depend on the batches.
    Returns ``(best, best_moves, best_count, improvements)``: the incumbent, its placements (rows
    ``(date, item, stack)``, the first ``best_count``; the buffer given when nothing improved) and
    ``improvements``, rows ``(j, relocations)`` for each improvement in this batch.
    """
    items, mins, height, earliest, where, level = _load(stacks, heights, due, capacity)
    work = counters.copy()
    moves = np.empty((max(due.size * 2, 16), 3), np.int64)
    rs = np.empty(1, np.uint64)
    improvements = np.empty((count, 2), np.int64)
    found = 0
    best_count = -1
    mixed = _mix(np.uint64(seed) + np.uint64(0x632BE59BD9B4E019))
    for j in range(first, first + count):
        _fill(items, mins, height, earliest, where, level, due, stacks, heights)
        work[:] = counters
        rs[0] = _mix(mixed ^ _mix(np.uint64(j) + np.uint64(0x9E3779B97F4A7C15)))
        moves, made, finished = _simulate(items, mins, height, earliest, where, level, due, dates, r_start, releases,
                                          d_start, deliveries, work, rs, best, moves, fixed)
        if finished:
            best = work[RELOCATIONS]
            if best_moves.shape[0] < made:
                best_moves = np.empty((made, 3), np.int64)
            best_moves[:made] = moves[:made]
            best_count = made
            improvements[found, 0] = j
            improvements[found, 1] = best
            found += 1
    return best, best_moves, best_count, improvements[:found]


# ---------------------------------------------------------------- tree


@njit(cache=True)
def _apply_move(stacks, heights, counters, due, release_instant, dates, r_start, releases, d_start, deliveries,
                capacity, item, target):
    items, mins, height, earliest, where, level = _load(stacks, heights, due, capacity)
    k = counters[INSTANT]
    error = OK
    if target < 0 or target >= heights.size or item < 0 or item >= due.size:
        error = BAD_TARGET
    else:
        source = where[item]
        if source >= 0:
            blocking = False
            for p in range(d_start[k], d_start[k + 1]):
                if where[deliveries[p]] == source:
                    blocking = True
            if items[source, height[source] - 1] != item:
                error = NOT_ON_TOP
            elif source == target:
                error = SAME_STACK
            elif not blocking:
                error = NOT_BLOCKING
            else:
                _, removed = _pop(items, mins, height, earliest, where, due, source)
                counters[INVERSIONS] += _push(items, mins, height, earliest, where, level, due, target, item) - removed
                counters[RELOCATIONS] += 1
                _flush(items, mins, height, earliest, where, due, source, dates[k], counters)
        elif release_instant[item] != k or counters[UNRELEASED] == 0:
            error = NOT_PENDING
        else:
            counters[INVERSIONS] += _push(items, mins, height, earliest, where, level, due, target, item)
            counters[UNRELEASED] -= 1
    if error == OK:
        _advance(items, mins, height, earliest, where, due, dates, r_start, releases, d_start, deliveries, counters)
    stacks, heights = _store(items, height)
    return stacks, heights, counters, error


def apply_move(stacks, heights, counters, due, release_instant, calendar, capacity, item, target):
    """Place ``item`` on ``target`` (a release, or the relocation of a top item burying a delivery due now),
    then deliver and advance to the next decision.  Returns ``(stacks, heights, counters, error)``;
    ``error`` is 0, or the code of the rule broken (nothing is done then).

    Examples
    --------
    >>> due = np.array([5, 9], np.int64)
    >>> calendar = calendar_arrays(np.array([0, 0]), due)
    >>> state = root_state(2, calendar, due, 2)
    >>> stacks, heights, counters, error = apply_move(*state, due, np.array([0, 0], np.int32), calendar, 2, 1, 0)
    >>> error, stacks.tolist(), heights.tolist(), counters.tolist()
    (0, [1], [1, 0], [0, 0, 0, 1])
    """
    return _apply_move(stacks, heights, np.array(counters, np.int64), due, release_instant, *calendar, capacity,
                       item, target)


@njit(cache=True)
def _representatives(items, height, due):
    width = height.size
    rep = np.empty(width, np.int32)
    for s in range(width):
        rep[s] = s
        for t in range(s):
            if rep[t] == t and _equivalent(items, height, due, t, s):
                rep[s] = t
                break
    return rep


@njit(cache=True)
def _legal_moves(stacks, heights, counters, due, dates, r_start, releases, d_start, deliveries, capacity):
    items, mins, height, earliest, where, level = _load(stacks, heights, due, capacity)
    width = heights.size
    if counters[UNRELEASED] == 0 and counters[INVERSIONS] == 0:
        return np.empty((0, 2), np.int32)
    k = counters[INSTANT]
    rep = _representatives(items, height, due)
    source = np.zeros(width, np.bool_)
    for p in range(d_start[k], d_start[k + 1]):
        s = where[deliveries[p]]
        if s >= 0:
            source[s] = True
    pending = 0
    for p in range(r_start[k], r_start[k + 1]):
        if where[releases[p]] < 0:
            pending += 1
    out = np.empty(((width + pending) * width, 2), np.int32)
    m = 0
    for s in range(width):
        if source[s] and rep[s] == s:
            top = items[s, height[s] - 1]
            second = -1  # the representative of s's class when s is excluded
            for t in range(s + 1, width):
                if rep[t] == s:
                    second = t
                    break
            for t in range(width):
                if t != s and (rep[t] == t or t == second):
                    out[m, 0] = top
                    out[m, 1] = t
                    m += 1
    for p in range(r_start[k], r_start[k + 1]):
        j = releases[p]
        if where[j] < 0:
            for t in range(width):
                if rep[t] == t:
                    out[m, 0] = j
                    out[m, 1] = t
                    m += 1
    return out[:m].copy()


def legal_moves(stacks, heights, counters, due, calendar, capacity):
    """The tree moves ``(item, stack)`` of a compact decision state, one per class of equivalent targets:
    relocations of the top item of each (non-equivalent) stack burying a delivery due now, then the
    releases pending now.  Empty at a leaf.

    Examples
    --------
    >>> due = np.array([5, 9], np.int64)
    >>> calendar = calendar_arrays(np.array([0, 0]), due)
    >>> legal_moves(*root_state(3, calendar, due, 2), due, calendar, 2).tolist()  # 3 empty stacks: 1 class
    [[1, 0], [0, 0]]
    """
    return _legal_moves(stacks, heights, counters, due, *calendar, capacity)
