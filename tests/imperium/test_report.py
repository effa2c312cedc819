"""Imperium reports: real PDFs through the engine's renderer, read back with pypdf."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from refassist.dice import Dice, Roll
from refassist.drawings.netdraw import network_svg
from refassist.report.build import RenderSettings, common_context, render_report
from refassist.rulesets.base import Event, NewGame, PlayerSetup, ReportContent, ReportInput, Step
from refassist.rulesets.imperium_3m import RULESET
from refassist.rulesets.imperium_3m.mapfile import default_map_text, default_scenario_text
from refassist.rulesets.imperium_3m.report import (
    detail_lines,
    event_view,
    expected_income,
    glory_track,
    victory_thresholds,
)
from refassist.rulesets.imperium_3m.setup import new_game
from refassist.rulesets.imperium_3m.state import Queued, State
from refassist.typeset.render import template_dirs

PLAYERS = (PlayerSetup("Terra", "t@example.com"), PlayerSetup("Empire", "e@example.com"))
INFO = ReportInput(
    step="1",
    deadline="Friday noon",
    orders={"Terra": ("SOL: T1 > ACE",)},
    sheets={"Terra": "accepted", "Empire": "missing"},
    awaited=Step("2", "Turn 2", ("Terra", "Empire")),
    dice={
        "source": "seeded",
        "step": "1",
        "seed": "abc",
        "commitment": "def",
        "next_step": "2",
        "next_commitment": "0123",
    },
)


def start(map_file: Path | None = None, scenario: Path | None = None) -> State:
    setup = NewGame("Test", "id", PLAYERS, {}, map_file=map_file, scenario_file=scenario)
    return new_game(setup, Dice(seed=1), {})


def render(content: ReportContent) -> tuple[str, list[str]]:
    settings = RenderSettings(tuple(template_dirs(None)), None, None, True)
    pdf, refused = render_report(content, common_context(INFO), settings)
    reader = PdfReader(io.BytesIO(pdf))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return re.sub(r"[ \t]+", " ", text), refused


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+(?:-[0-9]+)?", text))


def battle_state() -> State:
    """Start, with the Imperial fleet I3 in Barnard's Star after a battle there."""
    state = start()
    state.fleet("I3").system = "BAR"
    state.revealed = {"Terran": ["BAR"], "Imperial": ["BAR"]}
    state.dice = [
        Roll(1, 1, "action 1", "BAR", "battle initiative Terran", 6, 4),
        Roll(2, 1, "action 1", "BAR", "beam fire CL1 at DD3", 6, 6),
        Roll(3, 1, "administration", "", "Imperial Intervention", 6, 2),
    ]
    state.events = [
        Event(
            1,
            "action 1",
            "BAR",
            "battle",
            "Space battle at Barnard's Star: the Terrans hold",
            ("Terra", "Empire"),
            ("Empire", "Terra"),
            {
                "forces": {"Terran": ["CL1", "DD5"], "Imperial": ["CR1", "CL2"]},
                "rounds": [{"round": 1, "shots": [{"firer": "CL1", "target": "DD3", "hits": 1}]}],
                "winner": "Terran",
            },
            (1, 2),
        ),
        Event(
            1,
            "administration",
            "",
            "intervention",
            "Imperial Succession",
            (),
            ("Empire",),
            {},
            (3,),
        ),
        Event(
            1,
            "glory",
            "",
            "glory",
            "Glory -1 (major Terran victory): index now 4",
            (),
            ("*",),
            {"delta": -1},
        ),
    ]
    state.glory = 4
    return state


