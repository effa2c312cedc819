"""What a Millenium player plans with (issue 52): the map in the report (counters visible on
every level's colour, the map using its page), the printed Situation page of the sheet, the
Empire's set-up map and TAB 1, whose fleet a sentence names, where a waiting fleet enters, the
stacking note and the notation echoed as typed.  Real sheets are written and read back, real
PDFs opened."""

from __future__ import annotations

import io
import re
from pathlib import Path

import openpyxl
import pdfplumber
import pytest

from refassist.report.build import RenderSettings, common_context, render_report
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import ReportInput
from refassist.rulesets.millenium import sheet, zonemap
from refassist.rulesets.millenium.state import ALIEN, EMPIRE, State
from refassist.text.i18n import speaking_to
from refassist.typeset.render import template_dirs
from tests.libreoffice import through_libreoffice

from .situations import MAP, TABLES, place, playing

PACKAGE = "refassist.rulesets.millenium"
RULESET = find_ruleset("millenium")


# -- colours ----------------------------------------------------------------------------------


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb``."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _over(colour: str, opacity: float, paper: str) -> str:
    """``colour`` laid at ``opacity`` over ``paper``, as the map draws a system."""
    mixed = [
        round(opacity * int(colour[i : i + 2], 16) + (1 - opacity) * int(paper[i : i + 2], 16))
        for i in (1, 3, 5)
    ]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _attr(element: str, name: str) -> str:
    found = re.search(rf'\b{name}="([^"]*)"', element)
    assert found, (name, element)
    return found.group(1)


def _map_svg() -> str:
    """The referee's map with an Extraterrestrial fleet on a level-4 (green) system's planets
    and an Empire fleet on a level-5 (yellow) one's: where the counters vanished."""
    state = playing(3)
    green = next(s for s in MAP.systems.values() if s.level == 4)
    yellow = next(s for s in MAP.systems.values() if s.level == 5)
    place(state, ALIEN, "K", str(green.position), "vaisseau")
    place(state, EMPIRE, "δ", str(yellow.position), "fregate")
    info = ReportInput(step="3", deadline="-", sheets={}, house_rules={})
    return RULESET.report_content(state, None, info).context["zone_pages"][0]["svg"]


def test_every_counter_stands_out_on_every_levels_colour() -> None:
    """Each counter's edge (dark) or its halo (white) contrasts 3:1 or more (WCAG's least for
    a graphic) with every level's colour as the map lays it, and with the paper; the letter
    reads on its side's colour.  Before: a green counter on a green system, 1.8:1 at best."""
    svg = _map_svg()
    counters = re.findall(r'<rect class="counter"[^>]*>', svg)
    halos = re.findall(r'<rect class="halo"[^>]*>', svg)
    systems = re.findall(r'<rect class="system"[^>]*>', svg)
    assert len(counters) == len(halos) == 2 and systems
    opacity = float(_attr(systems[0], "fill-opacity"))
    grounds = [_over(c, opacity, zonemap.PAPER) for c in TABLES.level_rgb]
    grounds += [zonemap.PAPER, *TABLES.level_rgb]  # the paper; a level shown at full strength
    for counter, halo in zip(counters, halos, strict=True):
        edge, ring, fill = _attr(counter, "stroke"), _attr(halo, "stroke"), _attr(counter, "fill")
        assert float(_attr(counter, "stroke-width")) >= 1 and float(_attr(halo, "stroke-width")) > 2
        for ground in grounds:
            assert max(_contrast(edge, ground), _contrast(ring, ground)) >= 3, (fill, ground)
        assert _contrast(edge, ring) >= 7  # the two rings apart from each other
        assert _contrast("#000000", fill) >= 4.5  # the fleet's letter on its counter


def _pdf_page(reader: str | None, state: State) -> pdfplumber.page.Page:
    info = ReportInput(step="3", deadline="-", sheets={}, house_rules={}, languages={})
    content = RULESET.report_content(state, reader, info)
    pdf, _ = render_report(
        content, common_context(info), RenderSettings(tuple(template_dirs()), None)
    )
    return pdf


