"""The archive site and the public page, on a real game played through the CLI.

A three-player Fifth Millennium demo game of three turns and a two-turn Imperium war are
played once per module; the tests read what `refassist report` (run by the demo each turn)
and `refassist archive` wrote: every link of every page resolves to a file, each resolved
turn has its page, its map image and its dice, the standings chart is there (and in the
referee's PDF, not in a player's), and the public page tells nothing private (its own audit,
which a planted leak shows can fail).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import re
import shutil
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from markupsafe import escape
from PIL import Image
from pypdf import PdfReader

from refassist.archive import mapimage
from refassist.archive.chart import standings_svg
from refassist.archive.history import read_history, resolved_steps
from refassist.archive.public import write_public
from refassist.archive.site import map_image_name, page_name, write_site
from refassist.cli import main
from refassist.store.game import Game
from refassist.store.turn_seed import game_turn_seed, turn_of
from refassist.text.i18n import again, words_for
from refassist.workbook.master import read_master

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: CI installs Debian's Chromium (scripts/test) and requires the browser test to run.
needs_browser = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI_REQUIRE_BROWSER"),
    reason="Debian's chromium is not installed (scripts/test installs it)",
)
MOVE = re.compile(r"\b5\d{3} - F\d+ S\d+ A\d+\(Fs\d+ Ms\d+ K\d+(?: SF\d+)?\) - \d{4} - \d{4}")


class _Refs(HTMLParser):
    """Every link and loaded resource of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.refs.extend(v for k, v in attrs if k in ("href", "src") and v)


def refs_of(path: Path) -> list[str]:
    parser = _Refs()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.refs


def played(factory: pytest.TempPathFactory, name: str, *options: str) -> Game:
    """A demo game played through the CLI (its reports, and so its site, written each turn)."""
    folder = factory.mktemp("site") / name
    result = CliRunner().invoke(main, ["demo", str(folder), *options])
    assert result.exit_code == 0, result.output
    return Game.open(folder)


@pytest.fixture(scope="module")
def fm_game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return played(tmp_path_factory, "fm", "--players", "3", "--turns", "3", "--seed", "11")


@pytest.fixture(scope="module")
def war_game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return played(tmp_path_factory, "war", "--ruleset", "imperium-3m", "--turns", "2")


def test_every_resolved_turn_has_its_page_map_and_dice(fm_game: Game) -> None:
    site = fm_game.path / "archive"
    steps = resolved_steps(fm_game)
    assert steps == ["5001", "5002", "5003"]
    for step in steps:
        html = (site / page_name(step)).read_text(encoding="utf-8")
        manifest = json.loads((fm_game.archive(step) / "manifest.json").read_text())
        assert f"results of {manifest['label']}" in html
        # The seed revealed with the results is the one committed to before the deadline.
        seed = re.search(r"Seed, revealed with the results: <span class=\"code\">(\d+)<", html)
        commitment = re.search(r"before the deadline: <span class=\"code\">([0-9a-f]{64})<", html)
        assert seed and commitment
        assert hashlib.sha256(seed.group(1).encode()).hexdigest() == commitment.group(1)
        assert commitment.group(1) == manifest["seed_commitment"]
        # The map page of the referee's report with these results, as an image.
        image = Image.open(site / map_image_name(step))
        assert image.format == "PNG" and image.width > 1000 and image.height > image.width
        assert f'src="{map_image_name(step)}"' in html
    # The next turn's orders follow each turn's results, never a bare year.
    last = (site / page_name("5003")).read_text(encoding="utf-8")
    assert "Then: orders for Year 5004." in last
    assert "<b>5003</b>" not in (site / "index.html").read_text(encoding="utf-8")


