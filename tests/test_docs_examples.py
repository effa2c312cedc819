"""The Python examples in the documentation run as written.

`docs/rules/<game>.md` shows each game's entry points ("this state, these orders, these dice
-> this result") with a worked example whose asserts state the result computed by hand from
the rules.  Reviewers and referees copy them; an example that no longer runs, or whose result
changed, fails here, naming the page and the block.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from refassist.rulesets import RULESETS

DOCS = Path(__file__).resolve().parent.parent / "docs"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def examples() -> list[tuple[str, int, str]]:
    found = []
    for page in sorted(DOCS.rglob("*.md")):
        for number, match in enumerate(BLOCK.finditer(page.read_text(encoding="utf-8")), 1):
            found.append((page.relative_to(DOCS).as_posix(), number, match.group(1)))
    return found


@pytest.mark.parametrize(("page", "number", "code"), examples(), ids=lambda v: str(v)[:40])
def test_the_example_runs(
    page: str, number: int, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run from a scratch folder that sees the project's ``workbooks/`` as the repository's
    root does, so an example's files land in the scratch folder."""
    (tmp_path / "workbooks").symlink_to(DOCS.parent / "workbooks")
    monkeypatch.chdir(tmp_path)
    compiled = compile(code, f"docs/{page} (python block {number})", "exec")
    exec(compiled, {"__name__": "docs_example"})


def test_every_game_shows_its_entry_points() -> None:
    """Each game's rules page has a worked example that resolves a turn with scripted dice."""
    blocks: dict[str, list[str]] = {}
    for page, _number, code in examples():
        blocks.setdefault(page, []).append(code)
    for ruleset in RULESETS:
        shown = blocks.get(f"rules/{ruleset.name}.md", [])
        assert any(
            f'find_ruleset("{ruleset.name}")' in code
            and "Dice.scripted(" in code
            and ".resolve(" in code
            for code in shown
        ), ruleset.name
