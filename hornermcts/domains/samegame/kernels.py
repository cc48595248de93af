"""The compiled (Numba) kernels of SameGame: groups, moves, playouts, end scores.

A board is a flat ``int8`` array, index ``column * height + row``, row 0 at
the bottom, ``-1`` (empty) above the tiles of a column and in the columns
right of the last non-empty one: the layout of :attr:`SameGameState.cells
<hornermcts.domains.samegame.SameGameState.cells>`. The kernels know
nothing of :class:`~hornermcts.domains.samegame.SameGame`: scoring and
playout policy come as the integer codes of
:data:`~hornermcts.domains.samegame.SCORINGS` and
:data:`~hornermcts.domains.samegame.PLAYOUTS`.

Examples
--------
Two columns of height 2: ``0 0`` at the bottom, a ``1`` on the left column.

>>> cells = np.array([0, 1, 0, -1], np.int8)
>>> legal_groups(cells, 2, 2)  # the group of two 0s, named by cell 0
(array([0], dtype=int32), array([2], dtype=int32), array([0], dtype=int32))
>>> apply_move(cells, 2, 2, 0), cells.tolist()  # the 1 falls, column 1 is closed
(2, [1, -1, -1, -1])
"""

from __future__ import annotations


import numpy as np
from numba import njit

from ...search.policy import softmax_pick

__all__ = ["legal_groups", "apply_move", "playout", "group_code", "coded_playout", "playout_batch", "end_adjustment",
           "colour_counts"]


@njit(cache=True, inline="always")
def _flood(board, stride, label, stack, start, name, offset):
    """Give the group of a padded board (:func:`_pad`) holding ``start`` the label ``name``; return its size.

    Depth-first fill over the four neighbours ``j +- 1``, ``j +- stride`` of
    the same colour, no bounds checks (the frame's sentinels match no
    colour). Cells labelled ``offset`` or more are taken; lower labels
    belong to earlier steps and count as unlabelled. The one flood fill of
    SameGame: :func:`_label` (moves, playouts) and :func:`apply_move`, which
    pads its board first.
    """
    k = board[start]
    label[start] = name
    stack[0] = start
    top = 0
    count = 0
    while top >= 0:
        j = stack[top]
        top -= 1
        count += 1
        m = j + 1
        if board[m] == k and label[m] < offset:
            label[m] = name
            top += 1
            stack[top] = m
        m = j - 1
        if board[m] == k and label[m] < offset:
            label[m] = name
            top += 1
            stack[top] = m
        m = j + stride
        if board[m] == k and label[m] < offset:
            label[m] = name
            top += 1
            stack[top] = m
        m = j - stride
        if board[m] == k and label[m] < offset:
            label[m] = name
            top += 1
            stack[top] = m
    return count


@njit(cache=True)
def _points(scoring, n):
    if scoring == 0:
        return (n - 2) * (n - 2)
    if scoring == 1:
        return n
    return n * (n - 1)


@njit(cache=True)
def legal_groups(cells, width, height):
    """Representative cell, size and colour of each group of two or more."""
    board, label, stack, rep, size, colour = _workspace(cells, width, height)
    n = _label(board, width, height, label, stack, 0, rep, size, colour)
    k = 0
    for g in range(n):
        if size[g] >= 2:
            rep[k] = _unpadded(rep[g], height)
            size[k] = size[g]
            colour[k] = colour[g]
            k += 1
    return rep[:k].copy(), size[:k].copy(), colour[:k].copy()


@njit(cache=True)
def apply_move(cells, width, height, cell):
    """Remove the group holding ``cell`` in place; return its size (0 if empty).

    A size below 2 leaves ``cells`` unchanged.
    """
    if cells[cell] < 0:
        return 0
    stride = height + 2
    board = np.empty((width + 2) * stride, np.int8)
    _pad(cells, width, height, board)
    label = np.zeros(board.size, np.int32)  # labels below 1 count as unlabelled
    stack = np.empty(board.size, np.int32)
    count = _flood(board, stride, label, stack, _padded(cell, height), 1, 1)
    if count >= 2:
        _remove(board, width, height, label, 1, stride, count)  # from the first column on
        _unpad(board, width, height, cells)
    return count