def test_the_map_fills_its_a4_page() -> None:
    """The zone names of the map's corners lie across at least 85% of the page's width and 60%
    of its height (before: the 6 x 5 square zones took the top 40% of the page)."""
    state = playing(3)
    place(state, ALIEN, "K", "33N5", "vaisseau")
    with pdfplumber.open(io.BytesIO(_pdf_page(None, state))) as pdf:
        page = next(p for p in pdf.pages if "strategic map" in (p.extract_text() or ""))
        words = {w["text"]: w for w in page.extract_words()}
        first, last = words["11"], words["65"]
        width = words["61"]["x0"] + (words["61"]["x0"] - first["x0"]) / 5 - first["x0"]
        height = last["top"] + (last["top"] - first["top"]) / 4 - first["top"]
        assert width >= 0.85 * (page.width - 2 * 28)
        assert height >= 0.6 * page.height


# -- the sheet's Situation page ---------------------------------------------------------------


@pytest.fixture(scope="module")
def states() -> list[State]:
    """The Empire's set-up, the Extraterrestrial's, then game turns 1 and 2."""
    from refassist.rulesets.millenium.setup import new_state

    from .test_secrets import PLAYERS, play

    return [new_state("g", "Orion", MAP, PLAYERS, TABLES.fleets), *play(5)[:3]]


def _sheet(state: State, folder: Path, language: str = "fr", name: str = "sheet.xlsx") -> Path:
    from refassist.rulesets.millenium.state import mover

    side = (EMPIRE if not state.systems else ALIEN) if state.turn == 0 else mover(state.turn)
    path = folder / name
    with speaking_to(language, PACKAGE):
        sheet.write_sheet(state, state.players[side], path, token="t", deadline="-")
    return path


def test_the_situation_page_prints_at_the_pages_width(states: list[State], tmp_path: Path) -> None:
    """The Situation page's lines are in column A: its print area is that column, now as wide
    as an A4 page's print (before: the default dozen characters, every line cut), fitted to one
    page wide, and a line longer than the column wraps in it."""
    path = _sheet(states[3], tmp_path)
    ws = openpyxl.load_workbook(path)["Situation"]
    area = re.fullmatch(r"'Situation'!\$A\$1:\$A\$(\d+)", str(ws.print_area))
    assert area and int(area.group(1)) >= ws.max_row
    assert ws.column_dimensions["A"].width >= 90
    assert ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.page_setup.fitToWidth in (None, 1) and ws.page_setup.fitToHeight == 0
    lines = [c for c in ws["A"][2:] if c.value and c.font.name == "Consolas"]
    assert lines and all(c.alignment.wrap_text for c in lines)


@pytest.mark.libreoffice
def test_the_printed_situation_page_has_every_line_whole(
    states: list[State], tmp_path: Path
) -> None:
    """Printed through LibreOffice, the end of the Situation page's longest line is inked on
    the page, not only in the PDF's text under a clip (before: the page showed each line's
    first dozen characters; the rest was clipped away at column A's edge)."""
    path = _sheet(states[3], tmp_path)
    ws = openpyxl.load_workbook(path)["Situation"]
    lines = [str(c.value) for c in ws["A"][2:] if c.value and c.font.name == "Consolas"]
    longest = max(lines, key=len)
    assert len(longest) > 60
    last_word = longest.split()[-1]
    pdf_path = through_libreoffice(path, tmp_path, "pdf")
    with pdfplumber.open(pdf_path) as pdf:
        page = next(p for p in pdf.pages if "Situation" in (p.extract_text() or "")[:40])
        found = page.search(re.escape(last_word))
        assert found, last_word
        box = found[-1]
        assert box["x1"] < page.width - 20  # inside the page's margins
        image = page.crop((box["x0"], box["top"], box["x1"], box["bottom"])).to_image(
            resolution=150
        )
        darkest = min(image.original.convert("L").getdata())
        assert darkest < 128, f"{last_word!r} is not printed"


# -- whose fleet ------------------------------------------------------------------------------


def _told(state: State, kind: str, language: str) -> list[str]:
    from refassist.text.i18n import again, words_for

    w = words_for(language, PACKAGE)
    return [again(e.text, w, e.data.get("say")) for e in state.events if e.kind == kind]


