"""Drawing a `NetworkMap` (places and links) as SVG for a report page, with its legend.

The drawing is inline SVG that WeasyPrint renders itself: a node-and-link map has a few dozen
places, not the thousands of hexes that made the sector map need cairo and stamping, so one
pass is fast enough and keeps the text of the map (place names) real text in the PDF.

Owners must stay apart in black-and-white print: each owner style has a tint, an ink and a
hatch direction, and every owned place also carries the owner's tag letter.  Names come from
map files and players, so every text and attribute value is XML-escaped; nothing in the SVG
refers to anything outside it (no ``href``), so it cannot make the report load a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from refassist.drawings.drawing import Hatch
from refassist.drawings.mapdraw import BATTLE, INK, SHADE, SOFT
from refassist.drawings.mapdraw import OWNER_STYLES as SECTOR_OWNER_STYLES
from refassist.drawings.netlayout import (
    LINE_SIZE,
    NAME_SIZE,
    STAR_R,
    Box,
    LabelLine,
    MapLayout,
    PlacedLabel,
    node_radius,
    place_labels,
    star_box,
    star_centre,
)
from refassist.drawings.netmap import NetNode, NetOwner, NetworkMap
from refassist.drawings.svgmap import svg_pattern

# The owners' colours and hatches, the ink and the shading are those of the hex-sector maps, so
# an owner looks the same on every kind of map refassist draws.

#: Owner styles (tint, ink, hatch): the sector maps' first six, whose hatches all differ, so
#: owners stay apart in black and white without relying on a repeated hatch.
OWNER_STYLES: tuple[tuple[str, str, str], ...] = SECTOR_OWNER_STYLES[:6]
LINK = "#444444"

#: Drawing size in SVG units (4 units a millimetre): fits an A4 page under a heading, with
#: room left for the legend.
WIDTH = 760.0
HEIGHT = 860.0
MARGIN = 70.0
NODE_R = 15.0
FONT = "'DejaVu Sans Condensed', 'DejaVu Sans', sans-serif"
#: Most text lines printed under one place (more are summarised as "+ n more").
MAX_LINES = 6


def owner_style(owner: NetOwner | None) -> tuple[str, str, str]:
    """(tint, ink, hatch) of an owner; white with no hatch for a place nobody holds."""
    if owner is None:
        return ("#ffffff", INK, "")
    return OWNER_STYLES[owner.style % len(OWNER_STYLES)]


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _e(text: object) -> str:
    """XML-escape text for element content and attribute values alike."""
    return escape(str(text), quote=True)


def _pattern(pid: str, tint: str, ink: str, hatch: str) -> str:
    """An owner's fill: its tint under its hatch, drawn a little wider than on the sector map
    (places here are circles a few millimetres across, not hexes)."""
    return svg_pattern(pid, Hatch(hatch, ink, tint, spacing=6.0, width=0.9))


@dataclass(frozen=True)
class _Frame:
    """Map units to SVG units: the nodes' bounding box scaled into the drawing, centred."""

    x0: float
    y0: float
    scale: float
    ox: float
    oy: float

    @classmethod
    def fit(cls, nodes: tuple[NetNode, ...], grid: tuple[int, int] | None = None) -> _Frame:
        if grid is not None:
            xs, ys = [0.0, float(grid[0])], [0.0, float(grid[1])]
        elif not nodes:
            return cls(0.0, 0.0, 1.0, MARGIN, MARGIN)
        else:
            xs = [n.x for n in nodes]
            ys = [n.y for n in nodes]
        span_x = max(max(xs) - min(xs), 1e-9)
        span_y = max(max(ys) - min(ys), 1e-9)
        # Leave extra room at the bottom for the label blocks under the lowest places.
        room_x = WIDTH - 2 * MARGIN
        room_y = HEIGHT - 2 * MARGIN - 40
        scale = min(room_x / span_x, room_y / span_y)
        ox = MARGIN + (room_x - span_x * scale) / 2
        oy = MARGIN + (room_y - span_y * scale) / 2
        return cls(min(xs), min(ys), scale, ox, oy)

    def at(self, x: float, y: float) -> tuple[float, float]:
        return self.ox + (x - self.x0) * self.scale, self.oy + (y - self.y0) * self.scale


