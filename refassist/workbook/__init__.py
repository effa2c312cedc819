"""Excel workbooks: the master workbook (game state) and the turn sheets' shared helpers."""
