"""Players' and referee's PDF reports, read back with pypdf and pdfplumber.

The scenario (`report_game`) is built by hand on a real game folder so every line the reports
must show is known: a battle at one of Ann's systems with every die, a secret battle and a
secret message between Bob and Cleo, Ann's production ledger, cancelled orders, a fusion
attack announced to everyone, Ann's orders on an archived sheet, Cleo sending nothing.  The
state goes through the master workbook (save, then load) like a resolved turn does.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from refassist.dice import Roll
from refassist.drawings.mapmodel import owner_tags
from refassist.geometry.hexmap import SECTOR, distance, subsector_letter
from refassist.report.game_reports import write_reports
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import Event, PlayerSetup
from refassist.rulesets.fifth_millennium.orders import Move, Orders, Purchase
from refassist.rulesets.fifth_millennium.state import (
    Facility,
    Fleet,
    Flight,
    Force,
    Message,
    Relation,
    State,
)
from refassist.store.game import Game
from refassist.store.turnsheets import sheet_filename

YEAR = 5003
RESOLVED = 5002
SECRET_MESSAGE = "Bob, attack Ann at dawn - Cleo"
SECRET_BATTLE = "Cleo crushed Bob's raiders"


def _near(state: State, home: str, count: int, taken: set[str]) -> list[str]:
    found = sorted(
        (
            s
            for s in state.systems
            if not s.owner and s.hex not in taken and 0 < distance(s.hex, home) <= 3
        ),
        key=lambda s: (distance(s.hex, home), s.hex),
    )
    return [s.hex for s in found[:count]]


def build_scenario(game: Game) -> State:
    """A mid-game state for year 5003 with the events of 5002 (see the module docstring)."""
    state: State = game.load_state()
    state.year = YEAR
    ann, bob, cleo = (state.player(n) for n in ("Ann", "Bob", "Cleo"))
    assert ann and bob and cleo
    taken: set[str] = set()
    for p in (ann, bob, cleo):
        for hex_ in _near(state, p.homeworld, 2, taken):
            taken.add(hex_)
            system = state.system(hex_)
            assert system is not None
            system.owner, system.changes = p.name, 1
            state.forces.append(Force(hex=hex_, owner=p.name, fleet=Fleet(F=2, A=1)))
        p.tech_level, p.income_last, p.stockpile = 2, 31, 7
    a1, a2 = (s.hex for s in state.systems if s.owner == "Ann" and s.hex != ann.homeworld)
    b1 = next(s.hex for s in state.systems if s.owner == "Bob" and s.hex != bob.homeworld)
    state.facilities.append(Facility(hex=ann.homeworld, owner="Ann", kind="GL", count=2))
    state.flights += [
        Flight("Ann-5002-1", "Ann", ann.homeworld, a2, 5002, 5004, Fleet(F=4, S=2)),
        Flight("Bob-5002-1", "Bob", bob.homeworld, b1, 5002, 5005, Fleet(F=7, S=3)),
    ]
    state.relations.append(Relation("trade", "Ann", "Bob", 5001))
    state.messages += [
        Message(RESOLVED, "Bob", "Ann", "Peace between us? Bob"),
        Message(RESOLVED, "Cleo", "Bob", SECRET_MESSAGE),
    ]
    name = {s.hex: s.name for s in state.systems}
    both = ("Ann", "Bob")
    state.events = [
        Event(
            RESOLVED,
            "arrivals",
            a1,
            "arrival",
            f"Bob's fleet F6 S0 A1(Fs0 Ms0 K0) arrived at {a1} {name[a1]}.",
            players=("Bob",),
            visible_to=both,
            data={"owner": "Bob"},
        ),
        Event(
            RESOLVED,
            "conflict",
            a1,
            "battle",
            f"Ann held {a1} {name[a1]} against Bob.",
            players=both,
            visible_to=both,
            dice=(1, 2, 3, 4, 5, 6),
            data={
                "hex": a1,
                "name": name[a1],
                "sides": [
                    {"player": "Ann", "role": "defender", "forces": {"F": 9, "S": 2, "NB": 1}},
                    {"player": "Bob", "role": "attacker", "forces": {"F": 6, "A": 1, "K": 2}},
                ],
                "step0": [
                    {
                        "kind": "kkm",
                        "player": "Bob",
                        "rolls": [
                            {"die": 5, "target": "4-6", "kill": True},
                            {"die": 2, "target": "4-6", "kill": False},
                        ],
                        "kills": [{"player": "Ann", "unit": "GL", "count": 1}],
                    }
                ],
                "rounds": [
                    {
                        "round": 1,
                        "cv": {"Ann": 15, "Bob": 7},
                        "victor": "Ann",
                        "defeated": "Bob",
                        "attrition": False,
                        "rolls": [
                            {"player": "Bob", "unit": "F", "die": 6, "target": "5-6", "kill": True},
                            {
                                "player": "Bob",
                                "unit": "F",
                                "die": 3,
                                "target": "5-6",
                                "kill": False,
                            },
                            {"player": "Bob", "unit": "A", "die": 6, "target": "6", "kill": True},
                        ],
                        "kills": [{"player": "Ann", "unit": "S", "count": 2}],
                    }
                ],
                "outcome": {
                    "victor": "Ann",
                    "defeated": "Bob",
                    "held": True,
                    "captured": [],
                    "destroyed": [{"player": "Bob", "unit": "F", "count": 6}],
                },
            },
        ),
        Event(
            RESOLVED,
            "conflict",
            b1,
            "battle",
            f"{SECRET_BATTLE} at {b1}.",
            players=("Bob", "Cleo"),
            visible_to=("Bob", "Cleo"),
            data={},
        ),
        Event(
            RESOLVED,
            "conflict",
            "",
            "fusion_attack",
            "Fusion weapons were used in subsector P.",
            visible_to=("*",),
            data={"subsector": "P"},
        ),
        Event(
            RESOLVED,
            "departures",
            ann.homeworld,
            "order_cancelled",
            f"Your departure from {ann.homeworld} was cancelled.",
            players=("Ann",),
            visible_to=("Ann",),
            data={
                "order": f"5002 - F3 S0 A0(Fs0 Ms0 K0) - {ann.homeworld} - {a2} - 5004",
                "cell": "B14",
                "reason": "the fleet fought this turn and may not leave",
            },
        ),
        Event(
            RESOLVED,
            "production",
            "",
            "production",
            "Ann's production.",
            players=("Ann",),
            visible_to=("Ann",),
            data={
                "income": [
                    [f"{ann.homeworld} {name[ann.homeworld]}: class A", 5],
                    [f"{a1} {name[a1]}: class {state.system(a1).resource_class}", 3],
                    ["2 Genetics Labs", 2],
                ],
                "income_total": 31,
                "trade": [["with Bob", 6]],
                "purchases": [
                    {
                        "item": "F",
                        "name": "Fleet squadron",
                        "location": ann.homeworld,
                        "quantity": 3,
                        "cost": 6,
                        "status": "bought",
                    }
                ],
                "upkeep": [],
                "stockpile_before": 0,
                "stockpile_after": 7,
                "income_blocked": "",
            },
        ),
        Event(
            RESOLVED,
            "production",
            "",
            "purchase_cancelled",
            f"Your Spacedock at {a2} was cancelled.",
            players=("Ann",),
            visible_to=("Ann",),
            data={
                "item": "DOCK",
                "location": a2,
                "quantity": 1,
                "cost": 30,
                "reason": "30 points needed, 23 left",
                "cell": "C31",
            },
        ),
        Event(
            RESOLVED,
            "production",
            "",
            "trade",
            "Trade with Bob brought you 6 points.",
            players=both,
            visible_to=both,
            data={
                "partner": "Bob",
                "roll": [4, 5],
                "modifier": 0,
                "table_row": 9,
                "multiplier": "+D6",
                "points": 6,
            },
        ),
        Event(
            RESOLVED,
            "production",
            "",
            "tech_level",
            "Ann reached TL2.",
            players=("Ann",),
            visible_to=("Ann",),
            data={"from": 1, "to": 2, "income": 31},
        ),
        Event(
            RESOLVED,
            "orders",
            "",
            "no_orders",
            "No orders were received from Cleo.",
            players=("Cleo",),
            visible_to=("Cleo",),
        ),
        Event(
            RESOLVED,
            "orders",
            "",
            "message",
            SECRET_MESSAGE,
            players=("Cleo", "Bob"),
            visible_to=("Bob", "Cleo"),
            data={"from": "Cleo", "to": "Bob", "text": SECRET_MESSAGE},
        ),
    ]
    state.dice = [
        Roll(
            seq=i,
            turn=RESOLVED,
            phase="conflict",
            location=a1,
            purpose=f"kill roll {i}",
            sides=6,
            result=(i % 6) + 1,
        )
        for i in range(1, 7)
    ]
    state.normalise()
    return state


def report_game(folder: Path, *, players: int = 3) -> tuple[Game, State]:
    """The scenario in a game folder, saved to its master, with Ann's sheet archived."""
    names = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"][:players]
    game = Game.create(
        folder,
        find_ruleset("fifth-millennium"),
        [PlayerSetup(n, f"{n.lower()}@example.com") for n in names],
        seed=1,
        generate_seed=42,
        assign_homeworlds=True,
    )
    before = game.load_state()
    state = build_scenario(game)
    game.save_state(state)
    sheets = game.archive(str(RESOLVED)) / "sheets"
    sheets.mkdir(parents=True)
    ann = state.player("Ann")
    assert ann is not None
    target = next(s.hex for s in state.systems if s.owner == "Ann" and s.hex != ann.homeworld)
    before.year = RESOLVED
    for player in ("Ann", "Bob"):
        path = sheets / sheet_filename(player)
        game.ruleset.write_sheet(before, player, path, game.token(player, str(RESOLVED)), "soon")
    game.ruleset.fill_sheet(
        sheets / sheet_filename("Ann"),
        Orders(
            "Ann",
            RESOLVED,
            moves=[Move(RESOLVED, Fleet(F=3), ann.homeworld, target)],
            purchases=[Purchase(ann.homeworld, "F", 3)],
        ),
    )
    return game, game.load_state()


