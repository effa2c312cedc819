"""Planetary battles of Imperium 3rd Millennium: bombardment, landing, surface battle, capture,
and evacuation from a disputed planet.

The planetary map is a strip of ``Planet.hexes`` hexes numbered 1..n; the distance between two
hexes is the difference of their numbers.  Hex 0 is the planetary box: units stand there while
no battle is going on.  When a battle starts the defender's units leave the box and are spread
evenly along the strip (`deploy`); they go back to the box when the battle ends.  While a planet
is ``disputed`` both sides' units keep their hexes, and the next `attack` by either side renews
the battle from there with the activating side as the invader.

One `attack` is one pass of the seed's sequence: bombardment (not of a disputed planet), landing
with the defender's fire at the landing craft, then one round of invader movement and combat.
The planet changes hands when the defender has nothing left on it and the attacker has: only
troops eliminate troops, and fighters and PD fight on, so a planet held by them alone stays
disputed until they are destroyed.  House rule ``troops_capture_at_once`` gives it to the
attacker as soon as it has troops there and the defender has none (the fighters and PD left are
lost with it).
"""

from __future__ import annotations

from typing import Any

from ...errors import RefassistError
from ...text.words import counted
from .context import TurnContext
from .space_battle import cargo_of, prune_fleets, remove_units, reveal, transport_capacity
from .state import ALLOWED_ON, Planet, Unit
from .units import IMPERIAL, SIDES, TERRAN, other_side

#: Most units of one side in one hex of a planetary map.
HEX_LIMIT = 5
#: How far invaders move on the planetary map in one surface battle (fighters: any distance).
REACH = {"F": 10**6, "JT": 3, "RT": 1}
TROOPS = ("RT", "JT")


class PlanetBattleError(RefassistError):
    """A planetary battle was asked for with a planet or fleet that cannot take part."""


# -- small helpers -------------------------------------------------------------------------------


def _label(u: Unit) -> str:
    return f"{u.side} {u.id}"


def _friendly_world(p: Planet, side: str) -> bool:
    return p.marker == "World" and p.owner == side


def _fire_dice(ctx: TurnContext, u: Unit) -> int:
    """Dice a fighter (torpedo factor) or PD (beam factor) rolls against landing craft, ships
    or troops.  A damaged one rolls its full factor, since the unit list prints no reduced side
    (house rule ``damaged_ground_fire = "half"``: half, rounded up)."""
    t = ctx.unit_type(u.side, u.code)
    factor = t.torpedo if u.code == "F" else t.beam
    if u.damaged and ctx.rules["damaged_ground_fire"] == "half":
        return (factor + 1) // 2
    return factor


def _hit_ground(u: Unit, lost: list[Unit]) -> str:
    """A hit on a fighter, PD or troop: a full unit is reduced, a reduced one destroyed."""
    if u.damaged:
        lost.append(u)
        return "destroyed"
    u.damaged = True
    return "reduced"


def _ship_order(ctx: TurnContext, ships: list[Unit]) -> list[Unit]:
    """Defensive fire goes at the transports first (they carry the invasion), then at the
    cheapest ships."""

    def key(u: Unit) -> tuple[int, int, str]:
        return (0 if u.code in ("AT", "TR") else 1, ctx.unit_type(u.side, u.code).cost, u.id)

    return sorted(ships, key=key)


#: Cargo that has a reduced side to flip to when its transport is damaged.
REDUCIBLE = ("RT", "JT", "PD")


