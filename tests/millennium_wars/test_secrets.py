"""No more than the rules allow: what a side is told of the enemy's hidden units, through
every way it is told anything (the events of its view, its report as a PDF, its next sheet,
the checker's answers), in situations of the training scenario set up by hand and resolved
with fixed dice.  Each test shows the enemy not told while the owner and the referee are, and
where it can, the same thing told once the enemy sees it (teeth)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pypdfium2 as pdfium

from refassist.dice import Dice
from refassist.report.build import RenderSettings, common_context, render_report
from refassist.report.render import template_dirs
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import ReportInput
from refassist.rulesets.millennium_wars.combat import Attack, Defence
from refassist.rulesets.millennium_wars.orders import Orders
from refassist.rulesets.millennium_wars.resolve import resolve_turn
from refassist.rulesets.millennium_wars.state import State
from refassist.rulesets.millennium_wars.visibility import player_view, side_view

from .test_resolve import start

RULESET = find_ruleset("millennium-wars")
#: Ann commands Northland (the First Player), Bob Sarkand.
ANN, BOB = "Ann", "Bob"


def step(state: State, dice: list[int], rules: dict[str, object] | None = None, **orders: Orders):
    return resolve_turn(state, orders, Dice.scripted(dice), rules or {}).state


def told(state: State, player: str, rules: dict[str, object] | None = None) -> str:
    """Every event text ``player`` reads of the last exchange, one a line."""
    return "\n".join(e.text for e in player_view(state, player, rules).events)


def everything(state: State) -> str:
    """Every event text of the last exchange, as the referee reads them."""
    return "\n".join(e.text for e in state.events)


def report(state: State, reader: str | None, rules: dict[str, object] | None = None) -> str:
    """The text of ``reader``'s PDF report (None: the referee's), board counters included."""
    info = ReportInput(step="x", deadline="-", sheets={}, house_rules=dict(rules or {}))
    content = RULESET.report_content(state, reader, info)
    settings = RenderSettings(tuple(template_dirs()), None)
    pdf, _ = render_report(content, common_context(info), settings)
    document = pdfium.PdfDocument(pdf)
    try:
        pages = [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()
    return "\n".join(pages)


def situation(state: State, player: str, folder: Path) -> str:
    """The text of the Situation page of the sheet ``player`` is sent next."""
    path = folder / f"{player}.xlsx"
    RULESET.write_sheet(state, player, path, "tok", "Friday", {})
    ws = openpyxl.load_workbook(path)["Situation"]
    return "\n".join(str(c.value) for row in ws.iter_rows() for c in row if c.value)


def attacked(attack: Attack, reaction_dice: list[int], **placed: str) -> State:
    """Ann's first impulse declaring ``attack`` with the units ``placed`` by hand (air roll 3:
    parity), then Bob's reaction with nothing, fought with ``reaction_dice``."""
    state = start()
    for uid, hex_ in placed.items():
        state.unit(uid.replace("_", "-")).hex = hex_
    state = step(state, [3], Ann=Orders(ANN, "1-1-1", attacks=[attack]))
    return step(state, reaction_dice)


# -- the view ------------------------------------------------------------------------------------


def test_the_view_holds_no_enemy_standing_defence_nor_its_reinforcements() -> None:
    """Fast play keeps each side's standing defence (its retreat paths, its D1 pick) in the
    state; the enemy's view has none.  Nor does it list which of the enemy's reinforcements
    have come."""
    state = start()
    state.side("Sarkand").standing = Defence({"S-3": ["1006"]}, ["S-3"], "S-3", 1)
    state.arrived = ["S-6", "N-5AB"]
    north = side_view(state, "Northland")
    assert north.side("Sarkand").standing == Defence()
    assert north.arrived == ["N-5AB"]
    assert side_view(state, "Sarkand").side("Sarkand").standing.retreat == {"S-3": ["1006"]}
    assert side_view(state, "Sarkand").arrived == ["S-6"]
