"""Pango text on cairo surfaces: the few calls the report's own text pages need.

WeasyPrint lays out a page of plain paragraphs in Python, box by box; Pango does the same
line breaking in C in a fraction of the time.  `refassist.typeset.flow` uses this module to
set long chapters of text straight onto cairo PDF pages, which are then stamped onto the
report like the maps.  The libraries are opened with cffi (cairocffi's dependency), so no new
Python package is needed: Pango comes with WeasyPrint, PangoCairo with the same Debian
package family (``libpangocairo-1.0-0``).  When a library cannot be opened, `available`
says so and the report is laid out by WeasyPrint alone.

Units: the cairo surfaces are in points and the Pango context is set to 72 dpi, so a Pango
unit is 1/1024 point.  Metric hinting and glyph rounding are off: advances rounded to whole
points (what a screen wants) would space printed text unevenly and wider than WeasyPrint's.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import cairocffi
import cffi

#: Pango units in a point (PANGO_SCALE).
SCALE = 1024

_DECLARATIONS = """
typedef void cairo_t;
typedef void cairo_font_options_t;
typedef void PangoLayout;
typedef void PangoContext;
typedef void PangoLayoutIter;
typedef void PangoLayoutLine;
typedef struct { int x; int y; int width; int height; } PangoRectangle;

PangoLayout *pango_cairo_create_layout (cairo_t *cr);
PangoContext *pango_layout_get_context (PangoLayout *layout);
void pango_cairo_context_set_resolution (PangoContext *context, double dpi);
void pango_cairo_context_set_font_options (PangoContext *context,
                                           const cairo_font_options_t *options);
void pango_context_set_round_glyph_positions (PangoContext *context, int round_positions);
void pango_layout_context_changed (PangoLayout *layout);
void pango_layout_set_width (PangoLayout *layout, int width);
void pango_layout_set_wrap (PangoLayout *layout, int wrap);
void pango_layout_set_markup (PangoLayout *layout, const char *markup, int length);
void pango_layout_set_alignment (PangoLayout *layout, int alignment);
void pango_layout_get_size (PangoLayout *layout, int *width, int *height);
PangoLayoutIter *pango_layout_get_iter (PangoLayout *layout);
int pango_layout_iter_next_line (PangoLayoutIter *iter);
void pango_layout_iter_get_line_extents (PangoLayoutIter *iter, PangoRectangle *ink_rect,
                                         PangoRectangle *logical_rect);
int pango_layout_iter_get_baseline (PangoLayoutIter *iter);
PangoLayoutLine *pango_layout_iter_get_line_readonly (PangoLayoutIter *iter);
void pango_layout_iter_free (PangoLayoutIter *iter);
void pango_cairo_show_layout_line (cairo_t *cr, PangoLayoutLine *line);
void pango_layout_line_get_extents (PangoLayoutLine *line, PangoRectangle *ink_rect,
                                    PangoRectangle *logical_rect);
void g_object_unref (void *object);
"""

#: PangoWrapMode PANGO_WRAP_WORD_CHAR: break at words, inside a word only when it is alone
#: on a line and too long (CSS ``overflow-wrap: anywhere`` for a long notation); and
#: PANGO_WRAP_WORD, at words only (a table column's least width is its longest word).
_WRAP_WORD_CHAR = 2
_WRAP_WORD = 0
#: PangoAlignment values.
ALIGN = {"left": 0, "center": 1, "right": 2}


class _Libraries:
    def __init__(self) -> None:
        self.ffi = cffi.FFI()
        self.ffi.cdef(_DECLARATIONS)
        self.pango = self.ffi.dlopen("libpango-1.0.so.0")
        self.pangocairo = self.ffi.dlopen("libpangocairo-1.0.so.0")
        self.gobject = self.ffi.dlopen("libgobject-2.0.so.0")
        options = cairocffi.FontOptions()
        options.set_hint_metrics(cairocffi.HINT_METRICS_OFF)
        options.set_hint_style(cairocffi.HINT_STYLE_NONE)
        self.font_options = options


@functools.cache
def _libraries() -> _Libraries | None:
    try:
        return _Libraries()
    except OSError:
        return None


def available() -> bool:
    """Whether Pango and PangoCairo could be opened on this machine."""
    return _libraries() is not None


@dataclass(frozen=True)
class Line:
    """One laid-out line: its logical box relative to the layout's top left, in points, and
    its baseline; ``handle`` is Pango's line (valid while its `Text` lives).  ``left`` is
    where the line starts in the layout's width (more than 0 when aligned right or centred)."""

    top: float
    height: float
    baseline: float
    width: float
    handle: Any
    left: float = 0.0


