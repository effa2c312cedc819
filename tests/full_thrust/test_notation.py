"""The timeline notation as commanders type it, read and written back."""

from __future__ import annotations

import pytest

from refassist.errors import InvalidOrder
from refassist.rulesets.full_thrust.parse import activity_text, parse_activity
from refassist.rulesets.full_thrust.timeline import Activity


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("jump Brenn", Activity("jump", "Brenn")),
        ('jump Brenn 60" b4', Activity("jump", "Brenn", inches=60, bearing=4)),
        (
            "Jump  to  The Eye 45 inches bearing 11",
            Activity("jump", "The Eye", inches=45, bearing=11),
        ),
        ("jump Berlin 35in b2", Activity("jump", "Berlin", inches=35, bearing=2)),
        ("jump Gyre from 25\u201d", Activity("jump", "Gyre", jump_from=25)),
        ('jump Gyre from 25"', Activity("jump", "Gyre", jump_from=25)),
        ("at 3.1 land", Activity("land", at=31)),
        ("AT 2,5 LIFT", Activity("lift", at=25)),
        ("load 200", Activity("load", amount=200)),
        ("unload 200 PP", Activity("unload", amount=200)),
        ("sell 150 points", Activity("sell", amount=150)),
        ("refuel", Activity("refuel")),
        ("refuel from DR-2", Activity("refuel", target="DR-2")),
        ("wait until 4.1", Activity("wait", until=41)),
        ("wait 4.1", Activity("wait", until=41)),
        ("guard", Activity("guard")),
        ("guard until 7", Activity("guard", until=70)),
        ("recharge", Activity("recharge")),
        ("reserve", Activity("reserve")),
        ("explore", Activity("explore")),
        ("unload 200 to Bob", Activity("unload", "Bob", amount=200)),
        ("Unload all TO Ann Marie", Activity("unload", "Ann Marie", amount=-1)),
        ("demolish", Activity("demolish")),
        ("refit", Activity("refit")),
        ("refit Claymore cruiser", Activity("refit", "Claymore cruiser")),
        ("demolish ANN-OMP1", Activity("demolish", "ANN-OMP1")),
        ("\u00a0jump\u2003Brenn\u00a0", Activity("jump", "Brenn")),
    ],
)
def test_lines_people_type(text: str, expected: Activity) -> None:
    got = parse_activity(text, cell="C14")
    assert (got.kind, got.target, got.amount, got.inches, got.bearing, got.jump_from) == (
        expected.kind,
        expected.target,
        expected.amount,
        expected.inches,
        expected.bearing,
        expected.jump_from,
    )
    assert (got.at, got.until, got.cell) == (expected.at, expected.until, "C14")
    again = parse_activity(activity_text(got))
    assert again == parse_activity(activity_text(got)) and activity_text(again) == activity_text(
        got
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "gives no activity"),
        ("fly Brenn", "'fly' is not an activity"),
        ("jump", "needs the system or wormhole"),
        ('jump 60" Brenn', "the destination comes first"),
        ("jump Brenn b13", "not on the 12-point clock"),
        ("load", "needs a number of production points"),
        ("load lots", "needs a number"),
        ("wait", "write wait until"),
        ("wait until 12.0", "after the end of the week"),
        ("at 3.15 land", "not a time of the week"),
        ("land now", "takes nothing after it"),
        ("refuel DR-2", "refuel from SHIP"),
        ("unload 200 to", "unload N to COMMANDER"),
        ("unload lots to Bob", "needs a number"),
        ("demolish A B", "demolish FACILITY"),
        ("refit 3rd cruiser", "refit DESIGN"),
        ("mine", "Orbital Mining Platform"),
        ("build Claymore cruiser", "construction lines"),
        ("trade 200", "sell N"),
        ("load \u0662\u0660\u0660", "looks like a digit"),
    ],
)
def test_lines_that_cannot_be_read(text: str, message: str) -> None:
    with pytest.raises(InvalidOrder, match=message) as caught:
        parse_activity(text, cell="C14")
    assert caught.value.cell == "C14"
