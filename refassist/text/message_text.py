"""What a player's message may cost the players who read it, and how it is shown.

A message goes into other players' PDFs, so its sender decides how long they are: ten
messages of mostly blank lines once turned a 6-page report into 317 pages and made the report
step seven times slower.  Each game's sheet reader passes every message through
`MessageBudget.shape`, which bounds what a sender can put in front of a reader in one turn:

* runs of blank lines become one blank line;
* one message prints at most `MAX_LINES_PER_MESSAGE` lines (a long line counts as the lines it
  wraps to, `LINE_WIDTH` characters each);
* all of one sender's messages of a turn print at most `MAX_LINES_PER_SENDER` lines together
  (a message to everyone reaches every reader, so this is the most any reader gets from one
  sender).

What is cut is said, as a warning on the message's cell, in the reply the sender receives, so
the sender knows what arrived.  Invisible and direction-changing characters (a right-to-left
override makes ``sdrawkcab`` read backwards) are not removed, which would change what the
message says, but shown escaped (``\\u202e``): readers see exactly what was sent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

#: Characters of one printed line of a message in a report (a longer line wraps).
LINE_WIDTH = 100
#: Printed lines one message may take.
MAX_LINES_PER_MESSAGE = 30
#: Printed lines all of one sender's messages of a turn may take together.
MAX_LINES_PER_SENDER = 60


def escaped(text: str) -> str:
    """``text`` with every character that does not print (control, format, bidi override,
    zero-width) shown as its escape, except new lines and tabs."""
    return "".join(
        ch if ch.isprintable() or ch in "\n\t" else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )


def printed_lines(line: str) -> int:
    """How many report lines one line of text takes."""
    return max(1, math.ceil(len(line) / LINE_WIDTH))


@dataclass
class Shaped:
    """A message as it will be delivered, and what was cut from it (for the sender)."""

    text: str
    cuts: list[str] = field(default_factory=list)


@dataclass
class MessageBudget:
    """One sender's allowance of printed lines for the turn; `shape` spends it."""

    left: int = MAX_LINES_PER_SENDER

    def shape(self, raw: str) -> Shaped:
        """The message as delivered: escaped, blank runs folded, cut to the lines allowed."""
        lines = escaped(raw).replace("\r\n", "\n").replace("\r", "\n").strip().split("\n")
        cuts: list[str] = []
        kept: list[str] = []
        folded = 0
        for line in lines:
            if not line.strip() and kept and not kept[-1].strip():
                folded += 1
                continue
            kept.append(line.rstrip())
        if folded:
            cuts.append(f"{folded} blank line{'s' if folded != 1 else ''} in a row were removed")
        allowed = min(MAX_LINES_PER_MESSAGE, self.left)
        used = 0
        out: list[str] = []
        for line in kept:
            cost = printed_lines(line)
            if used + cost > allowed:
                room = allowed - used
                if room > 0:
                    out.append(line[: room * LINE_WIDTH])
                    used = allowed
                break
            out.append(line)
            used += cost
        total = sum(printed_lines(line) for line in kept)
        if total > used:
            why = (
                f"one message prints at most {MAX_LINES_PER_MESSAGE} lines"
                if allowed == MAX_LINES_PER_MESSAGE
                else f"all your messages of a turn print at most {MAX_LINES_PER_SENDER} lines "
                f"together, and {self.left} were left"
            )
            cuts.append(f"only the first {used} of its {total} printed lines are delivered ({why})")
        self.left -= used
        return Shaped("\n".join(out).strip(), cuts)
