"""The game's names for its ships, pieces and sides as sheets and reports show them (translated
for the reader by `i18n.current`, or a given `Words`), in a module of their own because the
order sheet, the battle sheet, the battles and the reports all use them.

The msgids are English; the French catalog gives the seed's words.  Counts go through the
catalog's plural forms ("2 frégates", never "frégate(s)"), and a sentence that says what
became of a piece names the piece's kind in its own msgid, so French can make the participle
agree ("la corvette 1 ... est détruite", "le vaisseau 1 ... est détruit").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...text.i18n import Said, Words, again, current, said, said_plural
from ...text.words import N_
from .charts import SHIP_TYPES

SHIP_LABELS = {
    "corvette": N_("corvette"),
    "fregate": N_("frigate"),
    "vaisseau": N_("ship of the line"),
    "porte_intercepteur": N_("carrier"),
    "colonisation": N_("colony ship"),
}
#: By the sides' keys (`state.ALIEN`, `state.EMPIRE`, written out: the state imports the
#: tactical module, which names its pieces here).
SIDE_LABELS = {"extraterrestre": N_("the Extraterrestrial"), "empire": N_("the Empire")}
#: A fleet as a sentence names it: both sides have fleets of the same letters (TAB 1), so the
#: letter alone leaves the reader guessing whose fleet δ was destroyed.
FLEET_OF = {
    "extraterrestre": N_("{letter} of the Extraterrestrial"),
    "empire": N_("{letter} of the Empire"),
}


def fleet_of(side: str, letter: str) -> Said:
    """The fleet ``letter`` of ``side`` as a sentence's ``{fleet}`` (said again in each
    reader's language): "fleet δ of the Empire", « la flotte δ de l'Empire »."""
    return said(FLEET_OF[side], letter=letter)


#: ``n`` ships of a type by the catalog's plural forms (written out, so the extractor sees each).
_SAID_COUNTED = {
    "corvette": lambda n: said_plural("{n} corvette", "{n} corvettes", n),
    "fregate": lambda n: said_plural("{n} frigate", "{n} frigates", n),
    "vaisseau": lambda n: said_plural("{n} ship of the line", "{n} ships of the line", n),
    "porte_intercepteur": lambda n: said_plural("{n} carrier", "{n} carriers", n),
    "colonisation": lambda n: said_plural("{n} colony ship", "{n} colony ships", n),
}


def ships_said(kind: str, n: int) -> Said | str:
    """``n`` ships of ``kind`` as a `Said` ("2 frégates"), for a sentence a report says again
    in its reader's language; an unknown kind as it was written."""
    found = _SAID_COUNTED.get(kind)
    return found(n) if found is not None else f"{n} {kind}"


def ships_counted(kind: str, n: int, w: Words | None = None) -> str:
    """``n`` ships of ``kind`` in the reader's words: "1 corvette", "2 frégates"."""
    return again(ships_said(kind, n), w or current())


def kind_said(kind: str) -> Said | str:
    """A ship type's name as a `Said` (``frégate``), or the word as written if not one."""
    return said(SHIP_LABELS[kind]) if kind in SHIP_LABELS else kind


def ship_list(kinds: Sequence[str], w: Words | None = None) -> str:
    """``1 corvette, 2 frégates``: the ships of each type, in the order of TAB 1."""
    words = w or current()
    counts = {k: sum(1 for x in kinds if x == k) for k in SHIP_TYPES}
    shown = [ships_counted(k, n, words) for k, n in counts.items() if n]
    return ", ".join(shown) or words.gettext("no ships")


