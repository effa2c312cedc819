"""No more than the rules allow: what a side is told of the enemy's hidden units, through
every way it is told anything (the events of its view, its report as a PDF, its next sheet,
the checker's answers), in situations of the training scenario set up by hand and resolved
with fixed dice.  Each test shows the enemy not told while the owner and the referee are, and
where it can, the same thing told once the enemy sees it (teeth)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pypdfium2 as pdfium

from refassist.dice import Dice
from refassist.report.build import RenderSettings, common_context, render_report
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import ReportInput
from refassist.rulesets.millennium_wars.combat import Attack, Defence
from refassist.rulesets.millennium_wars.orders import InformationAttack, Orders
from refassist.rulesets.millennium_wars.resolve import resolve_turn
from refassist.rulesets.millennium_wars.sequence import Point
from refassist.rulesets.millennium_wars.state import State
from refassist.rulesets.millennium_wars.validate import validate_orders
from refassist.rulesets.millennium_wars.visibility import player_view, side_view, sight
from refassist.typeset.render import template_dirs

from .test_resolve import start

RULESET = find_ruleset("millennium-wars")
#: Ann commands Northland (the First Player), Bob Sarkand.
ANN, BOB = "Ann", "Bob"


def step(state: State, dice: list[int], rules: dict[str, object] | None = None, **orders: Orders):
    return resolve_turn(state, orders, Dice.scripted(dice), rules or {}).state


def told(state: State, player: str, rules: dict[str, object] | None = None) -> str:
    """Every event text ``player`` reads of the last exchange, one a line."""
    return "\n".join(e.text for e in player_view(state, player, rules).events)


def everything(state: State) -> str:
    """Every event text of the last exchange, as the referee reads them."""
    return "\n".join(e.text for e in state.events)


def report(state: State, reader: str | None, rules: dict[str, object] | None = None) -> str:
    """The text of ``reader``'s PDF report (None: the referee's), board counters included."""
    info = ReportInput(step="x", deadline="-", sheets={}, house_rules=dict(rules or {}))
    content = RULESET.report_content(state, reader, info)
    settings = RenderSettings(tuple(template_dirs()), None)
    pdf, _ = render_report(content, common_context(info), settings)
    document = pdfium.PdfDocument(pdf)
    try:
        pages = [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()
    return "\n".join(pages)


def situation(state: State, player: str, folder: Path) -> str:
    """The text of the Situation page of the sheet ``player`` is sent next."""
    path = folder / f"{player}.xlsx"
    RULESET.write_sheet(state, player, path, "tok", "Friday", {})
    ws = openpyxl.load_workbook(path)["Situation"]
    return "\n".join(str(c.value) for row in ws.iter_rows() for c in row if c.value)


def attacked(attack: Attack, reaction_dice: list[int], **placed: str) -> State:
    """Ann's first impulse declaring ``attack`` with the units ``placed`` by hand (air
    parity), then Bob's reaction with nothing, fought with ``reaction_dice``.  N-HQ stands at
    0603 unless placed elsewhere: its support radius (3) keeps the attackers at 0804 and 0805
    in supply, out of Sarkand's sight."""
    placed.setdefault("N_HQ", "0603")
    state = start()
    for uid, hex_ in placed.items():
        state.unit(uid.replace("_", "-")).hex = hex_
    state = step(state, [], Ann=Orders(ANN, "1-1-1", attacks=[attack]))
    return step(state, reaction_dice)


# -- combat --------------------------------------------------------------------------------------


def test_the_attacker_is_not_told_where_a_defender_retreated_out_of_its_sight() -> None:
    """11 to 4 on the Assault CRT is 2/1; a 6: DD.  S-3 is disrupted and retreats two hexes,
    to 1104, beyond what Northland's units at 0804 and 0805 see."""
    state = attacked(Attack(["N-1AR", "N-HT"], "0905", "assault"), [6], N_1AR="0804", N_HT="0805")
    assert state.unit("S-3").hex == "1104" and "1104" not in sight(state, "Northland")
    assert "S-3 is disrupted; S-3 retreats" in told(state, ANN)
    assert "1104" not in told(state, ANN)
    assert "S-3" not in {u.id for u in player_view(state, ANN).units}  # nor on its board
    # Sarkand and the referee read where it went.
    assert "What Northland was not told of the attack on 0905: S-3 retreats to 1104" in told(
        state, BOB
    )
    assert "S-3 retreats to 1104" in everything(state)
    # The reports as printed (the board prints every hex's number, so the phrase is looked
    # for; the counters are text too).
    assert "S-3 retreats" in report(state, ANN)
    assert "retreats to 1104" not in report(state, ANN)
    assert "retreats to 1104" in report(state, BOB)
    assert "retreats to 1104" in report(state, None)


