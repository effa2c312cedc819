"""What a Millennium Wars player plans with and reads: the messages of his sheet (issue 51),
the board and tables on his sheet, the attacks on his units told before he reacts, the board
in the PDF report and the referee's dice.  Real sheets are written and read back; real PDFs
are opened."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import openpyxl
import pdfplumber

from refassist.dice import Dice
from refassist.report.build import RenderSettings, common_context, render_report
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import Event, ReportInput
from refassist.rulesets.millennium_wars.combat import Attack
from refassist.rulesets.millennium_wars.crt import COLUMNS, RAID
from refassist.rulesets.millennium_wars.movement import Move
from refassist.rulesets.millennium_wars.orders import InformationAttack, Orders
from refassist.rulesets.millennium_wars.planning import board_box, direction, turn_so_far
from refassist.rulesets.millennium_wars.report import combats, hex_board, roll_line
from refassist.rulesets.millennium_wars.state import State
from refassist.rulesets.millennium_wars.validate import validate_orders
from refassist.typeset.render import template_dirs
from refassist.workbook.master import read_master, write_master

from .test_secrets import report
from .test_sheet import start, type_cells, written

RULESET = find_ruleset("millennium-wars")


# -- messages ----------------------------------------------------------------------------------


def test_the_retreat_example_keeps_its_semicolon(tmp_path: Path) -> None:
    """The reader splits a message at its first "; " into the problem and its fix: the
    example of the notation must come out whole in the fix."""
    path = written(start(), "Ann", tmp_path)
    type_cells(path, {"B43": "N-1AR", "C43": "0905", "D43": "raid", "G43": "N-1AR 0804"})
    (problem,) = RULESET.read_sheet(path).problems
    assert problem.cell == "G43"
    assert problem.message == "'N-1AR 0804' names no unit before a colon"
    assert "e.g. N-1AR: 0302 0301; N-2MI: 0403." in problem.fix
    assert problem.fix.startswith("Write each unit's retreat as UNIT: HEX HEX")


def test_unit_ids_are_read_without_regard_to_case(tmp_path: Path) -> None:
    """``n-2mi`` on a sheet is N-2MI for the checker and for the resolution."""
    state = start()
    path = written(state, "Ann", tmp_path)
    type_cells(path, {"B24": "n-2mi", "C24": "0504 0604", "B25": "N-3li", "C25": "0603"})
    orders = RULESET.read_sheet(path).orders
    assert RULESET.validate(state, "Ann", orders, {}) == []
    moved = RULESET.resolve(state, {"Ann": orders}, Dice.scripted([3] * 6), {}).state
    assert moved.unit("N-2MI").hex == "0604" and moved.unit("N-3LI").hex == "0603"
    assert not [e for e in moved.events if e.kind == "order_cancelled"]


def test_an_attack_in_lower_case_is_checked_and_fought() -> None:
    state = start()
    state.unit("N-1AR").hex = "0804"
    state.unit("N-HT").hex = "0805"
    ann = Orders(
        "Ann",
        "1-1-1",
        attacks=[
            Attack(["n-1ar", "N-ht"], "0905", "raid", retreat={"n-1ar": ["0803"]}, advance=["n-ht"])
        ],
    )
    assert validate_orders(state, "Ann", ann, {}) == []
    after = RULESET.resolve(state, {"Ann": ann}, Dice.scripted([3]), {}).state
    assert after.pending[0].attackers == ["N-1AR", "N-HT"]
    assert after.pending[0].retreat == {"N-1AR": ["0803"]}
    assert after.pending[0].advance == ["N-HT"]


def test_the_case_of_an_unseen_enemy_id_is_not_set_right() -> None:
    """An enemy unit out of sight typed in lower case gets the answer an id of no unit gets,
    in the player's own spelling: setting its case right would confirm the guess."""
    state = start()
    seen = {u.id for u in RULESET.player_view(state, "Ann").units if u.side == "Sarkand"}
    hidden = sorted(u.id for u in state.units if u.side == "Sarkand" and u.id not in seen)
    guess = hidden[0].lower()
    ann = Orders(
        "Ann",
        "1-1-1",
        information=[InformationAttack(["N-CY"], "disrupt", [guess, "s-zz9"], cell="B19")],
    )
    messages = [p.message for p in validate_orders(state, "Ann", ann, {})]
    assert f"{guess} is not an enemy unit you see" in messages
    assert "s-zz9 is not an enemy unit you see" in messages
    assert not any(hidden[0] in m for m in messages)


