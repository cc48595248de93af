"""Candidate positions of a tube in its holder (Rei 2016, sec. 6.2.1), feasibility and ranking (Numba).

The positions considered for a circle of radius ``R`` are finitely many:

in the container (``holder == -1``)
    the two bottom corners ``(R, R)`` and ``(W - R, R)``; for every circle
    ``u`` directly in the container, the points where the new circle is
    tangent to ``u`` and to a wall (``circle(c_u, r_u + R)`` meets the lines
    ``x = R``, ``x = W - R``, ``y = R``, ``y = H - R``); for every pair ``v, w``
    directly in the container, the points tangent to both
    (``circle(c_v, r_v + R)`` meets ``circle(c_w, r_w + R)``);
inside a placed tube ``h`` of internal radius ``rho``
    the bottom centre ``(x_h, y_h - (rho - R))``; for every ``u`` directly in
    ``h``, the points tangent to ``h`` from the inside and to ``u``
    (``circle(c_h, rho - R)`` meets ``circle(c_u, r_u + R)``); the pair
    tangencies as in the container.

A position is kept when it is feasible: inside the holder and overlapping no
circle of the same level, both up to :data:`TOLERANCE` (in the instance's
length unit). Pairs ``v, w`` farther apart than ``r_v + r_w + 2R`` have no
common tangent circle and are skipped. Kept positions are **ranked** as the
greedy rule reads them, "minimum ordinate, then minimum abscissa": sorted by
``y``, ordinates within :data:`TOLERANCE` of the first of a run count as
equal and are ordered by ``x``, and a position within :data:`TOLERANCE` in
both coordinates of one already kept is a duplicate (two tangency rules often
give the same point) and dropped.

Placements are parallel arrays (the layout of
:class:`~hornermcts.domains.circle_packing.Packing`): ``xs``, ``ys``, the
external radius ``outer`` and internal radius ``inner`` of each placed tube,
and its ``holders`` entry (``-1`` for the container, else the index of the
placement it telescopes into).

Examples
--------
One circle of radius 2 in the bottom-left corner of a 10 x 6 box; where can
another circle of radius 2 go?

>>> xs, ys = np.array([2.0]), np.array([2.0])
>>> outer, inner, holders = np.array([2.0]), np.array([1.0]), np.array([-1])
>>> px, py = ranked_positions(2.0, -1, 10.0, 6.0, xs, ys, outer, inner, holders, 1)
>>> list(zip(px.round(3).tolist(), py.round(3).tolist()))
[(6.0, 2.0), (8.0, 2.0), (5.464, 4.0)]

Beside the free corner ``(8, 2)``: tangent to the circle and the floor
``(6, 2)``, and tangent to it and the ceiling line ``y = H - R = 4`` at
``x = 2 + sqrt(4^2 - 2^2)``; the corner ``(2, 2)`` overlaps the circle and
``(2, 6)`` (on the wall ``x = R``, above it) leaves the box.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["TOLERANCE", "ranked_positions", "feasible"]

#: Slack (in the instance's length unit) of every geometric test: containment, overlap, equal ordinates, duplicates.
TOLERANCE = 1e-6


@njit(cache=True)
def feasible(x, y, radius, holder, width, height, xs, ys, outer, inner, kids, m, tol):
    """Whether a circle at ``(x, y)`` of ``radius`` lies in ``holder`` and overlaps none of its circles.

    ``kids[:m]`` are the indices of the placements directly in ``holder``.
    """
    if holder < 0:
        if x < radius - tol or x > width - radius + tol or y < radius - tol or y > height - radius + tol:
            return False
    else:
        room = inner[holder] - radius + tol
        if room < 0.0:
            return False
        dx = x - xs[holder]
        dy = y - ys[holder]
        if dx * dx + dy * dy > room * room:
            return False
    for a in range(m):
        j = kids[a]
        gap = outer[j] + radius - tol
        dx = x - xs[j]
        dy = y - ys[j]
        if dx * dx + dy * dy < gap * gap:
            return False
    return True


@njit(cache=True)
def _circles_meet(x1, y1, a, x2, y2, b, tol):
    """The (up to two) points common to circle((x1, y1), a) and circle((x2, y2), b).

    Returns ``(count, xa, ya, xb, yb)``; circles tangent within ``tol`` meet
    once (returned twice, the ranking drops the duplicate).
    """
    dx = x2 - x1
    dy = y2 - y1
    d2 = dx * dx + dy * dy
    if d2 == 0.0:
        return 0, 0.0, 0.0, 0.0, 0.0
    d = np.sqrt(d2)
    if d > a + b + tol or d < abs(a - b) - tol:
        return 0, 0.0, 0.0, 0.0, 0.0
    along = (a * a - b * b + d2) / (2.0 * d)
    h2 = a * a - along * along
    h = np.sqrt(h2) if h2 > 0.0 else 0.0
    ux = dx / d
    uy = dy / d
    mx = x1 + along * ux
    my = y1 + along * uy
    return 2, mx + h * uy, my - h * ux, mx - h * uy, my + h * ux


@njit(cache=True)
def _rank(cx, cy, count, tol):
    """Sort candidates by ordinate then abscissa (ordinates within ``tol`` equal) and drop duplicates."""
    out_x = np.empty(count)
    out_y = np.empty(count)
    if count == 0:
        return out_x, out_y
    by_y = np.argsort(cy[:count], kind="mergesort")
    kept = 0
    start = 0
    while start < count:
        y0 = cy[by_y[start]]
        stop = start + 1
        while stop < count and cy[by_y[stop]] - y0 <= tol:
            stop += 1
        group = by_y[start:stop]
        gx = np.empty(stop - start)
        for i in range(stop - start):
            gx[i] = cx[group[i]]
        by_x = np.argsort(gx, kind="mergesort")
        first = kept
        for i in range(stop - start):
            j = group[by_x[i]]
            duplicate = False
            for q in range(first, kept):
                if abs(out_x[q] - cx[j]) <= tol and abs(out_y[q] - cy[j]) <= tol:
                    duplicate = True
                    break
            if not duplicate:
                out_x[kept] = cx[j]
                out_y[kept] = cy[j]
                kept += 1
        start = stop
    return out_x[:kept], out_y[:kept]


@njit(cache=True, inline="always")
def _keep(x, y, radius, holder, width, height, xs, ys, outer, inner, kids, m, tol, cx, cy, c):  # pragma: no cover
    """Append the position ``(x, y)`` to ``cx``, ``cy`` at ``c`` if it is feasible; the new count."""
    if feasible(x, y, radius, holder, width, height, xs, ys, outer, inner, kids, m, tol):
        cx[c] = x
        cy[c] = y
        return c + 1
    return c


@njit(cache=True)
def ranked_positions(radius, holder, width, height, xs, ys, outer, inner, holders, n, tol=TOLERANCE):
    """The feasible candidate positions of a circle of ``radius`` in ``holder``, best ranked first.

    ``holder`` is ``-1`` (the container) or the index of a placed tube; only
    the first ``n`` placements exist. Returns two arrays ``(x, y)``.
    """
    kids = np.empty(n, np.int64)
    m = 0
    for j in range(n):
        if holders[j] == holder:
            kids[m] = j
            m += 1
    capacity = 2 + 8 * m + m * (m - 1)
    cx = np.empty(capacity)
    cy = np.empty(capacity)
    c = 0
    if holder < 0:
        seeds_x = (radius, width - radius)
        for x in seeds_x:
            c = _keep(x, radius, radius, holder, width, height, xs, ys, outer, inner, kids, m, tol, cx, cy, c)
        for a in range(m):
            u = kids[a]
            reach = outer[u] + radius
            for wall in range(4):
                # x = radius, x = width - radius, y = radius, y = height - radius
                level = radius if wall % 2 == 0 else (width - radius if wall == 1 else height - radius)
                offset = level - (xs[u] if wall < 2 else ys[u])
                if abs(offset) > reach:
                    continue
                h = np.sqrt(max(reach * reach - offset * offset, 0.0))
                for sign in (-1.0, 1.0):
                    if wall < 2:
                        x = level
                        y = ys[u] + sign * h
                    else:
                        x = xs[u] + sign * h
                        y = level
                    c = _keep(x, y, radius, holder, width, height, xs, ys, outer, inner, kids, m, tol, cx, cy, c)
    else:
        room = inner[holder] - radius
        x = xs[holder]
        y = ys[holder] - room
        c = _keep(x, y, radius, holder, width, height, xs, ys, outer, inner, kids, m, tol, cx, cy, c)
        for a in range(m):
            u = kids[a]
            k, xa, ya, xb, yb = _circles_meet(xs[holder], ys[holder], room, xs[u], ys[u], outer[u] + radius, tol)
            if k:
                c = _keep(xa, ya, radius, holder, width, height, xs, ys, outer, inner, kids, m, tol, cx, cy, c)
                c = _keep(xb, yb, radius, holder, width, height, xs, ys, outer, inner, kids, m, tol, cx, cy, c)
    for a in range(m):
        v = kids[a]
        for b in range(a + 1, m):
            w = kids[b]
            dx = xs[w] - xs[v]
            dy = ys[w] - ys[v]
            span = outer[v] + outer[w] + 2.0 * radius + tol
            if dx * dx + dy * dy > span * span:
                continue
            k, xa, ya, xb, yb = _circles_meet(xs[v], ys[v], outer[v] + radius, xs[w], ys[w], outer[w] + radius, tol)
            if k:
                c = _keep(xa, ya, radius, holder, width, height, xs, ys, outer, inner, kids, m, tol, cx, cy, c)
                c = _keep(xb, yb, radius, holder, width, height, xs, ys, outer, inner, kids, m, tol, cx, cy, c)
    return _rank(cx, cy, c, tol)
