"""The report templates' environments: one per template path and process, compiled before the
report workers fork (`refassist.typeset.render`)."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2

from refassist.typeset.render import (
    CompiledTemplates,
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


def test_the_parts_found_in_the_tags_are_those_jinja2_finds(tmp_path: Path) -> None:
    """`compile_with_parts` reads a template's parts from its tags instead of parsing it
    again: for every template refassist ships (and tags written every way jinja2 allows), the
    same names as jinja2's own parse."""
    import jinja2.meta

    from refassist.typeset.render import _PARTS

    env = environment([project_templates()])
    names = env.list_templates(filter_func=lambda name: name.endswith(".html"))
    assert len(names) > 10
    odd = '{%- extends "a.html" -%}{%include \'b.html\'%}{% from "c.html" import x as y %}'
    sources = [env.loader.get_source(env, n)[0] for n in names] + [odd]  # type: ignore[union-attr]
    for source in sources:
        ours = set(_PARTS.findall(source))
        theirs = set(jinja2.meta.find_referenced_templates(env.parse(source))) - {None}
        assert ours == theirs, source[:200]
    assert set(_PARTS.findall(odd)) == {"a.html", "b.html", "c.html"}


def test_a_new_process_loads_the_templates_compiled_and_sees_an_edit(tmp_path: Path) -> None:
    """Compiled templates are kept between runs (`CompiledTemplates`): a new environment (as
    in the next command) loads the code instead of compiling it, a template edited since is
    compiled again, and a damaged cache file is compiled past."""
    page = tmp_path / "page.html"
    page.write_text("{{ word|upper }} once")
    render_html(environment([tmp_path]), "page.html", {"word": "hi"})
    compiled: list[str] = []

    def counting(env: jinja2.Environment) -> jinja2.Environment:
        real = env.compile

        def compile(source, name=None, filename=None, raw=False, defer_init=False):  # type: ignore[no-untyped-def]
            compiled.append(name)
            return real(source, name, filename, raw, defer_init)

        env.compile = compile  # type: ignore[method-assign]
        return env

    again = counting(environment([tmp_path]))
    assert render_html(again, "page.html", {"word": "hi"}) == "HI once"
    assert compiled == []
    page.write_text("{{ word|upper }} twice")
    assert render_html(counting(environment([tmp_path])), "page.html", {"word": "hi"}) == (
        "HI twice"
    )
    assert compiled == ["page.html"]
    cache = environment([tmp_path]).bytecode_cache
    assert isinstance(cache, CompiledTemplates)
    kept = Path(cache.directory) / (cache.pattern % cache.get_cache_key("page.html", str(page)))
    assert kept.is_file()
    kept.write_bytes(b"not what jinja2 wrote")
    compiled.clear()
    assert render_html(counting(environment([tmp_path])), "page.html", {"word": "hi"}) == (
        "HI twice"
    )
    assert compiled == ["page.html"]


def test_a_cache_that_cannot_be_written_is_no_cache(tmp_path: Path) -> None:
    """Where the compiled code cannot be kept (the private folder gone, a full disk), the
    template is compiled and rendered as before."""
    (tmp_path / "page.html").write_text("still {{ 1 + 1 }}")
    env = environment([tmp_path])
    cache = CompiledTemplates()
    cache.directory = str(tmp_path / "gone")
    env.bytecode_cache = cache
    assert render_html(env, "page.html", {}) == "still 2"
