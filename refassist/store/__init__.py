"""The game folder and everything kept in it.

* `game` - the folder itself: open/create, load/save the state, paths, the lock;
* `atomic` writes live in `refassist.atomic`; `aside` - where things are set aside;
* `statestore`, `sheetstore` on `keptstore` - work kept between commands (``.cache/``);
* `journal` - the record of an operation in flight; `recovery` - the one way in for a command
  that writes (`working(game)`): the lock, then finish or undo an interrupted resolve/rollback;
* `turn_seed` - a step's seed and its commitment; `deadlines` - a step's deadline;
* `turnsheets` - every player's sheet for a step written, one sheet checked;
* `outbox` - the sheets, reports and replies waiting to be sent; `canonical` - a state's
  fingerprint, which the outbox records;
* `inbox_index` - the record the intake keeps of a step's filing (``index.json``), read by
  resolve, status and the reports without the sheet reader.

May import: the layers below (`refassist.layers`): text, geometry, rulesets (the registry and
the games' interface), workbook, drawings.  Never mail, intake, turns, report or the CLI.
"""
