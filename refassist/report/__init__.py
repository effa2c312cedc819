"""Turn reports: each player's PDF (fog of war applied), the referee's PDF, mail, archive index.

The entry point is `refassist.report.game_reports.write_reports` (``refassist report GAME``).
The modules, from the game folder down to the drawing:

* `game_reports` - what one run does: inputs from the game folder, all reports, sheets, mail,
  the archive index;
* `build` - rendering one report (fast or naive) and many in parallel processes;
* `render` - the jinja2 environment and WeasyPrint layout, both locked down; `fetcher` - the
  only URLs a report may load;
* `maps`, `mapdraw`, `mapmodel`, `drawing` - map pages as display lists, shared base layer
  cached; `cairomap` and `svgmap` - the two backends; `stamp` - placing the drawings on pages;
* `mailing` (the archive site is `refassist.archive`).

Nothing here names a game: the content of a report comes from `Ruleset.report_content` and the
map from `Ruleset.report_map`.  Importing this package is cheap (no WeasyPrint until a report
is rendered).
"""
