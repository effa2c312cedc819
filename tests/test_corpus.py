"""The hostile-input corpus (``tests/corpus/make_corpus.py``) against the real command line.

Every case runs ``refassist`` in a subprocess with an address-space limit and a timeout, the way
a referee runs it: the exit code must be the documented one, the answer one clear message naming
what is wrong (never a traceback), the game folder unchanged (every file hashed before and
after), and the process must stay within generous safety bounds of time and memory (these catch
a missing defence, which costs minutes and gigabytes, not a slow machine).

Then the same corpus goes through the intake in one run, and through resolve: a hostile file
that reached ``inbox/<step>/accepted/`` (by hand, or an older refassist) is checked again and
cancelled, never read as orders.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from refassist.store.game import Game
from refassist.store.inbox_index import Index
from refassist.turns import Filed, read_filed, resolve_game
from refassist.workbook.master import read_master
from tests.corpus import make_corpus

REFASSIST = Path(sys.executable).with_name("refassist")
#: Safety bounds: far above what any case needs (about 0.5 s and 100 MB), far below what a
#: missing defence costs (a million cells took 7 s; a zip bomb gigabytes).
TIME_LIMIT = 30.0
RSS_LIMIT_MB = 500
ADDRESS_SPACE_LIMIT = 2 * 1024**3

CHECK_CASES = [c for c in make_corpus.CASES if c.command == "check"]
INTAKE_CASES = [c for c in make_corpus.CASES if c.command == "intake"]
#: Every sheet case with the game it is judged against: Fifth Millennium's game takes every
#: case, each other game the cases that hold for any game (``RULESET:case`` in the test ids).
JUDGED = [("fifth-millennium", c) for c in CHECK_CASES] + [
    (game, c) for game in make_corpus.OTHER_GAMES for c in CHECK_CASES if c.every_game
]


@dataclass
class Ran:
    code: int
    out: str
    err: str
    seconds: float
    max_rss_mb: float


def _limits() -> None:  # runs in the child before exec
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, ADDRESS_SPACE_LIMIT))


def run_bounded(*args: str, cwd: Path | None = None) -> Ran:
    """``refassist ARGS`` in a subprocess with an address-space limit and a timeout, with the
    child's own peak memory (from ``wait4``, so no other child of this worker counts)."""
    # One BLAS thread: numpy (imported by openpyxl) reserves address space per thread, which on
    # a many-core machine would count against the limit without ever being used.
    env = {
        **os.environ,
        "COLUMNS": "200",
        "PYTHONIOENCODING": "utf-8",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
    }
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        proc = subprocess.Popen(
            [str(REFASSIST), *args], stdout=out, stderr=err, preexec_fn=_limits, env=env, cwd=cwd
        )
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                proc.returncode = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() - started > TIME_LIMIT * 2:
                proc.kill()
                proc.wait()
                pytest.fail(f"refassist {' '.join(args)} ran for more than {TIME_LIMIT * 2} s")
            time.sleep(0.02)
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return Ran(
            proc.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            seconds,
            usage.ru_maxrss / 1024,
        )


def folder_hashes(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (relative path -> SHA-256)."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corpus")
    make_corpus.build(root)
    return root


def _entry(corpus: Path, ruleset: str, name: str) -> dict:
    """A case's line of the manifest: its files and its words (with the game's cells)."""
    manifest = json.loads((corpus / "cases.json").read_text(encoding="utf-8"))
    return next(e for e in manifest if e["ruleset"] == ruleset and e["name"] == name)


def _words_in(text: str, words: tuple[str, ...]) -> bool:
    folded = text.casefold()
    return all(w.casefold() in folded for w in words)


def test_the_corpus_is_large_and_covers_every_threat() -> None:
    assert len(make_corpus.CASES) >= 50
    threats = {c.threat for c in make_corpus.CASES}
    assert threats == {"format", "size", "xml", "macro", "cell", "identity", "structure", "mail"}
    assert len({c.name for c in make_corpus.CASES}) == len(make_corpus.CASES)