def test_a_fleets_letters_say_whose_fleet_it_is() -> None:
    """Both sides have a fleet δ (TAB 1): every sentence naming a fleet says whose, in each
    reader's language, and so does a fleet lost on the referee's table."""
    from refassist.dice import Dice
    from refassist.rulesets.millenium.orders import (
        BattleResult,
        FleetMove,
        Orders,
        ShipResult,
    )
    from refassist.rulesets.millenium.resolve import resolve_turn

    from .situations import at

    state = playing(2)
    place(state, EMPIRE, "δ", "23C4", "fregate")
    move = FleetMove("δ", "move", "Orders!B12", (at("23N4"),))
    after = resolve_turn(state, {"Ivo": Orders(EMPIRE, "2", moves=[move])}, Dice.scripted([]), {})
    moved = after.state
    assert _told(moved, "move", "fr") == ["la flotte δ de l'Empire s'est déplacée en 23N4"]
    assert _told(moved, "move", "en") == ["fleet δ of the Empire moved to 23N4"]

    state = playing(3)
    place(state, ALIEN, "K", "33C4", "vaisseau", "vaisseau", "colonisation")
    state.fleet(ALIEN, "K").position = at("33N4")
    land = FleetMove("K", "move", "Orders!B12", (at("33C4"),), land="N1", attack=True)
    place(state, EMPIRE, "A", "33C4", "fregate")
    rules = {"battles": "referee"}
    held = resolve_turn(state, {"Vera": Orders(ALIEN, "3", moves=[land])}, Dice.scripted([]), rules)
    [battle] = held.state.held.battles
    result = BattleResult(
        battle.id,
        "3-batailles",
        "",
        ships=[ShipResult(EMPIRE, "A", 0, "fregate", "destroyed", "Battle!F23")],
    )
    fought = resolve_turn(held.state, {battle.id: result}, Dice.scripted([]), rules).state
    assert _told(fought, "fleet_destroyed", "fr") == ["la flotte A de l'Empire est détruite"]
    assert _told(fought, "fleet_destroyed", "en") == ["fleet A of the Empire destroyed"]
    [log] = [e.data for e in fought.events if e.kind == "battle"]
    from refassist.text.i18n import again, words_for

    fr = [
        again(t, words_for("fr", PACKAGE), s)
        for t, s in zip(log["log"], log["log_say"], strict=True)
    ]
    assert any(line.startswith("A de l'Empire") for line in fr), fr


# -- where a waiting fleet enters -------------------------------------------------------------


def test_a_waiting_fleet_is_shown_where_it_will_enter(tmp_path: Path) -> None:
    """A fleet beyond the west edge at 03E4 steps on at 13W4: its line on the sheet's
    Situation page and in the report says so (before: only "waiting outside 03E4"), and a
    fleet on the map says no more than where it stands."""
    state = playing(1)
    place(state, ALIEN, "K", "03E4", "vaisseau")
    place(state, ALIEN, "δ", "23C4", "fregate")
    state.fleet(ALIEN, "K").where = "waiting"
    assert MAP.entry_point(at_("03E4")) == at_("13W4")
    assert MAP.entry_point(at_("23C4")) is None
    assert MAP.entry_point(at_("16N4")) == at_("15S4")  # below the bottom edge
    assert MAP.entry_point(at_("16S4")) is None  # touching no sector of the map
    path = _sheet(state, tmp_path, "fr")
    ws = openpyxl.load_workbook(path)["Situation"]
    lines = [str(c.value) for c in ws["A"] if c.value]
    assert any(
        line.startswith("K\u00a0: en attente hors de la carte 03E4, entre sur la carte en 13O4 - ")
        for line in lines
    ), lines
    assert any(line.startswith("δ\u00a0: sur la carte 23C4 - ") for line in lines), lines
    path = _sheet(state, tmp_path, "en", "en.xlsx")
    lines = [str(c.value) for c in openpyxl.load_workbook(path)["Situation"]["A"] if c.value]
    assert any(line.startswith("K: waiting outside 03E4, enters at 13W4 - ") for line in lines)
    info = ReportInput(step="1", deadline="-", sheets={}, house_rules={}, languages={"Vera": "en"})
    context = RULESET.report_content(state, "Vera", info).context
    where = {f["letter"]: f["where"] for f in context["fleets"]}
    assert where["K"] == "waiting outside 03E4, enters at 13W4"
    assert where["δ"] == "on the map 23C4"


