"""What a player is shown is true, and no more: every game, every page, every seed.

A seeded game of every ruleset is played as people play it (`tests/audit_games.py`), and
everything each player received for each step (the PDF report, the next turn sheet, the
intake's replies) is read back and checked by the engine's audit (`refassist.playeraudit`):

* a player a step did not wait for is never told that no sheet came, nor listed as missing
  in the referee's report; a player it waited for who sent nothing is told;
* every cover says what is really awaited, and what was resolved;
* no text holds a program's representation of an object (the golden games' events too);
* nothing tells a player what the game's fog of war hides from that player (each game's
  `Ruleset.hidden_from`), and the referee's report, which sees everything, shows the audit
  has teeth;
* no seed of a step whose dice drew a secret reaches a player before the secret is public,
  and no number a player received replays such a step's draw.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from refassist.playeraudit import (
    audit,
    pdf_pages,
    pdf_text,
    program_text,
    sealed_seeds,
    step_files,
    told_secrets,
)
from refassist.report.game_reports import gather_input, resolved_step
from refassist.rulesets import find_ruleset
from refassist.store.game import Game
from refassist.text.i18n import words_for
from refassist.turns import manifest
from tests.audit_games import GAMES, played
from tests.golden_game import GOLDEN_DIRS

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=sorted(GAMES))
def game(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Game:
    # The workers' common temporary folder: each game is played once per session.
    root = tmp_path_factory.getbasetemp().parent / "audit-games"
    root.mkdir(exist_ok=True)
    return played(str(request.param), root)


def _said(game: Game, player: str, msgid: str) -> str:
    """The longest fixed part of a sentence as ``player`` reads it (between its fields,
    without its markup)."""
    words = words_for(game.language_of(player), game.ruleset.package)
    plain = re.sub(r"<[^>]+>", "", words.gettext(msgid))
    longest = max((part.strip() for part in re.split(r"%\([a-z_]+\)s|\{[a-z_]+\}", plain)), key=len)
    return " ".join(longest.split())  # as the page's text is read: French no-break spaces too


#: The sentences, in every game and language, that tell a player no sheet of theirs came.
NONE_CAME = (
    "No orders were received from you",
    "No sheet was received from you",
    "No orders were received from you.",
    "No sheet was received from you for your last step: your fleets stood where they were.",
)


def _reports(game: Game) -> list[tuple[str, str, Path]]:
    """(outbox step, player, report) for every player's report the game wrote."""
    out = []
    for folder in sorted((game.path / "outbox").iterdir()):
        for pdf in sorted(folder.glob("*.pdf")):
            if pdf.stem != "referee":
                out.append((folder.name, pdf.stem, pdf))
    return out


def test_a_player_not_due_is_never_told_that_no_sheet_came(game: Game) -> None:
    told = {p.name: [_said(game, p.name, s) for s in NONE_CAME] for p in game.config.players}
    seen = {"not due": 0, "missing": 0}
    for step, player, pdf in _reports(game):
        resolved = resolved_step(game, step)
        if not resolved:
            continue
        due = player in manifest(game, resolved)["expects"]
        sent = player in manifest(game, resolved)["with_orders"]
        text = " ".join(pdf_text(pdf).split())
        says_none_came = any(t in text for t in told[player])
        if not due:
            seen["not due"] += 1
            assert not says_none_came, f"{pdf}: {player} was not due a sheet for {resolved}"
        elif not sent:
            seen["missing"] += 1
            assert says_none_came, f"{pdf}: {player} sent nothing for {resolved}, not told"
    if game.ruleset.name in ("fifth-millennium", "imperium-3m"):
        assert seen["missing"] and not seen["not due"]  # every step waits for everyone
    else:
        assert seen["missing"] and seen["not due"]


def test_the_referee_lists_as_missing_only_those_a_step_waited_for(game: Game) -> None:
    state = game.load_state()
    info = gather_input(game, state, game.ruleset.players(state))
    expects = set(manifest(game, info.step)["expects"])
    for player, status in info.sheets.items():
        assert (status == "not due") == (player not in expects), (player, status)
    assert "missing" not in {info.sheets[p] for p in info.sheets if p not in expects}


