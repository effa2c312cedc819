"""The typesetter's contract, in one place: what it sets, what it mirrors, what it leaves.

**What comes in.**  A report's HTML, written by the templates (`render.render_html`), and
nothing else of the game.  A template marks what may be set here: ``section.chapter`` with
``data-flow`` (and the ``follow`` chapters after it), ``section.cover``, the map pages
(``section.map-page``, ``.net-page``, ``.board-page``, ``.standings-page``).

**The HTML subset** (`flowhtml.parse`): the block elements `flowhtml.BLOCK` (section, div, p,
h1-h4, table, tr, pre, ul, li), the inline ones `flowhtml.INLINE` (span, b, br, small, i),
``td``/``th`` in tables, an element's classes among those `flowhtml` lists for it, and the
attributes a map box and a page break carry.  An SVG drawing inside it (a board, a map of
places, a legend swatch, the standings chart) is drawn by `svgdraw`: an ``<svg>`` sized in mm,
px or a percentage, shapes, and ``<text>`` of plain words placed by ``x``, ``y``, ``dy``,
``text-anchor`` and at most a rotation; shapes `svgpaint` does not paint go to CairoSVG.

**The CSS it mirrors**: the rules of ``templates/base/report.css`` for that subset, held in
points in `flowhtml` (`STYLES`, `TABLES`, `NOTE`, ...) and the page in `pageitems` (`PAGE`,
`MARGINS`).  `MIRRORED` below lists each declaration of report.css the typesetter copies,
with the value the typesetter uses; `tests/test_typeset_contract.py` reads report.css and
fails naming the rule when the two differ.  A change to report.css is a change to `flowhtml`.

**What falls back to WeasyPrint** (`render.layout`), slower but the same report:

* a chapter with anything outside the subset (another element, class or attribute, an inline
  style): `flowhtml.Unsupported`, and that chapter is WeasyPrint's;
* an SVG beyond what `svgdraw` draws (`Unsupported` again: its page is WeasyPrint's);
* every chapter of a game folder that overrides ``report.css`` or ``layout.html``, and every
  chapter when Pango cannot be opened (`flow.usable`);
* the whole report when a section is left unset: WeasyPrint lays out the rest and the set
  pages and maps are stamped into its boxes (`flow.chapter_stamps`, `stamp` with pypdf for a
  file not shaped as cairo writes); else `flowdoc` puts the report together without it.

**What goes out**: a PDF with real text (the fog-of-war audit reads it), every heading in the
outline, the map page's named destination, the title, creator and language (`pdfinfo`), the
running heads (`running`), and maps appended to cairo's file (`pdfappend`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from refassist.drawings.drawing import MM_TO_PT as MM
from refassist.typeset import flowhtml as f
from refassist.typeset.pageitems import MARGINS

#: A value as the typesetter holds it: points (float), a colour ("#rrggbb"), a keyword.
Value = float | str


@dataclass(frozen=True)
class Mirrored:
    """One declaration of report.css (``selector { property: values }``) the typesetter
    copies, and the values it uses (lengths in points, unitless numbers as they are)."""

    selector: str
    property: str
    values: tuple[Value, ...]


def _box(top: Value, right: Value, bottom: Value, left: Value) -> tuple[Value, ...]:
    return (top, right, bottom, left)


def _sized(length: float | None) -> tuple[Value, ...]:
    """A box's size, or ``auto`` where the typesetter takes the drawing's own."""
    return ("auto",) if length is None else (length,)


P = f.STYLES["p"]
MIRRORED: tuple[Mirrored, ...] = (
    Mirrored("@page", "margin", MARGINS),
    Mirrored("html", "font-family", (f.SANS,)),
    Mirrored("html", "font-size", (P.size,)),
    Mirrored("html", "line-height", (f.LINE_HEIGHT,)),
    Mirrored("html", "color", (f.TEXT,)),
    Mirrored("p", "margin", _box(P.margin_top, 0, P.margin_bottom, 0)),
    *(Mirrored(tag, "font-size", (f.STYLES[tag].size,)) for tag in ("h1", "h2", "h3", "h4")),
    *(
        Mirrored(tag, "margin", _box(f.STYLES[tag].margin_top, 0, f.STYLES[tag].margin_bottom, 0))
        for tag in ("h1", "h2", "h3", "h4")
    ),
    Mirrored("h2", "border-bottom", (f.STYLES["h2"].border_bottom, "solid", "#333333")),
    Mirrored("h2", "padding-bottom", (f.STYLES["h2"].padding_bottom,)),
    Mirrored("section.chapter.follow", "margin-top", (f.FOLLOW_TOP,)),
    Mirrored(".muted", "color", (f.MUTED,)),
    Mirrored(".mono, .notation", "font-family", (f.MONO,)),
    Mirrored(".mono, .notation", "font-size", (f.NOTATION[0],)),
    Mirrored(".lines div", "padding", (f.NOTATION[1], 0)),
    Mirrored(".lines div", "border-bottom", (f.NOTATION[2], "solid", f.NOTATION[3])),
    Mirrored(".alert", "border", (f.ALERT[2], "solid", f.ALERT[3])),
    Mirrored(".alert", "padding", (f.ALERT[5], f.ALERT[4])),
    Mirrored(".alert", "margin", _box(f.ALERT[0], 0, f.ALERT[1], 0)),
    Mirrored(".note", "border-left", (f.NOTE[2], "solid", f.NOTE[3])),
    Mirrored(".note", "padding", _box(f.NOTE[5], 0, f.NOTE[5], f.NOTE[4])),
    Mirrored(".note", "margin", _box(f.NOTE[0], 0, f.NOTE[1], 0)),
    Mirrored("table", "margin", _box(f.TABLE_MARGINS[0], 0, f.TABLE_MARGINS[1], 0)),
    Mirrored("th, td", "padding", (f.TABLES["listing"][3], f.TABLES["listing"][2])),
    Mirrored("th", "font-size", (f.TABLES["listing"][1],)),
    Mirrored(
        "table.compact td, table.compact th",
        "padding",
        (f.TABLES["compact"][3], f.TABLES["compact"][2]),
    ),
    Mirrored("table.compact td, table.compact th", "font-size", (f.TABLES["compact"][0],)),
    Mirrored(".contents td", "padding", (f.TABLES["contents"][3], f.TABLES["contents"][2])),
    Mirrored(".cover .game", "font-size", (f.PARAGRAPHS["game"][0].size,)),
    Mirrored(".cover .game", "color", (f.PARAGRAPHS["game"][1],)),
    Mirrored(".standing", "margin", (f.STANDING[0], 0)),
    Mirrored(".standing", "border-top", (f.STANDING[1], "solid", f.STANDING[2])),
    Mirrored(".standing", "border-bottom", (f.STANDING[1], "solid", f.STANDING[2])),
    Mirrored(".standing > div", "padding", (f.STANDING[3], f.STANDING[4])),
    Mirrored(".deadline", "font-size", (f.PARAGRAPHS["deadline"][0].size,)),
    Mirrored(".deadline", "margin", (f.PARAGRAPHS["deadline"][0].margin_top, 0)),
    Mirrored(".legend", "margin-top", (f.LEGEND[0],)),
    Mirrored(".legend", "font-size", (f.LEGEND[1],)),
    Mirrored(".legend", "line-height", (f.LEGEND[2],)),
    Mirrored(".legend .item", "margin", _box(0, f.LEGEND_ITEM[0], f.LEGEND_ITEM[1], 0)),
    Mirrored(".legend svg", "margin-right", (f.LEGEND_ITEM[2],)),
    Mirrored(".event", "margin", _box(0, 0, f.EVENT_MARGIN, 0)),
    Mirrored(".battle", "border", (f.BATTLE[2], "solid", f.BATTLE[3])),
    Mirrored(".battle", "padding", (f.BATTLE[5], f.BATTLE[4])),
    Mirrored(".battle", "margin", _box(f.BATTLE[0], 0, f.BATTLE[1], 0)),
    Mirrored(".rolls", "font-size", (f.CHIP["size"],)),
    Mirrored(".rolls span", "min-width", (f.CHIP["min"],)),
    Mirrored(".rolls span", "margin", _box(0, f.CHIP["gap"], f.CHIP["below"], 0)),
    Mirrored(".rolls span", "padding", (0, f.CHIP["pad"])),
    Mirrored(".message", "border", (f.MESSAGE[2], "solid", f.MESSAGE[3])),
    Mirrored(".message", "padding", (f.MESSAGE[5], f.MESSAGE[4])),
    Mirrored(".message", "margin", _box(f.MESSAGE[0], 0, f.MESSAGE[1], 0)),
    Mirrored(".message .body", "margin-top", (f.BODY_TOP,)),
    Mirrored(".badge", "background", (f.BADGE,)),
    Mirrored(".dice", "font-size", (f.PARAGRAPHS["dice"][0].size,)),
    Mirrored("pre.listing", "font-size", (f.LISTING[0],)),
    Mirrored("pre.listing", "line-height", (f.LISTING[1],)),
    Mirrored("pre.listing", "margin", _box(f.LISTING[2], 0, f.LISTING[3], 0)),
    Mirrored("pre.listing b", "border-bottom", (f.LISTING[4], "solid", "#333333")),
    Mirrored("pre.listing i", "color", (f.MUTED,)),
    Mirrored(".net-box", "width", _sized(f.SVG_BOXES["net-box"][0])),
    Mirrored(".net-box", "height", _sized(f.SVG_BOXES["net-box"][1])),
    Mirrored(".board-box", "width", _sized(f.SVG_BOXES["board-box"][0])),
)

_UNITS = {"mm": MM, "pt": 1.0, "px": 0.75}
_NUMBER = re.compile(r"^(-?\d+(?:\.\d+)?)(mm|pt|px)?$")
_SHORT_COLOUR = re.compile(r"^#([0-9a-f])([0-9a-f])([0-9a-f])$")


def read_css(text: str) -> dict[tuple[str, str], str]:
    """``{(selector, property): value}`` of a stylesheet as simple as report.css (comments,
    rules, no nesting); a later declaration wins."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    found: dict[tuple[str, str], str] = {}
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
        selector = " ".join(selector.split())
        for declaration in body.split(";"):
            name, colon, value = declaration.partition(":")
            if colon:
                found[(selector, name.strip())] = " ".join(value.split())
    return found


