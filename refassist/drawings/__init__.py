"""Maps, boards and networks drawn, with no game in them.

What a game describes (the dataclasses it fills: `mapmodel.SectorMap`, `boardmap.HexBoard`,
`netmap.NetworkMap`) and how it is drawn: `drawing` (a display list of shapes and texts, in
PDF points), `mapdraw` (a hex sector map as a display list), `cairomap` / `svgmap` (the display
list drawn by cairo or as SVG), `boarddraw` (a terrain hex board as SVG), `netlayout` and
`netdraw` (a map of places joined by routes, laid out and drawn as SVG).

May import: the geometry and text layers.  Never the typesetter, the reports or a game; the
games import the descriptions from here.
"""