def _apply_group(
    ctx: TurnContext,
    hits: int,
    targets: list[Unit],
    *,
    cargo_shares_damage: bool,
    spare: set[int] | None = None,
) -> tuple[list[dict[str, Any]], list[Unit]]:
    """Spend one firing group's hits on ``targets`` in order: each target takes its defence in
    hits (damaged, or destroyed if already damaged) before the next is fired at; hits left over
    below a target's defence are wasted.  Fighter and PD groups are applied apart, so their
    hits never add up on one target.  A destroyed ship takes its cargo with it.  In landing and
    evacuation fire (``cargo_shares_damage``) "if a transport or attack transport is
    destroyed/damaged also is a transporting unit": a damaged transport's troops and PD are
    reduced (one already reduced is destroyed); units in ``spare`` (ids of objects) are never
    counted as cargo lost."""
    records: list[dict[str, Any]] = []
    lost: list[Unit] = []
    reduced: list[Unit] = []
    spare = spare or set()
    for target in targets:
        if hits <= 0:
            break
        d = ctx.unit_type(target.side, target.code).defence
        if hits < d:
            break
        hits -= d
        loads = cargo_of(ctx, target.fleet) if target.fleet else {}
        cargo = [u for u in loads.get(target.id, []) if id(u) not in spare]
        if target.damaged:
            result = "destroyed"
            lost.append(target)
            lost.extend(cargo)
        else:
            result = "damaged"
            target.damaged = True
            if cargo_shares_damage and target.code in ("AT", "TR"):
                for u in cargo:
                    if u.damaged or u.code not in REDUCIBLE:
                        lost.append(u)  # a second hit, or nothing to flip to
                    else:
                        u.damaged = True
                        reduced.append(u)
        records.append(
            {
                "unit": _label(target),
                "result": result,
                "cargo_lost": [u.id for u in cargo if u in lost],
                "cargo_reduced": [u.id for u in cargo if u in reduced],
            }
        )
    return records, lost


def _defensive_fire(
    ctx: TurnContext,
    planet: Planet,
    shooters_side: str,
    targets: list[Unit],
    what: str,
    fighter_targets: list[Unit] | None = None,
    **kw: Any,
) -> tuple[list[dict[str, Any]], list[Unit]]:
    """The fighters, then the PD, of ``shooters_side`` on ``planet`` fire at ``targets`` (the
    fighters at ``fighter_targets`` when the defender ordered another order): fighters hit on
    5-6, PD on 5-6 or 4-6 on their own World; each group's hits apart."""
    groups: list[dict[str, Any]] = []
    lost: list[Unit] = []
    if not targets:
        return groups, lost
    on_planet = [u for u in ctx.state.units_on(planet.code) if u.side == shooters_side]
    for code in ("F", "PD"):
        need = 4 if code == "PD" and _friendly_world(planet, shooters_side) else 5
        shots = []
        hits = 0
        for u in on_planet:
            if u.code != code:
                continue
            n = _fire_dice(ctx, u)
            if n <= 0:
                continue
            dice = ctx.dice.nd6(n, f"{what}: {u.id} fires at the {other_side(shooters_side)}")
            got = sum(1 for d in dice if d >= need)
            hits += got
            shots.append({"unit": u.id, "dice": dice, "need": need, "hits": got})
        if not shots:
            continue
        aimed = fighter_targets if code == "F" and fighter_targets is not None else targets
        alive = [t for t in aimed if all(t is not x for x in lost)]
        effects, gone = _apply_group(ctx, hits, alive, **kw)
        lost.extend(gone)
        groups.append({"group": code, "shots": shots, "hits": hits, "effects": effects})
    return groups, lost


# -- bombardment ---------------------------------------------------------------------------------


