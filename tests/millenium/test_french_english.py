"""French throughout, English throughout, point by point (issue 52): each sheet's drop-downs,
pre-filled cells and tab in its reader's language and with the French accents; both spellings
and the Greek letters as players type them read back; what a player was told, the counts and
the battle's pieces said anew in the reader's language, with the catalog's plural forms and
the French agreement; the tables and the programme named for the reader."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from refassist.rulesets.base import ReportInput
from refassist.rulesets.millenium import parse, sheet
from refassist.rulesets.millenium.names import piece_destroyed, piece_name, ship_list
from refassist.rulesets.millenium.orders import Purchase
from refassist.rulesets.millenium.report import player_content, reconstructed_names
from refassist.rulesets.millenium.resolve import purchase_problem
from refassist.rulesets.millenium.setup import new_state
from refassist.rulesets.millenium.state import ALIEN, EMPIRE, State
from refassist.rulesets.millenium.tactical import TacticalOrders
from refassist.rulesets.millenium.visibility import player_view
from refassist.text.i18n import again, said, said_plural, speaking_to, words_for

from .situations import MAP, TABLES
from .test_secrets import PLAYERS, play
from .test_sheets import PACKAGE, _mover, _written

FR = words_for("fr", PACKAGE)
EN = words_for("en", PACKAGE)
NB = "\u00a0"


@pytest.fixture(scope="module")
def states() -> list[State]:
    """The Empire's set-up, the Extraterrestrial's, then game turns 1 and 2."""
    return [new_state("g", "Orion", MAP, PLAYERS, TABLES.fleets), *play(5)[:3]]


def _standing(state: State, tactics: TacticalOrders) -> State:
    """A copy of ``state`` whose mover stands on ``tactics``."""
    state = state.copy()
    state.tactics[state.side_of(_mover(state))] = tactics
    return state


def _lists(path: Path) -> tuple[openpyxl.Workbook, list[str]]:
    book = openpyxl.load_workbook(path)
    return book, [str(c.value) for row in book["Lists"].iter_rows() for c in row if c.value]


def test_a_french_sheet_offers_and_prefills_french_words_with_their_accents(
    states: list[State], tmp_path: Path
) -> None:
    path = tmp_path / "fr.xlsx"
    tactics = TacticalOrders("stand off", "capital", "spread", "compulsory", "W", True)
    _written(_standing(states[2], tactics), path, "fr")
    book, lists = _lists(path)
    assert book.sheetnames[0] == "Ordres"
    for word in ("entrée", "réserve", "à distance", "concentré", "réparti", "après 3 tours"):
        assert word in lists, word
    for word in ("entree", "reserve", "a distance", "concentre", "apres 3 tours", "move", "W"):
        assert word not in lists, word
    ws = book["Ordres"]
    row = sheet.TACTICS_ROW["turn"]
    standing = [ws[f"D{row + n}"].value for n in range(1, 7)]
    assert standing == ["à distance", "vaisseaux", "réparti", "après 3 tours", "O", "oui"]


def test_an_english_sheet_offers_and_prefills_english_words_only(
    states: list[State], tmp_path: Path
) -> None:
    path = tmp_path / "en.xlsx"
    tactics = TacticalOrders("close", "capital", "focus", "compulsory", "W", True)
    _written(_standing(states[2], tactics), path, "en")
    book, lists = _lists(path)
    assert book.sheetnames[0] == "Orders"
    for word in ("move", "jump", "enter", "reserve", "yes", "no", "stand off", "W"):
        assert word in lists, word
    for word in ("au contact", "navires", "oui", "non", "mouvement", "saut", "entree", "O"):
        assert word not in lists, word
    ws = book["Orders"]
    row = sheet.TACTICS_ROW["turn"]
    standing = [ws[f"D{row + n}"].value for n in range(1, 7)]
    assert standing == ["close", "capital ships", "focus", "after 3 rounds", "W", "yes"]
    prompts = " ".join(str(dv.prompt) for dv in ws.data_validations.dataValidation)
    assert "oui" not in prompts and "entree" not in prompts and "mouvement" not in prompts


def test_what_an_english_player_typed_comes_back_in_english(
    states: list[State], tmp_path: Path
) -> None:
    """The game keeps the standing orders' values, not the words: an English reader's next
    sheet shows what he chose in English, a French reader's in French."""
    path = tmp_path / "typed.xlsx"
    _written(states[2], path, "en")
    book = openpyxl.load_workbook(path)
    ws = book["Orders"]
    row = sheet.TACTICS_ROW["turn"]
    for n, typed in enumerate(["stand off", "nearest", "spread", "when losing", "W", "no"], 1):
        ws[f"D{row + n}"] = typed
    book.save(path)
    tactics = sheet.read_sheet(path).orders.tactics
    assert tactics == TacticalOrders("stand off", "nearest", "spread", "losing", "W", False)
    later = _standing(states[3], tactics)
    for language, expected in (
        ("en", ["stand off", "nearest", "spread", "when losing", "W", "no"]),
        ("fr", ["à distance", "le plus proche", "réparti", "si perdant", "O", "non"]),
    ):
        again_path = tmp_path / f"next-{language}.xlsx"
        _written(later, again_path, language)
        ws = openpyxl.load_workbook(again_path)[sheet.orders_tab(language)]
        assert [ws[f"D{row + n}"].value for n in range(1, 7)] == expected


