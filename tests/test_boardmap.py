"""The engine's terrain hex board (`drawings.boardmap`, `drawings.boarddraw`): drawn from plain data
as inline SVG, every hex and counter on it, names escaped, hexsides where they belong, and a
legend of only what the board uses."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from refassist.drawings.boarddraw import _Frame, board_pages, board_svg, legend
from refassist.drawings.boardmap import (
    BoardCounter,
    BoardEdge,
    BoardPlace,
    BoardSide,
    BoardTerrain,
    HexBoard,
)

SVG = "{http://www.w3.org/2000/svg}"


def board(**kw: object) -> HexBoard:
    base: dict[str, object] = {
        "title": "Test board",
        "cols": 4,
        "rows": 3,
        "terrains": (
            BoardTerrain("plain", "plain", "#ffffff"),
            BoardTerrain("forest", "forest", "#00aa00", "F"),
            BoardTerrain("sea", "sea", "#0000ff"),
        ),
        "terrain": {"0202": "forest"},
        "sides": (BoardSide("Blue", "B", 0), BoardSide("Red", "R", 1)),
        "places": (BoardPlace("0101", "<Home & Hearth>", "city", 3),),
        "edges": (BoardEdge("0101", "0201", "river"), BoardEdge("0302", "0402", "border")),
        "roads": (("0101", "0201", "0301"),),
        "counters": (
            BoardCounter("0202", "Blue", "armour", "XX", "6-6-6", "B-1"),
            BoardCounter("0202", "Blue", "infantry", "X", "2-3-3", "B-2", disrupted=True),
            BoardCounter("0303", "Red", "headquarters", "XXX", "0-1-5", "R-HQ", spent=True),
        ),
        "battles": ("0303",),
    }
    return HexBoard(**(base | kw))  # type: ignore[arg-type]


def test_every_hex_counter_and_name_is_drawn_and_escaped() -> None:
    svg = board_svg(board())
    root = ET.fromstring(svg)  # well-formed XML
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    hexes = [t for t in texts if re.fullmatch(r"\d{4}", t)]
    assert sorted(hexes) == sorted(f"{c:02d}{r:02d}" for c in range(1, 5) for r in range(1, 4))
    assert {"B-1", "B-2", "R-HQ", "6-6-6", "XX", "HQ", "F"} <= set(texts)
    assert "<Home & Hearth>" in texts and "&lt;Home &amp; Hearth&gt;" in svg
    assert "href" not in svg  # nothing outside the drawing is referred to
    # The stack of two in 0202 lies side by side: each counter whole, none over the other.
    boxes = [
        (float(r.get("x", 0)), float(r.get("y", 0)), float(r.get("width", 0)))
        for r in root.iter(f"{SVG}rect")
        if r.get("stroke-width") == "1.2"
    ]
    assert len(boxes) == 3
    (ax, ay, w), (bx, by, _) = sorted(boxes)[:2]
    assert abs(ax - bx) >= w or abs(ay - by) >= w


def test_a_hexside_is_drawn_between_the_two_hexes() -> None:
    frame = _Frame.fit(4, 3)
    x1, y1, x2, y2 = frame.hexside("0101", "0201")
    (ax, ay), (bx, by) = frame.centre("0101"), frame.centre("0201")
    # As long as a hex's side, at right angles to the line between the centres, centred on it.
    assert math.isclose(math.hypot(x2 - x1, y2 - y1), frame.r, rel_tol=1e-6)
    assert math.isclose((x2 - x1) * (bx - ax) + (y2 - y1) * (by - ay), 0, abs_tol=1e-6)
    assert math.isclose((x1 + x2) / 2, (ax + bx) / 2) and math.isclose((y1 + y2) / 2, (ay + by) / 2)
    # Even columns are half a hex lower (the engine's hex layout).
    assert frame.centre("0201")[1] > frame.centre("0101")[1]


def test_the_legend_lists_only_what_the_board_uses() -> None:
    labels = [item["label"] for item in legend(board())]
    assert "plain" in labels and "forest" in labels and "sea" not in labels
    assert {"Blue (B)", "Red (R)", "city", "river (hexside)", "border (hexside)"} <= set(labels)
    assert {"disrupted", "has acted this turn", "combat this exchange"} <= set(labels)
    bare = [i["label"] for i in legend(board(counters=(), battles=(), edges=(), roads=()))]
    assert "disrupted" not in bare and "river (hexside)" not in bare


def test_no_board_no_page() -> None:
    assert board_pages(None) == []
    (page,) = board_pages(board(subtitle="now", notes=("a note",)))
    assert page["title"] == "Test board" and page["notes"] == ["a note"]
    assert str(page["svg"]).startswith("<svg")


def test_no_counter_of_a_stack_hides_another() -> None:
    """Stacks of two to four lie side by side, two to a row, the counters' boxes apart; a
    fifth is counted on a badge.  (Overlapped, a disrupted unit under another was unseen.)"""
    from refassist.drawings.boarddraw import COUNTER_H, COUNTER_W, MAX_STACK, stack_boxes

    r = 40.0
    for count in range(1, MAX_STACK + 1):
        boxes = stack_boxes(count, 100.0, 100.0, r)
        assert len(boxes) == count
        for i, (ax, ay) in enumerate(boxes):
            for bx, by in boxes[i + 1 :]:
                apart = abs(ax - bx) >= COUNTER_W * r or abs(ay - by) >= COUNTER_H * r
                assert apart, (count, boxes)
    five = tuple(
        BoardCounter("0202", "Blue", "infantry", "X", "1-1-1", f"B-{n}", disrupted=n == 0)
        for n in range(5)
    )
    texts = [t.text for t in ET.fromstring(board_svg(board(counters=five))).iter(f"{SVG}text")]
    assert {"B-0", "B-1", "B-2", "B-3"} <= set(texts) and "B-4" not in texts and "+1" in texts


def test_zones_of_control_are_drawn_and_in_the_legend() -> None:
    zoned = board(zones={"0302": ("Red",), "0203": ("Blue", "Red")})
    root = ET.fromstring(board_svg(zoned))
    bands = [p for p in root.iter(f"{SVG}polygon") if p.get("stroke-dasharray") == "4 2"]
    assert len(bands) == 3
    labels = [item["label"] for item in legend(zoned)]
    assert "zone of control of Red" in labels and "zone of control of Blue" in labels
    assert not [x for x in legend(board()) if x["label"].startswith("zone of control")]
