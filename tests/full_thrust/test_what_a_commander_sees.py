"""What a commander receives shows no more than the rules allow, in real files: its turn sheet
(.xlsx, every cell read back) and its PDF report, against the referee's report of the same
state, which shows what the commander's must not.

The campaign: Ann's merchant and Bob's merchant are both at B (neutral), where a battle waits
for the table; Cleo holds Walled and Far, where Ann has nothing.  Ann sees Bob's merchant, not
its fuel (13), its cargo (337), its damage or its crew; she does not know that Walled is Cleo's.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from refassist.dice import Dice
from refassist.report.build import RenderSettings, common_context, render_report
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import ReportInput
from refassist.rulesets.full_thrust.orders import Mission, Orders
from refassist.rulesets.full_thrust.resolve import resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.sheet import write_sheet
from refassist.rulesets.full_thrust.state import Battle, BattleResult, InBattle, State
from refassist.rulesets.full_thrust.validate import validate_orders
from refassist.rulesets.full_thrust.view import PlaceView
from refassist.rulesets.full_thrust.visibility import player_view
from refassist.typeset.render import template_dirs
from tests.test_fog_of_war import pdf_pages

from .situations import seed_map, ship, week_orders

RULESET = find_ruleset("full-thrust-campaign")
RULES = complete()
INFO = ReportInput(step="1", deadline="Friday")
BOB_FUEL, BOB_CARGO = 13, 337


def campaign() -> State:
    state = seed_map(week=2)
    state.systems["Walled"].owner = "Cleo"
    ship(state, "ANN-1", "Packet merchant", "Ann", "B", fuel=18, cargo=50)
    ship(
        state,
        "BOB-1",
        "Packet merchant",
        "Bob",
        "B",
        fuel=BOB_FUEL,
        cargo=BOB_CARGO,
        damage=2,
        crack=True,
        drive="disabled",
        landed=True,
    )
    ship(state, "CLE-1", "Claymore cruiser", "Cleo", "Walled", fuel=11)
    state.battles.append(
        Battle(
            "B2-1",
            2,
            "B",
            31,
            [
                InBattle("ANN-1", "Ann", "Packet merchant", cargo=50),
                InBattle(
                    "BOB-1", "Bob", "Packet merchant", 2, damage=2, cargo=BOB_CARGO, crack=True
                ),
            ],
        )
    )
    return state


def cell_texts(path: Path) -> list[str]:
    """Every non-empty cell of every page of the workbook, hidden pages included, as text."""
    book = openpyxl.load_workbook(path)
    return [
        str(cell)
        for ws in book.worksheets
        for row in ws.iter_rows(values_only=True)
        for cell in row
        if cell is not None and str(cell).strip()
    ]


def pdf_text(reader: str | None, folder: Path) -> str:
    content = RULESET.report_content(campaign(), reader, INFO)
    settings = RenderSettings(tuple(template_dirs(None)), None, None, True)
    pdf, _ = render_report(content, common_context(INFO), settings)
    path = folder / f"{reader or 'referee'}.pdf"
    path.write_bytes(pdf)
    return "\n".join(pdf_pages(path))


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Ann's report and the referee's, rendered once for the module."""
    folder = tmp_path_factory.mktemp("reports")
    return {"Ann": pdf_text("Ann", folder), "referee": pdf_text(None, folder)}


@pytest.fixture(scope="module")
def sheets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """Each commander's sheet for the week, every cell's text."""
    folder = tmp_path_factory.mktemp("sheets")
    found = {}
    for name in ("Ann", "Bob", "Cleo"):
        path = folder / f"{name}.xlsx"
        write_sheet(campaign(), name, path, token="t", deadline="Friday")
        found[name] = cell_texts(path)
    return found


def test_a_seen_ship_carries_no_more_than_sight_shows() -> None:
    (seen,) = player_view(campaign(), "Ann").seen
    assert (seen.id, seen.owner, seen.design, seen.place, seen.landed) == (
        "BOB-1",
        "Bob",
        "Packet merchant",
        "B",
        True,
    )
    for hidden in ("fuel", "cargo", "damage", "crack", "drive", "ready_at", "ready_week"):
        assert not hasattr(seen, hidden), hidden