def test_every_cover_says_what_is_awaited_and_what_was_resolved(game: Game) -> None:
    """The first page of every report: what was resolved (never an empty name) and what is
    awaited, true for its reader: the reader's own sheet, the referee's table, or another
    player's sheet, by the step's expectations (as archived, or the game's current step)."""
    current = game.step(game.load_state())
    for step, player, pdf in _reports(game):
        cover = " ".join(pdf_pages(pdf)[0].split())
        assert "Results of ." not in cover and "Results of  " not in cover
        if (game.archive(step) / "manifest.json").is_file():
            recorded = manifest(game, step)
            waits_for, referee = set(recorded["expects"]), recorded["waits_for_referee"]
        else:
            assert step == current.key
            waits_for, referee = set(current.expects), current.waits_for_referee
        if game.ruleset.name == "millenium":
            mine = _said(game, player, "Your sheet is next (deadline: %(deadline)s).")
            table = _said(
                game,
                player,
                "The game turn waits for the battles on the referee's table; you have "
                "nothing to send.",
            )
            assert (mine in cover) == (player in waits_for), (pdf, cover[:300])
            assert (table in cover) == referee, (pdf, cover[:300])
            continue
        if player in waits_for:
            assert "your orders are due" in cover, (pdf, cover[:300])
        else:
            assert "you have nothing to send" in cover, (pdf, cover[:300])
            assert "Orders for" not in cover and "orders are due" not in cover
            assert ("settled by the referee" in cover) == referee, (pdf, cover[:300])


def test_no_page_holds_program_text(game: Game) -> None:
    findings = [f for files in step_files(game) for r in files.received for f in program_text(r)]
    assert not findings, "\n".join(map(str, findings[:20]))


@pytest.mark.parametrize("name", sorted(GOLDEN_DIRS))
def test_no_golden_event_holds_program_text(name: str) -> None:
    """Every event text of every golden game, as its players read it."""
    from refassist.playeraudit import PROGRAM_TEXT

    bad = []
    for path in sorted(GOLDEN_DIRS[name].glob("*.json")):
        for event in json.loads(path.read_text(encoding="utf-8")).get("events", []):
            for m in PROGRAM_TEXT.finditer(str(event.get("text", ""))):
                bad.append(f"{path.name}: {m.group(0)!r} in {event['text'][:160]}")
    assert not bad, "\n".join(bad[:20])


def test_nothing_tells_a_player_what_the_rules_hide(game: Game) -> None:
    findings = [f for f in audit(game) if not f.problem.startswith("program text")]
    assert not findings, "\n".join(map(str, findings[:20]))


def test_the_audit_has_teeth_the_referees_report_tells_secrets(game: Game) -> None:
    """The referee sees everything: run on the referee's last report, the audit finds some
    player's secrets, so an empty finding above means something."""
    state = game.load_state()
    step = game.step(state).key
    referee = game.outbox(step) / "referee.pdf"
    assert referee.is_file()
    text = pdf_text(referee)
    rules = game.config.house_rules
    from refassist.playeraudit import Received

    found = [
        f
        for p in game.ruleset.players(state)
        for f in told_secrets(
            Received(step, p, "report", referee, text), game.ruleset.hidden_from(state, p, rules)
        )
    ]
    assert found, f"no secret of any player is in the referee's report of {step}"


def test_the_public_page_holds_no_withheld_seed_nor_program_text(
    game: Game, tmp_path: Path
) -> None:
    """The players' public page (`refassist archive --public`) is read by every player: no
    seed the reports withhold, no program text.  (What its announcements may tell, each in
    its own turn, is audited by tests/test_archive_site.py.)"""
    import html

    from refassist.archive.public import write_public
    from refassist.playeraudit import Received
    from refassist.rulesets.base import Secret
    from refassist.turns import secrets_public

    page = write_public(game, tmp_path / "public")
    text = html.unescape(re.sub(r"<[^>]+>", "\n", page.read_text(encoding="utf-8")))
    state = game.load_state()
    withheld = [
        Secret.phrase(seed, f"the seed of {step}")
        for step, (seed, names) in sealed_seeds(game).items()
        if not secrets_public(game, state, names)
    ]
    received = Received(game.step(state).key, "everyone", "public page", page, text)
    findings = told_secrets(received, withheld) + program_text(received)
    assert not findings, "\n".join(map(str, findings[:20]))