def test_every_link_of_the_site_resolves_to_a_file_in_the_game(fm_game: Game) -> None:
    site = fm_game.path / "archive"
    pages = [site / "index.html"] + [site / page_name(s) for s in resolved_steps(fm_game)]
    targets: set[Path] = set()
    for page in pages:
        for ref in refs_of(page):
            assert "://" not in ref and not ref.startswith("/"), ref
            target = (page.parent / ref).resolve()
            assert target.is_file(), f"{page.name} links {ref}, which does not exist"
            assert fm_game.path.resolve() in target.parents
            targets.add(target)
    # Every report, sheet and archived input of the game is linked from somewhere.
    for pdf in (fm_game.path / "outbox").rglob("*.pdf"):
        assert pdf.resolve() in targets, pdf
    for kept in (fm_game.path / "archive").glob("*/sheets/*.xlsx"):
        assert kept.resolve() in targets, kept
    for reply in (fm_game.path / "outbox").glob("*/replies/*.eml"):
        assert reply.resolve() in targets, reply


def test_the_index_charts_the_standings_in_the_games_measure(fm_game: Game) -> None:
    html = (fm_game.path / "archive" / "index.html").read_text(encoding="utf-8")
    svg = re.search(r'<svg class="standings-chart".*?</svg>', html, re.S)
    assert svg, "no standings chart"
    chart = svg.group(0)
    assert "systems owned" in chart
    state = fm_game.load_state()
    owned = {p: 0 for p in state.player_names()}
    for system in state.systems:
        if system.owner:
            owned[system.owner] += 1
    for player, count in owned.items():
        assert f"{player}: {count}</text>" in chart  # the legend gives the latest score
    # One line per player over the start and the three turns.
    assert chart.count("<polyline") == 3
    assert all(len(p.split()) == 4 for p in re.findall(r'points="([^"]+)"', chart))


def test_the_referees_report_ends_with_the_chart_and_a_players_does_not(fm_game: Game) -> None:
    folder = fm_game.outbox("5004")
    referee = PdfReader(folder / "referee.pdf")
    last = referee.pages[-1].extract_text()
    assert "Standings over the game" in last and "systems owned" in last
    for player in fm_game.ruleset.players(fm_game.load_state()):
        assert player in last
        text = " ".join(p.extract_text() for p in PdfReader(folder / f"{player}.pdf").pages)
        assert "Standings over the game" not in text


def public_leaks(html: str, game: Game) -> list[str]:
    """Every way the public page tells what the rules keep from some player (empty: none)."""
    found = []
    if re.search(r"<a\b|href=|src=|<img|<link|<script|url\(", html, re.I):
        found.append("the page links or loads something")
    told = set()
    hidden = set()
    steps = resolved_steps(game)
    masters = [game.archive(s) / "master.xlsx" for s in steps[1:]] + [game.master_path]
    for master in masters:
        state = read_master(master, game.ruleset)
        for e in game.ruleset.events_of(state):
            (told if "*" in e.visible_to else hidden).add(e.text)
    for text in hidden - told:
        if text in html:
            found.append(f"a private event: {text!r}")
    for step in steps:
        manifest = json.loads((game.archive(step) / "manifest.json").read_text())
        for player, lines in manifest.get("orders_understood", {}).items():
            found.extend(f"{player}'s order {line!r}" for line in lines if line in html)
    found.extend(f"a move: {m}" for m in MOVE.findall(html))
    for player in game.config.players:
        if player.email in html:
            found.append(f"{player.name}'s address")
    if game.config.secret in html:
        found.append("the game's secret")
    state = game.load_state()
    upcoming = game_turn_seed(game.config, turn_of(game, game.step(state)))
    if str(upcoming) in html:
        found.append("the seed of the turn not yet played")
    return found


def test_the_public_page_tells_only_what_is_public(fm_game: Game, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["archive", str(fm_game.path), "--public", str(tmp_path / "public")]
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "public").iterdir()) == ["index.html"]
    html = (tmp_path / "public" / "index.html").read_text(encoding="utf-8")
    assert public_leaks(html, fm_game) == []
    history = read_history(fm_game)
    # What it does tell: who plays, the dice of every turn, every public announcement.
    for player in fm_game.ruleset.players(fm_game.load_state()):
        assert player in html
    for turn in history.turns:
        assert turn.dice["commitment"] in html and turn.dice["seed"] in html
        for e in turn.after.events if turn.after else []:
            if e.public:
                assert e.text in html
    assert history.next_commitment in html
    # Fifth Millennium does not publish the standings (what each empire owns is private).
    assert "<svg" not in html


