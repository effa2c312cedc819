"""The campaign map: the shipped map, and a referee's map file with every problem listed."""

from __future__ import annotations

from pathlib import Path

import pytest

from refassist.errors import SetupError
from refassist.rulesets.full_thrust.grid import blocked_by, distance
from refassist.rulesets.full_thrust.mapfile import load_map
from refassist.rulesets.full_thrust.rules import complete
from refassist.rulesets.full_thrust.state import WORMHOLE


def test_the_shipped_map_seats_eight_and_every_place_is_reachable() -> None:
    m = load_map()
    assert (m.title, m.columns, m.rows, m.source) == ("The Kell Marches", 20, 14, "kell.toml")
    homes = [s for s in m.systems.values() if s.home]
    # L129: a home system's planet has its indigenous fleet too, until a commander claims it.
    assert len(homes) == 8 and all(
        s.port == "starport" and s.indigenous == 100 * s.value for s in homes
    )
    assert m.systems["Halcyon"].indigenous == 500  # 100 x Value 5
    assert m.systems["The Eye"].kind == WORMHOLE
    rules = complete()
    reach = {
        a: {
            b
            for b in m.systems
            if b != a
            and distance(m.systems[a].square, m.systems[b].square, rules) <= 10
            and blocked_by(m.systems[a].square, m.systems[b].square, m.obstacles) is None
        }
        for a in m.systems
    }
    seen, todo = {"Kell"}, ["Kell"]
    while todo:
        for b in reach[todo.pop()] - seen:
            seen.add(b)
            todo.append(b)
    assert seen == set(m.systems)
    assert (7, 5) in m.obstacles and (5, 12) in m.obstacles  # rectangles are filled


def test_a_referees_map_with_every_problem_listed(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        """
title = "Bad"
columns = 10
rows = 8
obstacles = ["0101", "0909:1109"]

[[system]]
name = "Home"
square = "0101"
value = 3
home = true

[[system]]
name = "home"
square = "0202"

[[system]]
name = "Far"
square = "1203"
value = 2

[[system]]
name = "Odd"
square = "0303"
value = 2
belt = "gold"
colour = "red"

[[wormhole]]
name = "Eye"
square = "0303"

[[system]]
name = "Rock"
square = "0404"
home = true
""",
        encoding="utf-8",
    )
    with pytest.raises(SetupError) as caught:
        load_map(path)
    text = str(caught.value)
    for expected in (
        "system 2 (home): the name home is used twice",
        "system 3 (Far): square 1203 is outside the 10 x 8 grid",
        "system 4 (Odd): unknown key 'colour'",
        "system 4 (Odd): belt must be rich or poor",
        "wormhole 6 (Eye): square 0303 is Odd's already",
        "system 5 (Rock): a home system needs a planet",
        "obstacle '0101': covers Home at 0101",
        "obstacle '0909:1109': square 1109 is outside",
    ):
        assert expected in text, expected


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("columns = 1\nrows = 5\n", "columns and rows must be whole numbers"),
        ('title = "x"\ncolumns = 5\nrows = 5\n', "the map has no systems"),
        ("columns = [", "not valid TOML"),
        ('columns = 5\nrows = 5\nsystem = "x"\n', "write each as a [[system]] table"),
    ],
)
def test_maps_that_are_not_maps(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "map.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SetupError, match=message.replace("[", r"\[")):
        load_map(path)


def test_a_huge_or_binary_map_is_refused(tmp_path: Path) -> None:
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"# " + b"x" * 1_000_001)
    with pytest.raises(SetupError, match="at most 1 MB"):
        load_map(huge)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00columns")
    with pytest.raises(SetupError, match="not UTF-8"):
        load_map(binary)
    with pytest.raises(SetupError, match="cannot read"):
        load_map(tmp_path / "missing.toml")