def test_the_political_points_warning_is_on_its_own_cell(tmp_path: Path) -> None:
    state = start()
    state.unit("N-1AR").hex = "0804"
    state.unit("N-HT").hex = "0805"
    state.first.political_points = 1
    path = written(state, "Ann", tmp_path)
    type_cells(path, {"B44": "N-1AR N-HT", "C44": "0905", "D44": "raid", "E44": 2})
    orders = RULESET.read_sheet(path).orders
    (found,) = RULESET.validate(state, "Ann", orders, {})
    assert (found.cell, found.severity) == ("E44", "warning")
    ws = openpyxl.load_workbook(path)["Orders"]
    assert ws["E44"].value == 2


# -- the referee's report ---------------------------------------------------------------------


def test_the_referees_report_lists_every_die_of_the_exchange() -> None:
    """An attack fought with fixed dice: every die the exchange rolled is in the referee's
    PDF, with what it was for, and in no player's."""
    state = start()
    state.unit("N-1AR").hex = "0804"
    state.unit("N-HT").hex = "0805"
    ann = Orders(
        "Ann",
        "1-1-1",
        attacks=[Attack(["N-1AR", "N-HT"], "0905", "raid")],
        information=[InformationAttack(["N-CY"], "index")],
    )
    state = RULESET.resolve(state, {"Ann": ann}, Dice.scripted([3, 4, 2, 5, 1, 6] * 2), {}).state
    assert state.dice, "the impulse rolled for the information attack"
    # Bob's reaction: the attack is fought, with its own dice.
    fought = RULESET.resolve(state, {}, Dice.scripted([5, 6, 1, 2, 3, 4] * 2), {}).state
    assert fought.dice and fought.dice != state.dice
    for exchange in (state, fought):
        text = report(exchange, None)
        section = " ".join(text[text.index("Every die") :].split())
        for roll in exchange.dice:
            assert roll_line(roll) in section, roll
        assert "Every die" not in report(exchange, "Ann")


# -- the attacks on the reacting side's units ---------------------------------------------------


def declared(rules: dict[str, object] | None = None) -> State:
    """Ann's first impulse (air parity) moving N-2MI to 0403 and declaring an attack on 0905
    from 0804 and 0805, with a political point and a retreat of her own she keeps to
    herself."""
    state = start()
    state.unit("N-1AR").hex = "0804"
    state.unit("N-HT").hex = "0805"
    ann = Orders(
        "Ann",
        "1-1-1",
        moves=[Move("N-2MI", ["0403"])],
        attacks=[
            Attack(
                ["N-1AR", "N-HT"],
                "0905",
                "raid",
                political_points=1,
                retreat={"N-1AR": ["0803"]},
                advance=["N-HT"],
            )
        ],
    )
    return RULESET.resolve(state, {"Ann": ann}, Dice.scripted([]), rules or {}).state


def situation_text(state: State, player: str, folder: Path, **rules: object) -> str:
    ws = openpyxl.load_workbook(written(state, player, folder, **rules))["Situation"]
    return "\n".join(str(c.value) for row in ws.iter_rows() for c in row if c.value)


def test_the_reaction_sheet_tells_which_units_are_attacked_from_where_and_at_what_odds(
    tmp_path: Path,
) -> None:
    state = declared()
    assert state.point.reaction
    text = situation_text(state, "Bob", tmp_path)
    line = next(t for t in text.splitlines() if t.startswith("0905 ("))
    assert line.startswith("0905 (S-3) attacked on the raid CRT by N-1AR from 0804, N-HT from 0805")
    held = sum(u.defence for u in state.units if u.hex == "0905")
    strength = state.unit("N-1AR").attack + state.unit("N-HT").attack
    assert f"odds as you can reckon them {strength} to {held}" in line
    # Not what Ann keeps to herself: her political point, her retreat, her advance.
    view = RULESET.player_view(state, "Bob", {})
    assert [(a.political_points, a.retreat, a.advance) for a in view.pending] == [(0, {}, [])]
    assert "political point shift" not in line and "0803" not in line
    assert "Attacks on your units" in text.splitlines()[1]


