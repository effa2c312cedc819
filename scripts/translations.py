"""Keep the translation catalogs in step with the code.

    .venv/bin/python scripts/translations.py            # write every catalog, keep translations
    .venv/bin/python scripts/translations.py --check    # list what is missing or stale

A catalog is a ``.po`` file (`refassist.text.i18n`): the engine's in ``refassist/locale``, each
game's in its package's ``locale``.  After this script adds a text, translate it in the ``.po`` (any
text editor, or Poedit); ``tests/test_translations.py`` fails while a text is untranslated.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from refassist.i18n_catalogs import (  # noqa: E402
    Domain,
    engine_domain,
    game_domains,
    languages,
    missing_and_stale,
    update,
)


def domains() -> list[tuple[str, Domain]]:
    """The engine's domain and every game's that has catalogs of its own."""
    return [("engine", engine_domain()), *game_domains().items()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; list the gaps")
    args = parser.parse_args()
    gaps = 0
    for name, domain in domains():
        for language in languages():
            if args.check:
                missing, stale = missing_and_stale(domain, language)
                for text in missing:
                    print(f"{name} [{language}] untranslated: {text[:90]}")
                for text in stale:
                    print(f"{name} [{language}] no longer in the code: {text[:90]}")
                gaps += len(missing) + len(stale)
            else:
                print(f"wrote {update(domain, language).relative_to(REPO)}")
    return 1 if gaps else 0


if __name__ == "__main__":
    raise SystemExit(main())