def test_a_retreat_in_the_attackers_sight_is_told_to_it() -> None:
    """The teeth: a 5 on the Raid CRT at 2/1 is DR, S-3 retreats one hex and N-HT advances
    into 0905: the hex S-3 went to is next to it, so Northland is told, and nothing is
    Sarkand's alone."""
    state = attacked(
        Attack(["N-1AR", "N-HT"], "0905", "raid", advance=["N-HT"]),
        [5],
        N_1AR="0804",
        N_HT="0805",
    )
    assert "S-3 retreats to 1005; N-HT advances into 0905" in told(state, ANN)
    assert not [e for e in state.events if e.kind == "attack_detail"]


def test_the_defender_is_not_told_where_the_attacker_retreated() -> None:
    """2 to 4 on the Raid CRT is 1/2; a 1: AD.  N-3LI is disrupted and retreats two hexes,
    to 0703, out of every Sarkand unit's sight."""
    state = attacked(Attack(["N-3LI"], "0905", "raid"), [1], N_3LI="0804")
    assert state.unit("N-3LI").hex == "0703"
    assert "0703" not in sight(state, "Sarkand")
    assert "N-3LI is disrupted; N-3LI retreats" in told(state, BOB)
    assert "0703" not in told(state, BOB)
    assert "N-3LI retreats to 0703" in told(state, ANN)
    assert "N-3LI retreats to 0703" in everything(state)
    assert "retreats to 0703" not in report(state, BOB)


def test_an_intensive_assault_names_no_headquarters_the_defender_cannot_see() -> None:
    """N-HQ at 0603 supports the attack on 0905 (3 hexes) out of Sarkand's sight: Sarkand
    reads that an attacking headquarters was disrupted, not which or where."""
    attack = Attack(["N-1AR", "N-HT"], "0905", "raid", intensive=True)
    state = attacked(attack, [5], N_1AR="0804", N_HT="0805", N_HQ="0603")
    assert state.unit("N-HQ").disrupted
    assert "an attacking headquarters is disrupted by the intensive assault" in told(state, BOB)
    assert "N-HQ" not in told(state, BOB) and "N-HQ" not in report(state, BOB)
    assert "N-HQ is disrupted by the intensive assault" in told(state, ANN)
    # Next to a Sarkand unit, the headquarters is seen, and named.
    state = attacked(attack, [5], N_1AR="0804", N_HT="0805", N_HQ="0806")
    assert "N-HQ is disrupted by the intensive assault" in told(state, BOB)


def test_an_overstacked_stack_out_of_sight_is_its_owners_alone() -> None:
    """S-3 retreats two hexes (Assault at 2/1, a 6: DD) by its written path into 1105, where
    S-HQ, S-CY and S-1 stand: four Sarkand land units where a retreat ends are disrupted, and
    only Sarkand is told, until Northland sees every enemy unit."""
    attack = Attack(["N-1AR", "N-HT"], "0905", "assault")
    placed = {"N-1AR": "0804", "N-HT": "0805", "N-HQ": "0603", "S-1": "1105"}
    bob = Orders(BOB, "1-1-1r", defence=Defence(retreat={"S-3": ["1005", "1105"]}))
    line = "Sarkand's units in 1105 are overstacked and disrupted"
    for superiority in (False, True):
        state = start()
        for uid, hex_ in placed.items():
            state.unit(uid).hex = hex_
        if superiority:
            # (Rolled before Ann's sheet: Northland's air superiority shows it every stack.)
            state.air, state.air_level = "Northland", "first superiority"
            state.sees_all = ["Northland"]
        state = step(state, [], Ann=Orders(ANN, "1-1-1", attacks=[attack]))
        state = step(state, [6], Bob=bob)
        assert state.unit("S-3").hex == "1105" and state.unit("S-1").disrupted
        assert line in told(state, BOB) and line in everything(state)
        assert (line in told(state, ANN)) is superiority
        if not superiority:
            assert line not in report(state, ANN)


