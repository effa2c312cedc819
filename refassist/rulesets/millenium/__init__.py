"""Millenium (Simulation Games): the Empire against the Extraterrestrials, played in French.

The ruleset object only wires the game's modules to the engine; each area of the rules lives
in its own module: ``charts`` (TAB 1-3 as data, the lost tables rebuilt), ``geometry`` (the
strategic map of zones, sectors and levels), ``strategic`` (moves, stacking, hyperspace),
``conquest``, ``hexfield``/``fire``/``tactical`` (battles on the hex map), ``production``,
``victory``, ``resolve`` (a step), ``setup``, ``sheet``/``parse``/``validate`` (the sheets),
``tables`` (the master workbook), ``visibility``, ``report``/``zonemap``, ``ai``.

Its steps: the set-up (``0-empire``: the Empire's cards and placement, the Extraterrestrial's
programme and compositions), the Extraterrestrial's placement (``0-extraterrestre``),
then game turns 1-20, the Extraterrestrial moving on odd turns and the Empire on even ones;
each step expects the mover's sheet alone.  With the house rule ``battles = "referee"`` a turn
that opens battles stops after its strategic phase, and a step ``<turn>-batailles`` waits for
the referee's result sheet of each battle (``B5-1``: `tablebattles`, `battlesheet`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...text.i18n import said
from ...text.words import N_, counted
from ..base import Event, HouseRule, PlayerSetup, Ruleset, Scores, Standing, Step
from .orders import Orders
from .parse import in_language
from .resolve import step_key
from .rules import HOUSE_RULES
from .state import ALIEN, EMPIRE, State, mover, secret_public

#: The dice number of each step: the set-ups 0 and 1, then game turn n is n + 1, and the
#: battles of turn n fought on the table (house rule ``battles``) 100 + n: two steps never
#: share a number (a game has at most 99 turns, the Settings sheet's limit).
SETUP_DICE = {"0-empire": 0, "0-extraterrestre": 1}
#: The set-up steps' names before the Extraterrestrial composed at the Empire's set-up (issue
#: 52): archived steps keep them, and their reports still say them in the reader's language.
FORMER_LABELS = (N_("the Empire's set-up"), N_("the Extraterrestrial's set-up"))
BATTLE_DICE = 100


class Millenium(Ruleset[State, Orders]):
    """Millenium (see ``shared/seeds/millenium-fr.txt`` and docs/rules/millenium.md)."""

    name: ClassVar[str] = "millenium"
    aliases: ClassVar[tuple[str, ...]] = ("millenium-fr", "millenium_fr")
    title: ClassVar[str] = "Millenium"
    vocabulary: ClassVar[tuple[str, ...]] = (
        "extraterrestre",
        "extraterrestrial",
        "porte-intercepteur",
        "imperial planet",
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    house_rules: ClassVar[tuple[HouseRule, ...]] = HOUSE_RULES
    order: ClassVar[int] = 500
    map_files: ClassVar[str] = "default map, or --map FILE (docs/rules/millenium.md)"
    start_word: ClassVar[str] = "side"
    language: ClassVar[str] = "fr"
    #: The two set-ups and two game turns.
    bounded_game: ClassVar[Mapping[str, Any]] = {"last_turn": 2}

    # -- life cycle ---------------------------------------------------------------------------
    def secret_public(self, state: State, secret: str) -> bool:
        return secret_public(state, secret)

    def in_notation(self, text: str, language: str) -> str:
        """Positions in the reader's sector letters (a French reader's 23O4)."""
        return in_language(text, language)

    def current_step(self, state: State) -> Step:
        key = step_key(state)
        if state.held is not None:
            battles = tuple(b.id for b in state.held.battles)
            return Step(
                key,
                said("game turn {turn}: the battles for the referee's table", turn=state.turn),
                battles,
                waits_for_referee=True,
                dice_turn=BATTLE_DICE + state.turn,
            )
        # Said, not written: each reader reads the step's name in his language (`i18n.again`).
        if state.finished:
            # The game moved past its last step (`resolve._end`): nothing is awaited.
            return Step(str(state.turn), said("the end"), (), dice_turn=state.turn + 1)
        if state.turn == 0 and not state.systems:
            # Rule III: the Empire's cards and placement, and at the same time the
            # Extraterrestrial's programme and compositions, each in secret.
            expects: tuple[str, ...] = (state.players[EMPIRE], state.players[ALIEN])
            key = step_key(state)
            return Step(key, said("the set-up"), expects, dice_turn=SETUP_DICE[key])
        if state.turn == 0:
            side = ALIEN
            label = said("the Extraterrestrial's placement")
        else:
            side = mover(state.turn)
            if side == ALIEN:
                label = said("game turn {turn} (the Extraterrestrial)", turn=state.turn)
            else:
                label = said("game turn {turn} (the Empire)", turn=state.turn)
        expects = () if state.finished else (state.players[side],)
        return Step(key, label, expects, dice_turn=SETUP_DICE.get(key, state.turn + 1))

    # -- the demo -----------------------------------------------------------------------------
    def demo_players(self, count: int) -> list[PlayerSetup]:
        """The Empire's computer player and the Extraterrestrial's."""
        players = super().demo_players(count)
        return [
            PlayerSetup("Imperator", "imperator@example.com", "empire", computer=True),
            PlayerSetup("Xenarch", "xenarch@example.com", "extraterrestre", computer=True),
        ][: len(players)]

    def scores(self, state: State) -> Scores:
        """The systems of its secret programme the Extraterrestrial holds colonised (what
        wins it the game); the Empire wins by keeping that short."""
        held = sum(
            1
            for letter in state.programme
            if any(
                p.holder == ALIEN and p.colonised == ALIEN for p in state.systems[letter].planets
            )
        )
        return Scores(N_("programme systems colonised"), {state.players[ALIEN]: held})

    def standing(self, state: State) -> Standing | None:
        """The programme systems the Extraterrestrial holds colonised (None before any)."""
        held = int(self.scores(state).values[state.players[ALIEN]])
        if not held:
            return None
        return Standing(state.players[ALIEN], held, "programme system")

    def start_positions(self, state: State) -> dict[str, str]:
        return {state.players[EMPIRE]: "Empire", state.players[ALIEN]: "Extraterrestre"}

    def turn_highlights(self, state: State, events: Sequence[Event]) -> str:
        """Moves, jumps, battles and planets taken (a conquest's other lines, a neighbouring
        planet losing the Empire's hold, say, are not counted)."""
        kinds = [e.kind for e in events]
        taken = sum(
            1
            for e in events
            if e.kind == "conquest" and str(e.data.get("say", [""])[0]).startswith("{planet} taken")
        )
        counts = ", ".join(
            counted(kinds.count(kind), word)
            for kind, word in (("move", "move"), ("jump", "jump"), ("battle", "battle"))
        )
        return f"{counts}, {counted(taken, 'planet')} changing hands"

    # -- information --------------------------------------------------------------------------
    def players(self, state: State) -> list[str]:
        return [state.players[EMPIRE], state.players[ALIEN]]


RULESET = Millenium()

__all__ = ["RULESET", "Millenium"]