def bombard(ctx: TurnContext, side: str, fleet: str, planet: Planet) -> dict[str, Any]:
    """Defending fighters and PD fire at the fleet's ships, then the fleet's surviving ships
    roll one die per 3 torpedo factors; each 6 reduces (or destroys a reduced) defending
    fighter or PD, in the kind order of the sheet's bombardment priority, reduced ones first.
    A terraformed planet reverts to its original type and moves the glory index."""
    state = ctx.state
    enemy = other_side(side)
    ships = [u for u in state.units_in_fleet(fleet) if u.is_ship]
    groups, lost = _defensive_fire(
        ctx,
        planet,
        enemy,
        _ship_order(ctx, ships),
        "bombardment defence",
        cargo_shares_damage=False,
    )
    remove_units(state, lost)
    survivors = [u for u in state.units_in_fleet(fleet) if u.is_ship]
    factors = sum(ctx.unit_type(side, u.code).torpedo for u in survivors)
    n = factors // 3
    dice = ctx.dice.nd6(n, f"bombardment of {planet.code} by {fleet}") if n else []
    hits = sum(1 for d in dice if d == 6)
    first = ctx.orders[side].bombard_priority
    kinds = ("PD", "F") if first != "F" else ("F", "PD")
    effects: list[dict[str, Any]] = []
    gone: list[Unit] = []
    for _ in range(hits):
        standing = [
            u
            for u in state.units_on(planet.code)
            if u.side == enemy and u.code in kinds and all(u is not g for g in gone)
        ]
        if not standing:
            break
        standing.sort(key=lambda u: (kinds.index(u.code), not u.damaged))
        target = standing[0]
        effects.append({"unit": _label(target), "result": _hit_ground(target, gone)})
    remove_units(state, gone)
    record: dict[str, Any] = {
        "defence": groups,
        "losses": [_label(u) for u in lost],
        "torpedo_factors": factors,
        "dice": dice,
        "hits": hits,
        "effects": effects,
    }
    if planet.original_type and planet.original_type != planet.type:
        record["reverted"] = {"from": planet.type, "to": planet.original_type}
        planet.type = planet.original_type
        planet.terraform_paid = 0
        if side == IMPERIAL:
            ctx.glory(-2, "terraformed planet bombarded", planet.system)
        else:
            ctx.glory(+1, "terraformed planet bombarded", planet.system)
    return record


# -- placing units on the map --------------------------------------------------------------------


def deploy(units: list[Unit], hexes: int, placement: dict[str, int] | None = None) -> None:
    """Put units from the planetary box (hex 0) on the map ("Defender places surviving units
    ... Up to five units may be placed in the same hex").  Units the defender's standing order
    places (``placement``: id -> hex) stand there while the hex has room; the rest are spread
    evenly: with no more units than hexes each gets its own hex, centred in equal stretches of
    the strip; with more, they go round the hexes in turn (the box limit of 5 x hexes keeps
    every hex within 5)."""
    placement = placement or {}
    placed: list[int] = []
    rest: list[Unit] = []
    for u in units:
        h = placement.get(u.id, 0)
        if 1 <= h <= hexes and placed.count(h) < HEX_LIMIT:
            u.hex = h
            placed.append(h)
        else:
            rest.append(u)
    k = len(rest)
    for i, u in enumerate(rest):
        u.hex = 1 + (2 * i + 1) * hexes // (2 * k) if k <= hexes else 1 + i % hexes
    if placed:  # keep every hex within the limit after the spread
        for u in rest:
            while sum(1 for x in units if x.hex == u.hex) > HEX_LIMIT:
                u.hex = u.hex % hexes + 1


def _count(units: list[Unit], side: str, where: int) -> int:
    return sum(1 for u in units if u.side == side and u.hex == where)


def _choose_hex(
    wanted: int | None, n: int, defended: list[int], own: list[int], occupy: bool
) -> int | None:
    """The hex a landing unit goes to: the one asked for if allowed, else the nearest allowed
    (ties: lower number); ``auto`` (None) takes the allowed hex with fewest defenders, then
    fewest own units, then the lowest number.  Hexes holding defenders are allowed only to
    fighters and JT from attack transports (``occupy``); none holds more than 5 own units."""

    def allowed(h: int) -> bool:
        if own.count(h) >= HEX_LIMIT:
            return False
        return occupy or h not in defended

    options = [h for h in range(1, n + 1) if allowed(h)]
    if not options:
        return None
    if wanted is None:
        return min(
            options,
            key=lambda h: (defended.count(h), own.count(h), h),
        )
    return min(options, key=lambda h: (abs(h - wanted), h))