def test_the_public_audit_catches_a_leak(fm_game: Game) -> None:
    history = read_history(fm_game)
    private = next(e for t in history.turns for e in t.after.events if not e.public)  # type: ignore[union-attr]
    manifest = json.loads((fm_game.archive("5002") / "manifest.json").read_text())
    order = next(line for lines in manifest["orders_understood"].values() for line in lines)
    leaky = f"<p>{private.text}</p><p>{order}</p><a href='../fm/master.xlsx'>x</a>"
    found = public_leaks(leaky, fm_game)
    assert any("private event" in f for f in found)
    assert any("order" in f for f in found)
    assert any("links" in f for f in found)


def test_a_game_that_publishes_its_standings_charts_them_publicly(
    war_game: Game, tmp_path: Path
) -> None:
    path = write_public(war_game, tmp_path / "public")
    html = path.read_text(encoding="utf-8")
    assert '<svg class="standings-chart"' in html and "glory index" in html
    assert public_leaks(html, war_game) == []
    # The referee's site charts the same track; its turn pages show the map.
    site = war_game.path / "archive"
    assert "glory index" in (site / "index.html").read_text(encoding="utf-8")
    for step in resolved_steps(war_game):
        assert (site / map_image_name(step)).is_file()


def test_the_public_page_is_never_written_over_the_private_site(fm_game: Game) -> None:
    before = (fm_game.path / "archive" / "index.html").read_bytes()
    for target in (fm_game.path / "archive", fm_game.path, fm_game.path / "archive" / "pub"):
        result = CliRunner().invoke(main, ["archive", str(fm_game.path), "--public", str(target)])
        assert result.exit_code == 2 and "folder of its own" in result.output
    assert (fm_game.path / "archive" / "index.html").read_bytes() == before
    assert not (fm_game.path / "archive" / "pub").exists()


