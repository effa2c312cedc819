"""The ruleset interface shared by every game refassist referees.

A ruleset is a plug-in (python-chess's variants, OpenSpiel's games): it declares its facts and
house rules up front and implements a handful of pure functions.  The engine (game folder,
master workbook, intake, reports, CLI) talks to games only through this interface, so it never
names a game.

Why these methods, for the five games in ``shared/seeds``:

* `steps` - not every game is "everyone sends orders, then resolve".  One has a phasing player
  then a reacting one per impulse, another alternates whole turns, one waits for the results of
  battles fought on the table.  So a game is a sequence of steps, each naming whose sheets it
  waits for and whether it waits for the referee.
* `schema`/`to_tables`/`from_tables` - the master workbook is the referee's source of truth and
  is edited by hand; each game declares its tables and converts its state to and from rows, and
  the engine checks types, writes and reads the workbook.
* `write_sheet`/`read_sheet`/`validate` - each game has its own notation and sheet layout; the
  engine handles files, tokens, intake and annotation.
* `resolve` - a pure function of state, orders and dice, so a turn re-runs from the archive.
* `player_view`/`report_content`/`report_map` - fog of war is a rule of the game, not of the
  report: the ruleset says what each reader may be told and how the map looks to them; the
  report engine only lays it out.
* `computer_orders` - computer players write real sheets, so the demo and the conformance
  tests exercise the same path as a human player.
* `demo_players`/`standing`/`turn_highlights` - the demo and the conformance tests play any
  game; the game names its computer players and says who leads and what a turn brought, in its
  own terms (systems held, glory), instead of the engine reading one game's state.
* `map_required`/`generates_maps` - some games need a map file (or invent one from a seed),
  others come with a default map; ``refassist new`` asks only for what the game needs.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import importlib
import operator
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from ..dice import Dice
from ..errors import CellProblem, UsageError

if TYPE_CHECKING:
    from ..drawings.boardmap import HexBoard
    from ..drawings.mapmodel import MapOverlay, SectorMap
    from ..drawings.netmap import NetworkMap
    from ..workbook.sheetio import TurnSheetFile


@dataclass(frozen=True)
class HouseRule:
    """A rule a referee may change in ``game.toml`` (``[house_rules]``), with its default."""

    key: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None

    def check(self, value: Any) -> str | None:
        """Return a problem description if ``value`` does not fit this rule, else None."""
        if self.choices is not None and value not in self.choices:
            return f"{self.key} must be one of {', '.join(map(str, self.choices))}, not {value!r}"
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                return f"{self.key} must be true or false, not {value!r}"
        elif isinstance(self.default, int) and (
            not isinstance(value, int) or isinstance(value, bool)
        ):
            return f"{self.key} must be a whole number, not {value!r}"
        return None


#: What resolve does with a player's sheet that the intake found problems in, when no sheet
#: without problems followed it: carry out its valid orders and drop the lines at fault
#: (``carry-valid``), or use none of it (``no-orders``, the strict reading some groups want).
SHEETS_WITH_PROBLEMS = "sheets_with_problems"


def with_defaults(
    rules: Sequence[HouseRule], values: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Every house rule of ``rules``: ``values`` over their defaults, the one place a default
    is stated.  The engine passes every rule; a caller from Python (a test, a script) may
    name only the ones it changes.  Rules modules read ``rules[key]``, never a default of
    their own."""
    return {rule.key: rule.default for rule in rules} | dict(values or {})


#: House rules of the engine, which every game has (the turn's paperwork, not its rules).
ENGINE_HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        SHEETS_WITH_PROBLEMS,
        "carry-valid",
        "A player's newest sheet with problems, not corrected by the deadline: carry out its "
        "valid orders and drop the lines at fault (carry-valid), or use none of it (no-orders).",
        choices=("carry-valid", "no-orders"),
    ),
)


@dataclass(frozen=True)
class PlayerSetup:
    """One line of ``players.csv``: a player's name, e-mail and optional start position."""

    name: str
    email: str
    homeworld: str = ""
    computer: bool = False
    #: The language of the player's sheets, replies and reports (``fr``); empty: the game's.
    language: str = ""


#: Names the default `Ruleset.demo_players` gives computer players (bright stars, A to V).
COMPUTER_PLAYER_NAMES = (
    "Arcturus",
    "Betelgeuse",
    "Capella",
    "Deneb",
    "Electra",
    "Fomalhaut",
    "Gienah",
    "Hadar",
    "Izar",
    "Jabbah",
    "Kochab",
    "Lesath",
    "Mirach",
    "Nunki",
    "Okul",
    "Pollux",
    "Rigel",
    "Sabik",
    "Thuban",
    "Vega",
)