def test_an_attack_that_does_not_take_place_is_the_attackers_alone() -> None:
    """S-3 leaves 0905 before the combat (by hand, as a reserve might): the attack declared
    on it is void, which tells Ann and not Bob (who was told the attack declared, and
    nothing of why it was not fought)."""
    state = start()
    state.unit("N-1AR").hex = "0804"
    state = step(state, [], Ann=Orders(ANN, "1-1-1", attacks=[Attack(["N-1AR"], "0905", "raid")]))
    assert player_view(state, BOB).pending == [Attack(["N-1AR"], "0905", "raid")]
    assert player_view(state, BOB, {"attacks_told": False}).pending == []
    state.unit("S-3").hex = "1006"
    state = step(state, [])
    assert "The attack on 0905 does not take place" in told(state, ANN)
    assert "0905" not in told(state, BOB)


def test_the_political_points_a_side_lacked_are_its_own() -> None:
    """Sarkand asks the political points shift for its defence and has none: that it could
    not pay is Sarkand's; with a point it pays one (S-3 alone defends) and both read it."""
    from fractions import Fraction

    for points in (0, 1):
        state = start()
        state.unit("N-1AR").hex = "0804"
        state.side("Sarkand").political_points = Fraction(points)
        ann = Orders(ANN, "1-1-1", attacks=[Attack(["N-1AR"], "0905", "raid")])
        state = step(state, [], Ann=ann)
        state = step(state, [5], Bob=Orders(BOB, "1-1-1r", defence=Defence(political_points=2)))
        short = "Sarkand had only 0 of the 1 political point its shift costs (one a unit)"
        assert (short in told(state, BOB)) is (points == 0)
        assert "had only" not in told(state, ANN)
        assert ("Sarkand spends 1 political point" in told(state, ANN)) is (points == 1)


# -- information warfare -------------------------------------------------------------------------


def _disrupt(target: str) -> Orders:
    attack = InformationAttack(["N-CY"], "disrupt", [target], cell="Orders!D19")
    return Orders(ANN, "1-1-1", information=[attack])


def test_the_checker_answers_alike_for_an_unseen_unit_and_no_unit() -> None:
    """S-1 is a Sarkand unit Northland does not see, S-99 no unit at all: the checker refuses
    both in the same words; S-5, seen in Northland's country, it accepts."""
    state = start()
    state.unit("S-5").hex = "0303"
    problems = {
        target: [p.message for p in validate_orders(state, ANN, _disrupt(target), {})]
        for target in ("S-1", "S-99", "S-5")
    }
    assert problems["S-1"] == ["S-1 is not an enemy unit you see"]
    assert problems["S-99"] == [m.replace("S-1", "S-99") for m in problems["S-1"]]
    assert problems["S-5"] == []


def test_a_disrupt_on_a_guessed_id_tells_nothing_of_it() -> None:
    """Air parity; the information warfare die 6 at +1: IS1, 'disrupt'.
    Named S-1 (real, unseen) or S-99 (none), Ann reads the same but for the id, S-1 is not
    disrupted, and Bob reads exactly the same either way."""
    read: dict[str, tuple[str, str]] = {}
    for target in ("S-1", "S-99"):
        state = step(start(), [6], Ann=_disrupt(target))
        read[target] = (told(state, ANN), told(state, BOB))
        assert not state.unit("S-1").disrupted
    assert read["S-99"][0] == read["S-1"][0].replace("S-1", "S-99")
    assert "disrupted: none" in read["S-1"][0]
    assert read["S-1"][1] == read["S-99"][1] and "S-1" not in read["S-1"][1]
    # The teeth: S-5 in Northland's country is seen, and disrupted.
    state = start()
    state.unit("S-5").hex = "0303"
    state = step(state, [6], Ann=_disrupt("S-5"))
    assert state.unit("S-5").disrupted and "IS1; disrupted: S-5" in told(state, BOB)


def test_neither_side_reads_the_information_warfare_differential() -> None:
    """The differential is the strength of cybercadres each side may not see of the other's:
    the referee reads it, the players the die and the result.  1D6 2 at +1: CM."""
    state = step(start(), [2], Ann=Orders(ANN, "1-1-1", information=[InformationAttack(["N-CY"])]))
    assert "N-CY (attack 2) against S-CY (defence 1): differential +1" in everything(state)
    for player in (ANN, BOB):
        assert "differential" not in told(state, player)
        assert "S-CY" not in told(state, ANN)
    assert "1D6 2: CM; the attacking cybercadres are disrupted" in told(state, BOB)
    assert "N-CY" not in told(state, BOB)


# -- objectives ----------------------------------------------------------------------------------


