"""How much a file a player sent may hold, whatever its format, and the refusals that say so.

A turn sheet arrives as an ``.xlsx`` (`sheetio` checks its container and worksheets) or as an
``.ods`` (`odsread` counts its rows and cells while reading it): both are held to these same
numbers, so a sheet that is refused in one format is not let through in the other.  They live
here, apart from both readers, because each reader needs them and neither may import the
other's module back.
"""

from __future__ import annotations

from ..errors import NotATurnSheet
from ..text.i18n import Said, said

#: Largest file accepted at all (a turn sheet is about 20 kB).
MAX_FILE_BYTES = 20 * 1024 * 1024
#: Largest declared uncompressed size of one zip member, and of all of them together.
MAX_MEMBER_BYTES = 25 * 1024 * 1024
MAX_TOTAL_BYTES = 50 * 1024 * 1024
#: Most members (parts) a workbook may have; an xlsx turn sheet has about 15.
MAX_MEMBERS = 1000
#: Largest compression ratio allowed for a member bigger than `RATIO_FLOOR` bytes.
MAX_RATIO = 100
RATIO_FLOOR = 1024 * 1024
#: Largest declared size of one XML part (a turn sheet's biggest, the Orders sheet, is about
#: 40 kB even after LibreOffice or Google Sheets re-saved it; an ``.ods`` keeps every page in
#: one part, about 150 kB); the XML parser holds a whole part in memory, so this bounds what it
#: can be made to build.
MAX_XML_PART_BYTES = 5 * 1024 * 1024
#: Most worksheets a workbook may list (a turn sheet has four).
MAX_SHEETS = 50
#: Most rows and cells one worksheet may hold, and the last row it may use: the spreadsheet
#: library makes an object per cell, so a sheet of a million cells costs seconds and hundreds
#: of MB before any order is read.  A turn sheet uses about 100 rows and 600 cells; Google
#: Sheets pads its export to 1,000 rows.
MAX_SHEET_ROWS = 5000
#: The longest text any input cell may hold, refused on its cell before a game reads it: a
#: bound on what any game scans.  Each game holds its own cells to less (a message to 2,000
#: characters, an order line to a few hundred) and says so in its own words.
MAX_INPUT_TEXT = 10_000
MAX_SHEET_CELLS = 100_000
MAX_ROW_INDEX = 100_000
#: The last column a spreadsheet has (XFD): an ``.ods`` cell beyond it has no place in the
#: workbook the reader builds.
MAX_COLUMN = 16_384


def too_big(name: str, what: Said) -> NotATurnSheet:
    """The refusal of a file that holds far more than a turn sheet (``what`` says what, said
    so that the player's reply gives it in their language)."""
    return NotATurnSheet(
        said(
            "{name} {what}, far more than a turn sheet; send the turn sheet you were given",
            name=name,
            what=what,
        )
    )


def far_row(name: str, row: int, part: str) -> NotATurnSheet:
    """The refusal of a file with something written in row ``row``, beyond `MAX_ROW_INDEX`:
    a single far cell makes every row above it exist for some readers."""
    return NotATurnSheet(
        said(
            "{name} has something written in row {row} of a worksheet ({part}), far outside a "
            "turn sheet (rows beyond {limit} are refused); delete it and send the sheet again",
            name=name,
            row=f"{row:,}",
            part=part,
            limit=f"{MAX_ROW_INDEX:,}",
        )
    )