@pytest.mark.parametrize(
    ("typed", "letter"),
    [
        ("Oméga", "ω"),
        ("omega", "ω"),
        ("Ω", "ω"),
        ("k", "κ"),
        ("K", "K"),
        ("kappa", "κ"),
        ("Lambda", "λ"),
        ("delta", "δ"),
        ("Epsilon", "ε"),
        ("a", "A"),
        ("x", "X"),
        ("K+", "K+"),
        ("k+", "κ+"),
        ("Zorro", "Zorro"),
    ],
)
def test_the_greek_fleet_letters_are_read_as_players_type_them(typed: str, letter: str) -> None:
    assert parse.fleet_letter(typed) == letter


def test_both_spellings_and_the_greek_names_are_read_from_a_sheet(
    states: list[State], tmp_path: Path
) -> None:
    path = tmp_path / "sheet.xlsx"
    _written(states[2], path, "fr")
    book = openpyxl.load_workbook(path)
    ws = book["Ordres"]
    r = sheet.FLEET_FIRST_ROW
    ws[f"B{r}"], ws[f"C{r}"], ws[f"D{r}"] = "Oméga", "Entrée", "23O4"
    ws[f"B{r + 1}"], ws[f"C{r + 1}"], ws[f"D{r + 1}"] = "k", "réserve", "33 6"
    ws[f"B{r + 2}"], ws[f"C{r + 2}"], ws[f"D{r + 2}"] = "delta", "entree", "23O4"
    row = sheet.TACTICS_ROW["turn"]
    ws[f"D{row + 1}"], ws[f"D{row + 3}"], ws[f"D{row + 4}"] = (
        "A distance",
        "Réparti",
        "apres 3 tours",
    )
    book.save(path)
    read = sheet.read_sheet(path)
    assert read.problems == []
    assert [(m.fleet, m.kind) for m in read.orders.moves] == [("ω", "enter"), ("δ", "enter")]
    assert [e.fleet for e in read.orders.entries] == ["κ"]
    t = read.orders.tactics
    assert (t.stance, t.fire, t.leave) == ("stand off", "spread", "compulsory")


def test_what_a_player_was_told_is_said_in_the_sheets_language(
    states: list[State], tmp_path: Path
) -> None:
    """The events are resolved in English; the French sheet's "Ce qui vous a été annoncé"
    says them anew in French (it printed "fleet K moved to 14N4")."""
    state = states[3]
    path = tmp_path / "told.xlsx"
    _written(state, path, "fr")
    told = [
        str(c.value) for row in openpyxl.load_workbook(path)["Situation"].iter_rows() for c in row
    ]
    start = told.index("Ce qui vous a été annoncé")
    lines = [t for t in told[start + 1 :] if t != "None"]
    assert lines and not any("fleet" in t or "moved" in t or "(s)" in t for t in lines), lines
    assert any("la flotte" in t for t in lines), lines


def test_counts_agree_by_the_catalogs_plural_forms() -> None:
    assert ship_list(["fregate", "fregate", "corvette"], FR) == "1 corvette, 2 frégates"
    assert ship_list(["vaisseau", "porte_intercepteur"], EN) == "1 ship of the line, 1 carrier"
    assert ship_list([], FR) == "aucun navire"
    with speaking_to("en", PACKAGE):
        one = said_plural("{n} production point scored", "{n} production points scored", 1)
        two = said_plural("{n} production point scored", "{n} production points scored", 2)
        none = said_plural("{n} production point scored", "{n} production points scored", 0)
    assert (str(one), str(two), str(none)) == (
        "1 production point scored",
        "2 production points scored",
        "0 production points scored",
    )
    assert again(one, FR) == "1 point de production gagné"
    assert again(two, FR) == "2 points de production gagnés"
    assert again(none, FR) == "0 point de production gagné"  # French: 0 takes the singular
    # As an event keeps it (JSON): the count and the plural survive the master workbook.
    kept = [one.template, dict(two.values)]
    assert again("", FR, kept) == "2 points de production gagnés"


