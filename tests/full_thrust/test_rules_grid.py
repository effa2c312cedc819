"""The grid's obstacles where a jump meets them first: the square next to the start.

``blocked_by`` leaves out the two ends of a jump (where the ship is and where it goes), and
only those: an obstacle in the very first square the line enters stops the jump like one
further on (seed: "should the straight line cross any obstacle the trip is impossible")."""

from __future__ import annotations

from refassist.rulesets.full_thrust.grid import blocked_by, squares_crossed


def test_an_obstacle_in_the_first_square_entered_blocks_the_jump() -> None:
    assert blocked_by((1, 1), (4, 1), {(2, 1)}) == (2, 1)
    assert blocked_by((4, 1), (1, 1), {(3, 1)}) == (3, 1)
    # On a diagonal the first square entered is the diagonal neighbour.
    assert blocked_by((1, 1), (4, 4), {(2, 2)}) == (2, 2)
    # Of two obstacles on the line, the one met first is named.
    assert blocked_by((1, 1), (6, 1), {(5, 1), (2, 1)}) == (2, 1)


def test_a_line_along_a_column_or_a_row_keeps_to_it() -> None:
    # Straight up or down, left or right: no step sideways in either direction.
    assert squares_crossed((3, 5), (3, 2)) == [(3, 5), (3, 4), (3, 3), (3, 2)]
    assert squares_crossed((5, 3), (2, 3)) == [(5, 3), (4, 3), (3, 3), (2, 3)]
