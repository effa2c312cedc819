"""Documentation stays in step with the code (sqlite-utils' test_docs habit)."""

from __future__ import annotations

from pathlib import Path

from refassist.cli import main
from refassist.rulesets import RULESETS

DOCS = Path(__file__).resolve().parents[1] / "docs"
README = Path(__file__).resolve().parents[1] / "README.md"


def test_every_master_workbook_column_is_documented() -> None:
    text = (DOCS / "master-workbook.md").read_text(encoding="utf-8")
    for ruleset in RULESETS:
        for table in ruleset.schema():
            assert f"### {table.title}" in text, table.title
            for column in table.columns:
                assert f"| {column.header} |" in text, f"{table.title}: {column.header}"


def test_every_command_is_in_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    for name in main.commands:
        assert f"refassist {name}" in text, f"README does not show `refassist {name}`"


def test_every_house_rule_is_explained_in_the_rules_notes() -> None:
    for ruleset in RULESETS:
        text = (DOCS / "rules" / f"{ruleset.name}.md").read_text(encoding="utf-8")
        for rule in ruleset.house_rules:
            assert f"`{rule.key}`" in text, f"{rule.key} is not in docs/rules/{ruleset.name}.md"


def test_readme_starts_with_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert lines[3].startswith("python3 -m venv .venv") and "refassist demo" in lines[3]
    assert lines[4] == "bash scripts/test"
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash scripts/test" in ci
