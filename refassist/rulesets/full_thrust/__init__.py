"""The Full Thrust campaign (M. R. Blair's "More Thrust" campaign rules): commanders order a
week of activities for every ship in decimal time on a square parsec grid; the referee runs
the economy and the random tables; battles are fought on the tabletop and their results come
back to the referee.

Being built (issue 18): the rules modules here (`grid`, `clock`, `charts`, `designs`,
`timeline`, `rules`, `state`) are complete and tested on their own; the package becomes a game
the engine lists when its ``RULESET`` is defined here, with its sheets, resolution and reports.
"""
