"""What the campaign's reports say to the referee and the commanders: timelines named by
ship and commander, the battle page's table notes, and the referee's map drawn legibly."""

from __future__ import annotations

from pathlib import Path

from refassist.dice import Dice
from refassist.drawings.netlayout import star_box
from refassist.report.build import RenderSettings, common_context, render_report
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import ReportInput
from refassist.rulesets.full_thrust import economy
from refassist.rulesets.full_thrust.orders import FleetOrder
from refassist.rulesets.full_thrust.resolve import resolve_turn
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.state import NATIVES, Battle, InBattle, State
from refassist.typeset.render import template_dirs
from tests.test_fog_of_war import pdf_pages

from .situations import seed_map, ship, week_orders

RULESET = find_ruleset("full-thrust-campaign")
RULES = complete()
INFO = ReportInput(step="1", deadline="Friday")


def pdf_text(state: State, reader: str | None, folder: Path) -> str:
    """The report of ``reader`` (None: the referee) rendered to PDF and read back."""
    content = RULESET.report_content(state, reader, INFO)
    settings = RenderSettings(tuple(template_dirs(None)), None, None, True)
    pdf, _ = render_report(content, common_context(INFO), settings)
    path = folder / f"{reader or 'referee'}.pdf"
    path.write_bytes(pdf)
    return "\n".join(" ".join(page.split()) for page in pdf_pages(path))


def test_a_timeline_names_its_ship_or_fleet_and_commander(tmp_path: Path) -> None:
    """Issue 50: "TIMELINE Brenn" told nobody whose week it was."""
    state = seed_map()
    ship(state, "ANN-1", "Packet merchant", "Ann", "A")
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "A")
    ship(state, "ANN-3", "Halberd frigate", "Ann", "A")
    ship(state, "BOB-1", "Packet merchant", "Bob", "D")
    orders = {
        "Ann": week_orders("Ann", ANN_1=["jump B"], Escort=["jump C"]),
        "Bob": week_orders("Bob", BOB_1=["jump C"]),
    }
    orders["Ann"].fleets.append(FleetOrder("Escort", ["ANN-2", "ANN-3"]))
    after = resolve_turn(state, orders, Dice.scripted([1] * 30), RULES).state
    referee = pdf_text(after, None, tmp_path)
    assert "TIMELINE ANN-1 (Ann) week ends at B" in referee
    assert "TIMELINE fleet Escort: ANN-2, ANN-3 (Ann) week ends at C" in referee
    assert "TIMELINE BOB-1 (Bob) week ends at C" in referee
    ann = pdf_text(after, "Ann", tmp_path)
    assert "TIMELINE ANN-1 (Ann)" in ann and "TIMELINE BOB-1" not in ann


def test_the_referees_battle_page_carries_the_table_notes(tmp_path: Path) -> None:
    """Issue 50: the printable battle page had none of the battle sheet's notes."""
    state = seed_map(week=2)
    ship(state, "ANN-1", "Claymore cruiser", "Ann", "D")
    ship(state, "BOB-1", "Halberd frigate", "Bob", "D")
    ship(state, "ANN-2", "Claymore cruiser", "Ann", "B")
    state.battles += [
        Battle(
            "B2-1",
            2,
            "D",
            5,
            [
                InBattle("ANN-1", "Ann", "Claymore cruiser"),
                InBattle("BOB-1", "Bob", "Halberd frigate"),
            ],
        ),
        Battle("B2-2", 2, "B", 7, [InBattle("ANN-2", "Ann", "Claymore cruiser")], invasion="Ann"),
    ]
    natives = economy.native_fleet(state.designs, state.systems["B"].indigenous)
    state.battles[1].ships += [
        InBattle(economy.native_ship_id("B", n), NATIVES, d.name) for n, d in enumerate(natives, 1)
    ]
    boxes = sum(d.boxes for d in natives)
    referee = pdf_text(state, None, tmp_path)
    assert (
        "For the table: D has a planet of Value 1. Its starport counts as superior sensors "
        "with 1 fire-control unit. Bob defends a home system: its ramming is automatic."
    ) in referee
    assert (
        f"Ann invades: the natives' {len(natives)} ships (book designs, 300 points) break, and "
        f"the planet surrenders, at 50% of their {boxes} damage boxes."
    ) in referee
    # The notes are the referee's: a commander's report of the same battle has none.
    assert "For the table" not in pdf_text(state, "Bob", tmp_path)
    # A commander in two battles reads both places, joined as a sentence is.
    assert "the week waits for the battles at D and B, fought on the tabletop" in pdf_text(
        state, "Ann", tmp_path
    )