@dataclass(frozen=True)
class Standing:
    """Who leads a game, by the measure its rules count (the demo prints it each turn).

    ``measure`` is a singular noun (``system``, ``glory point``); `text` makes the plural.
    """

    leader: str
    score: int
    measure: str

    def text(self) -> str:
        plural = "s" if self.score != 1 else ""
        return f"{self.leader} ({self.score} {self.measure}{plural})"


#: The PDF anchor (named destination) of a report's first map page, by which the archive site
#: finds the map to show for a turn.  The engine sets it on the first of the pages it lays
#: out (`ReportContent.overlay`, `.network`, `.board`); a game that lays out its own map pages
#: gives its first page ``"anchor": MAP_ANCHOR`` (templates/base/netmap.html writes the id).
MAP_ANCHOR = "map"


@dataclass(frozen=True)
class Scores:
    """Every player's (or side's) score in the measure the game's rules count, for the
    standings chart of the archive and the referee's report.

    ``measure`` names what is counted, plural (``systems held``); ``values`` maps each name to
    its score, in the game's order (one entry for a single shared track, such as a glory
    index).
    """

    measure: str
    values: Mapping[str, float]


@dataclass(frozen=True)
class NewGame:
    """Everything a ruleset needs to create the first state of a game."""

    game_name: str
    game_id: str
    players: tuple[PlayerSetup, ...]
    house_rules: Mapping[str, Any]
    map_file: Path | None = None
    #: Starting forces and resources, for games whose maps come with a scenario.
    scenario_file: Path | None = None
    generate_seed: int | None = None
    assign_homeworlds: bool = False


@dataclass(frozen=True)
class Step:
    """One point in a game where the tool waits for sheets (and maybe the referee).

    ``key`` is what appears in folder names (``outbox/<key>/``) and on sheets, e.g. ``5003``.
    """

    key: str
    label: str
    expects: tuple[str, ...]
    #: The step waits for the referee: ``expects`` then names the items the referee settles
    #: (a battle fought on the table), each with a sheet the game writes and the referee fills
    #: in and files like a player's (docs/architecture.md, "Steps that wait for the referee").
    waits_for_referee: bool = False
    #: The number the step's dice are derived from, when its key is not a plain number (two
    #: steps must never share one: they would roll the same dice).  None: the key's number,
    #: or the step's place in the archive.
    dice_turn: int | None = None
    #: The game turn the step belongs to, for a game whose turn is several steps (exchanges
    #: of sheets): ``refassist demo --turns`` counts game turns by it.  None: each step is a
    #: turn of its own.
    game_turn: int | None = None


@dataclass(frozen=True)
class Event:
    """Something that happened in a turn, for the master workbook and the reports.

    ``visible_to`` lists the players who may read it (``("*",)`` for everyone, ``()`` for the
    referee only); the reports filter on it, and the fog-of-war audit checks it.  ``data`` holds
    the structured details a template needs (forces, dice, kills); ``dice`` the sequence numbers
    of the rolls used, so a disputed battle can be shown roll by roll.
    """

    turn: int
    phase: str
    location: str
    kind: str
    text: str
    players: tuple[str, ...] = ()
    visible_to: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)
    dice: tuple[int, ...] = ()

    @classmethod
    def told(
        cls,
        turn: int,
        phase: str,
        location: str,
        kind: str,
        text: str,
        players: Iterable[str] = (),
        visible_to: Iterable[str] = (),
        data: Mapping[str, Any] | None = None,
        dice: Iterable[int] = (),
    ) -> Event:
        """An event with its audience in the one form reports and the audit read: each player
        concerned once, in order; ``visible_to`` sorted, or ``*`` alone when everyone may
        read it (so equal events compare equal, and a replayed turn writes the same rows)."""
        seen = set(visible_to)
        told = ("*",) if "*" in seen else tuple(sorted(seen))
        players = tuple(dict.fromkeys(players))
        return cls(turn, phase, location, kind, text, players, told, dict(data or {}), tuple(dice))

    def visible(self, player: str) -> bool:
        """Whether ``player`` may be told about this event."""
        return "*" in self.visible_to or player in self.visible_to


@dataclass(frozen=True)
class Reference:
    """A column's values must be values of another table's column (an owner must be a player;
    a unit's fleet a fleet on the Fleets sheet).  The engine checks it when the master is read
    and pins each stray value to its cell, so a game declares it instead of writing the check.

    ``message`` and ``fix`` are the problem's words; ``{choices}`` in ``fix`` lists the values
    allowed.  ``also`` are further values allowed (``*`` for everyone).  An empty cell of a
    column that is not required is always allowed (an unowned system).  ``ignore_case`` for
    codes players and referees may type in any case (``sol`` is ``SOL``)."""

    table: str
    column: str
    message: str
    fix: str
    also: tuple[str, ...] = ()
    ignore_case: bool = False


