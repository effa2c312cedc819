"""Display lists as inline SVG: the naive map render and the legend swatches.

WeasyPrint draws inline SVG itself, node by node; that is simple and exact but slow for a full
sector (thousands of nodes), which is why real reports draw maps with `cairomap` and stamp
them.  This backend stays for what it does well: small pictures inside the HTML (legend
swatches) and the single-pass render the benchmark measures the fast path against.  Every
text is escaped: names on maps come from sector files and players.
"""

from __future__ import annotations

from html import escape

from refassist.drawings.drawing import MAP_FONT_CSS, Circle, Drawing, Hatch, Path, Text


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _d(item: Path) -> str:
    out = []
    for points, closed in item.subpaths:
        x, y = points[0]
        out.append(f"M{_n(x)} {_n(y)}")
        out.extend(f"L{_n(px)} {_n(py)}" for px, py in points[1:])
        if closed:
            out.append("Z")
    return "".join(out)


class _Patterns:
    """The ``<pattern>`` definitions a drawing's hatches need, one per distinct hatch."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.ids: dict[Hatch, str] = {}
        self.defs: list[str] = []

    def ref(self, hatch: Hatch) -> str:
        if hatch not in self.ids:
            pid = f"{self.prefix}p{len(self.ids)}"
            self.ids[hatch] = pid
            self.defs.append(svg_pattern(pid, hatch))
        return f"url(#{self.ids[hatch]})"


def svg_pattern(pid: str, h: Hatch) -> str:
    """The SVG ``<pattern>`` of a hatch (any map kind's owner fills use it)."""
    s = h.spacing
    bg = f'<rect width="{_n(s)}" height="{_n(s)}" fill="{h.background}"/>'
    line = f'stroke="{h.color}" stroke-width="{_n(h.width)}"'
    kinds = {"x": "/\\", "+": "-|"}.get(h.kind, h.kind)
    a, b, c, e = _n(s), _n(s / 2), _n(s - 1), _n(s + 1)
    dot = _n(h.width * 1.6)
    ring = _n(h.width * 1.8)
    shapes = {
        "-": f'<path d="M0 {b}H{a}" {line}/>',
        "|": f'<path d="M{b} 0V{a}" {line}/>',
        # Diagonals with the corner stubs that make neighbouring tiles join seamlessly.
        "/": f'<path d="M0 {a}L{a} 0M-1 1L1 -1M{c} {e}L{e} {c}" {line}/>',
        "\\": f'<path d="M0 0L{a} {a}M-1 {c}L1 {e}M{c} -1L{e} 1" {line}/>',
        ".": f'<circle cx="{b}" cy="{b}" r="{dot}" fill="{h.color}"/>',
        "o": f'<circle cx="{b}" cy="{b}" r="{ring}" fill="none" {line}/>',
    }
    marks = [shapes[kind] for kind in kinds if kind in shapes]
    return (
        f'<pattern id="{pid}" patternUnits="userSpaceOnUse" width="{_n(s)}" height="{_n(s)}">'
        f"{bg}{''.join(marks)}</pattern>"
    )


def to_svg(drawing: Drawing, *, prefix: str = "m", css_size: bool = True) -> str:
    """An ``<svg>`` element for the drawing; ``prefix`` keeps pattern ids unique per page."""
    patterns = _Patterns(prefix)
    body: list[str] = []
    for item in drawing.items:
        if isinstance(item, Path):
            body.append(_path(item, patterns))
        elif isinstance(item, Text):
            body.append(_text(item))
        elif isinstance(item, Circle):
            body.append(_circle(item))
    size = f'width="{_n(drawing.width)}pt" height="{_n(drawing.height)}pt" ' if css_size else ""
    defs = f"<defs>{''.join(patterns.defs)}</defs>" if patterns.defs else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" {size}'
        f'viewBox="0 0 {_n(drawing.width)} {_n(drawing.height)}" '
        f'font-family="{escape(MAP_FONT_CSS)}">{defs}{"".join(body)}</svg>'
    )


def _circle(item: Circle) -> str:
    stroke = f' stroke="{item.stroke}" stroke-width="{_n(item.width)}"' if item.stroke else ""
    return (
        f'<circle cx="{_n(item.x)}" cy="{_n(item.y)}" r="{_n(item.r)}" '
        f'fill="{item.fill or "none"}"{stroke}/>'
    )


def _path(item: Path, patterns: _Patterns) -> str:
    fill = patterns.ref(item.fill) if isinstance(item.fill, Hatch) else (item.fill or "none")
    attrs = [f'd="{_d(item)}"', f'fill="{fill}"']
    if item.stroke:
        attrs.append(f'stroke="{item.stroke}" stroke-width="{_n(item.width)}"')
        attrs.append('stroke-linejoin="round" stroke-linecap="round"')
        if item.dash:
            attrs.append(f'stroke-dasharray="{" ".join(_n(v) for v in item.dash)}"')
    if item.opacity < 1:
        attrs.append(f'opacity="{_n(item.opacity)}"')
    return f"<path {' '.join(attrs)}/>"


def _text(item: Text) -> str:
    weight = ' font-weight="bold"' if item.bold else ""
    style = ' font-style="italic"' if item.italic else ""
    opacity = f' fill-opacity="{_n(item.opacity)}"' if item.opacity < 1 else ""
    text = (
        f'<text x="{_n(item.x)}" y="{_n(item.y)}" font-size="{_n(item.size)}" '
        f'text-anchor="{item.anchor}" fill="{item.color}"{weight}{style}{opacity}>'
        f"{escape(item.text)}</text>"
    )
    # A halo (white outline) would need a second <text> element, whose letters a PDF reader
    # would extract twice, and WeasyPrint has no paint-order: a halo is drawn as a white
    # outline of the same text with no fill and no letters for a reader to extract would
    # need paths, so on the naive render only labels with a box get one.
    if not item.box:
        return text
    # SVG cannot measure text before drawing it; estimate the box from the condensed font.
    width = len(item.text) * item.size * (0.56 if item.bold else 0.52)
    left = {"middle": item.x - width / 2, "end": item.x - width}.get(item.anchor, item.x)
    pad = item.size * 0.18
    return (
        f'<rect x="{_n(left - pad)}" y="{_n(item.y - item.size * 0.8)}" '
        f'width="{_n(width + 2 * pad)}" height="{_n(item.size)}" fill="#ffffff"/>{text}'
    )