@njit(cache=True)
def _next(s):
    """xorshift64* step: (new state, uniform float in [0, 1))."""
    s ^= s >> np.uint64(12)
    s ^= s << np.uint64(25)
    s ^= s >> np.uint64(27)
    x = s * np.uint64(2685821657736338717)
    return s, (x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _pad(cells, width, height, padded):
    """Copy a flat board into ``padded``: a frame of sentinels (-2) around it.

    Column ``c`` of the board is column ``c + 1`` of the frame, each frame
    column has ``height + 2`` cells with row ``r`` at ``r + 1``: neighbours
    are ``i +- 1`` and ``i +- (height + 2)`` with no bounds checks.
    """
    stride = height + 2
    for i in range(stride):  # the frame: the first and last columns, and each column's bottom and top
        padded[i] = -2
        padded[(width + 1) * stride + i] = -2
    for c in range(width):
        src = c * height
        dst = (c + 1) * stride + 1
        padded[dst - 1] = -2
        for r in range(height):
            padded[dst + r] = cells[src + r]
        padded[dst + height] = -2


@njit(cache=True)
def _unpad(padded, width, height, cells):
    stride = height + 2
    for c in range(width):
        src = (c + 1) * stride + 1
        dst = c * height
        for r in range(height):
            cells[dst + r] = padded[src + r]


@njit(cache=True, inline="always")
def _padded(cell, height):
    """The index in the padded board (:func:`_pad`) of the board's cell ``cell``."""
    return (cell // height + 1) * (height + 2) + cell % height + 1


@njit(cache=True, inline="always")
def _unpadded(i, height):
    """The board's cell at index ``i`` of the padded board (:func:`_pad`)."""
    stride = height + 2
    return (i // stride - 1) * height + (i % stride - 1)


@njit(cache=True)
def _workspace(cells, width, height):  # pragma: no cover - compiled
    """The padded board of ``cells`` and the scratch arrays of :func:`_label`, for a playout or a labelling."""
    total = (width + 2) * (height + 2)
    board = np.empty(total, np.int8)
    _pad(cells, width, height, board)
    cells_n = width * height
    return (board, np.full(total, -1, np.int32), np.empty(total, np.int32), np.empty(cells_n, np.int32),
            np.empty(cells_n, np.int32), np.empty(cells_n, np.int32))


@njit(cache=True, inline="always")
def _label(board, width, height, label, stack, offset, rep, size, colour):
    """Label the groups of a padded board (:func:`_pad`) with ``offset + g``; return their number.

    ``rep[g]`` is the padded index of group ``g``'s first cell in scan order
    (smallest column, then smallest row), so a group's name does not depend
    on how it was found; ``size`` and ``colour`` likewise, singletons
    included. Labels below ``offset`` belong to earlier steps and count as
    unlabelled, so ``label`` never needs clearing.
    """
    stride = height + 2
    n = 0
    for c in range(1, width + 1):
        base = c * stride
        if board[base + 1] < 0:
            break
        for i in range(base + 1, base + height + 1):
            k = board[i]
            if k < 0:
                break
            if label[i] >= offset:
                continue
            # the fill, then the stores: size[n] = _flood(...) made Python-called playouts 8 % slower
            count = _flood(board, stride, label, stack, i, offset + n, offset)
            rep[n] = i
            size[n] = count
            colour[n] = k
            n += 1
    return n


@njit(cache=True, inline="always")
def _remove(board, width, height, label, target, first, count):
    """Remove the group labelled ``target`` (``count`` tiles, first cell ``first``) from a padded board.

    Gravity, then empty columns closed. ``first`` is the group's first cell
    in scan order, so its column is the group's leftmost and the columns
    before it stay as they are; once all its tiles are gone and no column
    was closed, the rest stays too.
    """
    stride = height + 2
    left = count
    dc = first // stride
    for c in range(dc, width + 1):
        if left == 0 and dc == c:
            break
        src = c * stride
        if board[src + 1] < 0:
            break
        dst = dc * stride
        w = 1
        r = 1
        while r <= height:
            k = board[src + r]
            if k < 0:
                break
            if label[src + r] != target:
                board[dst + w] = k
                w += 1
            r += 1
        left -= r - w
        if dc == c:
            for i in range(src + w, src + r):
                board[i] = -1
        else:
            for i in range(src + 1, src + r):
                board[i] = -1
            for i in range(dst + w, dst + height + 1):
                board[i] = -1
        if w > 1:
            dc += 1


@njit(cache=True)
def playout(cells, width, height, n_colours, scoring, policy, epsilon, seed, moves):
    """Finish ``cells`` in place; return (points of the moves, moves played).

    ``moves`` receives the flat cell index of the move's group representative
    (its first cell in scan order, as in :meth:`SameGame.moves`). Policies: 0
    uniform random; 1 TabuRandom (a random colour present at the start is
    avoided while other moves exist); 2 TabuColorRandom (the most frequent
    colour is avoided). With probability ``epsilon`` a move is uniform
    random instead. The work is done on a padded copy, with labels stamped
    by a growing offset so that they never need clearing.
    """
    s = np.uint64(seed)
    if s == 0:
        s = np.uint64(0x9E3779B97F4A7C15)
    cells_n = width * height
    board, label, stack, rep, size, colour = _workspace(cells, width, height)
    tabu = -1
    if policy != 0:
        counts = np.zeros(n_colours, np.int32)
        for i in range(cells_n):
            if cells[i] >= 0:
                counts[cells[i]] += 1
        if policy == 1:
            present = 0
            for k in range(n_colours):
                if counts[k] > 0:
                    present += 1
            if present > 0:
                s, u = _next(s)
                pick = int(u * present)
                for k in range(n_colours):
                    if counts[k] > 0:
                        if pick == 0:
                            tabu = k
                            break
                        pick -= 1
        else:
            best = 0
            for k in range(n_colours):
                if counts[k] > best:
                    best = counts[k]
                    tabu = k
    points = 0
    played = 0
    offset = 0  # labels below offset belong to earlier steps
    while True:
        n = _label(board, width, height, label, stack, offset, rep, size, colour)
        legal = 0
        free = 0
        for g in range(n):
            if size[g] >= 2:
                legal += 1
                if colour[g] != tabu:
                    free += 1
        if legal == 0:
            break
        use_tabu = tabu >= 0 and free > 0
        if use_tabu and epsilon > 0.0:
            s, u = _next(s)
            if u < epsilon:
                use_tabu = False
        s, u = _next(s)
        if use_tabu:
            pick = int(u * free)
        else:
            pick = int(u * legal)
        chosen = -1
        for g in range(n):
            if size[g] >= 2 and (not use_tabu or colour[g] != tabu):
                if pick == 0:
                    chosen = g
                    break
                pick -= 1
        points += _points(scoring, size[chosen])
        r0 = rep[chosen]
        moves[played] = _unpadded(r0, height)
        played += 1
        _remove(board, width, height, label, offset + chosen, r0, size[chosen])
        offset += n
        if offset > 2_000_000_000:
            label[:] = -1
            offset = 0
    _unpad(board, width, height, cells)
    return points, played


def group_code(colour, size, cells):
    """The integer code of a group of ``size`` tiles of ``colour`` on a board of ``cells`` cells.

    ``colour * (cells + 1) + size``: the codes of a board lie in
    ``range(colours * (cells + 1))``.

    >>> group_code(2, 5, 225)
    457
    """
    return colour * (cells + 1) + size


@njit(cache=True)
def _grow(array, needed):
    """``array`` if it holds ``needed`` entries, else a copy twice as large (or more)."""
    if needed <= array.size:
        return array
    bigger = np.empty(max(needed, 2 * array.size), array.dtype)
    bigger[: array.size] = array
    return bigger


@njit(cache=True)
def coded_playout(cells, width, height, scoring, weights, bias, has_bias, rng):
    """Finish ``cells`` in place by the softmax policy over group codes (NRPA, GNRPA).

    A legal group of ``size`` tiles of ``colour`` has the code
    :func:`group_code`; it is played with probability proportional to
    ``exp(weights[code] + bias[code])`` (``bias`` only if ``has_bias``; if
    it excludes every legal group, it is ignored in that state), drawn as
    :func:`hornermcts.search.policy.softmax_playout` draws: one
    ``rng.random()`` per state with two or more legal groups, the groups in
    scan order (the order of :func:`legal_groups`). Returns ``(points,
    moves, codes, betas, starts, chosen)``: the points of the moves, the
    flat cell of each move's group representative, and the trace of the
    states that had a choice (:class:`hornermcts.search.policy.Trace`).
    """
    cells_n = width * height
    board, label, stack, rep, size, colour = _workspace(cells, width, height)
    legal = np.empty(cells_n, np.int64)
    plain = np.empty(cells_n)
    beta = np.empty(cells_n)
    odds = np.empty(cells_n)
    moves = np.empty(cells_n // 2 + 1, np.int64)
    codes = np.empty(1024, np.int64)
    betas = np.zeros(1024)
    starts = np.zeros(cells_n // 2 + 2, np.int64)
    chosen = np.empty(cells_n // 2 + 1, np.int64)
    entries = 0
    steps = 0
    points = 0
    played = 0
    offset = 0
    while True:
        n = _label(board, width, height, label, stack, offset, rep, size, colour)
        m = 0
        for g in range(n):
            if size[g] >= 2:
                legal[m] = g
                m += 1
        if m == 0:
            break
        pick = 0
        if m > 1:
            for i in range(m):
                g = legal[i]
                code = colour[g] * (cells_n + 1) + size[g]
                plain[i] = weights[code]
                beta[i] = bias[code] if has_bias else 0.0
            pick, fallback = softmax_pick(plain, beta, m, rng, odds)  # fallback: the bias excluded every group
            codes = _grow(codes, entries + m)
            betas = _grow(betas, entries + m)
            for i in range(m):
                g = legal[i]
                code = colour[g] * (cells_n + 1) + size[g]
                codes[entries + i] = code
                betas[entries + i] = 0.0 if (fallback or not has_bias) else bias[code]
            chosen[steps] = entries + pick
            entries += m
            steps += 1
            starts[steps] = entries
        g = legal[pick]
        points += _points(scoring, size[g])
        r0 = rep[g]
        moves[played] = _unpadded(r0, height)
        played += 1
        _remove(board, width, height, label, offset + g, r0, size[g])
        offset += n
    _unpad(board, width, height, cells)
    return (points, moves[:played].copy(), codes[:entries].copy(), betas[:entries].copy(),
            starts[: steps + 1].copy(), chosen[:steps].copy())


@njit(cache=True)
def playout_batch(cells, width, height, n_colours, scoring, policy, epsilon, seed, count):
    """Play ``count`` playouts from ``cells``; return the sum of their points (benchmark)."""
    moves = np.empty(width * height, np.int32)
    work = np.empty_like(cells)
    total = 0
    s = np.uint64(seed)
    for _ in range(count):
        work[:] = cells
        s, u = _next(s)
        points, played = playout(work, width, height, n_colours, scoring, policy, epsilon, s, moves)
        total += points
    return total


@njit(cache=True)
def end_adjustment(cells, n_colours, bonus, penalty):
    """SameGame's end bonus or deduction (see :meth:`SameGame.end_adjustment`)."""
    counts = np.zeros(n_colours, np.int64)
    for i in range(cells.shape[0]):
        if cells[i] >= 0:
            counts[cells[i]] += 1
    deduction = 0
    left = False
    for k in range(n_colours):
        c = counts[k]
        if c > 0:
            left = True
            deduction += (c - 2) * (c - 2)
    if not left:
        return bonus
    if not penalty:
        return 0
    return -deduction


@njit(cache=True)
def colour_counts(cells, n_colours):
    """The number of tiles of each colour ``0 .. n_colours - 1`` on the board."""
    counts = np.zeros(n_colours, np.int64)
    for i in range(cells.shape[0]):
        if cells[i] >= 0:
            counts[cells[i]] += 1
    return counts