def test_player_report_holds_its_fleets_glory_track_and_map() -> None:
    state = start()
    content = RULESET.report_content(state, "Terra", INFO)
    text, refused = render(content)
    assert refused == []
    for wanted in ("Turn report for Terra", "Terran side", "T1", "T2", "T3", "Friday noon"):
        assert wanted in text
    # The glory track with this war turn's thresholds.
    assert "Glory index 5." in text
    assert "Terran victory at 0 or less, Imperial victory at 10 or more" in text
    # The map page: its SVG has the system names, and so does the PDF.
    assert content.network is not None
    svg = network_svg(content.network)
    for name in ("Sol (SOL)", "Alpha Centauri (ACE)", "Tau Ceti (TAU)", "Dingir (DIN)"):
        assert f">{name}<" in svg.replace("&#x27;", "'")
        assert name in text
    # Every planet with the code the sheet wants, owned or not.
    for mark in ("W SOL1 Sol 1 [T]", "TAU2 Tau Ceti 2", "O BAR1 Barnard 1 [T]"):
        assert mark in svg
    assert "as known to Terra (Terran)" in text
    # The orders as understood and the dice disclosure.
    assert "SOL: T1 > ACE" in text
    assert "rolled from the seed abc" in text


def test_enemy_hidden_units_and_treasury_do_not_appear() -> None:
    state = start()
    state.sides["Imperial"].resources = 4321
    state.queue = [Queued("Imperial", "CR", 3, "Secret Shipyard", 13)]
    text, _ = render(RULESET.report_content(state, "Terra", INFO))
    found = words(text)
    # Imperial-only counters and fleets, all out of Terran sight at the start (the Terran
    # battleship is B1 too, and the first Imperial B2 is counter B2-1).
    for hidden in ("I1", "I2", "I3", "B2-1", "CR1", "CV1", "AT1", "4321"):
        assert hidden not in found, hidden
    assert not re.search(r"\bJT\d", text)
    assert "Secret Shipyard" not in text
    # The Empire does see its own.
    empire, _ = render(RULESET.report_content(state, "Empire", INFO))
    assert {"I1", "I2", "I3", "B2-1", "CV1", "4321"} <= words(empire)
    assert "Secret Shipyard" in empire


def test_battle_rounds_dice_and_seen_enemy_forces() -> None:
    state = battle_state()
    text, _ = render(RULESET.report_content(state, "Terra", INFO))
    assert "Space battle at Barnard's Star" in text
    assert "target: DD3" in text and "winner: Terran" in text
    assert "#2 beam fire CL1 at DD3: 6" in text
    assert "Glory index 4." in text
    # I3 is now seen, with its contents; the Empire's other fleets are not.
    found = words(text)
    assert {"I3", "CR1"} <= found
    assert not {"I1", "I2", "B2-1", "CV1"} & found
    # The Empire's own intervention event and its die are not shown to Terra.
    assert "Imperial Succession" not in text and "Imperial Intervention" not in text
    empire, _ = render(RULESET.report_content(state, "Empire", INFO))
    assert "Imperial Succession" in empire and "#3 Imperial Intervention: 2" in empire


def test_referee_report_holds_everything() -> None:
    state = battle_state()
    state.queue = [Queued("Imperial", "CR", 3, "Secret Shipyard", 13)]
    content = RULESET.report_content(state, None, INFO)
    text, refused = render(content)
    assert refused == []
    found = words(text)
    assert {"T1", "T2", "T3", "I1", "I2", "I3", "B2-1", "CV1", "CR1"} <= found
    assert "Imperial Succession" in text and "Secret Shipyard" in text
    assert "No sheet for turn 1 from: Empire" in text
    assert "Dice of turn 1" in text and "#3 administration" in text
    assert content.network is not None
    assert not any(n.shaded for n in content.network.nodes)


def test_the_map_marks_battles_shading_and_fleets() -> None:
    state = battle_state()
    net = RULESET.report_content(state, "Terra", INFO).network
    assert net is not None
    nodes = {n.code: n for n in net.nodes}
    assert nodes["BAR"].battle and not nodes["SOL"].battle
    assert nodes["DIN"].shaded and not nodes["SOL"].shaded
    assert nodes["SOL"].kind == "home" and nodes["GULF1"].kind == "open"
    assert "T1: 6 ships +1 carried" in nodes["SOL"].lines
    assert any(line.startswith("I3:") and "(Imperial)" in line for line in nodes["BAR"].lines)
    assert not nodes["DIN"].lines  # the I1 fleet there is out of sight
    assert {link.text for link in net.links} == {"", "2"}


