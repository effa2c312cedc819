"""Conflict resolution (section 5, 5.1, Appendix B) and who owns what afterwards.

Phase 2 visits every system where squadrons arrived (house rule ``battles_start``: also where
players no longer at peace stand together).  A partner's arriving squadrons meet the owner's
minefield first (`mines_against_partners`).  The players present (and the system's owner,
whose naval base, minefield and facilities are at stake; or an unowned system's naval base,
`native_base_defends`) form sides of players at peace with each other (house rule
``treaty_sides``); a player at peace with the other side stays out of a battle.  The holder's
side fights each other side in turn (house rule ``battle_order``: strongest first by default);
each battle is the rules' flowsheet:

* Step 0 - the intruder's minesweepers reduce the minefield (one die each), the remaining
  minefield points attack (4-6 kills; minesweepers are hit first, each hit on a squadron uses
  up a point; house rule ``minefield_wear``: every kill does),
  the intruder's KKMs attack (4-6 kills, facilities first, all KKMs spent), and SFBA levels
  ordered to bomb the system do so if the intruder's CV is at least half the defender's.
* Steps 1-4 - the higher CV wins; the defeated side rolls one die per unit against the kill
  table and the kills strike the victor in precedence order (Strike, Fast, Fleet, Assault,
  Monitor; a naval base is never killed); then every squadron of the defeated side is
  destroyed, its minesweepers captured when the victor kept an Assault squadron.  Equal CVs
  fight rounds of mutual kill rolls (both sides roll before either applies its kills) until the
  CVs differ; both sides at zero CV: the defender holds.

Afterwards `settle_ownership` decides who holds each system: the owner while any of its
squadrons or facilities remain there (a homeworld until an enemy occupies it), else the
strongest player present.  A change of hands counts towards the resource class drop (3rd and
later changes), takes or destroys the loser's facilities depending on a surviving Assault
squadron, passes a fallen homeworld's stockpile to the occupier, and makes independent
squadrons (of a world that declared independence) surrender to the first force to arrive.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ...geometry.hexmap import subsector_letter
from ...workbook.history import shortened
from .context import (
    TurnContext,
    add_facility,
    add_force,
    at_peace,
    complete_construction,
    drop_empty_forces,
    facility_count,
    find_force,
)
from .state import BATTLE_NAMES, FLEET_FIELDS, RESOURCE_CLASSES, SQUADRON_FIELDS, Fleet, State

PHASE = "conflict"

#: Combat value of each unit (Combat Value Table).  ``NB`` is a naval base defending its owner.
CV: dict[str, int] = {"S": 2, "Fs": 1, "F": 1, "A": 1, "M": 2, "NB": 2, "Ms": 0}
#: Least die roll that kills, for each unit of the defeated side (Assault 6, Fast and Fleet
#: 5-6, Strike and naval base 4-6, Monitor 3-6); minesweepers have no kill roll.
KILL_ON: dict[str, int] = {"S": 4, "Fs": 5, "F": 5, "A": 6, "M": 3, "NB": 4}
#: Kill Precedence Table: the victor loses these first.  Naval bases are unaffected and
#: minesweepers, which do not count in combat, are not in the table.
PRECEDENCE: tuple[str, ...] = ("S", "Fs", "F", "A", "M")
#: The order in which a side's units roll their kill dice (so a log reads the same each time).
ROLL_ORDER: tuple[str, ...] = ("S", "Fs", "F", "A", "M", "NB")
#: Minefield and KKM points kill on this roll or more.
MUNITION_KILL_ON = 4
#: Facilities KKM kills strike before any squadron (Appendix B: "Orbital Production
#: Facilities and Genetic Labs will be destroyed first").
KKM_FACILITY_ORDER: tuple[str, ...] = ("OPC", "GL")
#: KKM kills "are applied initially against facilities" (App. B; 5.0 "KKM attacks are applied
#: against facilities first"): every kind at the system, the two the seed names first.
KKM_ALL_FACILITIES: tuple[str, ...] = ("OPC", "GL", "DOCK", "CC", "CF", "DEPOT")
#: Attrition rounds before a tie is declared a stalemate (the defender holds).  Only reachable
#: with scripted dice; kept so a referee's dice file can never loop forever.
MAX_ROUNDS = 200
#: Longest battle details (as JSON) kept roll by roll: the master workbook stores them in one
#: cell, and Excel cells hold at most 32,767 characters.  Bigger battles list their rolls
#: grouped (`fit_battle_data`); every die stays in the Dice sheet.
MAX_DATA_CHARS = 30_000
#: The party of an unowned system's naval base when it defends (`native_base_defends`); never
#: a player's name (names are checked against the players), and never told anything.
NATIVE = "the system's naval base"


def target_text(unit: str) -> str:
    """The kill number as the rules print it: ``6``, ``5-6``, ``4-6``, ``3-6``."""
    low = KILL_ON[unit]
    return "6" if low == 6 else f"{low}-6"


# -- sides ------------------------------------------------------------------------------------


@dataclass
class Side:
    """The players fighting together in one battle and their combat units.

    ``units`` maps each player to a counter of F, S, A, Fs, Ms and M; ``naval_base`` names the
    system owner whose naval base fights with this side (only its owner's side ever has one).
    """

    players: tuple[str, ...]
    units: dict[str, Counter[str]]
    naval_base: str = ""

    def total(self, unit: str) -> int:
        """How many squadrons (or Monitors) of ``unit`` the side has; the naval base is not a
        unit a kill can take (it is not in the Kill Precedence Table)."""
        return sum(c[unit] for c in self.units.values())

    def cv(self) -> int:
        squadrons = sum(CV[u] * n for c in self.units.values() for u, n in c.items())
        return squadrons + (CV["NB"] if self.naval_base else 0)

    def label(self) -> str:
        return " and ".join(self.players)


def side_forces(state: State, hex_: str, side: Side) -> dict[str, dict[str, int]]:
    """What each player of a side brings to a battle, for the event's data."""
    out = {}
    for player in side.players:
        force = find_force(state, hex_, player)
        fleet = force.fleet if force is not None else Fleet()
        entry = fleet.as_dict()
        entry["M"] = force.M if force is not None else 0
        if side.naval_base == player:
            entry["NB"] = 1
        out[player] = entry
    return out


def build_side(state: State, hex_: str, players: Iterable[str], owner: str) -> Side:
    """A side from the players' ready squadrons at ``hex_`` (items under construction do not
    fight); the naval base joins the side of the system's owner."""
    names = tuple(sorted(players))
    units: dict[str, Counter[str]] = {}
    system = state.system(hex_)
    for player in names:
        force = find_force(state, hex_, player)
        counter: Counter[str] = Counter()
        if force is not None:
            for unit in ("F", "S", "A", "Fs", "Ms"):
                counter[unit] = getattr(force.fleet, unit)
            counter["M"] = force.M
        units[player] = counter
    base = owner if (system is not None and system.naval_base and owner in names) else ""
    return Side(players=names, units=units, naval_base=base)


def write_back(state: State, hex_: str, side: Side) -> None:
    """Store a side's surviving squadron counts in the players' forces."""
    for player, counter in side.units.items():
        force = find_force(state, hex_, player)
        if force is None:
            continue  # nothing of its own here (a naval base's owner): counts only fall
        force.fleet = dataclasses.replace(
            force.fleet, **{u: counter[u] for u in ("F", "S", "A", "Fs", "Ms")}
        )
        force.M = counter["M"]
    drop_empty_forces(state, hex_)


def apply_kills(side: Side, kills: int, order: Iterable[str]) -> tuple[list[dict[str, Any]], int]:
    """Strike ``kills`` units of a side in ``order``; return what was hit and kills left over.

    Within one unit type, the player with most of that type loses first (name order on ties),
    so allies share losses in a way anyone can check by hand.
    """
    hit: list[dict[str, Any]] = []
    for unit in order:
        while kills > 0 and side.total(unit) > 0:
            player = max(sorted(side.units), key=lambda p: side.units[p][unit])
            side.units[player][unit] -= 1
            kills -= 1
            if hit and hit[-1]["player"] == player and hit[-1]["unit"] == unit:
                hit[-1]["count"] += 1
            else:
                hit.append({"player": player, "unit": unit, "count": 1})
    return hit, kills


def roll_kills(ctx: TurnContext, side: Side) -> tuple[list[dict[str, Any]], int]:
    """One kill die per combat unit of ``side`` (naval base included); returns rolls, kills."""
    rolls: list[dict[str, Any]] = []
    kills = 0
    for player in side.players:
        for unit in ROLL_ORDER:
            if unit == "NB":
                count = 1 if side.naval_base == player else 0
            else:
                count = side.units[player][unit]
            for _ in range(count):
                die = ctx.dice.d6(f"kill roll, {player} {BATTLE_NAMES[unit]} ({target_text(unit)})")
                kill = die >= KILL_ON[unit]
                kills += kill
                rolls.append(
                    {
                        "player": player,
                        "unit": unit,
                        "die": die,
                        "target": target_text(unit),
                        "kill": kill,
                    }
                )
    return rolls, kills


# -- step 0 -------------------------------------------------------------------------------------


def _set_facility(state: State, hex_: str, owner: str, kind: str, count: int) -> None:
    for facility in state.facilities:
        if (
            facility.hex == hex_
            and facility.owner == owner
            and facility.kind == kind
            and not facility.building
        ):
            facility.count = count
    state.facilities[:] = [f for f in state.facilities if f.count > 0]


def step0(ctx: TurnContext, hex_: str, defender: Side, attacker: Side) -> list[dict[str, Any]]:
    """Minesweeping, the minefield's attack and the intruder's KKMs; returns the record."""
    state = ctx.state
    record: list[dict[str, Any]] = []
    system = state.system(hex_)
    mine_owner = system.owner if system is not None and system.owner in defender.players else ""
    mines = facility_count(state, hex_, mine_owner, "MINE") if mine_owner else 0
    if mines > 0:
        record = _mine_attack(ctx, hex_, mine_owner, mines, attacker)
    swept_through = any(
        part["kind"] == "sweep" and sum(part["rolls"]) > part["minefield_before"] for part in record
    )
    if swept_through and ctx.rules["swept_minefield"] != "kkm-fire":
        return record  # 0b: "reduced below zero, go immediately to Step 1"
    kkm = {p: _carried(state, hex_, p, "K") for p in attacker.players}
    if sum(kkm.values()):
        rolls_k = []
        kills = 0
        for player in attacker.players:
            for n in range(1, kkm[player] + 1):
                die = ctx.dice.d6(f"KKM point {n} of {player} (4-6)")
                kill = die >= MUNITION_KILL_ON
                kills += kill
                rolls_k.append({"player": player, "die": die, "target": "4-6", "kill": kill})
        hit = []
        every = ctx.rules["kkm_targets"] == "all-facilities"
        for kind in KKM_ALL_FACILITIES if every else KKM_FACILITY_ORDER:
            for owner in defender.players:
                while kills > 0 and facility_count(state, hex_, owner, kind) > 0:
                    _set_facility(
                        state, hex_, owner, kind, facility_count(state, hex_, owner, kind) - 1
                    )
                    kills -= 1
                    if hit and hit[-1]["player"] == owner and hit[-1]["unit"] == kind:
                        hit[-1]["count"] += 1
                    else:
                        hit.append({"player": owner, "unit": kind, "count": 1})
        more, _ = apply_kills(defender, kills, PRECEDENCE)
        hit.extend(more)
        for player in attacker.players:
            _spend(state, hex_, player, "K")
        record.append(
            {"kind": "kkm", "player": ", ".join(attacker.players), "rolls": rolls_k, "kills": hit}
        )
    return record


def mines_against_partners(ctx: TurnContext, hex_: str) -> None:
    """App. B: "A minefield will attack all squadrons entering a system bar the producing
    players'": squadrons arriving at a partner's minefield, who will not fight its owner, are
    swept for and attacked as in Step 0 (a-e) before any battle there.  Only the arriving
    squadrons are attacked.  House rule ``minefield_targets = "enemies"``: a minefield attacks
    only intruders fighting its owner."""
    if ctx.rules["minefield_targets"] != "all-but-owner":
        return
    state = ctx.state
    system = state.system(hex_)
    owner = system.owner if system is not None else ""
    if not owner:
        return
    for player, arriving in sorted(ctx.arrivals.get(hex_, {}).items()):
        mines = facility_count(state, hex_, owner, "MINE")
        if mines <= 0 or player == owner or not at_peace(state, owner, player):
            continue
        force = find_force(state, hex_, player)
        if force is None:
            continue
        units: Counter[str] = Counter(
            {u: min(getattr(arriving, u), getattr(force.fleet, u)) for u in SQUADRON_FIELDS}
        )
        if not sum(units.values()):
            continue
        target = Side(players=(player,), units={player: units})
        before = Counter(units)
        mark = ctx.dice_mark()
        with ctx.dice.at(phase=PHASE, location=hex_):
            record = _mine_attack(ctx, hex_, owner, mines, target)
        lost = {u: before[u] - units[u] for u in SQUADRON_FIELDS if before[u] > units[u]}
        if lost:
            force.fleet = force.fleet - Fleet(**lost)
        drop_empty_forces(state, hex_)
        kills = [h for part in record for h in part.get("kills", [])]
        what = ", ".join(f"{h['count']} {BATTLE_NAMES[h['unit']]}" for h in kills) or "nothing"
        ctx.emit(
            PHASE,
            hex_,
            "minefield",
            f"{owner}'s minefield at {hex_} {system.name} attacked {player}'s arriving "
            f"squadrons: {what} destroyed.",
            players=(owner, player),
            visible_to=(owner, player),
            data={"hex": hex_, "owner": owner, "player": player, "step0": record, "lost": lost},
            dice=ctx.dice_since(mark),
        )


def _mine_attack(
    ctx: TurnContext, hex_: str, owner: str, mines: int, target: Side
) -> list[dict[str, Any]]:
    """Step 0 a-e against ``target``: its minesweepers roll, then the minefield points left
    attack (4-6), minesweepers struck first.

    The points used up (`mines_used`) are the hits on squadrons by default (App. B), or every
    kill rolled (5.0 step 0e) under house rule ``minefield_wear = "every-kill"``."""
    state = ctx.state
    record: list[dict[str, Any]] = []
    sweepers = [p for p in target.players if target.units[p]["Ms"]]
    if sweepers:
        rolls = [
            ctx.dice.d6(f"minesweeping, {p} Minesweeper")
            for p in sweepers
            for _ in range(target.units[p]["Ms"])
        ]
        after = max(0, mines - sum(rolls))
        record.append(
            {
                "kind": "sweep",
                "player": ", ".join(sweepers),
                "rolls": rolls,
                "minefield_before": mines,
                "minefield_after": after,
            }
        )
        mines = after
    if mines > 0:
        rolls_m = []
        kills = 0
        for n in range(1, mines + 1):
            die = ctx.dice.d6(f"minefield point {n} of {owner} (4-6)")
            kill = die >= MUNITION_KILL_ON
            kills += kill
            rolls_m.append({"die": die, "target": "4-6", "kill": kill})
        hit, _ = apply_kills(target, kills, ("Ms", *PRECEDENCE))
        used = mines_used(ctx, kills, sum(h["count"] for h in hit))
        record.append(
            {
                "kind": "mines",
                "player": owner,
                "rolls": rolls_m,
                "kills": hit,
                "minefield_before": mines,
                "minefield_after": mines - used,
            }
        )
        mines -= used
    _set_facility(state, hex_, owner, "MINE", mines)
    return record


def mines_used(ctx: TurnContext, kills: int, hits: int) -> int:
    """Minefield points one attack uses up, from its ``kills`` (rolls of 4-6) and the ``hits``
    they made on squadrons (fewer when the target ran out of squadrons).

    The seed says it twice, not quite alike: 5.0 step 0e "Each kill achieved reduces the
    minefield by a point", App. B "Each hit on a squadron reduces the minefield's
    effectiveness by one point".  By default (house rule ``minefield_wear =
    "squadron-hits"``) App. B's reading: its sentence is the minefield's own and names what a
    point is spent on, and a kill with nothing left to strike achieves nothing, so 0e's words
    fit it too.  ``"every-kill"`` takes 0e's kill as the roll of c) ("a kill has been
    obtained"), so every 4-6 costs a point, struck or not."""
    return kills if ctx.rules["minefield_wear"] == "every-kill" else hits


def _carried(state: State, hex_: str, player: str, field_: str) -> int:
    force = find_force(state, hex_, player)
    return getattr(force.fleet, field_) if force is not None else 0


def _spend(state: State, hex_: str, player: str, field_: str) -> None:
    force = find_force(state, hex_, player)
    if force is not None:
        force.fleet = dataclasses.replace(force.fleet, **{field_: 0})


# -- fusion bombing --------------------------------------------------------------------------------


def fusion_attack(ctx: TurnContext, hex_: str, defender: Side, attacker: Side) -> None:
    """Saturated Fusion Bombing: each level removes, in order, HiPop, the naval base, the scout
    base, then one resource class; it happens when the intruder's CV is at least half the
    defender's after Step 0, and every player is told the subsector (not the system).

    App. B: a fleet equipped with SFBA "can bomb": by default only the levels of players who
    ordered ``fusion bomb`` at the hex this turn are used (house rule ``fusion_bombing =
    "automatic"``: every level the intruders carry)."""
    state = ctx.state
    bombers = attacker.players
    if ctx.rules["fusion_bombing"] == "ordered":
        bombers = tuple(p for p in bombers if (hex_, p) in ctx.bomb_orders)
    levels = sum(_carried(state, hex_, p, "SF") for p in bombers)
    if levels == 0 or attacker.cv() * 2 < defender.cv():
        return
    system = state.system(hex_)
    assert system is not None
    reduced = []
    for _ in range(levels):
        if system.hipop:
            system.hipop = False
            reduced.append("HiPop")
        elif system.naval_base:
            system.naval_base = False
            defender.naval_base = ""
            reduced.append("naval base")
        elif system.scout_base:
            system.scout_base = False
            reduced.append("scout base")
        elif system.resource_class != "X":
            old = system.resource_class
            system.resource_class = drop_class(old)
            reduced.append(f"class {old} to {system.resource_class}")
        else:
            break
    for player in bombers:
        _spend(state, hex_, player, "SF")
    letter = subsector_letter(hex_)
    name = state.subsector_names.get(letter, "")
    where = f"subsector {letter}" + (f" ({name})" if name else "")
    ctx.emit(
        PHASE,
        where,
        "fusion_attack",
        f"Fusion weapons were used in {where}.",
        visible_to=("*",),
        data={"subsector": letter, "subsector_name": name},
    )
    parties = set(attacker.players) | set(defender.players)
    ctx.emit(
        PHASE,
        hex_,
        "fusion_attack",
        f"{' and '.join(bombers)} bombed {hex_} {system.name} with {levels} SFBA level"
        f"{'s' if levels != 1 else ''}: " + (", ".join(reduced) or "nothing left to destroy") + ".",
        players=tuple(sorted(parties)),
        visible_to=parties | ctx.viewers(hex_),
        data={
            "subsector": letter,
            "hex": hex_,
            "levels": levels,
            "reduced": reduced,
            "by": list(bombers),
        },
    )


def drop_class(resource_class: str) -> str:
    """One resource class lower (A>B>C>D>E>X), never below X."""
    index = RESOURCE_CLASSES.index(resource_class)
    return RESOURCE_CLASSES[min(index + 1, len(RESOURCE_CLASSES) - 1)]


# -- one battle ----------------------------------------------------------------------------------


@dataclass
class BattleResult:
    victor: Side
    defeated: Side
    rounds: list[dict[str, Any]] = field(default_factory=list)


def fight(ctx: TurnContext, defender: Side, attacker: Side) -> BattleResult:
    """Steps 1-3 on two sides already through Step 0; changes the sides' unit counts."""
    rounds: list[dict[str, Any]] = []
    number = 0
    while True:
        number += 1
        cv_d, cv_a = defender.cv(), attacker.cv()
        cvs = {**dict.fromkeys(defender.players, cv_d), **dict.fromkeys(attacker.players, cv_a)}
        cv_sides = {"defender": cv_d, "attacker": cv_a}
        if cv_d == cv_a and (cv_d == 0 or number > MAX_ROUNDS):
            rounds.append(
                {
                    "round": number,
                    "cv": cvs,
                    "cv_sides": cv_sides,
                    "victor": defender.label(),
                    "defeated": attacker.label(),
                    "attrition": False,
                    "rolls": [],
                    "kills": [],
                    "note": "both sides at zero CV: the defender holds"
                    if cv_d == 0
                    else f"no decision after {MAX_ROUNDS} rounds: the defender holds",
                }
            )
            return BattleResult(victor=defender, defeated=attacker, rounds=rounds)
        if cv_d == cv_a:
            rolls_d, kills_d = roll_kills(ctx, defender)
            rolls_a, kills_a = roll_kills(ctx, attacker)
            hit_a, _ = apply_kills(attacker, kills_d, PRECEDENCE)
            hit_d, _ = apply_kills(defender, kills_a, PRECEDENCE)
            rounds.append(
                {
                    "round": number,
                    "cv": cvs,
                    "cv_sides": cv_sides,
                    "victor": "",
                    "defeated": "",
                    "attrition": True,
                    "rolls": rolls_d + rolls_a,
                    "kills": hit_a + hit_d,
                }
            )
            continue
        victor, defeated = (defender, attacker) if cv_d > cv_a else (attacker, defender)
        rolls, kills = roll_kills(ctx, defeated)
        hit, _ = apply_kills(victor, kills, PRECEDENCE)
        rounds.append(
            {
                "round": number,
                "cv": cvs,
                "cv_sides": cv_sides,
                "victor": victor.label(),
                "defeated": defeated.label(),
                "attrition": False,
                "rolls": rolls,
                "kills": hit,
            }
        )
        return BattleResult(victor=victor, defeated=defeated, rounds=rounds)


def _grouped(rolls: list[dict[str, Any]], faces: bool) -> list[dict[str, Any]]:
    """Rolls of one player and unit in one record: the dice (or, with ``faces``, how many of
    each face), the number of kills; ``die`` holds the dice as text for a report."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for roll in rolls:
        key = (str(roll.get("player", "")), str(roll.get("unit", "")), str(roll["target"]))
        groups.setdefault(key, []).append(roll)
    out = []
    for (player, unit, target), items in groups.items():
        dice = [int(r["die"]) for r in items]
        kills = sum(1 for r in items if r["kill"])
        record: dict[str, Any] = {
            "player": player,
            "unit": unit,
            "target": target,
            "count": len(dice),
            "kills": kills,
            "kill": kills > 0,
        }
        if faces:
            counts = {str(f): dice.count(f) for f in range(1, 7) if dice.count(f)}
            record["faces"] = counts
            record["die"] = " ".join(f"{n}x{face}" for face, n in counts.items())
        else:
            record["dice"] = dice
            record["die"] = " ".join(map(str, dice))
        out.append(record)
    return out


def fit_battle_data(data: dict[str, Any]) -> dict[str, Any]:
    """Battle details small enough for one workbook cell: roll by roll when they fit, else
    grouped by player and unit, else as counts of each face, else without the rolls."""

    def rolls(change: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> Any:
        def way(fitted: dict[str, Any]) -> None:
            for part in (*fitted["step0"], *fitted["rounds"]):
                part["rolls"] = change(part["rolls"])

        return way

    ways = (
        ("dice", rolls(lambda r: _grouped(r, False))),
        ("faces", rolls(lambda r: _grouped(r, True))),
        ("dice sheet only", rolls(lambda r: [])),
    )
    return shortened(data, ways, key="rolls_grouped", limit=MAX_DATA_CHARS)


def assault_holder(state: State, hex_: str, side: Side) -> str:
    """The player of a side with the most surviving Assault squadrons ("" when none)."""
    best = ""
    for player in side.players:
        if side.units[player]["A"] > 0 and (
            not best or side.units[player]["A"] > side.units[best]["A"]
        ):
            best = player
    return best


def battle(ctx: TurnContext, hex_: str, defender: Side, attacker: Side) -> Side:
    """One battle at ``hex_``: Step 0, fusion bombing, Steps 1-4; returns the winning side.

    Every squadron of the defeated side is destroyed; its minesweepers go to the victor's
    player with an Assault squadron, if any survived.  Trade partners never meet here: an
    agreement keeps them out of each other's battles (`_engaged`), and war on a partner is
    declared in diplomacy (6.31a), which ends the agreement there.
    """
    state = ctx.state
    system = state.system(hex_)
    assert system is not None
    mark = ctx.dice_mark()
    forces_before = {"defender": side_forces(state, hex_, defender)}
    forces_before["attacker"] = side_forces(state, hex_, attacker)
    building = {
        p: f.fleet.as_dict() | {"M": f.M}
        for p in defender.players
        if (f := find_force(state, hex_, p, building=True)) is not None
    }
    with ctx.dice.at(phase=PHASE, location=hex_):
        record0 = step0(ctx, hex_, defender, attacker)
        fusion_attack(ctx, hex_, defender, attacker)
        result = fight(ctx, defender, attacker)
    victor, defeated = result.victor, result.defeated
    captured_by = assault_holder(state, hex_, victor)
    taken = defeated.total("Ms")
    for player in defeated.players:
        defeated.units[player] = Counter()
    defeated.naval_base = ""
    write_back(state, hex_, victor)
    write_back(state, hex_, defeated)
    for player in defeated.players:
        if player != system.owner:  # an intruder loses everything it brought, munitions too
            state.forces[:] = [
                f
                for f in state.forces
                if not (f.hex == hex_ and f.owner == player and not f.building)
            ]
    outcome_captured = []
    outcome_destroyed = []
    if taken and captured_by:
        add_force(state, hex_, captured_by, Fleet(Ms=taken))
        outcome_captured.append(f"{taken} Minesweeper squadron{'s' if taken > 1 else ''}")
    elif taken:
        outcome_destroyed.append(f"{taken} Minesweeper squadron{'s' if taken > 1 else ''}")
    for side in (defender, attacker):
        for player in side.players:
            ctx.fought.add((hex_, player))
    held = victor is defender
    sides_data = [
        {"player": p, "role": "defender", "forces": forces_before["defender"][p]}
        | ({"building": building[p]} if p in building else {})
        for p in defender.players
    ] + [
        {"player": p, "role": "attacker", "forces": forces_before["attacker"][p]}
        for p in attacker.players
    ]
    outcome = {
        "victor": victor.label(),
        "defeated": defeated.label(),
        "held": held,
        "captured": outcome_captured,
        "destroyed": outcome_destroyed,
    }
    data = {
        "hex": hex_,
        "name": system.name,
        "sides": sides_data,
        "step0": record0,
        "rounds": result.rounds,
        "outcome": outcome,
    }
    first = result.rounds[0]["cv_sides"]
    text = (
        f"Battle at {hex_} {system.name}: {defender.label()} (defending, CV {first['defender']}) "
        f"against {attacker.label()} (attacking, CV {first['attacker']}); "
        + (
            f"{defender.label()} held the system."
            if held
            else f"{attacker.label()} won and {defender.label()} lost every squadron there."
            if NATIVE not in defender.players
            else f"{attacker.label()} won; the naval base now serves whoever holds the system."
        )
    )
    involved = (set(defender.players) | set(attacker.players)) - {NATIVE}
    ctx.emit(
        PHASE,
        hex_,
        "battle",
        text,
        players=tuple(p for p in defender.players + attacker.players if p != NATIVE),
        visible_to=involved | ctx.viewers(hex_),
        data=fit_battle_data(data),
        dice=ctx.dice_since(mark),
    )
    return victor


# -- the phase -------------------------------------------------------------------------------------


def combatants(state: State, hex_: str) -> set[str]:
    """Active players with ready squadrons (monitors included) at a hex."""
    out = set()
    for force in state.forces_at(hex_):
        if force.owner and not force.building and (force.fleet.squadrons > 0 or force.M > 0):
            player = state.player(force.owner)
            if player is not None and not player.eliminated:
                out.add(force.owner)
    return out


def treaty_groups(
    state: State, players: Iterable[str], *, chains: bool = True, first: Iterable[str] = ()
) -> list[tuple[str, ...]]:
    """Players split into sides of players at peace (a treaty or a trade agreement, 5.0).

    ``chains``: partners of partners fight together too (house rule ``treaty_sides =
    "chains"``).  Otherwise (the default, "signatories") a side is a group of players each at
    peace with every other; players join the first side that takes them, ``first`` (the
    system's holders) in front, so the holder's side forms first.
    """
    present = set(players)
    front = [p for p in dict.fromkeys(first) if p in present]
    remaining = front + sorted(present - set(front))
    groups: list[set[str]] = []
    if not chains:
        for p in remaining:
            for group in groups:
                if all(at_peace(state, p, q) for q in group):
                    group.add(p)
                    break
            else:
                groups.append({p})
        return [tuple(sorted(g)) for g in groups]
    while remaining:
        group = {remaining.pop(0)}
        grew = True
        while grew:
            grew = False
            for p in list(remaining):
                if any(at_peace(state, p, q) for q in group):
                    group.add(p)
                    remaining.remove(p)
                    grew = True
        groups.append(group)
    return [tuple(sorted(g)) for g in groups]


def resolve_conflicts(ctx: TurnContext) -> None:
    """Phase 2 at every system that needs it, in hex order; then construction completes.

    By default only systems where squadrons arrived (5.0: combat occurs "if a fleet emerges in
    a system where native forces ... exist"); house rule ``battles_start =
    "standing-together"`` also fights where players who are no longer at peace stand together.
    """
    state = ctx.state
    ctx.refresh_sight()
    hexes = set(ctx.arrivals)
    if ctx.rules["battles_start"] == "standing-together":
        for hex_ in {f.hex for f in state.forces}:
            if len({f.owner for f in state.forces_at(hex_)}) > 1:
                hexes.add(hex_)
    for hex_ in sorted(hexes):
        if state.system(hex_) is not None:
            mines_against_partners(ctx, hex_)
            resolve_system(ctx, hex_)
    complete_construction(state)
    ctx.refresh_sight()


def native_base_defends(ctx: TurnContext, hex_: str) -> bool:
    """5.1: "you do not need to defeat the defensive forces of a naval base if you are the
    first player to occupy the system": the naval base of a system that has been held before
    and stands unowned (abandoned, or independent) defends it against every arrival.  House
    rule ``unowned_naval_base = "never-fights"``: an unowned base never fights."""
    system = ctx.state.system(hex_)
    return (
        system is not None
        and system.naval_base
        and not system.owner
        and system.changes > 0
        and ctx.rules["unowned_naval_base"] == "defends-after-first"
    )


def resolve_system(ctx: TurnContext, hex_: str) -> None:
    """Every battle at one system, then who holds it.

    The holder's side fights the other sides one at a time (house rule ``battle_order``); the
    winner of each battle holds the system against the next side.  A player at peace with
    someone on the other side of a battle stays out of that battle (5.0: no battle "between
    the players" of a treaty); under the default ``battles_start`` a battle needs one of its
    two sides to have arrived this turn.
    """
    state = ctx.state
    system = state.system(hex_)
    assert system is not None
    defeated_here: set[str] = set()
    holder_players: set[str] = set()
    settled: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    strongest = ctx.rules["battle_order"] != "weakest-first"
    chains = ctx.rules["treaty_sides"] == "chains"
    on_arrival = ctx.rules["battles_start"] != "standing-together"
    arrived = {p for p, fleet in ctx.arrivals.get(hex_, {}).items() if fleet.squadrons}
    while True:
        parties = combatants(state, hex_) - defeated_here
        owner = system.owner if system.owner not in defeated_here else ""
        owner_player = state.player(owner) if owner else None
        if owner_player is not None and not owner_player.eliminated:
            parties.add(owner)
        elif NATIVE not in defeated_here and native_base_defends(ctx, hex_) and arrived:
            owner = NATIVE
            parties.add(NATIVE)
        else:
            owner = ""
        first = sorted(holder_players) + ([owner] if owner else [])
        groups = treaty_groups(state, parties, chains=chains, first=first)
        if len(groups) < 2:
            break
        holder = next((g for g in groups if holder_players & set(g)), None)
        if holder is None:
            holder = _holder(ctx, hex_, groups, owner)
        pairs = []
        for g in groups:
            if g == holder:
                continue
            defending, attacking = _engaged(state, holder, g)
            if on_arrival and not arrived & {*defending, *attacking}:
                continue  # neither side emerged here this turn
            if defending and attacking and (defending, attacking) not in settled:
                pairs.append((defending, attacking))
        if not pairs:
            break
        cvs = {a: build_side(state, hex_, a, owner).cv() for _, a in pairs}
        pairs.sort(key=lambda da: (-cvs[da[1]] if strongest else cvs[da[1]], da[1]))
        defending, attacking = pairs[0]
        settled.add((defending, attacking))
        defender = build_side(state, hex_, defending, owner)
        attacker = build_side(state, hex_, attacking, owner)
        victor = battle(ctx, hex_, defender, attacker)
        loser = attacker if victor is defender else defender
        defeated_here.update(loser.players)
        holder_players = set(victor.players) | (set(holder) - set(loser.players))
    settle_ownership(ctx, hex_, PHASE, conquest=True)


def _engaged(
    state: State, holder: tuple[str, ...], other: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The players of two sides who fight each other: whoever is at peace with everyone left
    on the other side stays out (a partner of both), until nobody is; then, should a
    defender and an attacker still be at peace, the attacker stays out."""
    sides = [list(holder), list(other)]
    changed = True
    while changed:
        changed = False
        for mine, theirs in (sides, sides[::-1]):
            for p in list(mine):
                if theirs and all(at_peace(state, p, q) for q in theirs):
                    mine.remove(p)
                    changed = True
    defending = tuple(sides[0])
    attacking = tuple(p for p in sides[1] if not any(at_peace(state, p, q) for q in defending))
    return defending, attacking


def _holder(
    ctx: TurnContext, hex_: str, groups: list[tuple[str, ...]], owner: str
) -> tuple[str, ...]:
    """The side defending a system: the owner's; else one that was there before this turn's
    arrivals; else the strongest (several players arriving at an empty system together)."""
    state = ctx.state
    for group in groups:
        if owner and owner in group:
            return group
    arrived = ctx.arrivals.get(hex_, {})
    for group in groups:
        for player in group:
            force = find_force(state, hex_, player)
            if force is not None and (
                force.M > 0 or not arrived.get(player) or not arrived[player].covers(force.fleet)
            ):
                return group

    def cv(group: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
        return (-build_side(state, hex_, group, owner).cv(), group)

    return sorted(groups, key=cv)[0]


# -- ownership ----------------------------------------------------------------------------------


def holds(state: State, hex_: str, player: str) -> bool:
    """A player keeps a system while any of its squadrons, stores or facilities remain there."""
    return any(f.owner == player for f in state.forces_at(hex_)) or any(
        f.owner == player for f in state.facilities_at(hex_)
    )


def _strongest_present(state: State, hex_: str) -> str:
    present = combatants(state, hex_)
    if not present:
        return ""
    side = build_side(state, hex_, present, "")
    return max(sorted(present), key=lambda p: sum(CV[u] * n for u, n in side.units[p].items()))


def settle_ownership(ctx: TurnContext, hex_: str, phase: str, *, conquest: bool = False) -> None:
    """Decide who holds the system at ``hex_`` now, and carry out a change of hands.

    The owner keeps it while its squadrons are there, or while its facilities or stores are
    there (or it is its homeworld) and nobody but treaty partners stands beside them.  Anyone
    else present after the battles occupies it (the strongest, if allies arrived together);
    with nobody present and nothing of the owner's left, the system becomes unowned.
    """
    state = ctx.state
    system = state.system(hex_)
    if system is None:
        return
    old = system.owner
    old_player = state.player(old) if old else None
    present = combatants(state, hex_)
    if old_player is None or old_player.eliminated:
        new = _strongest_present(state, hex_)
    elif old in present:
        new = old
    elif present and not all(at_peace(state, old, p) for p in present):
        new = _strongest_present(state, hex_)  # enemies stand there after the battles
    elif holds(state, hex_, old) or (
        old_player.homeworld == hex_ and not old_player.homeworld_lost
    ):
        new = old
    else:
        new = _strongest_present(state, hex_)
    if new != old:
        if new:
            change_hands(ctx, hex_, old, new, phase)
        else:
            system.owner = ""
            if (hex_, old) in ctx.fought:
                # Both sides wiped out: the defender did not leave, it was destroyed, and the
                # victor has nobody there to occupy the system, so it stands empty.
                text = (
                    f"The battle at {hex_} {system.name} destroyed your forces there and the "
                    "attackers' too: with nothing of yours left the system is no longer yours, "
                    "and nobody holds it now."
                )
            else:
                text = (
                    f"You left {hex_} {system.name}: with none of your squadrons or facilities "
                    "there it is no longer yours."
                )
            ctx.tell(
                old,
                phase,
                hex_,
                "abandoned",
                text,
                data={"hex": hex_, "player": old, "destroyed": (hex_, old) in ctx.fought},
            )
    if conquest:
        _surrender(ctx, hex_, phase)


def change_hands(ctx: TurnContext, hex_: str, old: str, new: str, phase: str) -> None:
    """``new`` occupies the system: counts the change, drops the class from the 3rd change,
    takes or destroys what ``old`` had there, and handles a homeworld or stockpile site."""
    state = ctx.state
    system = state.system(hex_)
    assert system is not None
    system.owner = new
    system.changes += 1
    present = combatants(state, hex_)
    assault = any((f := find_force(state, hex_, p)) is not None and f.fleet.A > 0 for p in present)
    captured: list[str] = []
    destroyed: list[str] = []
    if old:
        for facility in [f for f in state.facilities if f.hex == hex_ and f.owner == old]:
            name = facility.text
            state.facilities.remove(facility)
            if assault:
                add_facility(
                    state, hex_, new, facility.kind, facility.count, building=facility.building
                )
                captured.append(name)
            else:
                destroyed.append(name)
        for force in [f for f in state.forces if f.hex == hex_ and f.owner == old]:
            name = _force_items_text(force.fleet, force.M, force.P, force.building)
            state.forces.remove(force)
            if not name:
                continue
            if assault:
                add_force(
                    state, hex_, new, force.fleet, M=force.M, P=force.P, building=force.building
                )
                captured.append(name)
            else:
                destroyed.append(name)
    vis = {new, old} - {""}
    ctx.refresh_sight()
    viewers = ctx.viewers(hex_)
    ctx.emit(
        phase,
        hex_,
        "capture",
        f"{new} occupied {hex_} {system.name}"
        + (f", taken from {old}" if old else "")
        + (f"; captured: {', '.join(captured)}" if captured else "")
        + (f"; destroyed: {', '.join(destroyed)}" if destroyed else "")
        + ".",
        players=tuple(sorted(vis)),
        visible_to=vis | viewers,
        data={
            "hex": hex_,
            "name": system.name,
            "from": old,
            "to": new,
            "captured": captured,
            "destroyed": destroyed,
            "changes": system.changes,
            "assault": assault,
        },
    )
    if system.changes >= 3 and system.resource_class != "X":
        before = system.resource_class
        system.resource_class = drop_class(before)
        ctx.emit(
            phase,
            hex_,
            "class_drop",
            f"{hex_} {system.name} changed hands for the {_ordinal(system.changes)} time and "
            f"dropped from class {before} to class {system.resource_class}.",
            players=tuple(sorted(vis)),
            visible_to=vis | viewers,
            data={
                "hex": hex_,
                "from_class": before,
                "to_class": system.resource_class,
                "changes": system.changes,
            },
        )
    _homeworld_and_stockpile(ctx, hex_, new, phase, vis | viewers)


def _homeworld_and_stockpile(
    ctx: TurnContext, hex_: str, new: str, phase: str, told: set[str]
) -> None:
    state = ctx.state
    taker = state.player(new)
    assert taker is not None
    for p in state.players:
        if p.name == new:
            if p.homeworld == hex_ and p.homeworld_lost:
                p.homeworld_lost = 0
                ctx.emit(
                    phase,
                    hex_,
                    "homeworld_regained",
                    f"{new} retook its homeworld {hex_}; civil unrest ends.",
                    players=(new,),
                    visible_to=told | {new},
                    data={"player": new, "hex": hex_},
                )
            continue
        site = p.stockpile_at or p.homeworld
        transferred = 0
        if site == hex_ and p.stockpile:
            transferred = p.stockpile
            taker.stockpile += transferred
            p.stockpile = 0
        if site == hex_:
            p.stockpile_at = _new_stockpile_site(state, p.name, hex_)
        if p.homeworld == hex_ and not p.homeworld_lost:
            p.homeworld_lost = ctx.year
            ctx.emit(
                phase,
                hex_,
                "homeworld_lost",
                f"{p.name}'s homeworld {hex_} fell to {new}"
                + (f"; {transferred} stockpiled points passed to {new}" if transferred else "")
                + ".",
                players=(p.name, new),
                visible_to=told | {p.name, new},
                data={
                    "player": p.name,
                    "hex": hex_,
                    "by": new,
                    "stockpile_transferred": transferred,
                },
            )
        elif transferred:
            ctx.emit(
                phase,
                hex_,
                "stockpile_taken",
                f"{new} took {p.name}'s stockpile of {transferred} points at {hex_}.",
                players=(p.name, new),
                visible_to=(p.name, new),
                data={"player": p.name, "hex": hex_, "by": new, "points": transferred},
            )


def _new_stockpile_site(state: State, player: str, lost: str) -> str:
    """Where a player's points go once their site fell: a remaining depot or construction
    facility, else the homeworld (empty)."""
    sites = sorted(
        f.hex
        for f in state.facilities
        if f.owner == player and f.kind in ("DEPOT", "CF") and f.hex != lost
    )
    return sites[0] if sites else ""


def _surrender(ctx: TurnContext, hex_: str, phase: str) -> None:
    """Squadrons of an independent world join the first force to arrive there."""
    state = ctx.state
    system = state.system(hex_)
    assert system is not None
    independent = [f for f in state.forces if f.hex == hex_ and f.owner == ""]
    if not independent or hex_ not in ctx.arrivals or not system.owner:
        return
    new = system.owner
    if new not in combatants(state, hex_):
        return
    total = Fleet()
    monitors = 0
    for force in independent:
        state.forces.remove(force)
        add_force(state, hex_, new, force.fleet, M=force.M, P=force.P)
        total = total + force.fleet
        monitors += force.M
    ctx.emit(
        phase,
        hex_,
        "surrender",
        f"The independent squadrons at {hex_} {system.name} surrendered to {new}: "
        f"{_force_items_text(total, monitors, 0, False)}.",
        players=(new,),
        visible_to={new} | ctx.viewers(hex_),
        data={"hex": hex_, "to": new, "forces": total.as_dict() | {"M": monitors}},
    )


def _force_items_text(fleet: Fleet, monitors: int, probes: int, building: bool) -> str:
    parts = [f"{getattr(fleet, u)} {BATTLE_NAMES[u]}" for u in FLEET_FIELDS if getattr(fleet, u)]
    if monitors:
        parts.append(f"{monitors} Monitor")
    if probes:
        parts.append(f"{probes} probe")
    if not parts:
        return ""
    return ", ".join(parts) + (" (under construction)" if building else "")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
