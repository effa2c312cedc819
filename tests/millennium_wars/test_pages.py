"""What a Millennium Wars player plans with and reads: the messages of his sheet (issue 51),
the board and tables on his sheet, the attacks on his units told before he reacts, the board
in the PDF report and the referee's dice.  Real sheets are written and read back; real PDFs
are opened."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from refassist.dice import Dice
from refassist.rulesets import find_ruleset
from refassist.rulesets.millennium_wars.combat import Attack
from refassist.rulesets.millennium_wars.orders import InformationAttack, Orders
from refassist.rulesets.millennium_wars.report import roll_line
from refassist.rulesets.millennium_wars.state import State
from refassist.rulesets.millennium_wars.validate import validate_orders

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
    assert len(state.dice) >= 2, "the impulse rolled for the air and the information attack"
    text = report(state, None)
    section = text[text.index("Every die") :]
    for roll in state.dice:
        assert roll_line(roll) in " ".join(section.split()), roll
    assert "Every die" not in report(state, "Ann")


# -- the attacks on the reacting side's units ---------------------------------------------------


def declared(rules: dict[str, object] | None = None) -> State:
    """Ann's first impulse (air roll 3: parity) declaring an attack on 0905 from 0804 and
    0805, with a political point and a retreat of her own she keeps to herself."""
    state = start()
    state.unit("N-1AR").hex = "0804"
    state.unit("N-HT").hex = "0805"
    ann = Orders(
        "Ann",
        "1-1-1",
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
    return RULESET.resolve(state, {"Ann": ann}, Dice.scripted([3]), rules or {}).state


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
    state = RULESET.resolve(state, {}, Dice.scripted([3]), {}).state
    assert "None declared." in situation_text(state, "Bob", tmp_path)
    full = declared()
    assert full.pending[0].political_points == 1 and full.pending[0].retreat
