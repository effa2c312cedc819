"""Trade between empires (section 6.3, 6.31), rolled in the production phase.

One 2D6 roll per agreement, plus the difference between the two empires' tech levels, capped at
12; the same modified roll serves both partners (the seed's worked example).  Each empire gains
the partner's number of systems times the table's modifier, rounded to the nearest whole number
(halves up), never below 0; "no change" is x1, and the -D6/+D6 rows subtract or add one further
die (one roll per agreement, shared by both partners) from that number.

The seed's example reads a modified 11 as x1.5, which is the table's row 10; the table wins
(``tests/test_rules_trade.py`` records the discrepancy).

An agreement broken by war this turn is still rolled once more: the aggressor gains nothing and
the victim gains its entitlement, taken out of the aggressor's production total, its income of
the turn (`production.forfeit_means`, house rule ``war_forfeit``).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from fractions import Fraction

from .context import TurnContext

PHASE = "production"

#: The trade table: modified roll -> (kind, multiplier).  ``x`` multiplies the partner's
#: systems; ``-D6``/``+D6`` subtract/add one die from them.
TRADE_TABLE: dict[int, tuple[str, Fraction]] = {
    2: ("x", Fraction(3, 10)),
    3: ("x", Fraction(1, 2)),
    4: ("x", Fraction(7, 10)),
    5: ("-D6", Fraction(1)),
    6: ("x", Fraction(1)),
    7: ("x", Fraction(1)),
    8: ("x", Fraction(1)),
    9: ("+D6", Fraction(1)),
    10: ("x", Fraction(3, 2)),
    11: ("x", Fraction(2)),
    12: ("x", Fraction(3)),
}


def round_half_up(value: Fraction) -> int:
    """Nearest whole number, halves rounded up (15.5 -> 16), as a referee rounds by hand."""
    return int((value + Fraction(1, 2)).__floor__())


def table_row(roll: int, modifier: int) -> int:
    """The row of the table a roll reads: roll + modifier, never above 12 (nor below 2)."""
    return max(2, min(12, roll + modifier))


def multiplier_text(row: int) -> str:
    kind, mult = TRADE_TABLE[row]
    if kind != "x":
        return kind
    return "no change" if mult == 1 else f"x{float(mult):g}"


def trade_points(partner_systems: int, row: int, extra_die: int = 0) -> int:
    """Points one empire gains: the partner's systems read through the table row."""
    kind, mult = TRADE_TABLE[row]
    if kind == "-D6":
        value = Fraction(partner_systems - extra_die)
    elif kind == "+D6":
        value = Fraction(partner_systems + extra_die)
    else:
        value = partner_systems * mult
    return max(0, round_half_up(value))


@dataclass(frozen=True)
class TradeResult:
    """One agreement's roll and what each partner gained."""

    a: str
    b: str
    dice: tuple[int, int]
    modifier: int
    row: int
    extra_die: int
    points: dict[str, int]
    seqs: tuple[int, ...]
    broken: bool = False


def systems_owned(ctx: TurnContext, player: str) -> int:
    return sum(1 for owner in map(_OWNER, ctx.state.systems) if owner == player)


_OWNER = operator.attrgetter("owner")


def roll_trade(ctx: TurnContext, a: str, b: str, *, broken: bool = False) -> TradeResult:
    """Roll one agreement (players in name order, so the dice log reads the same each time)."""
    state = ctx.state
    pa, pb = state.player(a), state.player(b)
    assert pa is not None and pb is not None
    mark = ctx.dice_mark()
    with ctx.dice.at(phase=PHASE, location=""):
        d1 = ctx.dice.d6(f"trade {a}-{b}, first die")
        d2 = ctx.dice.d6(f"trade {a}-{b}, second die")
        modifier = abs(pa.tech_level - pb.tech_level)
        row = table_row(d1 + d2, modifier)
        extra = ctx.dice.d6(f"trade {a}-{b}, {TRADE_TABLE[row][0]}") if row in (5, 9) else 0
    points = {
        a: trade_points(systems_owned(ctx, b), row, extra),
        b: trade_points(systems_owned(ctx, a), row, extra),
    }
    return TradeResult(a, b, (d1, d2), modifier, row, extra, points, ctx.dice_since(mark), broken)


def roll_all(ctx: TurnContext) -> list[TradeResult]:
    """Every agreement in force, and every one broken by war this turn, in name order."""
    pairs = {(r.a, r.b): False for r in ctx.state.relations if r.kind == "trade"}
    for pair in ctx.broken_trade:
        pairs[pair] = True
    out = []
    for (a, b), broken in sorted(pairs.items()):
        pa, pb = ctx.state.player(a), ctx.state.player(b)
        if pa is None or pb is None or pa.eliminated or pb.eliminated:
            continue
        out.append(roll_trade(ctx, a, b, broken=broken))
    return out