@pytest.mark.parametrize("name", ["<script>alert(1)</script>", "../../etc/passwd"])
def test_a_hostile_system_name_neither_breaks_nor_reaches_files(tmp_path: Path, name: str) -> None:
    map_text = default_map_text().replace('name = "Tau Ceti"', f'name = "{name}"')
    (tmp_path / "map.toml").write_text(map_text, encoding="utf-8")
    (tmp_path / "scenario.toml").write_text(default_scenario_text(), encoding="utf-8")
    state = start(tmp_path / "map.toml", tmp_path / "scenario.toml")
    assert state.map.systems["TAU"].name == name
    for reader in ("Terra", None):
        content = RULESET.report_content(state, reader, INFO)
        assert content.network is not None
        svg = network_svg(content.network)
        assert "<script" not in svg
        text, refused = render(content)
        assert refused == []
        assert name in text
        assert "root:" not in text


def test_victory_thresholds_follow_the_schedule() -> None:
    assert victory_thresholds(1) == victory_thresholds(6) == (0, 10)
    assert [victory_thresholds(t) for t in (7, 8, 9, 10)] == [(1, 9), (2, 8), (3, 7), (4, 6)]
    assert victory_thresholds(0) is None
    track = glory_track(6, 10)
    marks = [c["mark"] for c in track["cells"]]
    assert marks[4] == "Terran victory" and marks[5] == "" and marks[6] == "Imperial victory"
    assert [c["n"] for c in track["cells"] if c["current"]] == [6]
    assert "truce" in track["text"]
    assert "peace" in glory_track(5, 0)["text"]


def test_expected_income_follows_the_seed() -> None:
    state = start()
    # Terran: 10 for Sol + 8 + 8 for the connected Alpha Centauri Worlds + 1 for Barnard.
    assert expected_income(state, "Terran") == 27
    # Imperial: 10 + 3 Worlds + 2 connected Outposts.
    assert expected_income(state, "Imperial") == 15
    state.fleet("I3").system = "ACE"  # cuts Alpha Centauri off: 6 each
    assert expected_income(state, "Terran") == 23
    state.sides["Imperial"].depression, state.sides["Imperial"].budget_bonus = 2, 3
    assert expected_income(state, "Imperial") == 8


def test_event_details_are_laid_out_whatever_their_shape() -> None:
    lines = detail_lines({"forces": {"T": ["CA1", "DD2"]}, "rounds": [{"n": 1}], "ok": True})
    assert lines == ["forces:", "  T: CA1, DD2", "rounds:", "  rounds 1:", "    n: 1", "ok: yes"]
    deep: dict[str, object] = {}
    cursor = deep
    for _ in range(20):
        cursor["x"] = {}
        cursor = cursor["x"]  # type: ignore[assignment]
    assert detail_lines(deep)[-1].strip() == "x: ..."