def land(
    ctx: TurnContext, side: str, fleet: str, planet: Planet, hexes: list[int], opposed: bool
) -> dict[str, Any]:
    """Land the fleet's troops and fighters that the planet type allows.

    Opposed: each unit takes a hex (from ``hexes`` in order, or ``auto``), the defender's
    fighters then PD fire at the landing transports and fighters, and the survivors stand in
    their hexes.  Unopposed: the units go into the planetary box (hex 0) up to its capacity.
    """
    state = ctx.state
    enemy = other_side(side)
    allowed = ALLOWED_ON[planet.klass]
    loads = cargo_of(ctx, fleet)
    carrier = {id(u): ship for ship, units in loads.items() for u in units}
    codes = {u.id: u.code for u in state.units_in_fleet(fleet)}
    landing = [u for u in state.units_in_fleet(fleet) if u.code in (*TROOPS, "F")]
    record: dict[str, Any] = {"planet": planet.code, "fleet": fleet, "units": [], "stayed": []}
    refused = [u for u in landing if u.code not in allowed]
    landing = [u for u in landing if u.code in allowed]
    for u in refused:
        record["stayed"].append({"unit": u.id, "why": f"{u.code} cannot stand on {planet.type}"})
    if not opposed:
        room = state.box_room(planet.code)
        for u in landing:
            if room <= 0:
                record["stayed"].append({"unit": u.id, "why": "the planetary box is full"})
                continue
            room -= 1
            u.fleet, u.planet, u.hex = "", planet.code, 0
            record["units"].append({"unit": u.id, "hex": 0})
        prune_fleets(state)
        return record
    on_planet = state.units_on(planet.code)
    defenders = [u for u in on_planet if u.side == enemy]
    own = [u for u in on_planet if u.side == side]
    chosen: list[tuple[Unit, int]] = []
    for i, u in enumerate(landing):
        wanted = hexes[i] if i < len(hexes) else None
        if wanted is not None and not 1 <= wanted <= planet.hexes:
            wanted = None
        occupy = u.code == "F" or (u.code == "JT" and codes.get(carrier.get(id(u), "")) == "AT")
        own_hexes = [o.hex for o in own] + [h for _u, h in chosen]
        h = _choose_hex(wanted, planet.hexes, [d.hex for d in defenders], own_hexes, occupy)
        if h is None:
            record["stayed"].append({"unit": u.id, "why": "no hex may take it"})
            continue
        chosen.append((u, h))
    transports: list[Unit] = []
    for u, _h in chosen:
        ship = state.unit(side, carrier.get(id(u), "")) if carrier.get(id(u)) else None
        if (
            ship is not None
            and ship.code in ("AT", "TR")
            and all(ship is not t for t in transports)
        ):
            transports.append(ship)
    fighters = [u for u, _h in chosen if u.code == "F"]
    transports.sort(key=lambda t: (0 if t.code == "AT" else 1, t.id))
    # "Defender indicates which invading transports and fighters his fighters will attack":
    # its standing order for the planet puts the landing fighters first if it says so.
    defence = ctx.orders[enemy].defence_of(planet.code)
    fighters_first = defence is not None and defence.fighters_attack == "fighters"
    groups, lost = _defensive_fire(
        ctx,
        planet,
        enemy,
        transports + fighters,
        "landing defence",
        fighter_targets=fighters + transports if fighters_first else None,
        cargo_shares_damage=True,
        spare={id(f) for f in fighters},
    )
    record["defence"] = groups
    for u, h in chosen:
        if any(u is x for x in lost):
            record["units"].append({"unit": u.id, "hex": h, "result": "lost"})
            continue
        u.fleet, u.planet, u.hex = "", planet.code, h
        record["units"].append({"unit": u.id, "hex": h, "damaged": u.damaged})
    record["losses"] = [_label(u) for u in lost]
    remove_units(state, lost)
    return record


# -- surface battle ------------------------------------------------------------------------------