def crowded_kell() -> State:
    """The shipped map (data/kell.toml) with eight commanders, each with a dozen ships at
    home and ships at the places between them, and battles in the crowded west."""
    from refassist.rulesets.base import NewGame

    players = tuple(RULESET.demo_players(8))
    state = RULESET.new_game(
        NewGame("Crowded", "c", players, RULESET.default_house_rules()), Dice.for_turn(1, 0)
    )
    state.week = 3
    state.ships.clear()
    for n, c in enumerate(state.commanders):
        for i in range(1, 13):
            ship(state, f"{c.code}-{i}", "Halberd frigate", c.name, c.home)
        for i, place in enumerate(sorted(state.systems)):
            if (i + n) % 3 == 0 and place != c.home:
                ship(state, f"{c.code}-{20 + i}", "Packet merchant", c.name, place)
    for place in ("Lysse", "Kell", "Brenn"):
        state.battles.append(Battle(f"B3-{place}", 3, place, 5, []))
    return state


def test_the_referees_map_labels_neither_overlap_nor_leave_the_page() -> None:
    """Issue 50: on the referee's everything-map ship lists ran over their neighbours ("Lysse
    0407" cut to "407"), and a battle's star sat on another place's label.  Every label box
    is measured as drawn: none meets another, a place's symbol, a battle star or the grid's
    numbers, none leaves the page, and each star touches its own place."""
    from refassist.drawings.netdraw import HEIGHT, WIDTH, layout, network_svg

    state = crowded_kell()
    net = RULESET.report_content(state, None, INFO).network
    assert net is not None
    placed = layout(net)
    labels = list(placed.labels.values())
    assert {label.code for label in labels} == {n.code for n in net.nodes}
    for i, a in enumerate(labels):
        assert a.box.inside(WIDTH, HEIGHT), a
        for b in labels[i + 1 :]:
            assert not a.box.overlaps(b.box), (a.code, b.code)
        for code, (x, y, r) in placed.symbols.items():
            assert not a.box.meets_circle(x, y, r), (a.code, code)
        for code, centre in placed.stars.items():
            assert not a.box.overlaps(star_box(centre)), (a.code, code)
        for fixed in placed.fixed:
            assert not a.box.overlaps(fixed), a.code
    # Every name is printed whole; the crowded ship lists are summed up, not cut.
    for node in net.nodes:
        label = placed.labels[node.code]
        assert label.lines[0].text == node.name
    assert any(label.lines[-1].text.endswith("more") for label in labels)
    # The star of each battle is at its own place: nearer to it than to any other.
    for battle in state.battles:
        code = battle.place
        sx, sy = placed.stars[code]
        nearest = min(
            placed.symbols,
            key=lambda c: (placed.symbols[c][0] - sx) ** 2 + (placed.symbols[c][1] - sy) ** 2,
        )
        assert nearest == code
    assert set(placed.stars) == {"Lysse", "Kell", "Brenn"}
    svg = network_svg(net)
    assert ">Lysse 0407<" in svg


def test_the_campaigns_legend_calls_its_diamonds_wormholes() -> None:
    from refassist.drawings.netdraw import legend

    net = RULESET.report_content(crowded_kell(), None, INFO).network
    assert net is not None
    labels = [item["label"] for item in legend(net)]
    assert "wormhole (diamond)" in labels
    assert not any("open space" in label for label in labels)


def test_the_ledger_prints_a_bulk_merchants_hold_whole(tmp_path: Path) -> None:
    """Issue 50: "1500/15~" in the ledger: the hold of a full bulk merchant was cut."""
    state = seed_map(week=2)
    ship(state, "ANN-1", "Drayman bulk merchant", "Ann", "A", cargo=1500, drive="disabled")
    ship(state, "ANN-2", "Bastion battleship", "Ann", "A", damage=12, crack=True, landed=True)
    for reader in ("Ann", None):
        text = pdf_text(state, reader, tmp_path)
        assert "1500/1500" in text and "12/40" in text
        assert "~" not in text
