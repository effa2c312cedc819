"""The strategic dice in each side's report: a jump's TAB 3 die and roses to the side whose
fleet jumped, a surrender demand's die to both sides but its ratio (the demanding fleet's
points) to the demanding side alone.  Read from real PDF reports through the engine's
renderer, in French and in English."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from refassist.dice import Dice
from refassist.report.build import RenderSettings, common_context, render_report
from refassist.rulesets.base import ReportInput
from refassist.rulesets.millenium.orders import FleetMove, Orders, ReserveEntry
from refassist.rulesets.millenium.report import player_content
from refassist.rulesets.millenium.resolve import resolve_turn
from refassist.rulesets.millenium.state import ALIEN, EMPIRE, Ship, State
from refassist.rulesets.millenium.visibility import player_view
from refassist.typeset.render import template_dirs

from .situations import at, place, playing

VERA, IVO = "Vera", "Ivo"  # the Extraterrestrial, the Empire


def _lines(state: State, reader: str, language: str) -> list[str]:
    """Every event line of ``reader``'s report content, in ``language``."""
    info = ReportInput(step=str(state.turn - 1), deadline="-", languages={reader: language})
    content = player_content(player_view(state, reader), info)
    return [line for group in content.context["events"] for line in group["lines"]]


def _pdf_text(state: State, reader: str, language: str) -> str:
    """``reader``'s report rendered to a PDF and read back, spaces folded."""
    info = ReportInput(step=str(state.turn - 1), deadline="-", languages={reader: language})
    content = player_content(player_view(state, reader), info)
    settings = RenderSettings(tuple(template_dirs(None)), None, None, True)
    pdf, _ = render_report(content, common_context(info), settings)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return re.sub(r"\s+", " ", text)


def _empire_jump() -> State:
    """Turn 2: the Empire's K jumps 11C4 -> zone 33, level 6 (6 zones: TAB 3 row 0 0 0 0 1 1,
    die 5: deviation 1; rose DR die 2: E, to zone 43; rose SA die 3: S)."""
    state = playing(2)
    place(state, EMPIRE, "K", "11C4", "vaisseau")
    jump = FleetMove("K", "jump", "Orders!B12", zone=(3, 3), level=6)
    script = Dice.scripted([5, 2, 3])
    after = resolve_turn(state, {IVO: Orders(EMPIRE, "2", moves=[jump])}, script, {}).state
    assert len(script.log) == 3 and after.fleet(EMPIRE, "K").position == at("43S6")  # type: ignore[union-attr]
    return after


def test_a_jumps_dice_are_told_to_its_side_only() -> None:
    after = _empire_jump()
    assert [line for line in _lines(after, IVO, "en") if "TAB 3" in line or "rose" in line] == [
        "fleet K, TAB 3 (6 zones travelled): die 5, deviation 1",
        "fleet K, rose DR: die 2, toward E",
        "fleet K, rose SA: die 3, sector S",
    ]
    french = _pdf_text(after, IVO, "fr")
    for line in (
        "flotte K, TAB 3 (6 zones parcourues) : dé 5, déviation 1",
        "flotte K, rose DR : dé 2, vers E",
        "flotte K, rose SA : dé 3, secteur S",
    ):
        assert line in french
    # The Extraterrestrial sees the jump, not its dice.
    seen = _lines(after, VERA, "en")
    assert any("jumped to 43S6" in line for line in seen)
    assert not any("TAB 3" in line or "rose" in line for line in seen)


def test_a_reserve_entry_reads_tab_3_from_the_maximum_distance() -> None:
    """δ enters toward zone 11, level 4 (row 1 1 2 2 3 3: die 1, 1 zone; DR 3 = S; SA 1 = N)."""
    state = playing(2)
    reserve = state.fleet(EMPIRE, "δ")
    assert reserve is not None
    reserve.ships = [Ship("fregate")]
    entry = Orders(EMPIRE, "2", entries=[ReserveEntry("δ", (1, 1), 4, "Orders!B20")])
    after = resolve_turn(state, {IVO: entry}, Dice.scripted([1, 3, 1]), {}).state
    assert _lines(after, IVO, "fr")[:3] == [
        "flotte δ, TAB 3 (depuis la distance maximum)\u00a0: dé 1, déviation 1",
        "flotte δ, rose DR\u00a0: dé 3, vers S",
        "flotte δ, rose SA\u00a0: dé 1, secteur N",
    ]


def test_a_surrender_demands_die_is_told_to_both_and_its_ratio_to_the_demander() -> None:
    """K (9 points) demands N1 (loyalty 3): 3/1, die 4 refuses."""
    state = playing(3)
    place(state, ALIEN, "K", "33N4", "vaisseau", "vaisseau", "colonisation")
    demand = FleetMove("K", "move", "Orders!B12", (at("33C4"),), land="N1")
    script = Dice.scripted([4])
    after = resolve_turn(state, {VERA: Orders(ALIEN, "3", moves=[demand])}, script, {}).state
    english = _pdf_text(after, VERA, "en")
    assert "N1, TAB 2 surrender demand at 9:3 (column 3/1): die 4" in english
    french = _pdf_text(after, IVO, "fr")
    assert "N1, TAB 2 demande de reddition : dé 4" in french
    assert "9:3" not in french and "3/1" not in french
    assert "N1, TAB 2 surrender demand: die 4" in _lines(after, IVO, "en")
    assert "N1, TAB 2 demande de reddition à 9:3 (colonne 3/1)\u00a0: dé 4" in _lines(
        after, VERA, "fr"
    )


def test_a_demand_decided_without_a_die_tells_no_die() -> None:
    """Loyalty 4 always refuses: no die, so no dice line for either side."""
    state = playing(3)
    place(state, ALIEN, "K", "42N2", "vaisseau")
    demand = FleetMove("K", "move", "Orders!B12", (at("42C2"),), land="H1")
    after = resolve_turn(
        state, {VERA: Orders(ALIEN, "3", moves=[demand])}, Dice.scripted([]), {}
    ).state
    for reader in (VERA, IVO):
        assert not any("TAB 2" in line for line in _lines(after, reader, "en"))