def test_a_broken_archived_master_leaves_a_gap_not_a_crash(fm_game: Game, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(fm_game.path, copy, ignore=shutil.ignore_patterns(".refassist.lock"))
    (copy / "archive" / "5003" / "master.xlsx").write_bytes(b"not a workbook")
    result = CliRunner().invoke(main, ["archive", str(copy)])
    assert result.exit_code == 0, result.output
    assert "warning: results of 5002:" in result.output
    html = (copy / "archive" / page_name("5002")).read_text(encoding="utf-8")
    assert 'class="warn"' in html and "could not be read" in html
    history = read_history(Game.open(copy))
    # The chart skips the turn it cannot read: start, 5001 and 5003.
    assert [label for label, _ in history.chart_points()] == ["start", "5001", "5003"]


def test_a_rolled_back_turn_leaves_the_site(fm_game: Game, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(fm_game.path, copy, ignore=shutil.ignore_patterns(".refassist.lock"))
    result = CliRunner().invoke(main, ["rollback", str(copy), "--to", "5003"])
    assert result.exit_code == 0, result.output
    assert "archive site:" in result.output
    assert not (copy / "archive" / page_name("5003")).exists()
    assert not (copy / "archive" / map_image_name("5003")).exists()
    assert (copy / "archive" / page_name("5002")).is_file()
    assert "results of Year 5003" not in (copy / "archive" / "index.html").read_text()


def test_the_chart_escapes_names_and_tells_many_lines_apart() -> None:
    assert standings_svg([], "points") == ""
    names = [f"<b>P{i}</b>" for i in range(10)]
    svg = standings_svg(
        [("start", dict.fromkeys(names, 0)), ("1", {n: i for i, n in enumerate(names)})],
        "points & more",
    )
    assert "<b>" not in svg and "&lt;b&gt;P9&lt;/b&gt;: 9" in svg and "points &amp; more" in svg
    # Past the eighth colour, lines are dashed as well.
    assert svg.count("<polyline") == 10 and svg.count('stroke-dasharray="7 4"') == 4
    # The axis reaches the top score on a whole step.
    assert re.search(r">10</text>", svg)
    one = standings_svg([("start", {"Glory index": 5})], "glory index")
    assert "<polyline" not in one and "<circle" in one and "Glory index: 5" in one


@needs_browser
def test_the_site_in_a_real_browser(fm_game: Game) -> None:
    """Headless Chromium opens the index and a turn page from the file system: the chart and
    the map are drawn, every link names a file that exists, nothing is fetched from outside
    the archive folder; screenshots are kept in test-artifacts/ (or $REFASSIST_ARTIFACTS)."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM is not None, "CI_REQUIRE_BROWSER is set but chromium is not installed"
    site = fm_game.path / "archive"
    artifacts = Path(os.environ.get("REFASSIST_ARTIFACTS") or ROOT / "test-artifacts")
    artifacts.mkdir(parents=True, exist_ok=True)
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            # As root in a container Chromium needs --no-sandbox; the rest keep it from
            # calling home (updates, sync) on a closed network.
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.on("request", lambda r: requests.append(r.url))
            page.goto((site / "index.html").as_uri(), wait_until="load")
            assert page.locator("h1").inner_text() == f"{fm_game.config.name}: the whole game"
            chart = page.locator("svg.standings-chart")
            assert chart.is_visible() and chart.bounding_box()["width"] > 500  # type: ignore[index]
            assert page.locator("svg.standings-chart polyline").count() == 3
            links = page.locator("a").evaluate_all("els => els.map(e => e.href)")
            assert links and all(u.startswith("file://") for u in links)
            for url in links:
                target = Path(url.removeprefix("file://").replace("%20", " "))
                assert target.is_file(), url
            page.screenshot(path=str(artifacts / "archive-index.png"), full_page=True)
            page.get_by_role("link", name="results of Year 5003").click()
            page.wait_for_load_state("load")
            assert page.url.endswith(page_name("5003"))
            width = page.eval_on_selector("img.map", "img => img.naturalWidth")
            assert width > 1000, "the map image did not load"
            assert "What happened" in page.content()
            page.screenshot(path=str(artifacts / "archive-turn.png"), full_page=True)
        finally:
            browser.close()
    outside = [u for u in requests if not u.startswith(site.as_uri() + "/")]
    assert not outside, f"requests outside the archive folder: {outside}"
    assert {u.rsplit("/", 1)[-1] for u in requests} >= {
        "index.html",
        page_name("5003"),
        map_image_name("5003"),
    }
    assert Image.open(artifacts / "archive-index.png").height > 900


def test_a_damaged_report_leaves_its_turn_without_a_map(fm_game: Game, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(fm_game.path, copy, ignore=shutil.ignore_patterns(".refassist.lock"))
    (copy / "outbox" / "5004" / "referee.pdf").write_bytes(b"%PDF-1.7 not really")
    (copy / "archive" / map_image_name("5003")).unlink()
    result = CliRunner().invoke(main, ["archive", str(copy)])
    assert result.exit_code == 0, result.output
    html = (copy / "archive" / page_name("5003")).read_text(encoding="utf-8")
    assert "No map page" in html and "<img" not in html
    assert (copy / "archive" / map_image_name("5002")).is_file()
    # The child process that rasterises says which images it could not make.
    assert mapimage.main([str(copy / "outbox" / "5004" / "referee.pdf"), str(tmp_path / "x.png")])
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("fork", [True, False], ids=["forked child", "new interpreter"])
def test_a_map_image_is_made_in_a_child_process_either_way(
    fm_game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fork: bool
) -> None:
    """The map image is made outside the report run's process: a fork of it where processes
    fork, else a new interpreter (Windows, macOS); the same picture either way, and a damaged
    report gives none."""
    if not fork:
        monkeypatch.setattr(mapimage.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    pdf = fm_game.path / "outbox" / "5004" / "referee.pdf"
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(b"%PDF-1.7 not really")
    png, none = tmp_path / "map.png", tmp_path / "none.png"
    assert mapimage.write_map_images([(pdf, png), (damaged, none)]) == {png}
    with Image.open(png) as image:
        assert image.width > 1000
    assert not none.exists()


@pytest.mark.parametrize("fork", [True, False], ids=["forked child", "new interpreter"])
def test_a_map_image_started_early_is_waited_for_and_not_made_twice(
    fm_game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fork: bool
) -> None:
    """`report` starts the newest image as soon as the referee's report is written; the site
    waits for that child and makes only the images still missing, in a second child."""
    if not fork:
        monkeypatch.setattr(mapimage.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    early, later = tmp_path / "early.png", tmp_path / "later.png"
    pdf = fm_game.path / "outbox" / "5004" / "referee.pdf"
    started = mapimage.ImageChild([(pdf, early)])
    children: list[list[tuple[Path, Path]]] = []
    real = mapimage.ImageChild

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self, pairs: list[tuple[Path, Path]]) -> None:
            children.append(list(pairs))
            super().__init__(pairs)

    monkeypatch.setattr(mapimage, "ImageChild", Counted)
    made = mapimage.write_map_images([(pdf, early), (pdf, later)], started)
    assert made == {early, later}
    assert children == [[(pdf, later)]]  # the early image was fresh once waited for
    assert early.stat().st_size > 10_000


@pytest.mark.parametrize("fork", [True, False], ids=["forked child", "new interpreter"])
def test_a_held_map_image_waits_for_its_report_and_a_cancelled_one_is_never_made(
    fm_game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fork: bool
) -> None:
    """`report` starts the image's child with the stage, held: it makes nothing until the
    referee's report is written (`release`), and nothing at all when the reports fail
    (`cancel`), so no child is left waiting."""
    if not fork:
        monkeypatch.setattr(mapimage.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    pdf = fm_game.path / "outbox" / "5004" / "referee.pdf"
    held, cancelled = tmp_path / "held.png", tmp_path / "cancelled.png"
    child = mapimage.ImageChild([(pdf, held)], held=True)
    other = mapimage.ImageChild([(pdf, cancelled)], held=True)
    time.sleep(1.0)  # time enough to make an image, were the child not held
    assert not held.exists() and not cancelled.exists()
    other.cancel()
    child.release()
    child.wait()
    assert held.stat().st_size > 10_000
    assert not cancelled.exists()
    assert not multiprocessing.active_children()


def test_a_map_image_that_fails_in_its_child_is_missing_and_prints_nothing(
    fm_game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture
) -> None:
    """An unexpected error while the forked child makes an image: the image is missing (the
    site says so), the run goes on, and no traceback reaches the referee's terminal."""

    def broken(pdf: Path, png: Path) -> bool:
        raise RuntimeError("PDFium fell over")

    monkeypatch.setattr(mapimage, "rasterise", broken)
    pdf = fm_game.path / "outbox" / "5004" / "referee.pdf"
    assert mapimage.write_map_images([(pdf, tmp_path / "map.png")]) == set()
    assert "Traceback" not in capfd.readouterr().err


def test_the_public_page_speaks_the_games_language(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Millenium is played in French: its players' page says its words and its
    announcements in French (the referee's site stays in English, as the command line)."""
    game = played(tmp_path_factory, "mil", "--ruleset", "millenium", "--turns", "2")
    html = write_public(game, tmp_path_factory.mktemp("pub") / "public").read_text("utf-8")
    assert '<html lang="fr">' in html and "Dans la partie :" in html
    assert "Aucune annonce publique." in html or "<li>" in html
    history = read_history(game)
    words = words_for("fr", game.ruleset.package)
    announced = [e for t in history.turns if t.after for e in t.after.events if e.public]
    assert announced, "the set-ups announce where the fleets stand"
    for e in announced:
        french = again(e.text, words, e.say)
        assert french != e.text and str(escape(french)) in html
    assert public_leaks(html, game) == []
    assert "Now</h2>" in (game.path / "archive" / "index.html").read_text(encoding="utf-8")


def test_a_damaged_archived_setting_leaves_its_dice_unsaid(fm_game: Game, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(fm_game.path, copy, ignore=shutil.ignore_patterns(".refassist.lock"))
    (copy / "archive" / "5002" / "game.toml").write_text("[game\nbroken", encoding="utf-8")
    result = CliRunner().invoke(main, ["archive", str(copy), "--public", str(tmp_path / "pub")])
    assert result.exit_code == 0, result.output
    html = (copy / "archive" / page_name("5002")).read_text(encoding="utf-8")
    assert "No record of the dice." in html and "results of Year 5002" in html
    assert "Seed, revealed" in (copy / "archive" / page_name("5003")).read_text(encoding="utf-8")


def test_every_archived_master_is_read_once_at_most(
    fm_game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The demo wrote reports every turn: each master was remembered while it was the current
    one, so reading the history again reads none of them (resolve archives the same bytes)."""
    copy = tmp_path / "copy"
    shutil.copytree(fm_game.path, copy, ignore=shutil.ignore_patterns(".refassist.lock"))
    game = Game.open(copy)

    def refuse(*args: object) -> None:
        raise AssertionError("an archived master was read again")

    monkeypatch.setattr("refassist.archive.history.read_master", refuse)
    history = read_history(game, game.load_state())
    assert [t.step for t in history.turns] == ["5001", "5002", "5003"]
    assert all(t.after is not None for t in history.turns)
    # The master now current is remembered for the turn that will archive it.
    cache = json.loads((copy / "archive" / ".site-cache.json").read_text())
    assert hashlib.sha256(game.master_path.read_bytes()).hexdigest() in cache["masters"]


def test_a_second_run_of_the_site_parses_no_archived_setting_and_rewrites_no_turn_page(
    fm_game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each report run writes the site again: a turn's page unchanged since the last run is
    left as it is, and its dice come from the site's cache, not from its archived game.toml
    parsed again; a page whose turn gained a file is written."""
    copy = tmp_path / "copy"
    shutil.copytree(fm_game.path, copy, ignore=shutil.ignore_patterns(".refassist.lock"))
    game = Game.open(copy)
    site = copy / "archive"
    write_site(game)
    pages = {step: site / page_name(step) for step in ("5001", "5002", "5003")}
    first = {step: (p.read_bytes(), p.stat().st_ino) for step, p in pages.items()}
    index = (site / "index.html").stat().st_ino

    def refuse(*args: object) -> None:
        raise AssertionError("an archived game.toml was parsed again")

    monkeypatch.setattr("refassist.turns.load_config", refuse)
    write_site(game)
    assert {step: (p.read_bytes(), p.stat().st_ino) for step, p in pages.items()} == first
    assert "Seed, revealed" in first["5002"][0].decode("utf-8")
    assert (site / "index.html").stat().st_ino != index  # the index is always written
    monkeypatch.undo()

    # A reply to a sheet of 5002 is linked from that turn's page, which alone is written.
    replies = game.outbox("5002") / "replies"
    replies.mkdir(parents=True, exist_ok=True)
    (replies / "Reply-Ann.eml").write_bytes(b"Subject: your sheet\n\nok\n")
    write_site(game)
    assert "Reply-Ann.eml" in pages["5002"].read_text(encoding="utf-8")
    assert pages["5002"].stat().st_ino != first["5002"][1]
    assert pages["5001"].stat().st_ino == first["5001"][1]
    assert pages["5003"].stat().st_ino == first["5003"][1]
