"""The typesetter mirrors report.css (`refassist.typeset.contract.MIRRORED`): the two may not
differ, and a change to one alone is found and named."""

from __future__ import annotations

from pathlib import Path

from refassist.typeset.contract import MIRRORED, css_values, mismatches, read_css

CSS = Path(__file__).resolve().parents[1] / "templates" / "base" / "report.css"


def test_the_typesetter_holds_report_css_as_it_is() -> None:
    problems = mismatches(CSS.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)
    assert len(MIRRORED) > 50


def test_a_change_to_report_css_alone_is_found_and_named() -> None:
    text = CSS.read_text(encoding="utf-8")
    changed = text.replace("p { margin: 0 0 1.5mm 0; }", "p { margin: 0 0 2mm 0; }")
    assert changed != text
    assert mismatches(changed) == [
        "report.css `p { margin: 0 0 2mm 0 }`, the typesetter "
        f"{next(m.values for m in MIRRORED if m.selector == 'p')}"
    ]
    dropped = text.replace("h2.spaced { margin-top: 6mm; }", "").replace(
        ".badge { display: inline-block; font-size: 7pt; background: #e4e4e4;",
        ".badge { display: inline-block; font-size: 7pt; background: #e5e5e5;",
    )
    assert (
        len(mismatches(dropped)) == 1
        and "`.badge { background: #e5e5e5 }`" in (mismatches(dropped)[0])
    )


def test_css_is_read_in_points() -> None:
    css = read_css("/* x */ a, b { margin: 1mm 0 2pt 4px; color: #abc }")
    assert css[("a, b", "color")] == "#abc"
    assert css_values("margin", css[("a, b", "margin")]) == (72 / 25.4, 0.0, 2.0, 3.0)
    assert css_values("color", "#ABC") == ("#aabbcc",)
    assert css_values("font-family", '"DejaVu Sans", sans-serif') == ("DejaVu Sans",)