def _move_invaders(planet: Planet, side: str, units: list[Unit]) -> list[dict[str, Any]]:
    """Invaders not already in an enemy hex move towards the nearest enemy hex (ties: lower
    number): fighters any distance, JT up to 3 hexes, RT 1; they stop on entering an enemy
    hex and never enter a hex holding 5 of their own units."""
    moves = []
    enemy = other_side(side)
    for u in [x for x in units if x.side == side and x.hex > 0]:
        enemy_hexes = sorted({e.hex for e in units if e.side == enemy and e.hex > 0})
        if not enemy_hexes or u.hex in enemy_hexes:
            continue
        goal = min(enemy_hexes, key=lambda h: (abs(h - u.hex), h))
        step = 1 if goal > u.hex else -1
        start = u.hex
        for _ in range(REACH.get(u.code, 0)):
            nxt = u.hex + step
            if _count(units, side, nxt) >= HEX_LIMIT:
                break
            u.hex = nxt
            if u.hex in enemy_hexes:
                break
        if u.hex != start:
            moves.append({"unit": u.id, "from": start, "to": u.hex})
    return moves


def _dice_of(ctx: TurnContext, u: Unit) -> int:
    """Troops roll their current strength in dice, fighters their torpedo factor, PD their
    beam factor (`_fire_dice`)."""
    if u.code in TROOPS:
        return u.troop_strength
    return _fire_dice(ctx, u)


def _take_hits(targets: list[Unit], troop_hits: int, other_hits: int, lost: list[Unit]) -> list:
    """Apply one side's hits in one hex.  Troop hits go first to reduced troops (eliminating
    them), then full troops, then reduced and full fighters/PD; fighter and PD hits reduce full
    troops first, then destroy reduced fighters/PD, then reduce full ones, and are wasted on
    reduced troops (only troops eliminate troops)."""
    effects = []

    def alive() -> list[Unit]:
        return [t for t in targets if all(t is not x for x in lost)]

    for _ in range(troop_hits):
        order = sorted(alive(), key=lambda t: (t.code not in TROOPS, not t.damaged, t.id))
        if not order:
            break
        t = order[0]
        effects.append({"unit": _label(t), "by": "troops", "result": _hit_ground(t, lost)})
    for _ in range(other_hits):
        full_troops = [t for t in alive() if t.code in TROOPS and not t.damaged]
        others = sorted(
            (t for t in alive() if t.code not in TROOPS), key=lambda t: (not t.damaged, t.id)
        )
        pool = full_troops or others
        if not pool:
            break
        t = pool[0]
        effects.append({"unit": _label(t), "by": "fighters/PD", "result": _hit_ground(t, lost)})
    return effects


def surface_battle(
    ctx: TurnContext, side: str, planet: Planet, fight: list[int] | None = None
) -> dict[str, Any]:
    """One round: the invader moves, then every hex holding both sides fights (only those in
    ``fight`` when the invader listed them: "it is not mandatory for opposing units in the
    same hex to fight"); all units in the hex roll (invader first), every 6 hits, and the
    hits take effect together."""
    state = ctx.state
    units = state.units_on(planet.code)
    moves = _move_invaders(planet, side, units)
    fights = []
    lost: list[Unit] = []
    hexes = sorted(
        {u.hex for u in units if u.side == side} & {u.hex for u in units if u.side != side}
    )
    if fight is not None:
        hexes = [h for h in hexes if h in fight]
    for h in hexes:
        if h <= 0:
            continue
        here = [u for u in units if u.hex == h]
        rolls = []
        hits = {s: {"troops": 0, "other": 0} for s in SIDES}
        for s in (side, other_side(side)):
            for u in here:
                if u.side != s:
                    continue
                n = _dice_of(ctx, u)
                if n <= 0:
                    continue
                dice = ctx.dice.nd6(n, f"surface battle {planet.code} hex {h}: {u.id}")
                got = sum(1 for d in dice if d == 6)
                hits[s]["troops" if u.code in TROOPS else "other"] += got
                rolls.append({"unit": _label(u), "dice": dice, "hits": got})
        effects = []
        for s in (side, other_side(side)):
            targets = [u for u in here if u.side != s]
            effects += _take_hits(targets, hits[s]["troops"], hits[s]["other"], lost)
        fights.append({"hex": h, "rolls": rolls, "effects": effects})
    remove_units(state, lost)
    return {"moves": moves, "fights": fights, "losses": [_label(u) for u in lost]}


