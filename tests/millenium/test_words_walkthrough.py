"""What the hand-played walkthrough of issue 52 found still in the other language, or broken:
each page a French or an English Millenium player (or the referee's table) receives, read back
from the real file it is written to.

- `refassist check --annotate` wrote its annotations in English for a French game;
- the engine named the step without its article ("pour tour de jeu 1", "Dés de tour de
  jeu 1");
- the tabletop battle sheet had an English tab among French words, and French drop-downs and
  pre-filled words in an English game;
- "1 disponibles": a count that did not go through the catalog's plural forms;
- positions written with the English W (west) for a French reader, who reads O (ouest);
- the referee's chart labelled in English in a French game;
- the computer's sheets typed in French into an English game's sheet.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import openpyxl
import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

import refassist
from refassist.cli import main
from refassist.demo import create_demo_game
from refassist.dice import Dice
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import ReportInput
from refassist.rulesets.millenium import sheet
from refassist.rulesets.millenium.ai import computer_orders
from refassist.rulesets.millenium.orders import FleetMove, Orders, Purchase
from refassist.rulesets.millenium.resolve import resolve_turn
from refassist.rulesets.millenium.setup import new_state
from refassist.rulesets.millenium.state import ALIEN, EMPIRE, HeldTurn
from refassist.rulesets.millenium.validate import validate_orders
from refassist.store.game import Game
from refassist.text.i18n import again, speaking_to, words_for
from refassist.workbook.sheetpage import typing_into

from .situations import MAP, TABLES, at, place, playing
from .test_secrets import PLAYERS

RULESET = find_ruleset("millenium")
PACKAGE = RULESET.package
FR = words_for("fr", PACKAGE)
EN = words_for("en", PACKAGE)
NB = "\u00a0"
#: The annotated copy as each language writes it: its first tab, and how a comment begins.
ANNOTATED = {
    "fr": ("Problèmes", ("ERREUR", "Avertissement")),
    "en": ("Problems", ("ERROR", "Warning")),
}


def _game(tmp_path: Path, language: str) -> Game:
    return create_demo_game(tmp_path / "game", 2, 5, ruleset=RULESET, language=language)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_check_annotate_on_the_command_line_speaks_the_players_language(
    tmp_path: Path, language: str
) -> None:
    """The referee's `check --annotate` on the Empire's set-up sheet with mistakes: the copy
    (tab, headers, severities, comments) is in the player's language, as the intake's is."""
    game = _game(tmp_path, language)
    state = game.load_state()
    empire = game.step(state).expects[0]
    wrong = tmp_path / "wrong.xlsx"
    shutil.copyfile(game.outbox(game.step(state).key) / f"{empire}.xlsx", wrong)
    tab = sheet.orders_tab(language)
    with typing_into(wrong, tab) as (put, _):
        put(f"H{sheet.SETUP_FLEET_FIRST_ROW + 5}", "23Q3")
    out = tmp_path / "annotated.xlsx"
    result = CliRunner().invoke(
        main, ["check", str(wrong), "--game", str(game.path), "--annotate", str(out)]
    )
    assert result.exit_code == 1, result.output
    book = openpyxl.load_workbook(out)
    first, heads = ANNOTATED[language]
    assert book.sheetnames[0] == first
    problems = book[first]
    assert problems["A2"].value == {"fr": "erreur", "en": "error"}[language]
    comments = [
        c.comment.text for row in book[tab].iter_rows() for c in row if c.comment is not None
    ]
    assert any(text.startswith(heads[0]) for text in comments), comments
    assert all(text.startswith(heads) for text in comments), comments


def _agrees(text: str) -> bool:
    """A French "N disponible(s)": singular for 0 and 1, plural from 2 (the catalog's rule)."""
    m = re.search(r"(\d+) points? (?:sera |seront )?(disponibles?)", text)
    assert m, text
    return (m[2] == "disponible") == (int(m[1]) <= 1) and ("seront" in text) == (int(m[1]) > 1)


def test_the_points_banked_agree_with_their_count() -> None:
    """ "2 points nécessaires ; 1 disponibles": the points left went through no plural form.
    Turn 4 scores 10 for the Empire first, with 1 banked: 11; a ship of the line (6) and a
    frigate (4) leave 1, and a corvette (2) is refused with "1 disponible"."""
    state = playing(4)
    state.points[EMPIRE] = {"A": 1}
    orders = Orders(
        EMPIRE,
        "4",
        purchases=[
            Purchase("K", "vaisseau", 1, "Ordres!C30"),
            Purchase("K", "fregate", 1, "Ordres!C31"),
            Purchase("K", "corvette", 1, "Ordres!C32"),
        ],
    )
    after = resolve_turn(state, {state.players[EMPIRE]: orders}, Dice.scripted([]), {}).state
    (refused,) = [e for e in after.events if e.kind == "order_cancelled"]
    french = again(refused.text, FR, refused.data.get("say")).replace(NB, " ")
    assert french == "2 points nécessaires ; 1 point disponible", french
    assert again(refused.text, EN, refused.data.get("say")) == "2 points needed; 1 point banked"
    # The checker's warning before the turn, the estimate agreeing with its count too.
    for banked in (0, 1, 30):
        state.points[EMPIRE] = {"A": banked}
        with speaking_to("fr", PACKAGE):
            warned = [
                p.message
                for p in validate_orders(state, state.players[EMPIRE], orders)
                if "environ" in p.message
            ]
        assert all(_agrees(text.replace(NB, " ")) for text in warned), warned


ENGINE_FR = Path(refassist.__file__).parent / "locale" / "fr" / "LC_MESSAGES" / "refassist.po"
#: A step's name after a French preposition that needs its article, or with "de le".
BROKEN_ARTICLE = re.compile(r"\b(?:pour|de|après) tour de jeu|\b(?:de|à) les? ", re.IGNORECASE)


def _french_step_names() -> list[str]:
    """Every name the game gives its steps, as a French reader reads it."""
    states = [new_state("g", "Orion", MAP, PLAYERS, TABLES.fleets), playing(0), playing(1)]
    states.append(playing(2))
    held = playing(3)
    held.held = HeldTurn(ALIEN)
    finished = playing(20)
    finished.finished = "the end"
    states += [held, finished]
    with speaking_to("fr", PACKAGE):
        return [str(RULESET.current_step(s).label) for s in states]


def test_the_engine_names_a_french_step_with_its_article() -> None:
    """ "votre feuille d'ordres pour tour de jeu 1", "Dés de tour de jeu 1": the step's name
    had no article.  It has one now ("le tour de jeu 1 (l'Extraterrestre)", as "la mise en
    place" had), and the engine's French sentences put "pour" before a step, never "de",
    which "le" would have to contract with."""
    names = _french_step_names()
    assert "le tour de jeu 1 (l'Extraterrestre)" in names
    assert "le tour de jeu 2 (l'Empire)" in names
    with ENGINE_FR.open("rb") as handle:
        catalog = read_po(handle)
    checked = 0
    for message in catalog:
        text = message.string if isinstance(message.string, str) else ""
        for field in ("{step}", "{resolved}", "%(step)s"):
            if field not in text:
                continue
            for name in names:
                said = text.replace(field, name)
                checked += 1
                assert not BROKEN_ARTICLE.search(said), said
                assert not said.startswith(name), f"a sentence begins in lower case: {said}"
    assert checked > 60


def _battle_sheet_words(path: Path) -> str:
    """What the referee reads on a battle sheet: the visible tab's name and cells, the
    drop-downs' lists and every prompt."""
    book = openpyxl.load_workbook(path)
    lines = [ws.title for ws in book.worksheets if ws.sheet_state == "visible"]
    for ws in book.worksheets:
        if ws.sheet_state == "visible" or ws.title == "Lists":
            lines += [str(c.value) for row in ws.iter_rows() for c in row if c.value is not None]
        for dv in ws.data_validations.dataValidation:
            lines += [str(x) for x in (dv.promptTitle, dv.prompt, dv.errorTitle, dv.error) if x]
    return "\n".join(lines)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_battle_sheet_speaks_the_referees_language_and_reads_back(
    tmp_path: Path, language: str
) -> None:
    """The tabletop battle sheet had the tab "Battle" in a French game, and in an English one
    French drop-downs and prompts ("oui", "personne", "endommagé (one damage) or détruit").
    Each language now has its own tab, words and prompts; the computer's stand-in types the
    sheet's words, and the result reads back the same."""
    from .test_languages import foreign
    from .test_table_battles import REFEREE, held

    state = held()
    path = tmp_path / "B3-1.xlsx"
    with speaking_to(language, PACKAGE):
        sheet.write_sheet(state, "B3-1", path, token="t", deadline="-", house_rules=REFEREE)
    book = openpyxl.load_workbook(path)
    assert book.sheetnames[0] == {"fr": "Bataille", "en": "Battle"}[language]
    text = _battle_sheet_words(path)
    assert foreign(text, language) == [], foreign(text, language)
    lists = {str(c.value) for row in book["Lists"].iter_rows() for c in row if c.value}
    offered = {"fr": {"oui", "personne", "détruit"}, "en": {"yes", "nobody", "destroyed"}}
    assert offered[language] <= lists, lists
    result = computer_orders(state, "B3-1", 5, REFEREE)
    sheet.fill_sheet(path, result)
    typed = {str(c.value) for c in openpyxl.load_workbook(path)[book.sheetnames[0]]["F"]}
    assert typed & {"endommagé", "détruit", "damaged", "destroyed"} <= offered[language] | {
        {"fr": "endommagé", "en": "damaged"}[language]
    }
    with speaking_to(language, PACKAGE):
        read = sheet.read_sheet(path)
        assert read.problems == []
        assert sheet.orders_text(read.orders) == sheet.orders_text(result)
        assert validate_orders(state, "B3-1", read.orders) == []


def test_a_french_reader_reads_the_west_sector_as_o() -> None:
    """Positions were written 23W4 on a French player's sheet, report, reply and checker
    problems: he reads the west sector as O (ouest), the seed's letter.  An English reader
    keeps W, and a player who typed W or O is answered as he typed."""
    state = playing(1)
    place(state, ALIEN, "K", "03E4", "vaisseau")
    state.fleet(ALIEN, "K").where = "waiting"  # type: ignore[union-attr]
    info = ReportInput(
        step="1", deadline="-", sheets={}, house_rules={}, languages={}, language="fr"
    )
    fr = RULESET.report_content(state, state.players[ALIEN], info).context
    where = {f["letter"]: f["where"] for f in fr["fleets"]}
    assert where["K"] == "en attente hors de la carte 03E4, entre sur la carte en 13O4"
    info = ReportInput(
        step="1", deadline="-", sheets={}, house_rules={}, languages={state.players[ALIEN]: "en"}
    )
    en = RULESET.report_content(state, state.players[ALIEN], info).context
    assert {f["letter"]: f["where"] for f in en["fleets"]}["K"].endswith("enters at 13W4")
    # The orders as understood, and a problem the checker finds, name the reader's letters.
    move = FleetMove("K", "move", "Ordres!B12", (at("13W4"), at("13C4"), at("13S4"), at("13S3")))
    orders = Orders(ALIEN, "1", moves=[move])
    # A diagonal step from the west sector: refused, naming the sectors.
    diagonal = Orders(
        ALIEN, "1", moves=[FleetMove("K", "move", "Ordres!B12", (at("13W4"), at("13S4")))]
    )
    with speaking_to("fr", PACKAGE):
        assert sheet.orders_text(orders) == ["La flotte K se déplace par 13O4 13C4 13S4 13S3"]
        problems = validate_orders(state, state.players[ALIEN], diagonal)
    assert problems and not any(re.search(r"\d\dW\d", p.message + p.fix) for p in problems)
    assert any("13O4" in p.message + p.fix for p in problems), problems
    with speaking_to("en", PACKAGE):
        assert sheet.orders_text(orders) == ["K moves 13W4 13C4 13S4 13S3"]
        typed_o = Orders(ALIEN, "1", moves=[move], sectors_typed={"W": "O"})
        assert sheet.orders_text(typed_o) == ["K moves 13O4 13C4 13S4 13S3"]


def test_the_referees_chart_speaks_the_games_language() -> None:
    """The standings chart on a French game's referee report read "after the turn", "start"
    and "programme systems colonised"; it is drawn in the report's language now (the site,
    the referee's own, stays English)."""
    from refassist.archive.history import History, StateFacts, TurnRecord
    from refassist.archive.site import chart_of

    measure = RULESET.scores(playing(1)).measure
    facts = StateFacts("1", "", ["Vera"], measure=measure, scores={"Vera": 0.0})
    later = StateFacts("2", "", ["Vera"], measure=measure, scores={"Vera": 2.0})
    history = History(facts, [TurnRecord("1", "", "", later)], None)
    french = chart_of(history, "", FR)
    assert "après le tour" in french and "début" in french, french
    assert "systèmes du programme colonisés" in french
    assert not re.search(r"after the turn|>start<|programme systems", french)
    assert "after the turn" in chart_of(history, "", EN)
    assert "after the turn" in chart_of(history, "")


@pytest.mark.slow
def test_the_public_page_writes_positions_in_the_games_language(tmp_path: Path) -> None:
    """The public page of a French game told "la flotte K de l'Empire s'est déplacée en
    31W2": its announcements now name positions in the game's language's letters."""
    from refassist.archive.public import write_public
    from refassist.demo import run_demo

    assert RULESET.in_notation("déplacée en 31W2, 31C2", "fr") == "déplacée en 31O2, 31C2"
    assert RULESET.in_notation("moved to 31W2", "en") == "moved to 31W2"
    folder = tmp_path / "game"
    run_demo(folder, turns=4, seed=3, ruleset="millenium", language="fr")
    page = write_public(Game.open(folder), tmp_path / "public").read_text(encoding="utf-8")
    assert re.search(r"\b\d\dO\d\b", page), "the demo's moves are announced"
    assert not re.search(r"\b\d\dW\d\b", page)
