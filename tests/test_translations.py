"""The translation layer: catalogs complete and in step with the code, languages read from
players.csv and game.toml, and what a player reads (mail, report pages) in that language."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from refassist.config import GameConfig, PlayerConfig, load_config, render_config
from refassist.errors import GameError, UsageError
from refassist.i18n_catalogs import engine_domain, game_domains, languages, missing_and_stale
from refassist.report.mailing import build_mailings
from refassist.store.game import read_players_csv
from refassist.text.i18n import language_code, words_for
from refassist.typeset.render import environment, project_templates, render_html, speaking


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("domain", ["engine", *game_domains()])
def test_every_catalog_translates_every_marked_text_and_nothing_stale(
    domain: str, language: str
) -> None:
    found = engine_domain() if domain == "engine" else game_domains()[domain]
    missing, stale = missing_and_stale(found, language)
    assert not missing, "untranslated (run scripts/translations.py, then translate):\n" + "\n".join(
        missing
    )
    assert not stale, "no longer in the code (run scripts/translations.py):\n" + "\n".join(stale)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("fr", "fr"),
        ("FR", "fr"),
        ("fr_FR", "fr"),
        ("fr-CA", "fr"),
        ("Français", "fr"),
        ("french", "fr"),
        ("en", "en"),
        ("klingon", None),
    ],
)
def test_language_names_a_referee_may_write(text: str, code: str | None) -> None:
    assert language_code(text) == code


def test_players_csv_names_each_players_language(tmp_path: Path) -> None:
    csv = tmp_path / "players.csv"
    csv.write_text(
        "name,email,langue\nAnne,anne@example.org,français\nBob,bob@example.org,\n",
        encoding="utf-8",
    )
    players = read_players_csv(csv)
    assert [(p.name, p.language) for p in players] == [("Anne", "fr"), ("Bob", "")]
    csv.write_text("name,email,language\nAnne,anne@example.org,klingon\n", encoding="utf-8")
    with pytest.raises(UsageError, match="line 2: 'klingon' is not a language refassist speaks"):
        read_players_csv(csv)


def test_game_toml_keeps_the_languages(tmp_path: Path) -> None:
    config = GameConfig(
        "g",
        "id",
        "fifth-millennium",
        1,
        "s",
        [
            PlayerConfig("Anne", "anne@example.org", language="fr"),
            PlayerConfig("Bob", "bob@example.org"),
        ],
        language="fr",
    )
    path = tmp_path / "game.toml"
    path.write_text(render_config(config, {}), encoding="utf-8")
    again = load_config(path)
    assert again.language == "fr" and [p.language for p in again.players] == ["fr", ""]
    path.write_text(
        path.read_text(encoding="utf-8").replace('language = "fr"\n', 'language = "xx"\n', 1),
        encoding="utf-8",
    )
    with pytest.raises(GameError, match="'xx' is not a language"):
        load_config(path)


def test_dates_and_deadlines_in_the_readers_language() -> None:
    moment = dt.datetime(2026, 11, 26, 21, 0)
    assert words_for("en").when(moment) == "Thu 26 Nov 2026 21:00"
    assert words_for("fr").when(moment) == "jeu. 26 nov. 2026 21:00"
    assert words_for("fr").when(None) == "à fixer par l'arbitre"
    assert (
        words_for("fr").orders_due("jeu. 26 nov. 2026 21:00")
        == "Les ordres sont à rendre avant le jeu. 26 nov. 2026 21:00."
    )
    assert (
        words_for("en").orders_due("set by the referee")
        == "Orders are due when the referee sets the deadline."
    )


def test_a_report_mail_in_french_and_one_in_english(tmp_path: Path) -> None:
    pdfs = {}
    for name in ("Anne", "Bob"):
        pdfs[name] = tmp_path / f"{name}.pdf"
        pdfs[name].write_bytes(b"%PDF-1.4\n")
    french = words_for("fr")
    mailings = build_mailings(
        folder=tmp_path,
        game_name="Orion",
        step="3",
        deadline="Thu 26 Nov 2026 21:00",
        sender="ref@example.org",
        resolved="2",
        addresses={"Anne": "anne@example.org", "Bob": "bob@example.org"},
        reports=pdfs,
        sheets={},
        readers={"Anne": (french, french.when(dt.datetime(2026, 11, 26, 21, 0)))},
    )
    anne, bob = (m.message for m in mailings)
    assert anne["Subject"] == "Orion : résultats pour 2 (Anne)"
    assert "Bonjour Anne," in anne.get_body().get_content()  # type: ignore[union-attr]
    assert (
        "Le compte rendu de Orion avec les résultats pour 2 est joint en PDF."
        in anne.get_body().get_content()
    )  # type: ignore[union-attr]
    assert bob["Subject"] == "Orion: results of 2 (Bob)"
    assert "Dear Bob," in bob.get_body().get_content()  # type: ignore[union-attr]


def test_the_shared_templates_speak_the_readers_language() -> None:
    env = environment([project_templates()])
    page = (
        '{% from "base/orders.html" import orders_understood %}'
        '{% from "base/dice.html" import dice_note %}'
        "{{ orders_understood(orders, False, 'accepted', '-') }}{{ dice_note(dice) }}"
    )
    context = {
        "orders": ["K 23N4 > 33C4"],
        "dice": {"source": "seeded", "step": "3", "seed": "<7>", "commitment": "abc"},
    }
    english = env.from_string(page).render(**context)
    french = speaking(env, "fr").from_string(page).render(**context)
    assert "If this is not what you meant" in english and "<b>Dice of 3:</b>" in english
    assert (
        "Si ce n&#39;est pas ce que vous vouliez" in french
        or "Si ce n'est pas ce que vous vouliez" in french
    )
    assert "<b>Dés pour 3 :</b>" in french and "printf %s GRAINE" in french
    assert "&lt;7&gt;" in french  # a value is escaped inside a translated text
    assert speaking(env, "en") is env and speaking(env, "fr") is speaking(env, "fr")
    # Speaking French never makes the English environment French (an overlay shares its
    # parent's globals unless given its own).
    assert "If this is not what you meant" in env.from_string(page).render(**context)
    assert "If this is not what you meant" in env.get_template(
        "base/orders.html"
    ).module.orders_understood(["x"], False, "accepted", "-")
    assert (
        render_html(
            env,
            "base/layout.html",
            {
                "title": "t",
                "refassist_version": "1",
                "game": "g",
                "period": "p",
                "reader": "r",
                "generated": "x",
                "language": "fr",
            },
        ).count('lang="fr"')
        == 1
    )