def test_a_space_battle_is_told_round_by_round_with_its_dice() -> None:
    from refassist.rulesets.imperium_3m.report import battle_lines

    data = {
        "forces": {
            "Terran": [{"id": "CL2", "fleet": "T3", "stance": "close", "priority": "capital"}],
            "Imperial": [{"id": "B1-1", "fleet": "I2", "damaged": True, "stance": "hold"}],
        },
        "rounds": [
            {
                "round": 1,
                "initiative": {
                    "Imperial": {"roll": 6, "bonus": 1, "modifier": 0},
                    "Terran": {"roll": 4, "bonus": 0, "modifier": 0},
                },
                "initiative_winner": "Imperial",
                "moves_first": "Terran",
                "moves": [{"unit": "Terran CL2", "from": 0, "to": 3}],
                "shots": [
                    {
                        "shooter": "Imperial B1-1",
                        "weapon": "beam",
                        "target": "Terran CL2",
                        "range": 0,
                        "need": 4,
                        "dice": [6, 2],
                        "hits": 1,
                    }
                ],
                "counter_measures": [{"unit": "Terran CL2", "dice": [6], "cancelled": 1}],
                "damage": [{"unit": "Terran CL2", "hits": 1, "result": "damaged"}],
            }
        ],
        "destroyed": {"Terran": [], "Imperial": []},
        "retreats": [{"fleet": "T3", "to": "SOL"}],
    }
    lines = battle_lines(data)
    assert "  Imperial: I2: B1-1 (damaged) [hold, targets ]" in lines
    assert "Round 1: initiative Imperial 6+1, Terran 4 -> Imperial; Terran moves first" in lines
    assert "  Imperial B1-1 beam at Terran CL2, range 0, needs 4+: 6 2 = 1 hit" in lines
    assert "  counter-measures Terran CL2: 6, 1 torpedo hit cancelled" in lines
    assert lines[-2:] == ["Destroyed: nothing", "Retreat: T3 to SOL"]
    # Data of another shape (a hand-edited workbook) is still shown, field by field.
    assert battle_lines({"forces": 3, "note": "x"}) == ["forces: 3", "note: x"]


def test_expected_income_is_the_production_steps_figure_disputed_planets_pay_nothing() -> None:
    from refassist.rulesets.imperium_3m.report import expected_income

    state = start()
    # Sol 10 + Alpha Centauri A1 8 + Alpha Centauri B 8 + Barnard 1 (Outpost) 1.
    assert expected_income(state, "Terran") == 27
    state.map.planets["ACA1"].disputed = True
    assert expected_income(state, "Terran") == 19
    # Imperial: 10 + three Worlds + two connected Outposts.
    assert expected_income(state, "Imperial") == 15


def test_a_seen_but_unrevealed_enemy_fleet_is_reported_without_its_contents() -> None:
    """The Terran outpost at Barnard's Star sees fleet I3 arrive, but not what it holds (no
    battle, no stealth scout there): the report and the map say 'contents unknown'."""
    state = start()
    state.fleet("I3").system = "BAR"  # type: ignore[union-attr]
    inside = {u.id for u in state.units_in_fleet("I3")}
    content = RULESET.report_content(state, "Terra", INFO)
    text, _ = render(content)
    assert "I3" in words(text) and "contents unknown" in text
    terran = {u.id for u in state.units if u.side == "Terran"}  # counters share ids
    assert inside - terran
    for uid in inside - terran:
        assert uid not in words(text), uid
    nodes = {n.code: n for n in content.network.nodes}  # type: ignore[union-attr]
    assert "I3: contents unknown (Imperial)" in nodes["BAR"].lines


def disputed_state() -> State:
    """Terran troops stand on the Imperial Outpost Barnard 1, which an Imperial PD still
    defends: the planet is disputed."""
    from refassist.rulesets.imperium_3m.state import Unit

    state = start()
    bar1 = state.map.planets["BAR1"]
    bar1.owner, bar1.marker, bar1.disputed = "Imperial", "Outpost", True
    state.units.append(Unit("RT9", "Terran", "RT", planet="BAR1", strength=4, reduced_strength=2))
    state.units.append(Unit("PD7", "Imperial", "PD", planet="BAR1"))
    return state


def test_a_disputed_planet_is_listed_apart_under_neither_sides_own() -> None:
    state = disputed_state()
    for player in ("Terra", "Empire"):
        content = RULESET.report_content(state, player, INFO)
        assert "BAR1" not in {p["code"] for p in content.context["planets"]}
        (row,) = content.context["disputed"]
        assert row["code"] == "BAR1" and "RT9" in row["box"] and "PD7" in row["box"]
        text, _ = render(content)
        section = text.split("Disputed planets", 1)[1].split("Turn record track", 1)[0]
        assert "BAR1" in section and "Outpost Imperial" in section and "(disputed)" in section


