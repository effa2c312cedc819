"""Write the repository's ``workbooks/`` folder again from the code (`refassist.examples`).

    .venv/bin/python scripts/make_workbooks.py            # every game, with the PDFs
    .venv/bin/python scripts/make_workbooks.py --check    # say what is stale, write nothing

Run it after changing a turn sheet, the master workbook's tables or a game's rules, and commit
what it writes: `tests/test_workbooks.py` fails while the committed files differ in content
from what the code writes.  The PDFs are printed by LibreOffice (``soffice`` on the PATH).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from refassist.examples import (  # noqa: E402
    describe,
    differences,
    libreoffice_pdf,
    write_examples,
)
from refassist.rulesets import RULESETS, find_ruleset  # noqa: E402

WORKBOOKS = REPO / "workbooks"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="rulesets to write (default: every one)")
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    parser.add_argument("--no-pdf", action="store_true", help="leave the PDFs as they are")
    args = parser.parse_args(argv)
    rulesets = [find_ruleset(name) for name in args.games] or list(RULESETS)
    to_pdf = None if args.no_pdf else libreoffice_pdf
    with tempfile.TemporaryDirectory(prefix="refassist-workbooks-") as tmp:
        fresh = Path(tmp) / "workbooks"
        written = write_examples(fresh, rulesets, to_pdf)
        if args.check:
            stale = []
            for ruleset in rulesets:
                stale += [
                    f"{ruleset.name}/{line}"
                    for line in differences(WORKBOOKS / ruleset.name, fresh / ruleset.name)
                ]
            print("\n".join(stale) if stale else "workbooks/ is up to date")
            return 1 if stale else 0
        for w in written:
            target = WORKBOOKS / w.path.relative_to(fresh)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(w.path, target)
        for line in describe(written, fresh):
            print(f"workbooks/{line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