def pdf_pages(path: Path) -> list[str]:
    """Text of every page (pypdf), whitespace collapsed."""
    reader = PdfReader(path)
    return [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Game, State, dict[str, Path]]:
    game, state = report_game(tmp_path_factory.mktemp("reports") / "game")
    run = write_reports(game, jobs=1)
    return game, state, {r.reader: r.path for r in run.reports}


def test_every_report_and_sheet_is_written(written: tuple[Game, State, dict[str, Path]]) -> None:
    game, _, paths = written
    folder = game.outbox(str(YEAR))
    assert paths == {
        "Ann": folder / "Ann.pdf",
        "Bob": folder / "Bob.pdf",
        "Cleo": folder / "Cleo.pdf",
        "referee": folder / "referee.pdf",
    }
    for player in ("Ann", "Bob", "Cleo"):
        assert (folder / f"{player}.xlsx").stat().st_size > 1000
    assert (game.path / "archive" / "index.html").exists()


def test_cover_has_year_deadline_and_standing(written: tuple[Game, State, dict[str, Path]]) -> None:
    _game, state, paths = written
    cover = pdf_pages(paths["Ann"])[0]
    owned = sum(1 for s in state.systems if s.owner == "Ann")
    assert "Turn report for Ann" in cover
    # What was resolved (an archive without a manifest names it by its key) and what is
    # awaited, by the step's own name.
    assert f"Results of {RESOLVED}. Next: Year {YEAR}; your orders are due" in cover
    victory = len(state.systems) // 2 + 1
    assert (
        f"Standing: {owned} system{'s' if owned != 1 else ''}, income 31, stockpile 7, TL2, "
        "1 fleet in flight; "
        f"{owned} of the {victory} systems needed for victory." in cover
    )


