"""Hand-built Fifth Millennium states for the rule tests.

Rule tests build the smallest state that shows one rule (a few systems, two or three players)
and resolve it with scripted dice, so each test states exactly which die does what.  The hexes
used are around 1010 in subsector F; distances there are easy to check by hand (1010-1011 is 1
hex, 1010-1014 is 4, 1010-1015 is 5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from refassist.dice import Dice
from refassist.rulesets.base import Event, Resolution
from refassist.rulesets.fifth_millennium.orders import (
    Diplomacy,
    MessageOrder,
    Move,
    Orders,
    Purchase,
)
from refassist.rulesets.fifth_millennium.resolve import resolve_turn
from refassist.rulesets.fifth_millennium.state import (
    Facility,
    Fleet,
    Flight,
    Force,
    Player,
    Relation,
    State,
    System,
)

YEAR = 5003


def system(hex_: str, cls: str = "C", owner: str = "", **kw: Any) -> System:
    # The printed map shows the system as created unless a test says otherwise.
    for flag in ("naval_base", "scout_base", "hipop"):
        kw.setdefault(f"map_{flag}", kw.get(flag, False))
    return System(
        hex=hex_,
        name=kw.pop("name", f"World{hex_}"),
        original_class=kw.pop("original_class", cls),
        resource_class=cls,
        owner=owner,
        **kw,
    )


def state(
    systems: Iterable[System],
    players: Iterable[str] = ("Ann", "Bob"),
    *,
    year: int = YEAR,
    forces: Iterable[Force] = (),
    facilities: Iterable[Facility] = (),
    flights: Iterable[Flight] = (),
    relations: Iterable[tuple[str, str, str]] = (),
    homeworlds: Mapping[str, str] | None = None,
    filler: bool = True,
) -> State:
    """A state of ``year``.

    Each player's homeworld is, unless given, the first system it owns in hex order (a real
    game always has one, and the separation rules measure from it).  ``filler`` adds ten
    unowned class X systems far away (column 30), so that owning the few systems of a test
    never wins the game by accident.
    """
    systems = list(systems)
    if homeworlds is None:
        homeworlds = {}
        for sys_ in sorted(systems, key=lambda x: x.hex):
            if sys_.owner and sys_.owner not in homeworlds:
                homeworlds[sys_.owner] = sys_.hex
    if filler:
        systems += [system(f"30{row:02d}", "X") for row in range(30, 40)]
    s = State(
        game_id="test",
        game_name="Test",
        year=year,
        systems=systems,
        players=[Player(name=p, homeworld=homeworlds.get(p, "")) for p in players],
        forces=list(forces),
        facilities=list(facilities),
        flights=list(flights),
        relations=[
            Relation(kind=k, a=min(a, b), b=max(a, b), since=year - 1) for k, a, b in relations
        ],
    )
    s.normalise()
    return s


def force(hex_: str, owner: str, *, M: int = 0, P: int = 0, building: bool = False, **f: int):
    return Force(hex=hex_, owner=owner, fleet=Fleet(**f), M=M, P=P, building=building)


def facility(hex_: str, owner: str, kind: str, count: int = 1, building: bool = False):
    return Facility(hex=hex_, owner=owner, kind=kind, count=count, building=building)


def flight(
    owner: str,
    origin: str,
    destination: str,
    *,
    arrival: int = YEAR,
    departed: int = YEAR - 1,
    probe: bool = False,
    id: str = "",
    **f: int,
) -> Flight:
    return Flight(
        id=id or f"{departed}-{owner}-{origin}-{destination}",
        owner=owner,
        origin=origin,
        destination=destination,
        departed=departed,
        arrival=arrival,
        fleet=Fleet(**f),
        probe=probe,
    )


def move(origin: str, destination: str, year: int = YEAR, probe: bool = False, **f: int) -> Move:
    return Move(year=year, fleet=Fleet(**f), origin=origin, destination=destination, probe=probe)


def orders(player: str, year: int = YEAR, **kw: Any) -> Orders:
    return Orders(player=player, year=year, **kw)


def buy(location: str, item: str, quantity: int = 1) -> Purchase:
    return Purchase(location=location, item=item, quantity=quantity)


def diplo(action: str, other: str) -> Diplomacy:
    return Diplomacy(action=action, other=other)


def message(to: str, text: str) -> MessageOrder:
    return MessageOrder(to=to, text=text)


def resolve(
    s: State,
    order_list: Iterable[Orders] = (),
    dice: Iterable[int] = (),
    **rules: Any,
) -> Resolution:
    """Resolve with scripted dice; fails if a die is left over (every roll is accounted for)."""
    d = Dice.scripted(list(dice), turn=s.year)
    result = resolve_turn(s, {o.player: o for o in order_list}, d, rules)
    assert d.remaining == 0, f"{d.remaining} scripted dice were not used: {[r for r in d.log]}"
    return result


def events(result: Resolution, kind: str) -> list[Event]:
    return [e for e in result.events if e.kind == kind]


def one(result: Resolution, kind: str) -> Event:
    found = events(result, kind)
    assert len(found) == 1, f"expected one {kind} event, got {[e.text for e in found]}"
    return found[0]


def fleet_at(s: State, hex_: str, owner: str) -> Fleet:
    """The owner's ready squadrons at a hex (empty fleet if none)."""
    for f in s.forces:
        if f.hex == hex_ and f.owner == owner and not f.building:
            return f.fleet
    return Fleet()


def force_at(s: State, hex_: str, owner: str, building: bool = False) -> Force | None:
    for f in s.forces:
        if f.hex == hex_ and f.owner == owner and f.building == building:
            return f
    return None


def count(s: State, hex_: str, owner: str, kind: str) -> int:
    return sum(
        f.count for f in s.facilities if f.hex == hex_ and f.owner == owner and f.kind == kind
    )
