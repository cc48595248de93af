"""A packing drawn as a plain SVG document (no dependency): the container, each tube as a ring.

Tubes are drawn in placement order, so a telescoped tube (placed after its
holder) lies on top of its holder's hollow. Each type has its own colour;
the ``y`` axis points up as in the model (the SVG is flipped).

Examples
--------
>>> from hornermcts.domains.circle_packing import Instance, Packing
>>> inst = Instance(10, 6, r_ext=[3, 1], r_int=[2, 0], value=[5, 1], count=[1, 2])
>>> svg = packing_svg(inst, Packing([0, 1], [-1, 0], [3, 3], [3, 2]))
>>> svg.startswith("<svg") and svg.count("<circle") == 3 and svg.rstrip().endswith("</svg>")
True
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from .instance import Instance
from .packing import Packing

__all__ = ["packing_svg"]


def _colour(kind: int, types: int) -> str:
    hue = (200.0 + kind * 137.508) % 360.0  # the golden angle apart: neighbouring types differ
    return f"hsl({hue:.0f},60%,55%)"


def packing_svg(instance: Instance, packing: Packing, *, width_px: float = 800.0, title: str | None = None) -> str:
    """The SVG text of ``packing`` in ``instance``'s container, ``width_px`` pixels wide."""
    scale = width_px / instance.width
    height_px = instance.height * scale
    label = title if title is not None else f"{instance.name}: {len(packing)} tubes, value {packing.value(instance):g}"
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width_px:.1f}" height="{height_px + 24:.1f}" '
        f'viewBox="0 0 {width_px:.3f} {height_px + 24:.3f}">',
        f"<title>{escape(label)}</title>",
        f'<text x="2" y="16" font-family="sans-serif" font-size="13">{escape(label)}</text>',
        f'<g transform="translate(0,{height_px + 24:.3f}) scale({scale:.6g},{-scale:.6g})">',
        f'<rect x="0" y="0" width="{instance.width!r}" height="{instance.height!r}" fill="white" '
        f'stroke="black" stroke-width="{1.5 / scale:.4g}"/>',
    ]
    stroke = 0.6 / scale
    for kind, _holder, x, y in packing.rows():
        outer = float(instance.r_ext[kind])
        inner = float(instance.r_int[kind])
        lines.append(f'<circle cx="{x!r}" cy="{y!r}" r="{outer!r}" fill="{_colour(kind, instance.types)}" '
                     f'stroke="black" stroke-width="{stroke:.4g}"><title>type {kind}</title></circle>')
        if inner > 0:
            lines.append(f'<circle cx="{x!r}" cy="{y!r}" r="{inner!r}" fill="white" stroke="black" '
                         f'stroke-width="{stroke:.4g}"/>')
    lines += ["</g>", "</svg>"]
    return "\n".join(lines) + "\n"