def test_the_reacting_players_report_tells_the_attacks_and_the_attackers_does_not() -> None:
    state = declared()
    bob = " ".join(report(state, "Bob").split())
    assert "Attacks on your units, fought after your reaction" in bob
    assert "0905 (S-3) attacked on the raid CRT by N-1AR from 0804, N-HT from 0805" in bob
    assert "Attacks on your units" not in report(state, "Ann")


def test_no_attack_is_told_under_the_house_rule(tmp_path: Path) -> None:
    rules: dict[str, object] = {"attacks_told": False}
    state = declared(rules)
    assert RULESET.player_view(state, "Bob", rules).pending == []
    text = situation_text(state, "Bob", tmp_path, **rules)
    assert "Not told (house rule)." in text and "0905 (S-3) attacked" not in text


def test_an_attack_is_told_only_on_the_readers_own_units(tmp_path: Path) -> None:
    """An impulse without attacks tells none; the referee still sees the declared attacks
    whole."""
    state = start()
    state.point = replace(state.point, reaction=True)  # a reaction to an impulse without attacks
    assert "No attack on your units." in situation_text(state, "Bob", tmp_path)
    full = declared()
    assert full.pending[0].political_points == 1 and full.pending[0].retreat


# -- the sheet: this game turn so far, the board, the tables -----------------------------------


def two_exchanges() -> State:
    """1-1-1: Ann moves N-2MI and attacks S-3 at 0905; 1-1-1r: Bob reacts, the attack is
    fought (die 6).  The state then waits for Ann's second impulse."""
    state = declared()
    return RULESET.resolve(state, {}, Dice.scripted([6, 6, 6, 6]), {}).state


def test_the_second_impulse_sheet_tells_every_exchange_of_the_game_turn(tmp_path: Path) -> None:
    state = two_exchanges()
    assert state.point.key == "1-1-2"
    text = situation_text(state, "Ann", tmp_path)
    so_far = text[text.index("This game turn so far") :].splitlines()[1:]
    assert any(line.startswith("Northland attacks 0905") for line in so_far)
    assert "Nothing yet." not in so_far
    # Every exchange's events, the first's before the reaction's, and only this turn's.
    first = [e.text for e in RULESET.player_view(state, "Ann", {}).earlier]
    assert first and all(line in so_far for line in first)
    assert so_far.index(first[0]) < next(
        i for i, line in enumerate(so_far) if line.startswith("Northland attacks")
    )


def test_the_turn_so_far_keeps_what_the_other_side_was_not_told(tmp_path: Path) -> None:
    """An event told to Ann alone in an earlier exchange stays out of Bob's sheet."""
    state = two_exchanges()
    ann_only = [e for e in [*state.earlier, *state.events] if e.visible_to == ("Ann",)]
    secret = Event(1, "combat", "0303", "note", "Ann's own secret note", ("Ann",), ("Ann",))
    state.earlier.append(secret)
    state.point = replace(state.point, reaction=True)
    bob = situation_text(state, "Bob", tmp_path)
    assert "Ann's own secret note" not in bob
    assert not [e for e in ann_only if e.text in bob]


def test_earlier_exchanges_are_kept_in_the_master_and_an_older_master_reads(
    tmp_path: Path,
) -> None:
    state = two_exchanges()
    assert state.earlier, "the first impulse's events are carried"
    path = tmp_path / "master.xlsx"
    write_master(path, RULESET, state)
    again = read_master(path, RULESET)
    assert [e.text for e in again.earlier] == [e.text for e in state.earlier]
    # A master written before the sheet existed reads, with no earlier events.
    wb = openpyxl.load_workbook(path)
    del wb["Earlier"]
    wb.save(path)
    assert read_master(path, RULESET).earlier == []


def test_a_new_game_turn_starts_its_so_far_afresh() -> None:
    state = two_exchanges()
    state.earlier = [Event(0, "combat", "", "note", "last turn's", ("*",), ("*",))]
    view = RULESET.player_view(state, "Ann", {})
    assert "last turn's" not in turn_so_far(view)


