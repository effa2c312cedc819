"""The Fifth Millennium state's lists that find their items by a key
(`refassist.rulesets.keyedlist`).

Systems, squadrons and facilities are looked up by hex (and owner) thousands of times in a
64-player turn, players by name, agreements by player pair in every battle, and the last-seen
records by player once per player view.  The keys (``hex`` of a System, Force or Facility,
``name`` of a Player, ``player`` of a Sighting, ``a`` of a Relation) are never changed on an
existing item: a move or a capture creates or merges items instead.
"""

from __future__ import annotations

from ..keyedlist import KeyedList


class HexList(KeyedList):
    """Systems, forces or facilities, looked up by hex."""

    key = "hex"


class NameList(KeyedList):
    """Players, looked up by name."""

    key = "name"


class PlayerList(KeyedList):
    """Last-seen records, looked up by player."""

    key = "player"


class RelationList(KeyedList):
    """Treaties and trade agreements, looked up by their first player (``a`` < ``b``)."""

    key = "a"