# -- ending --------------------------------------------------------------------------------------

GLORY = {
    (TERRAN, "Outpost"): (-1, "Empire outpost lost"),
    (TERRAN, "World"): (-3, "Empire world lost"),
    (IMPERIAL, "Outpost"): (+1, "Terran outpost captured"),
    (IMPERIAL, "World"): (+3, "Terran world captured"),
}


def capture(ctx: TurnContext, side: str, planet: Planet) -> None:
    """The attacker takes the planet's marker (World/Outpost) and the glory that goes with it."""
    old = planet.owner
    marker = planet.marker
    planet.owner = side
    # Turns paid towards upgrading the Outpost were the old owner's (terraforming keeps its
    # payer in `terraform_side`; an upgrade has none, so it starts again).
    planet.upgrade_paid = 0
    change = GLORY.get((side, marker)) if old == other_side(side) else None
    ctx.emit(
        f"action {ctx.segment}" if ctx.segment else "planetary battle",
        planet.system,
        "capture",
        f"The {side} side captures {planet.name} ({marker or 'no marker'}) from the {old}",
        players=SIDES,
        visible_to=SIDES,
        data={"from": old, "to": side, "planet": planet.code, "marker": marker},
    )
    if change:
        ctx.glory(change[0], change[1], planet.system)


def settle(ctx: TurnContext, side: str, planet: Planet) -> str:
    """Decide the planet after a pass of battle: ``captured``, ``held`` (the invader is gone),
    ``cleared`` (the side's own disputed planet is free again) or ``disputed``."""
    state = ctx.state
    enemy = other_side(side)
    units = state.units_on(planet.code)
    mine = [u for u in units if u.side == side]
    theirs = [u for u in units if u.side == enemy]
    my_troops = [u for u in mine if u.code in TROOPS]
    their_troops = [u for u in theirs if u.code in TROOPS]
    at_once = ctx.rules["troops_capture_at_once"]
    if mine and (not theirs or (at_once and my_troops and not their_troops)):
        remove_units(state, theirs)
        for u in mine:
            u.hex = 0
        planet.disputed = False
        if planet.owner == enemy and planet.marker:
            capture(ctx, side, planet)
            return "captured"
        if planet.owner == enemy:
            planet.owner = ""
        return "cleared"
    if not mine:
        for u in theirs:
            u.hex = 0
        planet.disputed = False
        return "held"
    planet.disputed = True
    return "disputed"


def _check(ctx: TurnContext, side: str, fleet: str, planet: str) -> Planet:
    state = ctx.state
    p = state.map.planets.get(planet)
    if p is None:
        raise PlanetBattleError(f"there is no planet {planet} on the map")
    if not fleet:  # troops alone renew the fight on a disputed planet
        if not p.disputed or not any(u.side == side for u in state.units_on(p.code)):
            raise PlanetBattleError(
                f"only a fight on a disputed planet where the {side} side stands may be "
                "renewed without a fleet"
            )
        return p
    f = state.fleet(fleet)
    if f is None or f.side != side or f.system != p.system:
        raise PlanetBattleError(f"fleet {fleet} of the {side} side is not at {p.system}")
    return p


