"""The report's content for a reader: what it says of a missing sheet, and its map's legend in
the reader's language."""

from __future__ import annotations

from refassist.rulesets.base import ReportInput
from refassist.rulesets.millenium.report import player_content
from refassist.rulesets.millenium.visibility import player_view

from .situations import playing


def _content(step: str, language: str = "fr", status: str = "missing"):
    state = playing(2)
    info = ReportInput(
        step=step, deadline="-", sheets={"Vera": status}, languages={"Vera": language}
    )
    return player_content(player_view(state, "Vera"), info)


def test_no_sheet_is_missing_for_a_step_that_was_not_the_readers() -> None:
    """The engine marks a player a step did not wait for ``not due`` (`gather_input`, from
    the step's archive): never told that no sheet came (tests/test_sheet_due.py)."""
    assert not _content("0-empire", status="not due").context["no_orders"]
    assert not _content("2", status="not due").context["no_orders"]
    assert _content("1").context["no_orders"]  # the Extraterrestrial's own turn
    assert _content("0-extraterrestre").context["no_orders"]


def test_the_maps_legend_names_the_levels_in_the_readers_language() -> None:
    french = [item["label"] for item in _content("1").context["zone_pages"][0]["legend"]]
    english = [item["label"] for item in _content("1", "en").context["zone_pages"][0]["legend"]]
    # French typography, as the situation page's legend and the rest of the catalog set it.
    assert french[1] == "niveau 2\u00a0: bleu" and english[1] == "level 2: blue"
    assert english[-2:] == ["the Extraterrestrial's fleets", "the Empire's fleets"]


def test_the_page_heads_name_the_battles_a_turn_waits_for() -> None:
    """While the referee's table holds a game turn, the page heads say so (not "after" the
    turn before, as if the turn had not begun)."""
    from refassist.rulesets.base import Step

    state = playing(3)
    waiting = Step("3-batailles", "game turn 3: battles", ("B3-1",), waits_for_referee=True)
    info = ReportInput(step="3", deadline="-", languages={"Vera": "fr"}, awaited=waiting)
    period = player_content(player_view(state, "Vera"), info).context["period"]
    assert period == "le tour de jeu 3\u00a0: les batailles livrées sur la table de l'arbitre"
    plain = ReportInput(step="3", deadline="-", languages={"Vera": "fr"})
    assert "batailles" not in player_content(player_view(state, "Vera"), plain).context["period"]


def test_the_first_turns_page_heads_come_after_the_set_up() -> None:
    """The reports after the Extraterrestrial's placement begin game turn 1: their heads say
    "after the set-up", not "after game turn 0" (a turn the game never had)."""
    state = playing(1)
    for language, words in (("fr", "après la mise en place"), ("en", "after the set-up")):
        info = ReportInput(step="0-extraterrestre", deadline="-", languages={"Vera": language})
        assert player_content(player_view(state, "Vera"), info).context["period"] == words
    second = ReportInput(step="1", deadline="-", languages={"Vera": "fr"})
    state = playing(2)
    assert player_content(player_view(state, "Vera"), second).context["period"] == (
        "après le tour de jeu 1"
    )