def test_a_place_shows_its_holder_port_and_worked_out_belt_only_in_sight() -> None:
    state = seed_map()
    state.systems["C"].belt_worked_out = True

    def places() -> dict[str, PlaceView]:
        return {p.name: p for p in player_view(state, "Ann").places}

    away = places()
    assert away["C"].features() == ("Value 2", "rich belt")
    assert away["D"].holder == "holder not known (not in sight)"
    assert (away["D"].owner, away["D"].port, away["D"].features()) == ("", "", ("Value 1",))
    assert away["A"].features() == ("Value 4", "starport") and away["A"].holder == "Ann"
    assert away["Gate"].features() == ("wormhole",) and away["Gate"].holder == ""
    ship(state, "ANN-1", "Lantern scout", "Ann", "C")
    ship(state, "ANN-2", "Lantern scout", "Ann", "D")
    ship(state, "ANN-3", "Lantern scout", "Ann", "Walled", ready_week=3)  # on the slip: blind
    there = places()
    assert there["C"].features() == ("Value 2", "rich belt (worked out)")
    assert there["C"].holder == "neutral"
    assert (there["D"].holder, there["D"].features()) == ("Bob", ("Value 1", "starport"))
    assert not there["Walled"].in_sight


def test_a_rivals_ship_in_a_battle_comes_without_its_condition() -> None:
    (battle,) = player_view(campaign(), "Ann").battles
    condition = {s.ship: s.condition for s in battle.ships}
    assert condition["BOB-1"] is None
    assert condition["ANN-1"] is not None and condition["ANN-1"].cargo == 50


def test_the_sheets_map_shows_holders_only_where_the_commander_sees(
    sheets: dict[str, list[str]],
) -> None:
    (ann,) = [t for t in sheets["Ann"] if t.startswith("Walled 0601")]
    assert "Cleo" not in ann and "holder not known" in ann
    assert not any("Walled" in t and "Cleo" in t for t in sheets["Ann"])
    # Teeth: Cleo's own sheet, written the same way, names her as Walled's holder.
    (cleo,) = [t for t in sheets["Cleo"] if t.startswith("Walled 0601")]
    assert "- Cleo" in cleo
    # Where Ann has a ship she sees who holds the planet and who is there.
    (b,) = [t for t in sheets["Ann"] if t.startswith("B 0106")]
    assert b == "B 0106 - Value 3 - neutral - ships: ANN-1, BOB-1 (Bob)"


def test_the_sheet_shows_a_rivals_ship_without_fuel_or_cargo(
    sheets: dict[str, list[str]],
) -> None:
    about_bob = [t for t in sheets["Ann"] if "BOB-1" in t]
    assert "BOB-1 (Bob) Packet merchant landed on B" in about_bob
    for text in about_bob:
        assert "fuel" not in text and "cargo" not in text and "crack" not in text, text
    assert not any(str(BOB_CARGO) in t for t in sheets["Ann"])
    assert not any("CLE-1" in t for t in sheets["Ann"])
    # Teeth: Bob's own sheet lists his merchant's fuel and cargo in the words looked for.
    assert any(
        f"fuel {BOB_FUEL}, cargo {BOB_CARGO}/400" in t for t in sheets["Bob"] if "BOB-1" in t
    )


def test_the_set_up_sheet_names_no_rival(tmp_path: Path) -> None:
    state = seed_map(week=0)
    path = tmp_path / "setup.xlsx"
    write_sheet(state, "Ann", path, token="t", deadline="Friday")
    texts = cell_texts(path)
    assert not any("Bob" in t or "Cleo" in t for t in texts)
    assert any("Packet merchant" in t for t in texts)


def test_the_report_shows_what_the_sheet_shows(reports: dict[str, str]) -> None:
    ann = reports["Ann"]
    assert "BOB-1" in ann and "Walled" in ann  # the seen ship and the map are in the report
    assert "Cleo" not in ann and "CLE-1" not in ann
    assert str(BOB_CARGO) not in ann and f"{BOB_CARGO}/400" not in ann
    assert "disabled" not in ann and "crack" not in ann
    assert "2/6" not in ann  # Bob's merchant's boxes lost, in the battle listing too
    # Teeth: the referee's report of the same state shows all of it.
    referee = reports["referee"]
    assert "Far, Walled" in referee and "CLE-1" in referee
    assert f"{BOB_CARGO}/400" in referee and "2/6" in referee
    assert "disabled" in referee and "crack" in referee


# -- what the checker tells a commander --------------------------------------------------------


