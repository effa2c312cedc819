"""The engine's node-and-link maps: model, SVG drawing, legend, and a page in a real PDF."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

from pypdf import PdfReader

from refassist.drawings.netdraw import OWNER_STYLES, SHADE, legend, network_pages, network_svg
from refassist.drawings.netmap import NetLink, NetMark, NetNode, NetOwner, NetworkMap
from refassist.report.build import RenderSettings, common_context, render_report
from refassist.rulesets.base import ReportContent, ReportInput
from refassist.typeset.render import project_templates

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script> & "../../etc/passwd"'


def sample(name: str = "Oakford") -> NetworkMap:
    owners = (NetOwner("Red League", "R", 0), NetOwner("Blue Union", "B", 1))
    nodes = (
        NetNode("A", name, 0, 0, "home", "Red League", (NetMark("W Castle", "Red League"),)),
        NetNode("B", "Millbrook", 50, 10, lines=("Army 1: 3 ships",), battle=True),
        NetNode("C", "Far Reach", 100, 60, owner="Blue Union", shaded=True),
        NetNode("D", "The Void", 60, 80, "open"),
    )
    links = (NetLink("A", "B"), NetLink("B", "C", 3), NetLink("C", "D"), NetLink("D", "Z"))
    return NetworkMap("Test map", nodes, links, owners, "as seen by Red", ("a note",))


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def test_svg_is_well_formed_and_holds_every_name() -> None:
    root = parse(network_svg(sample()))
    found = texts(root)
    for name in (
        "Oakford",
        "Millbrook",
        "Far Reach",
        "The Void",
        "W Castle [R]",
        "Army 1: 3 ships",
    ):
        assert name in found
    # Only the link longer than 1 is labelled; the link to an unknown node is skipped.
    assert "3" in found and "1" not in found
    assert len(list(root.iter(f"{SVG}line"))) == 3


def test_node_kinds_shading_and_battles_are_drawn_differently() -> None:
    root = parse(network_svg(sample()))
    circles = list(root.iter(f"{SVG}circle"))
    # Oakford: two rings (home); Millbrook and Far Reach: one each.
    assert len(circles) == 4
    assert any(c.get("fill") == SHADE for c in circles)  # Far Reach, out of sight
    polygons = list(root.iter(f"{SVG}polygon"))
    diamond = [p for p in polygons if p.get("stroke-dasharray")]
    assert len(diamond) == 1  # open space
    assert len(polygons) == 2  # the diamond and Millbrook's battle mark
    dashed = [line for line in root.iter(f"{SVG}line") if line.get("stroke-dasharray")]
    assert len(dashed) == 1  # the link into open space


def test_owners_differ_in_black_and_white() -> None:
    hatches = [style[2] for style in OWNER_STYLES]
    inks = [style[1] for style in OWNER_STYLES]
    assert len(set(hatches)) == len(hatches) and len(set(inks)) == len(inks)
    root = parse(network_svg(sample()))
    patterns = list(root.iter(f"{SVG}pattern"))
    assert len(patterns) == 2
    # Owned places carry their owner's tag letter too.
    assert "R" in texts(root)


def test_hostile_names_are_escaped_text() -> None:
    svg = network_svg(sample(HOSTILE))
    assert "<script" not in svg
    root = parse(svg)
    assert HOSTILE in texts(root)
    assert not [e for e in root.iter() if e.tag.endswith("script") or e.get("href")]


def test_legend_lists_only_what_the_map_uses() -> None:
    labels = [item["label"] for item in legend(sample())]
    assert labels[:2] == ["Red League (R)", "Blue Union (B)"]
    for wanted in ("home", "open space", "not in sight", "battle", "length"):
        assert any(wanted in label for label in labels), wanted
    plain = NetworkMap("Plain", (NetNode("A", "Alone", 0, 0),), ())
    assert legend(plain) == []
    for item in legend(sample()):
        parse(item["svg"])


def test_no_map_gives_no_pages() -> None:
    assert network_pages(None) == []
    (page,) = network_pages(sample())
    assert page["title"] == "Test map" and page["notes"] == ["a note"]


def _render(tmp_path: Path, net: NetworkMap) -> tuple[str, list[str]]:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "page.html").write_text(
        '{% extends "base/layout.html" %}{% from "base/netmap.html" import network_page %}'
        "{% block body %}<p>Intro</p>{% for p in network_pages %}{{ network_page(p) }}"
        "{% endfor %}{% endblock %}",
        encoding="utf-8",
    )
    content = ReportContent(
        "page.html", {"game": "G", "period": "turn 1", "reader": "R"}, title="T", network=net
    )
    settings = RenderSettings((tmp_path / "t", project_templates()), None, None, True)
    pdf, refused = render_report(content, common_context(ReportInput("1", "soon")), settings)
    reader = PdfReader(io.BytesIO(pdf))
    return "\n".join(page.extract_text() for page in reader.pages), refused


def test_the_map_page_renders_into_the_pdf(tmp_path: Path) -> None:
    text, refused = _render(tmp_path, sample())
    assert refused == []
    for name in ("Test map", "Oakford", "Millbrook", "Far Reach", "Red League (R)", "a note"):
        assert name in text


def test_a_hostile_name_reaches_no_file(tmp_path: Path) -> None:
    net = sample('<img src="file:///etc/passwd"> ../../etc/passwd')
    text, refused = _render(tmp_path, net)
    assert refused == []
    assert "../../etc/passwd" in text
    assert "root:" not in text


def test_a_square_grid_behind_the_places_with_blocked_squares() -> None:
    from dataclasses import replace

    net = replace(sample(), grid=(12, 10), blocked=((4, 1), (4, 2)))
    root = parse(network_svg(net))
    lines = list(root.iter(f"{SVG}line"))
    # 13 column lines and 11 row lines of the grid, besides the links.
    grid_lines = [ln for ln in lines if ln.get("stroke") == SHADE]
    assert len(grid_lines) == 13 + 11
    dark = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == "#555555"]
    assert len(dark) == 2
    labels = texts(root)
    assert "01" in labels and "12" in labels and "10" in labels
    assert any(item["label"].startswith("blocked square") for item in legend(net))
    assert not any(item["label"].startswith("blocked square") for item in legend(sample()))