@dataclass(frozen=True)
class Column:
    """One column of a master-workbook table.

    ``kind`` is one of ``str``, ``text`` (free text, may be empty), ``int``, ``bool``,
    ``hex`` (an ``XXYY`` id), ``json``.  ``minimum``/``maximum`` bound ints; ``choices``
    restricts values; ``refers`` names the table whose values it must hold.  ``required``
    columns may not be empty.  ``added_later`` marks a column a newer refassist added to a
    game already under way: a master workbook written before has no such column and reads as
    if every cell of it were empty (any other missing column is an error, so a column deleted
    by hand is never taken for empty).
    """

    name: str
    header: str
    kind: str = "str"
    required: bool = True
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None
    width: int = 0
    help: str = ""
    added_later: bool = False
    #: The table and column its values come from, checked by the engine (`Reference`).
    refers: Reference | None = None
    #: Headers the column had in masters written by an earlier refassist, still read.
    formerly: tuple[str, ...] = ()


def whole(name: str, header: str, help: str = "", minimum: int | None = 0, **kw: Any) -> Column:
    """A column of whole numbers (from 0 unless ``minimum`` says otherwise)."""
    return Column(name, header, "int", minimum=minimum, help=help, **kw)


def flag(name: str, header: str, help: str = "") -> Column:
    """A yes-or-no column (an empty cell is no)."""
    return Column(name, header, "bool", required=False, help=help)


def optional(name: str, header: str, help: str = "", kind: str = "str", **kw: Any) -> Column:
    """A column the referee may leave empty (of ``kind``: a code, free text...)."""
    return Column(name, header, kind, required=False, help=help, **kw)


@dataclass(frozen=True)
class Table:
    """A sheet of the master workbook: its name, columns and the columns that form its key."""

    name: str
    title: str
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()
    help: str = ""
    #: A sheet added after masters of the game were written (the change that added it, for
    #: the record): a master without it reads as having it empty.  "": always required.
    since: str = ""

    def column(self, name: str) -> Column:
        for col in self.columns:
            if col.name == name:
                return col
        raise KeyError(name)

    def row_of(self, item: Any, **values: Any) -> dict[str, Any]:
        """A row of this table from ``item``: each column from the attribute of its name,
        unless given in ``values`` (a value the state keeps in another form).  The inverse of
        `Row.to` for a table that holds some of an object's fields, such as the settings."""
        return {
            c.name: values[c.name] if c.name in values else getattr(item, c.name)
            for c in self.columns
        }


#: A dataclass a row of the master workbook is made into (`Row.to`).
T = TypeVar("T")


