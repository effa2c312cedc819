"""A referee's scenario file is hostile input too: every bad file given to `refassist new`
gets one clear error naming it, no traceback, no hang, and no game folder is left behind.
The same checks answer an edit of the master's Scenario sheet."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from refassist.errors import CellProblem
from refassist.rulesets import find_ruleset
from refassist.rulesets.base import Row
from refassist.rulesets.millennium_wars.scenario import default_scenario_text
from tests.test_corpus import run_bounded

TRAINING = default_scenario_text()


def _units(count: int) -> str:
    return "".join(
        f'\n[[units]]\nid = "X-{n}"\nside = "Northland"\ntype = "armor"\nstrength = 1\n'
        f'speed = 1\nhex = "0101"\n'
        for n in range(count)
    )


CASES: dict[str, tuple[bytes | None, str]] = {
    "not-utf8": (b"\xff\xfe[scenario]\n", "is not UTF-8 text"),
    "not-toml": (b"[scenario\ntitle = ", "is not valid TOML"),
    "too-big": (b"# padding\n" * 120_000, "is at most 1 MB"),
    "nested-deep": (b"a = " + b"[" * 100_000 + b"]" * 100_000 + b"\n", "nested too deeply"),
    "fifo": (None, "is not a regular file"),
    "huge-map": (
        TRAINING.replace("columns = 12", "columns = 1000000000").encode(),
        "columns",
    ),
    "too-many-units": (TRAINING.encode() + _units(401).encode(), "units"),
    "formula-unit-id": (
        TRAINING.replace('id = "N-1AR"', 'id = "=HYPERLINK(1)"').encode(),
        "a unit's id is",
    ),
    "markup-place-name": (
        TRAINING.replace('name = "Aldmark"', 'name = "<script>x</script>"').encode(),
        "name",
    ),
    "empty": (b"", "problem"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_refassist_new_refuses_a_hostile_scenario(case: str, tmp_path: Path) -> None:
    content, words = CASES[case]
    scenario = tmp_path / f"{case}.toml"
    if content is None:
        os.mkfifo(scenario)
    else:
        scenario.write_bytes(content)
    players = tmp_path / "players.csv"
    players.write_text("name,email\nAnn,ann@example.com\nBob,bob@example.com\n")
    game = tmp_path / "game"
    ran = run_bounded(
        "new", str(game), "--ruleset", "millennium-wars", "--players", str(players),
        "--scenario", str(scenario),
    )  # fmt: skip
    output = ran.out + ran.err
    assert ran.code == 1, output
    assert "Traceback" not in output and "internal error" not in output
    assert scenario.name in output and words in output, output
    assert not game.exists() or not any(game.iterdir()), "a half-made game was left behind"


def test_an_edited_scenario_sheet_is_checked_like_the_file() -> None:
    ruleset = find_ruleset("millennium-wars")
    schema = {t.name: t for t in ruleset.schema()}
    assert "scenario" in schema
    deep = "a = " + "[" * 50_000 + "]" * 50_000
    rows = {
        "settings": [
            Row(
                "settings",
                2,
                {"game_id": "g", "game_name": "G", "step": "1-1-1", "political_index": 50,
                 "event": "", "air": "", "air_level": "", "bad_weather": False, "moved": "",
                 "arrived": "", "finished": ""},
                {},
            )
        ],
        "scenario": [Row("scenario", 2, {"line": 1, "text": deep}, {})],
    }  # fmt: skip
    problems: list[CellProblem] = []
    assert ruleset.from_tables(rows, problems) is None
    assert [p.sheet for p in problems] == ["Scenario"]
    assert "nested too deeply" in problems[0].message
