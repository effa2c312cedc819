"""Counts in words a reader expects: "1 system", "2 systems", "1 Genetics Lab".

Reports, replies and the command line all say how many of something; "1 systems" or
"3 sheet(s)" reads like a form, not like a referee.  One helper, used by the templates (as the
``plural`` filter) and by the code that writes sentences.
"""

from __future__ import annotations


def counted(n: int, word: str, many: str = "") -> str:
    """``n`` and ``word``, in the plural (``many``, else ``word`` + "s") unless ``n`` is 1."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def N_(text: str) -> str:
    """Mark ``text`` for the translation catalogs (`refassist.text.i18n`) where it is defined;
    it is translated where a reader's translator shows it."""
    return text


#: What `Game.deadline_text` says when the game has no deadline set for a step.
NO_DEADLINE = N_("set by the referee")
