"""The three combat results tables cell by cell against the digest's transcription of the seed
(read from ``../shared/rules/millennium-wars.md``, not copied), the Assault reconstruction, the
odds columns at every boundary, and the shifts with both readings of the limits."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from refassist.rulesets.millennium_wars.crt import (
    AIR_LAND,
    ASSAULT,
    COLUMNS,
    CRTS,
    RAID,
    RESULTS,
    Shift,
    odds,
    raw_column,
)

DIGEST = Path(__file__).resolve().parents[3] / "shared" / "rules" / "millennium-wars.md"


def _digest_tables() -> dict[str, list[list[str]]]:
    """The digest's CRT block: three tables side by side, 6 rows (Assault only 3)."""
    text = DIGEST.read_text(encoding="utf-8")
    block = text.split("**CRTs**")[1].split("```")[1]
    tables: dict[str, list[list[str]]] = {"raid": [], "air-land": [], "assault": []}
    for line in block.splitlines():
        groups = re.findall(r"([1-6])((?: +[A-Z][A-Z1]){10})", line)
        for name, (_, codes) in zip(("raid", "air-land", "assault"), groups, strict=False):
            tables[name].append(codes.split())
    return tables


PRINTED = _digest_tables()
CELLS = [
    (name, die, column)
    for name, rows in PRINTED.items()
    for die in range(1, len(rows) + 1)
    for column in range(10)
]


def test_the_digest_holds_the_printed_tables() -> None:
    assert [len(PRINTED[n]) for n in ("raid", "air-land", "assault")] == [6, 6, 3]


@pytest.mark.parametrize(("name", "die", "column"), CELLS, ids=lambda v: str(v))
def test_every_printed_cell(name: str, die: int, column: int) -> None:
    assert CRTS[name].result(column, die) == PRINTED[name][die - 1][column]


@pytest.mark.parametrize(
    ("die", "row"),
    [
        (4, "AD AD AR AR BB DR DR DD DD DE"),
        (5, "AD AR AR BB DR DR DD DD DE DE"),
        (6, "AR AR BB DR DR DD DD DE DE DE"),
    ],
)
def test_the_assault_reconstruction(die: int, row: str) -> None:
    assert [ASSAULT.result(c, die) for c in range(10)] == row.split()
    assert die in ASSAULT.reconstructed


def test_the_reconstruction_goes_on_as_the_printed_rows_go() -> None:
    """Down every column the results only ever move toward the defender, and across every
    row toward the attacker's favour as the odds rise, in the printed rows as in ours."""
    ladder = ["AE", "AD", "AR", "BB", "B1", "DR", "DD", "DE"]
    for column in range(10):
        down = [ladder.index(ASSAULT.result(column, d)) for d in range(1, 7)]
        assert down == sorted(down), column
    for die in range(1, 7):
        across = [ladder.index(ASSAULT.result(c, die)) for c in range(10)]
        assert across == sorted(across), die


def test_the_referee_replaces_the_reconstructed_rows() -> None:
    printed = ASSAULT.with_rows({4: ["ad", "ad", "ar", "ne", "ne", "dr", "dr", "dd", "dd", "dd"]})
    assert printed.result(3, 4) == "NE" and printed.reconstructed == {5, 6}
    with pytest.raises(ValueError, match="unknown results"):
        ASSAULT.with_rows({5: ["XX"] * 10})
    with pytest.raises(ValueError, match="6 rows of 10"):
        ASSAULT.with_rows({5: ["AE"] * 9})
    with pytest.raises(ValueError, match="no row 7"):
        ASSAULT.with_rows({7: ["AE"] * 10})


def test_every_result_is_defined_and_used() -> None:
    used = {c for crt in (RAID, ASSAULT, AIR_LAND) for row in crt.rows for c in row}
    assert used == set(RESULTS)


@pytest.mark.parametrize(
    ("attack", "defence", "column"),
    [
        (1, 4, 0),  # 1/4
        (2, 7, 0),  # 0.29: rounded down to 1/4
        (1, 3, 1),
        (4, 9, 1),  # 0.44: 1/3
        (1, 2, 2),
        (9, 10, 2),  # 0.9: 1/2
        (5, 5, 3),
        (7, 5, 3),  # 1.4: 1/1
        (3, 2, 4),
        (11, 6, 4),  # 1.83: 1.5/1
        (2, 1, 5),
        (29, 10, 5),  # 2.9: 2/1
        (3, 1, 6),
        (4, 1, 7),
        (5, 1, 8),
        (6, 1, 9),
        (13, 2, 9),  # 6.5: 6/1
        (7, 1, 10),  # beyond the table: 7/1
        (20, 2, 13),  # 10/1
        (1, 5, -1),  # below: 1/5
        (2, 9, -1),  # 0.22: 1/5
        (1, 6, -2),
        (3, 0, 9),  # nothing defends: the best column
    ],
)
def test_odds_columns_round_down_at_every_boundary(attack: int, defence: int, column: int) -> None:
    assert raw_column(attack, defence) == column
    if 0 <= column <= 9:
        assert (
            Fraction(attack, max(defence, 1))
            >= Fraction(*map(Fraction, COLUMNS[column].split("/")))
            or defence == 0
        )


