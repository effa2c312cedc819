"""Step keys are ordered as numbers: a game with turns 1, 2, ... 10 must not put 10 before 9."""

from __future__ import annotations

from pathlib import Path

from refassist.archive.files import collect
from refassist.report.game_reports import resolved_step
from refassist.store.game import step_sort_key


class _Game:
    def __init__(self, path: Path) -> None:
        self.path = path


def test_turn_numbers_sort_by_value_and_years_stay_in_order() -> None:
    assert sorted(["10", "9", "1", "2"], key=step_sort_key) == ["1", "2", "9", "10"]
    assert sorted(["5010", "5009"], key=step_sort_key) == ["5009", "5010"]
    assert step_sort_key("setup") > step_sort_key("99")


def test_a_step_within_a_turn_comes_after_the_turn_and_before_the_next() -> None:
    keys = ["10", "3-battles", "4", "3", "9-battles", "2"]
    assert sorted(keys, key=step_sort_key) == ["2", "3", "3-battles", "4", "9-battles", "10"]


def test_the_resolved_step_before_turn_10_is_turn_9(tmp_path: Path) -> None:
    for step in ("1", "2", "9", "10"):
        (tmp_path / "archive" / step).mkdir(parents=True)
    assert resolved_step(_Game(tmp_path), "10") == "9"  # type: ignore[arg-type]
    assert resolved_step(_Game(tmp_path), "11") == "10"  # type: ignore[arg-type]


def test_the_archive_index_lists_turn_10_before_turn_9(tmp_path: Path) -> None:
    for step in ("1", "9", "10"):
        (tmp_path / "outbox" / step).mkdir(parents=True)
    assert [s.step for s in collect(tmp_path)] == ["10", "9", "1"]
