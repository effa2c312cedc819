"""Turn reports: each player's PDF (fog of war applied), the referee's PDF, mail, archive index.

The entry point is `refassist.report.game_reports.write_reports` (``refassist report GAME``).
The modules, from the game folder down:

* `game_reports` - what one run does: inputs from the game folder, all reports, sheets, mail,
  the archive index;
* `build` - rendering one report (fast or naive) and many in parallel processes;
* `maps` - a hex sector's map pages, the shared base layer cached;
* `mailing` (the archive site is `refassist.archive`).

Below it: the typesetter (`refassist.typeset`: templates to HTML, HTML to PDF with Pango and
cairo or WeasyPrint) and the drawings (`refassist.drawings`: maps, boards, networks).  Nothing
here names a game: the content of a report comes from `Ruleset.report_content` and the map
from `Ruleset.report_map`.  Importing this package is cheap (no WeasyPrint until a report is
rendered).
"""