class Text:
    """A paragraph of Pango markup wrapped at ``width`` points (never wrapped with
    ``None``: its own line breaks only; ``words_only``: never inside a word), measured line
    by line.

    Made on the surface's context it will be drawn on (fonts are chosen for it); the lines
    are then drawn one at a time, so a paragraph can be split between pages.
    """

    def __init__(
        self,
        context: cairocffi.Context,
        markup: str,
        width: float | None,
        align: str = "left",
        *,
        words_only: bool = False,
    ) -> None:
        libs = _libraries()
        if libs is None:
            raise RuntimeError("Pango is not available on this machine")
        self._libs = libs
        self._context = context
        ffi = libs.ffi
        self._cr = ffi.cast("cairo_t *", int(cairocffi.ffi.cast("uintptr_t", context._pointer)))
        layout = libs.pangocairo.pango_cairo_create_layout(self._cr)
        self._layout = ffi.gc(layout, libs.gobject.g_object_unref)
        pango_context = libs.pango.pango_layout_get_context(layout)
        libs.pangocairo.pango_cairo_context_set_resolution(pango_context, 72.0)
        options = ffi.cast(
            "cairo_font_options_t *",
            int(cairocffi.ffi.cast("uintptr_t", libs.font_options._pointer)),
        )
        libs.pangocairo.pango_cairo_context_set_font_options(pango_context, options)
        libs.pango.pango_context_set_round_glyph_positions(pango_context, 0)
        libs.pango.pango_layout_context_changed(layout)
        libs.pango.pango_layout_set_width(
            layout, -1 if width is None else max(1, int(width * SCALE))
        )
        libs.pango.pango_layout_set_wrap(layout, _WRAP_WORD if words_only else _WRAP_WORD_CHAR)
        libs.pango.pango_layout_set_alignment(layout, ALIGN[align])
        data = markup.encode("utf-8")
        libs.pango.pango_layout_set_markup(layout, data, len(data))
        self.lines = self._measure()

    def _measure(self) -> list[Line]:
        libs, ffi = self._libs, self._libs.ffi
        lines: list[Line] = []
        it = libs.pango.pango_layout_get_iter(self._layout)
        logical = ffi.new("PangoRectangle *")
        try:
            while True:
                libs.pango.pango_layout_iter_get_line_extents(it, ffi.NULL, logical)
                lines.append(
                    Line(
                        top=logical.y / SCALE,
                        height=logical.height / SCALE,
                        baseline=libs.pango.pango_layout_iter_get_baseline(it) / SCALE,
                        width=logical.width / SCALE,
                        handle=libs.pango.pango_layout_iter_get_line_readonly(it),
                        left=logical.x / SCALE,
                    )
                )
                if not libs.pango.pango_layout_iter_next_line(it):
                    break
        finally:
            libs.pango.pango_layout_iter_free(it)
        return lines

    @property
    def width(self) -> float:
        """The widest line's width, in points."""
        return max((line.width for line in self.lines), default=0.0)

    def show_line(
        self, line: Line, x: float, baseline: float, context: cairocffi.Context | None = None
    ) -> None:
        """Draw ``line`` in a layout whose left edge is at ``x``, its baseline at
        ``baseline`` (points), on ``context`` (another surface's, with no other scale than
        the one it was measured on) or the context it was made on."""
        cr = self._cr
        if context is None:
            context = self._context
        elif context is not self._context:
            cr = self._libs.ffi.cast(
                "cairo_t *", int(cairocffi.ffi.cast("uintptr_t", context._pointer))
            )
        context.move_to(x + line.left, baseline)
        self._libs.pangocairo.pango_cairo_show_layout_line(cr, line.handle)