def at_(text: str):
    from .situations import at

    return at(text)


# -- the order of the lines -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ("de haut en bas", "7 navires", "avant celle qui y entre")),
        ("en", ("from top to bottom", "7 ships", "before one entering it")),
    ],
)
def test_the_turn_sheet_says_the_lines_order_decides_stacking(
    states: list[State], tmp_path: Path, language: str, words: tuple[str, ...]
) -> None:
    """Moves are carried out in sheet order and each is held to the stacking limit where the
    other fleets stand by then: the note under the fleet lines says so, between the last fleet
    line and the purchases, and the sheet still reads back."""
    path = _sheet(states[2], tmp_path, language)
    ws = openpyxl.load_workbook(path)[sheet.orders_tab(language)]
    note = str(ws[f"A{sheet.STACKING_NOTE_ROW}"].value or "")
    assert all(word in note for word in words), note
    assert sheet.FLEET_FIRST_ROW + sheet.FLEET_ROWS == sheet.STACKING_NOTE_ROW
    assert sheet.read_sheet(path).problems == []


# -- the notation echoed as typed -------------------------------------------------------------


def test_positions_typed_with_o_and_i_come_back_as_typed(tmp_path: Path) -> None:
    """A French player who writes 23O4 and 23I4 reads them so in the orders as understood and
    in the checker's problems (before: 23W4 and 23C4, letters he never typed); one who writes
    W and C reads W and C."""
    from refassist.rulesets.millenium.validate import validate_orders
    from refassist.workbook.sheetpage import typing_into

    state = playing(2)
    place(state, EMPIRE, "δ", "23C4", "fregate")
    place(state, EMPIRE, "A", "33C4", "fregate")
    path = _sheet(state, tmp_path, "fr")
    with typing_into(path, sheet.orders_tab("fr")) as (put, _):
        put("B12", "δ")
        put("C12", "mouvement")
        put("D12", "23o4 13E4")
        put("B13", "A")
        put("C13", "mouvement")
        put("D13", "33-O-4 43O4")
    read = sheet.read_sheet(path)
    assert read.problems == []
    with speaking_to("fr", PACKAGE):
        lines = sheet.orders_text(read.orders)
        problems = validate_orders(state, "Ivo", read.orders)
    assert lines[0] == "La flotte δ se déplace par 23O4 13E4"
    assert lines[1] == "La flotte A se déplace par 33O4 43O4"
    [problem] = problems
    assert "43O4" in problem.message and "33O4" in problem.message, problem.message
    assert "W4" not in problem.message

    english = _sheet(state, tmp_path, "en", "en.xlsx")
    with typing_into(english, sheet.orders_tab("en")) as (put, _):
        put("B12", "δ")
        put("C12", "move")
        put("D12", "23W4 23C4 23E4")
    with speaking_to("en", PACKAGE):
        assert sheet.orders_text(sheet.read_sheet(english).orders)[0] == "δ moves 23W4 23C4 23E4"


# -- the map page and TAB 1 on the sheet ------------------------------------------------------


def _grid(ws) -> dict[str, tuple[int, int]]:
    """Each zone's name cell (row, column), 1-based, from the map page read back."""
    from refassist.rulesets.millenium.mappage import GRID_ROW

    return {
        str(ws.cell(GRID_ROW + 1 + 3 * (r - 1), 1 + 3 * (c - 1)).value): (
            GRID_ROW + 1 + 3 * (r - 1),
            1 + 3 * (c - 1),
        )
        for c, r in MAP.zones()
    }


