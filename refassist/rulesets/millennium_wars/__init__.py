"""Millennium Wars: a two-sided operational wargame on a terrain hex map (issue 19).

The game's rules live here as they are built: ``crt`` holds the three combat results tables,
the odds columns and their shifts; ``terrain`` the Terrain Effects Table.  The ruleset is
registered (and so offered by ``refassist new`` and ``demo``) once its scenario file, sheets,
resolution and reports are complete; until then these modules are tested on their own.
"""
