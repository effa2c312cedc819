"""The fog-of-war audit: over a 20-turn computer game, no player's PDF tells anything the rules
hide from that player.

For every turn and every player, the report's text (pypdf) is checked against what the rules
allow (`player_view`, and the events' ``visible_to``), from the state the report was written
for (``archive/<year>/master.xlsx``, or ``master.xlsx`` for the last year):

* no sentence of an event the player may not read;
* every move in the game's notation is one of the player's own (flights, orders, cancelled
  orders): other players' fleets in hyperspace never appear;
* every system shown with current details is in sight, with the owner and fleets the view
  shows; every system shown "as seen" carries the year and owner of the player's own sighting;
* on the sector map each owner's tag marks exactly the systems the player sees that owner
  hold (plus its legend entry), and "tag?" exactly the systems last seen held by it;
* subsector pages only for subsectors the player sees into, and no other player's name more
  often than the player's knowledge of that subsector allows.

The game is the demo's turn loop (each computer player's sheet written, filled in, taken in by
the intake, the turn resolved, the reports written) with five players on the northern half of
a generated sector, so that the empires meet early and the twenty turns are full of battles,
captures, flights and last-seen systems.  Only the reports the audit reads are written (every
player's every turn, the referee's the last turn).  The PDFs are read with pdfium
(`pypdfium2`, the engine under pdfplumber), thirty times faster than pypdf on the map pages;
`test_the_audit_catches_a_leak` shows that both give the audit the same findings.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from refassist.demo import computer_sheets, create_demo_game
from refassist.drawings.mapmodel import owner_tags
from refassist.geometry.hexmap import col_row, subsector_letter
from refassist.geometry.sectors import Sector, generate_sector, write_tab
from refassist.intake.inbox import intake
from refassist.playeraudit import pdf_pages
from refassist.report.game_reports import write_reports
from refassist.rulesets.fifth_millennium.notation import move_text
from refassist.rulesets.fifth_millennium.state import State
from refassist.rulesets.fifth_millennium.visibility import player_view
from refassist.store.game import Game
from refassist.turns import resolve_game
from refassist.workbook.master import read_master

TURNS = 20

MOVE = re.compile(
    r"\b(5\d{3}) - (F\d+ S\d+ A\d+\(Fs\d+ Ms\d+ K\d+(?: SF\d+)?\)|Probe) - (\d{4}) - (\d{4})"
)
SYSTEM_LINE = re.compile(
    r"^(\d{4}) .*? G\d+ O\d+ Mi\d+ M\d+ - F\d+ S\d+ A\d+\(Fs\d+ Ms\d+ K\d+(?: SF\d+)?\) - \d+"
)
SEEN_LINE = re.compile(r"^(\d{4}) .*\(seen (5\d{3})(?:, ([^)]+))?\)")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _count(text: str, word: str, suffix: str = "") -> int:
    """Occurrences of ``word`` + ``suffix`` as a label: pypdf may join two labels that sit
    side by side on a map ("Cap5009"), so a tag counts unless a letter continues the word
    (``Capella``) or, for a plain tag, a "?" follows (``Cap?``, the last-seen tag)."""
    tail = r"(?![a-z])" if suffix else r"(?![a-z?])"
    return len(re.findall(rf"(?<![A-Za-z]){re.escape(word + suffix)}{tail}", text))


def _moves(text: str) -> set[tuple[str, str, str]]:
    return {(m.group(1), m.group(3), m.group(4)) for m in MOVE.finditer(text)}


def audit(pages: list[str], state: State, player: str, orders: list[str]) -> list[str]:
    """Every way the report's text exceeds what ``player`` may know (empty when none)."""
    view = player_view(state, player)
    problems: list[str] = []
    text = _norm(" ".join(pages))
    by_hex = {s.hex: s for s in view.systems}

    # Events the player may not read.
    visible = [e for e in state.events if e.visible(player)]
    visible_text = " ".join(_norm(e.text) for e in visible)
    for e in state.events:
        sentence = _norm(e.text)
        if not e.visible(player) and sentence not in visible_text and sentence in text:
            problems.append(f"hidden {e.kind} event told: {e.text!r}")

    # Moves in notation: only the player's own.
    allowed = set()
    for f in view.own_flights:
        allowed |= _moves(
            move_text(f.departed, None if f.probe else f.fleet, f.origin, f.destination, f.arrival)
        )
    for line in orders:
        allowed |= _moves(line)
    for e in visible:
        allowed |= _moves(str(e.data.get("order", ""))) | _moves(e.text)
    for move in _moves(text) - allowed:
        problems.append(f"move not the player's own: {move}")

    # Known systems, line by line (pypdf keeps one system per line).
    for page in pages:
        for raw in page.splitlines():
            line = _norm(raw)
            current = SYSTEM_LINE.match(line)
            seen = SEEN_LINE.match(line)
            if seen:
                s = by_hex.get(seen.group(1))
                if s is None or s.status != "seen" or str(s.seen_year) != seen.group(2):
                    problems.append(f"system shown as seen without a sighting: {line}")
                elif (seen.group(3) or "") != s.owner:
                    problems.append(f"seen owner differs from the sighting: {line}")
            elif current:
                s = by_hex.get(current.group(1))
                if s is None or s.status != "in sight":
                    problems.append(f"system out of sight shown with current details: {line}")
                    continue
                owner = re.search(r"\[([^\]]+)\]", line)
                if owner and owner.group(1) != s.owner:
                    problems.append(f"owner shown differs from the view: {line}")
                for other in re.findall(r"\+ (\S+) ", line):
                    if other != "independent" and all(f.owner != other for f in s.forces):
                        problems.append(f"forces of {other} shown where not seen: {line}")

    # Map pages.
    tags = owner_tags(view.players)
    in_sight_owned = Counter(s.owner for s in view.systems if s.status == "in sight" and s.owner)
    seen_owned = Counter(s.owner for s in view.systems if s.status == "seen" and s.owner)
    sector = [p for p in pages if p.startswith("Sector map:")]
    if len(sector) != 1:
        problems.append(f"{len(sector)} sector map pages")
    else:
        for name, tag in tags.items():
            shown = _count(sector[0], tag)
            if shown != in_sight_owned[name] + 1:
                problems.append(
                    f"sector map tags {tag} {shown - 1} times; {player} sees "
                    f"{in_sight_owned[name]} systems of {name}"
                )
            shown_seen = _count(sector[0], tag, "?")
            if shown_seen != seen_owned[name]:
                problems.append(
                    f"sector map tags {tag}? {shown_seen} times; {player} last saw "
                    f"{seen_owned[name]} systems of {name}"
                )
    sight_subsectors = {subsector_letter(s.hex) for s in view.systems if s.status == "in sight"}
    for page in pages:
        m = re.match(r"Subsector ([A-P]):", page)
        if not m:
            continue
        letter = m.group(1)
        if letter not in sight_subsectors:
            problems.append(f"subsector page {letter} without anything in sight")
        here = [s for s in view.systems if subsector_letter(s.hex) == letter]
        for name in view.players:
            if name == player:
                continue
            known = sum(
                1 for s in here if s.status == "in sight" for f in s.forces if f.owner == name
            ) + sum(1 for s in here if s.status == "seen" and name in s.forces_text)
            named = _count(page, name, "")
            if named > known + 1:
                problems.append(
                    f"subsector {letter} names {name} {named} times; {player} knows of "
                    f"{known} forces there"
                )
            owned_here = sum(1 for s in here if s.status == "in sight" and s.owner == name)
            if _count(page, tags[name]) != owned_here + 1:
                problems.append(f"subsector {letter} tags {tags[name]} wrongly")
    return problems


