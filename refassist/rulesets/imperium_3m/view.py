"""What one Imperium 3rd Millennium side may know: the data its report is allowed to show.

`visibility.player_view` builds a `PlayerView`; the player's report reads only from it, never
from the full `State`, so a report cannot leak what the fog of war hides (the other side's
treasury, its turn record track, fleets where this side has no eyes, planetary boxes it has
not seen into).

Public: the map (systems, planets, their types and sizes, jump routes, deep space), the glory
index, the war calendar, and, with the ``public_markers`` house rule (default on), every World
and Outpost marker with its owner and whether the planet is disputed - markers stand on the
printed map in the board game, and captures are announced through the glory index anyway.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...dice import Roll
from ..base import Event
from .state import Fleet, Queued, SideState, Unit


@dataclass(frozen=True)
class PlanetView:
    """A planet as the side knows it.  ``owner``/``marker``/``disputed`` are empty/False when
    the side does not know them; ``box_known`` says the units listed for it are all there is
    (its own planet, a revealed system, or a planet it fights on)."""

    code: str
    name: str
    system: str
    type: str
    hexes: int
    home: str
    owner: str = ""
    marker: str = ""
    disputed: bool = False
    box_known: bool = False
    #: Own terraforming or outpost upgrade in progress (resources/turns paid), else 0.
    terraform_paid: int = 0
    upgrade_paid: int = 0


@dataclass
class PlayerView:
    """Everything one side may know at the start of its next turn."""

    side: str
    player: str
    enemy_side: str
    enemy_player: str
    game_name: str
    map_title: str
    turn: int
    war: int
    war_turn: int
    peace_left: int
    glory: int
    peace_talks: bool
    campaign: bool
    finished: str
    results: list[str]
    #: The side's own treasury and standing effects (a copy).
    own: SideState
    #: Every system and deep-space hex code -> (name, x, y, deep) and the routes: public.
    systems: dict[str, tuple[str, float, float, bool]]
    routes: list[tuple[str, str, int]]
    planets: dict[str, PlanetView]
    #: Systems the side sees now: where it has units, Worlds or Outposts.
    in_sight: set[str]
    #: Systems whose enemy planetary boxes the side saw this turn (battle or stealth scout).
    revealed: set[str]
    #: Own fleets and every own unit.
    fleets: list[Fleet]
    units: list[Unit]
    #: Enemy fleets in systems in sight; their contents only where revealed (`hidden_fleets`).
    enemy_fleets: list[Fleet]
    enemy_units: list[Unit]
    #: The side's own turn record track.
    queue: list[Queued]
    events: list[Event] = field(default_factory=list)
    #: Systems where a space or planetary battle the side may know of took place this turn.
    battles: set[str] = field(default_factory=set)
    #: Enemy fleets the side sees but whose contents it does not know (not revealed).
    hidden_fleets: set[str] = field(default_factory=set)
    #: The dice rolled for the events the side may read (its report shows them).
    rolls: list[Roll] = field(default_factory=list)
    #: The side's income at the next Production step (`admin.expected_income`): traced over
    #: its own supply lines, which the rules let it know.
    expected_income: int = 0

    def units_on(self, planet: str) -> list[Unit]:
        return [u for u in self.units + self.enemy_units if u.planet == planet]

    def planet_listing(self, planet: PlanetView) -> str:
        """Where the side's listings (report and forces sheet) put ``planet``: ``own`` (its
        World or Outpost, not disputed), ``disputed`` (disputed, and it holds the marker or
        stands there: neither side's own), ``elsewhere`` (its units stand on someone else's
        or an unclaimed planet), or "" (none of its business)."""
        ours = planet.owner == self.side and bool(planet.marker)
        stands = any(u.planet == planet.code for u in self.units)
        if planet.disputed and (ours or stands):
            return "disputed"
        if ours:
            return "own"
        return "elsewhere" if stands else ""
