"""The engine's SVG painted straight with cairo (`refassist.typeset.svgpaint`): the same pixels
as CairoSVG draws for every element and paint the drawing modules write, every drawing module's
SVG painted without CairoSVG, and CairoSVG again for anything outside that part of SVG."""

from __future__ import annotations

import cairocffi
import pytest
from defusedxml.ElementTree import fromstring

from refassist.archive.chart import standings_svg
from refassist.drawings.boarddraw import board_svg
from refassist.drawings.boardmap import BoardCounter
from refassist.drawings.netdraw import network_svg
from refassist.typeset import svgdraw, svgpaint
from tests.test_boardmap import board
from tests.test_netmap import sample

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" viewBox="0 0 60 40"'

#: One drawing of each element and paint the drawing modules write (and SVG's defaults: a
#: shape without ``fill`` is black, without ``stroke`` not outlined).
SHAPES = (
    f'{SVG} font-family="DejaVu Sans"><title>every shape</title><defs>'
    '<pattern id="h" patternUnits="userSpaceOnUse" width="6" height="6">'
    '<rect width="6" height="6" fill="#c6dbef"/>'
    '<path d="M0 6L6 0M-1 1L1 -1M5 7L7 5" stroke="#1f5fa8" stroke-width="0.9"/></pattern>'
    '<pattern id="d" patternUnits="userSpaceOnUse" width="6" height="6">'
    '<rect width="6" height="6" fill="#f6e8a6"/><circle cx="3" cy="3" r="1.44" fill="#8a6d00"/>'
    "</pattern></defs>"
    '<rect x="1" y="1" width="58" height="38" fill="#f4f1e1" stroke="#333" stroke-width="0.8"/>'
    '<rect x="3" y="3" width="12" height="8" rx="1.5" fill="#e6b800" stroke="#222"'
    ' stroke-width="0.6" fill-opacity="0.55"/>'
    '<rect x="17" y="3" width="8" height="8"/>'
    '<circle cx="32" cy="7" r="4" fill="url(#h)" stroke="#111" stroke-width="0.5"/>'
    '<circle cx="42" cy="7" r="4" fill="url(#d)"/>'
    '<ellipse cx="52" cy="7" rx="5" ry="3" fill="none" stroke="#111111" stroke-width="0.9"/>'
    '<line x1="3" y1="15" x2="57" y2="15" stroke="#1f6fb5" stroke-width="1.6"'
    ' stroke-dasharray="5 3" stroke-linecap="round"/>'
    '<polygon points="5,20 15,18 20,26 8,30" fill="#a9d08e" stroke="#555" stroke-width="0.6"'
    ' stroke-dasharray="3 2"/>'
    '<polyline points="22,30 28,20 34,30 40,20" fill="none" stroke="#c0392b" stroke-width="2"'
    ' stroke-linejoin="round"/>'
    '<path d="M44 20H56V30M44 30V22" stroke="#5d4037" stroke-width="0.9" fill="none"/>'
    '<path d="M2 37Q5 31 8 37Q11 31 14 37" stroke="#111111" stroke-width="0.9" fill="none"/>'
    '<text x="30" y="37" font-size="4" text-anchor="middle" fill="#111111"'
    ' font-weight="bold">Far Away</text>'
    '<text x="58" y="37" font-size="3" text-anchor="end" font-style="italic"'
    ' transform="rotate(-10 58 37)">end</text></svg>'
)


#: A counter of every kind the board draws a symbol for (a parachute's arcs are curves).
EVERY_KIND = tuple(
    BoardCounter(f"0{i % 6 + 1}0{i // 6 + 1}", "Blue", kind, "X", "1-1-1", f"B-{i}")
    for i, kind in enumerate(
        ("infantry", "armour", "mechanized", "cavalry", "airborne", "air assault", "marine")
    )
)


def _refuse(*args: object) -> None:
    raise svgpaint.NotPainted("the test asks for CairoSVG")


def _picture(svg: str, monkeypatch: pytest.MonkeyPatch, *, by_cairosvg: bool) -> svgdraw.Picture:
    """The `svgdraw.Picture` of ``svg``, painted here or (``by_cairosvg``) by CairoSVG alone,
    as before `svgpaint`."""
    with monkeypatch.context() as m:
        if by_cairosvg:
            m.setattr(svgdraw, "paint", _refuse)
        return svgdraw.Picture(svg)