def _orders_lines(pages: list[str]) -> list[str]:
    text = "\n".join(pages)
    part = text.split(" as understood", 1)
    return part[1].splitlines() if len(part) == 2 else []


PLAYERS = 5


def _northern_sector(target: Path) -> Path:
    """Generated sector 3, only its worlds in rows 01-20: the empires meet within a few turns."""
    full = generate_sector(3)
    worlds = [w for w in full.worlds if col_row(w.hex)[1] <= 20]
    north = Sector(
        name=f"{full.name} (north)",
        abbreviation=full.abbreviation,
        worlds=worlds,
        subsector_names=dict(full.subsector_names),
        warnings=[],
        source="generate_sector(3), rows 01-20",
    )
    target.write_text(write_tab(north), encoding="utf-8")
    return target


@pytest.fixture(scope="module")
def demo_game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    root = tmp_path_factory.mktemp("fog")
    sector = _northern_sector(root / "north.tab")
    game = create_demo_game(root / "demo", PLAYERS, 3, sector)
    # Under pytest-xdist the other worker keeps the second core busy: one process is faster.
    jobs = 1 if os.environ.get("PYTEST_XDIST_WORKER") else None
    for turn in range(TURNS):
        state = game.load_state()
        intake(game, computer_sheets(game, state, 3))
        outcome = resolve_game(game, force=True)
        assert not outcome.finished, "the computer game ended early; pick another seed"
        write_reports(
            game,
            state=outcome.state,
            players=outcome.state.player_names(),
            referee=turn == TURNS - 1,
            jobs=jobs,
        )
    return game


@pytest.mark.slow
def test_no_report_tells_a_player_what_the_fog_hides(demo_game: Game) -> None:
    game = demo_game
    first = game.load_state().player_names()[0]
    outbox = game.path / "outbox"
    years = sorted(p.name for p in outbox.iterdir() if (p / f"{first}.pdf").exists())
    assert len(years) == TURNS, years
    checked = 0
    problems: list[str] = []
    events = Counter()
    for year in years:
        archived = game.archive(year) / "master.xlsx"
        state = read_master(archived if archived.exists() else game.master_path, game.ruleset)
        assert str(state.year) == year
        events.update(e.kind for e in state.events)
        for player in state.player_names():
            pages = pdf_pages(game.outbox(year) / f"{player}.pdf")
            found = audit(pages, state, player, _orders_lines(pages))
            problems.extend(f"{year} {player}: {p}" for p in found)
            checked += 1
    assert checked == TURNS * PLAYERS
    assert problems == []
    # The audit had something to audit: the fog hid battles, captures and fleets in flight.
    assert events["battle"] >= 5 and events["capture"] >= 20 and events["departure"] >= 50, events


@pytest.mark.slow
def test_the_audit_catches_a_leak(demo_game: Game) -> None:
    """The audit is not vacuous: a report of the referee's knowledge fails it for a player.

    It finds the same leaks whether the PDF is read with pdfium (as the audit above does) or
    with pypdf, for every player."""
    game = demo_game
    state = game.load_state()
    referee = game.outbox(str(state.year)) / "referee.pdf"
    by_pdfium = pdf_pages(referee)
    by_pypdf = [page.extract_text() for page in PdfReader(referee).pages]
    for player in state.player_names():
        findings = []
        for pages in (by_pdfium, by_pypdf):
            pages = [
                p.replace("everything, at the start of", f"as known to {player} at the start of")
                for p in pages
            ]
            findings.append(sorted(audit(pages, state, player, [])))
        assert findings[0] == findings[1], player
        found = findings[0]
        assert any("move not the player's own" in p for p in found)
        assert any("sector map tags" in p for p in found)
        assert any("hidden" in p for p in found)