def board_cells(path: Path) -> dict[str, str]:
    """The Board page's hex cells by hex id (the first word of each)."""
    ws = openpyxl.load_workbook(path)["Board"]
    cells = {}
    for row in ws.iter_rows():
        for c in row:
            if isinstance(c.value, str) and c.value[:4].isdigit() and c.value[4:5] == " ":
                cells[c.value[:4]] = c.value
    return cells


def test_the_board_page_draws_the_hexes_around_the_units_as_the_side_sees_them(
    tmp_path: Path,
) -> None:
    state = declared()
    path = written(state, "Bob", tmp_path)
    cells = board_cells(path)
    assert len(cells) == 12 * 8  # the whole training map fits a page
    assert cells["0905"].splitlines()[:3] == [
        "0905 plain (Sarkand)",
        "yours: S-3",
        "ENEMY ZOC, your ZOC",
    ]
    assert "ENEMY: N-1AR" in cells["0804"] and "road" in cells["0804"]
    assert "Oran town *2 (Sarkand)" in cells["0906"]
    assert "river SW" in cells["0701"] and "river NE" in cells["0601"]
    # Neighbours touch: 0905's cell (odd column) spans the rows of 0804's and 0805's halves.
    ws = openpyxl.load_workbook(path)["Board"]
    spans = {
        ws.cell(m.min_row, m.min_col).value[:4]: (m.min_col, m.min_row, m.max_row)
        for m in ws.merged_cells.ranges
        if isinstance(ws.cell(m.min_row, m.min_col).value, str)
        and ws.cell(m.min_row, m.min_col).value[:4].isdigit()
    }
    col9, top9, _ = spans["0905"]
    col8, top8a, _ = spans["0804"]
    _, top8b, _ = spans["0805"]
    assert col8 == col9 - 1 and top8a == top9 - 1 and top8b == top9 + 1
    # The enemy's zone of control draws a red border.
    assert ws.cell(top9, col9).border.left.color.rgb.endswith("C00000")
    # What Bob does not see is not drawn, nor its zone of control.
    seen = {u.id for u in RULESET.player_view(state, "Bob", {}).units}
    hidden = [u for u in state.units if u.id not in seen]
    assert hidden
    text = "\n".join(cells.values())
    for unit in hidden:
        assert unit.id not in text.split()
        assert "ENEMY" not in cells[unit.hex] or any(
            u.hex == unit.hex for u in state.units if u.id in seen
        )


def test_the_board_page_has_the_terrain_effects_and_combat_tables(tmp_path: Path) -> None:
    state = start()
    state.air = "Northland"
    ws = openpyxl.load_workbook(written(state, "Ann", tmp_path))["Board"]
    rows = [[str(c.value) for c in row if c.value is not None] for row in ws.iter_rows()]
    assert ["forest", "3", "2", "-1"] in rows
    assert ["glacier", "prohibited", "3", "-2", "1"] in rows
    raid = next(i for i, r in enumerate(rows) if r and r[0].startswith("RAID CRT"))
    assert rows[raid + 1] == ["Die", *COLUMNS]
    assert rows[raid + 2] == ["1", *RAID.rows[0]]
    assert any(r and r[0].startswith("ASSAULT CRT") for r in rows)
    assert any(r and r[0].startswith("AIR-LAND BATTLE CRT") for r in rows)
    text = "\n".join(" ".join(r) for r in rows)
    assert "this turn: +1 on your attacks, -1 on the enemy's (Northland holds the air)" in text
    state.point = replace(state.point, reaction=True)
    bob = openpyxl.load_workbook(written(state, "Bob", tmp_path))["Board"]
    text = "\n".join(str(c.value) for row in bob.iter_rows() for c in row if c.value)
    assert "this turn: -1 on your attacks, +1 on the enemy's (Northland holds the air)" in text


def test_a_large_board_is_drawn_around_the_sides_units() -> None:
    state = start()
    state.scenario = replace(state.scenario, columns=40, rows=30)
    for unit in state.units:
        if unit.side == "Northland":
            unit.hex = "2015"
    assert board_box(state, "Northland") == (17, 23, 12, 18)
    assert direction("0905", "0804") == "NW" and direction("0905", "0805") == "SW"
    assert direction("0804", "0905") == "SE" and direction("0804", "0904") == "NE"
    assert direction("0804", "0803") == "N" and direction("0804", "0805") == "S"