def test_a_long_planetary_box_wraps_under_its_column() -> None:
    from refassist.rulesets.imperium_3m.state import Unit

    state = start()
    for n in range(1, 9):
        state.units.append(Unit(f"PD{n + 10}", "Terran", "PD", planet="SOL1"))
    content = RULESET.report_content(state, "Terra", INFO)
    settings = RenderSettings(tuple(template_dirs(None)), None, None, True)
    pdf, _ = render_report(content, common_context(INFO), settings)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = next(p for p in doc.pages if "PD18" in (p.extract_text() or ""))
        # Nothing runs into the right margin (10 mm) or off the page.
        limit = float(page.width) - 10 / 25.4 * 72 + 1
        assert max(c["x1"] for c in page.chars) <= limit


def test_a_report_without_a_deadline_still_reads() -> None:
    from dataclasses import replace

    from refassist.text.words import NO_DEADLINE

    info = replace(INFO, deadline=NO_DEADLINE)
    settings = RenderSettings(tuple(template_dirs(None)), None, None, True)
    for reader in ("Terra", None):  # a player, then the referee
        content = RULESET.report_content(start(), reader, info)
        pdf, _ = render_report(content, common_context(info), settings)
        text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
        text = re.sub(r"\s+", " ", text)
        if reader:
            assert "Next: Turn 2; your orders are due when the referee sets the deadline." in text
        else:
            assert "Next: Turn 2, sheets from Terra, Empire; no deadline is set." in text
        assert "due set by" not in text
    referee, _ = render(RULESET.report_content(start(), None, INFO))
    assert "Sheet for turn 1" in re.sub(r"\s+", " ", referee)


def test_a_planetary_battle_is_told_stage_by_stage_with_its_dice() -> None:
    """Bombardment, landing and surface battle read as sentences: who fired, the dice, the
    hits, what was reduced, where the units stand and who holds the planet."""
    from refassist.rulesets.imperium_3m import planet_battle as pb
    from tests.imperium.test_planet_battle import pd_world_under_attack
    from tests.imperium.test_space_battle import context

    state = pd_world_under_attack()
    rt = state.unit("Imperial", "RT1").strength
    # Bombardment: the PD's 3 dice miss; landing: 3 more miss; surface battle in hex 2: the
    # RT rolls one 6 (the PD reduced), the PD one 6 (the RT reduced): still disputed.
    ctx = context(state, [1] * 6 + [6] + [1] * (rt - 1) + [6, 1, 1])
    pb.attack(ctx, "Imperial", "I9", "P", [])
    after = ctx.state
    after.events, after.dice = list(ctx.events), list(ctx.dice.log)
    after.sides["Terran"].player, after.sides["Imperial"].player = "Terra", "Empire"
    views = {e.kind: event_view(e, {r.seq: r for r in after.dice}, {}) for e in after.events}
    assert views["bombardment"]["details"][:2] == [
        "The defending PD units fire at the bombarding ships (a hit on 4 or more): 0 hits.",
        "  PD1 rolls 1 1 1: 0 hits",
    ]
    assert "Landed: RT1 in hex 1." in views["landing"]["details"]
    story = views["surface battle"]["details"]
    assert story[:3] == [
        "RT1 moves from hex 1 to hex 2.",
        "Hex 2: every unit rolls, each 6 a hit.",
        f"  Imperial RT1 rolls 6{' 1' * (rt - 1)}: 1 hit",
    ]
    assert "  Terran PD1 reduced (by troops)." in story
    assert story[-1].startswith("Result: both sides still have units on the planet")
    text = " ".join(line for v in views.values() for line in v["details"])
    assert "torpedo_factors" not in text and "effects:" not in text
    # Data of another shape still shows, listed as it is.
    odd = Event(1, "action 1", "B", "landing", "A landing", (), ("*",), {"oops": 1})
    assert event_view(odd, {}, {})["details"] == ["oops: 1"]
