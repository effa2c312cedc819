"""`refassist.geometry.routegraph`: searches over places joined by routes of a length, on a small
map worked by hand."""

from __future__ import annotations

from refassist.geometry.routegraph import cheapest_path, distances, linked

#   A -1- B -1- D          A to D: A-B-D (2) and A-C-D (1 + 1) tie; B comes first by name.
#   A -1- C -1- D -3- E    F stands alone.
_ROUTES = {("A", "B"): 1, ("A", "C"): 1, ("B", "D"): 1, ("C", "D"): 1, ("D", "E"): 3}


def _neighbours(place: str) -> list[tuple[str, int]]:
    out = [(b, n) for (a, b), n in _ROUTES.items() if a == place]
    return out + [(a, n) for (a, b), n in _ROUTES.items() if b == place]


def test_linked_goes_round_what_is_blocked_and_never_through_it() -> None:
    assert linked(_neighbours, "E", ["A"], blocked={"B"})
    assert not linked(_neighbours, "E", ["A"], blocked={"D"})
    assert not linked(_neighbours, "F", ["A"], blocked=())
    assert not linked(_neighbours, "A", ["A"], blocked={"A"})


def test_distances_reach_an_avoided_place_but_do_not_cross_it() -> None:
    assert distances(_neighbours, ["A"]) == {"A": 0, "B": 1, "C": 1, "D": 2, "E": 5}
    assert distances(_neighbours, ["A"], avoid={"D"}) == {"A": 0, "B": 1, "C": 1, "D": 2}
    assert distances(_neighbours, ["E", "B"])["A"] == 1


def test_the_cheapest_path_breaks_ties_by_name_and_may_end_in_an_avoided_place() -> None:
    assert cheapest_path(_neighbours, "A", "E") == ["B", "D", "E"]
    assert cheapest_path(_neighbours, "A", "E", avoid={"B"}) == ["C", "D", "E"]
    assert cheapest_path(_neighbours, "A", "D", avoid={"D"}) == ["B", "D"]
    assert cheapest_path(_neighbours, "A", "E", avoid={"D"}) == []
    assert cheapest_path(_neighbours, "A", "F") == [] == cheapest_path(_neighbours, "A", "A")
