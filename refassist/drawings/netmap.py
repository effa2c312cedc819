"""A map of places joined by links (star systems and jump routes, towns and roads), as data.

Not every game is played on a hex sector: some move pieces between named places along links of
a given length.  A ruleset that plays on such a map builds a `NetworkMap` for each reader (what
a reader knows is on it, so it is per reader, unlike the shared hex sector) and hands it to the
report engine in `ReportContent.network`; `netdraw` draws it as SVG.  The model names no game:
a node is a place with a position, an owner as the reader knows it, a few lines of text (who is
there) and flags for "out of sight" and "fought over this turn".
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Node kinds the drawing knows: an ordinary place, a home place (drawn with a double ring),
#: and open space between places (drawn as a small diamond).
NODE_KINDS = ("place", "home", "open")


@dataclass(frozen=True)
class NetOwner:
    """One owner on the map: its name, a short tag printed beside its places, and a style
    number (`netdraw.OWNER_STYLES`) so owners stay apart in black-and-white print."""

    name: str
    tag: str
    style: int


@dataclass(frozen=True)
class NetMark:
    """A small item shown inside a node's label block: ``text`` (``W Sol 1``) owned by
    ``owner`` (a `NetOwner` name, or empty for no one)."""

    text: str
    owner: str = ""


@dataclass(frozen=True)
class NetNode:
    """One place of the map.

    ``x``/``y`` are in map units (any range; the drawing scales the whole map to its box).
    ``owner`` is the owner of the place as the reader knows it (empty = no one or unknown);
    ``marks`` are the items listed under its name (planets, markers); ``lines`` free text
    lines (forces seen there); ``shaded`` means the reader does not see it now; ``battle``
    that a fight took place there this turn.
    """

    code: str
    name: str
    x: float
    y: float
    kind: str = "place"
    owner: str = ""
    marks: tuple[NetMark, ...] = ()
    lines: tuple[str, ...] = ()
    shaded: bool = False
    battle: bool = False


@dataclass(frozen=True)
class NetLink:
    """A link between nodes ``a`` and ``b``; ``length`` above 1 is printed on it (``label``
    overrides the printed text)."""

    a: str
    b: str
    length: int = 1
    label: str = ""

    @property
    def text(self) -> str:
        if self.label:
            return self.label
        return str(self.length) if self.length > 1 else ""


@dataclass(frozen=True)
class NetworkMap:
    """A whole node-and-link map as one reader sees it; ``subtitle`` says whose view it is."""

    title: str
    nodes: tuple[NetNode, ...]
    links: tuple[NetLink, ...]
    owners: tuple[NetOwner, ...] = ()
    subtitle: str = ""
    #: Notes printed under the legend (what shading means in this game, and so on).
    notes: tuple[str, ...] = field(default_factory=tuple)
    #: A square grid drawn behind the places, (columns, rows), for a map measured in squares:
    #: square (c, r) from 1 spans map units c-1..c and r-1..r, so a place in it sits at
    #: (c - 0.5, r - 0.5).  None: no grid.
    grid: tuple[int, int] | None = None
    #: Squares of the grid drawn dark: what no route may cross.
    blocked: tuple[tuple[int, int], ...] = ()
    #: What the legend calls a node kind in this game, where its default words do not fit
    #: (``("open", "wormhole")``: a game whose diamond nodes are wormholes, not open space).
    kind_names: tuple[tuple[str, str], ...] = ()

    def node(self, code: str) -> NetNode | None:
        for n in self.nodes:
            if n.code == code:
                return n
        return None

    def owner(self, name: str) -> NetOwner | None:
        for o in self.owners:
            if o.name == name:
                return o
        return None
