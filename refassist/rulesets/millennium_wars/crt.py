"""The land combat results tables: odds columns, column shifts and the three CRTs.

An attack's odds are its attack strength against the defence strength, rounded down to one of
ten columns (1/4 ... 6/1).  Shifts move the column: positive for the attacker, negative for the
defender.  The seed's text under the tables says odds below 1/4 "remain 1/4" and above 6/1
"remain 6/1" before it lists the shifts: the limits come first (a 9/1 attack shifted two to
the left is at 4/1); the ``odds_limits`` house rule keeps our former order (limits last).

The Raid and Air-Land Battle CRTs are printed whole in the seed.  The Assault CRT lost rows 4-6
in conversion: we ship a reconstruction that continues rows 1-3 (every column one step further
toward the defender for each row), marked as such in every report that uses it, and the
referee can replace those rows with the printed values (`CRT.with_rows`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

#: The ten odds columns, as printed, and the ratio each stands for.
COLUMNS: tuple[str, ...] = ("1/4", "1/3", "1/2", "1/1", "1.5/1", "2/1", "3/1", "4/1", "5/1", "6/1")
RATIOS: tuple[Fraction, ...] = (
    Fraction(1, 4),
    Fraction(1, 3),
    Fraction(1, 2),
    Fraction(1),
    Fraction(3, 2),
    Fraction(2),
    Fraction(3),
    Fraction(4),
    Fraction(5),
    Fraction(6),
)

#: Every combat result, with what it does (the seed's definitions, shortened).
RESULTS: dict[str, str] = {
    "AE": "attacker eliminated; the defenders may advance one hex into the attacker's hex",
    "AD": "disrupted attackers eliminated, the others disrupted; survivors retreat two hexes; "
    "the defenders may advance one hex",
    "A1": "attacker ambushed: one attacking unit disrupted (or, if disrupted, eliminated), "
    "the attacker's choice; no retreat or advance",
    "AR": "attackers retreat one hex; the defenders may advance one hex",
    "NE": "no effect",
    "DR": "defenders retreat one hex; the attackers may advance into the hex it leaves",
    "D1": "defender ambushed: one defending unit disrupted (or, if disrupted, eliminated), "
    "the defender's choice; no retreat or advance",
    "DD": "disrupted defenders eliminated, the others disrupted; survivors retreat two hexes; "
    "the attackers may advance one hex into the first hex they leave",
    "DE": "defender eliminated; the attackers may advance one hex into its hex",
    "B1": "mutual attrition: disrupted defenders eliminated, the others disrupted; one "
    "attacking unit disrupted or eliminated, the attacker's choice; no retreat or advance",
    "BB": "bloodbath: on both sides disrupted units eliminated, the others disrupted; no "
    "retreat or advance",
}


@dataclass(frozen=True)
class CRT:
    """One combat results table: six rows (die 1-6) of ten results, one per odds column.
    ``reconstructed``: the rows (1-6) that are our reconstruction, not the printed table."""

    name: str
    rows: tuple[tuple[str, ...], ...]
    reconstructed: frozenset[int] = field(default_factory=frozenset)
    condition: str = ""

    def __post_init__(self) -> None:
        if len(self.rows) != 6 or any(len(r) != len(COLUMNS) for r in self.rows):
            raise ValueError(f"the {self.name} CRT needs 6 rows of {len(COLUMNS)} results")
        unknown = {c for r in self.rows for c in r} - set(RESULTS)
        if unknown:
            raise ValueError(f"the {self.name} CRT has unknown results {sorted(unknown)}")

    def result(self, column: int, die: int) -> str:
        """The result for a final column (0-9) and a die (1-6)."""
        if not 0 <= column < len(COLUMNS) or not 1 <= die <= 6:
            raise ValueError(f"no {self.name} result for column {column}, die {die}")
        return self.rows[die - 1][column]

    def with_rows(self, rows: Mapping[int, Sequence[str]]) -> CRT:
        """The table with some rows replaced (the referee's printed values): those rows are
        no longer a reconstruction.  Codes are read as typed, case and spaces aside."""
        table = [list(r) for r in self.rows]
        for die, codes in rows.items():
            if not 1 <= die <= 6:
                raise ValueError(f"the {self.name} CRT has no row {die} (rows are 1-6)")
            table[die - 1] = [str(c).strip().upper() for c in codes]
        return CRT(
            self.name,
            tuple(tuple(r) for r in table),
            self.reconstructed - set(rows),
            self.condition,
        )


def _table(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(line.split()) for line in text.strip().splitlines())


RAID = CRT(
    "Raid",
    _table(
        """
        AD AD AD AD A1 A1 AR NE NE NE
        AD AD A1 A1 A1 AR NE DR DR DR
        AD A1 A1 AR AR NE NE DR DR D1
        A1 A1 AR NE NE NE DR D1 D1 DD
        A1 AR NE DR DR DR D1 D1 DD DD
        AR NE D1 D1 D1 D1 DD DD DD DD
        """
    ),
    condition="if at least half the attack strength is non-mechanized, the defender gets no "
    "terrain shift",
)
AIR_LAND = CRT(
    "Air-Land Battle",
    _table(
        """
        AE AE AE AD AD A1 A1 A1 A1 A1
        AE AE AD AD AD DD DD DD DD DD
        AE AD AD AD DD DD DD DD DD DE
        AD AD AD DD DD DD DD DD DE DE
        AD AD DD DD DD DD DE DE DE DE
        AD DD DD DD DD DE DE DE DE DE
        """
    ),
    condition="at least half the printed strength of the choosing player must be High-Tech",
)
#: Rows 1-3 as printed; rows 4-6 our reconstruction (each column one step on along the ladder
#: AE, AD, AR, BB, DR, DD, DE, as rows 1-3 go), to be replaced by the printed values.
ASSAULT = CRT(
    "Assault",
    _table(
        """
        AE AE AE AE AD AD BB BB B1 B1
        AE AE AD AD AD AR BB DR DR DR
        AE AD AD AR AR BB DR DD DD DD
        AD AD AR AR BB DR DR DD DD DE
        AD AR AR BB DR DR DD DD DE DE
        AR AR BB DR DR DD DD DE DE DE
        """
    ),
    reconstructed=frozenset({4, 5, 6}),
)
CRTS: dict[str, CRT] = {"raid": RAID, "assault": ASSAULT, "air-land": AIR_LAND}


def raw_column(attack: int, defence: int) -> int:
    """The odds column of ``attack`` against ``defence`` before shifts and limits, rounded down
    (in the defender's favour).  Beyond the table it goes on: below 1/4, one column further
    left for each 1/n (1/5 is -1, 1/6 is -2); above 6/1, one column for each whole 1 (7/1 is
    10), so that shifts act on the true odds when the limits come last."""
    if attack < 0 or defence < 0:
        raise ValueError("strengths are not negative")
    if defence == 0:
        return len(COLUMNS) - 1 if attack else 0
    odds = Fraction(attack, defence)
    if odds < RATIOS[0]:
        if odds == 0:
            return -100
        # 1/n <= odds < 1/(n-1): column 4 - n (1/5 -> -1, 1/6 -> -2).
        n = -(-odds.denominator // odds.numerator)  # ceil(1 / odds)
        return 4 - n
    if odds >= RATIOS[-1]:
        return len(COLUMNS) - 1 + int(odds) - 6
    return max(i for i, ratio in enumerate(RATIOS) if odds >= ratio)


@dataclass(frozen=True)
class Shift:
    """One column shift and why: positive for the attacker, negative for the defender."""

    amount: int
    reason: str
    #: The political points the shift costs (a political points shift; 0 for any other).
    cost: int = 0


@dataclass(frozen=True)
class Odds:
    """How an attack came to its column: the raw odds, the shifts, the column used."""

    attack: int
    defence: int
    raw: int
    shifts: tuple[Shift, ...]
    column: int

    @property
    def label(self) -> str:
        return COLUMNS[self.column]

    @property
    def total_shift(self) -> int:
        return sum(s.amount for s in self.shifts)

    def describe(self) -> str:
        """``12 to 5: 2/1, +1 air superiority, -1 town: 2/1`` as reports print it; with no
        shift, just ``4 to 7: 1/2`` (the column once, not thrice)."""
        raw = COLUMNS[min(max(self.raw, 0), len(COLUMNS) - 1)]
        beyond = ""
        if self.raw > len(COLUMNS) - 1:
            beyond = f" ({self.raw - len(COLUMNS) + 7}/1 beyond the table)"
        elif self.raw < 0:
            beyond = " (below the table)"
        parts = [f"{self.attack} to {self.defence}: {raw}{beyond}"]
        moved = [f"{s.amount:+d} {s.reason}" for s in self.shifts if s.amount]
        if not moved and self.column == min(max(self.raw, 0), len(COLUMNS) - 1):
            return parts[0]
        return ", ".join(parts + moved) + f": {self.label}"


def odds(
    attack: int, defence: int, shifts: Sequence[Shift], *, limits_after_shifts: bool = False
) -> Odds:
    """The column an attack is resolved on.  By default, as the seed's table text orders it
    ("Odds less than 1/4 remain 1/4. Odds greater than 6/1 remain 6/1." before the shifts),
    the odds are first held to 1/4 - 6/1 and the shifts then move within the table (9/1 into a
    city is 6/1 - 2: 4/1).  With ``limits_after_shifts`` (the house rule ``odds_limits =
    "after_shifts"``, our former reading) the odds beyond the table count before the shifts
    and the limits come last."""
    raw = raw_column(attack, defence)
    total = sum(s.amount for s in shifts)
    start = raw if limits_after_shifts else min(max(raw, 0), len(COLUMNS) - 1)
    column = min(max(start + total, 0), len(COLUMNS) - 1)
    return Odds(attack, defence, raw, tuple(shifts), column)


__all__ = [
    "AIR_LAND",
    "ASSAULT",
    "COLUMNS",
    "CRT",
    "CRTS",
    "RAID",
    "RATIOS",
    "RESULTS",
    "Odds",
    "Shift",
    "odds",
    "raw_column",
]