def layout(net: NetworkMap) -> MapLayout:
    """Where everything of the map is drawn: each place's symbol and battle mark, and each
    label block placed clear of them, of the grid's numbers and of each other
    (`netlayout.place_labels`)."""
    frame = _Frame.fit(net.nodes, net.grid)
    points = {}
    for node in net.nodes:
        x, y = frame.at(node.x, node.y)
        points[node.code] = (x, y, node_radius(node, NODE_R))
    stars = {
        n.code: star_centre(*points[n.code]) for n in net.nodes if n.battle and n.code in points
    }
    fixed = _grid_number_boxes(net, frame) + _link_label_boxes(net, points)
    segments = [
        (points[link.a][:2], points[link.b][:2])
        for link in net.links
        if link.a in points and link.b in points
    ]
    blocks = {n.code: _label_lines(n, net) for n in net.nodes}
    colours = {n.code: SOFT if n.shaded else INK for n in net.nodes}
    labels = place_labels(
        blocks,
        points,
        [*fixed, *(star_box(c) for c in stars.values())],
        [(x, y, r + 1.5) for x, y, r in points.values()],
        segments,
        (WIDTH, HEIGHT),
        colours,
    )
    return MapLayout(labels, stars, points, tuple(fixed))


def _grid_number_boxes(net: NetworkMap, frame: _Frame) -> list[Box]:
    """The strips of column and row numbers round the grid (`_grid`), which labels leave
    readable."""
    if net.grid is None:
        return []
    columns, rows = net.grid
    (x0, y0), (x1, y1) = frame.at(0, 0), frame.at(columns, rows)
    return [Box(x0, y0 - 16, x1, y0 - 2), Box(x0 - 20, y0, x0 - 2, y1)]


def _link_label_boxes(net: NetworkMap, points: dict[str, tuple[float, float, float]]) -> list[Box]:
    """The boxes of the lengths printed on links (`network_svg`)."""
    out = []
    for link in net.links:
        if link.text and link.a in points and link.b in points:
            mx = (points[link.a][0] + points[link.b][0]) / 2
            my = (points[link.a][1] + points[link.b][1]) / 2
            w = 7.5 * len(link.text) + 8
            out.append(Box(mx - w / 2, my - 8, mx + w / 2, my + 8))
    return out


def _label_lines(node: NetNode, net: NetworkMap) -> list[LabelLine]:
    """A place's label block: its name, its marks (with their owners' tags and inks), then
    its free lines, at most `MAX_LINES` of them (the rest summed up)."""
    text_colour = SOFT if node.shaded else INK
    lines: list[LabelLine] = []
    for mark in node.marks:
        mark_owner = net.owner(mark.owner) if mark.owner else None
        tag = f" [{mark_owner.tag}]" if mark_owner else ""
        colour = owner_style(mark_owner)[1] if mark_owner and not node.shaded else text_colour
        lines.append(LabelLine(mark.text + tag, colour))
    lines.extend(LabelLine(line, text_colour) for line in node.lines)
    if len(lines) > MAX_LINES:
        extra = len(lines) - (MAX_LINES - 1)
        lines = [*lines[: MAX_LINES - 1], LabelLine(f"+ {extra} more", text_colour)]
    return [LabelLine(node.name, text_colour, name=True), *lines]


def network_svg(net: NetworkMap, prefix: str = "n") -> str:
    """The whole map as one ``<svg>`` element (``prefix`` keeps pattern ids unique): the grid,
    the links, the places with their battle marks, then the labels where `layout` put them,
    each on a light ground so a link passing under it leaves it legible."""
    frame = _Frame.fit(net.nodes, net.grid)
    placed = layout(net)
    where = {code: (x, y) for code, (x, y, _) in placed.symbols.items()}
    kinds = {n.code: n.kind for n in net.nodes}
    defs = [_pattern(f"{prefix}o{i}", *owner_style(o)) for i, o in enumerate(net.owners)]
    fills = {o.name: f"url(#{prefix}o{i})" for i, o in enumerate(net.owners)}
    body: list[str] = _grid(net, frame) if net.grid is not None else []
    for link in net.links:
        if link.a not in where or link.b not in where:
            continue
        (x1, y1), (x2, y2) = where[link.a], where[link.b]
        dash = ' stroke-dasharray="6 4"' if "open" in (kinds[link.a], kinds[link.b]) else ""
        body.append(
            f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
            f'stroke="{LINK}" stroke-width="{_n(1.6 + 0.6 * (link.length - 1))}"{dash}/>'
        )
        if link.text:
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            w = 7.5 * len(link.text) + 8
            body.append(
                f'<rect x="{_n(mx - w / 2)}" y="{_n(my - 8)}" width="{_n(w)}" height="16" '
                f'fill="#ffffff" stroke="{LINK}" stroke-width="0.8" rx="3"/>'
                f'<text x="{_n(mx)}" y="{_n(my + 4.5)}" font-size="12" text-anchor="middle" '
                f'font-weight="bold" fill="{INK}">{_e(link.text)}</text>'
            )
    for node in net.nodes:
        body.append(_node(node, where[node.code], net, fills, placed.stars.get(node.code)))
    for node in net.nodes:
        body.append(_label(placed.labels[node.code], node.shaded))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="190mm" height="215mm" '
        f'viewBox="0 0 {_n(WIDTH)} {_n(HEIGHT)}" font-family="{_e(FONT)}">'
        f"<defs>{''.join(defs)}</defs>{''.join(body)}</svg>"
    )