def test_shifts_with_the_limits_last_or_first() -> None:
    # 9 to 1 is 9/1, three columns beyond 6/1.  Two to the left: 4/1 when the limits come
    # first (the seed's order, our default); still 6/1 when they come last (the house rule).
    left = [Shift(-2, "city")]
    assert odds(9, 1, left).label == "4/1"
    assert odds(9, 1, left, limits_after_shifts=True).label == "6/1"
    # 1 to 6 is two columns below 1/4: +1 leaves it at 1/4 when the limits come last, +3
    # reaches 1/1 when they come first (1/4 + 3) and only 1/3 when they come last.
    assert odds(1, 6, [Shift(1, "air superiority")], limits_after_shifts=True).label == "1/4"
    assert odds(1, 6, [Shift(1, "air superiority")]).label == "1/3"
    assert odds(1, 6, [Shift(3, "x")], limits_after_shifts=True).label == "1/3"
    assert odds(1, 6, [Shift(3, "x")]).label == "1/1"
    # Shifts add: 12 to 5 is 2/1; +1 air superiority, -1 town, -2 river: 1/1.
    got = odds(12, 5, [Shift(1, "air superiority"), Shift(-1, "town"), Shift(-2, "river")])
    assert (got.raw, got.total_shift, got.label) == (5, -2, "1/1")
    assert got.describe() == "12 to 5: 2/1, +1 air superiority, -1 town, -2 river: 1/1"
    assert odds(9, 1, left).describe() == "9 to 1: 6/1 (9/1 beyond the table), -2 city: 4/1"
    # With no shift the column is said once.
    assert odds(4, 7, []).describe() == "4 to 7: 1/2"
    assert odds(9, 1, []).describe() == "9 to 1: 6/1 (9/1 beyond the table)"


# -- the table's edges, as mutation testing found them unguarded ---------------------------------


@pytest.mark.parametrize(("column", "die"), [(-1, 1), (10, 1), (0, 0), (0, 7), (10, 7)])
def test_a_result_outside_the_table_is_refused_by_name(column: int, die: int) -> None:
    """Ten columns (0-9) and six rows (1-6): anything else is a program error, named."""
    with pytest.raises(ValueError, match=f"no Raid result for column {column}, die {die}"):
        RAID.result(column, die)


def test_the_corner_cells_are_inside_the_table() -> None:
    assert RAID.result(0, 1) == "AD"
    assert RAID.result(9, 6) == "DD"


@pytest.mark.parametrize("die", [1, 6])
def test_the_referee_may_replace_the_first_and_last_rows(die: int) -> None:
    printed = ["NE"] * len(COLUMNS)
    table = ASSAULT.with_rows({die: printed})
    assert table.rows[die - 1] == tuple(printed)
    assert table.name == "Assault"
    assert table.reconstructed == frozenset({4, 5, 6}) - {die}
    other = RAID.with_rows({die: printed})
    assert other.condition == RAID.condition
    assert other.condition.startswith("if at least half")


@pytest.mark.parametrize("die", [0, 7])
def test_a_row_outside_the_table_is_refused(die: int) -> None:
    with pytest.raises(ValueError, match=f"the Assault CRT has no row {die}"):
        ASSAULT.with_rows({die: ["NE"] * len(COLUMNS)})


@pytest.mark.parametrize(("attack", "defence"), [(-1, 3), (3, -1)])
def test_a_negative_strength_is_refused(attack: int, defence: int) -> None:
    with pytest.raises(ValueError, match="strengths are not negative"):
        raw_column(attack, defence)


@pytest.mark.parametrize(
    ("attack", "defence", "column"),
    [(0, 5, -100), (0, 0, 0), (5, 0, len(COLUMNS) - 1), (1, 5, -1), (6, 1, 9), (7, 1, 10)],
)
def test_the_raw_column_at_nothing_and_beyond(attack: int, defence: int, column: int) -> None:
    """No attack strength is hopeless (-100, so no shift can lift it into the table); no
    defence is the last column; nothing against nothing is the first."""
    assert raw_column(attack, defence) == column


def test_odds_are_described_as_reports_print_them() -> None:
    assert odds(1, 4, []).describe() == "1 to 4: 1/4"
    assert odds(1, 5, []).describe() == "1 to 5: 1/4 (below the table)"
    assert odds(7, 1, []).describe() == "7 to 1: 6/1 (7/1 beyond the table)"
    assert odds(6, 1, []).describe() == "6 to 1: 6/1"
    balanced = odds(4, 2, [Shift(1, "air superiority"), Shift(-1, "town")])
    assert balanced.describe() == "4 to 2: 2/1, +1 air superiority, -1 town: 2/1"
