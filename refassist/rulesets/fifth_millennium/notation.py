"""Fifth Millennium notation: writing fleets, moves and system lines as the rules print them.

Section 2.3 and 4.2 of the rules::

    1827 Terra A N S Hi G0 O0 Mi0 M0 - F15 S0 A0(Fs0 Ms0 K0) - 8
    5001 - F10 S3 A1(Fs0 Ms2 K0) - 2710 - 2712 - 5003
    5001 - Probe - 3220 - 1938 - 5026

SFBA levels have no field in the printed designation; we write them as ``SF#`` after ``K#``
inside the parentheses, and only when non-zero, so sheets of games without fusion bombs look
exactly like the printed ones.  The tolerant parser for what players type lives in
`parse.py`; anything written here reads back identically there.
"""

from __future__ import annotations

from .state import Fleet, Flight


def fleet_text(fleet: Fleet) -> str:
    """``F10 S3 A1(Fs0 Ms2 K0)``, with `` SF#`` inside the parentheses when non-zero."""
    extra = f" SF{fleet.SF}" if fleet.SF else ""
    return f"F{fleet.F} S{fleet.S} A{fleet.A}(Fs{fleet.Fs} Ms{fleet.Ms} K{fleet.K}{extra})"


def move_text(
    year: int, fleet: Fleet | None, origin: str, destination: str, arrival: int | None
) -> str:
    """``5001 - F10 S3 A1(Fs0 Ms2 K0) - 2710 - 2712 - 5003``; ``fleet=None`` for a probe."""
    what = "Probe" if fleet is None else fleet_text(fleet)
    tail = f" - {arrival}" if arrival is not None else ""
    return f"{year} - {what} - {origin} - {destination}{tail}"


def system_text(
    hex_: str,
    name: str,
    resource_class: str,
    *,
    naval_base: bool = False,
    scout_base: bool = False,
    hipop: bool = False,
    spacedock: bool = False,
    gl: int = 0,
    opc: int = 0,
    mines: int = 0,
    monitors: int = 0,
    fleet: Fleet | None = None,
    income: int | None = None,
) -> str:
    """A system line: ``1827 Terra A N S Hi G0 O0 Mi0 M0 - F15 S0 A0(Fs0 Ms0 K0) - 8``.

    HiPop names are written in capitals, as on the printed map; a spacedock shows as ``(A)``
    after the resource class.
    """
    parts = [hex_, name.upper() if hipop else name, resource_class + ("(A)" if spacedock else "")]
    if naval_base:
        parts.append("N")
    if scout_base:
        parts.append("S")
    if hipop:
        parts.append("Hi")
    parts.extend([f"G{gl}", f"O{opc}", f"Mi{mines}", f"M{monitors}"])
    text = " ".join(parts)
    text += " - " + fleet_text(fleet if fleet is not None else Fleet())
    if income is not None:
        text += f" - {income}"
    return text


def flight_text(flight: Flight) -> str:
    """A fleet or probe in hyperspace as the move that sent it (`move_text`)."""
    fleet = None if flight.probe else flight.fleet
    return move_text(flight.departed, fleet, flight.origin, flight.destination, flight.arrival)
