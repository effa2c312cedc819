"""The scenario file: the shipped training scenario, and a referee's own file checked with
every problem pinned to its line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from refassist.errors import SetupError
from refassist.rulesets.millennium_wars.scenario import default_scenario_text, load_scenario

TEXT = default_scenario_text()


def line_of(text: str, pattern: str, after: str = "") -> int:
    """The 1-based line of the first line matching ``pattern`` after the line ``after``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i in range(start, len(lines)) if re.search(pattern, lines[i])) + 1


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scenario.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_training_scenario() -> None:
    s = load_scenario()
    assert (s.title, s.turns, s.first, s.political_index) == (
        "The Vell Gap (training)",
        6,
        "Northland",
        50,
    )
    assert [(x.name, x.nato, x.c4i) for x in s.sides] == [
        ("Northland", True, 3),
        ("Sarkand", False, 2),
    ]
    assert (s.columns, s.rows, len(s.terrain)) == (12, 8, 96)
    assert (
        s.terrain["0101"] == "plain" and s.terrain["1201"] == "sea" and s.terrain["0304"] == "swamp"
    )
    assert s.countries["0101"] == "Northland" and s.countries["0601"] == ""
    # Borders are where the countries' letters change: 0501/0601 (N | neither), not 0101/0201.
    assert ("0501", "0601") in s.borders and ("0101", "0201") not in s.borders
    assert ("0604", "0704") in s.rivers and len(s.rivers) == 4
    assert s.locs[0][0] == "0205" and s.locs[0][-1] == "1005"
    assert {p.name for p in s.places.values()} == {"Aldmark", "Brisk", "Gap Depot", "Oran", "Kesh"}
    units = {u.id: u for u in s.units}
    assert len(units) == 15 and units["N-1AR"].attack == units["N-1AR"].defence == 6
    assert units["N-2MI"].nato and not units["S-2"].nato  # from their sides
    assert units["N-4AC"].reserve and units["S-NTF"].hex == "1201"
    assert units["S-1"].symbol == "XXX" and units["N-1AR"].symbol == "XX"
    assert [(r.turn, r.unit.id) for r in s.reinforcements] == [(2, "S-6"), (3, "N-5AB")]
    assert s.events[2].political_index == -5 and s.objectives["0704"] == 3
    assert s.assault.reconstructed == {4, 5, 6}
    assert s.source == "training.toml"


@pytest.mark.parametrize(
    ("old", "new", "pattern", "after", "message"),
    [
        ('hex = "0303"', 'hex = "1309"', r'hex = "1309"', "", "1309 is off the 12 x 8 map"),
        ('type = "armor"', 'type = "tank"', r'type = "tank"', "", "'tank' is not a unit type"),
        ('hex = "0404"', 'hex = "1101"', r'hex = "1101"', "", "1101 is sea"),
        (
            'speed = 6\nhex = "0303"',
            'speed = 6\nhex = "0701"',
            r'hex = "0701"',
            "",
            "0701 is mountain, where a armor unit may not go",
        ),
        ('hex = "1201"', 'hex = "1001"', r'hex = "1001"', "", "a naval task force starts at sea"),
        (
            "..ff..mm..~~",
            "..ff..mm..~",
            r"^\.\.ff\.\.mm\.\.~$",
            "",
            "row 1 of terrain has 11 hexes",
        ),
        ("..s.......dd", "..s...X...dd", r"\.\.s\.\.\.X", "", "'X' is not one of"),
        ('"0604/0704"', '"0604/0804"', r"rivers =", "", "'0604/0804' is not a hexside"),
        (
            '"0804", "0904"',
            '"0804", "1004", "0904"',
            r"^locs =",
            "",
            "0804 and 1004 are not adjacent",
        ),
        ('first = "Northland"', 'first = "Atlantis"', r"^first =", "", "first must name a side"),
        (
            'country = "S"',
            'country = "N"',
            r'^country = "N"',
            "political_points = 2",
            "two [[sides]] with different names and letters",
        ),
        ("turn = 3", "turn = 9", r"^turn = 9", "", "turn must be a game turn of the scenario"),
        (
            "number = 3",
            "number = 2",
            r"^number = 2",
            "state television",
            "number must be 1, 2 or 3, each once",
        ),
        (
            'id = "S-5"',
            'id = "S-4"',
            r'^id = "S-4"',
            'type = "paramilitary"',
            "two units are called S-4",
        ),
        ("turns = 6", 'turns = "six"', r"^turns =", "", "turns must be a number of game turns"),
        ('kind = "town"', 'kind = "village"', r'kind = "village"', "", "kind must be one of"),
    ],
)
def test_every_problem_is_pinned_to_its_line(
    tmp_path: Path, old: str, new: str, pattern: str, after: str, message: str
) -> None:
    assert old in TEXT
    text = TEXT.replace(old, new, 1)
    with pytest.raises(SetupError) as caught:
        load_scenario(write(tmp_path, text))
    problems = str(caught.value)
    assert problems.startswith("scenario.toml has ")
    line = line_of(text, pattern, after)
    hit = next((p for p in problems.splitlines() if message in p), None)
    assert hit is not None, problems
    assert f"line {line} " in hit, (line, hit)


def test_problems_are_all_reported_together(tmp_path: Path) -> None:
    text = TEXT.replace('hex = "0303"', 'hex = "1309"').replace('type = "shock"', 'type = "x"')
    with pytest.raises(SetupError, match=r"has 2 problem\(s\)") as caught:
        load_scenario(write(tmp_path, text))
    first, second = str(caught.value).splitlines()[1:]
    assert int(first.split()[1]) < int(second.split()[1])  # in the file's order


def test_a_referee_replaces_the_assault_rows_and_the_terrain_table(tmp_path: Path) -> None:
    text = TEXT + (
        '\n[assault_crt]\n4 = ["AD", "AD", "AR", "NE", "NE", "DR", "DR", "DD", "DD", "DD"]\n'
    )
    text = text.replace(
        "[[map.places]]",
        "[map.terrain_table]\nforest = { mechanized = 2 }\n\n[[map.places]]",
        1,
    )
    s = load_scenario(write(tmp_path, text))
    assert s.assault.result(3, 4) == "NE" and s.assault.reconstructed == {5, 6}
    assert s.terrain_table["forest"].mechanized == 2
    bad = TEXT + '\n[assault_crt]\n4 = ["AD", "ZZ"]\n'
    with pytest.raises(SetupError, match="the Assault CRT's rows"):
        load_scenario(write(tmp_path, bad))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe not text", "is not UTF-8 text"),
        (b"[scenario\ntitle = ", "is not valid TOML"),
        (b"x = 1\n" * 200_000, "a scenario file is at most 1 MB"),
        (b"", "has"),
    ],
)
def test_hostile_files_get_one_clear_error(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "scenario.toml"
    path.write_bytes(content)
    with pytest.raises(SetupError, match=re.escape(message)):
        load_scenario(path)