def _pixels(picture: svgdraw.Picture, scale: float = 4.0) -> tuple[bytes, int]:
    """The picture on white at ``scale`` pixels a point: its RGBA bytes and width."""
    width, height = int(picture.width * scale) + 2, int(picture.height * scale) + 2
    image = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, width, height)
    context = cairocffi.Context(image)
    context.set_source_rgb(1, 1, 1)
    context.paint()
    context.scale(scale, scale)
    picture.draw(context, 0, 0)
    image.flush()
    return bytes(image.get_data()), width


def _differing(a: bytes, b: bytes) -> float:
    """The share of pixels that differ by more than a quarter of the scale in any colour."""
    pixels = len(a) // 4
    off = sum(
        1 for i in range(0, len(a), 4) if max(abs(a[i + c] - b[i + c]) for c in range(3)) > 64
    )
    return off / pixels


def test_every_shape_and_paint_comes_out_as_cairosvg_draws_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ours = _picture(SHAPES, monkeypatch, by_cairosvg=False)
    theirs = _picture(SHAPES, monkeypatch, by_cairosvg=True)
    assert (ours.width, ours.height) == (theirs.width, theirs.height)
    (a, width), (b, _) = _pixels(ours), _pixels(theirs)
    assert width > 600
    # Anti-aliasing specks only (measured: at most 0.007% on every drawing of the demo games).
    assert _differing(a, b) < 0.001
    # And it is a drawing: the hatch's blue, the dots' brown and the red line are there.
    colours = {a[i : i + 3] for i in range(0, len(a), 4)}
    assert bytes((0xA8, 0x5F, 0x1F)) in colours  # #1f5fa8 (cairo keeps blue first)
    assert bytes((0x00, 0x6D, 0x8A)) in colours  # #8a6d00
    assert bytes((0x2B, 0x39, 0xC0)) in colours  # #c0392b


def test_a_drawing_is_clipped_to_its_box_as_cairosvg_clips_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A swatch's border on its edge: half the stroke shows on every side (a recording's own
    bounds are whole points, so without the clip the right edge showed a whole stroke)."""
    swatch = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="14" height="10"><rect width="14" '
        'height="10" fill="#c0302a" stroke="#333" stroke-width="0.6"/></svg>'
    )
    ours = _pixels(_picture(swatch, monkeypatch, by_cairosvg=False), 20)[0]
    theirs = _pixels(_picture(swatch, monkeypatch, by_cairosvg=True), 20)[0]
    assert _differing(ours, theirs) < 0.001


def test_every_unit_symbol_comes_out_as_cairosvg_draws_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    svg = board_svg(board(cols=6, rows=2, counters=EVERY_KIND))
    ours = _pixels(_picture(svg, monkeypatch, by_cairosvg=False))[0]
    theirs = _pixels(_picture(svg, monkeypatch, by_cairosvg=True))[0]
    assert _differing(ours, theirs) < 0.001


@pytest.mark.parametrize(
    "svg",
    [
        board_svg(board(cols=12, rows=8)),
        board_svg(board(cols=6, rows=2, counters=EVERY_KIND)),
        network_svg(sample()),
        standings_svg(
            [("5001", {"Ann": 3, "Bob": 5}), ("5002", {"Ann": 4, "Bob": 6})], "systems", title=""
        ),
    ],
    ids=["board", "every-unit-kind", "network", "chart"],
)
def test_every_drawing_module_is_painted_without_cairosvg(svg: str) -> None:
    root = fromstring(svg)
    view = [float(v) for v in root.get("viewBox", "").split()]
    assert svgpaint.paint(root, 500.0, 500.0 * view[3] / view[2], view) is not None


@pytest.mark.parametrize(
    "inner",
    [
        '<g><rect width="5" height="5"/></g>',
        '<rect width="5" height="5" stroke-opacity="0.5"/>',
        '<path d="m1 1 l3 3" stroke="#000000"/>',
        '<rect width="5" height="5" fill="red"/>',
        '<rect width="5" height="5" fill="url(#nowhere)"/>',
        '<text x="1" y="5" fill="url(#p)">a</text>',
    ],
    ids=["group", "stroke-opacity", "relative-path", "named-colour", "missing-pattern", "text"],
)
def test_anything_else_is_left_to_cairosvg(inner: str) -> None:
    svg = f"{SVG}>{inner}</svg>"
    root = fromstring(svg)
    with pytest.raises(svgpaint.NotPainted):
        svgpaint.paint(root, 100.0, 80.0, [0.0, 0.0, 60.0, 40.0])
    if "url(#p)" not in inner:  # a text's paint is refused by svgdraw itself
        drawn = svgdraw.Picture(svg)  # CairoSVG draws it
        assert drawn.width == pytest.approx(60 * 72 / 25.4)