def test_battle_is_shown_roll_by_roll(written: tuple[Game, State, dict[str, Path]]) -> None:
    _, state, paths = written
    text = " ".join(pdf_pages(paths["Ann"]))
    battle = next(e for e in state.events if e.kind == "battle" and e.visible("Ann"))
    assert f"Battle at {battle.location}" in text
    assert "Ann defender F9 S2 A0(Fs0 Ms0 K0) + naval base" in text
    assert "Bob attacker F6 S0 A1(Fs0 Ms0 K2)" in text
    assert "KKM swarm (Bob); kills applied: Ann: Genetics Lab x1" in text
    assert "5 vs 4-6 KILL" in text and "2 vs 4-6 miss" in text
    assert "Combat values: Ann 15, Bob 7. Ann is the victor; Bob is defeated" in text
    assert "Bob Fleet: 6 vs 5-6 KILL" in text
    assert "Bob Fleet: 3 vs 5-6 miss" in text
    assert "Bob Assault: 6 vs 6 KILL" in text
    assert (
        "Kills in the order applied (Strike, Fast, Fleet, Assault, Monitor): 1. Ann loses Strike x2"
        in text
    )
    assert "Outcome: Ann holds the system; Bob loses every squadron in the battle." in text


def test_events_of_every_kind_are_told(written: tuple[Game, State, dict[str, Path]]) -> None:
    _, state, paths = written
    text = " ".join(pdf_pages(paths["Ann"]))
    ann = state.player("Ann")
    assert ann is not None
    assert "Fusion weapons were used in subsector P." in text
    assert "(sheet cell B14): the fleet fought this turn and may not leave" in text
    assert "(sheet cell C31): 30 points needed, 23 left" in text
    assert "1 x Spacedock at" in text
    assert (
        "Roll 4 + 5, tech level modifier +0: table row 9 (+D6); 6 points from trade with Bob."
        in text
    )
    assert "Ann reached TL2." in text
    assert "arrived at" in text


