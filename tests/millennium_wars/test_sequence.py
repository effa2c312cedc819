"""The exchanges of a game turn in order: impulses taken by C4I level, reactions, fast play,
the ceasefire exchange; step keys that sort as played and dice numbers that never repeat."""

from __future__ import annotations

import pytest

from refassist.rulesets.millennium_wars.sequence import Point, after, parse_key, qualifies
from refassist.store.game import step_sort_key


def turn_of_exchanges(
    c4i: dict[int, int], fast_play: bool = False, by_c4i: bool = True
) -> list[str]:
    point, keys = Point(1), []
    while point.turn == 1:
        keys.append(point.key)
        point = after(point, c4i, fast_play=fast_play, by_c4i=by_c4i)
    return keys


def test_a_game_turn_with_c4i_3_and_2() -> None:
    # First Player C4I 3: three impulses; Second C4I 2: two; each with its reaction.
    assert turn_of_exchanges({1: 3, 2: 2}) == [
        "1-1-1", "1-1-1r", "1-1-2", "1-1-2r", "1-1-3", "1-1-3r",
        "1-2-1", "1-2-1r", "1-2-2", "1-2-2r",
    ]  # fmt: skip


def test_c4i_0_still_takes_the_first_impulse_and_fast_play_skips_reactions() -> None:
    assert turn_of_exchanges({1: 0, 2: 1}) == ["1-1-1", "1-1-1r", "1-2-1", "1-2-1r"]
    assert turn_of_exchanges({1: 3, 2: 2}, fast_play=True) == [
        "1-1-1", "1-1-2", "1-1-3", "1-2-1", "1-2-2"
    ]  # fmt: skip


def test_without_the_c4i_reading_every_player_turn_has_three_impulses() -> None:
    assert turn_of_exchanges({1: 0, 2: 1}, fast_play=True, by_c4i=False) == [
        "1-1-1", "1-1-2", "1-1-3", "1-2-1", "1-2-2", "1-2-3"
    ]  # fmt: skip
    # Without fast play an impulse sheet is followed by its reaction.
    assert after(Point(1), {1: 3, 2: 2}) == Point(1, reaction=True)


def test_qualifying_for_an_impulse() -> None:
    assert qualifies(1, 0) and qualifies(2, 2) and not qualifies(3, 2) and qualifies(3, 3)


def test_the_last_exchange_leads_to_the_next_turn_and_the_ceasefire_back_to_it() -> None:
    assert after(Point(4, 2, 1, True), {2: 1}) == Point(5)
    assert after(Point(4, ceasefire=True), {}) == Point(4)


def test_keys_round_trip_sort_as_played_and_dice_never_repeat() -> None:
    points = [
        Point(t, p, i, r)
        for t in (1, 2, 10)
        for p in (1, 2)
        for i in (1, 2, 3)
        for r in (False, True)
    ] + [Point(t, ceasefire=True) for t in (1, 2, 10)]
    for point in points:
        assert parse_key(point.key) == point
    played = sorted(
        points, key=lambda p: (p.turn, not p.ceasefire, p.player_turn, p.impulse, p.reaction)
    )
    assert sorted((p.key for p in points), key=step_sort_key) == [p.key for p in played]
    assert len({p.dice_turn for p in points}) == len(points)


@pytest.mark.parametrize(
    "key", ["3", "3-3-1", "3-1-4", "3-1-1x", "x-1-1", "3-ceasefire", "3-0-ceasefire-1"]
)
def test_keys_that_are_not_steps(key: str) -> None:
    with pytest.raises(ValueError, match="is not a step of this game"):
        parse_key(key)