def _emit(
    ctx: TurnContext,
    p: Planet,
    kind: str,
    text: str,
    data: dict[str, Any],
    first: int,
    visible_to: tuple[str, ...] = SIDES,
) -> None:
    """Report one stage; both sides see a battle on a planet, with its dice."""
    ctx.emit(
        f"action {ctx.segment}" if ctx.segment else "planetary battle",
        p.system,
        kind,
        text,
        players=visible_to,
        visible_to=visible_to,
        data=data,
        dice=tuple(r.seq for r in ctx.dice.log[first:]),
    )


def _terraforming_lost(ctx: TurnContext, p: Planet) -> None:
    """ "If a planetary battle takes place on a planet undergoing terraforming, any Resources
    expended are lost": the payments so far and whose effort it was are cleared (an unopposed
    landing is no battle, so a captor may go on with the work)."""
    if not p.terraform_paid and not p.terraform_side:
        return
    paid, side = p.terraform_paid, p.terraform_side
    p.terraform_paid, p.terraform_side = 0, ""
    ctx.emit(
        f"action {ctx.segment}" if ctx.segment else "planetary battle",
        p.system,
        "terraform",
        f"A planetary battle on {p.name}: the {side} terraforming there is lost "
        f"({counted(paid, 'turn')} of payments).",
        players=tuple(ctx.state.sides),
        visible_to=tuple(ctx.state.sides),
        data={"planet": p.code, "paid": 0, "lost": paid, "side": side},
    )


def attack(
    ctx: TurnContext,
    side: str,
    fleet: str,
    planet: str,
    hexes: list[int],
    *,
    bombarding: bool = True,
    fight: list[int] | None = None,
) -> None:
    """``fleet`` of ``side`` attacks ``planet``: bombardment (unless disputed, or the attacker
    chose ``bombarding=False``), landing in ``hexes`` (empty = auto), one round of surface battle
    (in the hexes of ``fight`` only, when given), and the planet's fate.  Without a fleet
    (``fleet == ""``) the side's units already on a disputed planet renew the fight alone."""
    p = _check(ctx, side, fleet, planet)
    state = ctx.state
    enemy = other_side(side)
    with ctx.dice.at(location=p.system):
        defenders = [u for u in state.units_on(p.code) if u.side == enemy]
        if defenders or p.disputed:
            ctx.planet_battles.add(p.code)
            _terraforming_lost(ctx, p)
        if not fleet:
            first = len(ctx.dice.log)
            battle = surface_battle(ctx, side, p, fight)
            battle["result"] = settle(ctx, side, p)
            battle["positions"] = {_label(u): u.hex for u in state.units_on(p.code) if p.disputed}
            _emit(
                ctx,
                p,
                "surface battle",
                f"Surface battle on {p.name} ({side} renewing it with the units there): "
                f"{battle['result']}",
                battle,
                first,
            )
            reveal(ctx, p.system)
            return
        if bombarding and not p.disputed and (defenders or p.owner == enemy):
            first = len(ctx.dice.log)
            record = bombard(ctx, side, fleet, p)
            _emit(
                ctx,
                p,
                "bombardment",
                f"The {side} fleet {fleet} bombards {p.name}: {counted(record['hits'], 'hit')}",
                record,
                first,
            )
        defenders = [u for u in state.units_on(p.code) if u.side == enemy]
        if state.fleet(fleet) is None:
            reveal(ctx, p.system)
            return
        first = len(ctx.dice.log)
        if not defenders:
            record = land(ctx, side, fleet, p, hexes, opposed=False)
            _emit(ctx, p, "landing", f"Unopposed {side} landing on {p.name}", record, first)
            if record["units"] and p.owner == enemy and p.marker:
                capture(ctx, side, p)
            reveal(ctx, p.system)
            return
        defence = ctx.orders[enemy].defence_of(p.code)
        deploy([u for u in defenders if u.hex == 0], p.hexes, defence and defence.placement)
        record = land(ctx, side, fleet, p, hexes, opposed=True)
        _emit(ctx, p, "landing", f"{side} landing on {p.name}", record, first)
        first = len(ctx.dice.log)
        invaders = [u for u in state.units_on(p.code) if u.side == side]
        if (
            invaders
            and ctx.rules["troops_capture_at_once"]
            and any(u.code in TROOPS for u in invaders)
            and not any(u.code in TROOPS for u in state.units_on(p.code) if u.side == enemy)
        ):
            battle: dict[str, Any] = {"moves": [], "fights": [], "losses": []}
        elif invaders:
            battle = surface_battle(ctx, side, p, fight)
        else:
            battle = {"moves": [], "fights": [], "losses": []}
        battle["result"] = settle(ctx, side, p)
        battle["positions"] = {_label(u): u.hex for u in state.units_on(p.code) if p.disputed}
        _emit(
            ctx,
            p,
            "surface battle",
            f"Surface battle on {p.name} ({side} invading): {battle['result']}",
            battle,
            first,
        )
    reveal(ctx, p.system)