@dataclass
class Row:
    """A row read from the master workbook, with the cell reference of each value."""

    table: str
    number: int
    values: dict[str, Any]
    refs: dict[str, str]

    def ref(self, column: str) -> str:
        return self.refs.get(column, f"row {self.number}")

    def __getitem__(self, column: str) -> Any:
        return self.values[column]

    def get(self, column: str, default: Any = None) -> Any:
        return self.values.get(column, default)

    def to(self, cls: type[T], **values: Any) -> T:
        """The dataclass ``cls`` made from this row: each field from the column of the same
        name, unless given in ``values`` (a value the table holds in another form); fields
        without a column keep their defaults, columns without a field are left out."""
        names = [f.name for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
        found = {n: self.values[n] for n in names if n in self.values and n not in values}
        return cls(**found, **values)


def as_row(item: Any) -> dict[str, Any]:
    """A dataclass as a row of its master-workbook table, each field under the column of its
    name (the inverse of `Row.to`): `dataclasses.asdict` without its deep copy, which cost more
    than writing the workbook, since a row's fields are plain values."""
    kind: Any = type(item)  # a class: hashable, though mypy cannot tell for type[Any]
    names, get = _field_getter(kind)
    values = get(item)
    return dict(zip(names, values if len(names) > 1 else (values,), strict=True))


def fields_of(source: Any, names: str) -> dict[str, Any]:
    """The attributes ``names`` (separated by spaces) of ``source``, by name: what a view or a
    copy takes over unchanged from the object it shows (``Cls(**fields_of(s, "hex name"))``)."""
    return {name: getattr(source, name) for name in names.split()}


_ATOMS = frozenset({str, int, float, bool, type(None)})


def plain(value: Any) -> Any:
    """`dataclasses.asdict` of any value, without its deep copy: dataclasses as dicts, lists,
    tuples and dicts rebuilt as their own types (named tuples, a game's list types), every
    other value as it is.  ``asdict`` copies each leaf with `copy.deepcopy`; a state's leaves
    are strings, numbers and None, and `Ruleset.to_json` (hashed by every command that marks
    what a file was made from) took 0.05-0.1 s of a 12-player state that way."""
    if type(value) in _ATOMS:
        return value
    if isinstance(value, list):
        items = [plain(v) for v in value]
        return items if type(value) is list else type(value)(items)
    if isinstance(value, dict):
        return type(value)((plain(k), plain(v)) for k, v in value.items())
    if isinstance(value, tuple):
        if hasattr(value, "_fields"):  # a named tuple, as asdict rebuilds it
            return type(value)(*[plain(v) for v in value])
        return type(value)(plain(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names, get = _field_getter(type(value))
        values = get(value) if len(names) > 1 else (get(value),)
        return {n: plain(v) for n, v in zip(names, values, strict=True)}
    return value


@functools.cache
def _field_getter(cls: Any) -> tuple[tuple[str, ...], Any]:
    names = tuple(f.name for f in dataclasses.fields(cls))
    return names, operator.attrgetter(*names)


class RowProblems:
    """Collects the problems found across a workbook's tables while a state is built from
    them, each pinned to the cell of the row at fault (`Ruleset.from_tables`)."""

    def __init__(self, problems: list[CellProblem]) -> None:
        self.problems = problems
        self.count = 0

    def add(self, table: Table, row: Row, column: str, message: str, fix: str) -> None:
        self.count += 1
        self.problems.append(
            CellProblem(table.title, row.ref(column), str(row.get(column, "")), message, fix)
        )

    def one_row(self, table: Table, rows: Sequence[Row]) -> Row | None:
        """The only row of a one-row table (settings), or a problem and None."""
        if len(rows) == 1:
            return rows[0]
        self.count += 1
        self.problems.append(
            CellProblem(
                table.title,
                "A2",
                str(len(rows)),
                f"needs exactly one row of {table.title.lower()}",
                "keep the single row under the header",
            )
        )
        return None


@dataclass(frozen=True)
class Secret:
    """Something the rules hide from a reader, as text would tell it (`Ruleset.hidden_from`):
    ``pattern`` (a regular expression) found anywhere in what the reader received means it
    was told; ``what`` says it in words for the finding."""

    pattern: str
    what: str

    @classmethod
    def phrase(cls, text: str, what: str) -> Secret:
        """A secret told by ``text`` itself, as a whole word or phrase."""
        return cls(rf"(?<![\w-]){re.escape(text)}(?![\w-])", what)


@dataclass
class Resolution:
    """What `Ruleset.resolve` returns: the next state and what happened."""

    state: Any
    events: list[Event]
    summary: str = ""


@dataclass
class SheetRead:
    """What `Ruleset.read_sheet` returns: the orders found and the problems reading them."""

    orders: Any
    problems: list[CellProblem]
    meta: Mapping[str, str]


@dataclass(frozen=True)
class ReportInput:
    """What the report engine learns from the game folder and passes to a ruleset's report.

    ``orders`` maps each player whose sheet for the resolved step was found to the orders as
    the referee understood them (`Ruleset.orders_text`), or to ``("could not be read: ...",)``;
    ``sheets`` gives each player's sheet status for that step (``accepted``, ``late``,
    ``missing``, ``not due`` for a player the step did not wait for).  ``step`` is the resolved
    step, ``deadline`` the next one's deadline text.
    """

    step: str
    deadline: str
    orders: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    sheets: Mapping[str, str] = field(default_factory=dict)
    #: The game's house rules (ranges and the like decide what a reader may see).
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    #: Where the resolved step's dice came from (its seed, now revealed, or the referee's dice
    #: file) and the commitment to the next step's seed: `refassist.turns.dice_disclosure`.
    dice: Mapping[str, Any] = field(default_factory=dict)
    #: What each player reads (``fr``), and the game's language (the referee's report and
    #: players who name none): `Game.language_of`.
    languages: Mapping[str, str] = field(default_factory=dict)
    language: str = "en"
    #: The next deadline as each player writes dates (`Game.deadline_text` in the player's
    #: language); ``deadline`` for a reader not named.
    deadlines: Mapping[str, str] = field(default_factory=dict)
    #: The resolved step as the game names it (``Week 3``; ``""`` before the first), and the
    #: step the game waits for now (None once the game is over): what a report's cover says
    #: was resolved and what is awaited, for each reader (`awaited_context`).
    step_label: str = ""
    awaited: Step | None = None
    #: How the resolved step's label was said (``[template, values]``, when the game said
    #: it with `i18n.said`), and the game's package: each reader reads both labels in the
    #: reader's own language (`i18n.again`).
    step_say: Sequence[Any] | None = None
    package: str = ""
    #: The resolved step waited for the referee (a battle fought on the table), not for
    #: players' sheets.
    step_by_referee: bool = False

    def orders_context(self, player: str) -> dict[str, Any]:
        """What a report shows of ``player``'s sheet (`base/orders.html`'s
        ``orders_understood``): its orders as understood (None when none was read), whether
        it was due and never came, and its status.  A player the resolved step did not wait
        for (the other side's exchange, the referee's battles) is ``not due``: never told that
        no sheet came."""
        orders = self.orders.get(player)
        status = self.sheets.get(player, "")
        return {
            "orders": list(orders) if orders is not None else None,
            "no_orders": orders is None and status == "missing",
            "sheet_status": status,
            "resolved_by_referee": self.step_by_referee,
        }

    def results_of(self) -> str:
        """What a report holds, for its title: ``results of Week 3``, or, before anything was
        resolved, ``the start of the game`` (English: the titles of the games that are not
        translated)."""
        return (
            f"results of {self.step_label or self.step}" if self.step else "the start of the game"
        )

    def awaited_context(self, player: str | None) -> dict[str, Any]:
        """What the cover says was resolved and what is awaited now, true for ``player``
        (None: the referee): ``resolved_label`` (``""`` at the game's start), and
        ``awaited`` with the awaited step's ``label``, ``deadline`` (the reader's, and
        ``deadline_set``), ``yours`` (the step waits for this reader's sheet), ``referee`` (it
        waits for items the referee settles) and ``items`` (what it waits for); None when the
        game is over.  `base/orders.html`'s ``awaited_line`` says it in one sentence."""
        from ..text.i18n import again, words_for
        from ..text.words import NO_DEADLINE

        step = self.awaited
        language = self.languages.get(player or "", "") or self.language
        words = words_for(language, self.package)
        awaited: dict[str, Any] | None = None
        if step is not None:
            deadline = self.deadlines.get(player or "", "") or self.deadline
            unset = (NO_DEADLINE, words.gettext(NO_DEADLINE))
            awaited = {
                "key": step.key,
                "label": again(step.label, words),
                "deadline": deadline,
                "deadline_set": deadline not in unset,
                "yours": player is not None and player in step.expects,
                "referee": step.waits_for_referee,
                "items": list(step.expects),
            }
        resolved = again(self.step_label, words, self.step_say) if self.step_label else self.step
        return {"resolved_label": resolved, "awaited": awaited}


@dataclass
class ReportContent:
    """What a ruleset gives the report engine for one reader (a player, or the referee).

    ``template`` names the page template (``<ruleset>/player.html``); ``context`` is the data
    it lays out, already filtered by the fog of war; ``overlay`` is what the reader knows drawn
    on the map (None for no map pages); ``title`` is the document title (PDF metadata).  The
    shared page layout reads two context keys of every game: ``game`` (its name) and
    ``period`` (the step the report is for, in the game's words: ``5003``, ``turn 4``).
    """

    template: str
    context: dict[str, Any]
    overlay: MapOverlay | None = None
    title: str = ""
    #: A map of places and links (systems and jump routes) for games not played on a hex
    #: sector.  It is drawn per reader, not shared like ``report_map``, because what a reader
    #: knows (owners, forces, places out of sight) is on it; None for no such map.
    network: NetworkMap | None = None
    #: A board of terrain hexes with the units on it, for games played on one; drawn per
    #: reader like ``network`` (which enemy units a reader sees is on it); None for none.
    board: HexBoard | None = None
    #: The reader's language and the game's package (whose catalog translates the game's own
    #: texts): set by `Ruleset.report_content`, so every template's ``_()`` speaks to the
    #: reader in the reader's language.
    language: str = "en"
    package: str = ""


#: A game's state and its orders (one player's sheet as understood): each ruleset names its own
#: (``class MyGame(Ruleset[State, Orders])``), so the type checker holds its methods
#: to them; the engine passes both through without looking inside.
StateT = TypeVar("StateT")
OrdersT = TypeVar("OrdersT")
#: `Ruleset.report_content` without a public map given: it draws one.
_NOT_DRAWN: Any = object()


class Ruleset(abc.ABC, Generic[StateT, OrdersT]):
    """Base class of every game's ruleset; subclasses fill in the class attributes.

    Subclasses override only what their game needs; the engine finds them by name through
    `refassist.rulesets.find_ruleset`.  The methods that only hand work to the game's own
    modules find them by name in the game's package (the package of the subclass), so a
    game writes functions, not wiring:

    ============================  ==========================================================
    ``new_game``                  ``setup.new_game(setup, dice, rules)``
    ``resolve``                   ``resolve.resolve_turn(state, orders, dice, rules)``
    ``schema``, ``to_tables``,    ``tables.SCHEMA``, ``tables.to_tables(state)``,
    ``from_tables``, ``to_json``  ``tables.from_tables(tables, problems)``, ``tables.to_json``
    ``write_sheet`` ...           ``sheet.write_sheet``, ``sheet.read_sheet``,
                                  ``sheet.orders_text``, ``sheet.fill_sheet``
    ``validate``                  ``validate.validate_orders(state, player, orders, rules)``
    ``computer_orders``           ``ai.computer_orders(state, player, seed, rules)``
    ``player_view``               ``visibility.player_view(state, player, rules)``
    ``player_content``,           ``report.player_content(view, info)``,
    ``referee_content``           ``report.referee_content(state, info)`` (a game with a
                                  public map, `report_map`, overrides them to pass it on)
    ============================  ==========================================================

    ``rules`` is always every house rule, game.toml's values over the defaults.  A module is
    imported when first used (a game's reports and computer players are not loaded to take in
    a sheet).
    """

    #: Registry name used in ``game.toml`` and ``--ruleset``.
    name: ClassVar[str]
    #: Other names accepted by ``--ruleset`` (case-insensitive).
    aliases: ClassVar[tuple[str, ...]] = ()
    #: Human title for reports and help.
    title: ClassVar[str]
    #: Fewest and most players (or sides) a game may have.
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 20
    #: House rules with their defaults from the game's rules digest.
    house_rules: ClassVar[tuple[HouseRule, ...]] = ()
    #: Words only this game uses (its sides, its units): the engine must never say them, and
    #: `tests/test_engine_neutral.py` looks for them, with the game's name and title, in every
    #: file outside the game's own package and templates.
    vocabulary: ClassVar[tuple[str, ...]] = ()
    #: Place in `refassist.rulesets.RULESETS` (lowest first; ties by name).  The first ruleset
    #: is the default of ``refassist new`` and ``refassist demo``.
    order: ClassVar[int] = 100
    #: A new game needs a map: a map file, or (with `generates_maps`) a seed to invent one.
    #: False for a game that comes with a default map.
    map_required: ClassVar[bool] = False
    #: The game can invent a map from a seed (``NewGame.generate_seed``).
    generates_maps: ClassVar[bool] = False
    #: What ``refassist new`` takes for the game's map, in a few words, when the map comes
    #: some other way than a map file (within a scenario file, say); empty: said from
    #: `map_required` and `generates_maps`.
    map_files: ClassVar[str] = ""
    #: What a player's start position (`start_positions`, the players file's ``homeworld``
    #: column) is called in the game: ``homeworld``, ``home system``, ``side``.
    start_word: ClassVar[str] = "homeworld"
    #: What one step of the game is called where the engine counts them (``turn``; a game
    #: whose turn is several exchanges of sheets says ``exchange``).
    step_word: ClassVar[str] = "turn"
    #: House rules under which a game ends within a dozen turns (the conformance test plays
    #: one to its end); empty for a game that always does.
    bounded_game: ClassVar[Mapping[str, Any]] = {}
    #: The game's package, where `game_function` finds its modules: set to the module of the
    #: game's class (its package's ``__init__``); a subclass of a game keeps its game's.
    package: ClassVar[str] = ""
    #: The language players read unless game.toml or players.csv names another (``en``,
    #: ``fr``; `refassist.text.i18n.LANGUAGES`).  The game's own texts are translated in its
    #: package's ``locale/<lang>/LC_MESSAGES/messages.po``.
    language: ClassVar[str] = "en"
    #: The rules publish the standings (`scores`) to every player: the archive's public page
    #: then shows the chart.  False where what each side holds is private (the default).
    public_standings: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.package:
            cls.package = cls.__module__

    # -- settings -----------------------------------------------------------------------------
    def all_house_rules(self) -> tuple[HouseRule, ...]:
        """The game's own house rules, then the engine's (`ENGINE_HOUSE_RULES`)."""
        return (*self.house_rules, *ENGINE_HOUSE_RULES)

    def default_house_rules(self) -> dict[str, Any]:
        """The house rules with their default values."""
        return with_defaults(self.all_house_rules())

    def rules_with_defaults(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The game's house rules from game.toml over their defaults: rule modules read every
        key, so a game.toml written before a rule existed still plays by its default."""
        return with_defaults(self.all_house_rules(), values)

    def check_house_rules(self, values: Mapping[str, Any]) -> list[str]:
        """Problems with a ``[house_rules]`` table (unknown keys, wrong types)."""
        known = {rule.key: rule for rule in self.all_house_rules()}
        problems = [f"unknown house rule {key!r}" for key in values if key not in known]
        for key, value in values.items():
            if key in known:
                msg = known[key].check(value)
                if msg:
                    problems.append(msg)
        return problems

    def game_function(self, module: str, name: str) -> Any:
        """``name`` from the module ``module`` of the game's package (see the class note)."""
        return getattr(importlib.import_module(f"{self.package}.{module}"), name)

    # -- life cycle ---------------------------------------------------------------------------
    def new_game(self, setup: NewGame, dice: Dice) -> StateT:
        """Create the first state of a game (raise `SetupError` for impossible set-ups)."""
        rules = self.rules_with_defaults(setup.house_rules)
        return self.game_function("setup", "new_game")(setup, dice, rules)

    @abc.abstractmethod
    def current_step(self, state: StateT) -> Step:
        """The step the game is waiting at: whose sheets, and whether the referee must act."""

    def resolve(
        self,
        state: StateT,
        orders: Mapping[str, OrdersT],
        dice: Dice,
        house_rules: Mapping[str, Any],
    ) -> Resolution:
        """Resolve the current step: a pure function of state, orders and dice.

        ``orders`` maps each player who sent a valid sheet to its orders; players missing from
        it sent nothing.  The input state must not be modified.
        """
        resolve_turn = self.game_function("resolve", "resolve_turn")
        return resolve_turn(state, orders, dice, self.rules_with_defaults(house_rules))

    def game_over(self, state: StateT) -> str:
        """An empty string while the game goes on, else who won and why: the state's
        ``finished``, which every game's state keeps (its rules set it when the game ends, the
        master workbook's settings show it)."""
        finished: str = operator.attrgetter("finished")(state)
        return finished

    def secret_public(self, state: StateT, secret: str) -> bool:
        """Whether what the rules drew as ``secret`` (`Dice.draws_secret`) is public in
        ``state``, so the seed of the step that drew it may be published: a step's seed lets
        anyone replay its dice.  The default keeps every such seed until the game is over
        (`turns.dice_disclosure` publishes them all then); a game whose secrets come out
        during play says when."""
        return False

    def in_notation(self, text: str, language: str) -> str:
        """``text`` (a sentence said to every player, on the public page) written in the
        notation a reader of ``language`` reads; the default: as it is.  A game whose printed
        notation differs by language (a compass letter, say) writes it the reader's way."""
        return text

    # -- master workbook ----------------------------------------------------------------------
    def schema(self) -> tuple[Table, ...]:
        """The tables of the master workbook, in sheet order."""
        return self.game_function("tables", "SCHEMA")

    def to_tables(self, state: StateT) -> dict[str, list[dict[str, Any]]]:
        """The state as rows of each table (values already of the column kinds)."""
        return self.game_function("tables", "to_tables")(state)

    def from_tables(
        self, tables: Mapping[str, Sequence[Row]], problems: list[CellProblem]
    ) -> StateT | None:
        """Build a state from rows that passed the type checks.

        Cross-table problems (unknown owner, hex not on the map, duplicates) are appended to
        ``problems`` with the cell references of the rows; the engine refuses the workbook if
        any were found (the state returned then, None or not, is never used).
        """
        return self.game_function("tables", "from_tables")(tables, problems)

    def to_json(self, state: StateT) -> dict[str, Any]:
        """The whole state as JSON-ready data (documented in docs/json-export.md)."""
        return self.game_function("tables", "to_json")(state)

    def events_of(self, state: StateT) -> list[Event]:
        """Events of the last resolved step, as kept in the state (for reports)."""
        return list(getattr(state, "events", []))

    # -- turn sheets --------------------------------------------------------------------------
    def write_sheet(
        self,
        state: StateT,
        player: str,
        path: Path,
        token: str,
        deadline: str,
        house_rules: Mapping[str, Any] | None = None,
    ) -> None:
        """Write a player's pre-filled turn sheet for the current step."""
        rules = self.rules_with_defaults(house_rules or {})
        write = self.game_function("sheet", "write_sheet")
        write(state, player, Path(path), token=token, deadline=deadline, house_rules=rules)

    def read_sheet(self, path: Path, opened: TurnSheetFile | None = None) -> SheetRead:
        """Read a turn sheet: orders, reading problems and its hidden metadata.

        ``opened`` is the same file already opened by `open_turn_sheet` (the intake opens
        it first to prove whose sheet it is); reading it again from disk would double the
        cost of the intake, which is mostly openpyxl's load."""
        return self.game_function("sheet", "read_sheet")(Path(path), opened)

    def validate(
        self, state: StateT, player: str, orders: OrdersT, house_rules: Mapping[str, Any]
    ) -> list[CellProblem]:
        """Check orders against the state; errors and warnings, each pinned to a cell."""
        check = self.game_function("validate", "validate_orders")
        return check(state, player, orders, self.rules_with_defaults(house_rules))

    def orders_text(self, orders: OrdersT) -> list[str]:
        """Orders as the referee understood them, one line each, in the game's notation."""
        return self.game_function("sheet", "orders_text")(orders)

    def computer_orders(
        self, state: StateT, player: str, seed: int, house_rules: Mapping[str, Any]
    ) -> OrdersT:
        """Orders a computer player gives (deterministic for a seed)."""
        play = self.game_function("ai", "computer_orders")
        return play(state, player, seed, self.rules_with_defaults(house_rules))

    def fill_sheet(self, path: Path, orders: OrdersT) -> None:
        """Write orders into the input cells of a sheet, as a player typing them would."""
        self.game_function("sheet", "fill_sheet")(Path(path), orders)

    # -- demo -----------------------------------------------------------------------------------
    def demo_players(self, count: int) -> list[PlayerSetup]:
        """``count`` computer players for the demo and the conformance tests.

        The default names them after stars; a game whose players are fixed sides overrides it
        so that the names read well in its reports.  `UsageError` if ``count`` is outside
        `min_players`-`max_players` or more than the names available.
        """
        most = min(self.max_players, len(COMPUTER_PLAYER_NAMES))
        if not self.min_players <= count <= most:
            raise UsageError(
                f"the {self.title} demo plays with {self.min_players}-{most} players, not {count}"
            )
        return [
            PlayerSetup(name, f"{name.lower()}@example.com", computer=True)
            for name in COMPUTER_PLAYER_NAMES[:count]
        ]

    def standing(self, state: StateT) -> Standing | None:
        """Who leads and by how much, in the game's own measure; None for no leader line."""
        return None

    def in_game(self, state: StateT) -> list[str]:
        """The players still in the game, as the rules tell every player (the archive's
        public page); the default is every player."""
        return self.players(state)

    def scores(self, state: StateT) -> Scores | None:
        """Every player's or side's score in the game's own measure, for the standings
        chart (the archive site, the referee's report); None for a game that counts none."""
        return None

    def start_positions(self, state: StateT) -> dict[str, str]:
        """Where each player starts, in words (``"1827 Regina"``), for ``refassist new`` to say
        what it assigned; empty when the game has no such choice."""
        return {}

    def turn_highlights(self, state: StateT, events: Sequence[Event]) -> str:
        """What a resolved step brought, in a few words (the demo's line per turn).

        ``state`` is the state after the step, ``events`` the step's events.  The default
        counts the events; games override it with what their players care about (battles,
        captures).
        """
        return f"{len(events)} event{'s' if len(events) != 1 else ''}"

    def status_notes(self, state: StateT) -> list[str]:
        """What ``refassist status`` tells the referee of the game's sequence beside whose
        sheets it waits for (a game that skips exchanges says which and why); empty by
        default."""
        return []

    # -- information --------------------------------------------------------------------------
    @abc.abstractmethod
    def players(self, state: StateT) -> list[str]:
        """Names of every player in the game, in sheet order."""

    def player_view(
        self, state: StateT, player: str, house_rules: Mapping[str, Any] | None = None
    ) -> Any:
        """What one player may know of the state (fog of war; ranges are house rules)."""
        view = self.game_function("visibility", "player_view")
        return view(state, player, self.rules_with_defaults(house_rules or {}))

    def hidden_from(
        self, state: StateT, player: str, house_rules: Mapping[str, Any] | None = None
    ) -> list[Secret]:
        """What the rules hide from ``player`` in ``state``, as text would tell it: the
        game's declaration of its fog of war for the engine's audit of everything a player
        receives (`refassist.playeraudit`), ``visibility.hidden_from(state, player, rules)``
        of the game's package.  Worked out from the same view as the reports (`player_view`),
        so a page that shows more than the view is caught."""
        hidden = self.game_function("visibility", "hidden_from")
        found: list[Secret] = hidden(state, player, self.rules_with_defaults(house_rules or {}))
        return found

    # -- reports ------------------------------------------------------------------------------
    def report_map(self, state: StateT) -> SectorMap | None:
        """The public map every reader shares; None (the default) for a game without one,
        whose maps are drawn per reader (`ReportContent.network`, `.board`).

        It must hold nothing the fog of war hides: the engine draws it once per turn and puts
        the same drawing in every player's report.
        """
        return None

    def report_content(
        self, state: StateT, reader: str | None, info: ReportInput, public: Any = _NOT_DRAWN
    ) -> ReportContent:
        """The content of one reader's report: the referee's (``reader=None``) from the whole
        state, a player's from that player's `player_view` alone and the public map.  A game
        writes the two halves; the engine hands a player's half nothing else, so no page can
        show what the fog of war hides from its reader.  ``public``: `report_map`'s result
        when the caller has it already (the report engine draws it once per turn)."""
        if public is _NOT_DRAWN:
            public = self.report_map(state)
        if reader is None:
            content = self.referee_content(state, info, public)
        else:
            view = self.player_view(state, reader, info.house_rules)
            content = self.player_content(view, info, public)
        content.language = info.languages.get(reader or "", "") or info.language
        content.package = self.package
        return content

    def player_content(
        self, view: Any, info: ReportInput, public: SectorMap | None
    ) -> ReportContent:
        """A player's report from ``view`` (what `player_view` gave for the reader) and the
        public map every reader shares (`report_map`; None for a game without one).  The
        default is ``report.player_content(view, info)`` of the game's package, for a game
        without a public map; a game with one overrides it to pass the map on."""
        content: ReportContent = self.game_function("report", "player_content")(view, info)
        return content

    def referee_content(
        self, state: StateT, info: ReportInput, public: SectorMap | None
    ) -> ReportContent:
        """The referee's report: everything (``public`` as for `player_content`); the default
        is ``report.referee_content(state, info)`` of the game's package."""
        content: ReportContent = self.game_function("report", "referee_content")(state, info)
        return content
