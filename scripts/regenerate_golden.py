"""Write a golden game again (tests/golden/<ruleset>/; default: fifth-millennium).

Run it only when a change of the rules (or of the computer players, or of an event's wording)
is intended, then read the diff of the golden files before committing them:

    .venv/bin/python scripts/regenerate_golden.py                  # Fifth Millennium
    .venv/bin/python scripts/regenerate_golden.py imperium-3m      # Imperium 3rd Millennium
    .venv/bin/python scripts/regenerate_golden.py full-thrust-campaign
    .venv/bin/python scripts/regenerate_golden.py millennium-wars
    .venv/bin/python scripts/regenerate_golden.py millenium
    git diff --stat tests/golden

Each game is played as ``tests/golden/<ruleset>/golden.toml`` says, on the map kept beside
its states.  ``--new-map`` writes that map again (Fifth Millennium: subsectors A-C of
generated sector 7; Imperium 3rd Millennium: the shipped default map and scenario), which
changes every golden state of the game.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from refassist.geometry.hexmap import col_row  # noqa: E402
from refassist.geometry.sectors import Sector, generate_sector, write_tab  # noqa: E402
from tests import golden_game  # noqa: E402

#: The generated sector the Fifth Millennium golden map is cut from, and where it is cut.
SECTOR_SEED = 7
MAX_COLUMN = 24
MAX_ROW = 10


def write_sector(folder: Path) -> None:
    full = generate_sector(SECTOR_SEED)
    worlds = [
        w for w in full.worlds if col_row(w.hex)[0] <= MAX_COLUMN and col_row(w.hex)[1] <= MAX_ROW
    ]
    letters = {"A", "B", "C"}
    small = Sector(
        name=f"{full.name} (golden corner)",
        abbreviation=full.abbreviation,
        worlds=worlds,
        subsector_names={k: v for k, v in full.subsector_names.items() if k in letters},
        warnings=[],
        source=f"refassist generate_sector({SECTOR_SEED}), subsectors A-C",
    )
    target = folder / golden_game.description("fifth-millennium")["map"]
    target.write_text(write_tab(small), encoding="utf-8")
    print(f"wrote {target.relative_to(REPO)} ({len(worlds)} worlds)")


def write_imperium_map(folder: Path) -> None:
    from refassist.rulesets.imperium_3m.mapfile import default_map_text, default_scenario_text

    (folder / "map.toml").write_text(default_map_text(), encoding="utf-8")
    (folder / "scenario.toml").write_text(default_scenario_text(), encoding="utf-8")
    print(f"copied the default map and scenario to {folder.relative_to(REPO)}")


def write_campaign_map(folder: Path) -> None:
    from refassist.rulesets.full_thrust.mapfile import default_map_text

    (folder / "map.toml").write_text(default_map_text(), encoding="utf-8")
    print(f"copied the default map to {folder.relative_to(REPO)}")


def write_training_scenario(folder: Path) -> None:
    from refassist.rulesets.millennium_wars.scenario import default_scenario_text

    (folder / "scenario.toml").write_text(default_scenario_text(), encoding="utf-8")
    print(f"copied the training scenario to {folder.relative_to(REPO)}")


#: How each golden map is made anew (``--new-map``); a game whose golden map is written by
#: hand has no entry.
def write_zone_map(folder: Path) -> None:
    from refassist.rulesets.millenium.geometry import DEFAULT_MAP

    (folder / "map.toml").write_text(DEFAULT_MAP.read_text(encoding="utf-8"), encoding="utf-8")
    print(f"copied the shipped map to {folder.relative_to(REPO)}")


MAP_WRITERS = {
    "fifth-millennium": write_sector,
    "imperium-3m": write_imperium_map,
    "full-thrust-campaign": write_campaign_map,
    "millennium-wars": write_training_scenario,
    "millenium": write_zone_map,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "ruleset", nargs="?", default="fifth-millennium", choices=sorted(golden_game.GOLDEN_DIRS)
    )
    parser.add_argument("--new-map", action="store_true", help="write the game's map again")
    args = parser.parse_args()
    folder = golden_game.GOLDEN_DIRS[args.ruleset]
    if args.new_map:
        if args.ruleset not in MAP_WRITERS:
            parser.error(f"{args.ruleset}'s golden map is kept by hand in {folder}")
        MAP_WRITERS[args.ruleset](folder)
    for old in folder.glob("*.json"):
        old.unlink()
    for year, data in golden_game.play(args.ruleset):
        path = golden_game.golden_path(year, args.ruleset)
        path.write_text(golden_game.dumps(data), encoding="utf-8")
        events = len(data["events"])
        print(f"{year}: {events} events -> {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