def end_of_turn(state: State, rules: dict[str, object] | None = None) -> State:
    """Resolve the last exchange of game turn 1 (Sarkand's second impulse's reaction) with
    no orders; turn 2's random event is d66 54, no event, its first air roll 3, parity."""
    state.point = Point(1, 2, 2, reaction=True)
    return step(state, [5, 4, 3], rules)


def test_an_objective_taken_out_of_sight_keeps_its_old_holder_for_the_loser(
    tmp_path: Path,
) -> None:
    """S-2 stands on the Gap Depot (0704) at the end of the game turn, with no Northland unit
    near: Sarkand holds it, and Northland's events, report and next sheet still say no one
    holds it; Sarkand and the referee read Sarkand."""
    state = start()
    state.unit("S-2").hex = "0704"
    assert "0704" not in sight(state, "Northland")
    state = end_of_turn(state)
    assert state.held["0704"] == "Sarkand"
    assert side_view(state, "Northland").held["0704"] == ""
    assert side_view(state, "Sarkand").held["0704"] == "Sarkand"
    assert "The objective 0704 Gap Depot is held by Sarkand" in told(state, BOB)
    assert "0704" not in told(state, ANN)
    assert "0704 Gap Depot 3 no one" in report(state, ANN)
    assert "0704 Gap Depot 3 Sarkand" in report(state, BOB)
    assert "0704 Gap Depot 3 Sarkand" in report(state, None)
    assert "0704 Gap Depot (facility): 3 points, held by no one" in situation(state, ANN, tmp_path)
    # The master keeps the truth and each side's belief.
    tables = RULESET.game_function("tables", "to_tables")(state)
    row = next(r for r in tables["objectives"] if r["hex"] == "0704")
    assert (row["held"], row["first_knows"], row["second_knows"]) == ("Sarkand", "", "Sarkand")
    # The teeth: with N-2MI next to the depot (0604), Northland sees who stands there.
    state = start()
    state.unit("S-2").hex = "0704"
    state.unit("N-2MI").hex = "0604"
    state = end_of_turn(state)
    assert "The objective 0704 Gap Depot is held by Sarkand" in told(state, ANN)
    assert side_view(state, "Northland").held["0704"] == "Sarkand"


def test_a_city_held_out_of_sight_moves_the_index_without_naming_the_unit() -> None:
    """S-2 in Aldmark (0205, Northland's city) at the end of the game turn, Northland's units
    moved away and the house rule see_home off: the Index moves toward Sarkand (public), and
    Northland reads that a Sarkand unit holds one of its cities, not which unit nor which
    city, and keeps Aldmark as its own objective."""
    rules: dict[str, object] = {"see_home": False}
    state = start()
    for uid in ("N-HQ", "N-CY", "N-HT", "N-4AC"):
        state.unit(uid).hex = "0101"
    state.unit("S-2").hex = "0205"
    state = end_of_turn(state, rules)
    assert state.political_index == 49 and state.held["0205"] == "Sarkand"
    ann = told(state, ANN, rules)
    assert "A unit of Sarkand holds a city of Northland: the Index moves 1 toward Sarkand" in ann
    assert "S-2" not in ann and "Aldmark" not in ann
    assert side_view(state, "Northland", rules).held["0205"] == "Northland"
    assert "S-2 holds Aldmark: the Index moves 1 toward Sarkand" in told(state, BOB, rules)
    # With see_home on (the default) Northland sees S-2 in its country: it is told all.
    state = start()
    for uid in ("N-HQ", "N-CY", "N-HT", "N-4AC"):
        state.unit(uid).hex = "0101"
    state.unit("S-2").hex = "0205"
    state = end_of_turn(state)
    assert "S-2 holds Aldmark" in told(state, ANN)
    assert "The objective 0205 Aldmark is held by Sarkand" in told(state, ANN)


# -- the view ------------------------------------------------------------------------------------


def test_the_view_holds_no_enemy_standing_defence_nor_its_reinforcements() -> None:
    """Fast play keeps each side's standing defence (its retreat paths, its D1 pick) in the
    state; the enemy's view has none.  Nor does it list which of the enemy's reinforcements
    have come."""
    state = start()
    state.side("Sarkand").standing = Defence({"S-3": ["1006"]}, ["S-3"], "S-3", 1)
    state.arrived = ["S-6", "N-5AB"]
    north = side_view(state, "Northland")
    assert north.side("Sarkand").standing == Defence()
    assert north.arrived == ["N-5AB"]
    assert side_view(state, "Sarkand").side("Sarkand").standing.retreat == {"S-3": ["1006"]}
    assert side_view(state, "Sarkand").arrived == ["S-6"]