@pytest.mark.parametrize(
    ("ruleset", "case"),
    JUDGED,
    ids=[c.name if g == "fifth-millennium" else f"{g}:{c.name}" for g, c in JUDGED],
)
def test_check_answers_every_case_clearly_and_changes_nothing(
    corpus: Path, ruleset: str, case: make_corpus.Case
) -> None:
    entry = _entry(corpus, ruleset, case.name)
    game = corpus / entry["game"]
    sheet = corpus / entry["file"]
    words = tuple(entry["words"])
    before = folder_hashes(game)
    ran = run_bounded("check", str(sheet), "--game", str(game))
    after = folder_hashes(game)

    assert after == before, "the game folder changed"
    assert "Traceback" not in ran.out + ran.err
    assert ran.code == case.code, (ran.out, ran.err)
    if case.code == 2:
        lines = [line for line in ran.err.splitlines() if line.strip()]
        assert len(lines) == 1, ran.err
        assert lines[0].startswith(f"error: {sheet.name}"), lines[0]
        assert _words_in(lines[0].replace(sheet.name, ""), words), lines[0]
        assert ran.out == ""
    else:
        assert ran.err == ""
        if case.code == 1:
            problems = [line for line in ran.out.splitlines() if line.lstrip().startswith("ERROR")]
        else:
            problems = ran.out.splitlines()
        assert any(_words_in(line.replace(sheet.name, ""), words) for line in problems), ran.out
    assert ran.seconds < TIME_LIMIT, f"{ran.seconds:.1f} s"
    assert ran.max_rss_mb < RSS_LIMIT_MB, f"{ran.max_rss_mb:.0f} MB"


def _may_change(path: str, step: str) -> bool:
    """What an intake may write: the received copy, the index, the replies (and the lock)."""
    return path.startswith((f"inbox/{step}/received/", f"outbox/{step}/replies/")) or path in (
        f"inbox/{step}/index.json",
        ".refassist.lock",
    )


@pytest.mark.parametrize("case", INTAKE_CASES, ids=[c.name for c in INTAKE_CASES])
def test_intake_refuses_hostile_mail_and_files_nothing(
    corpus: Path, case: make_corpus.Case, tmp_path: Path
) -> None:
    game = tmp_path / "game"
    shutil.copytree(corpus / "game", game)
    step = Game.open(game).step(Game.open(game).load_state()).key
    before = folder_hashes(game)
    ran = run_bounded("intake", str(game), str(corpus / "cases" / f"{case.name}{case.suffix}"))
    after = folder_hashes(game)

    assert "Traceback" not in ran.out + ran.err
    assert ran.code == case.code == 1, (ran.out, ran.err)
    items = [line for line in ran.out.splitlines() if line.startswith("  ") and ":" in line]
    assert items and items[0].split()[0] == case.status, ran.out
    assert _words_in(items[0], case.words), items[0]
    assert not any(line.split()[0] == "accepted" for line in items)
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    assert all(_may_change(p, step) for p in changed), sorted(changed)
    assert not (game / "inbox" / step / "accepted").exists()
    assert ran.seconds < TIME_LIMIT and ran.max_rss_mb < RSS_LIMIT_MB


def test_the_whole_corpus_through_one_intake(corpus: Path, tmp_path: Path) -> None:
    """Every sheet of the corpus in one intake: each gets the status its check promised, and
    only genuine, valid sheets are filed."""
    game = tmp_path / "game"
    shutil.copytree(corpus / "game", game)
    step = "5002"
    files = [corpus / "cases" / f"{c.name}{c.suffix}" for c in CHECK_CASES]
    before = folder_hashes(game)
    ran = run_bounded("intake", str(game), *map(str, files))
    assert "Traceback" not in ran.out + ran.err
    assert ran.code == 1, ran.err
    index = json.loads((game / "inbox" / step / "index.json").read_text(encoding="utf-8"))
    status = {e["name"]: e["status"] for e in index["entries"]}
    for c in CHECK_CASES:
        got = status[f"{c.name}{c.suffix}"]
        expected = {"refused"} if c.code == 2 else {c.status, "superseded"}
        if c.name == "last-weeks-sheet":
            expected = {"refused"}  # a past turn's sheet is refused, not filed with problems
        assert got in expected, (c.name, got)
    after = folder_hashes(game)
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    # The accepted sheet, and what each sheet accepted in turn read as, kept for resolve
    # (`sheetstore`).
    filed = [e for e in index["entries"] if e["status"] in ("accepted", "superseded")]
    kept = {f".cache/reads/{e['sha256']}.read" for e in filed}
    # Ann's newest genuine sheet is filed under its format's ending (``.xlsx`` or ``.ods``).
    allowed = {f"inbox/{step}/accepted/Ann.xlsx", f"inbox/{step}/accepted/Ann.ods", *kept}
    assert all(_may_change(p, step) or p in allowed for p in changed), sorted(changed)
    assert after["master.xlsx"] == before["master.xlsx"]
    assert ran.seconds < 10 * TIME_LIMIT and ran.max_rss_mb < RSS_LIMIT_MB


