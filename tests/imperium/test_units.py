"""The unit list in `units.py` against the seed's own printed list (read from ../shared)."""

from __future__ import annotations

import re
from pathlib import Path

from refassist.rulesets.imperium_3m.units import (
    IMPERIAL,
    TERRAN,
    TROOP_COUNTERS,
    UNIT_TABLES,
    counters_available,
    unit_type,
)
from tests.conftest import missing_shared

SEED = Path(__file__).resolve().parents[2].parent / "shared/seeds/imperium-3rd-millennium.txt"

LINE = re.compile(r"^\s*(BB|B2|B1|B|CV|CA|CS|CR|CL|DD|TB|SC|AR|AT|TR|M|F|PD)\s+(.*)$")


def _seed_lines() -> list[tuple[str, str]]:
    """(code, rest) for each unit line of the seed's list, with 'No Equivalent' as ('-', '')."""
    if not SEED.is_file():
        missing_shared(f"the original rules {SEED} are not there")
    lines: list[tuple[str, str]] = []
    for raw in SEED.read_text(encoding="utf-8").splitlines():
        if raw.startswith("B –Beam"):
            break
        if "No Equivalent" in raw:
            lines.append(("-", ""))
            continue
        m = LINE.match(raw)
        if m:
            lines.append((m.group(1), m.group(2)))
    return lines


def _factors(rest: str) -> dict[str, int]:
    compact = re.sub(r"CM\s+(\d)", r"CM\1", rest)
    found = {k: int(v) for k, v in re.findall(r"\b(CM|B|T|D|F|M)(\d+)\b", compact)}
    count = re.search(r"x\s*(\d+)", compact)
    cost = re.search(r"C(\d+)/(\d+)", compact)
    if count:
        found["x"] = int(count.group(1))
    if cost:
        found["C"], found["turns"] = int(cost.group(1)), int(cost.group(2))
    return found


def test_every_ship_line_of_the_seed_matches_the_table() -> None:
    lines = _seed_lines()
    assert len(lines) % 2 == 0 and len(lines) >= 30
    checked = 0
    for (t_code, t_rest), (i_code, i_rest) in zip(lines[::2], lines[1::2], strict=True):
        for side, code, rest in ((TERRAN, t_code, t_rest), (IMPERIAL, i_code, i_rest)):
            if code == "-":
                continue
            f = _factors(rest)
            unit = UNIT_TABLES[side][code]
            assert unit.beam == f.get("B", 0), (side, code)
            assert unit.torpedo == f.get("T", 0), (side, code)
            assert unit.defence == f["D"], (side, code)
            assert unit.cm == f.get("CM", 0), (side, code)
            assert unit.fighters == f.get("F", 0), (side, code)
            if "M" in f:
                assert unit.maintenance == f["M"], (side, code)
            assert unit.counters == f["x"], (side, code)
            assert (unit.cost, unit.build) == (f["C"], f["turns"]), (side, code)
            checked += 1
    assert checked >= 30


def test_each_side_has_exactly_the_units_of_its_lines_of_the_seed() -> None:
    lines = _seed_lines()
    terran = {code for code, _ in lines[::2] if code != "-"}
    imperial = {code for code, _ in lines[1::2] if code != "-"}
    # Outposts are not in the lines the test reads; the list gives both sides one.
    assert set(UNIT_TABLES[TERRAN]) - {"RT", "JT", "OP"} == terran
    assert set(UNIT_TABLES[IMPERIAL]) - {"RT", "JT", "OP"} == imperial


def test_no_equivalent_means_the_side_has_no_such_unit() -> None:
    assert "B1" not in UNIT_TABLES[TERRAN] and "CR" not in UNIT_TABLES[TERRAN]
    assert "B2" not in UNIT_TABLES[TERRAN]
    assert "TB" not in UNIT_TABLES[IMPERIAL] and "B" not in UNIT_TABLES[IMPERIAL]


def test_imperial_bb_maintenance_is_the_house_rule() -> None:
    assert unit_type(IMPERIAL, "BB").maintenance == 4
    assert unit_type(IMPERIAL, "BB", imperial_bb_maintenance=6).maintenance == 6
    assert unit_type(TERRAN, "BB", imperial_bb_maintenance=6).maintenance == 4


def test_troop_counter_mix_matches_the_seed() -> None:
    assert [s for s, _ in TROOP_COUNTERS[TERRAN]["RT"]] == [6, 5, 5, 4, 4, 3, 3, 2]
    assert [s for s, _ in TROOP_COUNTERS[IMPERIAL]["RT"]] == [6, 5, 5, 5, 4, 4, 4, 3]
    assert [s for s, _ in TROOP_COUNTERS[TERRAN]["JT"]] == [6, 5, 5, 4, 4]
    assert all(r == 2 for side in TROOP_COUNTERS.values() for mix in side.values() for _, r in mix)
    assert counters_available(TERRAN, "RT") == 8 and counters_available(IMPERIAL, "JT") == 5


def test_cargo_room_is_the_transports_house_rule_capacity() -> None:
    from refassist.rulesets.imperium_3m.units import cargo_room

    assert cargo_room("TR", {}) == 1 and cargo_room("AT", {}) == 1
    assert cargo_room("TR", {"tr_capacity": 2}) == 2
    assert cargo_room("AT", {"at_capacity": 3}) == 3
    assert cargo_room("CV", {"tr_capacity": 2}) == 0
