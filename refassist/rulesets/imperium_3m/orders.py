"""What a side's turn sheet says, as plain data (`sheet.read_sheet` builds it, the rules read it).

Every order keeps the cell it came from (``cell``, e.g. ``Actions!D7``) so that the checker
can pin a problem to it and a rule that skips an order can say which line it skipped.

The notation of an activation line (docs/rules/imperium-3rd-millennium.md, "Notation"): a line
names one system and holds one or more actions separated by ``;``::

    T1 > TAU > PRO               move fleet T1 along the routes Tau Ceti, Procyon
    T1 attack PRO4 auto          planetary battle at Procyon 4 (bombard, land, surface battle);
                                 landing hexes `auto` or one per landing unit: 1,1,3
    T1 load RT2 PD1 from SOL1    load units standing on a friendly planet
    T1 unload RT2 to ACB         unload onto a friendly (or empty) planet
    T1 split T4 DD1 DD2          divide: the named units form the new fleet T4
    T1 join T2                   combine: T2's units join T1
    T1 evacuate PRO4             load own units from a disputed planet
    attack PRO4                  renew the fight on a disputed planet with the units already
                                 on it (no fleet: troops alone)
    pass                         spend nothing now (the activation is kept for later)

An attack may end with ``no bombard`` (land without bombarding first) and ``fight 2,3`` (fight
only in those hexes of the planetary map; ``fight none`` fights nowhere this time), the
choices the seed gives the attacker.
"""

from __future__ import annotations

from dataclasses import dataclass, field

STANCES = ("close", "stand off", "hold")
PRIORITIES = ("capital", "carrier", "transport", "cheapest")
APPEALS = ("", "Forces", "Finances")
CLOSE_OUT_KINDS = ("scrap", "repair", "ground repair", "augment")


@dataclass
class Action:
    """One action of an activation.

    ``fleet`` is the acting fleet (empty for ``pass``); ``route`` the systems entered in order
    (move); ``planet`` the planet code (attack, load, unload, evacuate); ``units`` unit ids
    (load, unload, split); ``hexes`` landing hexes (empty = ``auto``); ``target`` the new
    fleet's name (split) or the fleet joining (join).  An attack's ``bombard`` is False for
    ``no bombard``, and ``fight`` lists the hexes to fight in (None: every hex both sides
    hold; empty: none); an attack without a fleet renews a fight with the units on the planet.
    """

    kind: str
    fleet: str = ""
    route: list[str] = field(default_factory=list)
    planet: str = ""
    units: list[str] = field(default_factory=list)
    hexes: list[int] = field(default_factory=list)
    target: str = ""
    text: str = ""
    bombard: bool = True
    fight: list[int] | None = None


@dataclass
class Activation:
    """One line of the activation list: in action ``segment`` (1-4), the ``order``-th
    activation the side asks for, at ``system``."""

    segment: int
    order: int
    system: str
    actions: list[Action]
    cell: str = ""
    text: str = ""


@dataclass
class BattleOrders:
    """Standing battle orders of one fleet (used in every space battle it fights this turn).

    ``break_off`` is the round after which the fleet withdraws (0 = fight all three rounds).
    ``retreat`` is where it goes if it loses: ``back`` (the way it came), ``home`` (towards its
    home world) or "" (the house rule ``retreat``); the seed lets the loser choose.
    ``stealth`` False: a fleet of scouts does not try to slip in unseen (the seed's "may").
    """

    fleet: str
    stance: str = "close"
    priority: str = "capital"
    break_off: int = 0
    cell: str = ""
    retreat: str = ""
    stealth: bool = True


RETREATS = ("back", "home")


def standing_text(b: BattleOrders) -> str:
    """A fleet's battle orders as the master workbook keeps them between turns
    (``stance=stand off; priority=transport; break_off=1; retreat=home; stealth=no``), the
    defaults left out: what its next sheet is pre-filled with."""
    parts = []
    if b.stance != "close":
        parts.append(f"stance={b.stance}")
    if b.priority != "capital":
        parts.append(f"priority={b.priority}")
    if b.break_off:
        parts.append(f"break_off={b.break_off}")
    if b.retreat:
        parts.append(f"retreat={b.retreat}")
    if not b.stealth:
        parts.append("stealth=no")
    return "; ".join(parts)


def standing_orders(fleet: str, text: str) -> BattleOrders:
    """The battle orders `standing_text` wrote (ValueError naming the part it cannot read:
    the master workbook is edited by hand)."""
    b = BattleOrders(fleet)
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        key, _, value = (x.strip().lower() for x in part.partition("="))
        if key == "stance" and value in STANCES:
            b.stance = value
        elif key == "priority" and value in PRIORITIES:
            b.priority = value
        elif key == "break_off" and value in ("0", "1", "2", "3"):
            b.break_off = int(value)
        elif key == "retreat" and value in (*RETREATS, ""):
            b.retreat = value
        elif key == "stealth" and value in ("yes", "no"):
            b.stealth = value == "yes"
        else:
            raise ValueError(
                f"cannot read {part!r}: write stance=close|stand off|hold, priority="
                "capital|carrier|transport|cheapest, break_off=1-3, retreat=back|home or "
                "stealth=no, separated by ';'"
            )
    return b