def _file_as_accepted(game: Game, player: str, source: Path) -> Path:
    """Put ``source`` into ``accepted/`` as ``player``'s sheet, recorded with its own hash, as
    if an older refassist (or a hand) had filed it."""
    step = game.step(game.load_state()).key
    index = Index.of(game, step)
    target = index.folder / "accepted" / f"{player}.xlsx"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    sha = hashlib.sha256(target.read_bytes()).hexdigest()
    number = index.add(
        {
            "file": f"accepted/{target.name}",
            "name": source.name,
            "sha256": sha,
            "received": "2026-01-01T00:00:00+00:00",
            "player": player,
            "status": "accepted",
            "problems": [],
            "note": "",
            "source": {},
        }
    )
    index.accepted[player] = {
        "file": f"accepted/{target.name}",
        "entry": number,
        "received": "2026-01-01T00:00:00+00:00",
        "sha256": sha,
    }
    index.save()
    return target


def test_resolve_checks_filed_sheets_again(corpus: Path, tmp_path: Path) -> None:
    """Every hostile sheet, filed by hand as Ann's, is refused by the checks resolve makes."""
    game_path = tmp_path / "game"
    shutil.copytree(corpus / "game", game_path)
    game = Game.open(game_path)
    state, rules = game.load_state(), game.config.house_rules
    for c in CHECK_CASES:
        if c.code != 2:
            continue
        target = _file_as_accepted(game, "Ann", corpus / "cases" / f"{c.name}{c.suffix}")
        sha = hashlib.sha256(target.read_bytes()).hexdigest()
        got = read_filed(game, state, Filed("Ann", target, sha), "5002", rules, 5002)
        assert got.orders is None and len(got.cancelled) == 1, c.name
        reason = got.cancelled[0].data["reason"]
        assert "\n" not in reason and got.cancelled[0].visible_to == ("Ann",), (c.name, reason)
        # The identity check names the other game's rules rather than "does not know" them.
        words = ("tiddlywinks-3000",) if c.name == "meta-ruleset-changed" else c.words
        assert _words_in(reason.replace(target.name, ""), words), (c.name, reason)


def test_resolve_cancels_hostile_filed_sheets_and_completes(corpus: Path, tmp_path: Path) -> None:
    game_path = tmp_path / "game"
    shutil.copytree(corpus / "game", game_path)
    game = Game.open(game_path)
    cases = corpus / "cases"
    _file_as_accepted(game, "Ann", cases / "zip-bomb-300mb.xlsx")
    _file_as_accepted(game, "Bob", cases / "token-copied.xlsx")
    cleo = _file_as_accepted(game, "Cleo", game.outbox("5002") / "Cleo.xlsx")
    cleo.write_bytes((cases / "meta-player-changed.xlsx").read_bytes())  # swapped after filing
    outcome = resolve_game(game, force=True)
    assert outcome.with_orders == []
    state = read_master(game.master_path, game.ruleset)
    cancelled = {e.players[0]: e.text for e in state.events if e.kind == "order_cancelled"}
    assert "zip bomb" in cancelled["Ann"] or "unpacks to" in cancelled["Ann"]
    assert "signature does not match" in cancelled["Bob"]
    assert "changed after it was accepted" in cancelled["Cleo"]
    assert state.year == 5003


def test_reading_goes_through_defusedxml(corpus: Path) -> None:
    """Behind the early refusal of DTDs, the XML parser itself refuses entities: openpyxl
    uses defusedxml when it is installed (a dependency of refassist)."""
    import openpyxl

    from refassist.errors import NotATurnSheet
    from refassist.workbook.sheetio import load_workbook_bytes

    assert openpyxl.DEFUSEDXML
    for name in ("billion-laughs", "external-entity"):
        data = (corpus / "cases" / f"{name}.xlsx").read_bytes()
        with pytest.raises(NotATurnSheet, match="entity"):
            load_workbook_bytes(data, f"{name}.xlsx")  # skipping the container checks


def test_docs_security_md_names_only_tests_and_cases_that_exist() -> None:
    """Every test and corpus case docs/security.md cites exists, and every case is cited."""
    import re

    root = Path(__file__).resolve().parents[1]
    text = (root / "docs" / "security.md").read_text(encoding="utf-8")
    cited_cases = set(re.findall(r"`corpus\[([a-z0-9-]+)\]`", text))
    assert cited_cases == {c.name for c in make_corpus.CASES}
    cited_tests = re.findall(r"`(test_\w+\.py)(?:::(test_\w+)(?:\[\*\])?)?`", text)
    assert len(cited_tests) >= 20
    for file, name in cited_tests:
        source = (root / "tests" / file).read_text(encoding="utf-8")
        assert not name or f"def {name}(" in source, f"{file}::{name}"
