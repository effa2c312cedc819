"""The standings chart: every player's (or side's) score over the turns, as SVG.

Written by hand rather than with a plotting library: it is one kind of chart, it must look
the same in a browser and in WeasyPrint's PDF, and the SVG stays small and legible in black
and white (each line has its own colour *and*, past the first eight, its own dash pattern and
marker).  Every text is escaped: names come from players.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

from ..text.words import N_

#: Line colours, chosen to stay apart in print; a ninth series repeats them dashed.
PALETTE = (
    "#1f4e9c",
    "#c0392b",
    "#2e8b3a",
    "#7d3c98",
    "#d68910",
    "#5d4037",
    "#c2185b",
    "#00838f",
)
DASHES = ("", "7 4", "2 3", "9 3 2 3")
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'


def _nice_step(span: float, ticks: int = 5) -> float:
    """A whole tick step of 1, 2 or 5 times a power of ten giving about ``ticks`` ticks over
    ``span`` (scores are counts: never a step below 1)."""
    raw = max(span, 1.0) / ticks
    power = 10 ** math.floor(math.log10(raw))
    factor = next(f for f in (1, 2, 5, 10) if raw <= f * power)
    return max(1.0, factor * power)


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


#: The x axis's title (each point is a step's standings once it was resolved); a report
#: translates it for its reader (`site.chart_of`).
AFTER_THE_TURN = N_("after the turn")
#: The first point's label: the standings before any step was resolved (`History`).
START = N_("start")


def standings_svg(
    points: Sequence[tuple[str, Mapping[str, float]]],
    measure: str,
    *,
    title: str = "Standings",
    x_title: str = AFTER_THE_TURN,
    width: int = 760,
) -> str:
    """The chart of ``points`` (x label, score of each name) as one ``<svg>`` element; "" when
    there is nothing to draw."""
    if not points:
        return ""
    names: list[str] = []
    for _, scores in points:
        names.extend(n for n in scores if n not in names)
    lowest = min(0.0, *(v for _, s in points for v in s.values()))
    highest = max(1.0, *(v for _, s in points for v in s.values()))
    step = _nice_step(highest - lowest)
    top = math.ceil(highest / step) * step
    bottom = math.floor(lowest / step) * step if lowest < 0 else 0.0
    legend_w = 190
    left, right, head, foot = 58, legend_w + 16, 40, 64
    plot_h = 240
    height = max(head + plot_h + foot, head + 18 * len(names) + 24)
    plot_w = width - left - right
    count = len(points)

    def x_of(i: int) -> float:
        return left + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y_of(v: float) -> float:
        return head + plot_h - (v - bottom) / (top - bottom) * plot_h

    name = escape(title or "Standings")
    out = [
        f'<svg class="standings-chart" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'aria-label="{name}: {escape(measure)}">',
        f"<title>{name}: {escape(measure)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    if title:  # a page that heads the chart itself passes ""
        out.append(
            f'<text x="{left}" y="18" {FONT} font-size="14" font-weight="bold">'
            f"{escape(title)}</text>"
        )
    out.append(
        f'<text x="{left}" y="{33 if title else 24}" {FONT} font-size="11" fill="#444">'
        f"{escape(measure)}</text>"
    )
    tick = bottom
    while tick <= top + step / 1000:
        y = _n(y_of(tick))
        out.append(
            f'<line x1="{left}" y1="{y}" x2="{left + plot_w}" y2="{y}" stroke="#d9d9d9" '
            'stroke-width="1"/>'
        )
        out.append(
            f'<text x="{left - 6}" y="{y}" dy="4" text-anchor="end" {FONT} font-size="11">'
            f"{_number(tick)}</text>"
        )
        tick += step
    out.append(
        f'<line x1="{left}" y1="{head}" x2="{left}" y2="{head + plot_h}" stroke="#333"/>'
        f'<line x1="{left}" y1="{head + plot_h}" x2="{left + plot_w}" y2="{head + plot_h}" '
        'stroke="#333"/>'
    )
    every = max(1, math.ceil(count / 14))
    for i, (label, _) in enumerate(points):
        if i % every and i != count - 1:
            continue
        at, below = _n(x_of(i)), head + plot_h + 14
        out.append(
            f'<text x="{at}" y="{below}" text-anchor="end" transform="rotate(-35 {at} {below})" '
            f'{FONT} font-size="10">{escape(label)}</text>'
        )
    out.append(
        f'<text x="{_n(left + plot_w / 2)}" y="{height - 6}" text-anchor="middle" {FONT} '
        f'font-size="11" fill="#444">{escape(x_title)}</text>'
    )
    # Players level on points would hide one another's lines: each line sits a little above
    # or below its true height (at most 8 pixels), so every one of them shows.
    spread = min(2.5, 16 / max(len(names) - 1, 1))
    for k, name in enumerate(names):
        colour = PALETTE[k % len(PALETTE)]
        dash = DASHES[(k // len(PALETTE)) % len(DASHES)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        shift = (k - (len(names) - 1) / 2) * spread
        xy = [(x_of(i), y_of(s[name]) + shift) for i, (_, s) in enumerate(points) if name in s]
        if len(xy) > 1:
            coords = " ".join(f"{_n(x)},{_n(y)}" for x, y in xy)
            out.append(
                f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"'
                f"{dashed}><title>{escape(name)}</title></polyline>"
            )
        if count <= 40:
            out.extend(
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="2.6" fill="{colour}"/>' for x, y in xy
            )
        last = next((s[name] for _, s in reversed(points) if name in s), None)
        ly = head + 18 * k + 8
        lx = width - legend_w
        out.append(
            f'<line x1="{lx}" y1="{ly}" x2="{lx + 22}" y2="{ly}" stroke="{colour}" '
            f'stroke-width="2.5"{dashed}/>'
            f'<text x="{lx + 28}" y="{ly}" dy="4" {FONT} font-size="11">{escape(name)}'
            f"{'' if last is None else ': ' + _number(last)}</text>"
        )
    out.append("</svg>")
    return "\n".join(out)