def evacuate(ctx: TurnContext, side: str, fleet: str, planet: str) -> None:
    """Load the side's troops from a disputed planet onto the fleet's free transport room
    (PD stay; fighters leave freely to free carrier room, then transport room), then the enemy's
    fighters and PD on the planet fire at the transports carrying evacuees."""
    p = _check(ctx, side, fleet, planet)
    state = ctx.state
    enemy = other_side(side)
    first = len(ctx.dice.log)
    record: dict[str, Any] = {"planet": p.code, "fleet": fleet, "loaded": [], "stayed": []}
    if not p.disputed:
        text = f"{p.name} is not disputed: nothing to evacuate"
        _emit(ctx, p, "evacuation", text, record, first, (side,))
        return
    with ctx.dice.at(location=p.system):
        mine = [u for u in state.units_on(p.code) if u.side == side]
        ships = [u for u in state.units_in_fleet(fleet) if u.is_ship]
        loads = cargo_of(ctx, fleet)
        # Transport places left: a carrier's fighters fill its hangar, not a transport place.
        slots = sum(
            max(0, transport_capacity(ctx, s) - len(loads[s.id]))
            for s in ships
            if transport_capacity(ctx, s)
        )
        hangar = sum(
            ctx.unit_type(side, s.code).fighters - sum(1 for u in loads[s.id] if u.code == "F")
            for s in ships
        )
        evacuees: list[Unit] = []
        for u in mine:
            if u.code in TROOPS and slots > 0:
                slots -= 1
            elif u.code == "F" and hangar > 0:
                hangar -= 1
            elif u.code == "F" and slots > 0:  # beyond the carriers: a transport place
                slots -= 1
            else:
                why = "PD cannot leave a disputed planet" if u.code == "PD" else "no room"
                record["stayed"].append({"unit": u.id, "why": why})
                continue
            u.planet, u.hex, u.fleet = "", 0, fleet
            evacuees.append(u)
            record["loaded"].append(u.id)
        after = cargo_of(ctx, fleet)
        targets = [
            s
            for s in ships
            if s.code in ("AT", "TR") and any(any(c is e for e in evacuees) for c in after[s.id])
        ]
        targets.sort(key=lambda t: (0 if t.code == "AT" else 1, t.id))
        groups, lost = _defensive_fire(
            ctx, p, enemy, targets, "evacuation fire", cargo_shares_damage=True
        )
        record["defence"] = groups
        record["losses"] = [_label(u) for u in lost]
        remove_units(state, lost)
        if not [u for u in state.units_on(p.code) if u.side == side]:
            for u in state.units_on(p.code):
                u.hex = 0
            p.disputed = False
            # Leaving one's own World or Outpost to the enemy's troops gives it to them, as a
            # defender with no units left loses the planet in battle (glory included).
            if p.owner == side and p.marker and state.units_on(p.code):
                capture(ctx, enemy, p)
        record["disputed"] = p.disputed
        _emit(
            ctx,
            p,
            "evacuation",
            f"The {side} side evacuates {counted(len(evacuees), 'unit')} from {p.name}",
            record,
            first,
        )
    reveal(ctx, p.system)