def test_the_empires_set_up_sheet_has_the_map_and_tab_1(
    states: list[State], tmp_path: Path
) -> None:
    """The Empire places its fleets before it ever had a report: its set-up sheet carries a
    map page (every zone, its sectors, each system's letter and level in the level's colour)
    and TAB 1 as the game's tables have it, in the reader's language, printed on one page wide
    (before: no map, no TAB 1 on the sheet)."""
    from refassist.rulesets.millenium.charts import SHIP_TYPES
    from refassist.rulesets.millenium.mappage import _tint
    from refassist.text.i18n import words_for

    path = _sheet(states[0], tmp_path, "fr")
    book = openpyxl.load_workbook(path)
    assert book.sheetnames[:3] == ["Ordres", "Situation", "Carte"]
    ws = book["Carte"]
    grid = _grid(ws)
    assert set(grid) == {f"{c}{r}" for c, r in MAP.zones()}
    for system in MAP.systems.values():
        top, left = grid[f"{system.zone[0]}{system.zone[1]}"]
        centre = ws.cell(top + 1, left + 1)
        assert centre.value == f"{system.letter} · niveau {system.level}"
        colour = _tint(TABLES.level_rgb[system.level - 1])
        assert centre.fill.fgColor.rgb.endswith(colour[1:])
        assert ws.cell(top + 1, left).value == "O"  # the west sector, as French writes it
        assert ws.cell(top, left + 1).value == "N"
    text = [str(c.value) for row in ws.iter_rows() for c in row if c.value is not None]
    assert "TAB 1 - les navires et les flottes de la partie" in text
    assert "niveau 5\u00a0: jaune" in text
    for kind in SHIP_TYPES:
        ship = TABLES.ships[kind]
        label = words_for("fr", PACKAGE).gettext(sheet.SHIP_LABELS[kind])
        row = next(r for r in ws.iter_rows() if r[0].value == label)
        numbers = [c.value for c in row[5:16] if c.value is not None]
        assert numbers == [ship.starting, ship.per_fleet, ship.in_play, ship.cost], kind
    capacities = next(t for t in text if t.startswith("Les flottes et le nombre"))
    assert all(f"{letter} {n}" in capacities for letter, n in TABLES.fleets.items())
    area = re.fullmatch(r"'Carte'!\$A\$1:\$R\$(\d+)", str(ws.print_area))
    assert area and int(area.group(1)) >= ws.max_row - 1
    assert ws.sheet_properties.pageSetUpPr.fitToPage and ws.page_setup.fitToHeight == 0
    assert sheet.read_sheet(path).problems == []  # the extra page changes nothing read


def test_the_map_page_marks_the_fleets_the_side_knows(tmp_path: Path) -> None:
    """On a turn sheet the map page shows the side's fleets as ``δ4`` and the other side's
    as ``[K5]`` in their sectors, and a fleet waiting beyond an edge under the map with the
    sector it enters at."""
    state = playing(2)
    place(state, EMPIRE, "δ", "23N4", "fregate")
    place(state, EMPIRE, "A", "23N4", "corvette")
    place(state, ALIEN, "K", "33C5", "vaisseau")
    place(state, EMPIRE, "B", "03E4", "corvette")
    state.fleet(EMPIRE, "B").where = "waiting"
    ws = openpyxl.load_workbook(_sheet(state, tmp_path, "en"))["Map"]
    grid = _grid(ws)
    top, left = grid["23"]
    assert ws.cell(top, left + 1).value == "A4 δ4"  # the N sector
    top, left = grid["33"]
    assert str(ws.cell(top + 1, left + 1).value).endswith("\n[K5]")  # the inner sector
    text = [str(c.value) for row in ws.iter_rows() for c in row if c.value is not None]
    assert "Waiting beyond the edges: B4 at 03E4, enters at 13W4" in text


@pytest.mark.libreoffice
def test_the_map_page_prints(states: list[State], tmp_path: Path) -> None:
    """Through LibreOffice the map page prints on one page: every system and TAB 1's rows."""
    path = _sheet(states[0], tmp_path, "fr")
    with pdfplumber.open(through_libreoffice(path, tmp_path, "pdf")) as pdf:
        page = next(p for p in pdf.pages if "LA CARTE" in (p.extract_text() or ""))
        printed = page.extract_text() or ""
    for system in MAP.systems.values():
        assert f"{system.letter} · niveau {system.level}" in printed
    assert "navire de colonisation" in printed and "TAB 1" in printed