def test_production_ledger(written: tuple[Game, State, dict[str, Path]]) -> None:
    _, state, paths = written
    text = " ".join(pdf_pages(paths["Ann"]))
    ann = state.player("Ann")
    assert ann is not None
    assert f"Production in {RESOLVED}" in text
    assert f"{ann.homeworld} {state.system(ann.homeworld).name}: class A 5" in text
    assert "2 Genetics Labs 2" in text
    assert "Income 31" in text
    assert "Trade: with Bob 6" in text
    assert f"Fleet squadron {ann.homeworld} 3 6 bought" in text
    assert "Stockpile: 0 before production, 7 after." in text


def test_forces_flights_and_known_systems(written: tuple[Game, State, dict[str, Path]]) -> None:
    _, state, paths = written
    text = " ".join(pdf_pages(paths["Ann"]))
    ann = state.player("Ann")
    assert ann is not None
    flight = next(f for f in state.flights if f.owner == "Ann")
    assert f"5002 - F4 S2 A0(Fs0 Ms0 K0) - {ann.homeworld} - {flight.destination} - 5004" in text
    home = state.system(ann.homeworld)
    assert home is not None
    # The homeworld in the system notation: G2 from the labs, income 5 + bases + 2 labs.
    income = 5 + home.naval_base + home.scout_base + home.hipop + 2
    hw_name = home.name.upper() if home.hipop else home.name
    line = re.compile(
        rf"{ann.homeworld} {re.escape(hw_name)} A( N)?( S)?( Hi)? G2 O0 Mi0 M0 - "
        rf"F15 S0 A0\(Fs0 Ms0 K0\) - {income}"
    )
    assert line.search(text), text[:2000]
    assert "Trade agreement with Bob since 5001." in text


def test_messages_received_and_no_secrets(written: tuple[Game, State, dict[str, Path]]) -> None:
    _, _, paths = written
    ann = " ".join(pdf_pages(paths["Ann"]))
    assert "From Bob to Ann, 5002 Peace between us? Bob" in ann
    assert SECRET_MESSAGE not in ann
    assert SECRET_BATTLE not in ann
    bob = " ".join(pdf_pages(paths["Bob"]))
    assert SECRET_MESSAGE in bob and SECRET_BATTLE in bob


def test_orders_as_understood(written: tuple[Game, State, dict[str, Path]]) -> None:
    _, state, paths = written
    ann = state.player("Ann")
    assert ann is not None
    text = " ".join(pdf_pages(paths["Ann"]))
    assert f"Your orders for {RESOLVED} as understood" in text
    assert f"{RESOLVED} - F3 S0 A0(Fs0 Ms0 K0) - {ann.homeworld} -" in text
    cleo = " ".join(pdf_pages(paths["Cleo"]))
    assert f"No orders were received from you for {RESOLVED}" in cleo
    bob = " ".join(pdf_pages(paths["Bob"]))
    assert f"Your orders for {RESOLVED} as understood No orders." in bob