#: A piece of a battle by its kind: a ship of a fleet, a planet's base, a carrier's interceptor.
PIECE_NAMES = {
    "corvette": N_("corvette {n} of fleet {owner}"),
    "fregate": N_("frigate {n} of fleet {owner}"),
    "vaisseau": N_("ship of the line {n} of fleet {owner}"),
    "porte_intercepteur": N_("carrier {n} of fleet {owner}"),
    "colonisation": N_("colony ship {n} of fleet {owner}"),
    "base": N_("base {n} of {owner}"),
    "intercepteur": N_("interceptor {n} of {owner}"),
}
#: What became of a piece, a sentence per kind so that French agrees with the ship's gender.
PIECE_DESTROYED = {
    "corvette": N_("round {round}: corvette {n} of fleet {owner} destroyed"),
    "fregate": N_("round {round}: frigate {n} of fleet {owner} destroyed"),
    "vaisseau": N_("round {round}: ship of the line {n} of fleet {owner} destroyed"),
    "porte_intercepteur": N_("round {round}: carrier {n} of fleet {owner} destroyed"),
    "colonisation": N_("round {round}: colony ship {n} of fleet {owner} destroyed"),
    "base": N_("round {round}: base {n} of {owner} destroyed"),
    "intercepteur": N_("round {round}: interceptor {n} of {owner} destroyed"),
}
#: A ship damaged or destroyed in a battle fought on the referee's table (no round).
SHIP_DAMAGED = {
    "corvette": N_("{fleet}: a corvette damaged"),
    "fregate": N_("{fleet}: a frigate damaged"),
    "vaisseau": N_("{fleet}: a ship of the line damaged"),
    "porte_intercepteur": N_("{fleet}: a carrier damaged"),
    "colonisation": N_("{fleet}: a colony ship damaged"),
}
SHIP_LOST = {
    "corvette": N_("{fleet}: a corvette destroyed"),
    "fregate": N_("{fleet}: a frigate destroyed"),
    "vaisseau": N_("{fleet}: a ship of the line destroyed"),
    "porte_intercepteur": N_("{fleet}: a carrier destroyed"),
    "colonisation": N_("{fleet}: a colony ship destroyed"),
}
#: The same on the battle sheet as the referee's tool read it back: which ship of its fleet.
SHIP_DAMAGED_NUMBERED = {
    "corvette": N_("{fleet}: corvette #{n} damaged"),
    "fregate": N_("{fleet}: frigate #{n} damaged"),
    "vaisseau": N_("{fleet}: ship of the line #{n} damaged"),
    "porte_intercepteur": N_("{fleet}: carrier #{n} damaged"),
    "colonisation": N_("{fleet}: colony ship #{n} damaged"),
}
SHIP_LOST_NUMBERED = {
    "corvette": N_("{fleet}: corvette #{n} destroyed"),
    "fregate": N_("{fleet}: frigate #{n} destroyed"),
    "vaisseau": N_("{fleet}: ship of the line #{n} destroyed"),
    "porte_intercepteur": N_("{fleet}: carrier #{n} destroyed"),
    "colonisation": N_("{fleet}: colony ship #{n} destroyed"),
}
_KEY = re.compile(r"^(?P<owner>.+)\.(?P<kind>[a-z_]+?)(?P<n>\d+)$")


def piece_parts(key: str) -> tuple[str, str, object]:
    """A piece's key (``A.corvette1``, ``V1.base2``, ``ω.porte_intercepteur1.i3``) as its
    kind, its number and its owner: a fleet's letter, a planet, or the carrier's name (a
    `Said`); the key itself as the kind when it is not one."""
    found = _KEY.match(key)
    if found is None:
        return key, "", ""
    owner, kind, n = found["owner"], found["kind"], found["n"]
    if kind == "i":
        return "intercepteur", n, piece_said(owner)
    return kind, n, owner


def piece_said(key: str) -> Said | str:
    """A piece's name for the reader (a `Said`, so a report says it again in its reader's
    language): ``corvette 1 of fleet A``; the key itself when it is not a piece's."""
    kind, n, owner = piece_parts(key)
    if kind not in PIECE_NAMES:
        return key
    return said(PIECE_NAMES[kind], n=n, owner=owner)


def piece_name(key: str, w: Words) -> str:
    """A piece's name in ``w``'s language (the battle tables' firer and target)."""
    kind, n, owner = piece_parts(key)
    if kind not in PIECE_NAMES:
        return key
    shown = piece_name(key.rsplit(".", 1)[0], w) if kind == "intercepteur" else owner
    return w(PIECE_NAMES[kind], n=n, owner=shown)


def piece_destroyed(round_: int, key: str) -> Said:
    """ "round 2: corvette 1 of fleet A destroyed", in a sentence of the piece's kind."""
    kind, n, owner = piece_parts(key)
    if kind not in PIECE_DESTROYED:
        return said("round {round}: {piece} destroyed", round=round_, piece=key)
    return said(PIECE_DESTROYED[kind], round=round_, n=n, owner=owner)


__all__ = [
    "FLEET_OF",
    "PIECE_DESTROYED",
    "PIECE_NAMES",
    "SHIP_DAMAGED",
    "SHIP_DAMAGED_NUMBERED",
    "SHIP_LABELS",
    "SHIP_LOST",
    "SHIP_LOST_NUMBERED",
    "SIDE_LABELS",
    "fleet_of",
    "kind_said",
    "piece_destroyed",
    "piece_name",
    "piece_said",
    "ship_list",
    "ships_counted",
    "ships_said",
]