def _label(label: PlacedLabel, shaded: bool) -> str:
    """A placed label block: a light ground, then its lines."""
    box = label.box
    out = [
        f'<rect x="{_n(box.x0)}" y="{_n(box.y0)}" width="{_n(box.x1 - box.x0)}" '
        f'height="{_n(box.y1 - box.y0)}" fill="#ffffff" fill-opacity="0.85" stroke="none"/>'
    ]
    italic = ' font-style="italic"' if shaded else ""
    for line, baseline in zip(label.lines, label.baselines, strict=True):
        weight = (
            f' font-size="{_n(NAME_SIZE)}" font-weight="bold"{italic}'
            if line.name
            else (f' font-size="{_n(LINE_SIZE)}"')
        )
        out.append(
            f'<text x="{_n(label.x)}" y="{_n(baseline)}"{weight} '
            f'text-anchor="{label.anchor}" fill="{line.colour}">{_e(line.text)}</text>'
        )
    return "".join(out)


def _grid(net: NetworkMap, frame: _Frame) -> list[str]:
    """The squares behind the places: thin lines (each 5th a little heavier), blocked squares
    dark, every column and row numbered at the edge, so a square can be read off the print."""
    assert net.grid is not None
    columns, rows = net.grid
    parts = []
    size = frame.scale
    for c, r in net.blocked:
        x, y = frame.at(c - 1, r - 1)
        parts.append(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(size)}" height="{_n(size)}" '
            f'fill="{SOFT}" stroke="none"/>'
        )
    for c in range(columns + 1):
        (x, y0), (_, y1) = frame.at(c, 0), frame.at(c, rows)
        heavy = c % 5 == 0
        parts.append(
            f'<line x1="{_n(x)}" y1="{_n(y0)}" x2="{_n(x)}" y2="{_n(y1)}" stroke="{SHADE}" '
            f'stroke-width="{0.9 if heavy else 0.4}"/>'
        )
        if 0 < c <= columns:
            parts.append(
                f'<text x="{_n(x - size / 2)}" y="{_n(y0 - 6)}" font-size="9" '
                f'text-anchor="middle" fill="{INK}">{c:02d}</text>'
            )
    for r in range(rows + 1):
        (x0, y), (x1, _) = frame.at(0, r), frame.at(columns, r)
        heavy = r % 5 == 0
        parts.append(
            f'<line x1="{_n(x0)}" y1="{_n(y)}" x2="{_n(x1)}" y2="{_n(y)}" stroke="{SHADE}" '
            f'stroke-width="{0.9 if heavy else 0.4}"/>'
        )
        if 0 < r <= rows:
            parts.append(
                f'<text x="{_n(x0 - 6)}" y="{_n(y - size / 2 + 3)}" font-size="9" '
                f'text-anchor="end" fill="{INK}">{r:02d}</text>'
            )
    return parts


def _star(x: float, y: float, r: float) -> str:
    """An eight-pointed burst: the battle mark (a shape, so it survives black-and-white)."""
    import math

    points = []
    for i in range(16):
        radius = r if i % 2 == 0 else r * 0.45
        angle = math.pi * i / 8
        points.append(f"{_n(x + radius * math.cos(angle))},{_n(y + radius * math.sin(angle))}")
    return (
        f'<polygon points="{" ".join(points)}" fill="{BATTLE}" stroke="{INK}" stroke-width="0.6"/>'
    )


