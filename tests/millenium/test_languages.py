"""French throughout, English throughout: every page a Millenium player receives, in either
language, holds no word of the other language and no "(s)" plural.

A whole computer game is played to its end in each language (both players reading it), and
every page it sends a player is read back as text: the set-up and turn sheets (each visible
tab, the drop-downs' lists, the cells' prompts and the tab names), the players' reports (PDF,
every step, battles and the end included), the replies to their sheets (an accepted one and
one with problems) and the public page.  The words each language owns are kept with the
catalogs (`refassist/rulesets/millenium/locale/words.toml`).
"""

from __future__ import annotations

import email
import email.policy
import re
import shutil
import tomllib
from pathlib import Path

import openpyxl
import pytest

from refassist.archive.public import write_public
from refassist.demo import run_demo
from refassist.intake.inbox import intake
from refassist.rulesets import find_ruleset
from refassist.rulesets.millenium import sheet
from refassist.store.game import Game
from refassist.workbook.sheetpage import typing_into

from .test_fog_of_war import pdf_text

RULESET = find_ruleset("millenium")
WORDS_FILE = Path(sheet.__file__).parent / "locale" / "words.toml"
OTHER = {"fr": "en", "en": "fr"}
#: The players' and the game's names, which are no language's words.
NAMES = ("Imperator", "Xenarch", "Demo game")


#: What a page of each language must not hold beyond the other's words: a position written
#: with the other language's west sector (23W4 for a French reader, 23O4 for an English one:
#: no player typed them in the demo), and a French step named without its article.
BROKEN = {  # "e.g. 23N4 (or 23O4)" tells an English player O is read too
    "fr": (r"\b\d\dW\d\b", r"\b(?:pour|de) tour de jeu\b", r"\bde le (?:tour|placement)\b"),
    "en": (r"(?<!or )\b\d\dO\d\b",),
}


def language_words() -> dict[str, list[str]]:
    with WORDS_FILE.open("rb") as handle:
        data = tomllib.load(handle)
    return {language: list(data[language]["words"]) for language in ("fr", "en")}


def foreign(text: str, language: str) -> list[str]:
    """Each word of the other language in ``text`` (whole words, any case), with the line it
    stands in; and each "(s)" plural."""
    for name in NAMES:
        text = text.replace(name, "")
    text = re.sub(r"\S+@\S+", "", text)  # addresses
    found = []
    for w in language_words()[OTHER[language]]:
        pattern = re.compile(rf"(?<![\w-]){re.escape(w)}(?![\w-])", re.IGNORECASE)
        for line in text.splitlines():
            if pattern.search(line):
                found.append(f"{w!r} in: {line.strip()[:140]}")
    found += [f"'(s)' in: {line.strip()[:140]}" for line in text.splitlines() if "(s)" in line]
    for line in text.splitlines():
        for pattern in BROKEN[language]:
            if re.search(pattern, line):
                found.append(f"{pattern!r} in: {line.strip()[:140]}")
    return found


def sheet_words(path: Path) -> str:
    """What a player reads in a sheet: the visible tabs (names and cells), the drop-downs'
    lists and every cell's prompt and error message."""
    book = openpyxl.load_workbook(path)
    lines = []
    for ws in book.worksheets:
        if ws.sheet_state != "visible" and ws.title != "Lists":
            continue
        if ws.sheet_state == "visible":
            lines.append(ws.title)
        lines += [str(c.value) for row in ws.iter_rows() for c in row if c.value is not None]
        for dv in ws.data_validations.dataValidation:
            lines += [str(x) for x in (dv.promptTitle, dv.prompt, dv.errorTitle, dv.error) if x]
    return "\n".join(lines)


def mail_words(path: Path) -> str:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    body = message.get_body(preferencelist=("plain",))
    return f"{message['Subject']}\n{body.get_content() if body is not None else ''}"


def pages_of(folder: Path) -> dict[str, str]:
    """Every page the game sent its players, by file: not the referee's report nor the
    referee's battle sheets."""
    pages = {}
    for path in sorted((folder / "outbox").rglob("*")):
        name = str(path.relative_to(folder))
        if path.name.startswith("referee") or "batailles" in name:
            continue
        if path.suffix == ".xlsx":
            pages[name] = sheet_words(path)
        elif path.suffix == ".pdf":
            pages[name] = pdf_text(path)
        elif path.suffix == ".eml":
            pages[name] = mail_words(path)
    return pages


def a_reply_with_problems(game: Game) -> None:
    """The mover's sheet sent back with mistakes (an unknown order, a position off the notation,
    a fleet letter that is no fleet's), so its reply lists problems."""
    state = game.load_state()
    (player,) = game.step(state).expects
    source = game.outbox(game.step(state).key) / f"{player}.xlsx"
    wrong = game.path / "wrong.xlsx"
    shutil.copyfile(source, wrong)
    tab = "Orders" if game.language_of(player) == "en" else "Ordres"
    with typing_into(wrong, tab) as (put, _):
        row = sheet.FLEET_FIRST_ROW
        put(f"B{row}", "Q")
        put(f"C{row}", "voler")
        put(f"D{row}", "23Q4")
    intake(game, [wrong])


@pytest.mark.slow
@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_page_a_player_receives_speaks_his_language_only(
    tmp_path: Path, language: str
) -> None:
    folder = tmp_path / "game"
    result = run_demo(folder, turns=22, seed=3, ruleset="millenium", language=language)
    assert result.finished, "the game is played to its end"
    game = Game.open(folder)
    public = write_public(game, tmp_path / "public")
    pages = pages_of(folder)
    html = re.sub(r"<style>.*?</style>", " ", public.read_text(encoding="utf-8"), flags=re.S)
    pages["public"] = re.sub(r"<[^>]+>", " ", html)
    kinds = {p.rsplit(".", 1)[-1] for p in pages}
    assert {"xlsx", "pdf", "eml"} <= kinds and len(pages) > 40, sorted(pages)
    problems = [f"{name}: {hit}" for name, text in pages.items() for hit in foreign(text, language)]
    assert problems == [], "\n".join(problems[:60])


@pytest.mark.slow
@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_reply_with_problems_speaks_the_players_language(tmp_path: Path, language: str) -> None:
    folder = tmp_path / "game"
    run_demo(folder, turns=2, seed=3, ruleset="millenium", language=language)
    game = Game.open(folder)
    assert game.load_state().turn == 1  # a game turn's sheet, with its fleet lines
    before = set((folder / "outbox").rglob("*.eml"))
    a_reply_with_problems(game)
    (reply,) = set((folder / "outbox").rglob("*.eml")) - before
    text = mail_words(reply)
    assert "voler" in text, text
    assert foreign(text, language) == [], foreign(text, language)


def test_the_word_lists_catch_the_other_language() -> None:
    """The check has teeth: an English sentence on a French page, a French one on an English
    page and a "(s)" plural are each found."""
    assert foreign("la flotte K s'est déplacée", "fr") == []
    assert foreign("fleet K moved to 14N4", "fr")
    assert foreign("2 frégates, 1 vaisseau", "en")
    assert foreign("1 planète(s)", "fr") == ["'(s)' in: 1 planète(s)"]
    assert foreign("Orion: Imperator@example.org wins", "en") == []