def test_map_pages_one_sector_and_each_subsector_in_sight(
    written: tuple[Game, State, dict[str, Path]],
) -> None:
    game, state, paths = written
    view = game.ruleset.player_view(state, "Ann")
    expected = sorted({subsector_letter(s.hex) for s in view.systems if s.status == "in sight"})
    pages = pdf_pages(paths["Ann"])
    sector_pages = [i for i, t in enumerate(pages) if t.startswith("Sector map:")]
    subsector_pages = [re.match(r"Subsector ([A-P]):", t) for t in pages]
    assert sector_pages == [1]
    assert [m.group(1) for m in subsector_pages if m] == expected
    # Maps come right after the cover; hex ids and the names Ann sees are real text.
    assert all(subsector_pages[i] for i in range(2, 2 + len(expected)))
    sector = pages[1]
    for h in ("0101", "3240", "1827", state.player("Ann").homeworld):
        assert h in sector
    for s in view.systems:
        if s.status == "in sight":
            letter = subsector_letter(s.hex)
            page = pages[2 + expected.index(letter)]
            assert s.hex in page


def test_map_legend_and_owner_tags(written: tuple[Game, State, dict[str, Path]]) -> None:
    _, state, paths = written
    with pdfplumber.open(paths["Ann"]) as pdf:
        words = [w["text"] for w in pdf.pages[1].extract_words(x_tolerance=1, y_tolerance=1)]
    owned_in_sight = sum(1 for s in state.systems if s.owner == "Ann")
    # Ann's tag marks each of her systems once; the legend, the page title and the running
    # header (the reader, top right) name her too.
    assert words.count("Ann") == owned_in_sight + 3
    for label in ("naval", "scout", "battle", "probe", "shaded:"):
        assert label in words


def test_referee_report_has_everything(written: tuple[Game, State, dict[str, Path]]) -> None:
    _, state, paths = written
    pages = pdf_pages(paths["referee"])
    text = " ".join(pages)
    assert "Referee's report" in pages[0]
    assert f"No sheet for {RESOLVED} from: Cleo." in pages[0]
    for p in state.players:
        owned = sum(1 for s in state.systems if s.owner == p.name)
        assert re.search(rf"{p.name} {p.homeworld} .* {owned} 31 7 2", pages[0])
    assert SECRET_BATTLE in text and SECRET_MESSAGE in text
    assert "Bob-5002-1" in text
    assert f"Dice of {RESOLVED} 6 rolls, in order" in text
    assert "kill roll 6 d6 1" in text
    assert "told to: Bob, Cleo" in text
    # Every player's production ledger, as a listing: each income line, the total, the
    # stockpile before and after.
    for p in state.players:
        assert re.search(rf"\b{p.name}\b.*?Income \d+ .*?Stockpile: \d+ before production", text)
    assert sum(1 for t in pages if t.startswith("Sector map:")) == 1
    # The referee's map shades nothing and tags every owner's systems.
    with pdfplumber.open(paths["referee"]) as pdf:
        words = [w["text"] for w in pdf.pages[1].extract_words(x_tolerance=1, y_tolerance=1)]
    tags = owner_tags(state.player_names())
    for p in state.players:
        owned = sum(1 for s in state.systems if s.owner == p.name)
        assert words.count(tags[p.name]) >= owned