# -- the board in the PDF report --------------------------------------------------------------


def pdf_of(state: State, reader: str | None) -> bytes:
    info = ReportInput(step="x", deadline="-", sheets={}, house_rules={})
    content = RULESET.report_content(state, reader, info)
    pdf, _ = render_report(
        content, common_context(info), RenderSettings(tuple(template_dirs()), None)
    )
    return pdf


def test_every_counter_of_a_stack_is_printed_whole_and_readable_at_a4() -> None:
    """S-1, disrupted, stacked with S-HQ and S-CY at 1105: every id on the board page at 6
    points or more, and no counter's id lies inside another counter of its stack."""
    state = start()
    state.unit("S-1").hex = "1105"
    state.unit("S-1").disrupted = True
    with pdfplumber.open(io.BytesIO(pdf_of(state, None))) as pdf:
        page = next(p for p in pdf.pages if "The board" in (p.extract_text() or ""))
        assert page.width < 600, "an A4 page"
        words = page.extract_words(extra_attrs=["size"])
        ids = {u.id for u in state.units}
        printed = {w["text"]: w for w in words if w["text"] in ids}
        assert set(printed) == ids
        assert min(w["size"] for w in printed.values()) >= 6.0
        stack = [printed[uid] for uid in ("S-1", "S-HQ", "S-CY")]
        for a in stack:
            for b in stack:
                if a is not b:
                    overlap_x = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
                    overlap_y = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
                    assert overlap_x <= 0 or overlap_y <= 0


def test_the_zones_of_control_drawn_are_those_of_the_units_the_reader_sees() -> None:
    state = declared()
    view = RULESET.player_view(state, "Bob", {})
    board = hex_board(view, "t", "", ())
    seen = {u.hex for u in view.units if u.side == "Northland"}
    hidden = {u.hex for u in state.units if u.side == "Northland"} - seen
    assert "Northland" in board.zones["0904"]  # next to N-1AR at 0804
    near_hidden = {n for h in hidden for n in state.scenario.grid.neighbours(h)} - {
        n for h in seen for n in state.scenario.grid.neighbours(h)
    }
    assert near_hidden
    assert not [h for h in near_hidden if "Northland" in board.zones.get(h, ())]
    everything = hex_board(state, "t", "", ())
    assert [h for h in near_hidden if "Northland" in everything.zones.get(h, ())]


def test_a_game_turns_first_sheet_begins_with_the_end_of_the_last() -> None:
    """The last exchange of a game turn (its last combat, recovery, the administrative
    segment) is read on the next game turn's first sheet, before its random event; what
    came before that exchange is not."""
    state = two_exchanges()
    last_turn = Event(1, "recovery", "", "recovery", "N-1AR recovers (1D6 5 + 1)", ("*",), ("*",))
    older = Event(1, "combat", "", "note", "an older exchange of turn 1", ("*",), ("*",))
    new_turn = Event(2, "events", "", "random_event", "Random event: d66 54", ("*",), ("*",))
    state.point = replace(state.point, turn=2, impulse=1)
    state.earlier = [older]
    state.events = [last_turn, new_turn]
    so_far = turn_so_far(RULESET.player_view(state, "Ann", {}))
    assert so_far == ["N-1AR recovers (1D6 5 + 1)", "Random event: d66 54"]


def test_the_combat_table_gives_the_strengths_shifts_and_column() -> None:
    """The report's combat table: "6 to 4, -1 attacker out of supply: 1/1", not the bare
    column its event keeps under ``odds``."""
    event = Event(
        1,
        "combat",
        "0905",
        "attack",
        "Northland attacks 0905",
        ("*",),
        ("*",),
        {"odds": "1/1", "strengths": "6 to 4", "shifts": ["-1 attacker out of supply"]},
    )
    (row,) = combats([event])
    assert row["odds"] == "6 to 4, -1 attacker out of supply: 1/1"
    event.data["shifts"] = []
    assert combats([event])[0]["odds"] == "6 to 4: 1/1"
