"""The report templates' environments: one per template path and process, compiled before the
report workers fork (`refassist.report.render`)."""

from __future__ import annotations

import os
from pathlib import Path

from refassist.report.render import (
    compile_with_parts,
    environment,
    project_templates,
    render_html,
    shared_environment,
)


def test_a_template_is_compiled_with_every_part_it_extends_includes_or_imports(
    tmp_path: Path,
) -> None:
    (tmp_path / "page.html").write_text(
        '{% extends "frame.html" %}{% from "macros.html" import shout %}'
        "{% block body %}{{ shout(word) }}{% endblock %}"
    )
    (tmp_path / "frame.html").write_text(
        '<p>{% block body %}{% endblock %}{% include "foot.html" %}'
    )
    (tmp_path / "macros.html").write_text("{% macro shout(w) %}{{ w|upper }}{% endmacro %}")
    (tmp_path / "foot.html").write_text("</p>")
    (tmp_path / "unused.html").write_text("never asked for")
    env = environment([tmp_path])
    compile_with_parts(env, ["page.html"])
    assert env.cache is not None
    compiled = {name for _, name in env.cache}
    assert compiled == {"page.html", "frame.html", "macros.html", "foot.html"}
    assert render_html(env, "page.html", {"word": "hi"}) == "<p>HI</p>"


def test_every_games_report_templates_compile_with_their_parts() -> None:
    env = environment([project_templates()])
    games = [p.name for p in project_templates().iterdir() if p.is_dir() and p.name != "base"]
    names = [f"{game}/{reader}.html" for game in games for reader in ("player", "referee")]
    compile_with_parts(env, [n for n in names if (project_templates() / n).is_file()])
    assert env.cache is not None
    compiled = {name for _, name in env.cache}
    assert "base/layout.html" in compiled
    assert len(compiled) > len(games) * 2


def test_the_shared_environment_is_one_per_path_and_sees_a_template_edited_since(
    tmp_path: Path,
) -> None:
    page = tmp_path / "page.html"
    page.write_text("first")
    env = shared_environment([tmp_path])
    assert shared_environment([tmp_path]) is env
    assert shared_environment([tmp_path, project_templates()]) is not env
    assert render_html(env, "page.html", {}) == "first"
    page.write_text("second")
    later = page.stat().st_mtime + 5
    os.utime(page, (later, later))
    assert render_html(shared_environment([tmp_path]), "page.html", {}) == "second"
