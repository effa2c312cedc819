"""Write a golden game again (tests/golden/<ruleset>/; default: fifth-millennium).

Run it only when a change of the rules (or of the computer players, or of an event's wording)
is intended, then read the diff of the golden files before committing them:

    .venv/bin/python scripts/regenerate_golden.py                  # Fifth Millennium
    .venv/bin/python scripts/regenerate_golden.py imperium-3m      # Imperium 3rd Millennium
    git diff --stat tests/golden

The Imperium game is played on copies of the default map and scenario kept beside its states
(``--new-map`` copies the shipped ones again).  The small sector file the Fifth Millennium
game is played on is kept as it is; ``--new-sector`` writes it
again from the sector generator (subsectors A-C of generated sector 7), which changes every
golden state.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from refassist.hexmap import col_row  # noqa: E402
from refassist.sectors import Sector, generate_sector, write_tab  # noqa: E402
from tests import golden_game  # noqa: E402


def write_sector() -> None:
    full = generate_sector(golden_game.SECTOR_SEED)
    worlds = [
        w
        for w in full.worlds
        if col_row(w.hex)[0] <= golden_game.MAX_COLUMN and col_row(w.hex)[1] <= golden_game.MAX_ROW
    ]
    letters = {"A", "B", "C"}
    small = Sector(
        name=f"{full.name} (golden corner)",
        abbreviation=full.abbreviation,
        worlds=worlds,
        subsector_names={k: v for k, v in full.subsector_names.items() if k in letters},
        warnings=[],
        source=f"refassist generate_sector({golden_game.SECTOR_SEED}), subsectors A-C",
    )
    golden_game.SECTOR_FILE.write_text(write_tab(small), encoding="utf-8")
    print(f"wrote {golden_game.SECTOR_FILE.relative_to(REPO)} ({len(worlds)} worlds)")


def write_imperium_map() -> None:
    from refassist.rulesets.imperium_3m.mapfile import default_map_text, default_scenario_text

    (golden_game.IMPERIUM_DIR / "map.toml").write_text(default_map_text(), encoding="utf-8")
    (golden_game.IMPERIUM_DIR / "scenario.toml").write_text(
        default_scenario_text(), encoding="utf-8"
    )
    print(f"copied the default map and scenario to {golden_game.IMPERIUM_DIR.relative_to(REPO)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "ruleset", nargs="?", default="fifth-millennium", choices=sorted(golden_game.GOLDEN_DIRS)
    )
    parser.add_argument("--new-sector", action="store_true", help="write the sector file again")
    parser.add_argument("--new-map", action="store_true", help="copy the shipped map again")
    args = parser.parse_args()
    folder = golden_game.GOLDEN_DIRS[args.ruleset]
    folder.mkdir(parents=True, exist_ok=True)
    if args.ruleset == "fifth-millennium" and (
        args.new_sector or not golden_game.SECTOR_FILE.exists()
    ):
        write_sector()
    if args.ruleset == "imperium-3m" and (args.new_map or not (folder / "map.toml").exists()):
        write_imperium_map()
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