def css_values(prop: str, value: str) -> tuple[Value, ...]:
    """A declaration's values as the typesetter holds them: lengths in points, colours in
    ``#rrggbb``, a font list by its first family."""
    if prop == "font-family":
        return (value.split(",")[0].strip().strip("\"'"),)
    out: list[Value] = []
    for token in value.split():
        token = token.lower()
        number = _NUMBER.match(token)
        short = _SHORT_COLOUR.match(token)
        if number:
            out.append(float(number.group(1)) * _UNITS.get(number.group(2) or "", 1.0))
        elif short:
            out.append("#" + "".join(c * 2 for c in short.groups()))
        else:
            out.append(token)
    return tuple(out)


def _same(a: Sequence[Value], b: Sequence[Value]) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if isinstance(x, str) or isinstance(y, str):
            if str(x).lower() != str(y).lower():
                return False
        elif abs(float(x) - float(y)) > 1e-6:
            return False
    return True


def mismatches(css_text: str) -> list[str]:
    """Each `MIRRORED` declaration that the stylesheet does not hold as the typesetter does."""
    css = read_css(css_text)
    problems = []
    for rule in MIRRORED:
        value = css.get((rule.selector, rule.property))
        if value is None:
            problems.append(f"report.css has no `{rule.selector} {{ {rule.property} }}`")
        elif not _same(css_values(rule.property, value), rule.values):
            problems.append(
                f"report.css `{rule.selector} {{ {rule.property}: {value} }}`, the typesetter "
                f"{rule.values}"
            )
    return problems