#: Imperial Reinforcements: the capital ships that may arrive, in the order the usual choice
#: tries them (a standing order may ask for one of them, or for ``none``).
REINFORCEMENT_CAPITALS = ("CA", "CR", "B1", "B2", "BB", "CS", "CV")
#: Whom a planet's fighters attack first among landing craft: the invading transports (ATs
#: first) or the invading fighters.
FIGHTER_TARGETS = ("transports", "fighters")


@dataclass
class PlanetDefence:
    """The defender's standing orders for one planet: where its units stand on the planetary
    map when a battle starts (``placement``: unit id -> hex; units not named are spread as
    usual) and what its fighters attack when enemy units land."""

    planet: str
    fighters_attack: str = "transports"
    placement: dict[str, int] = field(default_factory=dict)
    cell: str = ""


@dataclass
class Build:
    """``count`` units of ``code`` to build this turn, optionally placed at ``world``."""

    code: str
    count: int = 1
    world: str = ""
    cell: str = ""
    #: The cells of the unit code, the count and the World (``Orders!C12``...), when read from
    #: a sheet, so a problem points at the value that is wrong.
    cells: tuple[str, ...] = field(default=(), compare=False)

    def cell_of(self, part: str) -> str:
        """The cell holding ``part`` (``code``, ``count`` or ``world``)."""
        return self.cells[("code", "count", "world").index(part)] if self.cells else self.cell


@dataclass
class Arrival:
    """Where a unit due from the turn record track this turn is placed (the seed: "new units
    are placed at Worlds", the owner placing them).  ``world`` a World code ("" = the usual
    choice); ``fleet``: a ship joins this fleet of the side at that World, or forms a new
    fleet of this name; a troop, PD, fighter or Outpost goes aboard it ("may enter the game
    loaded on any previously empty transports"); "" = the usual placement."""

    unit: str
    world: str = ""
    fleet: str = ""
    cell: str = ""


@dataclass
class PlanetOrder:
    """A planet named for terraforming or an outpost upgrade this turn (10 resources)."""

    planet: str
    cell: str = ""


@dataclass
class CloseOutOrder:
    """A close-out order: ``scrap``, ``repair``, ``ground repair`` or ``augment`` of units."""

    kind: str
    units: list[str]
    cell: str = ""


@dataclass
class Orders:
    """A side's whole sheet for one turn.  ``side`` is ``Terran`` or ``Imperial``."""

    player: str
    side: str
    turn: int
    appeal: str = ""
    appeal_cell: str = ""
    builds: list[Build] = field(default_factory=list)
    activations: list[Activation] = field(default_factory=list)
    battle_orders: list[BattleOrders] = field(default_factory=list)
    terraform: list[PlanetOrder] = field(default_factory=list)
    upgrades: list[PlanetOrder] = field(default_factory=list)
    close_out: list[CloseOutOrder] = field(default_factory=list)
    #: Bombardment hits go to these unit kinds first (``F`` or ``PD``).
    bombard_priority: str = "PD"
    bombard_priority_cell: str = ""
    message: str = ""
    #: Standing orders (the seed's choices; blank on the sheet = these defaults).
    #: Pay maintenance the local allowance does not cover from the stockpile.
    stockpile_upkeep: bool = True
    #: Imperial: the home world where Intervention and Appeal forces arrive ("" = nearest the
    #: Terrans).
    forces_world: str = ""
    #: Imperial: ships to give up first in a Frontier Crisis, in this order.
    crisis_ships: list[str] = field(default_factory=list)
    #: Imperial: the capital ship wanted among Imperial Reinforcements ("" = the first free of
    #: the usual list, "none" = light ships only).
    reinforcement_capital: str = ""
    defences: list[PlanetDefence] = field(default_factory=list)
    #: Cells of the standing orders above, by field name.
    standing_cells: dict[str, str] = field(default_factory=dict)
    #: Where this turn's arrivals from the turn record track go, by unit id.
    arrivals: list[Arrival] = field(default_factory=list)
    #: Activation lines the sheet reader could not read (their problem is reported already),
    #: with no actions and their raw ``text``: the checker then knows a fleet named there may
    #: have moved, and does not pile position errors on one typo.  Never carried out.
    unreadable: list[Activation] = field(default_factory=list, compare=False)

    def activations_in(self, segment: int) -> list[Activation]:
        return sorted((a for a in self.activations if a.segment == segment), key=lambda a: a.order)

    def defence_of(self, planet: str) -> PlanetDefence:
        for d in self.defences:
            if d.planet == planet:
                return d
        return PlanetDefence(planet)

    def arrival_for(self, unit: str) -> Arrival | None:
        return next((a for a in self.arrivals if a.unit == unit), None)

    def battle_orders_for(self, fleet: str) -> BattleOrders:
        for b in self.battle_orders:
            if b.fleet == fleet:
                return b
        return BattleOrders(fleet)


def no_orders(player: str, side: str, turn: int) -> Orders:
    """What a side that sent nothing does: no builds, every activation a pass."""
    return Orders(player=player, side=side, turn=turn)