def _numbers(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\b\d{6,20}\b", text)}


def test_no_seed_a_player_received_replays_a_secret_draw(game: Game, tmp_path: Path) -> None:
    """Every number any player received at any point, tried as the seed of each step whose
    dice drew a secret: none gives that step's dice, while its real seed does (so a player
    who had it would recompute the deal)."""
    sealed = sealed_seeds(game)
    # The games whose audit game draws secrets with the dice: Millenium's blank set-ups (the
    # deal, the imperial planet, the programme), the campaign's rolls told to one commander
    # (ships turning crack after a battle).  The others draw none (their dice decide what
    # every player concerned is told).
    assert bool(sealed) == (game.ruleset.name in DRAWS_SECRETS), sorted(sealed)
    received: set[int] = set()
    for files in step_files(game):
        for r in files.received:
            received |= _numbers(r.text)
    from refassist.archive.public import write_public

    received |= _numbers(write_public(game, tmp_path / "public").read_text(encoding="utf-8"))
    for step, (seed, _names) in sealed.items():
        rolls = _sealed_rolls(game, step)
        assert rolls and _first_rolls(int(seed), rolls) == [r for _, r in rolls]
        for number in received:
            assert _first_rolls(number, rolls) != [r for _, r in rolls], (step, number)


#: The rulesets whose audit game's dice draw secrets (`Dice.draws_secret`).
DRAWS_SECRETS = {"millenium", "full-thrust-campaign"}


def _sealed_rolls(game: Game, step: str) -> list[tuple[int, int]]:
    """(sides, result) of the rolls a step made, from the master that followed it."""
    from refassist.workbook.master import read_master

    after = sorted(
        (p for p in (game.path / "archive").iterdir() if p.is_dir()),
        key=lambda p: json.loads((p / "manifest.json").read_text())["sequence"],
    )
    names = [p.name for p in after]
    following = names.index(step) + 1
    master = (
        game.path / "archive" / names[following] / "master.xlsx"
        if following < len(names)
        else game.master_path
    )
    state: Any = read_master(master, game.ruleset)
    return [(r.sides, r.result) for r in state.dice]


def _first_rolls(seed: int, rolls: list[tuple[int, int]]) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, sides) for sides, _ in rolls]


def test_a_sealed_steps_reports_say_its_seed_is_withheld(game: Game) -> None:
    """The report after a step whose dice drew a secret says the seed is withheld until the
    secret is public, and prints the commitment; the referee's `verify` still replays the
    step (its seed is in the archive)."""
    sealed = sealed_seeds(game)
    withheld = "so their seed is withheld until that is public"
    after = [r for r in _reports(game) if resolved_step(game, r[0]) in sealed]
    assert bool(after) == bool(sealed)
    for _, player, pdf in after:
        text = " ".join(pdf_text(pdf).split())
        assert _said(game, player, DICE_WITHHELD) in text, pdf
        assert withheld in DICE_WITHHELD


#: The dice note of a step whose seed is withheld (templates/base/dice.html).
DICE_WITHHELD = (
    "<b>Dice of %(step)s:</b> they drew what the rules keep secret, so their seed is withheld "
    "until that is public (at the latest when the game ends); the commitment published before "
    "the deadline was %(commitment)s."
)


def test_the_ruleset_declares_its_fog_for_the_audit() -> None:
    """Every game says what it hides (an engine audit of five games, not five audits)."""
    for name in GAMES:
        assert callable(find_ruleset(name).game_function("visibility", "hidden_from"))