def test_naive_render_shows_the_same_map(tmp_path: Path) -> None:
    """The single-pass SVG render (the benchmark's baseline) and the fast render agree."""
    from refassist.report.build import RenderSettings, common_context, render_report
    from refassist.report.game_reports import gather_input
    from refassist.typeset.render import template_dirs

    game, state = report_game(tmp_path / "game")
    info = gather_input(game, state, state.player_names())
    content = game.ruleset.report_content(state, "Ann", info)
    public = game.ruleset.report_map(state)
    texts = {}
    # One context for both renders: its "generated" time is on every page, and two calls a
    # minute boundary apart would differ by a digit.
    context = common_context(info)
    for fast in (True, False):
        settings = RenderSettings(tuple(template_dirs(game.path)), public, None, fast)
        pdf, refused = render_report(content, context, settings)
        assert refused == []
        reader = PdfReader(io.BytesIO(pdf))
        texts[fast] = [page.extract_text().split() for page in reader.pages]
    assert len(texts[True]) == len(texts[False])
    hex_ids = set(SECTOR.hexes())
    for fast in (True, False):
        assert hex_ids <= set(texts[fast][1])
    # WeasyPrint's SVG text carries no space glyphs, so compare the letters drawn on every map
    # page, spaces left out: the same labels, the same number of times.
    for page in range(1, len(texts[True])):
        if texts[True][page][:1] in (["Sector"], ["Subsector"]):
            assert Counter("".join(texts[True][page])) == Counter("".join(texts[False][page]))


def test_referee_listing_keeps_every_detail_in_readable_lines() -> None:
    """The referee's event listing and ledger listing (templates/fifth-millennium/events.html):
    one line per event with its detail and whom it was told to, player text escaped, and
    long item names and big numbers never cut."""
    from types import SimpleNamespace as NS

    from refassist.typeset.render import environment, template_dirs

    env = environment(template_dirs())
    macros = env.get_template("fifth-millennium/events.html").module
    events = [
        NS(
            kind="probe_report",
            where="0101 Ys",
            text="Probe at 0101.",
            visible_to="Ann",
            dice="3",
            detail={"owner": "Bob", "class": "A", "forces": ["Bob: F2"], "facilities": []},
        ),
        NS(
            kind="trade",
            where="",
            text="Trade with Bob.",
            visible_to="Ann",
            dice="",
            detail={
                "roll": 4,
                "modifier": 1,
                "table_row": 5,
                "multiplier": "x1",
                "points": 3,
                "partner": "Bob",
            },
        ),
        NS(kind="message", where="", text="<b>Hi</b> & bye", visible_to="Bob", dice="", detail={}),
    ]
    text = str(macros.event_listing(events))
    assert "probe report</b> 0101 Ys: Probe at 0101. Owner: Bob; class A. Forces: Bob: F2." in text
    assert "Trade with Bob. Roll 4, tech level modifier +1: table row 5" in text
    assert "told to: Ann; dice #3" in text
    assert "&lt;b&gt;Hi&lt;/b&gt; &amp; bye" in text and "<b>Hi</b>" not in text
    ledger = NS(
        income=[("0101 Ys: class A", 5)],
        income_total=123456,
        trade=[],
        upkeep=[],
        income_blocked="",
        stockpile_before=1,
        stockpile_after=2,
        stockpile_last_turn="",
        referee_adjustment=0,
        purchases=[
            NS(
                what="Saturated Fusion Bombing Attack (SFBA)",
                location="0101",
                quantity=12345,
                cost=99999,
                status="bought",
            )
        ],
    )
    listing = str(macros.ledger_listing(ledger))
    assert "Saturated Fusion Bombing Attack (SFBA)" in listing
    assert "123456" in listing and "12345" in listing and "99999" in listing
    assert "~" not in listing


def test_what_a_report_shows_of_each_players_sheet() -> None:
    """`ReportInput.orders_context`: the orders as understood, a sheet that never came, and
    a sheet read but with no orders, as every game's report hands them to the template."""
    from refassist.rulesets.base import ReportInput

    info = ReportInput(
        "5001",
        "soon",
        orders={"Ann": ("Build 1 F at 1827",), "Cat": ()},
        sheets={"Ann": "late", "Bob": "missing", "Cat": "accepted"},
    )
    assert info.orders_context("Ann") == {
        "orders": ["Build 1 F at 1827"],
        "no_orders": False,
        "sheet_status": "late",
        "resolved_by_referee": False,
    }
    assert info.orders_context("Bob") == {
        "orders": None,
        "no_orders": True,
        "sheet_status": "missing",
        "resolved_by_referee": False,
    }
    assert info.orders_context("Cat")["orders"] == []
    assert info.orders_context("Dan") == {
        "orders": None,
        "no_orders": False,
        "sheet_status": "",
        "resolved_by_referee": False,
    }