def test_a_pieces_fate_agrees_with_its_kind_and_names_no_key() -> None:
    with speaking_to("en", PACKAGE):
        corvette = piece_destroyed(2, "A.corvette1")
        line = piece_destroyed(3, "K.vaisseau2")
        interceptor = piece_destroyed(1, "ω.porte_intercepteur1.i3")
        launched = said("round {round}: {piece} launched", round=1, piece="x")
    assert str(corvette) == "round 2: corvette 1 of fleet A destroyed"
    assert again(corvette, FR) == f"tour 2{NB}: la corvette 1 de la flotte A est détruite"
    assert again(line, FR) == f"tour 3{NB}: le vaisseau 2 de la flotte K est détruit"
    assert again(interceptor, FR) == (
        f"tour 1{NB}: l'intercepteur 3 du porte-intercepteur 1 de la flotte ω est détruit"
    )
    assert piece_name("V1.base2", FR) == "base 2 de V1"
    assert piece_name("ω.porte_intercepteur1", EN) == "carrier 1 of fleet ω"
    assert "x" in str(launched)


def test_a_purchase_refused_names_the_ships_in_the_readers_words() -> None:
    """ "a fleet holds at most 2 fregate" said the raw key; now the catalog's plural."""
    from .situations import playing

    state = playing(3)
    fleet = next(f for f in state.fleets if f.side == ALIEN and f.letter in ("K", "ω"))
    fleet.ships = [s for s in fleet.ships if s.kind != "fregate"][:4]
    problem = purchase_problem(state, TABLES, ALIEN, Purchase(fleet.letter, "fregate", 3, "B27"))
    assert again(problem, FR) == "une flotte compte au plus 2 frégates"
    assert "fregate" not in again(problem, EN) and "frigates" in again(problem, EN)


def test_the_reconstructed_tables_are_named_as_the_printed_game_names_them() -> None:
    names = reconstructed_names(frozenset({"combat", "ships", "roses"}), FR)
    assert names == "TAB 1 navires (légende), TAB 2 tableau de combat, TAB 3 roses"
    assert reconstructed_names(frozenset({"combat", "mine"}), EN) == "TAB 2 combat table, mine"


def test_only_the_extraterrestrial_reads_your_programme() -> None:
    from .situations import playing

    state = playing(3)
    state.finished = "over"
    info = ReportInput(step="20", deadline="-", languages={"Ivo": "fr", "Vera": "fr"})
    for player, yours in (("Vera", True), ("Ivo", False)):
        side = ALIEN if player == "Vera" else EMPIRE
        assert state.players[side] == player
        context = player_content(player_view(state, player), info).context
        assert context["programme_is_yours"] is yours


def test_the_referees_terminal_prints_french_typography_as_it_is() -> None:
    """The check command prints a French sheet's orders: its no-break spaces before the colons
    are printed, not escaped as ``\\xa0``; a direction-changing character still is."""
    from refassist.cli import printable

    assert printable(f"Tactique{NB}: au contact") == f"Tactique{NB}: au contact"
    assert printable("x\u202ey") == "x\\u202ey"


def test_the_demos_language_option_names_a_language_refassist_speaks() -> None:
    from refassist.cli.turn_commands import language_option
    from refassist.errors import UsageError

    assert (language_option("English"), language_option("fr"), language_option("")) == (
        "en",
        "fr",
        "",
    )
    with pytest.raises(UsageError, match="klingon"):
        language_option("klingon")


def test_the_annotated_copy_of_a_french_sheet_speaks_french(
    states: list[State], tmp_path: Path
) -> None:
    """The copy sent back with a reply marks each problem in the player's language: the tab,
    its headers, each problem's severity and the cells' comments (they were English)."""
    from refassist.errors import CellProblem
    from refassist.workbook.annotate import annotate

    path = tmp_path / "sheet.xlsx"
    _written(states[2], path, "fr")
    problem = CellProblem("Ordres", "C12", "voler", "'voler' n'est pas un ordre", "", "error")
    out = annotate(path, [problem], tmp_path / "annotated.xlsx", words_for("fr"))
    book = openpyxl.load_workbook(out)
    assert book.sheetnames[0] == "Problèmes"
    ws = book["Problèmes"]
    assert [c.value for c in ws[1]][:6] == [
        "Gravité",
        "Onglet",
        "Case",
        "Trouvé",
        "Problème",
        "Comment corriger",
    ]
    assert ws["A2"].value == "erreur"
    assert book["Ordres"]["C12"].comment.text.startswith("ERREUR : 'voler'")
    again_out = annotate(out, [], tmp_path / "again.xlsx", words_for("en"))
    assert openpyxl.load_workbook(again_out).sheetnames[0] == "Problems"  # the French one undone
    assert "Problèmes" not in openpyxl.load_workbook(again_out).sheetnames