def far_orders(owner: str, ann_at_far: bool = False) -> tuple[State, Orders]:
    """Ann's cruiser jumps from B to Far to invade it, her merchant to give Cleo its cargo
    there; Far is held by ``owner``, out of Ann's sight unless ``ann_at_far``."""
    state = seed_map()
    state.systems["Far"].owner = owner
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "B")
    ship(state, "ANN-2", "Packet merchant", "Ann", "B", cargo=100)
    if ann_at_far:
        ship(state, "ANN-3", "Lantern scout", "Ann", "Far")
    orders = week_orders(
        "Ann",
        ANN_1=["jump Far", "invade"],
        ANN_2=["jump Far", "land", "unload all to Cleo"],
    )
    return state, orders


def checked(owner: str, ann_at_far: bool = False) -> list[tuple[str, str]]:
    state, orders = far_orders(owner, ann_at_far)
    return [(p.cell, p.message) for p in validate_orders(state, "Ann", orders, RULES)]


def test_the_checker_says_nothing_of_a_holder_the_commander_cannot_see() -> None:
    """Whoever holds Far, out of Ann's sight, her sheet is checked the same: no error of the
    reply may tell her who holds it."""
    assert checked("Cleo") == checked("") == checked("Bob") == []
    # Teeth: with a ship of hers at Far she sees its holder, and the checker says so.
    seen = dict(checked("Bob", ann_at_far=True))
    assert "there is no neutral planet to invade here" in seen.values()
    assert any("not a planet of Cleo's" in m for m in seen.values())


def test_the_week_finds_out_what_the_checker_could_not() -> None:
    """The gift the checker let through is refused at delivery, and Ann is told there."""
    state, orders = far_orders("")
    orders.timelines = orders.timelines[1:]
    after = resolve_turn(state, {"Ann": orders}, Dice.scripted([]), RULES).state
    refused = next(e for e in after.events if e.kind == "gift_refused")
    assert refused.players == ("Ann",) and "not Cleo's planet now" in refused.text
    assert after.ship("ANN-2").cargo == 100


def test_a_ship_that_becomes_crack_is_told_to_its_owner_only() -> None:
    """Both sides read what the table showed; Bob alone that his merchant's crew is crack."""
    state = campaign()
    bob = state.ship("BOB-1")
    assert bob is not None
    bob.crack, bob.battles = False, 3
    # The crack rolls, in the battle's order: ANN-1 a 6 (stays), BOB-1 a 1 (below 4).
    result = BattleResult("B2-1", damage={"ANN-1": 1})
    after = resolve_turn(state, {"B2-1": result}, Dice.scripted([6, 1]), RULES)
    told = {e.kind: e for e in after.events if e.kind.startswith("battle")}
    assert told["battle_result"].players == ("Ann", "Bob")
    assert told["battle_result"].text == "The battle at B: ANN-1 loses 1 damage box"
    assert told["battle_aftermath"].players == ("Bob",)
    assert told["battle_aftermath"].text == "After the battle at B: BOB-1 becomes a crack ship"
    assert after.state.ship("BOB-1").crack


def test_spies_learn_the_fuel_and_cargo_that_sight_does_not_show() -> None:
    """Ann's spies on Bob's fleet learn his merchant's fuel, on his industry the points in
    its hold; Bob's report does not hear of it."""
    state = seed_map()
    ship(state, "BOB-1", "Packet merchant", "Bob", "B", fuel=BOB_FUEL, cargo=BOB_CARGO)
    missions = [Mission(2, 0, "Bob", "fleet"), Mission(3, 1, "Bob", "industry")]
    # Fleet: 2 x 10 = 20%, 1D100 20; industry: (3 x 10 + 15) x 2 = 90%, 1D100 90.
    after = resolve_turn(
        state, {"Ann": Orders("Ann", 1, missions=missions)}, Dice.scripted([20, 90]), RULES
    ).state
    fleet, industry = (e for e in after.events if e.kind == "espionage")
    assert fleet.visible_to == industry.visible_to == ("Ann",)
    assert fleet.data["found"] == [f"BOB-1 Packet merchant at B, fuel for {BOB_FUEL} parsecs"]
    assert f"{BOB_CARGO} production points aboard BOB-1 at B" in industry.data["found"]
    assert not any(e.kind == "espionage" for e in player_view(after, "Bob").events)
