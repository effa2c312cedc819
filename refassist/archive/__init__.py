"""The archive site: a game's whole history to browse, and a public page for its players.

* `history` - what each resolved turn was (its manifest, the state it left, its events, the
  scores in the game's own measure), read from ``archive/<step>/`` and remembered by the bytes
  of each archived master;
* `chart` - the standings chart over every turn, as SVG the project writes (the site and the
  referee's PDF report);
* `files` - every step's files (reports, sheets, archived inputs) as relative links;
* `mapimage` - a turn's map page from the referee's report, as a PNG for its web page;
* `site` - the referee's site under ``GAME/archive/`` (private: it links every report);
* `public` - the page players may see: only what the rules make public to all.

docs/archive.md says what each page holds and what each game makes public.
"""