def _node(
    node: NetNode,
    pos: tuple[float, float],
    net: NetworkMap,
    fills: dict[str, str],
    star: tuple[float, float] | None,
) -> str:
    """A place's symbol (and its battle mark at ``star``); its label is drawn apart."""
    x, y = pos
    owner = net.owner(node.owner) if node.owner else None
    _tint, ink, _hatch = owner_style(owner)
    fill = SHADE if node.shaded else fills.get(node.owner, "#ffffff")
    out: list[str] = []
    if node.kind == "open":
        r = NODE_R * 0.7
        out.append(
            f'<polygon points="{_n(x)},{_n(y - r)} {_n(x + r)},{_n(y)} {_n(x)},{_n(y + r)} '
            f'{_n(x - r)},{_n(y)}" fill="{fill}" stroke="{SOFT}" stroke-width="1.2" '
            f'stroke-dasharray="3 2"/>'
        )
    else:
        r = NODE_R
        stroke = ink if owner else INK
        out.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="1.6"/>'
        )
        if node.kind == "home":
            out.append(
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r + 4)}" fill="none" '
                f'stroke="{stroke}" stroke-width="1.6"/>'
            )
        if owner is not None:
            out.append(
                f'<text x="{_n(x)}" y="{_n(y + 5)}" font-size="14" font-weight="bold" '
                f'text-anchor="middle" fill="{ink}">{_e(owner.tag)}</text>'
            )
    if star is not None:
        out.append(_star(*star, STAR_R))
    return "".join(out)


def legend(net: NetworkMap) -> list[dict[str, str]]:
    """The legend of a map: each item a small SVG swatch and its (escaped by the template)
    label.  Only what this map uses is listed."""
    items: list[dict[str, str]] = []
    for i, owner in enumerate(net.owners):
        tint, ink, hatch = owner_style(owner)
        pid = f"lg{i}"
        items.append(
            {
                "svg": (
                    '<svg xmlns="http://www.w3.org/2000/svg" width="6mm" height="6mm" '
                    f'viewBox="0 0 24 24" font-family="{_e(FONT)}"><defs>'
                    f"{_pattern(pid, tint, ink, hatch)}</defs>"
                    f'<circle cx="12" cy="12" r="10" fill="url(#{pid})" stroke="{ink}" '
                    f'stroke-width="1.4"/><text x="12" y="16.5" font-size="12" '
                    f'font-weight="bold" text-anchor="middle" fill="{ink}">{_e(owner.tag)}</text>'
                    "</svg>"
                ),
                "label": f"{owner.name} ({owner.tag})",
            }
        )
    kinds = {n.kind for n in net.nodes}
    swatch = '<svg xmlns="http://www.w3.org/2000/svg" width="6mm" height="6mm" viewBox="0 0 24 24">'
    if "home" in kinds:
        items.append(
            {
                "svg": swatch + '<circle cx="12" cy="12" r="7" fill="#ffffff" stroke="#111" '
                'stroke-width="1.4"/><circle cx="12" cy="12" r="10.5" fill="none" '
                'stroke="#111" stroke-width="1.4"/></svg>',
                "label": dict(net.kind_names).get("home", "home (double ring)"),
            }
        )
    if "open" in kinds:
        items.append(
            {
                "svg": swatch + '<polygon points="12,3 21,12 12,21 3,12" fill="#ffffff" '
                'stroke="#555" stroke-width="1.2" stroke-dasharray="3 2"/></svg>',
                "label": dict(net.kind_names).get("open", "open space (dashed links)"),
            }
        )
    if any(n.shaded for n in net.nodes):
        items.append(
            {
                "svg": swatch + f'<circle cx="12" cy="12" r="9" fill="{SHADE}" stroke="#111" '
                'stroke-width="1.2"/></svg>',
                "label": "not in sight now",
            }
        )
    if any(n.battle for n in net.nodes):
        items.append({"svg": swatch + _star(12, 12, 10) + "</svg>", "label": "battle this turn"})
    if net.blocked:
        items.append(
            {
                "svg": swatch + f'<rect x="3" y="3" width="18" height="18" fill="{SOFT}"/></svg>',
                "label": "blocked square (no route crosses it)",
            }
        )
    if any(link.text for link in net.links):
        items.append(
            {
                "svg": swatch + '<line x1="1" y1="12" x2="23" y2="12" stroke="#444" '
                'stroke-width="2.2"/><rect x="7" y="6" width="10" height="12" fill="#fff" '
                'stroke="#444" stroke-width="0.8"/><text x="12" y="16" font-size="10" '
                'text-anchor="middle" font-weight="bold">2</text></svg>',
                "label": "link length (when more than 1)",
            }
        )
    return items


def network_pages(net: NetworkMap | None) -> list[dict[str, object]]:
    """What the report templates lay out for a network map: one full page with its legend
    (``templates/base/netmap.html``); empty when the ruleset gave no map."""
    if net is None:
        return []
    return [
        {
            "title": net.title,
            "subtitle": net.subtitle,
            "svg": network_svg(net),
            "legend": legend(net),
            "notes": list(net.notes),
        }
    ]
